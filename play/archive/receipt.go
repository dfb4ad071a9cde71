package archive

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Receipts live here rather than in play's command side because the one
// thing a receipt is for is being checked later, from the record, by anyone
// holding it: the key derivation and the seal are pure functions of the
// seed, which the command path calls to serve a head (play) and the record's
// reader calls to check it (VerifyReceipt), with no database in between.
// Their errors are the command line's (courrier verify, courrier audit
// -receipts), for operators: English.

// receiptKeyInfo names what the key derived from a game's seed is for, so
// that it can never serve as a key for anything else.
const receiptKeyInfo = "courrier receipt key v1"

// ReceiptKey returns the key under which a game's receipts commit to its
// log: HKDF-SHA256 of the game's seed, salted with the game id. It is as
// secret as the seed while the game runs and revealed with it at the end,
// so that anyone holding the record can check a receipt.
func ReceiptKey(seed games.Seed, gameID string) []byte {
	key, err := hkdf.Key(sha256.New, seed[:], []byte(gameID), receiptKeyInfo, sha256.Size)
	if err != nil {
		// hkdf.Key fails only for a length beyond 255 hash sizes.
		panic("archive: receipt key: " + err.Error())
	}
	return key
}

// ReceiptHead returns what a player is served of the log's head after an
// event: HMAC-SHA256, under the game's receipt key, of that event's chained
// hash, in hex. The store's chain itself is unkeyed; what a player receives
// hides it, because the raw hash covers every hidden card and a player who
// knows everything else could try each card until the hash matched. Once
// the seed is revealed, the record lets anyone recompute both.
func ReceiptHead(seed games.Seed, gameID string, hash []byte) string {
	m := hmac.New(sha256.New, ReceiptKey(seed, gameID))
	_, _ = m.Write(hash) // a hash.Hash never fails to write
	return hex.EncodeToString(m.Sum(nil))
}

// Receipt is what an accepted move's answer carries: the game, its version
// after the move and the hash of its last event.
type Receipt struct {
	Game    string
	Version int
	Hash    string
}

var (
	receiptVersion = regexp.MustCompile(`(?i)\bversion\D{0,4}(\d+)`)
	receiptHash    = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	// receiptGame finds the game's id where a receipt mail names the game,
	// in every language courrier writes mail in: "Coyote (game
	// k7m2p9q4rs)", "la partie k7m2p9q4rs de Coyote".
	receiptGame = regexp.MustCompile(`(?i)\b(?:game|partie)\W{0,4}([a-z0-9]{10})\b`)
)

// ParseReceipt reads a receipt: the API's receipt JSON ({"game_id",
// "version", "head"}, alone or inside a move's answer) or the text of a
// receipt mail in any language it is written in ("game abc… version 12 …
// <hash>", "la partie abc… à la version 12 … <hash>").
func ParseReceipt(text string) (Receipt, error) {
	var doc struct {
		Receipt *struct {
			GameID  string `json:"game_id"`
			Version int    `json:"version"`
			Head    string `json:"head"`
		} `json:"receipt"`
		GameID  string `json:"game_id"`
		Version int    `json:"version"`
		Head    string `json:"head"`
	}
	if json.Unmarshal([]byte(text), &doc) == nil {
		r := Receipt{Game: doc.GameID, Version: doc.Version, Hash: doc.Head}
		if doc.Receipt != nil {
			r = Receipt{Game: doc.Receipt.GameID, Version: doc.Receipt.Version, Hash: doc.Receipt.Head}
		}
		if r.Hash != "" || doc.Receipt != nil {
			if !receiptHash.MatchString(r.Hash) || len(r.Hash) != 64 || r.Version < 1 {
				return r, errors.New("this receipt has no version and 64-digit hash (\"version\" and \"head\")")
			}
			return r, nil
		}
	}
	var r Receipt
	if m := receiptGame.FindStringSubmatch(text); m != nil {
		r.Game = strings.ToLower(m[1])
	}
	m := receiptVersion.FindStringSubmatch(text)
	h := receiptHash.FindString(strings.ToLower(text))
	if m == nil || h == "" {
		return r, errors.New("no receipt found: a receipt names the game's version and a 64-digit hash (the API's receipt JSON, or the receipt mail's text)")
	}
	r.Version, _ = strconv.Atoi(m[1]) // the pattern matched digits
	r.Hash = h
	return r, nil
}

// VerifyReceipt checks a receipt against a record for everyone of an ended
// game: the record is of the receipt's game and holds, at the receipt's
// version, the event whose hash, sealed under the key derived from the
// record's revealed seed (ReceiptHead), is the receipt's. A receipt that
// carries the raw hash itself (copied from a record) is taken too.
func VerifyReceipt(rec *Record, r Receipt) error {
	if rec.Header("View") != "everything" {
		return errors.New("a receipt is checked against the record for everyone (a seat's record of a running game holds no hashes)")
	}
	game := rec.Header("Game")
	if r.Game != "" && r.Game != game {
		return fmt.Errorf("the receipt is for game %s, the record for game %s", r.Game, game)
	}
	seed, seedErr := games.ParseSeed(rec.Header("Seed"))
	for _, e := range rec.Events {
		if e.Version != r.Version {
			continue
		}
		if hex.EncodeToString(e.Hash) == r.Hash {
			return nil
		}
		if seedErr != nil {
			return errors.New("a receipt is sealed under a key derived from the game's seed, which this record does not reveal: check it against the record the players get when the game ends")
		}
		if got := ReceiptHead(seed, game, e.Hash); got != r.Hash {
			return fmt.Errorf("version %d of the record seals to receipt %s, the receipt says %s: the log is not the one that acknowledged the move", r.Version, got, r.Hash)
		}
		return nil
	}
	return fmt.Errorf("the record has no version %d", r.Version)
}

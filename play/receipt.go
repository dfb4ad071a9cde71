package play

import (
	"context"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
)

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
		panic("play: receipt key: " + err.Error())
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

// receiptHead is the receipt of the event whose chained hash is hash, for
// a command on t: under the seed of the game being created or the one
// loaded with the table. A game without a seed (none is stored before the
// seed was kept) gets no receipt rather than its raw hash.
func (t *Table) receiptHead(c *cmdCtx, hash []byte) string {
	seed := t.seed
	if c.newSeed != nil {
		seed = c.newSeed
	}
	if seed == nil {
		return ""
	}
	return ReceiptHead(*seed, t.ID, hash)
}

// CheckReceipt checks a receipt against the game's log as stored now, for
// the operator settling a dispute before the end (players check theirs
// against the record once the seed is revealed): the event at the
// receipt's version, sealed under the game's receipt key, must be the
// receipt. A *Error (CodeNotFound) names a game or version the log lacks.
func (s *Service) CheckReceipt(ctx context.Context, r Receipt) error {
	if r.Game == "" {
		return refuse(CodeInvalid, "the receipt names no game")
	}
	var hash []byte
	err := s.pool.QueryRow(ctx, `select hash from events where stream = $1 and version = $2`, Stream(r.Game), r.Version).Scan(&hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return refuse(CodeNotFound, "game %s has no version %d", r.Game, r.Version)
	}
	if err != nil {
		return fmt.Errorf("read version %d of game %s: %w", r.Version, r.Game, err)
	}
	seed, err := s.loadSeed(ctx, s.pool, r.Game)
	if errors.Is(err, pgx.ErrNoRows) {
		return refuse(CodeNotFound, "game %s keeps no seed, so its receipts cannot be checked", r.Game)
	}
	if err != nil {
		return fmt.Errorf("read the seed of game %s: %w", r.Game, err)
	}
	if got := ReceiptHead(seed, r.Game, hash); got != r.Hash {
		return fmt.Errorf("version %d of game %s seals to receipt %s, the receipt says %s: the log is not the one that acknowledged the move", r.Version, r.Game, got, r.Hash)
	}
	return nil
}

// sealReplayed turns the raw head hash kept under an idempotency key into
// the receipt the first answer carried: sealed under the game's key, from
// the table's seed, the one the command's batch loaded, or the store.
func (s *Service) sealReplayed(ctx context.Context, tx pgx.Tx, t *Table, secret storedSeed, out Outcome) (Outcome, error) {
	if out.Head == "" {
		return out, nil
	}
	raw, err := hex.DecodeString(out.Head)
	if err != nil {
		return Outcome{}, fmt.Errorf("the head kept under an idempotency key of game %s: %w", out.GameID, err)
	}
	var seed *games.Seed
	switch {
	case t != nil && t.ID == out.GameID && t.seed != nil:
		seed = t.seed
	case secret.found:
		sd, err := secret.open(s.seeds, out.GameID)
		if err != nil {
			return Outcome{}, err
		}
		seed = &sd
	default:
		sd, err := s.loadSeed(ctx, tx, out.GameID)
		if errors.Is(err, pgx.ErrNoRows) {
			out.Head = ""
			return out, nil
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("read the seed of game %s: %w", out.GameID, err)
		}
		seed = &sd
	}
	out.Head = ReceiptHead(*seed, out.GameID, raw)
	return out, nil
}

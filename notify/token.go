package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Token kinds: what a signed reply address lets its holder do.
const (
	TokenMove   = "m" // reply with a move for a seat, against a version
	TokenInvite = "i" // reply "join <name>" to an invitation
	// TokenConfirm is a reply (or a link) that confirms a sender's address
	// and runs the command that waited for it; Game holds the pending
	// command's id in base 36.
	TokenConfirm = "c"
	// TokenGame is a reply to a game's mail to a seat that asks for no
	// move (a receipt, the game-over mail, a notice, a refusal with no
	// move pending): it takes the reply verbs (dispute, away, back, claim,
	// resign) for the seat, never a move.
	TokenGame = "g"
)

// Token is what a reply address carries: signed, so that only courrier can
// make one, and bound to a game, a seat and the version the mail showed.
type Token struct {
	Kind    string    // TokenMove, TokenInvite, TokenConfirm or TokenGame
	Game    string    // the game id
	Seat    int       // the seat (-1 for an invitation)
	Version int       // the version the mail showed: a move is judged against it
	Expires time.Time // after it the address refuses mail (to the hour)
}

// Key is one HMAC key of reply tokens. The ID's last six characters tag
// the tokens it signs, so that verification picks the key without trying
// them all.
type Key struct {
	ID     string
	Secret []byte
}

// ErrBadToken is a reply address courrier did not sign, or signed for
// something else.
var ErrBadToken = errors.New("this reply address is not one courrier gave out")

// ErrExpiredToken is a reply address past its expiry.
var ErrExpiredToken = errors.New("this reply address has expired")

// Signer signs and verifies reply tokens with rotating keys: the current
// key signs, every key verifies.
type Signer struct {
	keys []Key
	now  func() time.Time
}

// NewSigner returns a signer: current signs, current and older verify.
func NewSigner(now func() time.Time, current Key, older ...Key) (*Signer, error) {
	keys := append([]Key{current}, older...)
	for _, k := range keys {
		if len(k.Secret) < 16 || len(k.ID) < 6 {
			return nil, fmt.Errorf("reply key %q: a key needs an id of 6 characters or more and 16 bytes of secret", k.ID)
		}
	}
	if now == nil {
		now = time.Now
	}
	return &Signer{keys: keys, now: now}, nil
}

var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func tag(k Key) string { return strings.ToLower(k.ID[len(k.ID)-6:]) }

// mac is the first 10 bytes of HMAC-SHA256 over the token's fields: 80 bits,
// in lower case only (some mail servers lower-case the local part).
func mac(k Key, body string) string {
	h := hmac.New(sha256.New, k.Secret)
	h.Write([]byte("courrier-reply-v1\x00" + body))
	return b32.EncodeToString(h.Sum(nil)[:10])
}

// Sign returns the token as the local-part suffix of a reply address
// (m+<token>@domain): lower-case letters, digits and dots, under 60
// characters for a game id of 10.
func (s *Signer) Sign(t Token) string {
	hours := t.Expires.Unix() / 3600
	body := strings.Join([]string{
		t.Kind, t.Game, strconv.Itoa(t.Seat), strconv.Itoa(t.Version), strconv.FormatInt(hours, 36), tag(s.keys[0]),
	}, ".")
	return body + "." + mac(s.keys[0], body)
}

// Verify reads and checks a token: ErrBadToken when it is not courrier's,
// ErrExpiredToken when it is past its expiry.
func (s *Signer) Verify(token string) (Token, error) {
	token = strings.ToLower(token)
	i := strings.LastIndexByte(token, '.')
	if i < 0 {
		return Token{}, ErrBadToken
	}
	body, sum := token[:i], token[i+1:]
	f := strings.Split(body, ".")
	if len(f) != 6 || !tokenKind(f[0]) {
		return Token{}, ErrBadToken
	}
	var key *Key
	for i := range s.keys {
		if tag(s.keys[i]) == f[5] && hmac.Equal([]byte(mac(s.keys[i], body)), []byte(sum)) {
			key = &s.keys[i]
			break
		}
	}
	if key == nil {
		return Token{}, ErrBadToken
	}
	seat, err1 := strconv.Atoi(f[2])
	version, err2 := strconv.Atoi(f[3])
	hours, err3 := strconv.ParseInt(f[4], 36, 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return Token{}, ErrBadToken
	}
	t := Token{Kind: f[0], Game: f[1], Seat: seat, Version: version, Expires: time.Unix(hours*3600, 0).UTC()}
	if !s.now().Before(t.Expires) {
		return t, ErrExpiredToken
	}
	return t, nil
}

// tokenKind reports whether kind is a kind of reply token.
func tokenKind(kind string) bool {
	return kind == TokenMove || kind == TokenInvite || kind == TokenConfirm || kind == TokenGame
}

// unsubscribeMAC signs an unsubscribe link of user for game ("" for all).
func (s *Signer) unsubscribeMAC(k Key, user, game string) string {
	return mac(k, "u."+user+"."+game)
}

// UnsubscribeToken returns the token of a one-click unsubscribe link: it
// does not expire (a link in an old mail must still work).
func (s *Signer) UnsubscribeToken(user, game string) string {
	k := s.keys[0]
	return user + "." + game + "." + tag(k) + "." + s.unsubscribeMAC(k, user, game)
}

// VerifyUnsubscribe checks an unsubscribe token and returns its user and
// game.
func (s *Signer) VerifyUnsubscribe(token string) (user, game string, err error) {
	f := strings.Split(strings.ToLower(token), ".")
	if len(f) != 4 {
		return "", "", ErrBadToken
	}
	for _, k := range s.keys {
		if tag(k) == f[2] && hmac.Equal([]byte(s.unsubscribeMAC(k, f[0], f[1])), []byte(f[3])) {
			return f[0], f[1], nil
		}
	}
	return "", "", ErrBadToken
}

// Package auth issues and verifies courrier's session tokens: short-lived
// JWTs (golang-jwt v5) signed with HMAC-SHA256, the algorithm pinned, `exp`,
// `iss` and `aud` required, the key chosen by `kid` so keys can be rotated.
package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Key is one signing key and the id tokens name it by.
type Key struct {
	ID     string
	Secret []byte // at least 32 bytes
}

// Tokens issues tokens with the current key and verifies tokens signed with
// any of its keys.
type Tokens struct {
	current  Key
	keys     map[string][]byte
	issuer   string
	audience string
	ttl      time.Duration
	now      func() time.Time
}

// ErrInvalidToken is wrapped by every verification failure; the message
// says in plain words what to do.
var ErrInvalidToken = errors.New("invalid token")

// NewTokens returns Tokens that sign with current and also accept tokens of
// the older keys (during a rotation). now is the clock (time.Now in
// production, a fake one in tests).
func NewTokens(issuer, audience string, ttl time.Duration, now func() time.Time, current Key, older ...Key) (*Tokens, error) {
	t := &Tokens{current: current, keys: map[string][]byte{}, issuer: issuer, audience: audience, ttl: ttl, now: now}
	for _, k := range append([]Key{current}, older...) {
		if k.ID == "" || len(k.Secret) < 32 {
			return nil, fmt.Errorf("signing key %q: an id and at least 32 bytes of secret are needed", k.ID)
		}
		if _, dup := t.keys[k.ID]; dup {
			return nil, fmt.Errorf("two signing keys with id %q", k.ID)
		}
		t.keys[k.ID] = k.Secret
	}
	return t, nil
}

// Purpose says what a token is for; a token is accepted only for the
// purpose it was issued for, so that a login token cannot open a session.
type Purpose string

// The purposes of courrier's tokens.
const (
	PurposeSession Purpose = "session" // a signed-in person's short-lived session
	PurposeAPI     Purpose = "api"     // a bot's or script's personal API token
	PurposeLogin   Purpose = "login"   // the one step between a login link and a session
)

// Leeway is the clock difference tolerated between the machines that issue
// and verify tokens, on expiry and issue time.
const Leeway = 30 * time.Second

// claims are a token's registered claims and its purpose.
type claims struct {
	jwt.RegisteredClaims
	Purpose Purpose `json:"purpose"`
}

// Issue returns a token for user (an opaque user id) and purpose, valid for
// the configured lifetime. A session token is made by Sessions.Open, which
// also records the session on the server; one made here names no session
// and Sessions.Verify refuses it.
func (t *Tokens) Issue(user string, purpose Purpose) (string, error) {
	tok, _, err := t.issue(user, purpose, "")
	return tok, err
}

// issue signs a token for user and purpose naming id (its `jti`; none when
// empty) and returns it with its expiry.
func (t *Tokens) issue(user string, purpose Purpose, id string) (string, time.Time, error) {
	now := t.now()
	exp := now.Add(t.ttl)
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{RegisteredClaims: jwt.RegisteredClaims{
		ID:        id,
		Subject:   user,
		Issuer:    t.issuer,
		Audience:  jwt.ClaimStrings{t.audience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(exp),
	}, Purpose: purpose})
	tok.Header["kid"] = t.current.ID
	s, err := tok.SignedString(t.current.Secret)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign token: %w", err)
	}
	return s, exp, nil
}

// Verify checks a token issued for purpose and returns its user. Any other
// algorithm than HS256 (including "none"), an unknown key id, a wrong
// issuer, audience or purpose, a missing or past expiry (beyond Leeway) all
// fail with an error wrapping ErrInvalidToken.
func (t *Tokens) Verify(token string, purpose Purpose) (string, error) {
	c, err := t.verify(token, purpose)
	if err != nil {
		return "", err
	}
	return c.Subject, nil
}

// verify is Verify, returning all the token's claims (the subject is never
// empty).
func (t *Tokens) verify(token string, purpose Purpose) (claims, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, t.key,
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(t.issuer),
		jwt.WithAudience(t.audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(Leeway),
		jwt.WithTimeFunc(t.now),
	)
	switch {
	case err == nil && c.Purpose != purpose:
		return claims{}, fmt.Errorf("%w: this token is for %s, not %s", ErrInvalidToken, orNone(c.Purpose), purpose)
	case err == nil && c.Subject != "":
		return c, nil
	case err == nil:
		return claims{}, fmt.Errorf("%w: the token names no user", ErrInvalidToken)
	case errors.Is(err, jwt.ErrTokenExpired):
		return claims{}, fmt.Errorf("%w: the token has expired; sign in again", ErrInvalidToken)
	default:
		return claims{}, fmt.Errorf("%w: the token is not one of ours or was altered; sign in again", ErrInvalidToken)
	}
}

func (t *Tokens) key(tok *jwt.Token) (any, error) {
	kid, _ := tok.Header["kid"].(string)
	secret, ok := t.keys[kid]
	if !ok {
		return nil, fmt.Errorf("unknown key id %q", kid)
	}
	return secret, nil
}

func orNone(p Purpose) string {
	if p == "" {
		return "no stated purpose"
	}
	return string(p)
}

// TTL is how long the tokens this issues are valid.
func (t *Tokens) TTL() time.Duration { return t.ttl }

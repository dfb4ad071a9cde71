package auth_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/courrier-games/courrier/api/auth"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var (
	keyA = auth.Key{ID: "a", Secret: bytes.Repeat([]byte("a"), 32)}
	keyB = auth.Key{ID: "b", Secret: bytes.Repeat([]byte("b"), 32)}
)

func TestIssueAndVerify(t *testing.T) {
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyA)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokens.Issue("u-ana", auth.PurposeSession)
	if err != nil {
		t.Fatal(err)
	}
	if user, err := tokens.Verify(tok, auth.PurposeSession); err != nil || user != "u-ana" {
		t.Fatalf("verify: %q, %v", user, err)
	}
	if _, err := tokens.Verify(tok, auth.PurposeLogin); !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "for session, not login") {
		t.Fatalf("a session token used as a login token: %v", err)
	}
	c.t = c.t.Add(time.Hour + auth.Leeway/2) // within the leeway of another machine's clock
	if _, err := tokens.Verify(tok, auth.PurposeSession); err != nil {
		t.Fatalf("a token expired by less than the leeway: %v", err)
	}
	c.t = c.t.Add(auth.Leeway)
	_, err = tokens.Verify(tok, auth.PurposeSession)
	if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired token: %v", err)
	}
}

func TestRotationAcceptsOlderKeys(t *testing.T) {
	c := &clock{time.Now()}
	old, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyA)
	tok, _ := old.Issue("u-bob", auth.PurposeAPI)
	rotated, err := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyB, keyA)
	if err != nil {
		t.Fatal(err)
	}
	if user, err := rotated.Verify(tok, auth.PurposeAPI); err != nil || user != "u-bob" {
		t.Fatalf("a token of the older key: %q, %v", user, err)
	}
	retired, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyB)
	if _, err := retired.Verify(tok, auth.PurposeAPI); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("a token of a retired key: %v", err)
	}
}

func TestVerifyRefusesForgedTokens(t *testing.T) {
	c := &clock{time.Now()}
	tokens, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyA)
	type purposed struct {
		jwt.RegisteredClaims
		Purpose string `json:"purpose,omitempty"`
	}
	claims := func(mod func(*purposed)) purposed {
		rc := purposed{RegisteredClaims: jwt.RegisteredClaims{Subject: "u-eve", Issuer: "courrier", Audience: jwt.ClaimStrings{"courrier-api"},
			IssuedAt: jwt.NewNumericDate(c.t), ExpiresAt: jwt.NewNumericDate(c.t.Add(time.Hour))}, Purpose: "session"}
		mod(&rc)
		return rc
	}
	sign := func(m jwt.SigningMethod, kid string, secret any, rc purposed) string {
		tok := jwt.NewWithClaims(m, rc)
		if kid != "" {
			tok.Header["kid"] = kid
		}
		s, err := tok.SignedString(secret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	same := func(*purposed) {}
	// The control: the same claims, properly signed, are accepted.
	if user, err := tokens.Verify(sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(same)), auth.PurposeSession); err != nil || user != "u-eve" {
		t.Fatalf("a well-made token: %q, %v", user, err)
	}
	tests := map[string]string{
		"alg none":       sign(jwt.SigningMethodNone, "a", jwt.UnsafeAllowNoneSignatureType, claims(same)),
		"HS512":          sign(jwt.SigningMethodHS512, "a", keyA.Secret, claims(same)),
		"unknown kid":    sign(jwt.SigningMethodHS256, "zz", keyA.Secret, claims(same)),
		"no kid":         sign(jwt.SigningMethodHS256, "", keyA.Secret, claims(same)),
		"wrong secret":   sign(jwt.SigningMethodHS256, "a", keyB.Secret, claims(same)),
		"wrong issuer":   sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.Issuer = "x" })),
		"wrong audience": sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.Audience = jwt.ClaimStrings{"x"} })),
		"no expiry":      sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.ExpiresAt = nil })),
		"no user":        sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.Subject = "" })),
		"no purpose":     sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.Purpose = "" })),
		"other purpose":  sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.Purpose = "login" })),
		"issued ahead":   sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *purposed) { r.IssuedAt = jwt.NewNumericDate(c.t.Add(2 * auth.Leeway)) })),
		"garbage":        "not.a.token",
	}
	for name, tok := range tests {
		t.Run(name, func(t *testing.T) {
			if user, err := tokens.Verify(tok, auth.PurposeSession); !errors.Is(err, auth.ErrInvalidToken) || user != "" {
				t.Fatalf("verify = %q, %v; want a refusal", user, err)
			}
		})
	}
}

func TestKeysAreChecked(t *testing.T) {
	if _, err := auth.NewTokens("i", "a", time.Hour, time.Now, auth.Key{ID: "short", Secret: []byte("x")}); err == nil {
		t.Fatal("a short secret was accepted")
	}
	if _, err := auth.NewTokens("i", "a", time.Hour, time.Now, keyA, keyA); err == nil {
		t.Fatal("two keys with one id were accepted")
	}
}

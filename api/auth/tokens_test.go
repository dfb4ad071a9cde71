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
	tok, err := tokens.Issue("ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if user, err := tokens.Verify(tok); err != nil || user != "ana@example.org" {
		t.Fatalf("verify: %q, %v", user, err)
	}
	c.t = c.t.Add(61 * time.Minute)
	_, err = tokens.Verify(tok)
	if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired token: %v", err)
	}
}

func TestRotationAcceptsOlderKeys(t *testing.T) {
	c := &clock{time.Now()}
	old, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyA)
	tok, _ := old.Issue("bob@example.org")
	rotated, err := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyB, keyA)
	if err != nil {
		t.Fatal(err)
	}
	if user, err := rotated.Verify(tok); err != nil || user != "bob@example.org" {
		t.Fatalf("a token of the older key: %q, %v", user, err)
	}
	retired, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyB)
	if _, err := retired.Verify(tok); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("a token of a retired key: %v", err)
	}
}

func TestVerifyRefusesForgedTokens(t *testing.T) {
	c := &clock{time.Now()}
	tokens, _ := auth.NewTokens("courrier", "courrier-api", time.Hour, c.now, keyA)
	claims := func(mod func(*jwt.RegisteredClaims)) jwt.RegisteredClaims {
		rc := jwt.RegisteredClaims{Subject: "eve@example.org", Issuer: "courrier", Audience: jwt.ClaimStrings{"courrier-api"},
			IssuedAt: jwt.NewNumericDate(c.t), ExpiresAt: jwt.NewNumericDate(c.t.Add(time.Hour))}
		mod(&rc)
		return rc
	}
	sign := func(m jwt.SigningMethod, kid string, secret any, rc jwt.RegisteredClaims) string {
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
	same := func(*jwt.RegisteredClaims) {}
	tests := map[string]string{
		"alg none":       sign(jwt.SigningMethodNone, "a", jwt.UnsafeAllowNoneSignatureType, claims(same)),
		"HS512":          sign(jwt.SigningMethodHS512, "a", keyA.Secret, claims(same)),
		"unknown kid":    sign(jwt.SigningMethodHS256, "zz", keyA.Secret, claims(same)),
		"no kid":         sign(jwt.SigningMethodHS256, "", keyA.Secret, claims(same)),
		"wrong secret":   sign(jwt.SigningMethodHS256, "a", keyB.Secret, claims(same)),
		"wrong issuer":   sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *jwt.RegisteredClaims) { r.Issuer = "x" })),
		"wrong audience": sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *jwt.RegisteredClaims) { r.Audience = jwt.ClaimStrings{"x"} })),
		"no expiry":      sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *jwt.RegisteredClaims) { r.ExpiresAt = nil })),
		"no user":        sign(jwt.SigningMethodHS256, "a", keyA.Secret, claims(func(r *jwt.RegisteredClaims) { r.Subject = "" })),
		"garbage":        "not.a.token",
	}
	for name, tok := range tests {
		t.Run(name, func(t *testing.T) {
			if user, err := tokens.Verify(tok); !errors.Is(err, auth.ErrInvalidToken) || user != "" {
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

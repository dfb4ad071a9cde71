package auth_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
)

// Session tokens: whatever a stranger sends as a bearer token, it never
// verifies unless it is one we issued (and never panics).
func FuzzVerifySession(f *testing.F) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, func() time.Time { return now },
		auth.Key{ID: "20261125-fuzz", Secret: bytes.Repeat([]byte{1}, 32)})
	if err != nil {
		f.Fatal(err)
	}
	good, err := tokens.Issue("u-ana", auth.PurposeSession)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-2])
	f.Add("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ1LWFuYSJ9.")
	f.Add("courrier_abc_def")
	f.Fuzz(func(t *testing.T, token string) {
		user, err := tokens.Verify(token, auth.PurposeSession)
		if err == nil && token != good {
			t.Fatalf("a token we did not issue verifies: %q → %s", token, user)
		}
		if err == nil && user != "u-ana" {
			t.Fatalf("our token names %q", user)
		}
	})
}

package auth_test

import (
	"errors"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// A session ends on the server when it is signed out, when its account
// signs out everywhere, or when the account is erased; its token is
// refused from then on, long before it expires. Tokens that name no
// session (made before sessions were kept) are refused too.
func TestSessionsEndOnTheServer(t *testing.T) {
	ctx := t.Context()
	pool := pgtest.New(t)
	clk := &fakeClock{t: time.Now()}
	tokens, err := auth.NewTokens("courrier", "courrier-api", 12*time.Hour, clk.Now, keyA)
	if err != nil {
		t.Fatal(err)
	}
	users, sessions := auth.NewUsers(pool), auth.NewSessions(pool, tokens, clk.Now)
	ana, _ := users.Ensure(ctx, "ana@example.org")
	bob, _ := users.Ensure(ctx, "bob@example.org")
	open := func(user string) (auth.Session, string) {
		t.Helper()
		s, tok, err := sessions.Open(ctx, user)
		if err != nil || s.User != user || s.ID == "" {
			t.Fatalf("open a session for %s: %+v, %v", user, s, err)
		}
		return s, tok
	}
	anaPhone, anaPhoneTok := open(ana.ID)
	_, anaLaptopTok := open(ana.ID)
	_, anaScriptTok := open(ana.ID)
	_, bobTok := open(bob.ID)
	bare, _ := tokens.Issue(ana.ID, auth.PurposeSession)

	check := func(step string, want map[string]bool) {
		t.Helper()
		for _, tc := range []struct {
			name, tok string
		}{{"ana's phone", anaPhoneTok}, {"ana's laptop", anaLaptopTok}, {"ana's script", anaScriptTok}, {"bob's", bobTok}, {"a token naming no session", bare}} {
			s, err := sessions.Verify(ctx, tc.tok)
			switch {
			case want[tc.name] && err != nil:
				t.Errorf("%s: %s is refused: %v", step, tc.name, err)
			case !want[tc.name] && (err == nil || !errors.Is(err, auth.ErrInvalidToken)):
				t.Errorf("%s: %s is accepted (%+v, %v)", step, tc.name, s, err)
			case !want[tc.name] && tc.tok != bare && !errors.Is(err, auth.ErrSignedOut):
				t.Errorf("%s: %s is refused, but not as signed out: %v", step, tc.name, err)
			}
		}
	}
	check("opened", map[string]bool{"ana's phone": true, "ana's laptop": true, "ana's script": true, "bob's": true})

	if err := sessions.Revoke(ctx, bob.ID, anaPhone.ID); err != nil {
		t.Fatal(err)
	}
	check("bob revokes ana's session", map[string]bool{"ana's phone": true, "ana's laptop": true, "ana's script": true, "bob's": true})

	if err := sessions.Revoke(ctx, ana.ID, anaPhone.ID); err != nil {
		t.Fatal(err)
	}
	check("ana signs out on her phone", map[string]bool{"ana's laptop": true, "ana's script": true, "bob's": true})

	n, err := sessions.RevokeAll(ctx, ana.ID)
	if err != nil || n != 2 {
		t.Fatalf("sign out everywhere: %d sessions, %v; want 2", n, err)
	}
	check("ana signs out everywhere", map[string]bool{"bob's": true})

	if err := users.Erase(ctx, bob.ID); err != nil {
		t.Fatal(err)
	}
	check("bob's account is erased", map[string]bool{})
	if _, _, err := sessions.Open(ctx, bob.ID); !errors.Is(err, auth.ErrNoUser) {
		t.Fatalf("a session for an erased account: %v", err)
	}
	if _, _, err := sessions.Open(ctx, "u-nobody"); !errors.Is(err, auth.ErrNoUser) {
		t.Fatalf("a session for an unknown account: %v", err)
	}

	// Expired sessions are refused by their token, and their rows are
	// deleted by a later sign-in.
	clk.Add(14 * time.Hour)
	if _, err := sessions.Verify(ctx, anaLaptopTok); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("an expired session: %v", err)
	}
	open(ana.ID)
	var left int
	if err := pool.QueryRow(ctx, `select count(*) from sessions where expires_at < $1`, clk.Now()).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d expired sessions are still kept after a sign-in", left)
	}
}

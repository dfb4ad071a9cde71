package notify

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReplyTokensAreSignedBoundAndExpire(t *testing.T) {
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	old := Key{ID: "20260101T000000Z-aaaaaa", Secret: bytes.Repeat([]byte{1}, 32)}
	cur := Key{ID: "20261101T000000Z-bbbbbb", Secret: bytes.Repeat([]byte{2}, 32)}
	s, err := NewSigner(clock, cur, old)
	if err != nil {
		t.Fatal(err)
	}
	tok := Token{Kind: TokenMove, Game: "abcdefgh23", Seat: 2, Version: 41, Expires: now.Add(30 * 24 * time.Hour)}
	signed := s.Sign(tok)
	if len("m+"+signed) > 64 || strings.ToLower(signed) != signed {
		t.Fatalf("token %q: a local part is at most 64 characters, in lower case", signed)
	}
	got, err := s.Verify(strings.ToUpper(signed)) // a server may change the case
	if err != nil || got.Game != tok.Game || got.Seat != 2 || got.Version != 41 || got.Kind != TokenMove {
		t.Fatalf("verify %q: %+v, %v", signed, got, err)
	}
	// Signed by the older key: still good after rotation.
	oldSigner, _ := NewSigner(clock, old)
	if _, err := s.Verify(oldSigner.Sign(tok)); err != nil {
		t.Fatalf("a token of the older key: %v", err)
	}
	// An unknown key, or any field changed, is not courrier's.
	stranger, _ := NewSigner(clock, Key{ID: "20261101T000000Z-bbbbbb", Secret: bytes.Repeat([]byte{3}, 32)})
	forged := []string{
		stranger.Sign(tok),
		strings.Replace(signed, ".41.", ".40.", 1),
		strings.Replace(signed, "m.", "i.", 1),
		strings.Replace(signed, ".2.", ".1.", 1),
		"m.abcdefgh23.2.41.zzzz.bbbbbb.aaaaaaaaaaaaaaaa",
		"", "nonsense",
	}
	for _, f := range forged {
		if _, err := s.Verify(f); !errors.Is(err, ErrBadToken) {
			t.Errorf("forged %q: %v, want ErrBadToken", f, err)
		}
	}
	// Expired.
	now = now.Add(31 * 24 * time.Hour)
	if _, err := s.Verify(signed); !errors.Is(err, ErrExpiredToken) {
		t.Fatalf("a month later: %v, want ErrExpiredToken", err)
	}
}

func TestUnsubscribeTokens(t *testing.T) {
	s, _ := NewSigner(nil, Key{ID: "k-000001", Secret: bytes.Repeat([]byte{9}, 32)})
	tok := s.UnsubscribeToken("uabc", "game123456")
	user, game, err := s.VerifyUnsubscribe(tok)
	if err != nil || user != "uabc" || game != "game123456" {
		t.Fatalf("%q: %s %s %v", tok, user, game, err)
	}
	if _, _, err := s.VerifyUnsubscribe(strings.Replace(tok, "uabc", "uabd", 1)); !errors.Is(err, ErrBadToken) {
		t.Fatalf("another user's link: %v", err)
	}
}

package notify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify"
)

// Reply addresses' tokens: a forged or garbled token never verifies (and
// never panics); a signed one does.
func FuzzReplyToken(f *testing.F) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	signer, err := notify.NewSigner(func() time.Time { return now }, notify.Key{ID: "20261125-fz", Secret: []byte("0123456789abcdef0123")})
	if err != nil {
		f.Fatal(err)
	}
	good := signer.Sign(notify.Token{Kind: notify.TokenMove, Game: "abcdefghij", Seat: 1, Version: 12, Expires: now.Add(time.Hour)})
	f.Add(good)
	f.Add(strings.ToUpper(good))
	f.Add("m.abcdefghij.1.12.zzz.tag.mac")
	f.Add("")
	f.Fuzz(func(t *testing.T, token string) {
		tok, err := signer.Verify(token)
		if err == nil && !strings.EqualFold(token, good) {
			// Another spelling may verify only if it signs the same fields.
			if tok.Game != "abcdefghij" || tok.Seat != 1 || tok.Version != 12 {
				t.Fatalf("a token not signed verifies: %q → %+v", token, tok)
			}
		}
		_, _, _ = signer.VerifyUnsubscribe(token)
	})
}

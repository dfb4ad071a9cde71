package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify"
)

// Mail from strangers: whatever arrives, reading it never panics, and the
// move lines it yields are trimmed, non-empty lines.
func FuzzReadIncoming(f *testing.F) {
	f.Add([]byte("From: a@b.c\r\nTo: m+x@courrier.test\r\nSubject: Re: move\r\nMessage-ID: <1@b.c>\r\nContent-Type: text/plain\r\n\r\nbid 3\r\n\r\n> quoted\r\n"))
	f.Add([]byte("Content-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>coyote</p><blockquote>old</blockquote>\r\n--x--\r\n"))
	f.Add([]byte("From: \"=?utf-8?q?Ana?=\" <ana@example.org>\r\nContent-Transfer-Encoding: base64\r\n\r\nYmlkIDM=\r\n"))
	f.Add([]byte("\x00\xff garbage"))
	noDNS := func(context.Context, string) ([]string, error) { return nil, errors.New("no DNS in a fuzz test") }
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := notify.ReadIncoming(context.Background(), raw, "sender@example.org", noDNS)
		if err != nil {
			return
		}
		for _, l := range notify.MoveLines(in.Text) {
			if l == "" || l != strings.TrimSpace(l) || strings.Contains(l, "\n") {
				t.Fatalf("move line %q", l)
			}
		}
	})
}

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

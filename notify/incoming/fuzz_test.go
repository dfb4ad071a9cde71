package incoming_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/notify/incoming"
)

// Mail from strangers: whatever arrives, reading it never panics, and the
// move lines it yields are trimmed, non-empty lines.
func FuzzRead(f *testing.F) {
	f.Add([]byte("From: a@b.c\r\nTo: m+x@courrier.test\r\nSubject: Re: move\r\nMessage-ID: <1@b.c>\r\nContent-Type: text/plain\r\n\r\nbid 3\r\n\r\n> quoted\r\n"))
	f.Add([]byte("Content-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>coyote</p><blockquote>old</blockquote>\r\n--x--\r\n"))
	f.Add([]byte("From: \"=?utf-8?q?Ana?=\" <ana@example.org>\r\nContent-Transfer-Encoding: base64\r\n\r\nYmlkIDM=\r\n"))
	f.Add([]byte("\x00\xff garbage"))
	noDNS := func(context.Context, string) ([]string, error) { return nil, errors.New("no DNS in a fuzz test") }
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := incoming.Read(context.Background(), raw, "sender@example.org", noDNS)
		if err != nil {
			return
		}
		for _, l := range incoming.MoveLines(in.Text) {
			if l == "" || l != strings.TrimSpace(l) || strings.Contains(l, "\n") {
				t.Fatalf("move line %q", l)
			}
		}
	})
}

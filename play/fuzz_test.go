package play_test

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/play"
)

// Game records and receipts come from anyone's disk: reading them never
// panics, and a record read back writes the same events.
func FuzzParseRecord(f *testing.F) {
	f.Add("[Record \"courrier record 1\"]\n[Game \"abcdefghij\"]\n[View \"everything\"]\n\n1 2026-11-25T10:00:00Z - api game.created {\"kind\":\"coyote\"} hash 00ff\n; The game was created.\n")
	f.Add("2 2026-11-25T10:00:00Z 1 email coyote.bid {\"bid\":3} move \"bid 3\" hash 0a\n")
	f.Add("[Record \"x\"]\n")
	f.Add("1 x - - t {")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := play.ParseRecord(strings.NewReader(text))
		if err != nil {
			return
		}
		for i, e := range rec.Events {
			if len(e.Meta) == 0 {
				t.Fatalf("event %d has no meta", i)
			}
		}
	})
}

func FuzzParseReceipt(f *testing.F) {
	f.Add(`{"receipt":{"game_id":"abcdefghij","version":12,"head":"` + strings.Repeat("ab", 32) + `"}}`)
	f.Add("Receipt: game abcdefghij version 12 " + strings.Repeat("0f", 32))
	f.Add("version")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := play.ParseReceipt(text)
		if err == nil && len(r.Hash) != 64 {
			t.Fatalf("a receipt with the hash %q", r.Hash)
		}
	})
}

// A receipt is read from the API's JSON or from the receipt mail's text.
func TestParseReceiptForms(t *testing.T) {
	head := strings.Repeat("9a", 32)
	tests := []struct {
		name, text string
		version    int
	}{
		{"API answer", `{"receipt":{"game_id":"abcdefghij","version":12,"from":11,"head":"` + head + `","replayed":false},"view":{}}`, 12},
		{"receipt alone", `{"game_id":"abcdefghij","version":7,"head":"` + head + `"}`, 7},
		{"receipt mail", "Hello Ana,\n\nYour move in Coyote abcdefghij was played:\n    bid 3\n\nThe game is now at version 12.\n\nReceipt: " + head + "\n", 12},
	}
	for _, tt := range tests {
		r, err := play.ParseReceipt(tt.text)
		if err != nil || r.Version != tt.version || r.Hash != head {
			t.Errorf("%s: %+v, %v", tt.name, r, err)
		}
	}
	if _, err := play.ParseReceipt(`{"receipt":{"version":3}}`); err == nil {
		t.Error("a receipt without its hash parses")
	}
}

// A duration is read from a stranger's reply, form or request: never a
// panic, and a duration it accepts is at least play.MinDuration.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"3d", " 36h ", "90m", "0d", "-2d", "1h30m", "d", "9223372036854775807d", "106752d", "2562047h", "1d12h", "2d -1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := play.ParseDuration(s)
		if err == nil && d < play.MinDuration {
			t.Fatalf("ParseDuration(%q) = %v, less than the minimum", s, d)
		}
	})
}

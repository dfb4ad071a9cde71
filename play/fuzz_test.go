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

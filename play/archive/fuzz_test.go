package archive_test

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/play/archive"
)

// Game records and receipts come from anyone's disk: reading them never
// panics, and a record read back writes the same events.
func FuzzParseRecord(f *testing.F) {
	f.Add("[Record \"courrier record 1\"]\n[Game \"abcdefghij\"]\n[View \"everything\"]\n\n1 2026-11-25T10:00:00Z - api game.created {\"kind\":\"coyote\"} hash 00ff\n; The game was created.\n")
	f.Add("2 2026-11-25T10:00:00Z 1 email coyote.bid {\"bid\":3} move \"bid 3\" hash 0a\n")
	f.Add("[Record \"x\"]\n")
	f.Add("1 x - - t {")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := archive.ParseRecord(strings.NewReader(text))
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
		r, err := archive.ParseReceipt(text)
		if err == nil && len(r.Hash) != 64 {
			t.Fatalf("a receipt with the hash %q", r.Hash)
		}
	})
}

// A receipt is read from the API's JSON or from the receipt mail's text,
// in every language courrier writes it in: the game's id, the version and
// the hash.
func TestParseReceiptForms(t *testing.T) {
	head := strings.Repeat("9a", 32)
	tests := []struct {
		name, text string
		game       string
		version    int
	}{
		{"API answer", `{"receipt":{"game_id":"abcdefghij","version":12,"from":11,"head":"` + head + `","replayed":false},"view":{}}`, "abcdefghij", 12},
		{"receipt alone", `{"game_id":"abcdefghij","version":7,"head":"` + head + `"}`, "abcdefghij", 7},
		{"receipt mail", "Hello Ana,\n\nYour move in Coyote (game abcdefghij) was played:\n    bid 3\n\nThe game is now at version 12.\n\nReceipt: " + head + "\n", "abcdefghij", 12},
		{"French receipt mail", "## Répondez au-dessus de cette ligne ##\n\nBonjour Ana,\n\nVotre coup dans la partie k7m2p9q4rs de Coyote a été joué :\n    enchère 4\n\n" +
			"Ce que votre coup a fait :\n- Vous avez enchéri 4.\n\nLa partie en est maintenant à la version 13.\n\nReçu : " + head + "\nCe reçu scelle le journal de la partie après votre coup.\n", "k7m2p9q4rs", 13},
		{"French receipt, nothing played", "Bonjour Ana,\n\nRien n’a été joué dans la Partie K7M2P9Q4RS.\n\nLa partie en est maintenant à la version 4.\n\nReçu : " + strings.ToUpper(head) + "\n", "k7m2p9q4rs", 4},
	}
	for _, tt := range tests {
		r, err := archive.ParseReceipt(tt.text)
		if err != nil || r.Game != tt.game || r.Version != tt.version || r.Hash != head {
			t.Errorf("%s: %+v, %v; want game %s, version %d", tt.name, r, err, tt.game, tt.version)
		}
	}
	if _, err := archive.ParseReceipt(`{"receipt":{"version":3}}`); err == nil {
		t.Error("a receipt without its hash parses")
	}
}

package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// Every game's board renders through the one generic template, for every
// seat and the public, at many points of a random game: each page shows the
// board, every player's name, the viewer's own place marked, and no word is
// missing from the game's catalog; it is drawn (SVG) wide and narrow; and
// so in every language, the viewer's place marked in its words.
func TestBoardOfEveryGame(t *testing.T) {
	reg := catalog.Registry()
	h, err := New(Config{Play: play.New(nil, reg), CSRFKey: bytes.Repeat([]byte{1}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range reg.IDs() {
		t.Run(id, func(t *testing.T) {
			eng, _ := reg.Get(id)
			players := []string{"Ana", "Bob", "Cleo", "Dan", "Eve", "Fay"}[:max(eng.Info().MinSeats, min(4, eng.Info().MaxSeats))]
			var seed games.Seed
			seed[0] = 7
			evs, err := eng.Setup(nil, players, seed.Rand(0))
			if err != nil {
				t.Fatal(err)
			}
			s, err := games.Fold(eng, eng.Info().Rules, evs)
			if err != nil {
				t.Fatal(err)
			}
			pick := seed.Rand(1 << 40)
			boards := 0
			for step := range 400 {
				pending := eng.Pending(s)
				if step%7 == 0 || len(pending) == 0 {
					for i := range int(games.Seat(len(players)) - games.Spectator) {
						seat := games.Spectator + games.Seat(i)
						lang := games.Languages()[(step/7+i)%len(games.Languages())]
						view, err := eng.View(s, seat)
						if err != nil {
							t.Fatal(err)
						}
						page, text, err := h.board(id, int(seat), view, lang)
						if err != nil {
							t.Fatalf("step %d, seat %d: %v", step, seat, err)
						}
						html := string(page)
						if !strings.Contains(html, `data-testid="board"`) || strings.Contains(html, "[games:") || strings.Contains(text, "[games:") || text == "" {
							t.Fatalf("step %d, seat %d: the board is wrong:\n%s\n%s", step, seat, html, text)
						}
						if strings.Count(html, `<svg `) != 2 || strings.Count(html, `aria-hidden="true" font-family`) != 2 || !strings.Contains(html, `data-testid="drawing"`) {
							t.Fatalf("step %d, seat %d: the board is not drawn wide and narrow, aria-hidden beside its words:\n%s", step, seat, html)
						}
						for _, name := range players {
							if !strings.Contains(html, name) {
								t.Fatalf("step %d, seat %d: the board does not name %s:\n%s", step, seat, name, html)
							}
						}
						mark := games.BoardWords().In(lang).Must(games.T("board.you"))
						if you := strings.Count(html, mark); seat >= 0 && you == 0 || seat < 0 && you > 0 {
							t.Fatalf("step %d, seat %d, %s: the board marks the viewer's place (%s) %d times:\n%s", step, seat, lang, mark, you, html)
						}
						if !strings.Contains(html, `<summary>`+Words().In(lang).Must(games.T("boards.in_words"))+`</summary>`) {
							t.Fatalf("step %d, seat %d: the board's words are not in %s:\n%s", step, seat, lang, html)
						}
						boards++
					}
				}
				if len(pending) == 0 {
					break
				}
				p := pending[pick.IntN(len(pending))]
				legal := eng.Legal(s, p.Seat)
				out, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(step+1))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range out {
					if s, err = eng.Evolve(s, e); err != nil {
						t.Fatal(err)
					}
				}
			}
			if boards < 10 {
				t.Fatalf("only %d boards drawn", boards)
			}
		})
	}
}

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
// missing from the game's catalog; it is drawn (SVG) wide and narrow.
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
					for seat := games.Spectator; seat < games.Seat(len(players)); seat++ {
						view, err := eng.View(s, seat)
						if err != nil {
							t.Fatal(err)
						}
						page, text, err := h.board(id, int(seat), view)
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
						if you := strings.Count(html, "(you)"); seat >= 0 && you == 0 || seat < 0 && you > 0 {
							t.Fatalf("step %d, seat %d: the board marks the viewer's place %d times:\n%s", step, seat, you, html)
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

package catalog_test

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
)

// Every game draws a board, and from the views of many random states, for
// every seat and the public, the board builds and every text of it is in
// the game's English catalog with exactly its arguments.
func TestEveryGamesBoardFromRandomStates(t *testing.T) {
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		t.Run(id, func(t *testing.T) {
			eng, _ := reg.Get(id)
			if eng.Words() == nil {
				t.Fatalf("%s has no catalog: every game draws a board", id)
			}
			info := eng.Info()
			states := 0
			for g := range 16 {
				var seed games.Seed
				seed[0], seed[1] = byte(g), 0xb0
				pick := seed.Rand(1 << 40)
				n := info.MinSeats + g%(info.MaxSeats-info.MinSeats+1)
				players := []string{"Ana", "Bob", "Cleo", "Dan", "Eve", "Fay"}[:n]
				evs, err := eng.Setup(nil, players, seed.Rand(0))
				if err != nil {
					t.Fatal(err)
				}
				s, err := games.Fold(eng, info.Rules, evs)
				if err != nil {
					t.Fatal(err)
				}
				for step := 1; ; step++ {
					if !gametest.CheckBoards(t, eng, s, n) {
						t.Fatalf("game %d (seed %s), step %d", g, seed, step)
					}
					states++
					pending := eng.Pending(s)
					for _, p := range pending {
						if err := eng.Words().In(games.English).Check(games.T("todo." + p.Kind)); err != nil {
							t.Fatalf("a prompt could not say what pending %q asks (todo.%s): %v", p.Kind, p.Kind, err)
						}
					}
					if len(pending) == 0 || step > 2000 {
						break
					}
					p := pending[pick.IntN(len(pending))]
					legal := eng.Legal(s, p.Seat)
					out, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(step))
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range out {
						if s, err = eng.Evolve(s, e); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			t.Logf("%s: the boards of %d states, every seat's", id, states)
		})
	}
}

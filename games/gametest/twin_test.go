package gametest_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
)

// For every engine the twin plays another world: its events differ from
// the engine's while the observer's seat is shown the same at every step
// (until a public outcome tells the worlds apart), and it finds hidden
// values to alter in every engine.
func TestTwinPlaysAWorldTheObserverCannotTell(t *testing.T) {
	reg := catalog.Registry()
	for gi, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, err := reg.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			changed, steps := 0, 0
			for g := range 3 {
				pick := rand.New(rand.NewPCG(uint64(gi), uint64(g))) //nolint:gosec // G115: small indices
				tw := gametest.NewTwin(eng, "P1", rand.New(rand.NewPCG(9, uint64(g))))
				seed := games.Seed{byte(gi), byte(g), 1} //nolint:gosec // G115: small indices
				n := eng.Info().MinSeats
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("P%d", i)
				}
				sa, sb := initial(t, eng), initial(t, eng)
				ea, err := eng.Setup(nil, names, seed.Rand(1))
				if err != nil {
					t.Fatal(err)
				}
				eb, err := tw.Setup(nil, names, seed.Rand(1))
				if err != nil {
					t.Fatal(err)
				}
				for v := 2; v < 400; v++ {
					sa, sb = evolve(t, eng, sa, ea), evolve(t, eng, sb, eb)
					obs := games.Seat(slices.Index(eng.Players(sa), "P1"))
					va, _ := eng.View(sa, obs)
					vb, _ := eng.View(sb, obs)
					if !bytes.Equal(va, vb) || eng.Result(sa).Finished {
						break
					}
					steps++
					p := eng.Pending(sa)
					if len(p) == 0 {
						break
					}
					seat := p[pick.IntN(len(p))].Seat
					var both []string
					for _, m := range eng.Legal(sa, seat) {
						if slices.Contains(eng.Legal(sb, seat), m) {
							both = append(both, m)
						}
					}
					if len(both) == 0 {
						break
					}
					m := both[pick.IntN(len(both))]
					if ea, err = eng.Decide(sa, seat, m, seed.Rand(v)); err != nil {
						t.Fatalf("%s in world A: %v", m, err)
					}
					if eb, err = tw.Decide(sb, seat, m, seed.Rand(v)); err != nil {
						t.Fatalf("%s in world B: %v", m, err)
					}
				}
				if errs := tw.Errors(); len(errs) > 0 {
					t.Fatalf("the twin lost step: %v", errs)
				}
				changed += tw.Changed()
			}
			if changed == 0 {
				t.Fatalf("the twin of %s altered nothing in %d steps: its worlds are one", kind, steps)
			}
			t.Logf("%s: %d events altered over %d indistinguishable steps", kind, changed, steps)
		})
	}
}

func initial(t *testing.T, eng games.Engine) games.State {
	t.Helper()
	s, err := eng.Initial(eng.Info().Rules)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func evolve(t *testing.T, eng games.Engine, s games.State, evs []games.RawEvent) games.State {
	t.Helper()
	for _, e := range evs {
		var err error
		if s, err = eng.Evolve(s, e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

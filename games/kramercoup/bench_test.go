package kramercoup

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// midGame returns a 4-player game after a few rounds of default moves,
// waiting for a placement.
func midGame(b *testing.B) *State {
	eng := New()
	seed := games.Seed{42}
	evs, err := eng.Setup(nil, []string{"a", "b", "c", "d"}, seed.Rand(0))
	if err != nil {
		b.Fatal(err)
	}
	gs, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		b.Fatal(err)
	}
	v := len(evs)
	for s := gs.(*State); s.Round < 3 || s.Phase != PhasePlace; s = gs.(*State) {
		p := eng.Pending(gs)[0]
		out, err := eng.Decide(gs, p.Seat, p.Default, seed.Rand(v))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range out {
			gs, err = eng.Evolve(gs, e)
			if err != nil {
				b.Fatal(err)
			}
		}
		v += len(out)
	}
	return gs.(*State)
}

// BenchmarkDecideEvolve: decide and evolve one placement (on a copy of the
// state, since Evolve modifies it).
func BenchmarkDecideEvolve(b *testing.B) {
	s := midGame(b)
	seat := games.Seat(s.Turn)
	move := "place " + s.Hands[s.Turn][0].String()
	m, err := Rules{}.Parse(s, move)
	if err != nil {
		b.Fatal(err)
	}
	gametest.BenchDecideEvolve(b, Rules{}, s, seat, m, (*State).clone)
}

// BenchmarkDecideEvolveExchange: one exchange with a refill draw.
func BenchmarkDecideEvolveExchange(b *testing.B) {
	s := midGame(b)
	for s.Phase != PhaseExchange {
		evs, err := Rules{}.Decide(s, games.Seat(s.Turn), Move{Kind: KindPlace, Tile: s.Hands[s.Turn][0]}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range evs {
			s = Rules{}.Evolve(s, e)
		}
	}
	seat := games.Seat(s.Turn)
	move := "discard " + s.Hands[s.Turn][0].String() + " " + s.Hands[s.Turn][1].String()
	m, err := Rules{}.Parse(s, move)
	if err != nil {
		b.Fatal(err)
	}
	gametest.BenchDecideEvolve(b, Rules{}, s, seat, m, (*State).clone)
}

// BenchmarkFoldLongGame: fold the stored (JSON) log of a long game: the
// longest of 30 games played by random legal moves.
func BenchmarkFoldLongGame(b *testing.B) {
	eng := New()
	var log []games.RawEvent
	for g := range 30 {
		seed := games.Seed{byte(g), 7}
		pick := seed.Rand(1 << 40)
		n := 2 + g%5
		evs, err := eng.Setup(nil, []string{"a", "b", "c", "d", "e", "f"}[:n], seed.Rand(0))
		if err != nil {
			b.Fatal(err)
		}
		gs, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			b.Fatal(err)
		}
		for {
			p := eng.Pending(gs)
			if len(p) == 0 {
				break
			}
			legal := eng.Legal(gs, p[0].Seat)
			out, err := eng.Decide(gs, p[0].Seat, legal[pick.IntN(len(legal))], seed.Rand(len(evs)))
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range out {
				gs, err = eng.Evolve(gs, e)
				if err != nil {
					b.Fatal(err)
				}
			}
			evs = append(evs, out...)
		}
		if len(evs) > len(log) {
			log = evs
		}
	}
	for b.Loop() {
		if _, err := games.Fold(eng, RulesVersion, log); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log)), "events")
}

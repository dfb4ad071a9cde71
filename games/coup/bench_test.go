package coup

import (
	"math/rand/v2"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// longGame plays a seeded 6-player game by random legal moves and returns its
// log, the longest of a few seeds.
func longGame(b *testing.B) []Event {
	b.Helper()
	r := Rules{}
	var best []Event
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 42))
		evs, err := r.Setup(games.Options{"inquisitor": "on"}, []string{"A", "B", "C", "D", "E", "F"}, rng)
		if err != nil {
			b.Fatal(err)
		}
		s := r.Initial()
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
		for len(r.Pending(s)) > 0 {
			pend := r.Pending(s)
			p := pend[rng.IntN(len(pend))]
			legal := r.Legal(s, p.Seat)
			m, _ := r.Parse(s, legal[rng.IntN(len(legal))])
			out, err := r.Decide(s, p.Seat, m, rng)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range out {
				s = r.Evolve(s, e)
			}
			evs = append(evs, out...)
		}
		if len(evs) > len(best) {
			best = evs
		}
	}
	return best
}

// BenchmarkDecideEvolve measures deciding and applying one move (a steal,
// which opens a window and records standing auto-allows).
func BenchmarkDecideEvolve(b *testing.B) {
	r := Rules{}
	g := newGame(&testing.T{}, nil, deal4(), nil)
	g.s.Players[cal].AutoAllow[W1] = true
	m, err := r.Parse(g.s, "steal bob")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		evs, err := r.Decide(g.s, ana, m, rng)
		if err != nil {
			b.Fatal(err)
		}
		s := g.s.clone()
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
	}
}

// BenchmarkFoldLongGame measures folding a whole long game's events.
func BenchmarkFoldLongGame(b *testing.B) {
	r := Rules{}
	evs := longGame(b)
	b.ReportAllocs()
	for b.Loop() {
		s := r.Initial()
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
	}
	b.ReportMetric(float64(len(evs)), "events/game")
}

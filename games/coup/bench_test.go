package coup

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// longGame plays a seeded 6-player game by random legal moves and returns its
// log, the longest of a few seeds.
func longGame(b *testing.B) []Event {
	b.Helper()
	evs, err := gametest.LongestRandomGame(Rules{}, games.Options{"inquisitor": "on"}, []string{"A", "B", "C", "D", "E", "F"}, 20, 5000)
	if err != nil {
		b.Fatal(err)
	}
	return evs
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
	gametest.BenchDecideEvolve(b, r, g.s, ana, m, (*State).clone)
}

// BenchmarkFoldLongGame measures folding a whole long game's events.
func BenchmarkFoldLongGame(b *testing.B) {
	r := Rules{}
	evs := longGame(b)
	b.ReportAllocs()
	for b.Loop() {
		s := r.Initial(RulesVersion)
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
	}
	b.ReportMetric(float64(len(evs)), "events/game")
}

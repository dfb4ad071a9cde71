package gametest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// LongestRandomGame plays tries seeded games of r by uniformly random legal
// moves of a random pending seat (at most maxMoves each) and returns the
// events of the longest: a realistic long log for fold benchmarks.
func LongestRandomGame[S any, M any, E games.Event](r games.Rules[S, M, E], opts games.Options, players []string, tries, maxMoves int) ([]E, error) {
	var best []E
	for try := range tries {
		rng := rand.New(rand.NewPCG(uint64(max(try, 0)), 42)) //nolint:gosec // G115: try is never negative
		evs, err := r.Setup(opts, players, rng)
		if err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		s := r.Initial(r.Info().Rules)
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
		for range maxMoves {
			pend := r.Pending(s)
			if len(pend) == 0 {
				break
			}
			p := pend[rng.IntN(len(pend))]
			legal := r.Legal(s, p.Seat)
			m, err := r.Parse(s, legal[rng.IntN(len(legal))])
			if err != nil {
				return nil, fmt.Errorf("legal move does not parse: %w", err)
			}
			out, err := r.Decide(s, p.Seat, m, rng)
			if err != nil {
				return nil, fmt.Errorf("legal move refused: %w", err)
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
	return best, nil
}

// BenchDecideEvolve measures deciding move m for seat on s and applying the
// events to a copy of s (clone), s itself left as it is for the next round.
func BenchDecideEvolve[S any, M any, E games.Event](b *testing.B, r games.Rules[S, M, E], s S, seat games.Seat, m M, clone func(S) S) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		evs, err := r.Decide(s, seat, m, rng)
		if err != nil {
			b.Fatal(err)
		}
		next := clone(s)
		for _, e := range evs {
			next = r.Evolve(next, e)
		}
	}
}

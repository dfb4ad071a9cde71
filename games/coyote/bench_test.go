package coyote

import (
	"math/rand/v2"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// longGame plays a 6-player variant game with random legal moves and
// returns its events.
func longGame(tb testing.TB) []Event {
	r := Rules{}
	rng := rand.New(rand.NewPCG(42, 42))
	evs, err := r.Setup(games.Options{OptVariantTokens: "on"}, fiveNames, rng)
	if err != nil {
		tb.Fatal(err)
	}
	s := fold(evs)
	for !s.Over {
		legal := r.Legal(s, s.Turn)
		// Mostly raises by one, so rounds are long.
		move := legal[rng.IntN(len(legal))]
		if rng.IntN(30) != 0 && s.Bid+1 <= s.MaxBid {
			move = "bid " + itoa(s.Bid+1)
		}
		m, err := r.Parse(s, move)
		if err != nil {
			tb.Fatal(err)
		}
		out, err := r.Decide(s, s.Turn, m, rng)
		if err != nil {
			tb.Fatalf("%q: %v", move, err)
		}
		for _, e := range out {
			s = evolve(s, e)
		}
		evs = append(evs, out...)
	}
	return evs
}

func BenchmarkDecideEvolve(b *testing.B) {
	r := Rules{}
	tb := rig(&testing.T{}, 6, games.Options{OptVariantTokens: "on"})
	s := tb.s
	m := Move{Kind: MoveBid, Bid: 5}
	gametest.BenchDecideEvolve(b, r, s, s.Turn, m, State.clone)
}

func BenchmarkDecideEvolveCall(b *testing.B) {
	r := Rules{}
	tb := rig(&testing.T{}, 6, games.Options{OptVariantTokens: "on"})
	tb.play("Ana", "bid 5")
	s := tb.s
	m := Move{Kind: MoveCoyote}
	gametest.BenchDecideEvolve(b, r, s, s.Turn, m, State.clone)
}

func BenchmarkFoldLongGame(b *testing.B) {
	evs := longGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if s := fold(evs); !s.Over {
			b.Fatal("not over")
		}
	}
	b.ReportMetric(float64(len(evs)), "events")
}

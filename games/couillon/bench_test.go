package couillon

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// BenchmarkDecideEvolve decides and applies one card play (typed rules), and
// the same through the JSON engine.
func BenchmarkDecideEvolve(b *testing.B) {
	hands, stock := deal2()
	s := rig(b, nil, hands, stock)
	s, _ = run(b, s, "accept")
	var rules Rules
	m, _ := rules.Parse(s, "play A♥")
	r := rng()
	b.Run("typed", func(b *testing.B) {
		gametest.BenchDecideEvolve(b, rules, s, 1, m, State.clone)
	})
	b.Run("engine", func(b *testing.B) {
		eng := New()
		for b.Loop() {
			evs, err := eng.Decide(s, 1, "play A♥", r)
			if err != nil {
				b.Fatal(err)
			}
			var c games.State = s.clone()
			for _, e := range evs {
				if c, err = eng.Evolve(c, e); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// longGame plays seeded games by random legal moves (7 lines, threshold20)
// and returns the longest log.
func longGame(b *testing.B) []games.RawEvent {
	eng := New()
	var best []games.RawEvent
	for i := range 20 {
		var seed games.Seed
		seed[0] = byte(i)
		pick := seed.Rand(1 << 40)
		log, err := eng.Setup(games.Options{"lines": "7", "deal_rule": "threshold20"}, []string{"Ana", "Ben", "Cleo", "Dan"}, seed.Rand(0))
		if err != nil {
			b.Fatal(err)
		}
		s, err := games.Fold(eng, RulesVersion, log)
		if err != nil {
			b.Fatal(err)
		}
		for len(eng.Pending(s)) > 0 {
			p := eng.Pending(s)[0]
			legal := eng.Legal(s, p.Seat)
			evs, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(len(log)))
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range evs {
				if s, err = eng.Evolve(s, e); err != nil {
					b.Fatal(err)
				}
			}
			log = append(log, evs...)
		}
		if len(log) > len(best) {
			best = log
		}
	}
	return best
}

// BenchmarkFoldLongGame folds the stored events of a whole long match.
func BenchmarkFoldLongGame(b *testing.B) {
	log := longGame(b)
	eng := New()
	for b.Loop() {
		if _, err := games.Fold(eng, RulesVersion, log); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log)), "events/game")
}

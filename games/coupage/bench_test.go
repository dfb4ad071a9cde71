package coupage

import (
	"encoding/json"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// longGame plays a seeded game by random legal moves and returns its events.
func longGame(b *testing.B) []Event {
	b.Helper()
	evs, err := gametest.LongestRandomGame(NewRules(), games.Options{}, []string{"Ana", "Bob", "Cleo", "Dan"}, 20, 5000)
	if err != nil {
		b.Fatal(err)
	}
	return evs
}

// BenchmarkDecideEvolve decides and applies one move (a make, on a state
// after the first draw).
func BenchmarkDecideEvolve(b *testing.B) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"gar2", "tre1", "mac1", "par2", "time"}}},
		market: [2]string{"xar1", "par1"},
	}.build(b)
	r := tb.r
	m, err := r.Parse(tb.s, "draw")
	if err != nil {
		b.Fatal(err)
	}
	evs, _ := r.Decide(tb.s, ana, m, tb.rng)
	for _, e := range evs {
		tb.s = r.Evolve(tb.s, e)
	}
	mv, _ := r.Parse(tb.s, "make rouge 1 gar2 tre1")
	gametest.BenchDecideEvolve(b, r, tb.s, ana, mv, (*State).clone)
}

// BenchmarkFoldLongGame folds the stored (JSON) events of a whole long
// game through the engine, as a projection rebuild does.
func BenchmarkFoldLongGame(b *testing.B) {
	evs := longGame(b)
	raw := make([]games.RawEvent, 0, len(evs))
	for _, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			b.Fatal(err)
		}
		raw = append(raw, games.RawEvent{Type: e.EventType(), Data: data})
	}
	eng := New()
	for b.Loop() {
		if _, err := games.Fold(eng, rulesCurrent, raw); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(evs)), "events/game")
}

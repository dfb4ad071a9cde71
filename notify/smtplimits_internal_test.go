package notify

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// A window takes up to its limit a minute per key, gives back what a
// transaction released, forgets what is older than a minute, and keeps
// its memory bounded.
func TestWindow(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	type step struct {
		op   string // take, release (the n-th take of the case)
		key  string
		at   time.Duration // after t0
		n    int           // release: which take
		want bool          // take: taken
	}
	for _, tc := range []struct {
		name  string
		limit int
		steps []step
	}{
		{"up to the limit, per key", 2, []step{
			{"take", "a", 0, 0, true}, {"take", "a", time.Second, 0, true}, {"take", "a", 2 * time.Second, 0, false},
			{"take", "b", 2 * time.Second, 0, true},
		}},
		{"a minute later, again", 1, []step{
			{"take", "a", 0, 0, true}, {"take", "a", 59 * time.Second, 0, false}, {"take", "a", 60 * time.Second, 0, true},
		}},
		{"released counts are given back", 1, []step{
			{"take", "a", 0, 0, true}, {"release", "a", 0, 0, false}, {"take", "a", time.Second, 0, true}, {"take", "a", 2 * time.Second, 0, false},
		}},
		{"no limit", -1, []step{
			{"take", "a", 0, 0, true}, {"take", "a", 0, 0, true}, {"take", "a", 0, 0, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWindow(tc.limit)
			var takes []time.Time
			for i, s := range tc.steps {
				at := t0.Add(s.at)
				switch s.op {
				case "take":
					if got := w.take(s.key, at); got != s.want {
						t.Fatalf("step %d: take %s at %v = %v", i, s.key, s.at, got)
					}
					takes = append(takes, at)
				case "release":
					w.release(s.key, takes[s.n])
				}
			}
		})
	}
	t.Run("memory is bounded", func(t *testing.T) {
		w := newWindow(1)
		for i := range windowMaxKeys + 10 {
			w.take(fmt.Sprint("sender", i), t0)
		}
		if n := len(w.seen); n > windowMaxKeys {
			t.Fatalf("%d keys kept", n)
		}
		w.take("late", t0.Add(2*time.Minute))
		if n := len(w.seen); n > windowKeys+1 {
			t.Fatalf("%d keys kept once idle", n)
		}
	})
}

// What a reply played is recorded as it was: every line, or those before
// the refused one.
func TestMovedOutcome(t *testing.T) {
	refused := &play.MoveError{Line: 2, Text: "coyote", Err: games.CatalogOf(games.English, map[string]string{"refusal.turn": "it is Bob's turn"}).Illegal("CY-15", "refusal.turn")}
	for _, tc := range []struct {
		name string
		n    int
		out  play.Outcome
		want []string
		not  string
	}{
		{"every line", 2, play.Outcome{From: 4, Version: 6}, []string{"played 2 line(s) in game g1: version 4 → 6"}, "not played"},
		{"one of two", 2, play.Outcome{From: 4, Version: 5, Refused: refused}, []string{"played 1 of 2 line(s) in game g1: version 4 → 5", `not played: line 2 "coyote"`, "Bob's turn"}, "played 2"},
		{"a replay", 1, play.Outcome{Replay: true}, []string{"replayed"}, "played 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := movedOutcome(tc.n, "g1", tc.out)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q does not say %q", got, w)
				}
			}
			if strings.Contains(got, tc.not) {
				t.Errorf("%q says %q", got, tc.not)
			}
		})
	}
}

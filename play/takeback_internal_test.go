package play

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
)

// BenchmarkFoldKeepsRulesEvents folds random games of about 1,000 events
// and reports what a table keeps to re-fold at a take-back: its rules
// events (the game's own events since the start), headers and data, per
// table. The data is the events' JSON as read from the store, which the
// table keeps alive while it is cached.
func BenchmarkFoldKeepsRulesEvents(b *testing.B) {
	reg := catalog.Registry()
	for _, g := range []struct {
		kind  string
		seats int
	}{{"coyote", 6}, {"coupage", 4}, {"coup", 6}, {"couillon", 4}} {
		stream := randomStream(b, g.kind, g.seats, 1000)
		b.Run(fmt.Sprintf("%s%d", g.kind, g.seats), func(b *testing.B) {
			b.ReportAllocs()
			var t *Table
			for b.Loop() {
				t = &Table{ID: "bench"}
				if err := t.applyRecorded(reg, stream); err != nil {
					b.Fatal(err)
				}
			}
			kept := cap(t.rulesLog) * int(unsafe.Sizeof(rulesEvent{}))
			for _, e := range t.rulesLog {
				kept += len(e.raw.Data)
			}
			b.ReportMetric(float64(len(stream)), "events/game")
			b.ReportMetric(float64(kept), "log-B/table")
		})
	}
}

// The table's rules log is the game's own events, in order: a take-back
// re-folds from it.
func TestRulesLogIsTheGamesOwnEvents(t *testing.T) {
	reg := catalog.Registry()
	for _, kind := range []string{"coyote", "coup"} {
		t.Run(kind, func(t *testing.T) {
			stream := randomStream(t, kind, 3, 300)
			tbl := &Table{ID: "log"}
			if err := tbl.applyRecorded(reg, stream); err != nil {
				t.Fatal(err)
			}
			own := 0
			for _, e := range stream {
				if len(e.Type) > len(kind) && e.Type[:len(kind)+1] == kind+"." {
					own++
				}
			}
			if len(tbl.rulesLog) != own || own == 0 {
				t.Fatalf("the log keeps %d events; the stream has %d of the game's own", len(tbl.rulesLog), own)
			}
			// A re-fold to the last version gives the state the fold has.
			want, _ := tbl.Engine.View(tbl.State, -1)
			if err := tbl.refold(tbl.Version); err != nil {
				t.Fatal(err)
			}
			got, _ := tbl.Engine.View(tbl.State, -1)
			if string(got) != string(want) {
				t.Fatalf("re-folded view\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A seat the public board shows out of the game (a Coup player with no
// influence left, a Coyote player out of lives) is not asked to answer a
// take-back; every other seat but the asker is.
func TestAskableLeavesOutEliminatedSeats(t *testing.T) {
	reg := catalog.Registry()
	for _, kind := range []string{"coup", "coyote"} {
		t.Run(kind, func(t *testing.T) {
			found := false
			for g := range 6 {
				stream := randomStream(t, kind, 4, 600+g)
				tbl := &Table{ID: "askable"}
				for _, e := range stream {
					if err := tbl.applyRecorded(reg, []events.Recorded{e}); err != nil {
						t.Fatal(err)
					}
					if !tbl.Started || tbl.Ended || tbl.Engine.Result(tbl.State).Finished {
						continue
					}
					view, err := tbl.Engine.View(tbl.State, games.Spectator)
					if err != nil {
						t.Fatal(err)
					}
					board, err := tbl.Engine.Board(view)
					if err != nil {
						t.Fatal(err)
					}
					out := map[games.Seat]bool{}
					for _, sec := range board.Sections {
						for _, a := range sec.Areas {
							out[a.Seat] = out[a.Seat] || a.Out
						}
					}
					asked, err := tbl.askable(0, e.RecordedAt)
					if err != nil {
						t.Fatal(err)
					}
					for seat := range games.Seat(tbl.seatCount()) {
						want := seat != 0 && !out[seat]
						if slices.Contains(asked, seat) != want {
							t.Fatalf("version %d: seat %d out %v, asked %v", e.Version, seat, out[seat], asked)
						}
					}
					found = found || countTrue(out) > 0
				}
			}
			if !found {
				t.Fatal("no random game had a seat out of the game before its end")
			}
		})
	}
}

// countTrue counts the seats set in m.
func countTrue(m map[games.Seat]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

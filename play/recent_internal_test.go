package play

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
)

// randomStream is a game of kind for n players played with random legal
// moves, as its stream would hold it (up to about max events).
func randomStream(tb testing.TB, kind string, n, maxEvents int) []events.Recorded {
	tb.Helper()
	reg := catalog.Registry()
	eng, err := reg.Get(kind)
	if err != nil {
		tb.Fatal(err)
	}
	var out []events.Recorded
	add := func(typ string, data any, seat *int) {
		raw, err := json.Marshal(data)
		if err != nil {
			tb.Fatal(err)
		}
		meta, err := json.Marshal(events.Meta{Seat: seat, Channel: ChannelAPI, Move: "a move"})
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, events.Recorded{Position: int64(len(out) + 1), Version: len(out) + 1, Type: typ, Data: raw, Meta: meta,
			TX: uint64(len(out) + 1), RecordedAt: time.Unix(0, 0)})
	}
	add(TypeCreated, Created{Kind: kind, Creator: "u0"}, nil)
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("P%d", i)
		add(TypeJoined, Joined{User: fmt.Sprintf("u%d", i), Name: names[i]}, nil)
	}
	add(TypeStarted, struct{}{}, nil)
	st, err := eng.Initial(1)
	if err != nil {
		tb.Fatal(err)
	}
	pick := rand.New(rand.NewPCG(1, 2))
	evs, err := eng.Setup(nil, names, pick)
	if err != nil {
		tb.Fatal(err)
	}
	var mover *int // the seat whose move made evs; none for the setup
	for len(out) < maxEvents {
		for _, e := range evs {
			if st, err = eng.Evolve(st, e); err != nil {
				tb.Fatal(err)
			}
			add(kind+"."+e.Type, json.RawMessage(e.Data), mover)
		}
		pend := eng.Pending(st)
		if len(pend) == 0 || eng.Result(st).Finished {
			break
		}
		p := pend[pick.IntN(len(pend))]
		seatNo := int(p.Seat)
		mover = &seatNo
		legal := eng.Legal(st, p.Seat)
		if evs, err = eng.Decide(st, p.Seat, legal[pick.IntN(len(legal))], pick); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// BenchmarkTellEvents measures what telling each event to every viewer
// adds to a command: applying 40 events of a game at its 200th event to a
// table that keeps them told (as a cached table does) against one that
// does not, per event.
func BenchmarkTellEvents(b *testing.B) {
	reg := catalog.Registry()
	for _, g := range []struct {
		kind  string
		seats int
	}{{"coyote", 6}, {"coupage", 4}, {"coup", 6}} {
		stream := randomStream(b, g.kind, g.seats, 200)
		for _, told := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s%d/told=%v", g.kind, g.seats, told), func(b *testing.B) {
				// The last 40 events, mid-game moves and their consequences,
				// applied to the table folded up to them.
				head, tail := stream[:len(stream)-40], stream[len(stream)-40:]
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					t := &Table{ID: "bench"}
					if err := t.applyRecorded(reg, head); err != nil {
						b.Fatal(err)
					}
					if told {
						t.recent = newRecent(t.Version)
					}
					b.StartTimer()
					if err := t.applyRecorded(reg, tail); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tail)), "ns/event")
				b.StopTimer()
				if told {
					b.ReportMetric(float64(ringBytes(b, reg, stream)), "ring-B/game")
				}
			})
		}
	}
}

// ringBytes is the memory a cached table of the game of stream keeps for
// its last recentCap events told, as the heap grows by for 50 tables.
func ringBytes(tb testing.TB, reg *games.Registry, stream []events.Recorded) int64 {
	tb.Helper()
	heap := func(told bool) int64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		keep := make([]*Table, 50)
		for i := range keep {
			t := &Table{ID: "bench"}
			if err := t.applyRecorded(reg, stream[:len(stream)-recentCap]); err != nil {
				tb.Fatal(err)
			}
			if told {
				t.recent = newRecent(t.Version)
			}
			if err := t.applyRecorded(reg, stream[len(stream)-recentCap:]); err != nil {
				tb.Fatal(err)
			}
			keep[i] = t
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(keep)
		return (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / int64(len(keep)) //nolint:gosec // G115: heap sizes
	}
	return heap(true) - heap(false)
}

// The ring says from which version a seat's brief tells what happened
// exactly as lastCommandBefore and maxSince do over the whole stream,
// whenever it holds the events that decide it, and it always does once it
// holds maxSince events or the whole game: over random streams of
// commands (transactions of one to four events by a seat, or by nobody),
// for rings holding the last 1 to recentCap events.
func TestRecentSinceIsLastCommandBefore(t *testing.T) {
	pick := rand.New(rand.NewPCG(5, 6))
	for round := range 300 {
		var stream []events.Recorded
		for tx := uint64(1); len(stream) < 5+pick.IntN(120); tx++ {
			seat := pick.IntN(4) - 1 // -1: nobody (a lifecycle or system event)
			for range 1 + pick.IntN(4) {
				var meta json.RawMessage
				if seat >= 0 {
					meta = json.RawMessage(fmt.Sprintf(`{"seat":%d}`, seat))
				}
				stream = append(stream, events.Recorded{Version: len(stream) + 1, TX: tx, Meta: meta})
			}
		}
		v := len(stream)
		for _, kept := range []int{v, min(v, recentCap), min(v, maxSince), 1 + pick.IntN(min(v, recentCap))} {
			r := newRecent(v - kept)
			for _, e := range stream[v-kept:] {
				r.push(toldEvent{version: e.Version, tx: e.TX, actor: actorSeat(e.Meta)}, []byte{1})
			}
			for seat := games.Spectator; seat < 3; seat++ {
				want := max(lastCommandBefore(stream, seat), v-maxSince)
				if seat == games.Spectator {
					want = max(0, v-maxSince)
				}
				got, ok := r.since(seat, v)
				if ok && got != want {
					t.Fatalf("round %d, %d events, ring of the last %d: seat %d is told after %d, want %d", round, v, kept, seat, got, want)
				}
				if !ok && (r.lo == 0 || kept >= maxSince) {
					t.Fatalf("round %d, %d events, ring of the last %d: seat %d not known", round, v, kept, seat)
				}
			}
		}
	}
}

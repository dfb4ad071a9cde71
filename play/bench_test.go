package play_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/play"
)

// BenchmarkMove measures one player's move through the whole command path on
// a real database: load, fold, decide, append with the hash chain, inline
// projections, commit.
func BenchmarkMove(b *testing.B) {
	ctx := context.Background()
	svc, _ := newServiceB(b)
	var id string
	var tbl *play.Table
	b.ResetTimer()
	for range b.N {
		if tbl == nil || tbl.Ended {
			b.StopTimer()
			out, err := svc.Create(ctx, ana, "pile", map[string]string{"size": "large"}, "Ana")
			if err != nil {
				b.Fatal(err)
			}
			id = out.GameID
			if _, err := svc.Join(ctx, bob, id, "Bob"); err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Start(ctx, ana, id); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.StopTimer()
		tbl, _ = svc.Load(ctx, id)
		mover := actorOf(tbl, tbl.Engine.Pending(tbl.State)[0].Seat)
		b.StartTimer()
		if _, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		tbl, _ = svc.Load(ctx, id)
		b.StartTimer()
	}
}

// BenchmarkFold5000 measures reading a 5,000-event stream from PostgreSQL
// and folding it into a table.
func BenchmarkFold5000(b *testing.B) {
	ctx := context.Background()
	svc, pool := newServiceB(b)
	out, err := svc.Create(ctx, ana, "pile", nil, "Ana")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Join(ctx, bob, out.GameID, "Bob"); err != nil {
		b.Fatal(err)
	}
	// A synthetic long game: seat, a pile of 10,000 stones, then single takes.
	evs := []events.Event{{Type: play.TypeStarted, Data: json.RawMessage(`{}`)},
		{Type: "pile.seated", Data: json.RawMessage(`{"type":"seated","players":["Ana","Bob"],"seat":0}`)},
		{Type: "pile.dealt", Data: json.RawMessage(`{"type":"dealt","stones":10000,"secrets":[1,2],"seat":0}`)}}
	for len(evs) < 5000-3 { // created, joined, joined come first
		evs = append(evs, events.Event{Type: "pile.took", Data: json.RawMessage(`{"type":"took","seat":0,"take":1}`)})
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := events.Append(ctx, tx, play.Stream(out.GameID), 3, evs)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		tbl, err := svc.Load(ctx, out.GameID)
		if err != nil {
			b.Fatal(err)
		}
		if tbl.Version != 5000 {
			b.Fatalf("folded %d events, want 5000", tbl.Version)
		}
	}
}

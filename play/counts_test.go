package play_test

import (
	"context"
	"maps"
	"testing"
)

// Every committed move is counted once by the channel it came through; a
// refused move and an idempotent request replayed are not counted, and
// nor are the lobby's commands.
func TestMovesCommittedByChannel(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	if got := svc.MovesCommitted(); len(got) != 0 {
		t.Fatalf("after create, join and start: %v moves, want none", got)
	}
	// Ana plays through the API, Bob by mail (see ana and bob): two moves
	// each, the first keyed and sent twice, then one refused move.
	for i := range 4 {
		mover := actorOf(tbl, pending(t, tbl).Seat)
		if i == 0 {
			mover.IdempotencyKey = "count-once"
			if _, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"}); err != nil {
			t.Fatal(err)
		}
		var err error
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	waiting := actorOf(tbl, 1-pending(t, tbl).Seat)
	if _, err := svc.Move(ctx, waiting, id, tbl.Version, []string{"take 1"}); err == nil {
		t.Fatal("a move out of turn was played")
	}
	want := map[string]int64{"api": 2, "email": 2}
	if got := svc.MovesCommitted(); !maps.Equal(got, want) {
		t.Fatalf("moves committed %v, want %v", got, want)
	}
}

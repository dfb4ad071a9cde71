package events_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// Two overlapping transactions: the one that took its transaction id first
// appends later (a higher position) but commits last. The feed must not show
// the early-committing one's events past the running transaction, or a reader
// checkpointing after it would skip the late one for ever.
func TestFeedNeverSkipsALateCommit(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)

	slow, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = slow.Rollback(ctx) }()
	// Take a transaction id now, append later.
	if _, err := slow.Exec(ctx, "select pg_current_xact_id()"); err != nil {
		t.Fatal(err)
	}

	fast, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := events.Append(ctx, fast, "game-fast", 0, []events.Event{ev("a", 1)}); err != nil {
		t.Fatal(err)
	}
	slowRec, err := events.Append(ctx, slow, "game-slow", 0, []events.Event{ev("b", 2)})
	if err != nil {
		t.Fatal(err)
	}
	if err := fast.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	got, cp, err := events.ReadFeed(ctx, pool, events.Checkpoint{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("feed showed %d events while an older transaction is still open", len(got))
	}

	if err := slow.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// Other test packages' transactions on the server may hold the feed
	// back a little longer: wait for them, up to ten seconds.
	for deadline, from := time.Now().Add(10*time.Second), cp; ; time.Sleep(50 * time.Millisecond) {
		var next events.Checkpoint
		if got, next, err = events.ReadFeed(ctx, pool, from, 100); err != nil {
			t.Fatal(err)
		}
		if len(got) >= 2 || time.Now().After(deadline) {
			cp = next
			break
		}
	}
	if len(got) != 2 {
		t.Fatalf("feed after both commits: %d events, want 2", len(got))
	}
	if got[0].Stream != "game-slow" || got[0].Position != slowRec[0].Position || got[1].Stream != "game-fast" {
		t.Fatalf("feed order = %s, %s; want the older transaction first", got[0].Stream, got[1].Stream)
	}
	if more, _, _ := events.ReadFeed(ctx, pool, cp, 100); len(more) != 0 {
		t.Fatalf("feed repeated %d events after the checkpoint", len(more))
	}

	// Checkpoints persist.
	if err := events.SaveCheckpoint(ctx, pool, "stats", cp); err != nil {
		t.Fatal(err)
	}
	back, err := events.LoadCheckpoint(ctx, pool, "stats")
	if err != nil || back != cp {
		t.Fatalf("checkpoint %+v, %v; want %+v", back, err, cp)
	}
}

func TestFeedPagesInOrder(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	for i := range 5 {
		if _, err := appendTx(ctx, pool, "game-p", i, ev("e", i)); err != nil {
			t.Fatal(err)
		}
	}
	// The feed stops at the oldest transaction running anywhere on the
	// server, and other test packages run beside this one: page from the
	// start again until all five are past it (or ten seconds have gone).
	var seen []int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var cp events.Checkpoint
		seen = seen[:0]
		for range 10 {
			page, next, err := events.ReadFeed(ctx, pool, cp, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			if len(page) > 2 {
				t.Fatalf("a page of %d events, limit 2", len(page))
			}
			for _, r := range page {
				seen = append(seen, r.Version)
			}
			cp = next
		}
		if len(seen) == 5 {
			break
		}
	}
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5}) {
		t.Fatalf("paged feed = %v, want versions 1 to 5 in order", seen)
	}
}

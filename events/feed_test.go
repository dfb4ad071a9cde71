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

// Transaction ids are ordered as numbers, not as their text: across a
// change in their number of digits ("9", then "10") the feed still reads in
// commit order and its head is the newest. The events are placed by the
// owner with the store's triggers off, at transaction ids 9 and 10.
func TestFeedOrdersTransactionIDsAsNumbers(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Open(t).Owner
	for _, stmt := range []string{
		`alter table event_log disable trigger user`,
		`insert into event_log (stream_id, version, type, data, tx, hash) values
			(stream_key('game-nine'), 1, 'a', '{"n":9}', '9', '\x00'),
			(stream_key('game-ten'), 1, 'a', '{"n":10}', '10', '\x00')`,
		`alter table event_log enable trigger user`,
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	got, cp, err := events.ReadFeed(ctx, pool, events.Checkpoint{}, 1)
	if err != nil || len(got) != 1 || got[0].Stream != "game-nine" || cp.TX != 9 {
		t.Fatalf("first event of the feed: %+v at %+v, %v; want game-nine's at transaction 9", got, cp, err)
	}
	if got, _, err = events.ReadFeed(ctx, pool, cp, 10); err != nil || len(got) != 1 || got[0].Stream != "game-ten" {
		t.Fatalf("the rest of the feed after transaction 9: %+v, %v; want game-ten's", got, err)
	}
	head, err := events.Head(ctx, pool)
	if err != nil || head.TX != 10 {
		t.Fatalf("head of the feed: %+v, %v; want transaction 10", head, err)
	}
}

package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// No trigger or rule on the log (event_log, the events view, streams) sends
// NOTIFY: the append path takes no database-wide lock at commit.
func TestNoNotifyOnTheAppendPath(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var n int
	err := pool.QueryRow(ctx, `select count(*) from pg_trigger tg join pg_proc p on p.oid = tg.tgfoid
		where tg.tgrelid in ('events'::regclass, 'event_log'::regclass, 'streams'::regclass) and p.prosrc ilike '%notify%'`).Scan(&n)
	if err != nil || n != 0 {
		t.Fatalf("%d triggers on events send a notification, %v", n, err)
	}
	// And an append queues none: a listener on the old channel hears nothing.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "listen courrier_events"); err != nil {
		t.Fatal(err)
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := events.Append(ctx, tx, "game-quiet", 0, []events.Event{ev("a", 1)})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if note, err := conn.Conn().WaitForNotification(wait); err == nil {
		t.Fatalf("an append sent a notification: %+v", note)
	}
}

// A watcher delivers what is appended: when woken by the process that
// appended (this watcher polls once an hour, so only the wake can deliver),
// and by polling alone when another process appended.
func TestWatcherDeliversWokenAndPolled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.New(t)
	appendOne := func(stream string, version int) {
		t.Helper()
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			_, err := events.Append(ctx, tx, stream, version-1, []events.Event{ev("x", version)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	receive := func(ticks <-chan events.Tick, stream string, version int, what string) {
		t.Helper()
		select {
		case tick := <-ticks:
			if tick.Streams[stream] != version {
				t.Fatalf("%s: tick %+v, want %s at %d", what, tick, stream, version)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing delivered", what)
		}
	}

	woken := events.NewWatcher(pool, events.WithIntervals(time.Hour, time.Hour))
	wokenTicks, stopWoken := woken.Subscribe()
	defer stopWoken()
	polled := events.NewWatcher(pool, events.WithIntervals(20*time.Millisecond, 100*time.Millisecond))
	polledTicks, stopPolled := polled.Subscribe()
	defer stopPolled()
	done := make(chan error, 2)
	go func() { done <- woken.Run(ctx) }()
	go func() { done <- polled.Run(ctx) }()
	for woken.Stats().LastPoll.IsZero() || polled.Stats().LastPoll.IsZero() {
		time.Sleep(10 * time.Millisecond) // both have read the feed's head
	}

	appendOne("game-w", 1)
	woken.Wake()
	receive(wokenTicks, "game-w", 1, "woken watcher")
	receive(polledTicks, "game-w", 1, "polling watcher")

	appendOne("game-w", 2)
	receive(polledTicks, "game-w", 2, "polling watcher, second event")
	select {
	case tick := <-wokenTicks:
		t.Fatalf("a watcher that polls hourly and was not woken delivered %+v", tick)
	default:
	}
	if st := polled.Stats(); st.Delivered != 2 {
		t.Fatalf("stats %+v, want 2 delivered", st)
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("run: %v", err)
		}
	}
}

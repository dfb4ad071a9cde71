package mailstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/notify/mailstore"
)

// The backlog counts, per mail priority, the mail jobs that could run now:
// available ones, and scheduled or retryable ones whose time has come; not
// a reminder due later, a running job, a finished one or a job of another
// queue. The oldest's age runs from when it was due, or from its first
// failed attempt for one being retried.
func TestMailBacklog(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	store := mailstore.New(pool)

	empty, err := store.MailBacklog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty) != 3 || empty[0].Name != "waiting" || empty[1].Name != "game" || empty[2].Name != "later" {
		t.Fatalf("an empty queue's backlog is %+v, want waiting, game, later at zero", empty)
	}
	for _, w := range empty {
		if w.Count != 0 || w.Oldest != 0 {
			t.Fatalf("an empty queue's backlog is %+v", empty)
		}
	}

	// insert queues args and then sets its row as the case says (SQL on
	// river_job: the states a running service leaves).
	insert := func(args river.JobArgs, opts *river.InsertOpts, set string) {
		t.Helper()
		res, err := client.Insert(ctx, args, opts)
		if err != nil {
			t.Fatal(err)
		}
		if set != "" {
			if _, err := pool.Exec(ctx, `update river_job set `+set+` where id = $1`, res.Job.ID); err != nil {
				t.Fatalf("update river_job set %s: %v", set, err)
			}
		}
	}
	// waiting: one sign-in link queued 30 s ago, one answer just now.
	insert(jobs.Login{LinkID: 1, User: "u1"}, nil, `scheduled_at = now() - interval '30 seconds', created_at = now() - interval '30 seconds'`)
	insert(jobs.Answer{InboundID: 1, Mail: "refusal"}, nil, "")
	// game: a prompt waiting 90 s; a prompt being retried whose first
	// attempt failed 200 s ago, due again now; one running (not waiting);
	// one sent.
	insert(jobs.Prompt{GameID: "g1", Version: 1}, nil, `scheduled_at = now() - interval '90 seconds'`)
	insert(jobs.Prompt{GameID: "g2", Version: 1}, nil, `state = 'retryable', attempt = 1, scheduled_at = now() - interval '1 second',
		errors = array[jsonb_build_object('at', now() - interval '200 seconds', 'attempt', 1, 'error', 'relay down')]`)
	insert(jobs.Prompt{GameID: "g3", Version: 1}, nil, `state = 'running', attempt = 1, attempted_at = now() - interval '500 seconds', scheduled_at = now() - interval '500 seconds'`)
	insert(jobs.Prompt{GameID: "g4", Version: 1}, nil, `state = 'completed', attempt = 1, finalized_at = now(), scheduled_at = now() - interval '900 seconds'`)
	// later: a reminder due 10 s ago waits; one due tomorrow does not;
	// a retryable one due in a minute does not either.
	insert(jobs.Reminder{GameID: "g1", Label: "half"}, &river.InsertOpts{ScheduledAt: time.Now().Add(-10 * time.Second)}, "")
	insert(jobs.Reminder{GameID: "g1", Label: "last"}, &river.InsertOpts{ScheduledAt: time.Now().Add(24 * time.Hour)}, "")
	insert(jobs.Reminder{GameID: "g2", Label: "half"}, nil, `state = 'retryable', attempt = 1, scheduled_at = now() + interval '1 minute'`)
	// Not mail: a deadline timer long due, on the default queue.
	insert(jobs.Deadline{GameID: "g1"}, nil, `scheduled_at = now() - interval '1000 seconds'`)

	got, err := store.MailBacklog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name       string
		count      int
		oldest     time.Duration // at least this
		oldestUpTo time.Duration // and less than this (the test's own time)
	}{
		{"waiting", 2, 30 * time.Second, 60 * time.Second},
		{"game", 2, 200 * time.Second, 230 * time.Second},
		{"later", 1, 10 * time.Second, 40 * time.Second},
	}
	if len(got) != len(want) {
		t.Fatalf("backlog %+v, want %d priorities", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Count != w.count || g.Oldest < w.oldest || g.Oldest >= w.oldestUpTo {
			t.Errorf("priority %d: %+v, want %s with %d waiting, the oldest for %v to %v", g.Priority, g, w.name, w.count, w.oldest, w.oldestUpTo)
		}
	}
}

// The backlog line names each priority and says the oldest's age, to the
// second, only where some mail waits.
func TestBacklogLine(t *testing.T) {
	got := mailstore.BacklogLine([]mailstore.Waiting{
		{Priority: jobs.PriorityWaiting, Name: "waiting"},
		{Priority: jobs.PriorityGame, Name: "game", Count: 42, Oldest: 65400 * time.Millisecond},
		{Priority: jobs.PriorityLater, Name: "later", Count: 3, Oldest: 12 * time.Second},
	})
	if want := "waiting 0, game 42 (oldest 1m5s), later 3 (oldest 12s)"; got != want {
		t.Errorf("BacklogLine: %q, want %q", got, want)
	}
}

// BenchmarkMailBacklog reads the backlog (each /metrics scrape does) with
// 20,000 mail jobs waiting across the three priorities and 20,000 sent.
func BenchmarkMailBacklog(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.New(b)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		b.Fatal(err)
	}
	params := make([]river.InsertManyParams, 0, 40000)
	for i := range 40000 {
		var args river.JobArgs
		switch i % 4 {
		case 0:
			args = jobs.Login{LinkID: int64(i)}
		case 1, 2:
			args = jobs.Prompt{GameID: "g", Version: i}
		default:
			args = jobs.Reminder{GameID: "g", Since: i}
		}
		params = append(params, river.InsertManyParams{Args: args})
	}
	if _, err := client.InsertManyFast(ctx, params); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `update river_job set state = 'completed', finalized_at = now() where id % 2 = 0`); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `analyze river_job`); err != nil {
		b.Logf("analyze: %v", err)
	}
	store := mailstore.New(pool)
	b.ResetTimer()
	for b.Loop() {
		list, err := store.MailBacklog(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if list[0].Count+list[1].Count+list[2].Count != 20000 {
			b.Fatalf("backlog %+v, want 20,000 in all", list)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// The mail workers are sized to the database pool unless
// COURRIER_MAIL_WORKERS says how many: eight a connection, 8 to 64; a
// setting that is no positive whole number is refused.
func TestMailWorkersAreSizedToThePool(t *testing.T) {
	for _, tc := range []struct {
		setting string
		conns   int32
		want    int
		refused bool
	}{
		{"", 4, 32, false}, // pgx's default on 2 to 4 CPUs
		{"", 1, 8, false},  // never fewer than 8
		{"", 6, 48, false},
		{"", 32, 64, false}, // at most 64
		{"8", 4, 8, false},
		{" 3 ", 32, 3, false},
		{"0", 10, 0, true},
		{"-2", 10, 0, true},
		{"many", 10, 0, true},
	} {
		got, err := config{MailWorkers: tc.setting}.mailWorkers(tc.conns)
		switch {
		case tc.refused && err == nil:
			t.Errorf("COURRIER_MAIL_WORKERS=%q was taken (%d)", tc.setting, got)
		case !tc.refused && (err != nil || got != tc.want):
			t.Errorf("COURRIER_MAIL_WORKERS=%q on a pool of %d: %d, %v; want %d", tc.setting, tc.conns, got, err, tc.want)
		}
	}
}

// `courrier mail list` ends with the mail waiting to be sent per
// priority, first worked first, and how long the oldest waited; a
// reminder due later is not waiting yet. The mail log (a relay set) and
// the dev mailbox both say it.
func TestMailListShowsTheBacklogPerPriority(t *testing.T) {
	ctx := context.Background()
	pool, url := pgtest.NewWithURL(t)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []river.JobArgs{jobs.Prompt{GameID: "g1", Version: 1}, jobs.Prompt{GameID: "g2", Version: 1}, jobs.Login{LinkID: 1, User: "u1"}} {
		if _, err := client.Insert(ctx, args, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := client.Insert(ctx, jobs.Reminder{GameID: "g1", Label: "half"}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for kind, ago := range map[string]string{"mail.prompt": "65 seconds", "mail.login": "10 seconds"} {
		if _, err := pool.Exec(ctx, `update river_job set scheduled_at = now() - $2::interval where kind = $1`, kind, ago); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"mail", "list", "-database-url", url, "-smtp-relay", "smtp://relay.test:587"},
		{"mail", "list", "-database-url", url},
	} {
		var out bytes.Buffer
		if err := run(ctx, args, &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		last := strings.TrimSpace(out.String())
		last = last[strings.LastIndexByte(last, '\n')+1:]
		if last != "waiting to be sent: waiting 1 (oldest 10s), game 2 (oldest 1m5s), later 0" {
			t.Errorf("%v printed:\n%s", args, out.String())
		}
	}
}

package faults_test

import (
	"testing"
	"time"
)

// The primary node of a pg_auto_failover formation killed (kill -9 of its
// postmaster and its pg_autoctl at once, as the machine's loss) under load: the monitor promotes the standby, serve follows
// the new primary through its multi-host DATABASE_URL without a restart,
// and nothing acknowledged is lost or applied twice. With -faults it fails
// over three times (there and back again: the old primary rejoins as a
// standby each time).
func TestFailoverUnderLoad(t *testing.T) {
	f := newFormation(t)
	c := f.cluster()
	s := c.startServe()
	tb := newTable(t, func() []string { return []string{s.base} })
	stop := startPlayers(t, tb, 2)
	rounds := 1
	if *full {
		rounds = 3
	}
	var worst time.Duration
	for r := range rounds {
		time.Sleep(jitter(time.Second, 2*time.Second))
		old := f.primary()
		if old == nil {
			t.Fatalf("round %d: no primary: %v", r+1, f.states())
		}
		killed := time.Now()
		f.killNode(old)
		// The other node is promoted…
		var promoted time.Duration
		f.waitFor(time.Minute, "the standby's promotion", func() bool {
			p := f.writable()
			if p != nil && p != old {
				promoted = time.Since(killed)
				return true
			}
			return false
		})
		// …and a move is acknowledged on it.
		after := tb.moves.Load()
		for tb.moves.Load() == after {
			if time.Since(killed) > time.Minute {
				t.Fatalf("round %d: no move acknowledged a minute after the primary's kill (serve alive: %v)", r+1, s.alive())
			}
			time.Sleep(20 * time.Millisecond)
		}
		again := time.Since(killed)
		worst = max(worst, again)
		t.Logf("round %d: %s killed; standby promoted after %v, moves acknowledged again after %v", r+1, old.name,
			promoted.Round(time.Millisecond), again.Round(time.Millisecond))
		if again > 10*time.Second {
			t.Errorf("round %d: moves acknowledged again only %v after the primary's kill (goal ≤ 10 s)", r+1, again.Round(time.Millisecond))
		}
		// The old primary comes back and rejoins as a standby before the
		// next round (which fails over back to it).
		f.rejoin(old)
		f.waitSettled(3 * time.Minute)
	}
	// The job workers follow too: a sign-in's mail is sent by a River
	// worker on the new primary.
	tb.signIn("dora@players.test")
	time.Sleep(time.Second)
	stop()
	if !s.alive() {
		t.Fatal("serve exited during the failover")
	}
	// Every move command in the log was acknowledged once: one receipt per
	// request that played a move (a retry of a key replays, writing nothing).
	var applied int
	if err := c.pgConn(t).QueryRow(t.Context(), `select count(distinct meta->>'request_id') from events
		where meta->>'move' is not null and meta->>'channel' = 'api'`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if applied != len(tb.receipts) {
		t.Errorf("%d move requests applied in the log, %d acknowledged", applied, len(tb.receipts))
	}
	mails, twice := mailCaughtUp(t, c, rounds)
	c.check(tb)
	t.Logf("TestFailoverUnderLoad: %d failovers, %d moves acknowledged, %d applied in the log, worst time to acknowledge again %v, "+
		"answers no fault excuses %d, errors seen while retrying %v; %d mails delivered, %d delivered twice",
		rounds, tb.moves.Load(), applied, worst.Round(time.Millisecond), len(tb.bad), tb.errors, mails, twice)
	s.stop()
}

// mailCaughtUp waits (at most a minute) until the job workers have sent
// every mail begun (the dev mailbox: serve has no relay here), and checks
// that none was lost: every mail the log has as sent is in the mailbox, and
// a mail delivered twice (same Message-ID: a failover between the delivery
// and its record) happened at most once a failover. It returns the mails
// delivered and those delivered twice.
func mailCaughtUp(t *testing.T, c *cluster, failovers int) (delivered, twice int) {
	t.Helper()
	conn := c.pgConn(t)
	ctx := t.Context()
	deadline := time.Now().Add(time.Minute)
	for {
		var waiting int
		if err := conn.QueryRow(ctx, `select count(*) from river_job where kind like 'mail.%'
			and state in ('available', 'running', 'retryable', 'pending')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mail jobs still waiting a minute after the failovers", waiting)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var unsent, lost, discarded int
	err := conn.QueryRow(ctx, `select
			(select count(*) from mail_log where sent_at is null and failed_at is null and skipped is null),
			(select count(*) from mail_log m where sent_at is not null and not exists (select 1 from dev_mail d where d.message_id = m.message_id)),
			(select count(distinct message_id) from dev_mail),
			(select count(*) - count(distinct message_id) from dev_mail),
			(select count(*) from river_job where kind like 'mail.%' and state = 'discarded')`).
		Scan(&unsent, &lost, &delivered, &twice, &discarded)
	if err != nil {
		t.Fatal(err)
	}
	if unsent > 0 || lost > 0 || discarded > 0 {
		t.Errorf("mail after the failovers: %d begun and never sent, %d recorded as sent and not delivered, %d jobs discarded", unsent, lost, discarded)
	}
	if twice > failovers {
		t.Errorf("%d mails delivered twice after %d failovers (at most one a failover)", twice, failovers)
	}
	return delivered, twice
}

package faults_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// primaryFault is how a round of the failover scenario loses the primary.
type primaryFault int

const (
	// postmasterRestarted: kill -9 of the primary's postmaster; its
	// pg_autoctl restarts PostgreSQL in place (or, when it is too slow for
	// the monitor, the standby is promoted).
	postmasterRestarted primaryFault = iota
	// postmasterKilled: kill -9 of the primary's postmaster while its
	// pg_autoctl hangs (SIGSTOP): nothing restarts PostgreSQL, the monitor
	// promotes the standby, and the old primary, continued, rejoins as a
	// standby.
	postmasterKilled
	// nodeLost: kill -9 of the primary node's whole process group (its
	// pg_autoctl, postmaster and backends at once), as the machine's loss;
	// the node is started again afterwards and rejoins as a standby.
	nodeLost
)

func (p primaryFault) String() string {
	return [...]string{"postmaster killed, restarted by its pg_autoctl", "postmaster killed, its pg_autoctl hung", "node lost whole"}[p]
}

// The primary of a pg_auto_failover formation lost under load, in each of
// the ways primaryFault names, while bots play over HTTP and by mail
// (prompts through a relay, replies through serve's inbound SMTP): the
// monitor promotes the standby, serve follows the new primary through its
// multi-host DATABASE_URL without a restart, and nothing acknowledged is
// lost or applied twice, no mail is lost and none is sent more than once
// more a failover, no reply taken is lost or played twice. Each round's
// failover goes back to the node the last one left (the old primary
// rejoins as a standby). With -faults the failovers are played twice.
func TestFailoverUnderLoad(t *testing.T) {
	f := newFormation(t)
	c := f.cluster()
	relay := startRelay(t)
	s := c.startServe("COURRIER_SMTP_RELAY=smtp://"+relay.addr, "COURRIER_JOB_TIMEOUT=2s")
	t.Cleanup(func() { // a failed test leaves no serve behind
		if s.alive() {
			s.kill()
		}
	})
	tb := newTable(t, func() []string { return []string{s.base} })
	tb.inbox = relay.texts
	stop := startPlayers(t, tb, 1)
	// A second table plays its games one after another, each followed
	// through its live stream.
	done := make(chan struct{})
	var followed sync.WaitGroup
	var streamGames int
	var streamProblems []string
	followed.Go(func() {
		streamGames, streamProblems = followGames(tb, []string{"ana@players.test", "bob@players.test", "cleo@players.test"}, done)
	})
	// A third plays by mail.
	byMail := []string{"mona@players.test", "nils@players.test", "olga@players.test"}
	for _, p := range byMail {
		tb.signIn(p)
	}
	bots := newMailBots(t, relay, func() string { return s.smtpAddr })
	bots.players = map[string]bool{}
	for _, p := range byMail {
		bots.players[p] = true
	}
	followed.Go(func() { bots.run(done) })
	followed.Go(func() { tb.playByMail(relay, byMail, done) })

	faults := []primaryFault{postmasterRestarted, postmasterKilled, nodeLost}
	if *full {
		faults = append(faults, postmasterKilled, nodeLost)
	}
	var worst time.Duration
	failovers := 0
	for r, fault := range faults {
		time.Sleep(jitter(time.Second, 2*time.Second))
		old := f.primary()
		if old == nil {
			t.Fatalf("round %d: no primary: %v", r+1, f.states())
		}
		f.requireSynchronous(old)
		// The relay refuses mail for the second before the fault: those
		// mails are retried on timers (River's scheduled jobs), which must
		// go on after it.
		relay.setMode(relayTempFail)
		time.Sleep(time.Second)
		killed := time.Now()
		switch fault {
		case postmasterRestarted:
			f.killPostmaster(old, false)
		case postmasterKilled:
			f.killPostmaster(old, true)
		case nodeLost:
			f.killNode(old)
		}
		relay.setMode(relayOK)
		// The other node is promoted (a postmaster restarted in place may
		// keep its role)…
		var promoted time.Duration
		f.waitFor(time.Minute, "the standby's promotion", func() bool {
			p := f.writable()
			if p != nil && p != old {
				promoted = time.Since(killed)
				return true
			}
			return fault == postmasterRestarted && p == old && f.answers(old)
		})
		// …and a move is acknowledged on it.
		after := tb.moves.Load()
		for tb.moves.Load() == after {
			if time.Since(killed) > time.Minute {
				t.Fatalf("round %d: no move acknowledged a minute after the fault (serve alive: %v)", r+1, s.alive())
			}
			time.Sleep(20 * time.Millisecond)
		}
		again := time.Since(killed)
		worst = max(worst, again)
		if again > 10*time.Second {
			t.Errorf("round %d: moves acknowledged again only %v after the fault (goal ≤ 10 s)", r+1, again.Round(time.Millisecond))
		}
		if fault != postmasterRestarted && promoted == 0 {
			t.Errorf("round %d: %s and no standby was promoted", r+1, fault)
		}
		// The old primary comes back and rejoins as a standby before the
		// next round (which fails over back to it).
		switch fault {
		case postmasterKilled:
			f.thaw(old)
		case nodeLost:
			f.rejoin(old)
		}
		f.waitSettled(3 * time.Minute)
		outcome := "restarted in place"
		switch {
		case promoted > 0:
			outcome = fmt.Sprintf("standby promoted after %v", promoted.Round(time.Millisecond))
			failovers++
		case f.primary() != old: // the monitor failed over once the restarted primary had served again
			outcome = "restarted in place, then the standby promoted"
			failovers++
		}
		t.Logf("round %d, %s (%s) at %s: %s; moves acknowledged again after %v", r+1, fault, old.name, killed.Format(time.TimeOnly+".000"),
			outcome, again.Round(time.Millisecond))
	}
	// The job workers follow too: a sign-in's mail is sent by a River
	// worker on the new primary.
	tb.signIn("dora@players.test")
	time.Sleep(time.Second)
	close(done)
	followed.Wait()
	stop()
	if len(streamProblems) > 0 {
		t.Errorf("the live stream of %d of %d games skipped or repeated versions, e.g. %s", len(streamProblems), streamGames, streamProblems[0])
	}
	if !s.alive() {
		t.Fatal("serve exited during the failover")
	}
	conn := c.pgConn(t)
	// Every move command in the log was acknowledged once: one receipt per
	// request that played a move (a retry of a key replays, writing nothing).
	var applied int
	if err := conn.QueryRow(t.Context(), `select count(distinct meta->>'request_id') from events
		where meta->>'move' is not null and meta->>'channel' = 'api'`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if applied != len(tb.receipts) {
		t.Errorf("%d move requests applied in the log, %d acknowledged", applied, len(tb.receipts))
	}
	mail := mailCaughtUp(t, conn, relay, len(faults))
	played, twice := checkReplies(t, conn, bots)
	c.check(tb)
	t.Logf("TestFailoverUnderLoad: %d faults, %d failovers, %d moves acknowledged over HTTP, %d applied in the log, worst time to acknowledge again %v, "+
		"answers no fault excuses %d, errors seen while retrying %v; mail: %d delivered, %d delivered again (same Message-ID), %d delivered after a retry, 0 lost; "+
		"%d replies taken (%d sends retried), %d moves by mail, %d played twice; %d games followed live, %d with a version skipped or repeated",
		len(faults), failovers, tb.moves.Load(), applied, worst.Round(time.Millisecond), len(tb.bad), tb.errors,
		mail.delivered, mail.again, mail.retried, len(bots.accepted), bots.retries.Load(), played, twice, streamGames, len(streamProblems))
	s.stop()
}

// mailFigures is what became of the mail of the failover scenario.
type mailFigures struct {
	delivered int // mails the relay took
	again     int // takes past each mail's first
	retried   int // mails delivered after a retry on a timer
}

// mailCaughtUp waits (at most a minute) until the job workers have sent
// every mail begun, and checks that none was lost: every mail the log has
// is sent (none failed for good, none left unsent), every mail the log has
// as sent was taken by the relay, and a mail taken again (same Message-ID:
// a fault between the delivery and its record) was so at most once a
// fault. Some mails were refused with 451 just before each fault and
// retried on a timer: at least one must have been delivered after a retry.
func mailCaughtUp(t *testing.T, conn *pgx.Conn, relay *fakeRelay, faults int) mailFigures {
	t.Helper()
	ctx := t.Context()
	deadline := time.Now().Add(time.Minute)
	for {
		var waiting int
		if err := conn.QueryRow(ctx, `select count(*) from river_job where kind like 'mail.%'
			and state in ('available', 'running', 'retryable', 'pending', 'scheduled') and scheduled_at < now() + interval '10 minutes'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mail jobs still waiting a minute after the faults", waiting)
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // a last delivery's answer
	var unsent, failed, discarded int
	var fig mailFigures
	err := conn.QueryRow(ctx, `select
			(select count(*) from mail_log where sent_at is null and failed_at is null and skipped is null),
			(select count(*) from mail_log where failed_at is not null),
			(select count(*) from river_job where kind like 'mail.%' and state = 'discarded'),
			(select count(*) from river_job where kind like 'mail.%' and state = 'completed' and attempt > 1)`).
		Scan(&unsent, &failed, &discarded, &fig.retried)
	if err != nil {
		t.Fatal(err)
	}
	if unsent > 0 || failed > 0 || discarded > 0 {
		t.Errorf("mail after the faults: %d begun and never sent, %d failed for good, %d jobs discarded", unsent, failed, discarded)
	}
	rows, err := conn.Query(ctx, `select message_id from mail_log where sent_at is not null`)
	if err != nil {
		t.Fatal(err)
	}
	sent, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	takes := relay.takes()
	lost, most := 0, 0
	for _, id := range sent {
		if len(takes[id]) == 0 {
			lost++
		}
	}
	for _, at := range takes {
		fig.delivered++
		fig.again += len(at) - 1
		most = max(most, len(at))
	}
	if lost > 0 {
		t.Errorf("%d of %d mails recorded as sent were never taken by the relay", lost, len(sent))
	}
	// A mail whose delivery was under way at a fault is sent again (its
	// record was lost with the connection): each mail at most once more a
	// fault, as many mails as were being sent at once.
	if most > 1+faults {
		t.Errorf("a mail was delivered %d times across %d faults (at most once more a fault)", most, faults)
	}
	if fig.retried == 0 {
		t.Error("no mail was delivered after a retry: the relay's refusals before each fault were never retried")
	}
	return fig
}

// streamClient reads live streams: no overall timeout (a stream lasts).
var streamClient = &http.Client{}

// followGames plays games among players one after another until stop is
// closed, following each through its live stream (Server-Sent Events, the
// event id is the game's version) as its first player, reconnecting with
// Last-Event-ID whenever the stream ends or refuses; once a game is over it
// checks that the stream told every version once, in order, up to the last.
// It returns the games followed and what went wrong.
func followGames(tb *table, players []string, stop <-chan struct{}) (games int, problems []string) {
	for {
		select {
		case <-stop:
			return games, problems
		default:
		}
		game := tb.newGame(players)
		ctx, cancel := context.WithCancel(tb.t.Context())
		seen := make(chan int, 4096)
		go followStream(ctx, tb, game, tb.token(players[0]), seen)
		var versions []int
		finished := false
		for !finished {
			acted, over := tb.step(game, players)
			finished = over
			if !acted && !over {
				select {
				case <-stop:
					finished = true // the game stays unfinished: check what it has so far
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
		var v struct {
			Version int `json:"version"`
		}
		_ = json.Unmarshal(tb.must(http.MethodGet, "/v1/games/"+game, tb.token(players[0]), nil), &v)
		deadline := time.After(15 * time.Second)
	wait:
		for len(versions) == 0 || versions[len(versions)-1] < v.Version {
			select {
			case n := <-seen:
				versions = append(versions, n)
			case <-deadline:
				break wait
			}
		}
		cancel()
		games++
		for i, n := range versions {
			if n != i+1 {
				problems = append(problems, fmt.Sprintf("game %s: the stream told versions %v, up to %d", game, versions, v.Version))
				break
			}
		}
		if len(versions) != v.Version {
			problems = append(problems, fmt.Sprintf("game %s: the stream told %d versions of %d", game, len(versions), v.Version))
		}
	}
}

// followStream sends the id of every event of game's stream to seen, from
// the start, until ctx ends; it reconnects with the last id it saw.
func followStream(ctx context.Context, tb *table, game, token string, seen chan<- int) {
	last := 0
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, tb.bases()[0]+"/v1/games/"+game+"/stream?since=0", nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if last > 0 {
			req.Header.Set("Last-Event-ID", strconv.Itoa(last))
		}
		resp, err := streamClient.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				lines := bufio.NewScanner(resp.Body)
				for lines.Scan() {
					if id, ok := strings.CutPrefix(lines.Text(), "id: "); ok {
						if n, err := strconv.Atoi(strings.TrimSpace(id)); err == nil {
							last = n
							seen <- n
						}
					}
				}
			}
			_ = resp.Body.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

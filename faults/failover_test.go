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
	t.Cleanup(func() { // a failed test leaves no serve behind
		if s.alive() {
			s.kill()
		}
	})
	tb := newTable(t, func() []string { return []string{s.base} })
	stop := startPlayers(t, tb, 2)
	// A third table plays its games one after another, each followed
	// through its live stream.
	done := make(chan struct{})
	var followed sync.WaitGroup
	var streamGames int
	var streamProblems []string
	followed.Go(func() {
		streamGames, streamProblems = followGames(tb, []string{"ana@players.test", "bob@players.test", "cleo@players.test"}, done)
	})
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
	close(done)
	followed.Wait()
	stop()
	if len(streamProblems) > 0 {
		t.Errorf("the live stream of %d of %d games skipped or repeated versions, e.g. %s", len(streamProblems), streamGames, streamProblems[0])
	}
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
		"answers no fault excuses %d, errors seen while retrying %v; %d mails delivered, %d delivered twice; %d games followed live, %d with a version skipped or repeated",
		rounds, tb.moves.Load(), applied, worst.Round(time.Millisecond), len(tb.bad), tb.errors, mails, twice, streamGames, len(streamProblems))
	s.stop()
}

// mailCaughtUp waits (at most a minute) until the job workers have sent
// every mail begun (the dev mailbox: serve has no relay here), and checks
// that none was lost: every mail the log has as sent is in the mailbox, and
// a mail delivered again (same Message-ID: a failover between the delivery
// and its record) was so at most once a failover. It returns the mails
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
	var unsent, lost, discarded, most int
	err := conn.QueryRow(ctx, `select
			(select count(*) from mail_log where sent_at is null and failed_at is null and skipped is null),
			(select count(*) from mail_log m where sent_at is not null and not exists (select 1 from dev_mail d where d.message_id = m.message_id)),
			(select count(distinct message_id) from dev_mail),
			(select count(*) - count(distinct message_id) from dev_mail),
			(select count(*) from river_job where kind like 'mail.%' and state = 'discarded'),
			(select coalesce(max(n), 0) from (select count(*) as n from dev_mail group by message_id) d)`).
		Scan(&unsent, &lost, &delivered, &twice, &discarded, &most)
	if err != nil {
		t.Fatal(err)
	}
	if unsent > 0 || lost > 0 || discarded > 0 {
		t.Errorf("mail after the failovers: %d begun and never sent, %d recorded as sent and not delivered, %d jobs discarded", unsent, lost, discarded)
	}
	// A mail whose delivery was under way when the primary died is sent
	// again (its record was lost with the connection): each mail at most
	// once more a failover, as many mails as were being sent at once.
	if most > 1+failovers {
		t.Errorf("a mail was delivered %d times across %d failovers (at most once more a failover)", most, failovers)
	}
	return delivered, twice
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

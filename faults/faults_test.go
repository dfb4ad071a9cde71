package faults_test

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// startPlayers signs n players in and starts games tables of three playing
// through bases until the returned stop is called.
func startPlayers(t *testing.T, tb *table, tables int) (stop func()) {
	t.Helper()
	names := []string{"ana", "bob", "cleo"}
	var emails []string
	for _, n := range names {
		e := n + "@players.test"
		tb.signIn(e)
		emails = append(emails, e)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range tables {
		wg.Go(func() { tb.play(emails, done) })
	}
	return func() { close(done); wg.Wait() }
}

// kill -9 of the serve process in the middle of moves, then a restart,
// again and again: every acknowledged move survives, once.
func TestKillServeMidMoves(t *testing.T) {
	c := newCluster(t)
	s := c.startServe()
	var mu sync.Mutex
	bases := func() []string { mu.Lock(); defer mu.Unlock(); return []string{s.base} }
	tb := newTable(t, bases)
	stop := startPlayers(t, tb, 3)
	kills := 3
	if *full {
		kills = 20
	}
	for i := range kills {
		time.Sleep(jitter(300*time.Millisecond, 1200*time.Millisecond))
		before := tb.moves.Load()
		s.kill()
		time.Sleep(jitter(50*time.Millisecond, 400*time.Millisecond))
		s.start()
		t.Logf("kill %d: %d moves acknowledged before it", i+1, before)
	}
	time.Sleep(time.Second)
	stop()
	if tb.moves.Load() == 0 {
		t.Fatal("no move was acknowledged")
	}
	c.check(tb)
	t.Logf("TestKillServeMidMoves: %d kills -9, %d moves acknowledged, errors seen while retrying %v", kills, tb.moves.Load(), tb.errors)
	s.stop()
}

// Two serve processes on one database, one killed: clients moving through
// the other see no error.
func TestTwoServesOneKilled(t *testing.T) {
	c := newCluster(t)
	a, b := c.startServe(), c.startServe()
	var mu sync.Mutex
	live := []string{a.base, b.base}
	setup := newTable(t, func() []string { mu.Lock(); defer mu.Unlock(); return live })
	for _, n := range []string{"ana", "bob", "cleo"} {
		setup.signIn(n + "@players.test")
	}
	// The survivor's clients talk to b only; a's to a, and they retry.
	tb := newTable(t, func() []string { return []string{b.base} })
	tb.tokens = setup.tokens
	emails := []string{"ana@players.test", "bob@players.test", "cleo@players.test"}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { tb.play(emails, done) })
	}
	other := newTable(t, func() []string { mu.Lock(); defer mu.Unlock(); return live })
	other.tokens = setup.tokens
	wg.Go(func() { other.play(emails, done) })
	// Shared games: ana plays hers through the survivor only, bob and cleo
	// theirs through either process, so the survivor serves games the
	// killed process wrote to just before it died.
	for range 2 {
		game := setup.newGame(emails)
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				acted, finished := tb.step(game, emails[:1])
				if finished {
					return
				}
				if moved, _ := other.step(game, emails[1:]); !acted && !moved {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(time.Second)
	a.kill()
	mu.Lock()
	live = []string{b.base}
	mu.Unlock()
	time.Sleep(2 * time.Second)
	if *full {
		time.Sleep(20 * time.Second)
	}
	close(done)
	wg.Wait()
	// Every game's seats are played one after another, so not even a stale
	// move (409) is excused: a survivor that read a game the other process
	// wrote from a stale cache would answer one.
	if n := len(tb.errors); n > 0 {
		t.Errorf("clients of the surviving process saw errors: %v", tb.errors)
	}
	tb.receipts = append(tb.receipts, other.receipts...)
	tb.bad = append(tb.bad, other.bad...)
	c.check(tb)
	t.Logf("TestTwoServesOneKilled: %d moves through the survivor, %d through both, survivor's clients' errors %v", tb.moves.Load(), other.moves.Load(), tb.errors)
	b.stop()
}

// PostgreSQL crashed (immediate stop) under load and started again: serve
// stays up, answers 503 with Retry-After while the database is away (never
// a 500, never a request hung past its timeout), and serves again within 5
// s of the database's return, without a restart.
func TestDatabaseRestartUnderLoad(t *testing.T) {
	c := newCluster(t)
	s := c.startServe()
	tb := newTable(t, func() []string { return []string{s.base} })
	stop := startPlayers(t, tb, 2)
	rounds := 1
	if *full {
		rounds = 5
	}
	for r := range rounds {
		time.Sleep(jitter(500*time.Millisecond, 1500*time.Millisecond))
		if err := c.pg.Crash(t.Context()); err != nil {
			t.Fatal(err)
		}
		// While it is away: a health check and a read answer 503 with
		// Retry-After, in well under the client's timeout.
		for _, path := range []string{"/healthz", "/v1/games?mine=1"} {
			start := time.Now()
			status, hdr := probe(t, s.base+path, tb.tokens["ana@players.test"])
			if status != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || time.Since(start) > 8*time.Second {
				t.Errorf("round %d, %s while the database is away: %d, Retry-After %q, after %v", r+1, path, status, hdr.Get("Retry-After"), time.Since(start))
			}
		}
		time.Sleep(time.Second)
		if err := c.pg.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		back, movesBefore := time.Now(), tb.moves.Load()
		for {
			status, _ := probe(t, s.base+"/v1/games?mine=1", tb.tokens["ana@players.test"])
			if status == http.StatusOK {
				break
			}
			if time.Since(back) > 5*time.Second {
				t.Fatalf("round %d: serve answers %d 5 s after the database came back", r+1, status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		reading := time.Since(back)
		// And the players' moves are taken again within the same 5 s.
		for tb.moves.Load() == movesBefore {
			if time.Since(back) > 5*time.Second {
				t.Fatalf("round %d: no move acknowledged 5 s after the database came back", r+1)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("round %d: serving again %v after the database's return, a move acknowledged after %v", r+1,
			reading.Round(time.Millisecond), time.Since(back).Round(time.Millisecond))
	}
	time.Sleep(time.Second)
	stop()
	if !s.alive() {
		t.Fatal("serve exited while the database was away")
	}
	c.check(tb)
	t.Logf("TestDatabaseRestartUnderLoad: %d crashes, %d moves acknowledged, answers while away %v", rounds, tb.moves.Load(), tb.errors)
	s.stop()
}

// probe sends one GET and returns its status and header (0 when nothing
// answered within the client's timeout).
func probe(t *testing.T, url, token string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil
	}
	_ = resp.Body.Close()
	return resp.StatusCode, resp.Header
}

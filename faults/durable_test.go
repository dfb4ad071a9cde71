package faults_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// An answer that acknowledges what a read found waits, as a write does,
// until a standby has it: a move replayed under its Idempotency-Key and a
// mail received a second time are answered only once a commit after them
// is on the synchronous standby. (A primary that crashed while a commit
// waited for its standby replays that commit from its own WAL on restart:
// visible there, on no standby. TestFailoverUnderLoad lost such a move,
// acknowledged by a replay, before the replay waited.) The suite's server
// is told its synchronous standby is one that never connects: every
// commit then waits, and neither answer may come; once it is told there is
// none, both come.
func TestAcknowledgementsWaitForTheStandby(t *testing.T) {
	c, s, tb, players, game := gameOfThree(t)
	for acted := false; !acted; {
		acted, _ = tb.step(game, players)
	}
	r := tb.receipts[0]
	mail := []byte(fmt.Sprintf("From: ana@players.test\r\nTo: play@localhost\r\nSubject: help\r\nMessage-ID: <twice-%s@players.test>\r\n"+
		"Date: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhelp\r\n", randomHex(6), time.Now().Format(time.RFC1123Z)))
	if err := sendMail(s.smtpAddr, "ana@players.test", "play@localhost", mail); err != nil {
		t.Fatalf("the mail's first delivery: %v", err)
	}

	conn := c.pgConn(t)
	standby := func(names string) { t.Helper(); setStandby(t, conn, names) }
	replay := func(timeout time.Duration) (int, error) {
		ctx, cancel := context.WithTimeout(t.Context(), timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/games/"+game+"/moves", bytes.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+r.token)
		req.Header.Set("Idempotency-Key", r.key)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_ = resp.Body.Close()
		return resp.StatusCode, nil
	}

	standby("ghost")
	t.Cleanup(func() { standby("") })
	if status, err := replay(2 * time.Second); err == nil {
		t.Errorf("the move's replay was answered %d while no standby had its commit", status)
	}
	mailDone := make(chan error, 1)
	go func() { mailDone <- sendMail(s.smtpAddr, "ana@players.test", "play@localhost", mail) }()
	select {
	case err := <-mailDone:
		t.Errorf("the mail's second delivery was answered (err %v) while no standby had its first", err)
	case <-time.After(2 * time.Second):
	}

	standby("")
	if status, err := replay(10 * time.Second); err != nil || status != http.StatusOK {
		t.Errorf("the move's replay once no standby is awaited: %d, %v", status, err)
	}
	select {
	case err := <-mailDone:
		if err != nil {
			t.Errorf("the mail's second delivery once no standby is awaited: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the mail's second delivery got no answer once no standby is awaited")
	}
	s.stop()
}

// A live stream tells only what the synchronous standby has. A move whose
// commit waits for a standby that never connects is written to the
// primary's WAL; the primary crashes and restarts, and replays that commit:
// the move is visible there and on no standby (a failover now would lose it
// and put another event at its version). The game's stream, followed live,
// must not tell that version while no standby has it (a client told it
// would resume after it and never be told the event that replaces it), and
// tells it once the server is told there is no standby to wait for.
func TestTheLiveStreamTellsOnlyWhatTheStandbyHas(t *testing.T) {
	c, s, tb, players, game := gameOfThree(t)
	var v struct {
		Version int      `json:"version"`
		Legal   []string `json:"legal"`
	}
	var mover string
	for _, p := range players {
		if err := json.Unmarshal(tb.must(http.MethodGet, "/v1/games/"+game, tb.token(p), nil), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Legal) > 0 {
			mover = p
			break
		}
	}
	if mover == "" {
		t.Fatal("nobody may move")
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	seen := make(chan int, 1024)
	go followStream(ctx, tb, game, tb.token(players[0]), seen)
	told := func(version int, within time.Duration) bool {
		deadline := time.After(within)
		for {
			select {
			case n := <-seen:
				if n >= version {
					return true
				}
			case <-deadline:
				return false
			}
		}
	}
	if !told(v.Version, 10*time.Second) {
		t.Fatalf("the stream did not tell version %d, the game's", v.Version)
	}

	conn := c.pgConn(t)
	setStandby(t, conn, "ghost")
	// The move's commit waits for the standby; the crash ends the wait.
	body, _ := json.Marshal(map[string]any{"move": v.Legal[0], "expected_version": v.Version})
	moved := make(chan struct{})
	go func() {
		defer close(moved)
		tb.call(http.MethodPost, "/v1/games/"+game+"/moves", tb.token(mover), body, "Idempotency-Key", "ghost-"+randomHex(6))
	}()
	time.Sleep(time.Second)
	if err := c.pg.Crash(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := c.pg.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	<-moved
	conn = c.pgConn(t)
	var recovered int
	if err := conn.QueryRow(t.Context(), `select count(*) from events where stream = $1 and version = $2`, "game-"+game, v.Version+1).Scan(&recovered); err != nil {
		t.Fatal(err)
	}
	if recovered != 1 {
		t.Fatalf("the move's commit was not replayed by the restart (%d events at version %d): the scenario did not happen", recovered, v.Version+1)
	}
	if told(v.Version+1, 4*time.Second) {
		t.Errorf("the stream told version %d, which no standby had", v.Version+1)
	}
	setStandby(t, conn, "")
	if !told(v.Version+1, 15*time.Second) {
		t.Errorf("the stream did not tell version %d once no standby was awaited", v.Version+1)
	}
	cancel()
	s.stop()
}

// setStandby sets the server's synchronous_standby_names ("ghost": a standby
// that never connects, so every commit waits; "": none, commits wait for
// nothing) and waits for the reload to reach every backend. It is reset at
// the test's end.
func setStandby(t *testing.T, conn *pgx.Conn, names string) {
	t.Helper()
	ctx := context.WithoutCancel(t.Context()) // also from the test's cleanup
	for _, sql := range []string{fmt.Sprintf("alter system set synchronous_standby_names = '%s'", names), "select pg_reload_conf()"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond)
}

// gameOfThree starts a cluster and a serve on it, signs three players in
// and starts a game of theirs.
func gameOfThree(t *testing.T) (c *cluster, s *serve, tb *table, players []string, game string) {
	t.Helper()
	c = newCluster(t)
	s = c.startServe()
	tb = newTable(t, func() []string { return []string{s.base} })
	players = []string{"ana@players.test", "bob@players.test", "cleo@players.test"}
	for _, p := range players {
		tb.signIn(p)
	}
	return c, s, tb, players, tb.newGame(players)
}

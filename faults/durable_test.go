package faults_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
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
	c := newCluster(t)
	s := c.startServe()
	tb := newTable(t, func() []string { return []string{s.base} })
	players := []string{"ana@players.test", "bob@players.test", "cleo@players.test"}
	for _, p := range players {
		tb.signIn(p)
	}
	game := tb.newGame(players)
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
	standby := func(names string) {
		t.Helper()
		ctx := context.WithoutCancel(t.Context()) // also from the test's cleanup
		if _, err := conn.Exec(ctx, fmt.Sprintf("alter system set synchronous_standby_names = '%s'", names)); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "select pg_reload_conf()"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // the reload reaches every backend
	}
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

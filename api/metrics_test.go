package api_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scrape reads /metrics into a map from each sample's name and labels, as
// written (`courrier_mail_waiting{priority="game"}`), to its value.
func (e *env) scrape() map[string]float64 {
	e.t.Helper()
	req, _ := http.NewRequestWithContext(e.t.Context(), http.MethodGet, e.url+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		e.t.Fatalf("/metrics: %d %v", resp.StatusCode, err)
	}
	out := map[string]float64{}
	for line := range strings.SplitSeq(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			e.t.Fatalf("/metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// mailJobsLeft counts the mail jobs not finished yet.
func (e *env) mailJobsLeft() int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(e.t.Context(), `select count(*) from river_job where queue = 'mail'
		and state not in ('completed', 'cancelled', 'discarded') and scheduled_at <= now()`).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// /metrics shows, read at the scrape: the mail waiting per priority and
// the age of the oldest (a sign-in link waiting; prompts of the moves;
// an invitation), the moves committed by every door, and the feed
// reader's lag and the events it delivered.
func TestMetricsShowMailBacklogMovesAndFeed(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	// Every mail so far is sent; then the queue stops, as in an outage:
	// what the next commands queue waits.
	deadline := time.Now().Add(15 * time.Second)
	for e.mailJobsLeft() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d mail jobs still not worked after 15 s", e.mailJobsLeft())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.jobs.Stop(stop); err != nil {
		t.Fatal(err)
	}
	before := e.scrape()
	for _, p := range []string{"waiting", "game", "later"} {
		if n, ok := before[`courrier_mail_waiting{priority="`+p+`"}`]; !ok || n != 0 {
			t.Fatalf("before anything waits, courrier_mail_waiting{priority=%q} is %v (shown: %v)", p, n, ok)
		}
	}

	// Two moves through the API, each prompting the next seat(s).
	moves := 0
	for moves < 2 {
		moved := false
		for _, token := range []string{ana, bob} {
			if v, _ := e.view(token, id); len(v.Pending) > 0 && len(v.Legal) > 0 && !moved {
				r := e.call(http.MethodPost, "/v1/games/"+id+"/moves", token, map[string]any{"move": v.Legal[0], "expected_version": v.Version})
				if r.status != http.StatusOK {
					t.Fatalf("move %q: %d %s", v.Legal[0], r.status, r.body)
				}
				moves, moved = moves+1, true
			}
		}
		if !moved {
			t.Fatal("nobody may move in the coup game")
		}
	}
	// A game inviting Dan (an invitation: later), and a sign-in link for
	// Cleo (waiting), asked two minutes ago.
	if r := e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "seats": []string{"me", "dan@players.test"}}); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/auth/login", "", map[string]string{"email": "cleo@players.test"}); r.status != http.StatusAccepted {
		t.Fatalf("login: %d %s", r.status, r.body)
	}
	if _, err := e.pool.Exec(t.Context(), `update river_job set scheduled_at = now() - interval '120 seconds' where kind = 'mail.login' and state = 'available'`); err != nil {
		t.Fatal(err)
	}
	var prompts int
	if err := e.pool.QueryRow(t.Context(), `select count(*) from river_job where kind = 'mail.prompt' and state = 'available'`).Scan(&prompts); err != nil {
		t.Fatal(err)
	}
	if prompts == 0 {
		t.Fatal("the moves queued no prompt")
	}

	// The feed reader delivers every event before the scrape is read.
	events := float64(e.countEvents())
	var m map[string]float64
	for m = e.scrape(); m["courrier_feed_events_delivered_total"] < events; m = e.scrape() {
		if time.Now().After(deadline.Add(15 * time.Second)) {
			t.Fatalf("the feed reader delivered %v of %v events", m["courrier_feed_events_delivered_total"], events)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range []struct {
		sample   string
		min, max float64
	}{
		{`courrier_mail_waiting{priority="waiting"}`, 1, 1},
		{`courrier_mail_waiting{priority="game"}`, float64(prompts), float64(prompts)},
		{`courrier_mail_waiting{priority="later"}`, 1, 1},
		{`courrier_mail_oldest_waiting_seconds{priority="waiting"}`, 120, 180},
		{`courrier_mail_oldest_waiting_seconds{priority="game"}`, 0, 60},
		{`courrier_moves_committed_total{channel="api"}`, float64(moves), float64(moves)},
		{`courrier_moves_total{game="coup"}`, float64(moves), float64(moves)},
		{`courrier_feed_events_delivered_total`, events, events},
		{`courrier_feed_lag_seconds`, 0, 10},
		{`courrier_feed_last_poll_age_seconds`, 0, 10},
		{`courrier_brief_folds_total`, 0, float64(prompts) + 10},
	} {
		v, ok := m[c.sample]
		if !ok || v < c.min || v > c.max {
			t.Errorf("%s = %v (shown: %v), want %v to %v", c.sample, v, ok, c.min, c.max)
		}
	}
	if _, ok := m[`courrier_moves_committed_total{channel="email"}`]; ok {
		t.Error("moves by mail are counted, but none was played by mail")
	}
}

package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	id, event, data string
}

// openStream opens a game's live stream and returns its events.
func openStream(t *testing.T, base, token, game string, lastID int) (<-chan sseEvent, func()) {
	t.Helper()
	id := ""
	if lastID > 0 {
		id = strconv.Itoa(lastID)
	}
	return openStreamAt(t, base, token, game, id)
}

// openStreamAt is openStream resuming after the event id lastID ("" for
// none).
func openStreamAt(t *testing.T, base, token, game, lastID string) (<-chan sseEvent, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/games/"+game+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req) //nolint:bodyclose // the stop function returned closes it
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sseEvent, 256)
	go func() {
		defer close(out)
		defer func() { _ = resp.Body.Close() }()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.id != "" {
					out <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data += line[6:]
			}
		}
	}()
	return out, cancel
}

// next waits for the stream's next event.
func next(t *testing.T, c <-chan sseEvent, within time.Duration) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-c:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(within):
		t.Fatalf("no event within %v", within)
	}
	return sseEvent{}
}

// A move made through one serve process reaches a live stream held on
// another (the bound is liveness, 30 s, not speed: the latency is logged,
// and a timed unit test on two loaded cores would only flake); the stream resumes from Last-Event-ID without
// a gap or a repeat; each seat's stream is its own.
func TestLiveStreamsAcrossTwoProcesses(t *testing.T) {
	one := newEnv(t)
	two := newEnvOn(t, one.pool)
	ana, bob := one.signIn("ana@players.test"), one.signIn("bob@players.test")
	id := one.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	v, _ := one.view(ana, id)
	mover, watcher := ana, bob
	if len(v.Pending) == 0 {
		mover, watcher = bob, ana
		v, _ = one.view(mover, id)
	}
	stream, stop := openStream(t, two.url, watcher, id, 0)
	defer stop()
	// The backlog: every event so far, in order.
	for want := 1; want <= v.Version; want++ {
		if ev := next(t, stream, 5*time.Second); ev.id != strconv.Itoa(want) {
			t.Fatalf("backlog event id %s, want %d", ev.id, want)
		}
	}
	start := time.Now()
	r := one.call(http.MethodPost, "/v1/games/"+id+"/moves", mover, map[string]any{"move": v.Legal[0], "expected_version": v.Version})
	if r.status != http.StatusOK {
		t.Fatalf("move: %d %s", r.status, r.body)
	}
	ev := next(t, stream, 30*time.Second)
	if ev.id != strconv.Itoa(v.Version+1) || !strings.Contains(ev.data, `"text"`) {
		t.Fatalf("live event %+v, want id %d", ev, v.Version+1)
	}
	if strings.Contains(ev.data, `"move"`) {
		t.Fatalf("the other seat's stream shows the move as typed: %s", ev.data)
	}
	t.Logf("a move through one process reached a stream on the other in %v", time.Since(start))
	stop()

	// Resume after the first event: events 2.. come again, in order, once.
	resumed, stop2 := openStream(t, one.url, watcher, id, 1)
	defer stop2()
	for want := 2; want <= v.Version+1; want++ {
		if ev := next(t, resumed, 5*time.Second); ev.id != fmt.Sprint(want) {
			t.Fatalf("resumed event id %s, want %d", ev.id, want)
		}
	}
	select {
	case ev := <-resumed:
		t.Fatalf("an extra event after resuming: %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}
}

// A retried move with the same Idempotency-Key gets the first receipt back
// and writes nothing; the moves counter of /metrics counts it once.
func TestIdempotentRetryAndMetrics(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	v, _ := e.view(ana, id)
	mover := ana
	if len(v.Pending) == 0 {
		mover = bob
		v, _ = e.view(bob, id)
	}
	body := map[string]any{"move": v.Legal[0], "expected_version": v.Version}
	first := e.call(http.MethodPost, "/v1/games/"+id+"/moves", mover, body, "Idempotency-Key", "k-1")
	events := e.countEvents()
	again := e.call(http.MethodPost, "/v1/games/"+id+"/moves", mover, body, "Idempotency-Key", "k-1")
	var a, b struct {
		Receipt struct {
			Version  int    `json:"version"`
			Head     string `json:"head"`
			Replayed bool   `json:"replayed"`
		} `json:"receipt"`
	}
	first.decode(t, &a)
	again.decode(t, &b)
	if first.status != 200 || again.status != 200 || a.Receipt.Version != b.Receipt.Version || a.Receipt.Head != b.Receipt.Head || !b.Receipt.Replayed || a.Receipt.Head == "" {
		t.Fatalf("first %d %s\nretry %d %s", first.status, first.body, again.status, again.body)
	}
	if n := e.countEvents(); n != events {
		t.Fatalf("the retry wrote %d events", n-events)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, e.url+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	sc := bufio.NewScanner(resp.Body)
	found := false
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `courrier_moves_total{game="coup"} 1`) {
			found = true
		}
	}
	if !found {
		t.Fatal(`/metrics has no courrier_moves_total{game="coup"} 1`)
	}
}

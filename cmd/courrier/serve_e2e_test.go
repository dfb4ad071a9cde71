package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	client "github.com/courrier-games/courrier/api" // its generated client
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// startServe runs `courrier serve` on a fresh test database and returns
// its base URL and a pool on its database; the server stops with the test,
// or when stop is called (which returns serve's error).
func startServe(t *testing.T, extra ...string) (base string, pool *pgxpool.Pool, stop func() error) {
	t.Helper()
	pool, dbURL := pgtest.NewWithURL(t)
	base, stop = startServeOn(t, dbURL, t.TempDir(), extra...)
	return base, pool, stop
}

// startServeOn runs `courrier serve` on the database at dbURL with the
// data directory dataDir (two processes of one service share it).
func startServeOn(t *testing.T, dbURL, dataDir string, extra ...string) (base string, stop func() error) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	smtpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	base = "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	args := append([]string{"serve", "-database-url", dbURL, "-http-addr", addr, "-smtp-addr", smtpAddr,
		"-data-dir", dataDir, "-base-url", base}, extra...)
	go func() { done <- run(ctx, args, &bytes.Buffer{}, &errb) }()
	var once sync.Once
	var serveErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			serveErr = <-done
		})
		return serveErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("serve returned %v\n%s", err, errb.String())
		}
	})
	for range 200 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, stop
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("serve never answered:\n%s", errb.String())
	return "", nil
}

// Every engine is played to its end through `courrier serve`, over HTTP
// alone, by players signed in through the dev mailbox, with random legal
// moves. At every answer no other player's address or id appears; at
// every step each served view is the engine's view of that seat, folded
// from the log; at the end each player's event feed is their history.
func TestServePlaysEveryGameOverHTTP(t *testing.T) {
	base, pool, _ := startServe(t)
	ctx := t.Context()
	api, err := newAPIClient(base, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	reg := catalog.Registry()
	reader := play.New(pool, reg)
	for gi, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, err := reg.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			n := eng.Info().MinSeats + gi%2
			n = min(n, eng.Info().MaxSeats)
			var bots []*bot
			for i := range n {
				b, err := signInBot(ctx, api, fmt.Sprintf("%s%d@players.test", kind, i))
				if err != nil {
					t.Fatal(err)
				}
				bots = append(bots, b)
			}
			pick := rand.New(rand.NewPCG(uint64(gi), 11)) //nolint:gosec // G115: a small index
			m, err := startMatch(ctx, kind, bots, pick)
			if err != nil {
				t.Fatal(err)
			}
			m.answer = func(to *bot, body []byte) {
				for _, other := range bots {
					if other != to && (bytes.Contains(body, []byte(other.email)) || bytes.Contains(body, []byte(other.user))) {
						t.Fatalf("an answer to %s names %s:\n%s", to.email, other.email, body)
					}
				}
			}
			moves, stale := 0, 0
			for {
				if moves > 4000 {
					t.Fatalf("no end after %d moves", moves)
				}
				out, err := m.step(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if out.finished {
					break
				}
				if out.stale {
					stale++
					continue
				}
				moves++
				if moves%4 == 1 {
					checkServedViews(t, reader, m)
				}
			}
			checkServedViews(t, reader, m)
			for _, b := range bots {
				since := 0
				r, err := api.ListEventsWithResponse(ctx, m.id, &client.ListEventsParams{Since: &since}, client.WithToken(b.token))
				if err != nil || r.JSON200 == nil {
					t.Fatalf("events of %s: %v %s", b.email, err, r.Body)
				}
				m.answer(b, r.Body)
				want, err := reader.History(ctx, m.id, b.user, 0)
				if err != nil {
					t.Fatal(err)
				}
				if got, exp := texts(r.JSON200.Items), historyTexts(want); got != exp {
					t.Fatalf("%s's feed:\n%s\nwant their history:\n%s", b.email, got, exp)
				}
			}
			t.Logf("%s: %d players, %d moves, %d stale", kind, n, moves, stale)
		})
	}
}

// checkServedViews compares the view the server gives each bot with the
// engine's view of its seat at the same version, folded from the log.
func checkServedViews(t *testing.T, reader *play.Service, m *match) {
	t.Helper()
	tbl, err := reader.Load(t.Context(), m.id)
	if err != nil {
		t.Fatal(err)
	}
	_, views, err := tbl.Project()
	if err != nil {
		t.Fatal(err)
	}
	for seat, b := range m.seats {
		served, err := m.view(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		if served.Version != tbl.Version {
			continue // the game moved meanwhile: compared at the next check
		}
		for _, v := range views {
			if int(v.Seat) != seat {
				continue
			}
			got, _ := json.Marshal(served.View)
			var want any
			_ = json.Unmarshal(v.View, &want)
			exp, _ := json.Marshal(want)
			if !bytes.Equal(got, exp) {
				t.Fatalf("seat %d is served\n%s\nbut may see\n%s", seat, got, exp)
			}
		}
	}
}

func texts(items []client.Event) string {
	var b bytes.Buffer
	for _, e := range items {
		fmt.Fprintf(&b, "%d %s %s\n", e.Version, e.Type, e.Text)
	}
	return b.String()
}

func historyTexts(items []play.Change) string {
	var b bytes.Buffer
	for _, e := range items {
		fmt.Fprintf(&b, "%d %s %s\n", e.Version, e.Type, e.Text)
	}
	return b.String()
}

// A graceful shutdown ends the live streams first: a client holding one
// sees it end, and serve stops at once rather than after its timeout.
func TestServeEndsLiveStreamsOnShutdown(t *testing.T) {
	base, _, stop := startServe(t)
	ctx := t.Context()
	api, err := newAPIClient(base, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	var bots []*bot
	for i := range 2 {
		b, err := signInBot(ctx, api, fmt.Sprintf("p%d@players.test", i))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	m, err := startMatch(ctx, "coup", bots, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/games/"+m.id+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bots[0].token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		ended <- err
	}()
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("serve stopped with %v", err)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("the stream ended with %v, want a clean end", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream is still open after serve stopped")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("serve took %v to stop with a stream open", d)
	}
}

// Two `courrier serve` processes on one database, sharing their data
// directory: a move made through one reaches a live stream held on the
// other (a liveness bound of 30 s; the latency is logged, not timed).
func TestTwoServeProcessesShareLiveMoves(t *testing.T) {
	_, dbURL := pgtest.NewWithURL(t)
	dataDir := t.TempDir()
	one, _ := startServeOn(t, dbURL, dataDir)
	two, _ := startServeOn(t, dbURL, dataDir)
	ctx := t.Context()
	apiOne, err := newAPIClient(one, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	var bots []*bot
	for i := range 2 {
		b, err := signInBot(ctx, apiOne, fmt.Sprintf("p%d@players.test", i))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	m, err := startMatch(ctx, "coup", bots, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.view(ctx, bots[0])
	if err != nil {
		t.Fatal(err)
	}
	mover, watcher := bots[0], bots[1]
	if len(v.Legal) == 0 {
		mover, watcher = bots[1], bots[0]
		if v, err = m.view(ctx, mover); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, two+"/v1/games/"+m.id+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+watcher.token)
	req.Header.Set("Last-Event-ID", strconv.Itoa(v.Version))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the stream on the second process: %d", resp.StatusCode)
	}
	ids := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				ids <- id
			}
		}
	}()
	start := time.Now()
	key := "two-processes"
	r, err := apiOne.PlayMoveWithResponse(ctx, m.id, &client.PlayMoveParams{IdempotencyKey: &key},
		client.MoveRequest{Move: v.Legal[0], ExpectedVersion: v.Version}, client.WithToken(mover.token))
	if err != nil || r.JSON200 == nil {
		t.Fatalf("move through the first process: %v %s", err, r.Body)
	}
	select {
	case id := <-ids:
		if id != strconv.Itoa(v.Version+1) {
			t.Fatalf("the second process streamed event %s, want %d", id, v.Version+1)
		}
		t.Logf("a move through one process reached a stream on the other in %v", time.Since(start))
	case <-time.After(30 * time.Second):
		t.Fatal("a move through one process did not reach a stream on the other within 30 s")
	}
}

// serve slows an address's refusals past COURRIER_REFUSAL_LIMIT (bursts of
// five times it), and never with "off".
func TestServeSlowsRepeatedRefusals(t *testing.T) {
	for _, tc := range []struct {
		limit string
		slow  bool
	}{{"1", true}, {"off", false}} {
		t.Run(tc.limit, func(t *testing.T) {
			base, _, _ := startServe(t, "-refusal-limit", tc.limit)
			var slowest time.Duration
			for range 8 { // past the burst of 5
				req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/v1/me", nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer forged")
				start := time.Now()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Fatalf("a forged token: %d, want 401", resp.StatusCode)
				}
				slowest = max(slowest, time.Since(start))
			}
			if slowed := slowest >= 900*time.Millisecond; slowed != tc.slow {
				t.Errorf("refusal limit %s: the slowest of 8 refusals took %v; slowed = %v, want %v", tc.limit, slowest, slowed, tc.slow)
			}
		})
	}
}

package guard_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/courrier-games/courrier/cmd/courrier/guard"
)

// status answers /<code> with that status.
func status(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/ok":
		_, _ = w.Write([]byte("ok"))
	case "/stale":
		w.WriteHeader(http.StatusConflict)
	case "/forged":
		w.WriteHeader(http.StatusUnauthorized)
	default:
		http.NotFound(w, r)
	}
}

func get(ctx context.Context, t *testing.T, url string) (int, time.Duration, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, time.Since(start), err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, time.Since(start), nil
}

// Refusals within an address's budget are answered at once; past it, each
// waits the pause; successes and the rules' refusals never wait, and a
// client that gives up frees its request.
func TestRefusalsPastTheBudgetWait(t *testing.T) {
	const pause = 2 * time.Second
	srv := httptest.NewServer(guard.Handler(http.HandlerFunc(status), guard.Config{PerSecond: 2, Pause: pause}))
	defer srv.Close()
	ctx := t.Context()
	// The budget: a burst of 10 (five times the rate) at full speed.
	for i := range 10 {
		code, took, err := get(ctx, t, srv.URL+"/forged")
		if err != nil || code != http.StatusUnauthorized || took >= pause/2 {
			t.Fatalf("refusal %d within the budget: %d after %v (%v)", i+1, code, took, err)
		}
	}
	// A client that gives up past the budget does not hold its request for the pause.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, took, err := get(short, t, srv.URL+"/forged"); err == nil || took >= pause/2 {
		t.Errorf("a refusal whose client gave up: %v after %v", err, took)
	}
	// Past it, refusals wait; meanwhile successes and stale moves do not.
	var wg sync.WaitGroup
	slow := make([]time.Duration, 3)
	for i, path := range []string{"/forged", "/nowhere", "/forged"} {
		wg.Go(func() {
			code, took, err := get(ctx, t, srv.URL+path)
			if err != nil || !guard.Refusal(code) {
				t.Errorf("%s past the budget: %d (%v)", path, code, err)
			}
			slow[i] = took
		})
	}
	time.Sleep(100 * time.Millisecond)
	for _, path := range []string{"/ok", "/stale", "/ok"} {
		code, took, err := get(ctx, t, srv.URL+path)
		if err != nil || guard.Refusal(code) || took >= pause/2 {
			t.Errorf("%s while refusals wait: %d after %v (%v)", path, code, took, err)
		}
	}
	wg.Wait()
	for i, took := range slow {
		if took < pause-100*time.Millisecond {
			t.Errorf("refusal %d past the budget answered after %v, want the pause of %v", i+1, took, pause)
		}
	}
}

func TestRefusal(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   bool
	}{
		{200, false}, {204, false}, {400, true}, {401, true}, {403, true}, {404, true}, {409, false},
		{413, true}, {422, false}, {429, true}, {500, false}, {503, false},
	} {
		if got := guard.Refusal(tc.status); got != tc.want {
			t.Errorf("Refusal(%d) = %v, want %v", tc.status, got, tc.want)
		}
	}
}

// Past MaxHeld refusals in their pause, a further one is answered at once
// and its connection closed: held requests cannot pile up without bound.
func TestHeldRefusalsAreBounded(t *testing.T) {
	const pause = 2 * time.Second
	srv := httptest.NewServer(guard.Handler(http.HandlerFunc(status), guard.Config{PerSecond: 1, Pause: pause, MaxHeld: 1}))
	defer srv.Close()
	ctx := t.Context()
	for range 5 { // the burst
		if _, _, err := get(ctx, t, srv.URL+"/forged"); err != nil {
			t.Fatal(err)
		}
	}
	held := make(chan time.Duration)
	go func() {
		_, took, _ := get(ctx, t, srv.URL+"/forged")
		held <- took
	}()
	time.Sleep(200 * time.Millisecond)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/forged", nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if took := time.Since(start); took >= pause/2 || resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Errorf("a refusal past MaxHeld: %d after %v, connection closed %v; want 401 at once, closed", resp.StatusCode, took, resp.Close)
	}
	if took := <-held; took < pause-100*time.Millisecond {
		t.Errorf("the held refusal was answered after %v, want the pause of %v", took, pause)
	}
}

package faults_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgserver"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

var full = flag.Bool("faults", false, "run the full fault scenarios (minutes); without it, a short version of each")

// binary is the courrier binary built for the suite.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	if spec := os.Getenv("COURRIER_FAULTS_FLOOD"); spec != "" {
		if err := runFlood(spec); err != nil {
			fmt.Fprintln(os.Stderr, "flood:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "courrier-faults-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "courrier")
	build := exec.CommandContext(context.Background(), "go", "build", "-o", binary, "../cmd/courrier") //nolint:gosec // G204: go build of this repository
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "faults: build courrier:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// cluster is a PostgreSQL server of the suite's own (local binaries, own
// data directory and port: restarting it disturbs no other test) with a
// migrated database, and the data directory of the serve processes.
type cluster struct {
	t       *testing.T
	pg      *pgserver.Server
	dbURL   string
	dataDir string
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	ctx := t.Context()
	// The server runs as an unprivileged user when the tests run as root:
	// its directory must be reachable (t.TempDir's parent is not).
	dir, err := os.MkdirTemp("", "courrier-faults-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // G302: the server's user must traverse it
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	pass := randomHex(12)
	pg, err := pgserver.New(filepath.Join(dir, "pg"), freePort(t), pass, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("the fault suite runs its own PostgreSQL from the machine's binaries: %v", err)
	}
	if err := pg.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop(context.Background()) })
	conn, err := pgx.Connect(ctx, pg.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "create database courrier"); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(ctx)
	c := &cluster{t: t, pg: pg, dbURL: pg.URL("courrier"), dataDir: filepath.Join(dir, "data")}
	c.courrier("migrate")
	return c
}

// courrier runs a courrier command on the cluster and returns its output.
func (c *cluster) courrier(args ...string) string {
	c.t.Helper()
	out, err := c.tryCourrier(args...)
	if err != nil {
		c.t.Fatalf("courrier %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (c *cluster) tryCourrier(args ...string) (string, error) {
	cmd := exec.CommandContext(c.t.Context(), binary, append(args, "-database-url", c.dbURL, "-data-dir", c.dataDir)...) //nolint:gosec // G204: the suite's own binary
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// serve is one `courrier serve` process.
type serve struct {
	c        *cluster
	base     string
	httpAddr string
	smtpAddr string
	cmd      *exec.Cmd
	exited   chan struct{} // closed when cmd has exited (and been waited for)
	log      *os.File
	env      []string
}

// alive reports whether the process is still running.
func (s *serve) alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// startServe starts a serve process with env added to the suite's
// environment (KEY=value).
func (c *cluster) startServe(env ...string) *serve {
	c.t.Helper()
	s := &serve{c: c, httpAddr: fmt.Sprintf("127.0.0.1:%d", freePort(c.t)), smtpAddr: fmt.Sprintf("127.0.0.1:%d", freePort(c.t)), env: env}
	s.base = "http://" + s.httpAddr
	s.start()
	return s
}

// start starts the process and waits for its health check; a failure
// ends the test (call it from the test's goroutine).
func (s *serve) start() {
	s.c.t.Helper()
	if err := s.launch(); err != nil {
		s.c.t.Fatal(err)
	}
}

// launch is start for any goroutine: it returns what went wrong.
func (s *serve) launch() error {
	t := s.c.t
	f, err := os.CreateTemp(t.TempDir(), "serve-*.log")
	if err != nil {
		return err
	}
	s.log = f
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		b, _ := os.ReadFile(f.Name())
		for l := range strings.SplitSeq(string(b), "\n") {
			if strings.Contains(l, "level=ERROR") {
				t.Logf("serve: %.400s", l)
			}
		}
	})
	s.cmd = exec.CommandContext(context.Background(), binary, "serve", "-database-url", s.c.dbURL, "-data-dir", s.c.dataDir, //nolint:gosec // G204: the suite's own binary
		"-http-addr", s.httpAddr, "-smtp-addr", s.smtpAddr, "-base-url", s.base)
	s.cmd.Env = append(append(os.Environ(), "COURRIER_RATE_LIMIT=off"), s.env...)
	s.cmd.Stdout, s.cmd.Stderr = f, f
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start serve: %w", err)
	}
	exited := make(chan struct{})
	s.exited = exited
	go func() { _ = s.cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil { //nolint:noctx // a probe of our own child
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(f.Name())
	return fmt.Errorf("serve did not come up:\n%s", b)
}

// kill sends SIGKILL: no shutdown, no flush, as a crash.
func (s *serve) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
}

// stop ends the process gracefully.
func (s *serve) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		s.kill()
	}
}

// receipt is an acknowledged move.
type receipt struct {
	Game    string    `json:"game_id"`
	Version int       `json:"version"`
	From    int       `json:"from"`
	Head    string    `json:"head"`
	Replay  bool      `json:"replayed"`
	at      time.Time // when it was acknowledged
	key     string
	token   string
	body    []byte
}

// table drives bot players through serve processes: it signs players in
// through the dev mailbox, creates games, and plays random legal moves,
// each with its own Idempotency-Key, retrying a move with the same key
// until it is acknowledged.
type table struct {
	t        *testing.T
	bases    func() []string // the serve processes to talk to now
	mu       sync.Mutex
	receipts []receipt
	tokens   map[string]string // email → session
	errors   map[int]int       // HTTP status (0: no answer) → count, while retrying
	bad      []string          // answers no fault excuses (5xx but a 503 with Retry-After; no answer within the client's timeout)
	moves    atomic.Int64
	// inbox returns the texts of the mails to an address (default: the
	// dev mailbox's page).
	inbox func(email string) []string
}

func newTable(t *testing.T, bases func() []string) *table {
	tb := &table{t: t, bases: bases, tokens: map[string]string{}, errors: map[int]int{}}
	tb.inbox = tb.devMailbox
	return tb
}

// devMailbox returns the texts of the dev mailbox's mails to email.
func (tb *table) devMailbox(email string) []string {
	b := tb.must(http.MethodGet, "/dev/mail.json?to="+url.QueryEscape(email), "", nil)
	var list struct {
		Mail []struct {
			Text string `json:"text"`
		} `json:"mail"`
	}
	_ = json.Unmarshal(b, &list)
	var out []string
	for _, m := range list.Mail {
		out = append(out, m.Text)
	}
	return out
}

var client = &http.Client{Timeout: 10 * time.Second}

// call sends one request to one of the serve processes; it returns the
// status (0 when nothing answered) and the body.
func (tb *table) call(method, path, token string, body []byte, headers ...string) (int, []byte) {
	bases := tb.bases()
	base := bases[mrand.IntN(len(bases))] //nolint:gosec // G404: which process to ask, not a secret
	req, err := http.NewRequestWithContext(tb.t.Context(), method, base+path, bytes.NewReader(body))
	if err != nil {
		tb.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		// A process killed refuses or resets the connection at once; one
		// alive that answers nothing within the client's timeout hangs.
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			tb.fault("%s %s: no answer within %v", method, path, client.Timeout)
		}
		return 0, nil
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		// The process died while answering: half an answer acknowledges
		// nothing; the client asks again with the same key.
		return 0, nil
	}
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "":
		tb.fault("%s %s: 503 without Retry-After: %s", method, path, b)
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusServiceUnavailable:
		tb.fault("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return resp.StatusCode, b
}

// fault records an answer no fault excuses.
func (tb *table) fault(format string, args ...any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.bad = append(tb.bad, fmt.Sprintf(format, args...))
}

// must retries a call until it answers 2xx (a fault may be under way),
// for at most a minute, counting the other answers by status (call
// records those no fault excuses).
func (tb *table) must(method, path, token string, body []byte, headers ...string) []byte {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		status, b := tb.call(method, path, token, body, headers...)
		if status >= 200 && status < 300 {
			return b
		}
		tb.mu.Lock()
		tb.errors[status]++
		tb.mu.Unlock()
		if status >= 400 && status < 500 && status != http.StatusTooManyRequests {
			return nil // refused (stale, illegal, already joined): the caller looks again
		}
		time.Sleep(100 * time.Millisecond)
	}
	tb.t.Errorf("%s %s: no answer for a minute", method, path)
	return nil
}

var loginLink = regexp.MustCompile(`/login/([a-z2-7]+)`)

// signIn signs email in through the dev mailbox.
func (tb *table) signIn(email string) {
	body, _ := json.Marshal(map[string]string{"email": email})
	tb.must(http.MethodPost, "/v1/auth/login", "", body)
	for range 300 {
		for _, text := range tb.inbox(email) {
			if l := loginLink.FindStringSubmatch(text); l != nil {
				tok, _ := json.Marshal(map[string]string{"login_token": l[1]})
				var s struct {
					Token string `json:"token"`
				}
				if err := json.Unmarshal(tb.must(http.MethodPost, "/v1/auth/token", "", tok), &s); err == nil && s.Token != "" {
					tb.mu.Lock()
					tb.tokens[email] = s.Token
					tb.mu.Unlock()
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	tb.t.Fatalf("no sign-in link for %s", email)
}

// newGame creates a coyote game for the players and has them join it.
func (tb *table) newGame(players []string) string {
	seats := []string{"me"}
	seats = append(seats, players[1:]...)
	body, _ := json.Marshal(map[string]any{"game": "coyote", "seats": seats})
	var g struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(tb.must(http.MethodPost, "/v1/games", tb.token(players[0]), body, "Idempotency-Key", "create-"+randomHex(8)), &g); err != nil || g.ID == "" {
		tb.t.Fatalf("create a game: %v", err)
	}
	for _, p := range players[1:] {
		tb.must(http.MethodPost, "/v1/games/"+g.ID+"/join", tb.token(p), []byte(`{}`), "Idempotency-Key", "join-"+randomHex(8))
	}
	return g.ID
}

// play plays games among players until stop is closed: whoever may act
// plays a random legal move; a finished game is followed by a new one.
func (tb *table) play(players []string, stop <-chan struct{}) {
	game := tb.newGame(players)
	for {
		select {
		case <-stop:
			return
		default:
		}
		acted, finished := tb.step(game, players)
		if finished {
			game = tb.newGame(players)
			continue
		}
		if !acted {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// step has the first of players who may act in game play a random legal
// move over the API (with its own Idempotency-Key, retried until
// acknowledged); it reports whether a move was acknowledged and whether
// the game is over.
func (tb *table) step(game string, players []string) (acted, finished bool) {
	for _, p := range players {
		b := tb.must(http.MethodGet, "/v1/games/"+game, tb.token(p), nil)
		var v struct {
			Version int      `json:"version"`
			Legal   []string `json:"legal"`
			Game    struct {
				Status string `json:"status"`
			} `json:"game"`
		}
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		if v.Game.Status == "finished" {
			return false, true
		}
		if len(v.Legal) == 0 {
			continue
		}
		move := v.Legal[mrand.IntN(len(v.Legal))]                                         //nolint:gosec // G404: a bot's choice
		if mrand.IntN(4) == 0 && strings.Contains(strings.Join(v.Legal, ","), "coyote") { //nolint:gosec // G404: a bot's choice
			move = "coyote"
		}
		body, _ := json.Marshal(map[string]any{"move": move, "expected_version": v.Version})
		key := "move-" + randomHex(10)
		out := tb.must(http.MethodPost, "/v1/games/"+game+"/moves", tb.token(p), body, "Idempotency-Key", key)
		if out == nil {
			continue // stale or illegal by now: look again
		}
		var r struct {
			Receipt receipt `json:"receipt"`
		}
		if err := json.Unmarshal(out, &r); err != nil || r.Receipt.Head == "" {
			tb.t.Errorf("a move's answer without a receipt: %s", out)
			continue
		}
		rc := r.Receipt
		rc.key, rc.token, rc.body, rc.at = key, tb.token(p), body, time.Now()
		tb.mu.Lock()
		tb.receipts = append(tb.receipts, rc)
		tb.mu.Unlock()
		tb.moves.Add(1)
		return true, false
	}
	return false, false
}

// token is the session of email.
func (tb *table) token(email string) string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.tokens[email]
}

// check runs the suite's checks after the faults: every acknowledged move
// is in the log, retries of every key return their receipt and write
// nothing, the audit passes for every game, the projections equal a
// rebuild, and every pending entry of a running game was prompted for.
func (c *cluster) check(tb *table) {
	t := c.t
	t.Helper()
	ctx := t.Context()
	conn := c.pgConn(t)
	if len(tb.bad) > 0 {
		t.Errorf("%d answers no fault excuses (a 5xx but a 503 with Retry-After, or none within the client's timeout), e.g. %s", len(tb.bad), tb.bad[0])
	}
	// Receipts are sealed under each game's key, derived from its seed:
	// the operator's `courrier audit -receipts` checks them against the log.
	var lines strings.Builder
	for _, r := range tb.receipts {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(line)
		lines.WriteByte('\n')
	}
	file := filepath.Join(t.TempDir(), "receipts.jsonl")
	if err := os.WriteFile(file, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	lost := 0
	if out, err := c.tryCourrier("audit", "-receipts", file); err != nil {
		var missing []string
		for l := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(l, "line ") && !strings.HasSuffix(l, ": ok") {
				var n int
				if _, err := fmt.Sscanf(l, "line %d:", &n); err == nil && n >= 1 && n <= len(tb.receipts) {
					l += " (acknowledged at " + tb.receipts[n-1].at.Format(time.TimeOnly+".000") + ")"
				}
				missing = append(missing, l)
			}
		}
		lost = len(missing)
		t.Errorf("%d of %d acknowledged moves are not in the log as acknowledged (%v):\n%s", lost, len(tb.receipts), err,
			strings.Join(missing[:min(10, len(missing))], "\n"))
	}
	var before int
	if err := conn.QueryRow(ctx, `select count(*) from events`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, r := range tb.receipts {
		out := tb.must(http.MethodPost, "/v1/games/"+r.Game+"/moves", r.token, r.body, "Idempotency-Key", r.key)
		var again struct {
			Receipt receipt `json:"receipt"`
		}
		if json.Unmarshal(out, &again) != nil || !again.Receipt.Replay || again.Receipt.Version != r.Version || again.Receipt.Head != r.Head {
			differ++
		}
	}
	var after int
	if err := conn.QueryRow(ctx, `select count(*) from events`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if differ > 0 || after != before {
		t.Errorf("retries of the %d keys: %d answers differ from the first receipt; %d events written", len(tb.receipts), differ, after-before)
	}
	if out, err := c.tryCourrier("audit", "-all", "-q"); err != nil {
		t.Errorf("the audit of every game fails: %v\n%s", err, out)
	}
	pool, err := pgxpool.New(ctx, c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	dump := func() string {
		rows, err := projections.Dump(ctx, pool)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(rows, "\n")
	}
	// The standings follow the feed in serve, which may have stopped
	// before the last events: caught up here the same way.
	if err := play.NewStandings(pool, catalog.Registry(), nil).Settle(ctx); err != nil {
		t.Fatal(err)
	}
	inline := dump()
	// A rebuild into empty tables: what the commands wrote, row by row,
	// must be what the log alone gives (the upsert itself included).
	if _, err := conn.Exec(ctx, `delete from seat_views; delete from games`); err != nil {
		t.Fatal(err)
	}
	c.courrier("projections", "rebuild")
	if dump() != inline {
		t.Error("the projections differ from a rebuild from the log")
	}
	// A prompt for the entry: queued when it opened (its version is the
	// entry's since) or later.
	var unprompted int
	err = conn.QueryRow(ctx, `select count(*) from games g, jsonb_array_elements(g.to_act) a
		where g.status = 'active' and not exists (select 1 from river_job j where j.kind = 'mail.prompt'
			and j.args->>'game_id' = g.id and (j.args->>'seat')::int = (a->>'seat')::int
			and (j.args->>'version')::int >= (a->>'since')::int)`).Scan(&unprompted)
	if err != nil {
		t.Fatal(err)
	}
	if unprompted > 0 {
		t.Errorf("%d pending entries of running games were never prompted for", unprompted)
	}
	t.Logf("checked: %d acknowledged moves, 0 lost = %v, retries idempotent = %v", len(tb.receipts), lost == 0, differ == 0 && after == before)
}

// pgConn is a connection to the suite's database, closed at the test's end.
func (c *cluster) pgConn(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func freePort(t *testing.T) int {
	t.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// jitter is a random duration in [lo, hi).
func jitter(lo, hi time.Duration) time.Duration {
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(hi-lo)))
	return lo + time.Duration(n.Int64())
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

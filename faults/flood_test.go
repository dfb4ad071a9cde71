package faults_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// floodKind is one kind of junk a stranger sends.
type floodKind int

const (
	floodMalformedJSON floodKind = iota // a signed-in account's moves, as broken JSON
	floodHugeBody                       // 10 MB bodies (declared, and chunked)
	floodForgedToken                    // tokens that look like courrier's and are not
	floodJunkSMTP                       // garbage, half commands and huge lines to the inbound server
	floodKinds
)

func (k floodKind) String() string {
	return [...]string{"malformed JSON", "10 MB bodies", "forged tokens", "junk SMTP"}[k]
}

// floodSpec tells the flood process what to flood.
type floodSpec struct {
	Base, SMTPAddr, Token, Game string
	Connections                 int
	Duration                    time.Duration
}

// floodReport is what the flood process sent and how serve answered.
type floodReport struct {
	Sent    [floodKinds]int64
	Answers map[string]int
}

// runFlood is the flood process (TestMain runs it when
// COURRIER_FAULTS_FLOOD holds a floodSpec): junk of every kind from
// spec.Connections connections, then a floodReport on standard output.
func runFlood(specJSON string) error {
	var spec floodSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		return fmt.Errorf("flood spec: %w", err)
	}
	f := &flood{base: spec.Base, smtpAddr: spec.SMTPAddr, token: spec.Token, game: spec.Game, answers: map[string]int{}}
	stop := make(chan struct{})
	time.AfterFunc(spec.Duration, func() { close(stop) })
	var wg sync.WaitGroup
	for i := range spec.Connections {
		wg.Go(func() { f.run(context.Background(), floodKind(i%int(floodKinds)), stop) })
	}
	wg.Wait()
	var r floodReport
	for k := range floodKinds {
		r.Sent[k] = f.sent[k].Load()
	}
	r.Answers = f.answers
	return json.NewEncoder(os.Stdout).Encode(r)
}

// flood sends junk of every kind from conns connections until stop is
// closed, and counts what was sent and how serve answered.
type flood struct {
	base, smtpAddr string
	token, game    string // a signed-in attacker's session and game
	sent           [floodKinds]atomic.Int64
	mu             sync.Mutex
	answers        map[string]int // kind/status → count
}

func (f *flood) answered(k floodKind, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers[k.String()+" → "+status]++
}

var tenMB = bytes.Repeat([]byte(`{"move":"`), 10<<20/9)

func (f *flood) run(ctx context.Context, k floodKind, stop <-chan struct{}) {
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for {
		select {
		case <-stop:
			return
		default:
		}
		f.sent[k].Add(1)
		switch k {
		case floodMalformedJSON:
			bodies := []string{`{"move":`, `{"move": 12, "expected_version": "x"}`, `[[[[[[[[[[`, "\x00\xff", `{"move":"` + strings.Repeat("a", 60000) + `"}`}
			f.post(ctx, hc, k, "/v1/games/"+f.game+"/moves", "Bearer "+f.token, strings.NewReader(bodies[mrand.IntN(len(bodies))]), -1) //nolint:gosec // G404: junk
		case floodHugeBody:
			if mrand.IntN(2) == 0 { //nolint:gosec // G404: junk
				f.post(ctx, hc, k, "/v1/games", "Bearer "+f.token, bytes.NewReader(tenMB), int64(len(tenMB)))
			} else {
				f.post(ctx, hc, k, "/v1/auth/login", "", io.NopCloser(bytes.NewReader(tenMB)), -1) // chunked: no length declared
			}
		case floodForgedToken:
			forged := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","kid":"x"}`)) + "." +
				base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"u_`+randomHex(8)+`","exp":9999999999}`)) + "." + randomHex(32)
			paths := []string{"/v1/games?mine=1", "/v1/games/" + f.game, "/v1/me"}
			f.get(ctx, hc, k, paths[mrand.IntN(len(paths))], "Bearer "+forged) //nolint:gosec // G404: junk
		case floodJunkSMTP:
			f.junkSMTP(ctx)
		}
	}
}

func (f *flood) post(ctx context.Context, hc *http.Client, k floodKind, path, auth string, body io.Reader, length int64) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.base+path, body)
	if err != nil {
		return
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	f.do(hc, k, req)
}

func (f *flood) get(ctx context.Context, hc *http.Client, k floodKind, path, auth string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+path, nil)
	if err != nil {
		return
	}
	req.Header.Set("Authorization", auth)
	f.do(hc, k, req)
}

func (f *flood) do(hc *http.Client, k floodKind, req *http.Request) {
	resp, err := hc.Do(req)
	if err != nil {
		f.answered(k, "connection closed")
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	f.answered(k, strconv.Itoa(resp.StatusCode))
}

// junkSMTP opens a connection to the inbound server and sends garbage.
func (f *flood) junkSMTP(ctx context.Context) {
	d := net.Dialer{Timeout: 2 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", f.smtpAddr)
	if err != nil {
		f.answered(floodJunkSMTP, "refused")
		return
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(3 * time.Second))
	r := bufio.NewReader(conn)
	greeting, _ := r.ReadString('\n')
	f.answered(floodJunkSMTP, strings.SplitN(greeting, " ", 2)[0])
	junk := []string{
		"HELO\r\nMAIL FROM:<>\r\nRCPT TO:<nobody@elsewhere.test>\r\nDATA\r\n",
		"EHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<m+forged.token@localhost>\r\nDATA\r\nSubject: x\r\n\r\n1\r\n.\r\n",
		strings.Repeat("A", 100000) + "\r\n",
		"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n",
		"EHLO x\r\nAUTH PLAIN AGFkbWluAGFkbWlu\r\nSTARTTLS\r\nVRFY root\r\nEXPN all\r\n",
	}
	_, _ = conn.Write([]byte(junk[mrand.IntN(len(junk))])) //nolint:gosec // G404: junk
	_, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<10))
}

// peakRSS is the peak of a process's resident memory so far (VmHWM), in
// bytes; 0 when it cannot be read.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// latencies has a well-behaved player read their game and their list
// until stop is closed, and returns each request's latency; a failed
// request is an error of the test.
func latencies(t *testing.T, tb *table, game, email string, stop <-chan struct{}) []time.Duration {
	var out []time.Duration
	for i := 0; ; i++ {
		select {
		case <-stop:
			return out
		default:
		}
		path := "/v1/games/" + game
		if i%2 == 1 {
			path = "/v1/games?mine=1"
		}
		start := time.Now()
		status, _ := tb.call(http.MethodGet, path, tb.token(email), nil)
		out = append(out, time.Since(start))
		if status != http.StatusOK {
			t.Errorf("the well-behaved player's GET %s: %d", path, status)
			return out
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func p99(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)*99/100]
}

// Malformed JSON, 10 MB bodies, forged tokens and junk SMTP from 64
// connections: no event is written, serve's memory stays under its
// bound, and a well-behaved player's p99 stays within 3× its quiet p99.
func TestFloods(t *testing.T) {
	const (
		connections = 64
		memoryBound = 256 << 20 // serve's resident memory, at its peak
	)
	duration := 5 * time.Second
	if *full {
		duration = 30 * time.Second
	}
	c := newCluster(t)
	s := c.startServe()
	tb := newTable(t, func() []string { return []string{s.base} })
	players := []string{"ana@players.test", "bob@players.test", "cleo@players.test", "mallory@players.test"}
	for _, p := range players {
		tb.signIn(p)
	}
	game := tb.newGame(players[:3])
	for range 5 {
		tb.step(game, players[:3])
	}
	attacker := tb.newGame([]string{players[3], players[0], players[1]})
	ctx := t.Context()
	conn := c.pgConn(t)
	count := func() int {
		var n int
		if err := conn.QueryRow(ctx, `select count(*) from events`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Quiet: the player alone.
	stop := make(chan struct{})
	time.AfterFunc(duration/2, func() { close(stop) })
	quiet := latencies(t, tb, game, players[0], stop)
	peakBefore := peakRSS(s.cmd.Process.Pid)
	before := count()

	// The flood, from a process of its own at the lowest CPU priority (its
	// CPU is an attacker's machine, not serve's), and the player at the
	// same time.
	spec, _ := json.Marshal(floodSpec{Base: s.base, SMTPAddr: s.smtpAddr, Token: tb.token(players[3]), Game: attacker,
		Connections: connections, Duration: duration + time.Second})
	var floodOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "nice", "-n", "19", os.Args[0], "-test.run", "^$") //nolint:gosec // G204: this test binary
	cmd.Env = append(os.Environ(), "COURRIER_FAULTS_FLOOD="+string(spec))
	cmd.Stdout, cmd.Stderr = &floodOut, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the flood under way
	player := make(chan []time.Duration)
	stopPlayer := make(chan struct{})
	go func() { player <- latencies(t, tb, game, players[0], stopPlayer) }()
	time.Sleep(duration)
	close(stopPlayer)
	flooded := <-player
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the flood process: %v\n%s", err, floodOut.String())
	}
	var f floodReport
	if err := json.Unmarshal(floodOut.Bytes(), &f); err != nil {
		t.Fatalf("the flood's report: %v\n%s", err, floodOut.String())
	}
	after := count()
	peakAfter := peakRSS(s.cmd.Process.Pid)

	if after != before {
		t.Errorf("the flood wrote %d events", after-before)
	}
	if peakAfter > memoryBound {
		t.Errorf("serve's resident memory peaked at %d MiB, over its bound of %d MiB", peakAfter>>20, memoryBound>>20)
	}
	qp, fp := p99(quiet), p99(flooded)
	if fp > 3*qp {
		t.Errorf("the well-behaved player's p99 was %v under the flood, over 3× its quiet %v", fp, qp)
	}
	for k := range floodKinds {
		if f.Sent[k] == 0 {
			t.Errorf("no %s was sent", k)
		}
	}
	for a, n := range f.Answers {
		if strings.HasSuffix(a, " 500") || strings.HasPrefix(a, floodMalformedJSON.String()+" → 2") {
			t.Errorf("the flood was answered %s %d times", a, n)
		}
	}
	if !s.alive() {
		t.Fatal("serve exited under the flood")
	}
	t.Logf("TestFloods: %d connections for %v: sent %v (%v); answers %v; events written %d; serve's memory peak %d MiB (%d MiB before); "+
		"the well-behaved player's p99 %v quiet (%d requests), %v under the flood (%d requests)",
		connections, duration, f.Sent, []string{floodMalformedJSON.String(), floodHugeBody.String(), floodForgedToken.String(), floodJunkSMTP.String()},
		f.Answers, after-before, peakAfter>>20, peakBefore>>20, qp, len(quiet), fp, len(flooded))
	s.stop()
}

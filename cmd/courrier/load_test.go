package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-smtp"
	"golang.org/x/time/rate"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

// The load command's smoke test (CI runs it): a few seconds of bots playing
// Coyote through an embedded server on a scratch database, after the
// PostgreSQL baseline, with every figure printed, no error, and the scratch
// database gone afterwards.
func TestLoadPlaysAndReports(t *testing.T) {
	pool := pgtest.New(t) // fails clearly when no PostgreSQL is reachable
	ctx := context.Background()
	var out bytes.Buffer
	args := []string{"load", "-game", "coyote", "-games", "6", "-clients", "3", "-duration", "2s", "-baseline", "500ms",
		"-rate", "100", "-database-url", pgtest.ServerURL(), "-data-dir", t.TempDir()}
	if err := run(ctx, args, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"against an embedded server", "PostgreSQL baseline: 3 clients", "inserts/s; p50",
		"moves/s; p50", " 0 errors", "p99", "\nratio: ", "\nverdict: p99 ", "\nmail backlog (mail jobs waiting, a sample a second): ", "\nmail backlog: peak "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "moves: 0 ") {
		t.Error("no move was played")
	}
	// The server's mail went to the relay sink, not into its dev mailbox:
	// the bots signed in there, and the games' prompts reached it.
	if !strings.Contains(out.String(), "signed in through mail at the relay sink") {
		t.Error("the bots did not sign in through the relay sink")
	}
	if m := regexp.MustCompile(`(?m)^mail at the relay sink: \d+ in [^:]+: \d+ mails/s \((\d+) prompts`).FindStringSubmatch(out.String()); m == nil || m[1] == "0" {
		t.Errorf("no prompt reached the relay sink while the games were timed: %v", m)
	}
	var left int
	if err := pool.QueryRow(ctx, `select count(*) from pg_database where datname like 'courrier_load_%'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d scratch databases left behind", left)
	}
}

// With -url, the games are played against a running server, and the
// baseline is measured in a scratch table of DATABASE_URL's database
// (dropped after), skipped with a line saying why when there is none, and
// refused clearly when the role may not create a table.
func TestLoadAgainstURL(t *testing.T) {
	db := pgtest.Open(t)
	ctx := context.Background()
	cfg, err := loadConfig("load", []string{"-data-dir", t.TempDir()}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	srv, stop, err := startLoadServer(ctx, cfg, db.OwnerURL, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := srv.url
	load := func(dbURL string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, []string{"load", "-url", base + "/", "-games", "2", "-clients", "2", "-duration", "1s", "-baseline", "300ms",
			"-database-url", dbURL, "-data-dir", t.TempDir()}, &out, &bytes.Buffer{})
		t.Log("\n" + out.String())
		return out.String(), err
	}

	out, err := load(db.OwnerURL)
	if err != nil {
		t.Fatalf("load -url with a database: %v", err)
	}
	for _, want := range []string{"against " + base + "\n", "PostgreSQL baseline: 2 clients", "moves/s; p50", " 0 errors", "\nratio: ", "\nverdict: ratio "} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	var left int
	if err := db.Owner.QueryRow(ctx, `select count(*) from pg_tables where tablename like 'load\_baseline\_%'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d baseline tables left behind", left)
	}

	out, err = load("")
	if err != nil {
		t.Fatalf("load -url without a database: %v", err)
	}
	for _, want := range []string{"PostgreSQL baseline: skipped (no database URL", "moves/s; p50", "\nverdict: ratio unknown"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if strings.Contains(out, "\nratio: ") {
		t.Error("a ratio was printed without a baseline")
	}

	out, err = load(db.ServiceURL)
	if err == nil || !strings.Contains(err.Error(), "baseline: create a scratch table in "+pgtest.ServiceRole+"@") ||
		!strings.Contains(err.Error(), "-baseline -1") || strings.Contains(out, "moves: ") {
		t.Errorf("load -url with a role that may not create a table: %v, want a refusal before the games that says how to go on", err)
	}
}

func TestLoadRefusesBadFlags(t *testing.T) {
	cases := []struct{ args, says string }{
		{"-game chess", `no game "chess"`},
		{"-games 0", "-games 0: must be at least 1"},
		{"-clients 0", "-clients 0: must be at least 1"},
		{"-games 2 -clients 3", "fewer than -clients"},
		{"-seats 9", "played by"},
		{"-duration 0s", "-duration 0s: must be positive"},
		{"-duration -1s", "must be positive"},
		{"-rate -3", "-rate -3"},
		{"-rate NaN", "-rate NaN"},
		{"-clients x", "invalid value"},
		{"-url localhost:8080", "base URL"},
		{"-url ftp://example.org", "base URL"},
		{"-url http://", "base URL"},
		{"extra", "unexpected argument"},
		{"-mail -url http://localhost:8080", "-mail plays against the embedded server"},
		{"-mail=maybe", "invalid"},
	}
	for _, c := range cases {
		_, _, err := parseLoadFlags(strings.Fields(c.args), func(string) string { return "" })
		if _, ok := errors.AsType[usageError](err); !ok || !strings.Contains(err.Error(), c.says) {
			t.Errorf("load %s: %v, want a usage error saying %q", c.args, err, c.says)
		}
	}
	cfg, o, err := parseLoadFlags([]string{"-url", "http://localhost:8080/", "-duration", "6s"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if o.url != "http://localhost:8080" || o.baseline != 2*time.Second || o.seats != 3 || o.games != 1000 || o.clients != 16 || cfg.DatabaseURL != "" {
		t.Errorf("load -url http://localhost:8080/ -duration 6s: %+v", o)
	}
}

func TestRateLimitSetting(t *testing.T) {
	cases := []struct {
		v                string
		perUser, perAddr rate.Limit
		refused          bool
	}{
		{"", 0, 0, false},
		{"off", -1, -1, false},
		{" OFF ", -1, -1, false},
		{"-1", -1, -1, false},
		{"25", 25, 50, false},
		{"0.5", 0.5, 1, false},
		{"0", 0, 0, true},
		{"fast", 0, 0, true},
		{"Inf", 0, 0, true},
	}
	for _, c := range cases {
		u, a, err := config{RateLimit: c.v}.rateLimits()
		if _, ok := errors.AsType[usageError](err); ok != c.refused || u != c.perUser || a != c.perAddr {
			t.Errorf("COURRIER_RATE_LIMIT=%q: %v, %v, %v", c.v, u, a, err)
		}
	}
}

func TestLoadVerdict(t *testing.T) {
	cases := []struct {
		asked, moves, inserts float64
		p99                   time.Duration
		says                  []string
	}{
		{0, 600, 1000, 30 * time.Millisecond, []string{"ratio 0.60 meets the goal of 0.5", "p99 30.00 ms at full speed", "-rate 300 (half this peak)"}},
		{0, 40, 1000, 30 * time.Millisecond, []string{"ratio 0.04 is below the goal of 0.5", "-rate 20 "}},
		{0, 40, 0, 30 * time.Millisecond, []string{"ratio unknown (no PostgreSQL baseline)", "-rate 20 "}},
		{300, 299, 1000, 9 * time.Millisecond, []string{"p99 9.00 ms at 300 moves/s asked meets the goal of 10.00 ms"}},
		{300, 299, 0, 11 * time.Millisecond, []string{"p99 11.00 ms at 300 moves/s asked is above the goal"}},
		{300, 100, 0, 11 * time.Millisecond, []string{"only 100 moves/s were played"}},
	}
	for _, c := range cases {
		v := verdict(c.asked, c.moves, c.inserts, c.p99)
		for _, s := range c.says {
			if !strings.Contains(v, s) {
				t.Errorf("verdict(%v, %v, %v, %v) = %q, want %q in it", c.asked, c.moves, c.inserts, c.p99, v, s)
			}
		}
	}
}

func TestRefusalLimitSetting(t *testing.T) {
	cases := []struct {
		v         string
		perSecond rate.Limit
		on        bool
		refused   bool
	}{
		{"", 0, true, false},
		{"off", 0, false, false},
		{" Off ", 0, false, false},
		{"5", 5, true, false},
		{"0.5", 0.5, true, false},
		{"0", 0, false, true},
		{"-3", 0, false, true},
		{"slow", 0, false, true},
		{"NaN", 0, false, true},
	}
	for _, c := range cases {
		n, on, err := config{RefusalRate: c.v}.refusalLimit()
		if _, ok := errors.AsType[usageError](err); ok != c.refused || n != c.perSecond || on != c.on {
			t.Errorf("COURRIER_REFUSAL_LIMIT=%q: %v, %v, %v", c.v, n, on, err)
		}
	}
}

// The mail load's smoke test: a few seconds of bots playing Coyote by mail
// end to end (signed in by links read at the relay sink, every move a
// reply through the inbound SMTP port), with moves played, prompts at the
// sink, the reply → prompt latency measured, no error, the backlog judged,
// and the scratch database gone afterwards.
func TestLoadPlaysByMail(t *testing.T) {
	pool := pgtest.New(t) // fails clearly when no PostgreSQL is reachable
	ctx := context.Background()
	var out bytes.Buffer
	args := []string{"load", "-mail", "-game", "coyote", "-games", "4", "-clients", "2", "-duration", "3s", "-baseline", "300ms",
		"-database-url", pgtest.ServerURL(), "-data-dir", t.TempDir()}
	if err := run(ctx, args, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("load -mail: %v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	text := out.String()
	number := func(re string) int {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("the output lacks %s", re)
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := number(`(?m)^moves: (\d+) in `); n == 0 {
		t.Error("no move was played by mail")
	}
	if n := number(`(?m)^moves: \d+ .*; (\d+) replies taken by the inbound SMTP port`); n == 0 {
		t.Error("no reply was taken by the inbound SMTP port")
	}
	if n := number(`(?m)^mails at the relay sink: \d+: \d+ mails/s \((\d+) prompts`); n == 0 {
		t.Error("no prompt came to the relay sink")
	}
	if n := number(`(?m)^reply → next prompt at the relay: p50 .*\((\d+) replies followed by a prompt\)`); n == 0 {
		t.Error("the reply → prompt latency has no sample")
	}
	if n := number(`(?m)^errors: (\d+) `); n != 0 {
		t.Errorf("%d errors by mail", n)
	}
	for _, want := range []string{"3s by mail", "signed in by mail", "\nratio: ", "mails/s ÷ moves/s: ", "\nverdict: reply → prompt p50 ",
		"\nmail backlog: peak "} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	var left int
	if err := pool.QueryRow(ctx, `select count(*) from pg_database where datname like 'courrier_load_%'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d scratch databases left behind", left)
	}
}

// The backlog rule: a backlog that grows through the second half of the
// run, more than its noise, fails it; a flat one, a noisy one, one that
// drains, a burst at the start that settles, and a run too short to judge
// pass.
func TestBacklogTrend(t *testing.T) {
	series := func(n int, f func(i int) float64) []backlogSample {
		out := make([]backlogSample, n)
		for i := range out {
			out[i] = backlogSample{at: time.Duration(i) * time.Second, mails: int64(max(0, f(i)))}
		}
		return out
	}
	noise := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // G404: a test's noise
	cases := []struct {
		name    string
		samples []backlogSample
		growing bool
	}{
		{"steady growth", series(60, func(i int) float64 { return 5 * float64(i) }), true},
		{"growth under noise", series(60, func(i int) float64 { return 3*float64(i) + 20*noise.Float64() }), true},
		{"growth in the second half only", series(60, func(i int) float64 { return float64(max(0, i-30)) * 4 }), true},
		{"empty", series(60, func(int) float64 { return 0 }), false},
		{"flat", series(60, func(int) float64 { return 40 }), false},
		{"flat and noisy", series(60, func(int) float64 { return 200 + 100*noise.Float64() }), false},
		{"sawtooth", series(60, func(i int) float64 { return float64(i%7) * 30 }), false},
		{"draining", series(60, func(i int) float64 { return 600 - 10*float64(i) }), false},
		{"a burst at the start that settles", series(60, func(i int) float64 { return 500 / float64(1+i) }), false},
		{"a slow creep, less than noise", series(60, func(i int) float64 { return 0.1 * float64(i) }), false},
		{"too short to judge", series(8, func(i int) float64 { return 100 * float64(i) }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			slope, growing := backlogTrend(c.samples)
			if growing != c.growing {
				t.Errorf("growing %v (slope %.2f mails/s), want %v", growing, slope, c.growing)
			}
			text, said := describeBacklog(c.samples)
			if said != growing || strings.Contains(text, "GROWING") != growing {
				t.Errorf("described as %q, growing %v", text, said)
			}
		})
	}
}

// A prompt's numbered moves are read from the text part as notify writes
// it, and a move that stands for a range is answered with its number and a
// value in the range, as the mail asks.
func TestPromptChoices(t *testing.T) {
	raw, err := os.ReadFile("../../notify/testdata/prompt.eml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := readSinkMail(raw)
	if err != nil {
		t.Fatal(err)
	}
	if m.kind != "prompt" || m.game != "k7m2p9q4rs" || !strings.HasPrefix(m.replyTo, "m+") || m.messageID == "" {
		t.Errorf("read %+v", m)
	}
	cs := choices(m.text)
	if len(cs) != 11 || cs[0].n != 1 || cs[10].n != 11 || cs[0].ranged {
		t.Errorf("the prompt's moves read as %+v, want 1 to 11", cs)
	}
	ranged := choices("Your moves:\n   1. call coyote\n   2. bid 4 … 250\n\nReply with your move.\n")
	if len(ranged) != 2 || ranged[0].ranged || !ranged[1].ranged || ranged[1].lo != 4 || ranged[1].hi != 250 {
		t.Fatalf("read %+v", ranged)
	}
	pick := rand.New(rand.NewPCG(3, 4)) //nolint:gosec // G404: a bot's pick
	for range 50 {
		f := strings.Fields(ranged[1].reply(pick))
		v, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 2 || f[0] != "2" || err != nil || v < 4 || v > 250 {
			t.Fatalf("the ranged move answered %q", f)
		}
	}
	if got := ranged[0].reply(pick); got != "1" {
		t.Errorf("the plain move answered %q", got)
	}
}

// A bot's connection to the inbound SMTP port is kept from mail to mail;
// when the server closed it meanwhile (its read timeout), the next mail
// goes on a new connection instead of failing.
func TestInboundSenderReconnects(t *testing.T) {
	var got []sinkMail
	var mu sync.Mutex
	s := &relaySink{served: make(chan error, 1), deliver: func(m sinkMail) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, m)
	}}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "inbound.test"
	s.srv.ReadTimeout = 200 * time.Millisecond
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { s.served <- s.srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
	})
	sender := &inboundSender{addr: ln.Addr().String()}
	defer sender.close()
	prompt := sinkMail{replyTo: "m+x@courrier.test", subject: "your move", messageID: "g.abc.v1.s0.prompt@courrier.test", text: "1. bid 1\n"}
	marks := 0
	for i := range 2 {
		if i == 1 {
			time.Sleep(600 * time.Millisecond) // past the server's read timeout: it closes the kept connection
		}
		raw := replyText("bot@bots.test", fmt.Sprintf("r.%d@bots.test", i), prompt, "1")
		if err := sender.send(t.Context(), "bot@bots.test", prompt.replyTo, raw, func() { marks++ }); err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || marks < 2 {
		t.Errorf("%d mails taken, %d marks, want 2 and at least 2", len(got), marks)
	}
}

// A bot's reply is what the trusted relay in front of the inbound port
// hands over for a player: its Authentication-Results, of the authserv-id
// the embedded server trusts, say DMARC passed for the From's domain; it
// answers the prompt in its thread; its first line is the move.
func TestBotReplyAsTheRelayHandsItOver(t *testing.T) {
	prompt := sinkMail{replyTo: "m+abc.game.1.12.xyz@localhost", subject: "[courrier] Coyote g: your move (version 12)",
		messageID: "g.game.v12.s1.prompt@localhost", text: "Your moves:\n   1. bid 4\n"}
	raw := replyText("load-1-0-0@"+botsDomain, "r.1@"+botsDomain, prompt, "1")
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	ident, results, err := authres.Parse(mr.Header.Get("Authentication-Results"))
	if err != nil || ident != loadAuthservID {
		t.Fatalf("Authentication-Results by %q (%v), want %q", ident, err, loadAuthservID)
	}
	var dmarc *authres.DMARCResult
	for _, r := range results {
		if d, ok := r.(*authres.DMARCResult); ok {
			dmarc = d
		}
	}
	if dmarc == nil || dmarc.Value != authres.ResultPass || dmarc.From != botsDomain {
		t.Errorf("DMARC result %+v, want pass for %s", dmarc, botsDomain)
	}
	from, _ := mr.Header.AddressList("From")
	to, _ := mr.Header.AddressList("To")
	inReplyTo, _ := mr.Header.MsgIDList("In-Reply-To")
	refs, _ := mr.Header.MsgIDList("References")
	subject, _ := mr.Header.Subject()
	if len(from) != 1 || from[0].Address != "load-1-0-0@"+botsDomain || len(to) != 1 || to[0].Address != prompt.replyTo ||
		len(inReplyTo) != 1 || inReplyTo[0] != prompt.messageID || len(refs) != 1 || refs[0] != prompt.messageID || subject != "Re: "+prompt.subject {
		t.Errorf("reply header: from %v, to %v, in reply to %v, references %v, subject %q", from, to, inReplyTo, refs, subject)
	}
	part, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(part.Body)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(body), "\r\n"); first != "1" || !strings.Contains(string(body), "> Your moves:") {
		t.Errorf("reply body %q, want the move then the prompt quoted", body)
	}
}

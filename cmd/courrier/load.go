package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/time/rate"

	client "github.com/courrier-games/courrier/api" // its generated client
	"github.com/courrier-games/courrier/games/catalog"
)

// loadOptions are the flags of `courrier load`.
type loadOptions struct {
	game     string
	games    int
	clients  int
	seats    int
	duration time.Duration
	baseline time.Duration
	url      string
	rate     float64
	profile  string
	mail     bool
}

// The goal the load command reports against (issue: the HTTP API): at full
// speed, at least half a move a second per one-row insert a second of
// PostgreSQL alone from as many clients; at half that peak rate, a p99 of
// the move request within 10 ms.
const (
	goalRatio = 0.5
	goalP99   = 10 * time.Millisecond
)

// parseLoadFlags reads the configuration and the flags of `courrier load`
// and checks them: every flag that does not make sense is a usage error
// that says why.
func parseLoadFlags(args []string, getenv func(string) string) (config, loadOptions, error) {
	var o loadOptions
	cfg, err := loadConfigWith("load", args, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&o.game, "game", "coyote", "the game the bots play")
		fs.IntVar(&o.games, "games", 1000, "games in play at once, shared among the clients (a finished game is replaced by a new one)")
		fs.IntVar(&o.clients, "clients", 16, "concurrent clients, each playing its share of the games one request at a time")
		fs.IntVar(&o.seats, "seats", 0, "players a game (0: the game's minimum, at least 3 where allowed)")
		fs.DurationVar(&o.duration, "duration", 30*time.Second, "how long the bots play")
		fs.DurationVar(&o.baseline, "baseline", 0, "how long PostgreSQL's insert rate is measured before the games (0: a third of -duration, 1 s to 10 s; negative: skip)")
		fs.StringVar(&o.url, "url", "", "base URL of a running courrier to load (its dev mailbox must answer this machine); empty: an embedded server on a scratch database")
		fs.Float64Var(&o.rate, "rate", 0, "moves a second to aim at, all clients together (0: as fast as the clients go); with -mail, replies a second")
		fs.BoolVar(&o.mail, "mail", false, "play by mail end to end: the embedded server relays its mail to a sink this command runs on a loopback port, "+
			"where the bots (an address each) read their prompts, and they reply through its inbound SMTP port as the trusted relay in front of it would; "+
			"the set-up's burst of mail goes out before the games are timed; "+
			"reports moves/s, mails/s and the latency from a reply's end of DATA to the game's next prompt at the sink")
		fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of this process (the embedded server and the bots) during the games to this file")
	})
	if err != nil {
		return cfg, o, err
	}
	eng, err := catalog.Registry().Get(o.game)
	if err != nil {
		return cfg, o, usageError{msg: fmt.Sprintf("-game: %v", err)}
	}
	info := eng.Info()
	if o.seats == 0 {
		o.seats = max(info.MinSeats, min(3, info.MaxSeats))
	}
	switch {
	case o.games < 1:
		return cfg, o, usageError{msg: fmt.Sprintf("-games %d: must be at least 1", o.games)}
	case o.clients < 1:
		return cfg, o, usageError{msg: fmt.Sprintf("-clients %d: must be at least 1", o.clients)}
	case o.games < o.clients:
		return cfg, o, usageError{msg: fmt.Sprintf("-games %d is fewer than -clients %d: each client plays games of its own, give at least one each", o.games, o.clients)}
	case o.seats < info.MinSeats || o.seats > info.MaxSeats:
		return cfg, o, usageError{msg: fmt.Sprintf("-seats %d: %s is played by %d to %d", o.seats, o.game, info.MinSeats, info.MaxSeats)}
	case o.duration <= 0:
		return cfg, o, usageError{msg: fmt.Sprintf("-duration %v: must be positive", o.duration)}
	case o.rate < 0 || math.IsNaN(o.rate) || math.IsInf(o.rate, 0):
		return cfg, o, usageError{msg: fmt.Sprintf("-rate %v: give moves a second (a positive number), or 0 for as fast as the clients go", o.rate)}
	}
	if o.url != "" && o.mail {
		return cfg, o, usageError{msg: "-mail plays against the embedded server, whose mail it relays: leave -url out"}
	}
	if o.url != "" {
		u, err := url.Parse(o.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return cfg, o, usageError{msg: fmt.Sprintf("-url %q: give the base URL of a running courrier, like http://localhost:8080", o.url)}
		}
		o.url = strings.TrimRight(o.url, "/")
	}
	if o.baseline == 0 {
		o.baseline = min(10*time.Second, max(time.Second, o.duration/3))
	}
	return cfg, o, nil
}

// loadCmd plays games between bots over the HTTP API, or by mail, and
// reports the throughput and latencies of moves next to PostgreSQL's own
// one-row insert rate from as many clients, measured first, and the mail
// backlog during the games (the run fails when it grew throughout).
func loadCmd(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	cfg, o, err := parseLoadFlags(args, os.Getenv)
	if err != nil {
		return err
	}

	// Where the games are played, and where the baseline is measured: the
	// embedded server's scratch database, or with -url the database of
	// DATABASE_URL (in a scratch table), or nowhere.
	base, baselineURL, skipBaseline, backlogURL := o.url, "", "", ""
	var mp *mailPlay
	var hs *httpSink
	if o.url == "" {
		ownerURL, stop, err := ownerOf(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer stop()
		name := "courrier_load_" + randomHex(4)
		scratch, err := withDatabaseName(ownerURL, name)
		if err != nil {
			return err
		}
		defer dropDatabase(context.WithoutCancel(ctx), ownerURL, name, log)
		// The server's mail goes to a relay sink on loopback, as it would
		// to a real relay (the dev mailbox would store every mail in the
		// database the games are measured on).
		var deliver func(sinkMail)
		if o.mail {
			// The load command is the relay on both sides: the bots'
			// replies come from this machine (COURRIER_SMTP_TRUSTED local)
			// with the Authentication-Results of its authserv-id. The
			// per-sender limits are off, as the HTTP rate limit is: a few
			// bot addresses play every game.
			mp = newMailPlay(o)
			deliver = mp.deliver
			cfg.SMTPTrusted, cfg.AuthservID = "local", loadAuthservID
			cfg.SMTPSenders, cfg.SMTPReplies, cfg.MailHourly = "off", "off", "off"
		} else {
			hs = &httpSink{signIns: newSignInBox()}
			deliver = hs.deliver
		}
		sink, err := startRelaySink(ctx, deliver)
		if err != nil {
			return err
		}
		defer func() {
			if err := sink.stop(); err != nil {
				log.Warn("load: the relay sink", "err", err)
			}
		}()
		if mp != nil {
			mp.sink = sink
		}
		cfg.SMTPRelay, cfg.SMTPRelayCA = "smtp://"+sink.addr, ""
		srv, stopServer, err := startLoadServer(ctx, cfg, scratch, log)
		if err != nil {
			return err
		}
		defer stopServer()
		base, baselineURL, backlogURL = srv.url, scratch, scratch
		how := ""
		if o.mail {
			mp.inbound, mp.backlogURL = srv.smtpAddr, scratch
			how = " by mail"
		}
		_, _ = fmt.Fprintf(stdout, "courrier load: %s, %d games of %d, %d clients, %v%s, against an embedded server on a scratch database\n",
			o.game, o.games, o.seats, o.clients, o.duration, how)
	} else {
		if err := checkHealth(ctx, o.url); err != nil {
			return err
		}
		baselineURL, backlogURL = cfg.DatabaseURL, cfg.DatabaseURL
		if baselineURL == "" {
			skipBaseline = "no database URL: give -database-url (or DATABASE_URL), a role that may create a table in the server's database, to measure it"
		}
		_, _ = fmt.Fprintf(stdout, "courrier load: %s, %d games of %d, %d clients, %v, against %s\n",
			o.game, o.games, o.seats, o.clients, o.duration, o.url)
	}
	if o.baseline < 0 {
		skipBaseline = "-baseline negative"
	}

	var insertsPerSec float64
	if skipBaseline != "" {
		_, _ = fmt.Fprintf(stdout, "PostgreSQL baseline: skipped (%s)\n", skipBaseline)
	} else {
		log.Debug("load: measuring PostgreSQL's insert rate", "clients", o.clients, "for", o.baseline)
		b, err := insertBaseline(ctx, baselineURL, o.clients, o.baseline, log)
		if err != nil {
			return err
		}
		insertsPerSec = float64(b.inserts) / b.elapsed.Seconds()
		_, _ = fmt.Fprintf(stdout, "PostgreSQL baseline: %d clients inserting one row per transaction for %v: %.0f inserts/s; %s\n",
			o.clients, b.elapsed.Round(time.Millisecond), insertsPerSec, percentiles(b.hist))
	}

	if o.profile != "" {
		f, err := os.Create(o.profile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer func() { _ = f.Close() }() // the profile is written by StopCPUProfile
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}

	// The mail backlog is sampled from the games' start to their end.
	sampleCtx, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	var backlog func() ([]backlogSample, error)
	began := func() {
		if backlogURL != "" {
			backlog = sampleBacklog(sampleCtx, backlogURL, time.Now(), time.Second)
		}
	}
	var failure error
	if o.mail {
		failure = reportMail(ctx, mp, base, insertsPerSec, stdout, began)
	} else {
		failure = reportHTTP(ctx, o, loadTarget{base: base, sink: hs, backlogURL: backlogURL}, insertsPerSec, stdout, log, began)
	}
	stopSampling()
	if backlog == nil {
		if failure == nil && backlogURL == "" {
			_, _ = fmt.Fprintln(stdout, "mail backlog: not sampled (no database URL: give -database-url, the server's database, to sample it)")
		}
		return failure
	}
	samples, serr := backlog()
	if serr != nil {
		_, _ = fmt.Fprintf(stdout, "mail backlog: not sampled (%v)\n", serr)
		return failure
	}
	text, growing := describeBacklog(samples)
	_, _ = fmt.Fprintln(stdout, text)
	if failure == nil && growing {
		failure = errors.New("load: the mail backlog grew over the whole run: the mail does not keep pace with the moves (see the backlog lines above)")
	}
	return failure
}

// reportHTTP plays the games over the HTTP API and prints what it
// measured; the error says why the run fails.
func reportHTTP(ctx context.Context, o loadOptions, target loadTarget, insertsPerSec float64, stdout io.Writer, log *slog.Logger, began func()) error {
	res, err := playLoad(ctx, target, o, stdout, log, began)
	if err != nil {
		return err
	}
	movesPerSec := float64(res.moves) / res.elapsed.Seconds()
	through := "the dev mailbox"
	if target.sink != nil {
		through = "mail at the relay sink"
	}
	_, _ = fmt.Fprintf(stdout, "set-up: %d players signed in through %s and %d games started in %v\n",
		o.clients*o.seats, through, o.games, res.setup.Round(time.Millisecond))
	if res.drain > 0 {
		_, _ = fmt.Fprintf(stdout, "set-up mail: %d mails waiting went out in %v before the games were timed\n", res.drainFirst, res.drain.Round(time.Millisecond))
	}
	_, _ = fmt.Fprintf(stdout, "moves: %d in %v: %.0f moves/s; %s; %d stale (409, re-read and played on), %d errors, %d games finished\n",
		res.moves, res.elapsed.Round(time.Millisecond), movesPerSec, percentiles(res.hist), res.stale, res.errors, res.finished)
	for _, e := range res.firstErrors {
		_, _ = fmt.Fprintln(stdout, "  error:", e)
	}
	if insertsPerSec > 0 {
		line := fmt.Sprintf("ratio: %.2f (%.0f moves/s ÷ %.0f inserts/s)", movesPerSec/insertsPerSec, movesPerSec, insertsPerSec)
		if o.rate > 0 {
			line += "; held back by -rate: the goal's ratio is at full speed"
		}
		_, _ = fmt.Fprintln(stdout, line)
	}
	if target.sink != nil {
		mails, prompts := target.sink.mails.Load(), target.sink.prompts.Load()
		_, _ = fmt.Fprintf(stdout, "mail at the relay sink: %d in %v: %.0f mails/s (%d prompts, %.0f/s) for %.0f moves/s\n",
			mails, res.elapsed.Round(time.Millisecond), float64(mails)/res.elapsed.Seconds(), prompts, float64(prompts)/res.elapsed.Seconds(), movesPerSec)
	}
	p99 := time.Duration(res.hist.ValueAtQuantile(99)) * time.Microsecond
	_, _ = fmt.Fprintln(stdout, "verdict:", verdict(o.rate, movesPerSec, insertsPerSec, p99))
	switch {
	case res.moves == 0:
		return errors.New("load: no move was played")
	case res.errors > 0:
		return fmt.Errorf("load: %d requests failed (the first are printed above)", res.errors)
	}
	return nil
}

// verdict judges a run against the goal in one line: at full speed
// (asked 0) the ratio of moves/s to inserts/s (0 when the baseline was
// skipped), at an asked rate the p99 of moves, which the goal sets at half
// the peak.
func verdict(asked, movesPerSec, insertsPerSec float64, p99 time.Duration) string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	if asked == 0 {
		judged := "ratio unknown (no PostgreSQL baseline)"
		if insertsPerSec > 0 {
			ratio := movesPerSec / insertsPerSec
			judged = fmt.Sprintf("ratio %.2f is below the goal of %.1f", ratio, goalRatio)
			if ratio >= goalRatio {
				judged = fmt.Sprintf("ratio %.2f meets the goal of %.1f", ratio, goalRatio)
			}
		}
		return fmt.Sprintf("%s; p99 %s at full speed: run again with -rate %.0f (half this peak) to judge the p99 goal of %s",
			judged, ms(p99), math.Max(1, math.Round(movesPerSec/2)), ms(goalP99))
	}
	judged := fmt.Sprintf("p99 %s at %.0f moves/s asked is above the goal of %s at half the peak rate", ms(p99), asked, ms(goalP99))
	if p99 <= goalP99 {
		judged = fmt.Sprintf("p99 %s at %.0f moves/s asked meets the goal of %s at half the peak rate", ms(p99), asked, ms(goalP99))
	}
	if movesPerSec < 0.9*asked {
		judged += fmt.Sprintf(" (but only %.0f moves/s were played: the asked rate is above this setup's peak)", movesPerSec)
	}
	return judged
}

// ownerOf is the URL of a server on which the load command may create a
// scratch database: DATABASE_URL's, else the zero-config server (local or
// embedded).
func ownerOf(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	if cfg.DatabaseURL != "" {
		return cfg.DatabaseURL, func() {}, nil
	}
	return resolveDatabase(ctx, cfg, log)
}

// withDatabaseName is dbURL naming database name instead.
func withDatabaseName(dbURL, name string) (string, error) {
	pcfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return "", fmt.Errorf("database URL: %w", err)
	}
	user := pcfg.User
	if pcfg.Password != "" {
		user += ":" + pcfg.Password
	}
	return fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable", user,
		net.JoinHostPort(pcfg.Host, strconv.Itoa(int(pcfg.Port))), name), nil
}

// dropDatabase drops the scratch database (its connections closed first).
func dropDatabase(ctx context.Context, ownerURL, name string, log *slog.Logger) {
	admin, err := withDatabaseName(ownerURL, "postgres")
	if err != nil {
		return
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		log.Warn("load: drop the scratch database", "database", name, "err", err)
		return
	}
	defer func() { _ = conn.Close(ctx) }() // nothing was written on it
	if _, err := conn.Exec(ctx, "drop database if exists "+pgx.Identifier{name}.Sanitize()+" with (force)"); err != nil {
		log.Warn("load: drop the scratch database", "database", name, "err", err)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error (Go 1.24+)
	return hex.EncodeToString(b)
}

// loadServer is where the embedded server answers.
type loadServer struct {
	url      string // its HTTP base URL
	smtpAddr string // its inbound SMTP port
}

// startLoadServer runs `courrier serve` (runServer, as is) in this process
// on two free loopback ports, on the scratch database, without rate limits,
// and returns where it answers once it answers its health check.
func startLoadServer(ctx context.Context, cfg config, scratchOwner string, log *slog.Logger) (loadServer, func(), error) {
	db, err := openZeroConfig(ctx, cfg, "serve", scratchOwner)
	if err != nil {
		return loadServer{}, nil, err
	}
	// runServer listens on addresses, and the sign-in links need its URL
	// before it starts: the ports are found free here and given to it.
	ports := make([]string, 2)
	for i := range ports {
		var lc net.ListenConfig
		ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			db.Close()
			return loadServer{}, nil, fmt.Errorf("find a free port: %w", err)
		}
		ports[i] = ln.Addr().String()
		_ = ln.Close() // only its number was wanted
	}
	cfg.HTTPAddr, cfg.SMTPAddr, cfg.RateLimit = ports[0], ports[1], "off"
	cfg.BaseURL = "http://" + cfg.HTTPAddr
	srvCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	quiet := slog.New(slog.DiscardHandler)
	if log.Enabled(ctx, slog.LevelDebug) {
		quiet = log
	}
	go func() { done <- runServer(srvCtx, cfg, db, quiet) }()
	stop := func() {
		cancel()
		if err := <-done; err != nil {
			log.Warn("load: the embedded server stopped", "err", err)
		}
		db.Close()
	}
	hc := &http.Client{Timeout: time.Second}
	for range 200 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.BaseURL+"/healthz", nil)
		if err != nil {
			stop()
			return loadServer{}, nil, fmt.Errorf("health check: %w", err)
		}
		if resp, err := hc.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				log.Debug("load: the embedded server answers", "url", cfg.BaseURL)
				return loadServer{url: cfg.BaseURL, smtpAddr: cfg.SMTPAddr}, stop, nil
			}
		}
		select {
		case err := <-done:
			cancel()
			db.Close()
			return loadServer{}, nil, fmt.Errorf("the embedded server did not start: %w", err)
		case <-ctx.Done():
			stop()
			return loadServer{}, nil, fmt.Errorf("the embedded server did not start: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	stop()
	return loadServer{}, nil, errors.New("the embedded server did not answer its health check in 10 s")
}

// checkHealth fails fast, before the baseline, when no courrier answers at
// base.
func checkHealth(ctx context.Context, base string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("-url %s: %w", base, err)
	}
	resp, err := http.DefaultClient.Do(req) //nolint:gosec // G704: the URL the operator gave
	if err != nil {
		return fmt.Errorf("-url %s: no courrier answers: %w", base, err)
	}
	_ = resp.Body.Close() // only the status matters
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("-url %s: GET /healthz answers %s, not 200 OK: is it a courrier, and healthy?", base, resp.Status)
	}
	return nil
}

// baselineResult is what insertBaseline measured.
type baselineResult struct {
	inserts int64
	elapsed time.Duration
	hist    *hdrhistogram.Histogram // µs per insert
}

// insertBaseline measures PostgreSQL alone: clients connections each
// inserting one row (shaped like an event) per transaction into a scratch
// table of the database of dbURL for d; the table is dropped after.
func insertBaseline(ctx context.Context, dbURL string, clients int, d time.Duration, log *slog.Logger) (baselineResult, error) {
	pcfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return baselineResult{}, fmt.Errorf("baseline: %w", err)
	}
	pcfg.MaxConns = int32(min(clients, 1000)) //nolint:gosec // G115: bounded above
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return baselineResult{}, fmt.Errorf("baseline: %w", err)
	}
	defer pool.Close()
	table := pgx.Identifier{"load_baseline_" + randomHex(4)}.Sanitize()
	if _, err := pool.Exec(ctx, `create table `+table+` (
		position bigint generated always as identity primary key, stream text not null, version int not null,
		type text not null, data jsonb not null, recorded_at timestamptz not null default now())`); err != nil {
		return baselineResult{}, fmt.Errorf("baseline: create a scratch table in %s: %w (give a role that may create one, or -baseline -1 to skip the baseline)",
			redactURL(dbURL), err)
	}
	defer func() {
		if _, err := pool.Exec(context.WithoutCancel(ctx), `drop table if exists `+table); err != nil {
			log.Warn("load: drop the baseline's scratch table", "table", table, "err", err)
		}
	}()
	// Every connection open before the clock starts.
	conns := make([]*pgxpool.Conn, 0, clients)
	for range clients {
		c, err := pool.Acquire(ctx)
		if err != nil {
			for _, c := range conns {
				c.Release()
			}
			return baselineResult{}, fmt.Errorf("baseline: connect: %w", err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Release()
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var total atomic.Int64
	hists := make([]*hdrhistogram.Histogram, clients)
	insert := `insert into ` + table + ` (stream, version, type, data) values ($1, $2, 'coyote.bid', '{"seat":1,"bid":14}')`
	start := time.Now()
	end := start.Add(d)
	var wg sync.WaitGroup
	for c := range clients {
		hists[c] = newLatencyHistogram()
		wg.Go(func() {
			stream := "baseline-" + strconv.Itoa(c)
			for v := 1; time.Now().Before(end) && runCtx.Err() == nil; v++ {
				t0 := time.Now()
				if _, err := pool.Exec(runCtx, insert, stream, v); err != nil {
					cancel(fmt.Errorf("baseline insert: %w", err))
					return
				}
				_ = hists[c].RecordValue(time.Since(t0).Microseconds()) // beyond an hour: not recorded
				total.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := context.Cause(runCtx); err != nil {
		return baselineResult{}, err
	}
	return baselineResult{inserts: total.Load(), elapsed: elapsed, hist: mergeHistograms(hists)}, nil
}

// newLatencyHistogram records microseconds from 1 µs to an hour with 3
// significant digits.
func newLatencyHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(time.Hour/time.Microsecond), 3)
}

func mergeHistograms(hs []*hdrhistogram.Histogram) *hdrhistogram.Histogram {
	out := newLatencyHistogram()
	for _, h := range hs {
		out.Merge(h)
	}
	return out
}

// percentiles prints p50/p95/p99 of a histogram of microseconds.
func percentiles(h *hdrhistogram.Histogram) string {
	ms := func(q float64) string {
		return fmt.Sprintf("%.2f ms", float64(h.ValueAtQuantile(q))/1000)
	}
	return fmt.Sprintf("p50 %s, p95 %s, p99 %s", ms(50), ms(95), ms(99))
}

// loadResult is what the games phase measured.
type loadResult struct {
	moves, stale, errors, finished int64
	setup, elapsed                 time.Duration
	drain                          time.Duration           // how long the set-up's mail took to go out (0: not waited for)
	drainFirst                     int64                   // the mail waiting then
	hist                           *hdrhistogram.Histogram // µs per move request
	firstErrors                    []string
}

// loadClient is one client of a load run: its bots (one a seat), the
// games they sit at, and its own rand.
type loadClient struct {
	bots    []*bot
	matches []*match
	pick    *mrand.Rand
}

// setUpClients signs in each client's bots (signIn makes the bot of a
// client's seat) and starts the client's share of o.games with them, the
// clients at once, a progress bar saying what.
func setUpClients(ctx context.Context, o loadOptions, stdout io.Writer, what string, signIn func(client, seat int) (*bot, error)) ([]*loadClient, error) {
	clients := make([]*loadClient, o.clients)
	bar := newLoadBar(stdout, int64(o.clients*o.seats+o.games), what)
	var wg sync.WaitGroup
	errs := make(chan error, o.clients)
	for c := range o.clients {
		lc := &loadClient{pick: mrand.New(mrand.NewPCG(uint64(c), 42))} //nolint:gosec // G115: c ≥ 0; G404: bots are not games
		clients[c] = lc
		wg.Go(func() {
			for s := range o.seats {
				b, err := signIn(c, s)
				if err != nil {
					errs <- err
					return
				}
				lc.bots = append(lc.bots, b)
				_ = bar.Add(1) // a bar that cannot draw changes nothing
			}
			for g := c; g < o.games; g += o.clients {
				m, err := startMatch(ctx, o.game, lc.bots, lc.pick)
				if err != nil {
					errs <- err
					return
				}
				lc.matches = append(lc.matches, m)
				_ = bar.Add(1) // a bar that cannot draw changes nothing
			}
		})
	}
	wg.Wait()
	_ = bar.Finish() // a bar that cannot draw changes nothing
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("set the games up: %w", err)
	}
	return clients, nil
}

// loadTarget is the server a run over HTTP plays against: its base URL,
// the relay sink its mail goes to (nil: its dev mailbox, for -url), and
// the database whose mail backlog is sampled ("": none).
type loadTarget struct {
	base       string
	sink       *httpSink
	backlogURL string
}

// signIn signs a bot in: through the relay sink, else the dev mailbox.
func (t loadTarget) signIn(ctx context.Context, api *client.ClientWithResponses, email string) (*bot, error) {
	if t.sink != nil {
		return t.sink.signIns.signIn(ctx, api, email)
	}
	return signInBot(ctx, api, email)
}

// errorLog keeps the count of failed requests and the first few messages.
type errorLog struct {
	mu    sync.Mutex
	n     int64
	first []string
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if len(l.first) < 5 {
		l.first = append(l.first, err.Error())
	}
}

// playLoad signs the bots in, starts the games and plays them for the
// duration: each client plays its share of the games in turn, a finished
// game replaced by a new one. The bots of a client (one a seat) sign in
// once and sit at every game of that client. began is called when the
// games begin to be timed.
func playLoad(ctx context.Context, target loadTarget, o loadOptions, stdout io.Writer, log *slog.Logger, began func()) (loadResult, error) {
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.clients}}
	defer httpc.CloseIdleConnections()
	api, err := newAPIClient(target.base, httpc)
	if err != nil {
		return loadResult{}, err
	}
	run := randomHex(3)
	setupStart := time.Now()
	log.Debug("load: setting up", "players", o.clients*o.seats, "games", o.games)
	clients, err := setUpClients(ctx, o, stdout, "signing in, starting games", func(c, s int) (*bot, error) {
		return target.signIn(ctx, api, fmt.Sprintf("load-%s-%d-%d@bots.test", run, c, s))
	})
	if err != nil {
		return loadResult{}, err
	}
	type player struct {
		*loadClient
		hist *hdrhistogram.Histogram
	}
	players := make([]*player, o.clients)
	for c, lc := range clients {
		players[c] = &player{loadClient: lc, hist: newLatencyHistogram()}
	}
	res := loadResult{setup: time.Since(setupStart)}
	// The set-up's burst of mail (sign-in links, invitations, the first
	// prompts) goes out before the games are timed, so that the backlog
	// sampled is the games' own.
	if target.backlogURL != "" {
		waited, first, _, err := waitMailDrained(ctx, target.backlogURL, 100*time.Millisecond, max(time.Minute, o.duration))
		if err != nil {
			return loadResult{}, err
		}
		res.drain, res.drainFirst = waited, first
	}

	var wg sync.WaitGroup
	var limiter *rate.Limiter
	if o.rate > 0 {
		limiter = rate.NewLimiter(rate.Limit(o.rate), 1)
	}
	var moves, stale, finished atomic.Int64
	var failed errorLog
	playCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	bar := newLoadBar(stdout, o.duration.Milliseconds(), "playing")
	start := time.Now()
	if target.sink != nil {
		target.sink.playing.Store(true)
		defer target.sink.playing.Store(false)
	}
	began()
	go func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-playCtx.Done():
				return
			case <-tick.C:
				el := time.Since(start)
				bar.Describe(fmt.Sprintf("%d moves, %.0f/s", moves.Load(), float64(moves.Load())/el.Seconds()))
				_ = bar.Set64(el.Milliseconds()) // a bar that cannot draw changes nothing
			}
		}
	}()
	for _, p := range players {
		wg.Go(func() {
			for i := 0; playCtx.Err() == nil; i = (i + 1) % len(p.matches) {
				if limiter != nil && limiter.Wait(playCtx) != nil {
					return
				}
				out, err := p.matches[i].step(playCtx)
				switch {
				case playCtx.Err() != nil:
					return // the request was cut at the end: not counted
				case err != nil:
					failed.add(err)
				case out.finished:
					finished.Add(1)
					m, err := startMatch(playCtx, o.game, p.bots, p.pick)
					if err != nil {
						if playCtx.Err() == nil {
							failed.add(fmt.Errorf("replace finished game %s: %w", p.matches[i].id, err))
						}
						continue
					}
					p.matches[i] = m
				case out.stale:
					stale.Add(1)
				default:
					moves.Add(1)
					_ = p.hist.RecordValue(out.latency.Microseconds()) // beyond an hour: not recorded
				}
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	_ = bar.Finish() // a bar that cannot draw changes nothing
	hs := make([]*hdrhistogram.Histogram, len(players))
	for i, p := range players {
		hs[i] = p.hist
	}
	res.hist = mergeHistograms(hs)
	res.moves, res.stale, res.finished = moves.Load(), stale.Load(), finished.Load()
	res.errors, res.firstErrors = failed.n, failed.first
	return res, nil
}

// newLoadBar is a progress bar to total, drawn only when w is a terminal
// and cleared when finished.
func newLoadBar(w io.Writer, total int64, what string) *progressbar.ProgressBar {
	visible := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			visible = true
		}
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(visible),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

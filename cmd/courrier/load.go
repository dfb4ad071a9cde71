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
	"os"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/time/rate"

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
}

// The goal the load command reports against (issue: the HTTP API).
const (
	goalRatio = 0.5
	goalP99   = 10 * time.Millisecond
)

// loadCmd plays games between bots over the HTTP API and reports the
// throughput and latencies of moves next to PostgreSQL's own one-row
// insert rate.
func loadCmd(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	var o loadOptions
	cfg, err := loadConfigWith("load", args, os.Getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&o.game, "game", "coyote", "the game the bots play")
		fs.IntVar(&o.games, "games", 1000, "games in play at once")
		fs.IntVar(&o.clients, "clients", 16, "concurrent clients (each plays its share of the games)")
		fs.IntVar(&o.seats, "seats", 0, "players a game (0: the game's minimum, at least 3 where allowed)")
		fs.DurationVar(&o.duration, "duration", 30*time.Second, "how long the bots play")
		fs.DurationVar(&o.baseline, "baseline", 0, "how long PostgreSQL's insert rate is measured (0: a third of -duration, 1 s to 10 s; negative: skip)")
		fs.StringVar(&o.url, "url", "", "a running courrier to load (its dev mailbox must be on, from this machine); empty: an embedded server on a scratch database")
		fs.Float64Var(&o.rate, "rate", 0, "moves a second to aim at (0: as fast as the clients go)")
		fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of this process (the embedded server and the bots) during the games to this file")
	})
	if err != nil {
		return err
	}
	eng, err := catalog.Registry().Get(o.game)
	if err != nil {
		return usageError{err.Error()}
	}
	info := eng.Info()
	if o.seats == 0 {
		o.seats = max(info.MinSeats, min(3, info.MaxSeats))
	}
	switch {
	case o.games < 1 || o.clients < 1:
		return usageError{"-games and -clients must be at least 1"}
	case o.seats < info.MinSeats || o.seats > info.MaxSeats:
		return usageError{fmt.Sprintf("-seats %d: %s is played by %d to %d", o.seats, o.game, info.MinSeats, info.MaxSeats)}
	case o.duration <= 0:
		return usageError{"-duration must be positive"}
	case o.rate < 0 || math.IsNaN(o.rate) || math.IsInf(o.rate, 0):
		return usageError{"-rate must be a number of moves a second, 0 for no aim"}
	}
	o.games = max(o.games, o.clients)
	if o.baseline == 0 {
		o.baseline = min(10*time.Second, max(time.Second, o.duration/3))
	}

	base, scratchOwner := o.url, ""
	if o.url == "" || cfg.DatabaseURL != "" {
		// A scratch database: the embedded server's, and the baseline's.
		ownerURL, stop, err := ownerOf(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer stop()
		name := "courrier_load_" + randomHex(4)
		if scratchOwner, err = withDatabaseName(ownerURL, name); err != nil {
			return err
		}
		defer dropDatabase(context.WithoutCancel(ctx), ownerURL, name, log)
	}
	if o.url == "" {
		srvBase, stop, err := startLoadServer(ctx, cfg, scratchOwner, log)
		if err != nil {
			return err
		}
		defer stop()
		base = srvBase
		_, _ = fmt.Fprintf(stdout, "courrier load: %s, %d games of %d, %d clients, %v, against an embedded server on a scratch database\n",
			o.game, o.games, o.seats, o.clients, o.duration)
	} else {
		_, _ = fmt.Fprintf(stdout, "courrier load: %s, %d games of %d, %d clients, %v, against %s\n",
			o.game, o.games, o.seats, o.clients, o.duration, o.url)
	}

	var inserts float64
	switch {
	case o.baseline < 0:
		_, _ = fmt.Fprintln(stdout, "PostgreSQL baseline: skipped (-baseline negative)")
	case scratchOwner == "":
		_, _ = fmt.Fprintln(stdout, "PostgreSQL baseline: skipped (give -database-url, a role that may create a database, to measure it)")
	default:
		n, hist, err := insertBaseline(ctx, scratchOwner, o.clients, o.baseline)
		if err != nil {
			return err
		}
		inserts = float64(n) / o.baseline.Seconds()
		_, _ = fmt.Fprintf(stdout, "PostgreSQL baseline: %d clients inserting one row per transaction for %v: %.0f inserts/s; %s\n",
			o.clients, o.baseline, inserts, percentiles(hist))
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
	res, err := playLoad(ctx, base, o, stdout)
	if err != nil {
		return err
	}
	movesPerSec := float64(res.moves) / res.elapsed.Seconds()
	_, _ = fmt.Fprintf(stdout, "set-up: %d players signed in through the dev mailbox and %d games started in %v\n",
		o.clients*o.seats, o.games, res.setup.Round(time.Millisecond))
	_, _ = fmt.Fprintf(stdout, "moves: %d in %v: %.0f moves/s; %s; %d stale (409, re-read and played on), %d errors, %d games finished\n",
		res.moves, res.elapsed.Round(time.Millisecond), movesPerSec, percentiles(res.hist), res.stale, res.errors, res.finished)
	for _, e := range res.firstErrors {
		_, _ = fmt.Fprintln(stdout, "  error:", e)
	}
	p99 := time.Duration(res.hist.ValueAtQuantile(99)) * time.Microsecond
	if inserts > 0 && o.rate == 0 {
		ratio := movesPerSec / inserts
		verdict := "below"
		if ratio >= goalRatio {
			verdict = "meets"
		}
		_, _ = fmt.Fprintf(stdout, "ratio: %.2f moves per insert (%s the goal of %.1f)\n", ratio, verdict, goalRatio)
	}
	if o.rate > 0 {
		verdict := "above"
		if p99 <= goalP99 {
			verdict = "within"
		}
		_, _ = fmt.Fprintf(stdout, "at %.0f moves/s asked, p99 %v (%s the goal of %v)\n", o.rate, p99.Round(10*time.Microsecond), verdict, goalP99)
	}
	if res.moves == 0 {
		return errors.New("load: no move was played")
	}
	return nil
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

// withDatabaseName is url naming database name instead.
func withDatabaseName(url, name string) (string, error) {
	pcfg, err := pgx.ParseConfig(url)
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

// startLoadServer runs `courrier serve` in this process on loopback ports,
// on the scratch database, without rate limits, and returns its URL.
func startLoadServer(ctx context.Context, cfg config, scratchOwner string, log *slog.Logger) (string, func(), error) {
	db, err := openZeroConfig(ctx, cfg, "serve", scratchOwner)
	if err != nil {
		return "", nil, err
	}
	ports := make([]string, 2)
	for i := range ports {
		var lc net.ListenConfig
		ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			db.Close()
			return "", nil, fmt.Errorf("find a free port: %w", err)
		}
		ports[i] = ln.Addr().String()
		_ = ln.Close() // only its number was wanted
	}
	cfg.HTTPAddr, cfg.SMTPAddr, cfg.RateLimit = ports[0], ports[1], "off"
	cfg.BaseURL = "http://" + cfg.HTTPAddr
	srvCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
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
			return "", nil, fmt.Errorf("health check: %w", err)
		}
		if resp, err := hc.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cfg.BaseURL, stop, nil
			}
		}
		select {
		case err := <-done:
			db.Close()
			return "", nil, fmt.Errorf("the embedded server did not start: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	stop()
	return "", nil, errors.New("the embedded server did not answer its health check in 10 s")
}

// insertBaseline measures PostgreSQL alone: clients connections each
// inserting one row (shaped like an event) per transaction into a scratch
// table for d.
func insertBaseline(ctx context.Context, url string, clients int, d time.Duration) (int64, *hdrhistogram.Histogram, error) {
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return 0, nil, fmt.Errorf("baseline: %w", err)
	}
	pcfg.MaxConns = int32(min(clients, 1000)) //nolint:gosec // G115: bounded above
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return 0, nil, fmt.Errorf("baseline: %w", err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table if not exists load_baseline (
		position bigint generated always as identity primary key, stream text not null, version int not null,
		type text not null, data jsonb not null, recorded_at timestamptz not null default now())`); err != nil {
		return 0, nil, fmt.Errorf("baseline: create its table: %w", err)
	}
	defer func() { _, _ = pool.Exec(context.WithoutCancel(ctx), `drop table if exists load_baseline`) }() // the database is dropped anyway
	var total atomic.Int64
	hists := make([]*hdrhistogram.Histogram, clients)
	errs := make(chan error, clients)
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range clients {
		hists[c] = newLatencyHistogram()
		wg.Go(func() {
			stream := "baseline-" + strconv.Itoa(c)
			for v := 1; time.Now().Before(end); v++ {
				start := time.Now()
				if _, err := pool.Exec(ctx, `insert into load_baseline (stream, version, type, data) values ($1, $2, 'coyote.bid', '{"seat":1,"bid":14}')`, stream, v); err != nil {
					errs <- fmt.Errorf("baseline insert: %w", err)
					return
				}
				_ = hists[c].RecordValue(time.Since(start).Microseconds()) // beyond an hour: not recorded
				total.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, nil, err
	}
	return total.Load(), mergeHistograms(hists), nil
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
	hist                           *hdrhistogram.Histogram
	firstErrors                    []string
}

// playLoad signs the bots in, starts the games and plays them for the
// duration: each client plays its share of the games in turn, a finished
// game replaced by a new one.
func playLoad(ctx context.Context, base string, o loadOptions, stdout io.Writer) (loadResult, error) {
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.clients}}
	api, err := newAPIClient(base, httpc)
	if err != nil {
		return loadResult{}, err
	}
	run := randomHex(3)
	setupStart := time.Now()
	type player struct {
		bots    []*bot
		matches []*match
		pick    *mrand.Rand
		hist    *hdrhistogram.Histogram
	}
	players := make([]*player, o.clients)
	var wg sync.WaitGroup
	errs := make(chan error, o.clients)
	for c := range o.clients {
		p := &player{pick: mrand.New(mrand.NewPCG(uint64(c), 42)), hist: newLatencyHistogram()} //nolint:gosec // G115: c ≥ 0
		players[c] = p
		wg.Go(func() {
			for s := range o.seats {
				b, err := signInBot(ctx, api, fmt.Sprintf("load-%s-%d-%d@bots.test", run, c, s))
				if err != nil {
					errs <- err
					return
				}
				p.bots = append(p.bots, b)
			}
			for g := c; g < o.games; g += o.clients {
				m, err := startMatch(ctx, o.game, p.bots, p.pick)
				if err != nil {
					errs <- err
					return
				}
				p.matches = append(p.matches, m)
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return loadResult{}, fmt.Errorf("set the games up: %w", err)
	}
	res := loadResult{setup: time.Since(setupStart)}

	var limiter *rate.Limiter
	if o.rate > 0 {
		limiter = rate.NewLimiter(rate.Limit(o.rate), 1)
	}
	var moves, stale, failed, finished atomic.Int64
	var errMu sync.Mutex
	playCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	bar := newLoadBar(stdout, o.duration)
	start := time.Now()
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
					return
				case err != nil:
					failed.Add(1)
					errMu.Lock()
					if len(res.firstErrors) < 5 {
						res.firstErrors = append(res.firstErrors, err.Error())
					}
					errMu.Unlock()
				case out.finished:
					finished.Add(1)
					m, err := startMatch(playCtx, o.game, p.bots, p.pick)
					if err != nil {
						if playCtx.Err() == nil {
							failed.Add(1)
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
	_ = bar.Clear()
	hs := make([]*hdrhistogram.Histogram, len(players))
	for i, p := range players {
		hs[i] = p.hist
	}
	res.hist = mergeHistograms(hs)
	res.moves, res.stale, res.errors, res.finished = moves.Load(), stale.Load(), failed.Load(), finished.Load()
	return res, nil
}

// newLoadBar is a progress bar over the duration, drawn only on a
// terminal.
func newLoadBar(w io.Writer, d time.Duration) *progressbar.ProgressBar {
	visible := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			visible = true
		}
	}
	return progressbar.NewOptions64(d.Milliseconds(),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(visible),
		progressbar.OptionSetDescription("playing"),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

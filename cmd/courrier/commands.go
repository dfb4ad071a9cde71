package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/riverqueue/river"
	"github.com/schollz/progressbar/v3"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/api/live"
	"github.com/courrier-games/courrier/cmd/courrier/guard"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/web"
)

// serve runs the HTTP API, the inbound SMTP server and the job queue until
// ctx is cancelled (SIGINT, SIGTERM).
func serve(ctx context.Context, args []string, log *slog.Logger) error {
	return withDatabase(ctx, "serve", args, log, func(cfg config, db *database) error {
		return runServer(ctx, cfg, db, log)
	})
}

// runServer serves until ctx ends, then stops in reverse order of start:
// intake first (HTTP, SMTP), then the job queue (cut-off jobs run again
// later), then the feed watcher.
func runServer(ctx context.Context, cfg config, db *database, log *slog.Logger) error {
	if err := ensureSecrets(cfg.DataDir); err != nil {
		return err
	}
	box, err := seedBox(cfg.DataDir)
	if err != nil {
		return err
	}
	watchCtx, stopWatch := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWatch()
	// 500 ms at most between polls when idle: a move made through another
	// process reaches this one's live streams within a second.
	watcher := events.NewWatcher(db.Pool, events.WithWatcherLogger(log), events.WithIntervals(50*time.Millisecond, 500*time.Millisecond))
	go func() {
		if err := watcher.Run(watchCtx); err != nil && watchCtx.Err() == nil {
			log.Error("the feed watcher stopped", "err", err)
		}
	}()
	late := &lateJobs{}
	svc := play.New(db.Pool, catalog.Registry(), play.WithLogger(log), play.WithWake(watcher.Wake),
		play.WithSeedBox(box), play.WithJobs(late), play.WithAccounts(auth.NewInvitees()))
	arc := play.NewArchive(db.Pool, catalog.Registry(), box)
	if n, err := play.NewUpkeep(db.Pool, catalog.Registry(), box).SealClearSeeds(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Info("sealed game seeds stored in clear by an older courrier", "games", n)
	}
	perUser, perAddress, err := cfg.rateLimits()
	if err != nil {
		return err
	}
	refusals, guarded, err := cfg.refusalLimit()
	if err != nil {
		return err
	}
	keys, err := accountKeys(cfg.DataDir)
	if err != nil {
		return err
	}
	mail, err := mailService(cfg, db, svc, arc, keys.login, log)
	if err != nil {
		return err
	}
	workers := river.NewWorkers()
	mail.AddWorkers(workers)
	river.AddWorker(workers, play.NewDeadlineWorker(svc, time.Now))
	river.AddWorker(workers, play.NewTakeBackWorker(svc, time.Now))
	jobTimeout, err := cfg.jobTimeout()
	if err != nil {
		return err
	}
	mailWorkers, err := cfg.mailWorkers(db.Pool.Config().MaxConns)
	if err != nil {
		return err
	}
	jobsClient, err := newRiver(db.Pool, workers, mailWorkers, jobTimeout, mail, log)
	if err != nil {
		return err
	}
	late.client = jobsClient
	// The ratings and reliability follow the feed: at each of the
	// watcher's ticks, one process at a time (an advisory lock).
	standings := play.NewStandings(db.Pool, catalog.Registry(), log)
	ticks, unsubscribe := watcher.Subscribe()
	defer unsubscribe()
	go func() {
		if err := standings.Run(watchCtx, ticks, 30*time.Second); err != nil && watchCtx.Err() == nil {
			log.Error("the standings stopped", "err", err)
		}
	}()
	hub := live.NewHub(watcher, svc, log)
	go func() {
		if err := hub.Run(watchCtx); err != nil && watchCtx.Err() == nil {
			log.Error("the live hub stopped", "err", err)
		}
	}()
	sessions := auth.NewSessions(db.Pool, keys.sessions, time.Now)
	signIn, err := auth.NewSignIn(auth.NewUsers(db.Pool), auth.NewLinks(db.Pool, time.Now), sessions, keys.login, jobs.QueueLogin(jobsClient))
	if err != nil {
		return err
	}
	apiServer, err := api.New(ctx, api.Config{
		Play: svc, Archive: arc, Users: auth.NewUsers(db.Pool), SignIn: signIn,
		APITokens: auth.NewAPITokens(db.Pool, time.Now), Sessions: sessions,
		Hub: hub, Feed: feedStats(watcher), BaseURL: cfg.BaseURL, DevMail: devMailbox(cfg, db), Log: log,
		PerUser: perUser, PerAddress: perAddress, LoopbackUnlimited: true, MailBacklog: mailBacklog(mailstore.New(db.Pool)),
	})
	if err != nil {
		return err
	}

	var lc net.ListenConfig
	httpLn, err := lc.Listen(ctx, "tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.HTTPAddr, err)
	}
	smtpLn, err := lc.Listen(ctx, "tcp", cfg.SMTPAddr)
	if err != nil {
		_ = httpLn.Close()
		return fmt.Errorf("listen on %s (inbound SMTP): %w", cfg.SMTPAddr, err)
	}
	pages, err := web.New(web.Config{
		Play: svc, Archive: arc, Users: auth.NewUsers(db.Pool), Sessions: sessions, SignIn: signIn,
		CSRFKey: keys.csrf, Live: liveFeed{hub}, BaseURL: cfg.BaseURL, DevMail: cfg.SMTPRelay == "", Log: log,
	})
	if err != nil {
		return err
	}
	// The API under /v1 and its few plain routes; the mail side's pages;
	// the web pages everywhere else.
	mux := http.NewServeMux()
	mux.Handle("/", pages)
	for _, p := range []string{"/v1/", "/healthz", "/metrics"} {
		mux.Handle(p, apiServer)
	}
	mailPages := mail.Handler(jobsClient)
	mux.Handle("/u/", mailPages)
	mux.Handle("/c/", mailPages)
	mux.Handle("/dev/", mailPages)
	// A client that keeps sending what is refused gets its refusals
	// slowly: a flood costs serve little and the players keep their speed.
	var handler http.Handler = mux
	if guarded {
		handler = guard.Handler(mux, guard.Config{PerSecond: refusals})
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	inbound := mail.NewInboundServer(jobsClient)
	if err := jobsClient.Start(context.WithoutCancel(ctx)); err != nil {
		_, _ = httpLn.Close(), smtpLn.Close()
		return fmt.Errorf("start the job queue: %w", err)
	}
	log.Info("courrier is serving", "http", httpLn.Addr().String(), "smtp", smtpLn.Addr().String(),
		"mail_domain", cfg.MailDomain, "mail", mailDescription(cfg), "mail_workers", mailWorkers, "version", version())
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(httpLn) }()
	go func() { errc <- inbound.Serve(smtpLn) }()
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	errs := []error{serveErr}
	apiServer.CloseStreams() // live streams end first, or Shutdown would wait for them
	if err := srv.Shutdown(shutdown); err != nil {
		errs = append(errs, fmt.Errorf("shut down the http server: %w", err))
	}
	if err := inbound.Shutdown(shutdown); err != nil {
		errs = append(errs, fmt.Errorf("shut down the smtp server: %w", err))
	}
	soft, cancelSoft := context.WithTimeout(shutdown, 10*time.Second)
	defer cancelSoft()
	if err := jobsClient.Stop(soft); err != nil {
		errs = append(errs, fmt.Errorf("stop the job queue: %w", err))
	}
	stopWatch()
	for _, err := range errs {
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// withDatabase loads the configuration of command name from args, opens
// the migrated database and runs fn with it.
func withDatabase(ctx context.Context, name string, args []string, log *slog.Logger, fn func(config, *database) error) error {
	cfg, err := loadConfig(name, args, os.Getenv)
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, cfg, name, log)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(cfg, db)
}

// migrate applies the migrations and exits.
func migrate(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	return withDatabase(ctx, "migrate", args, log, func(_ config, db *database) error {
		var v int
		if err := db.Pool.QueryRow(ctx, "select version from schema_version").Scan(&v); err != nil {
			return fmt.Errorf("read the schema version: %w", err)
		}
		_, err := fmt.Fprintf(stdout, "the database is at schema version %d\n", v)
		return err
	})
}

// rebuild recomputes every inline projection from the event log, with a
// progress bar on a terminal.
func rebuild(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	return withDatabase(ctx, "projections rebuild", args, log, func(_ config, db *database) error {
		var bar *progressbar.ProgressBar
		n, err := play.NewUpkeep(db.Pool, catalog.Registry(), nil).RebuildProjections(ctx, func(done, total int) {
			if bar == nil {
				bar = newLoadBar(stderr, int64(total), "rebuilding")
			}
			_ = bar.Set(done) // a progress bar's write error is not the rebuild's
		})
		if bar != nil {
			_ = bar.Finish()
		}
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(stdout, "rebuilt the projections of %d games from the event log\n", n); err != nil {
			return err
		}
		// The ratings and reliability, from the whole feed in its order.
		replayed, err := play.NewUpkeep(db.Pool, catalog.Registry(), nil).RebuildStandings(ctx)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "rebuilt the ratings and reliability from %d events\n", replayed)
		return err
	})
}

// secretsCmd is `courrier secrets rotate <purpose>`: it adds a new current
// key to the data directory.
func secretsCmd(args []string, stdout io.Writer) error {
	cfg, rest, err := commandArgs("secrets rotate", args, nil)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{msg: fmt.Sprintf("secrets rotate takes one purpose (%s, %s or %s)", keyJWT, keyReply, keySeed), showUsage: true}
	}
	id, err := rotateKey(cfg.DataDir, rest[0])
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "new %s key %s in %s: it signs or seals from the next start; the older keys still verify or open\n",
		rest[0], id, filepath.Join(cfg.DataDir, secretsDir))
	return err
}

// liveFeed lets the web pages follow games through the API's live hub
// (web imports nothing of api but api/auth).
type liveFeed struct{ hub *live.Hub }

// Follow implements web.Live.
func (f liveFeed) Follow(ctx context.Context, gameID, user string, after int) (<-chan web.Update, func(), error) {
	sub, err := f.hub.Subscribe(ctx, gameID, user, after)
	if err != nil {
		return nil, nil, err
	}
	out := make(chan web.Update, 16)
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(out)
		send := func(c play.Change) bool {
			select {
			case out <- web.Update{Version: c.Version, Text: c.Text}:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, c := range sub.Backlog {
			if !send(c) {
				return
			}
		}
		for {
			select {
			case c, ok := <-sub.C:
				if !ok || !send(c) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, func() { cancel(); sub.Close() }, nil
}

// feedStats adapts the feed watcher's statistics to what the API's health
// check reports (api imports nothing of the log).
func feedStats(w *events.Watcher) func() api.FeedStats {
	return func() api.FeedStats {
		st := w.Stats()
		return api.FeedStats{LastPoll: st.LastPoll, Interval: st.Interval, Lag: st.Lag, Delivered: st.Delivered}
	}
}

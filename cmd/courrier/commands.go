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

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// serve runs the HTTP API until ctx is cancelled (SIGINT, SIGTERM).
func serve(ctx context.Context, args []string, log *slog.Logger) error {
	return withDatabase(ctx, "serve", args, log, func(cfg config, db *database) error {
		return serveHTTP(ctx, cfg, db, log)
	})
}

// serveHTTP serves the API on cfg.HTTPAddr until ctx ends, then shuts down
// gracefully.
func serveHTTP(ctx context.Context, cfg config, db *database, log *slog.Logger) error {
	watcher := events.NewWatcher(db.Pool, events.WithWatcherLogger(log))
	go func() {
		if err := watcher.Run(ctx); err != nil {
			log.Error("the feed watcher stopped", "err", err)
		}
	}()
	if err := ensureSecrets(cfg.DataDir); err != nil {
		return err
	}
	box, err := seedBox(cfg.DataDir)
	if err != nil {
		return err
	}
	svc := play.New(db.Pool, catalog.Registry(), play.WithLogger(log), play.WithWake(watcher.Wake), play.WithSeedBox(box))
	if n, err := svc.SealClearSeeds(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Info("sealed game seeds stored in clear by an older courrier", "games", n)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.HTTPAddr, err)
	}
	srv := &http.Server{
		Handler:           api.New(db.Pool, svc, log, api.WithFeed(watcher)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Info("courrier is serving", "http", ln.Addr().String(), "version", version())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shut down the http server: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
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

// rebuild recomputes every inline projection from the event log.
func rebuild(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	return withDatabase(ctx, "projections rebuild", args, log, func(_ config, db *database) error {
		svc := play.New(db.Pool, catalog.Registry(), play.WithLogger(log))
		n, err := svc.RebuildProjections(ctx, func(done, total int) {
			if done%1000 == 0 || done == total {
				log.Info("rebuilding projections", "games", done, "of", total)
			}
		})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "rebuilt the projections of %d games from the event log\n", n)
		return err
	})
}

// secretsCmd manages the keys of the data directory: `courrier secrets
// rotate <purpose>` adds a new current key.
func secretsCmd(args []string, stdout io.Writer) error {
	if len(args) < 2 || args[0] != "rotate" {
		return usageError{"usage: courrier secrets rotate jwt|reply|seed [-data-dir DIR]"}
	}
	cfg, err := loadConfig("secrets rotate", args[2:], os.Getenv)
	if err != nil {
		return err
	}
	id, err := rotateKey(cfg.DataDir, args[1])
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "new %s key %s in %s: it signs or seals from the next start; the older keys still verify or open\n",
		args[1], id, filepath.Join(cfg.DataDir, secretsDir))
	return err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"time"

	embeddedpostgres "github.com/fergusstrange/embedded-postgres"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations"
)

// localURL is the server tried when DATABASE_URL is unset.
const localURL = "postgres://postgres@localhost:5432/courrier?sslmode=disable"

// embeddedPort is where the embedded server listens.
const embeddedPort = 5499

// database is an open, migrated database and how to close it.
type database struct {
	Pool  *pgxpool.Pool
	URL   string
	close func()
}

// Close closes the pool and stops an embedded server.
func (d *database) Close() {
	d.Pool.Close()
	if d.close != nil {
		d.close()
	}
}

// openDatabase resolves the database (DATABASE_URL; else the local server on
// localhost:5432; else an embedded server in the data directory), creates it
// if needed, applies the migrations and opens a pool.
func openDatabase(ctx context.Context, cfg config, log *slog.Logger) (*database, error) {
	url, stop, err := resolveDatabase(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	if err := ensureDatabase(ctx, url); err != nil {
		stop()
		return nil, err
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		stop()
		return nil, fmt.Errorf("connect to the database: %w", err)
	}
	err = migrations.Migrate(ctx, conn)
	conn.Close(ctx)
	if err != nil {
		stop()
		return nil, err
	}
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		stop()
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	for k, v := range events.SessionParams() {
		if _, set := pcfg.ConnConfig.RuntimeParams[k]; !set {
			pcfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		stop()
		return nil, fmt.Errorf("open the database: %w", err)
	}
	return &database{Pool: pool, URL: url, close: stop}, nil
}

func resolveDatabase(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	noop := func() {}
	if cfg.DatabaseURL != "" {
		log.Info("using the database named by DATABASE_URL")
		return cfg.DatabaseURL, noop, nil
	}
	if answers(ctx, strings.Replace(localURL, "/courrier?", "/postgres?", 1)) {
		log.Info("using the local PostgreSQL server", "addr", "localhost:5432")
		return localURL, noop, nil
	}
	return startEmbedded(ctx, cfg, log)
}

func answers(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return false
	}
	conn.Close(ctx)
	return true
}

// ensureDatabase creates the database of url when it does not exist yet.
func ensureDatabase(ctx context.Context, url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	name := cfg.Database
	cfg.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		// No maintenance database to connect to: assume the database exists
		// and let the real connection report any problem.
		return nil
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "select exists(select from pg_database where datname = $1)", name).Scan(&exists); err != nil {
		return fmt.Errorf("look for database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// startEmbedded starts a PostgreSQL server under the data directory, using
// the local binaries under /usr/lib/postgresql when present.
func startEmbedded(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	if u, err := user.Current(); err == nil && u.Uid == "0" {
		return "", nil, errors.New("no PostgreSQL answers on localhost:5432 and the embedded server cannot run as root " +
			"(PostgreSQL refuses to): start a PostgreSQL server and set DATABASE_URL, or run courrier as an ordinary user")
	}
	root := filepath.Join(cfg.DataDir, "postgres")
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", nil, fmt.Errorf("create %s: %w", root, err)
	}
	pgcfg := embeddedpostgres.DefaultConfig().
		Port(embeddedPort).
		Database("courrier").
		DataPath(filepath.Join(root, "data")).
		RuntimePath(filepath.Join(root, "runtime")).
		CachePath(filepath.Join(root, "cache")).
		StartParameters(map[string]string{"unix_socket_directories": filepath.Join(root, "runtime")}).
		Logger(io.Discard).
		StartTimeout(60 * time.Second)
	if bin, ver := localBinaries(); bin != "" {
		pgcfg = pgcfg.BinariesPath(bin).Version(ver)
		log.Info("starting an embedded PostgreSQL with the local binaries", "binaries", bin, "data", root)
	} else {
		log.Info("starting an embedded PostgreSQL (binaries downloaded once)", "data", root)
	}
	pg := embeddedpostgres.NewDatabase(pgcfg)
	if err := pg.Start(); err != nil {
		return "", nil, fmt.Errorf("start the embedded PostgreSQL in %s: %w", root, err)
	}
	stop := func() {
		if err := pg.Stop(); err != nil {
			log.Warn("stop the embedded PostgreSQL", "err", err)
		}
	}
	return fmt.Sprintf("postgres://postgres:postgres@localhost:%d/courrier?sslmode=disable", embeddedPort), stop, nil
}

// localBinaries finds the newest /usr/lib/postgresql/<major> with bin/pg_ctl
// and returns it with the embedded-postgres version of that major.
func localBinaries() (string, embeddedpostgres.PostgresVersion) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	sort.Strings(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		dir := filepath.Dir(filepath.Dir(dirs[i]))
		switch filepath.Base(dir) {
		case "18":
			return dir, embeddedpostgres.V18
		case "17":
			return dir, embeddedpostgres.V17
		case "16":
			return dir, embeddedpostgres.V16
		case "15":
			return dir, embeddedpostgres.V15
		case "14":
			return dir, embeddedpostgres.V14
		}
	}
	return "", ""
}

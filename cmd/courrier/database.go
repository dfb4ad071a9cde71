package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	embeddedpostgres "github.com/fergusstrange/embedded-postgres"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations"
	"github.com/courrier-games/courrier/migrations/pgserver"
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

// serviceLogin is the login role `courrier serve` connects as in the
// zero-config modes: a member of courrier_service, which may read and append
// events and write the projections, and nothing else.
const serviceLogin = "courrier_app"

// openDatabase resolves the database and opens a pool on it for command
// name.
//
//   - DATABASE_URL set: `migrate` connects as COURRIER_DATABASE_URL_MIGRATE
//     (the owner; DATABASE_URL when unset) and migrates. The other commands
//     connect as DATABASE_URL, which should name a login role in
//     courrier_service, and refuse to run on a schema that is behind, saying
//     to run `courrier migrate` (with a warning when it is a superuser).
//   - Unset (zero-config): the local server on localhost:5432 if it answers,
//     else an embedded server in the data directory. courrier is then the
//     owner: it migrates, sets up its login role with a password kept in the
//     data directory, and the pool connects as that role.
func openDatabase(ctx context.Context, cfg config, name string, log *slog.Logger) (*database, error) {
	if cfg.DatabaseURL != "" || (name == "migrate" && cfg.MigrateURL != "") {
		return openGiven(ctx, cfg, name, log)
	}
	ownerURL, stop, err := resolveDatabase(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	db, err := openZeroConfig(ctx, cfg, name, ownerURL)
	if err != nil {
		stop()
		return nil, err
	}
	db.close = stop
	return db, nil
}

// openGiven opens the database named by DATABASE_URL (and, to migrate,
// COURRIER_DATABASE_URL_MIGRATE).
func openGiven(ctx context.Context, cfg config, name string, log *slog.Logger) (*database, error) {
	if name == "migrate" {
		url := cfg.MigrateURL
		if url == "" {
			url = cfg.DatabaseURL
		}
		log.Info("migrating as the schema's owner", "database", redactURL(url))
		if err := ensureDatabase(ctx, url); err != nil {
			return nil, err
		}
		if err := migrateURL(ctx, url); err != nil {
			return nil, err
		}
		pool, err := openPool(ctx, url)
		if err != nil {
			return nil, err
		}
		return &database{Pool: pool, URL: url}, nil
	}
	log.Info("using the database named by DATABASE_URL", "database", redactURL(cfg.DatabaseURL))
	pool, err := openPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := checkSchema(ctx, pool, log); err != nil {
		pool.Close()
		return nil, err
	}
	return &database{Pool: pool, URL: cfg.DatabaseURL}, nil
}

// checkSchema refuses a schema that is behind this binary (only the
// zero-config modes migrate at start: elsewhere `courrier migrate` is a
// step of its own), and warns when the role is a superuser.
func checkSchema(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	var super, owner bool
	// events is a table before migration 014 and a view after: pg_class
	// knows the owner of both.
	err := pool.QueryRow(ctx, `select rolsuper, coalesce((select pg_has_role(current_user, c.relowner, 'usage')
		from pg_class c where c.oid = to_regclass('public.events')), true)
		from pg_roles where rolname = current_user`).Scan(&super, &owner)
	if err != nil {
		return fmt.Errorf("connect to the database: %w", err)
	}
	if super {
		log.Warn("connected as a superuser: the event log's append-only guarantee rests on triggers a superuser can disable; " +
			"connect as a login role in courrier_service (README: Running with two database roles)")
	}
	have, err := migrations.Current(ctx, pool)
	if err != nil {
		return err
	}
	river, err := migrations.RiverCurrent(ctx, pool)
	if err != nil {
		return err
	}
	if want := migrations.Latest(); have < want || river < migrations.RiverLatest() {
		hint := "as the schema's owner (COURRIER_DATABASE_URL_MIGRATE)"
		if owner || super {
			hint = "(this role owns the schema: DATABASE_URL will do)"
		}
		return fmt.Errorf("the database schema is at version %d and this courrier needs %d: run `courrier migrate` %s, then start it again",
			have, want, hint)
	}
	return nil
}

// openZeroConfig migrates as the owner, sets up the service's login role and
// opens the pool as that role (as the owner for `migrate`).
func openZeroConfig(ctx context.Context, cfg config, name, ownerURL string) (*database, error) {
	if err := ensureDatabase(ctx, ownerURL); err != nil {
		return nil, err
	}
	if err := migrateURL(ctx, ownerURL); err != nil {
		return nil, err
	}
	if name == "migrate" {
		pool, err := openPool(ctx, ownerURL)
		if err != nil {
			return nil, err
		}
		return &database{Pool: pool, URL: ownerURL}, nil
	}
	password, err := keyPassword(cfg.DataDir, keyDatabase)
	if err != nil {
		return nil, err
	}
	if err := ensureLogin(ctx, ownerURL, password); err != nil {
		return nil, err
	}
	pcfg, err := pgx.ParseConfig(ownerURL)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	url := fmt.Sprintf("postgres://%s:%s@%s/%s?sslmode=disable", serviceLogin, password,
		net.JoinHostPort(pcfg.Host, strconv.Itoa(int(pcfg.Port))), pcfg.Database)
	pool, err := openPool(ctx, url)
	if err != nil {
		return nil, err
	}
	return &database{Pool: pool, URL: url}, nil
}

// ensureLogin creates or updates the service's login role: LOGIN, the
// password of the data directory, a member of courrier_service.
func ensureLogin(ctx context.Context, ownerURL, password string) error {
	if strings.Trim(password, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return errors.New("the database password holds characters it should not") // base64url only
	}
	conn, err := pgx.Connect(ctx, ownerURL)
	if err != nil {
		return fmt.Errorf("connect to the database as its owner: %w", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	_, err = conn.Exec(ctx, fmt.Sprintf(`do $$
		begin
			if not exists (select from pg_roles where rolname = '%[1]s') then
				create role %[1]s login;
			end if;
		end $$;
		alter role %[1]s with login nosuperuser nocreatedb nocreaterole password '%[2]s';
		grant courrier_service to %[1]s`, serviceLogin, password))
	if err != nil {
		return fmt.Errorf("set up the service's login role %s: %w", serviceLogin, err)
	}
	return nil
}

// migrateURL applies the migrations on a connection to url.
func migrateURL(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("connect to the database: %w", err)
	}
	err = migrations.Migrate(ctx, conn)
	if cerr := conn.Close(ctx); err == nil && cerr != nil {
		err = fmt.Errorf("close the migration connection: %w", cerr)
	}
	return err
}

// openPool opens a pool on url with the service's session settings.
func openPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	pcfg, err := events.PoolConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	return pool, nil
}

// redactURL is a URL without its password, for logs.
func redactURL(url string) string {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "(unparsable URL)"
	}
	return fmt.Sprintf("%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

func resolveDatabase(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	if pgserver.Answers(ctx, strings.Replace(localURL, "/courrier?", "/postgres?", 1)) {
		log.Info("using the local PostgreSQL server", "addr", "localhost:5432")
		return localURL, func() {}, nil
	}
	return startEmbedded(ctx, cfg, log)
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
	defer func() { _ = conn.Close(ctx) }() // a failed close of a read-only look changes nothing
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

// startEmbedded starts a PostgreSQL server under the data directory: the
// machine's own binaries when it has them (as root, run as an unprivileged
// system user), else embedded-postgres's downloaded ones (not as root).
func startEmbedded(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	password, err := keyPassword(cfg.DataDir, keyPostgres)
	if err != nil {
		return "", nil, err
	}
	if bin, major := pgserver.LocalBinaries(); bin != "" {
		if os.Geteuid() == 0 {
			// The server runs as an unprivileged user, who must pass through
			// the data directory (not list it: the secrets stay root's).
			if err := os.Chmod(cfg.DataDir, 0o711); err != nil { //nolint:gosec // G302: traversable, not readable
				return "", nil, fmt.Errorf("open the data directory %s to the server's user: %w", cfg.DataDir, err)
			}
		}
		srv, err := pgserver.New(filepath.Join(cfg.DataDir, "pg"+major), cfg.EmbeddedPort, password, log)
		if err != nil {
			return "", nil, err
		}
		log.Info("starting an embedded PostgreSQL", "server", srv.String())
		if err := srv.Start(ctx); err != nil {
			return "", nil, err
		}
		stop := func() {
			if err := srv.Stop(context.WithoutCancel(ctx)); err != nil {
				log.Warn("stop the embedded PostgreSQL", "err", err)
			}
		}
		url := srv.URL("courrier")
		return url, stop, nil
	}
	if u, err := user.Current(); err == nil && u.Uid == "0" {
		return "", nil, errors.New("no PostgreSQL answers on localhost:5432, this machine has no PostgreSQL binaries to run " +
			"as an unprivileged user, and the downloaded ones cannot run as root: install PostgreSQL (apt-get install postgresql) " +
			"or set DATABASE_URL")
	}
	root := filepath.Join(cfg.DataDir, "postgres")
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", nil, fmt.Errorf("create %s: %w", root, err)
	}
	pgcfg := embeddedpostgres.DefaultConfig().
		Port(uint32(cfg.EmbeddedPort)). //nolint:gosec // G115: a TCP port

		Database("courrier").
		Password(password).
		DataPath(filepath.Join(root, "data")).
		RuntimePath(filepath.Join(root, "runtime")).
		CachePath(filepath.Join(root, "cache")).
		StartParameters(map[string]string{"unix_socket_directories": filepath.Join(root, "runtime")}).
		Logger(io.Discard).
		StartTimeout(60 * time.Second)
	log.Info("starting an embedded PostgreSQL (binaries downloaded once)", "data", root)
	pg := embeddedpostgres.NewDatabase(pgcfg)
	if err := pg.Start(); err != nil {
		return "", nil, fmt.Errorf("start the embedded PostgreSQL in %s: %w", root, err)
	}
	stop := func() {
		if err := pg.Stop(); err != nil {
			log.Warn("stop the embedded PostgreSQL", "err", err)
		}
	}
	return fmt.Sprintf("postgres://postgres:%s@localhost:%d/courrier?sslmode=disable", password, cfg.EmbeddedPort), stop, nil
}

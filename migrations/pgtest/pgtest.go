// Package pgtest gives tests a fresh, migrated PostgreSQL database of their
// own on a real server: the one named by DATABASE_URL, else 127.0.0.1:5432,
// else a shared server of this user started from the machine's PostgreSQL
// binaries (see ServerURL). Databases are cloned from a template migrated
// once per schema fingerprint, so a new one costs a CREATE DATABASE. When no
// server can be had, the test fails with a message that says why; it never
// skips.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations"
)

// DefaultURL is the server tests use when DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// templateLock is the advisory lock key that serialises template creation
// across test binaries running in parallel.
const templateLock = 0x636f757272696572 // "courrier"

// ServiceRole is the login role tests connect as, like `courrier serve`: a
// member of courrier_service, with only the service's grants.
const ServiceRole = "courrier_test_service"

// servicePassword is the test login role's password (for servers that do not
// trust local connections); the role can do nothing outside test databases
// that courrier_service could not.
const servicePassword = "courrier-test-service" //nolint:gosec // G101: the password of a test-only role, on purpose in the open

// DB is a fresh migrated database of one test: a pool as the service role
// (what `courrier serve` may do), a pool as the owner (what `courrier
// migrate` may do), and their URLs.
type DB struct {
	Service    *pgxpool.Pool
	Owner      *pgxpool.Pool
	ServiceURL string
	OwnerURL   string
}

// New creates a fresh migrated database for t and returns a pool on it as
// the service role; the database is dropped when t ends.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return Open(t).Service
}

// NewWithURL is New that also returns the URL of the service role on the
// new database (for code under test that opens its own connections).
func NewWithURL(t testing.TB) (*pgxpool.Pool, string) {
	t.Helper()
	db := Open(t)
	return db.Service, db.ServiceURL
}

// Open creates a fresh migrated database for t with pools as the service
// role and as the owner; the database is dropped when t ends.
func Open(t testing.TB) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := ServerError(); err != nil {
		t.Fatalf("pgtest: no PostgreSQL server for the tests: %v", err)
	}
	admin, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		t.Fatalf("pgtest: PostgreSQL is not reachable at %s: %v\n"+
			"These tests need a real PostgreSQL server. Start one (on Debian: "+
			"pg_ctlcluster 15 main start) or point DATABASE_URL at one; .ci/run does this for you.",
			redact(ServerURL()), err)
	}
	defer func() { _ = admin.Close(ctx) }()

	tpl, err := ensureTemplate(ctx, admin)
	if err != nil {
		t.Fatalf("pgtest: prepare template database: %v", err)
	}
	name := createDatabase(ctx, t, admin, "template "+tpl)
	db := &DB{OwnerURL: databaseURL(t, name, "", ""), ServiceURL: databaseURL(t, name, ServiceRole, servicePassword)}
	db.Owner = openPool(ctx, t, db.OwnerURL)
	db.Service = openPool(ctx, t, db.ServiceURL)
	return db
}

// OpenAt creates a fresh database for t migrated only to schema version,
// with pools as the service role and as the owner: a migration's test fills
// it as the schema before the migration was, then calls Migrate. The
// database is dropped when t ends.
func OpenAt(t testing.TB, version int) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	if err := ServerError(); err != nil {
		t.Fatalf("pgtest: no PostgreSQL server for the tests: %v", err)
	}
	admin, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		t.Fatalf("pgtest: PostgreSQL is not reachable at %s: %v", redact(ServerURL()), err)
	}
	defer func() { _ = admin.Close(ctx) }()
	if _, err := ensureTemplate(ctx, admin); err != nil { // creates courrier_service and the test login role
		t.Fatalf("pgtest: prepare template database: %v", err)
	}
	name := createDatabase(ctx, t, admin, "")
	db := &DB{OwnerURL: databaseURL(t, name, "", ""), ServiceURL: databaseURL(t, name, ServiceRole, servicePassword)}
	db.Migrate(t, version)
	db.Owner = openPool(ctx, t, db.OwnerURL)
	db.Service = openPool(ctx, t, db.ServiceURL)
	return db
}

// Migrate brings db to schema version as its owner, as `courrier migrate`
// would (Latest() for the newest).
func (db *DB) Migrate(t testing.TB, version int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db.OwnerURL)
	if err != nil {
		t.Fatalf("pgtest: connect to migrate: %v", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if err := migrations.MigrateTo(ctx, conn, version); err != nil {
		t.Fatalf("pgtest: migrate to %d: %v", version, err)
	}
}

// openPool opens a pool with the service's session settings, closed when t
// ends (before the database is dropped).
func openPool(ctx context.Context, t testing.TB, url string) *pgxpool.Pool {
	t.Helper()
	pcfg, err := events.PoolConfig(url) // the service's session settings
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatalf("pgtest: open %s: %v", redact(url), err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// ensureTemplate creates and migrates the template database for the current
// migrations once; concurrent callers wait on an advisory lock.
func ensureTemplate(ctx context.Context, admin *pgx.Conn) (string, error) {
	name := "courrier_template_" + migrations.Fingerprint()
	if _, err := admin.Exec(ctx, "select pg_advisory_lock($1)", int64(templateLock)); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer func() {
		// Closing the connection releases the lock too, should this fail.
		_, _ = admin.Exec(context.WithoutCancel(ctx), "select pg_advisory_unlock($1)", int64(templateLock))
	}()

	var exists bool
	if err := admin.QueryRow(ctx, "select exists(select from pg_database where datname = $1 and datistemplate)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for %s: %w", name, err)
	}
	if exists {
		return name, ensureServiceRole(ctx, admin)
	}
	if err := dropTemplates(ctx, admin); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("create database %s", name)); err != nil {
		return "", fmt.Errorf("create %s: %w", name, err)
	}
	cfg, err := pgx.ParseConfig(ServerURL())
	if err != nil {
		return "", err
	}
	cfg.Database = name
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", name, err)
	}
	err = migrations.Migrate(ctx, conn)
	if cerr := conn.Close(ctx); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", name, cerr)
	}
	if err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("alter database %s is_template true", name)); err != nil {
		return "", fmt.Errorf("mark %s as template: %w", name, err)
	}
	return name, ensureServiceRole(ctx, admin)
}

// ensureServiceRole creates the tests' login role, a member of
// courrier_service (which the migrations create), once per server.
func ensureServiceRole(ctx context.Context, admin *pgx.Conn) error {
	_, err := admin.Exec(ctx, fmt.Sprintf(`do $$
		begin
			if not exists (select from pg_roles where rolname = '%[1]s') then
				create role %[1]s login password '%[2]s' in role courrier_service;
			end if;
		end $$`, ServiceRole, servicePassword))
	if err != nil {
		return fmt.Errorf("create the test login role %s: %w", ServiceRole, err)
	}
	return nil
}

// dropTemplates drops the templates of earlier schemas and a half-made one
// of this schema, so templates do not pile up as migrations change.
func dropTemplates(ctx context.Context, admin *pgx.Conn) error {
	rows, err := admin.Query(ctx, "select datname from pg_database where datname like 'courrier\\_template\\_%'")
	if err != nil {
		return fmt.Errorf("list template databases: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("list template databases: %w", err)
	}
	for _, n := range names {
		id := pgx.Identifier{n}.Sanitize()
		if _, err := admin.Exec(ctx, "alter database "+id+" is_template false"); err != nil {
			return fmt.Errorf("unmark template %s: %w", n, err)
		}
		if _, err := admin.Exec(ctx, "drop database if exists "+id+" with (force)"); err != nil {
			return fmt.Errorf("drop old template %s: %w", n, err)
		}
	}
	return nil
}

// databaseURL is the URL of database name on the test server, as user
// with password ("" for the server URL's own user).
func databaseURL(t testing.TB, name, user, password string) string {
	cfg, err := pgconn.ParseConfig(ServerURL())
	if err != nil {
		t.Fatalf("pgtest: DATABASE_URL: %v", err)
	}
	if user == "" {
		user, password = cfg.User, cfg.Password
	}
	if password != "" {
		user += ":" + password
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", user, cfg.Host, cfg.Port, name)
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// redact hides a password in a URL for messages.
func redact(url string) string {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		return "(unparsable DATABASE_URL)"
	}
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}

// IsCode reports whether err is a PostgreSQL error with the given SQLSTATE.
func IsCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}

// createDatabase creates a database of a fresh name (with the clause
// given, e.g. its template) and drops it when t ends.
func createDatabase(ctx context.Context, t testing.TB, admin *pgx.Conn, clause string) string {
	t.Helper()
	name := "courrier_test_" + randomSuffix()
	if _, err := admin.Exec(ctx, strings.TrimSpace(fmt.Sprintf("create database %s %s", name, clause))); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, ServerURL())
		if err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
			return
		}
		defer func() { _ = conn.Close(ctx) }()
		if _, err := conn.Exec(ctx, fmt.Sprintf("drop database if exists %s with (force)", name)); err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
		}
	})
	return name
}

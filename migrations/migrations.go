// Package migrations holds courrier's SQL schema as embedded, numbered
// migrations and applies them with tern, after River's own schema (the job
// queue of mail and timers), which rivermigrate applies.
package migrations

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed sql/*.sql
var files embed.FS

// versionTable is where tern records the applied version.
const versionTable = "schema_version"

// FS returns the migration files.
func FS() fs.FS {
	sub, err := fs.Sub(files, "sql")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}

// Migrate brings the database on conn to the latest schema. It is safe to run
// from several processes at once: tern serialises them with an advisory lock.
func Migrate(ctx context.Context, conn *pgx.Conn) error {
	return MigrateTo(ctx, conn, Latest())
}

// MigrateTo brings the database on conn to schema version (River's schema
// always to its latest): the tests of a migration start from the version
// before it.
func MigrateTo(ctx context.Context, conn *pgx.Conn, version int) error {
	// River first: our files grant the service role its tables.
	if err := migrateRiver(ctx, conn); err != nil {
		return err
	}
	m, err := migrate.NewMigrator(ctx, conn, versionTable)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	if err := m.LoadMigrations(FS()); err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if version < 0 || version > Latest() {
		return fmt.Errorf("apply migrations: no schema version %d (latest is %d)", version, Latest())
	}
	if err := m.MigrateTo(ctx, int32(version)); err != nil { //nolint:gosec // G115: checked against Latest() just above
		return fmt.Errorf("apply migrations to version %d: %w", version, err)
	}
	return nil
}

// riverLock serialises River's migrations between processes (tern has its
// own lock).
const riverLock = 0x636f7572 // "cour"

// migrateRiver applies River's migrations, each in its own transaction (a
// later one uses an enum value an earlier one adds).
func migrateRiver(ctx context.Context, conn *pgx.Conn) error {
	m, err := rivermigrate.New(riverpgxv5.New(nil), nil)
	if err != nil {
		return fmt.Errorf("prepare river's migrations: %w", err)
	}
	for {
		applied := 0
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock($1)`, riverLock); err != nil {
				return fmt.Errorf("lock river's migrations: %w", err)
			}
			//nolint:staticcheck // one step per transaction (MaxSteps 1) under our advisory lock, which is what the deprecation asks for
			res, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{MaxSteps: 1})
			if err != nil {
				return fmt.Errorf("apply river's migrations: %w", err)
			}
			applied = len(res.Versions)
			return nil
		})
		if err != nil || applied == 0 {
			return err
		}
	}
}

// RiverLatest is the version of River's schema the migrations bring a
// database to.
func RiverLatest() int {
	m, err := rivermigrate.New(riverpgxv5.New(nil), nil)
	if err != nil {
		return 0
	}
	all := m.AllVersions()
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1].Version
}

// Fingerprint is a short hash of every migration's text: databases migrated
// from the same fingerprint have the same schema (tests use it to name their
// template database).
func Fingerprint() string {
	h := sha256.New()
	names, _ := fs.Glob(FS(), "*.sql")
	for _, n := range names {
		b, _ := fs.ReadFile(FS(), n)
		_, _ = fmt.Fprintf(h, "%s\n%d\n", n, len(b)) // a hash never fails to write
		h.Write(b)
	}
	_, _ = fmt.Fprintf(h, "river %d\n", RiverLatest())
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Latest is the schema version the migrations bring a database to.
func Latest() int {
	names, _ := fs.Glob(FS(), "*.sql") // the pattern is valid
	return len(names)
}

// Current returns the schema version of the database q is connected to (0
// before any migration).
func Current(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `select to_regclass('`+versionTable+`') is not null`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := q.QueryRow(ctx, `select version from `+versionTable).Scan(&v); err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	return v, nil
}

// RiverCurrent returns the version of River's schema in the database q is
// connected to (0 before River's migrations).
func RiverCurrent(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `select to_regclass('river_migration') is not null`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("read river's schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := q.QueryRow(ctx, `select coalesce(max(version), 0) from river_migration where line = 'main'`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read river's schema version: %w", err)
	}
	return v, nil
}

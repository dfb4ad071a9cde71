// Package migrations holds courrier's SQL schema as embedded, numbered
// migrations and applies them with tern.
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
	m, err := migrate.NewMigrator(ctx, conn, versionTable)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	if err := m.LoadMigrations(FS()); err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
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

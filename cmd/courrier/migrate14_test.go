package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// Migration 014 (the compact log) converts a database of schema 013 in
// place: the log written at 013 by real games keeps every hash, so every
// stream verifies, the record of a game exported before is byte for byte
// the record exported after (and its receipt still verifies), `courrier
// audit -all` passes, a rebuild of the projections equals the inline ones,
// and the games go on: new moves append and chain.
func TestMigration14ConvertsTheLogInPlace(t *testing.T) {
	ctx := context.Background()

	// Real games, played by the service (on the current schema).
	src := pgtest.Open(t)
	g := playCLIGames(t, src)
	dir, box, over, last, running, others := g.dir, g.box, g.over, g.last, g.running, g.others

	// The same database as schema 013 held it: the log copied verbatim
	// (positions, transactions, times, hashes), with the tables beside it.
	old := pgtest.OpenAt(t, 13)
	copyAt13(t, src.Owner, old.Owner)
	streams := []string{play.Stream(over), play.Stream(running)}
	for _, s := range streams {
		if _, err := events.VerifyStream(ctx, old.Owner, s); err != nil {
			t.Fatalf("at schema 013: %v", err)
		}
	}
	before := logRows(t, old.Owner)
	cli := func(url string, args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(ctx, append(args, "-database-url", url, "-data-dir", dir), &out, &errb)
		return out.String(), err
	}
	// The record given out before: this courrier refuses a database at
	// 013, so it is exported from the games' own database, whose log the
	// copy at 013 holds verbatim.
	recordBefore := filepath.Join(t.TempDir(), "before.txt")
	if out, err := cli(src.ServiceURL, "export", over, "-o", recordBefore); err != nil {
		t.Fatalf("export before: %v\n%s", err, out)
	}
	inline, err := projections.Dump(ctx, old.Owner)
	if err != nil {
		t.Fatal(err)
	}

	old.Migrate(t, 14)
	// And the migrations after it, which this courrier needs to run (they
	// leave the log alone).
	old.Migrate(t, migrations.Latest())
	// Fresh pools: the old ones prepared their statements on the old table.
	owner, service := reopen(t, old.OwnerURL), reopen(t, old.ServiceURL)

	if after := logRows(t, owner); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Fatalf("the log changed in the migration:\nbefore %d rows, after %d", len(before), len(after))
	}
	listed, err := events.Streams(ctx, service, "game-")
	if err != nil || len(listed) != len(streams) {
		t.Fatalf("streams after the migration: %v, %v", listed, err)
	}
	for _, s := range listed {
		if _, err := events.VerifyStream(ctx, service, s); err != nil {
			t.Fatalf("after the migration: %v", err)
		}
	}
	if out, err := cli(old.ServiceURL, "audit", "-all"); err != nil || !strings.Contains(out, "2 games audited: all passed") {
		t.Fatalf("audit -all after the migration: %v\n%s", err, out)
	}
	recordAfter := filepath.Join(t.TempDir(), "after.txt")
	if out, err := cli(old.ServiceURL, "export", over, "-o", recordAfter); err != nil {
		t.Fatalf("export after the migration: %v\n%s", err, out)
	}
	b1, _ := os.ReadFile(recordBefore) //nolint:gosec // G304: the test's own temporary file
	b2, _ := os.ReadFile(recordAfter)  //nolint:gosec // G304: the test's own temporary file
	if len(b1) == 0 || !bytes.Equal(b1, b2) {
		t.Fatalf("the record differs after the migration:\n%s\n---\n%s", b1, b2)
	}
	// The record and the receipt given before the migration still verify.
	var vout bytes.Buffer
	receipt, _ := json.Marshal(map[string]any{"receipt": map[string]any{"game_id": over, "version": last.Version, "head": last.Head}})
	if err := run(ctx, []string{"verify", recordBefore}, &vout, &bytes.Buffer{}); err != nil || !strings.Contains(vout.String(), "PASSED") {
		t.Fatalf("verify of the record written before the migration: %v\n%s", err, vout.String())
	}
	if err := run(ctx, []string{"verify", "-receipt", string(receipt), recordAfter}, &vout, &bytes.Buffer{}); err != nil {
		t.Fatalf("verify of the receipt given before the migration: %v\n%s", err, vout.String())
	}

	if _, err := play.NewUpkeep(service, catalog.Registry(), nil).RebuildProjections(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := projections.Dump(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(inline, "\n") != strings.Join(rebuilt, "\n") {
		t.Fatal("the projections rebuilt after the migration differ from the inline ones")
	}

	// The running game goes on: new moves append to the converted stream
	// and chain to its old events.
	svc := play.New(service, catalog.Registry(), play.WithSeedBox(box), play.WithLogger(quietLogger()))
	v0, err := events.StreamVersion(ctx, service, play.Stream(running))
	if err != nil {
		t.Fatal(err)
	}
	playToEnd(t, svc, running, others, 4)
	n, err := events.VerifyStream(ctx, service, play.Stream(running))
	if err != nil || n <= v0 {
		t.Fatalf("after new moves: %d events (was %d), %v", n, v0, err)
	}
	if out, err := cli(old.ServiceURL, "audit", "-all"); err != nil || !strings.Contains(out, "2 games audited: all passed") {
		t.Fatalf("audit -all after new moves: %v\n%s", err, out)
	}
	var streamRows int
	if err := owner.QueryRow(ctx, `select count(*) from streams`).Scan(&streamRows); err != nil || streamRows != 2 {
		t.Fatalf("%d streams recorded, want 2 (%v)", streamRows, err)
	}

	// A server of before the migration, still running while it ran,
	// appends through the view as it did to the table: the events reach
	// the log, chained and read back as written; changing one is refused.
	for v := 1; v <= 2; v++ {
		var position int64
		var hash []byte
		if err := service.QueryRow(ctx, `insert into events (stream, version, type, data, meta) values ($1, $2, $3, $4, $5)
			returning position, hash`, "game-oldserver", v, "game.note", fmt.Sprintf(`{"n": %d}`, v), `{"actor": "u1", "channel": "api"}`).
			Scan(&position, &hash); err != nil || position == 0 || len(hash) != 32 {
			t.Fatalf("an append through the view: position %d, hash %x, %v", position, hash, err)
		}
	}
	if n, err := events.VerifyStream(ctx, service, "game-oldserver"); err != nil || n != 2 {
		t.Fatalf("the stream appended through the view: %d events, %v", n, err)
	}
	var meta string
	if err := service.QueryRow(ctx, `select meta::text from events where stream = 'game-oldserver' and version = 2`).Scan(&meta); err != nil ||
		meta != `{"actor": "u1", "channel": "api"}` {
		t.Fatalf("the meta appended through the view reads %s (%v)", meta, err)
	}
	if _, err := owner.Exec(ctx, `update events set version = 9 where stream = 'game-oldserver' and version = 2`); err == nil {
		t.Fatal("an event's version was changed through the view")
	}
}

// copyAt13 copies src's log verbatim into dst, a database at schema 013
// (its events table), and the tables a game needs beside it.
func copyAt13(t *testing.T, src, dst *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, dst, func(tx pgx.Tx) error {
		for _, table := range []string{"users", "game_secrets", "games", "seat_views", "event_context", "command_keys"} {
			if err := copyTable(ctx, src, tx, table, "select * from "+table); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "alter table events disable trigger user"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `create temporary table copied (like events) on commit drop`); err != nil {
			return err
		}
		if err := copyTable(ctx, src, tx, "copied",
			`select position, stream, version, type, data, meta, tx, recorded_at, hash from events order by position`); err != nil {
			return err
		}
		for _, s := range []string{
			`insert into events (position, stream, version, type, data, meta, tx, recorded_at, hash) overriding system value
				select position, stream, version, type, data, meta, tx, recorded_at, hash from copied order by position`,
			`select setval(pg_get_serial_sequence('events', 'position'), (select max(position) from events))`,
			"alter table events enable trigger user",
		} {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("copy the log to schema 013: %v", err)
	}
}

// copyTable copies the rows of query on src into table on dst.
func copyTable(ctx context.Context, src *pgxpool.Pool, dst pgx.Tx, table, query string) error {
	rows, err := src.Query(ctx, query)
	if err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	var cols []string
	for _, f := range rows.FieldDescriptions() {
		cols = append(cols, f.Name)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
	if err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	if _, err := dst.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(all)); err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return nil
}

// logRows is every event as text, hash included, in order.
func logRows(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select concat_ws(' ', position, stream, version, type, data::text, meta::text, tx, recorded_at, encode(hash, 'hex'))
		from events order by position`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(out) == 0 {
		t.Fatalf("read the log: %d rows, %v", len(out), err)
	}
	return out
}

// reopen opens a new pool on url, closed when t ends.
func reopen(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	cfg, err := events.PoolConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Migration 014 copies the log under a lock: an append that began before
// it and commits while it runs is waited for and copied, not dropped with
// the old table.
func TestMigration14WaitsForAWriter(t *testing.T) {
	ctx := context.Background()
	db := pgtest.OpenAt(t, 13)
	writer, err := db.Service.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = writer.Rollback(ctx) }()
	if _, err := writer.Exec(ctx, `insert into events (stream, version, type, data, meta) values ('game-late', 1, 'game.note', '{"n": 1}', '{"actor": "u1"}')`); err != nil {
		t.Fatal(err)
	}
	migrated := make(chan error, 1)
	go func() {
		conn, err := pgx.Connect(ctx, db.OwnerURL)
		if err != nil {
			migrated <- err
			return
		}
		defer func() { _ = conn.Close(ctx) }()
		migrated <- migrations.MigrateTo(ctx, conn, 14)
	}()
	// The migration waits for the writer's lock (a sleep cannot make this
	// test pass wrongly: without the lock the event is lost whatever the
	// timing, once the writer commits after the copy began).
	var waiting bool
	for range 200 {
		if err := db.Owner.QueryRow(ctx, `select exists (select 1 from pg_locks l join pg_class c on c.oid = l.relation
			where c.relname = 'events' and not l.granted)`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !waiting {
		t.Fatal("the migration never waited for the writer's lock on events")
	}
	if err := writer.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-migrated; err != nil {
		t.Fatalf("migrate to 014: %v", err)
	}
	owner := reopen(t, db.OwnerURL)
	if n, err := events.VerifyStream(ctx, owner, "game-late"); err != nil || n != 1 {
		t.Fatalf("the event committed during the migration: %d events in its stream, %v", n, err)
	}
}

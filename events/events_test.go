package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

func ev(typ string, n int) events.Event {
	return events.Event{Type: typ, Data: json.RawMessage(fmt.Sprintf(`{"n": %d}`, n)), Meta: events.Meta{Channel: "cli"}}
}

// appendTx appends in its own transaction and commits.
func appendTx(ctx context.Context, pool *pgxpool.Pool, stream string, expected int, evs ...events.Event) ([]events.Recorded, error) {
	var out []events.Recorded
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var err error
		out, err = events.Append(ctx, tx, stream, expected, evs)
		return err
	})
	return out, err
}

func TestAppendAndReadStream(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	rec, err := appendTx(ctx, pool, "game-a", 0, ev("x", 1), ev("y", 2), ev("z", 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec) != 3 || rec[0].Version != 1 || rec[2].Version != 3 || rec[2].Type != "z" {
		t.Fatalf("recorded %+v", rec)
	}
	if _, err := appendTx(ctx, pool, "game-a", 3, ev("w", 4)); err != nil {
		t.Fatal(err)
	}
	got, err := events.ReadStream(ctx, pool, "game-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Version != 3 || got[1].Type != "w" {
		t.Fatalf("read from 2: %+v", got)
	}
	var meta events.Meta
	if err := json.Unmarshal(got[0].Meta, &meta); err != nil || meta.Channel != "cli" {
		t.Fatalf("meta %s: %v", got[0].Meta, err)
	}
	v, err := events.StreamVersion(ctx, pool, "game-a")
	if err != nil || v != 4 {
		t.Fatalf("version = %d, %v", v, err)
	}
}

func TestAppendRejectsStaleAndFutureVersions(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	if _, err := appendTx(ctx, pool, "game-s", 0, ev("a", 1), ev("b", 2)); err != nil {
		t.Fatal(err)
	}
	for _, expected := range []int{0, 1, 3, 7} {
		_, err := appendTx(ctx, pool, "game-s", expected, ev("c", 3))
		var vc *events.VersionConflictError
		if !errors.Is(err, events.ErrVersionConflict) || !errors.As(err, &vc) || vc.Expected != expected {
			t.Errorf("expected version %d: err = %v, want a version conflict", expected, err)
		}
	}
	if v, _ := events.StreamVersion(ctx, pool, "game-s"); v != 2 {
		t.Fatalf("a rejected append wrote something: version %d", v)
	}
}

// Concurrent writers at the same expected version: exactly one wins, the
// others get a version conflict, whether the game already exists or the
// writers race to record its first event (and with it the stream's key).
func TestConcurrentAppendsOneWins(t *testing.T) {
	tests := []struct {
		name     string
		existing bool // the game has its first event before the race
	}{
		{"an existing game", true},
		{"a new game", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			pool := pgtest.New(t)
			expected, want := 0, 2
			if tt.existing {
				if _, err := appendTx(ctx, pool, "game-c", 0, ev("created", 0)); err != nil {
					t.Fatal(err)
				}
				expected, want = 1, 3
			}
			const writers = 8
			var wg sync.WaitGroup
			errs := make([]error, writers)
			start := make(chan struct{})
			for i := range writers {
				wg.Go(func() {
					<-start
					_, errs[i] = appendTx(ctx, pool, "game-c", expected, ev("move", i), ev("follow", i))
				})
			}
			close(start)
			wg.Wait()
			won := 0
			for i, err := range errs {
				switch {
				case err == nil:
					won++
				case errors.Is(err, events.ErrVersionConflict):
				default:
					t.Errorf("writer %d: unexpected error %v", i, err)
				}
			}
			if won != 1 {
				t.Fatalf("%d writers won, want exactly 1", won)
			}
			got, _ := events.ReadStream(ctx, pool, "game-c", 0)
			if len(got) != want {
				t.Fatalf("stream has %d events, want %d", len(got), want)
			}
			if n, err := events.VerifyStream(ctx, pool, "game-c"); err != nil || n != want {
				t.Fatalf("verify: %d, %v", n, err)
			}
			var keys int
			if err := pool.QueryRow(ctx, `select count(*) from streams where name = 'game-c'`).Scan(&keys); err != nil || keys != 1 {
				t.Fatalf("%d keys recorded for the stream, want 1 (%v)", keys, err)
			}
		})
	}
}

// A writer holding an open transaction on one game does not make a writer on
// another game wait; it does make a second writer on the same game wait,
// and that one then loses.
func TestDifferentGamesDoNotWait(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	for _, s := range []string{"game-1", "game-2"} {
		if _, err := appendTx(ctx, pool, s, 0, ev("created", 0)); err != nil {
			t.Fatal(err)
		}
	}
	held, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Rollback(ctx) }()
	if _, err := events.Append(ctx, held, "game-1", 1, []events.Event{ev("move", 1)}); err != nil {
		t.Fatal(err)
	}

	// Another game: must commit while game-1's transaction is still open. The
	// lock_timeout makes any wait an error instead of a hang.
	other, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Exec(ctx, "set local lock_timeout = '2s'"); err != nil {
		t.Fatal(err)
	}
	if _, err := events.Append(ctx, other, "game-2", 1, []events.Event{ev("move", 2)}); err != nil {
		t.Fatalf("append to another game waited or failed: %v", err)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// The same game: the second writer waits for the first, then loses.
	done := make(chan error, 1)
	go func() {
		_, err := appendTx(ctx, pool, "game-1", 1, ev("move", 3))
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a second writer on the same game finished before the first committed: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if err := held.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, events.ErrVersionConflict) {
		t.Fatalf("second writer: %v, want a version conflict", err)
	}
}

// Even the owner of the schema cannot change or delete an event: the
// triggers refuse, saying why.
func TestLogIsAppendOnly(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Open(t).Owner
	if _, err := appendTx(ctx, pool, "game-ro", 0, ev("a", 1)); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`update events set data = '{"n": 9}' where stream = 'game-ro'`,
		`delete from events where stream = 'game-ro'`,
		`truncate event_log`,
		`update event_log set data = '{"n": 9}'`,
		`delete from event_log`,
		`update streams set name = 'game-other' where name = 'game-ro'`,
		`delete from streams`,
		`truncate streams`,
	} {
		_, err := pool.Exec(ctx, stmt)
		if err == nil || !pgtest.IsCode(err, "42501") {
			t.Errorf("%s: err = %v, want the append-only refusal", stmt, err)
			continue
		}
		if want := "append-only"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q does not say %q", stmt, err, want)
		}
	}
	got, _ := events.ReadStream(ctx, pool, "game-ro", 0)
	if len(got) != 1 || string(got[0].Data) != `{"n": 1}` {
		t.Fatalf("the event changed: %+v", got)
	}
}

func TestVerifyStreamCatchesAlteredAndDeletedEvents(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Open(t).Owner
	for _, s := range []string{"game-alter", "game-delete"} {
		if _, err := appendTx(ctx, pool, s, 0, ev("a", 1), ev("b", 2), ev("c", 3)); err != nil {
			t.Fatal(err)
		}
		if n, err := events.VerifyStream(ctx, pool, s); err != nil || n != 3 {
			t.Fatalf("verify intact %s: %d, %v", s, n, err)
		}
	}
	// Tamper as a superuser would, with the guard triggers disabled.
	tamper := func(stmt string) {
		t.Helper()
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "alter table event_log disable trigger user"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "alter table event_log enable trigger user")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	tamper(`update events set data = '{"n": 20}' where stream = 'game-alter' and version = 2`)
	tamper(`delete from events where stream = 'game-delete' and version = 2`)

	tests := []struct {
		stream  string
		version int
	}{{"game-alter", 2}, {"game-delete", 2}}
	for _, tt := range tests {
		_, err := events.VerifyStream(ctx, pool, tt.stream)
		var ce *events.ChainError
		if !errors.As(err, &ce) || ce.Version != tt.version {
			t.Errorf("%s: err = %v, want a chain error at version %d", tt.stream, err, tt.version)
		}
	}
}

// The service role (what `courrier serve` connects as) may read events and
// append them by their data columns, and nothing else: every other write is
// refused by PostgreSQL's privileges before any trigger runs.
func TestServiceRoleCannotRewriteTheLog(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Open(t)
	pool := db.Service
	var super bool
	if err := pool.QueryRow(ctx, "select rolsuper from pg_roles where rolname = current_user").Scan(&super); err != nil || super {
		t.Fatalf("the service pool is a superuser (%v): the test means nothing", err)
	}
	if _, err := appendTx(ctx, pool, "game-svc", 0, ev("a", 1)); err != nil {
		t.Fatalf("the service role cannot append: %v", err)
	}
	forbidden := []string{
		`update events set data = '{"n": 9}' where stream = 'game-svc'`,
		`delete from events where stream = 'game-svc'`,
		`truncate event_log`,
		`update event_log set data = '{"n": 9}'`,
		`delete from event_log`,
		`insert into event_log (stream_id, version, type, data, tx) values (1, 2, 'x', '{}', '1')`,
		`insert into event_log (stream_id, version, type, data, recorded_at) values (1, 2, 'x', '{}', now() - interval '1 day')`,
		`insert into event_log (position, stream_id, version, type, data) overriding system value values (1000000, 1, 2, 'x', '{}')`,
		`insert into event_log (stream_id, version, type, data, hash) values (1, 2, 'x', '{}', '\x00')`,
		`update streams set name = 'game-other'`,
		`delete from streams`,
		`insert into streams (id, name) overriding system value values (7, 'game-seven')`,
		`set session_replication_role = replica`,
		`alter table event_log disable trigger user`,
		`drop trigger events_no_update on event_log`,
		`drop view events`,
		`create table sneaky (x int)`,
		`delete from game_secrets`,
		`alter role current_user superuser`,
	}
	for _, stmt := range forbidden {
		_, err := pool.Exec(ctx, stmt)
		if err == nil {
			t.Errorf("the service role may run %q", stmt)
			continue
		}
		if !pgtest.IsCode(err, "42501") {
			t.Errorf("%s: %v, want a privilege refusal (42501)", stmt, err)
		}
	}
	got, err := events.ReadStream(ctx, pool, "game-svc", 0)
	if err != nil || len(got) != 1 || string(got[0].Data) != `{"n": 1}` {
		t.Fatalf("the log changed: %+v, %v", got, err)
	}
}

// The store, not the writer, sets an event's transaction id and time: even
// the owner, naming them in an INSERT, gets the store's values.
func TestTheStoreSetsTxAndRecordedAt(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Open(t).Owner
	var tx, now string
	err := pgx.BeginFunc(ctx, pool, func(q pgx.Tx) error {
		if err := q.QueryRow(ctx, `select pg_current_xact_id()::text, now()::text`).Scan(&tx, &now); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `insert into event_log (stream_id, version, type, data, tx, recorded_at)
			values (stream_key('game-own'), 1, 'x', '{}', '1', '2000-01-01')`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var gotTx, gotAt string
	if err := pool.QueryRow(ctx, `select tx::text, recorded_at::text from events where stream = 'game-own'`).Scan(&gotTx, &gotAt); err != nil {
		t.Fatal(err)
	}
	if gotTx != tx || gotAt != now {
		t.Fatalf("stored tx %s at %s, want the store's %s at %s", gotTx, gotAt, tx, now)
	}
}

// Meta is stored with one-letter keys and read, hashed and verified with
// its own: a move whose text looks like a stored key, quotes and HTML
// characters included, comes back as it was sent, and the chain verifies
// in Go over what the view shows.
func TestMetaIsStoredCompactAndReadWhole(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Open(t).Owner
	seat := 2
	tests := []struct {
		name string
		meta events.Meta
	}{
		{"a move", events.Meta{Actor: "u-1", Seat: &seat, Channel: "api", Move: "bid 14"}},
		{"keys in the move's text", events.Meta{Actor: "u-2", Channel: "email", Move: `"m":"x","a": 1 \"s\": <&> ` + "\u2028 é"}},
		{"a system event", events.Meta{Channel: "system", Causation: "timer 9", RequestID: "req-1"}},
		{"nothing", events.Meta{}},
	}
	var evs []events.Event
	for i, tt := range tests {
		evs = append(evs, events.Event{Type: "t", Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), Meta: tt.meta})
	}
	rec, err := appendTx(ctx, pool, "game-meta", 0, evs...)
	if err != nil {
		t.Fatal(err)
	}
	read, err := events.ReadStream(ctx, pool, "game-meta", 0)
	if err != nil || len(read) != len(tests) {
		t.Fatalf("read %d events, %v", len(read), err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := json.Marshal(tt.meta)
			var stored string
			if err := pool.QueryRow(ctx, `select meta::text from event_log where version = $1`, i+1).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if len(stored) > len(want) || (len(want) > 2 && stored == string(want)) {
				t.Errorf("stored %s, want it shorter than %s", stored, want)
			}
			for _, got := range []json.RawMessage{rec[i].Meta, read[i].Meta} {
				var m events.Meta
				if err := json.Unmarshal(got, &m); err != nil {
					t.Fatal(err)
				}
				if back, _ := json.Marshal(m); string(back) != string(want) {
					t.Errorf("read %s, want %s", back, want)
				}
			}
			if string(rec[i].Meta) != string(read[i].Meta) {
				t.Errorf("the append returned %s, a read %s", rec[i].Meta, read[i].Meta)
			}
		})
	}
	if n, err := events.VerifyStream(ctx, pool, "game-meta"); err != nil || n != len(tests) {
		t.Fatalf("verify: %d, %v", n, err)
	}
}

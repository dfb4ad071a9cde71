// Package events is courrier's event store: an append-only, hash-chained log
// in PostgreSQL with one stream per game, per-stream optimistic concurrency,
// and a global feed that never skips an event that commits late.
package events

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Querier is what the store needs of a connection, pool or transaction.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Meta is who and what caused an event: the audit trail of a move. It is
// hashed into the log for ever, so it holds nothing personal or erasable: the
// actor is an opaque user id, and remote addresses, mail headers and mail
// authentication results go to the event_context table instead.
type Meta struct {
	Actor     string `json:"actor,omitempty"`   // the opaque user id of who acted
	Seat      *int   `json:"seat,omitempty"`    // the seat they acted for
	Channel   string `json:"channel,omitempty"` // api, email, cli, system
	RequestID string `json:"request_id,omitempty"`
	Causation string `json:"causation,omitempty"` // what caused a system event (e.g. a timer)
	Move      string `json:"move,omitempty"`      // the move as sent: private to its seat
}

// storedMeta is Meta as the log stores it: one-letter keys, which the
// store's event_meta function (the events view, the hash) reads back as
// Meta's own.
type storedMeta struct {
	Actor     string `json:"a,omitempty"`
	Seat      *int   `json:"s,omitempty"`
	Channel   string `json:"c,omitempty"`
	RequestID string `json:"r,omitempty"`
	Causation string `json:"k,omitempty"`
	Move      string `json:"m,omitempty"`
}

// Event is an event to append.
type Event struct {
	Type string
	Data json.RawMessage
	Meta Meta
}

// Recorded is an event as stored.
type Recorded struct {
	Position   int64           `json:"position"`
	Stream     string          `json:"stream"`
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	Data       json.RawMessage `json:"data"`
	Meta       json.RawMessage `json:"meta"`
	TX         uint64          `json:"tx"`
	RecordedAt time.Time       `json:"recorded_at"`
	Hash       []byte          `json:"hash"`
}

// ErrVersionConflict is returned (wrapped in a *VersionConflictError) when a
// stream is not at the version the writer expected: someone else appended
// first.
var ErrVersionConflict = errors.New("the stream has moved past the expected version")

// VersionConflictError says which stream and which expected version lost.
type VersionConflictError struct {
	Stream   string
	Expected int
}

// Error implements error.
func (e *VersionConflictError) Error() string {
	return fmt.Sprintf("append to %s at version %d: %v", e.Stream, e.Expected, ErrVersionConflict)
}

// Unwrap makes errors.Is(err, ErrVersionConflict) true.
func (e *VersionConflictError) Unwrap() error { return ErrVersionConflict }

// Append writes evs to stream as versions expected+1, expected+2, … inside
// tx. If the stream is not at version expected, it returns a
// *VersionConflictError; the transaction is then aborted and must be rolled
// back. Concurrent appends to one stream: exactly one wins. Appends to
// different streams never wait for each other.
func Append(ctx context.Context, tx pgx.Tx, stream string, expected int, evs []Event) ([]Recorded, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	b := &pgx.Batch{}
	var out []Recorded
	if err := QueueAppend(b, stream, expected, evs, &out); err != nil {
		return nil, err
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	return out, nil
}

// QueueAppend queues the append of evs to stream at version expected on b,
// so that a command sends it with its other writes in one round trip; when
// the batch is read, *out receives the recorded events, and a stream that is
// not at version expected fails the batch with a *VersionConflictError.
func QueueAppend(b *pgx.Batch, stream string, expected int, evs []Event, out *[]Recorded) error {
	types := make([]string, len(evs))
	datas := make([]string, len(evs))
	metas := make([]string, len(evs))
	versions := make([]int32, len(evs))
	for i, e := range evs {
		meta, err := json.Marshal(storedMeta(e.Meta))
		if err != nil {
			return fmt.Errorf("encode meta of %s: %w", e.Type, err)
		}
		v := expected + 1 + i
		if v > math.MaxInt32 {
			return fmt.Errorf("append to %s: version %d is beyond the store's range", stream, v)
		}
		types[i], datas[i], metas[i] = e.Type, string(e.Data), string(meta)
		versions[i] = int32(v) //nolint:gosec // G115: checked against MaxInt32 just above
	}
	// The stream's key comes from stream_key (which records a new stream);
	// data and meta are stored compact (meta with one-letter keys) and
	// returned in jsonb's text form with meta's full keys, as every read
	// returns them.
	b.Queue(`
		insert into event_log as e (stream_id, version, type, data, meta)
		select k.id, v, t, d::json, m::json
		from (select stream_key($1) as id) k,
			unnest($2::int[], $3::text[], $4::text[], $5::text[]) with ordinality as x(v, t, d, m, n)
		order by n
		returning e.position, $1::text, e.version, e.type, e.data::jsonb, event_meta(e.meta), e.tx::text, e.recorded_at, e.hash`,
		stream, versions, types, datas, metas).Query(func(rows pgx.Rows) error {
		recs, err := collect(rows)
		if err != nil {
			return appendError(stream, expected, err)
		}
		*out = recs
		return nil
	})
	return nil
}

func appendError(stream string, expected int, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "23514") {
		// 23505: someone already wrote that version; 23514: the stream is
		// behind the expected version (the chain trigger refuses gaps).
		return &VersionConflictError{Stream: stream, Expected: expected}
	}
	return fmt.Errorf("append to %s: %w", stream, err)
}

// columns are what a read selects from the events view (the log with each
// stream's name, data and meta as jsonb).
const columns = `position, stream, version, type, data, meta, tx::text, recorded_at, hash`

func collect(rows pgx.Rows) ([]Recorded, error) {
	defer rows.Close()
	var out []Recorded
	for rows.Next() {
		var r Recorded
		var tx string
		if err := rows.Scan(&r.Position, &r.Stream, &r.Version, &r.Type, &r.Data, &r.Meta, &tx, &r.RecordedAt, &r.Hash); err != nil {
			return nil, err
		}
		n, err := strconv.ParseUint(tx, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read tx id %q: %w", tx, err)
		}
		r.TX = n
		out = append(out, r)
	}
	return out, rows.Err()
}

// ReadStream returns the events of stream with version > after, in order.
func ReadStream(ctx context.Context, q Querier, stream string, after int) ([]Recorded, error) {
	rows, err := q.Query(ctx, `select `+columns+` from events where stream = $1 and version > $2 order by version`, stream, after)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", stream, err)
	}
	out, err := collect(rows)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", stream, err)
	}
	return out, nil
}

// QueueRead queues on b the read of stream's events with version > after;
// when the batch is read, *out receives them in order.
func QueueRead(b *pgx.Batch, stream string, after int, out *[]Recorded) {
	b.Queue(`select `+columns+` from events where stream = $1 and version > $2 order by version`, stream, after).
		Query(func(rows pgx.Rows) error {
			recs, err := collect(rows)
			if err != nil {
				return fmt.Errorf("read %s: %w", stream, err)
			}
			*out = recs
			return nil
		})
}

// StreamVersion returns the version of stream's last event (0 if none).
func StreamVersion(ctx context.Context, q Querier, stream string) (int, error) {
	var v int
	err := q.QueryRow(ctx, `select coalesce(max(version), 0) from events where stream = $1`, stream).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("version of %s: %w", stream, err)
	}
	return v, nil
}

// Streams lists every stream with the given prefix ("game-"), in order.
func Streams(ctx context.Context, q Querier, prefix string) ([]string, error) {
	rows, err := q.Query(ctx, `select s.name from streams s
		where starts_with(s.name, $1) and exists (select from event_log e where e.stream_id = s.id and e.version = 1)
		order by s.name`, prefix)
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	streams, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	return streams, nil
}

// Digest is the hash of one event as the database computes it:
// sha256(prev ‖ stream \n version \n type \n data \n meta \n microseconds),
// where data and meta are PostgreSQL's text form of the jsonb values the
// events view shows (meta with its full keys), whatever compact form the
// log stores.
func Digest(prev []byte, stream string, version int, typ, data, meta string, recordedAt time.Time) []byte {
	h := sha256.New()
	h.Write(prev)
	_, _ = fmt.Fprintf(h, "%s\n%d\n%s\n%s\n%s\n%d", stream, version, typ, data, meta, recordedAt.UnixMicro())
	return h.Sum(nil)
}

// PoolConfig parses a database URL into a pool configuration whose sessions
// run with courrier's settings, unless the URL sets them itself: no stray
// statement or forgotten transaction can hold the global feed back (the feed
// waits for the oldest running transaction) or stall a game's writers.
// `serve`, the tests and the benchmarks all open their pools from it.
func PoolConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	session := map[string]string{
		"statement_timeout":                   "30s",
		"idle_in_transaction_session_timeout": "15s",
		"lock_timeout":                        "10s",
	}
	for k, v := range session {
		if _, set := cfg.ConnConfig.RuntimeParams[k]; !set {
			cfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	return cfg, nil
}

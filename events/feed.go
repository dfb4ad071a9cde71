package events

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// Checkpoint is a position in the global feed: the (transaction id,
// position) pair of the last event a consumer handled. The zero value is the
// start of the feed.
type Checkpoint struct {
	TX       uint64 `json:"tx"`
	Position int64  `json:"position"`
}

// ReadFeed returns up to limit events after cp in (tx, position) order, only
// from transactions older than every transaction still running
// (pg_snapshot_xmin). An event whose transaction commits late is therefore
// never skipped: it stays invisible to the feed until everything before it
// has committed or aborted. The returned checkpoint is the last event's pair
// (cp itself when there is nothing new).
func ReadFeed(ctx context.Context, q Querier, cp Checkpoint, limit int) ([]Recorded, Checkpoint, error) {
	// The order names the view's columns (e.tx): a bare "tx" would be the
	// selected tx::text, ordering transaction ids as text ("10" < "9").
	rows, err := q.Query(ctx, `select `+columns+` from events e
		where e.tx >= $1::text::xid8 and (e.tx, e.position) > ($1::text::xid8, $2)
		  and e.tx < pg_snapshot_xmin(pg_current_snapshot())
		order by e.tx, e.position
		limit $3`, strconv.FormatUint(cp.TX, 10), cp.Position, limit)
	if err != nil {
		return nil, cp, fmt.Errorf("read feed: %w", err)
	}
	out, err := collect(rows)
	if err != nil {
		return nil, cp, fmt.Errorf("read feed: %w", err)
	}
	if len(out) > 0 {
		last := out[len(out)-1]
		cp = Checkpoint{TX: last.TX, Position: last.Position}
	}
	return out, cp, nil
}

// LoadCheckpoint returns consumer's saved checkpoint (zero if none).
func LoadCheckpoint(ctx context.Context, q Querier, consumer string) (Checkpoint, error) {
	var tx string
	var cp Checkpoint
	err := q.QueryRow(ctx, `select tx::text, position from feed_checkpoints where consumer = $1`, consumer).Scan(&tx, &cp.Position)
	if errors.Is(err, pgx.ErrNoRows) {
		return Checkpoint{}, nil
	}
	if err != nil {
		return cp, fmt.Errorf("load checkpoint of %s: %w", consumer, err)
	}
	if cp.TX, err = strconv.ParseUint(tx, 10, 64); err != nil {
		return cp, fmt.Errorf("load checkpoint of %s: %w", consumer, err)
	}
	return cp, nil
}

// SaveCheckpoint records consumer's checkpoint; call it in the transaction
// that applies the events it covers.
func SaveCheckpoint(ctx context.Context, q Querier, consumer string, cp Checkpoint) error {
	_, err := q.Exec(ctx, `insert into feed_checkpoints (consumer, tx, position) values ($1, $2::text::xid8, $3)
		on conflict (consumer) do update set tx = excluded.tx, position = excluded.position, updated_at = now()`,
		consumer, strconv.FormatUint(cp.TX, 10), cp.Position)
	if err != nil {
		return fmt.Errorf("save checkpoint of %s: %w", consumer, err)
	}
	return nil
}

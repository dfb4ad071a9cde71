package events

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// ChainError says where a stream's hash chain breaks: the first event whose
// stored hash is not the hash of its content and its predecessor's hash, or a
// missing version.
type ChainError struct {
	Stream  string
	Version int
	Reason  string
}

// Error implements error.
func (e *ChainError) Error() string {
	return fmt.Sprintf("hash chain of %s broken at version %d: %s", e.Stream, e.Version, e.Reason)
}

// VerifyStream recomputes stream's hash chain in Go from the stored content
// (as the events view reads it)
// and returns a *ChainError at the first event that does not match: an event
// changed or deleted after it was written is detected. It returns the number
// of events checked.
func VerifyStream(ctx context.Context, q Querier, stream string) (int, error) {
	rows, err := q.Query(ctx, `select version, type, data::text, meta::text, recorded_at, hash
		from events where stream = $1 order by version`, stream)
	if err != nil {
		return 0, fmt.Errorf("verify %s: %w", stream, err)
	}
	defer rows.Close()
	var prev []byte
	n := 0
	for rows.Next() {
		var (
			version         int
			typ, data, meta string
			recordedAt      time.Time
			hash            []byte
		)
		if err := rows.Scan(&version, &typ, &data, &meta, &recordedAt, &hash); err != nil {
			return n, fmt.Errorf("verify %s: %w", stream, err)
		}
		if version != n+1 {
			return n, &ChainError{Stream: stream, Version: n + 1, Reason: "the event is missing"}
		}
		want := Digest(prev, stream, version, typ, data, meta, recordedAt)
		if !bytes.Equal(want, hash) {
			return n, &ChainError{Stream: stream, Version: version, Reason: "its content or a predecessor was altered"}
		}
		prev = hash
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("verify %s: %w", stream, err)
	}
	return n, nil
}

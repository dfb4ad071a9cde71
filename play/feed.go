package play

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
)

// ReadGame reads a game's whole stream (a refusal with CodeNotFound when the
// game has none). With HistoryOf it lets a reader that serves many seats of
// one game (the live hub) read the stream once and redact it for each.
//
// What it returns is on the synchronous standbys: the read is followed by a
// barrier (events.Durable) in its transaction. A live stream tells each
// version once, and a client resumes after the last it was told: a version
// told from a primary that crashed and replayed a commit its standby never
// had would be replaced by another after a failover, and the client would
// never be told that one.
func (s *Service) ReadGame(ctx context.Context, gameID string) ([]events.Recorded, error) {
	var recorded []events.Recorded
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if recorded, err = events.ReadStream(ctx, tx, Stream(gameID), 0); err != nil {
			return err
		}
		return events.Durable(ctx, tx)
	})
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", gameID, err)
	}
	if len(recorded) == 0 {
		return nil, refuse(CodeNotFound, "refusal.game_unknown", gameID)
	}
	return recorded, nil
}

// HistoryOf is History on a stream already read with ReadGame: the events
// after version after as user's seat may see them.
func (s *Service) HistoryOf(gameID, user string, recorded []events.Recorded, after int) ([]Change, error) {
	return s.history(gameID, user, recorded, after)
}

package play

import (
	"context"

	"github.com/courrier-games/courrier/events"
)

// ReadGame reads a game's whole stream (a refusal with CodeNotFound when the
// game has none). With HistoryOf it lets a reader that serves many seats of
// one game (the live hub) read the stream once and redact it for each.
func (s *Service) ReadGame(ctx context.Context, gameID string) ([]events.Recorded, error) {
	return s.readGame(ctx, gameID)
}

// HistoryOf is History on a stream already read with ReadGame: the events
// after version after as user's seat may see them.
func (s *Service) HistoryOf(gameID, user string, recorded []events.Recorded, after int) ([]Change, error) {
	return s.history(gameID, user, recorded, after)
}

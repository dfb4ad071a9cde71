package play

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/projections"
)

// Change is one event of a game as a seat may see it.
type Change struct {
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	Data       json.RawMessage `json:"data"`
	RecordedAt time.Time       `json:"recorded_at"`
}

// Load folds a game from its stream.
func (s *Service) Load(ctx context.Context, gameID string) (*Table, error) {
	recorded, err := events.ReadStream(ctx, s.pool, Stream(gameID), 0)
	if err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		return nil, refuse(CodeNotFound, "there is no game %q", gameID)
	}
	return fold(s.reg, gameID, recorded)
}

// History returns the game's events after version after, as seat may see
// them: a game's own events redacted by the game, lifecycle events without
// other people's user identities.
func (s *Service) History(ctx context.Context, gameID string, seat games.Seat, after int) ([]Change, error) {
	recorded, err := events.ReadStream(ctx, s.pool, Stream(gameID), 0)
	if err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		return nil, refuse(CodeNotFound, "there is no game %q", gameID)
	}
	var kind string
	var eng games.Engine
	out := make([]Change, 0, len(recorded))
	for _, e := range recorded {
		data := e.Data
		switch e.Type {
		case TypeCreated:
			var c Created
			if err := json.Unmarshal(e.Data, &c); err != nil {
				return nil, fmt.Errorf("decode %s: %w", e.Type, err)
			}
			if eng, err = s.reg.Get(c.Kind); err != nil {
				return nil, err
			}
			kind = c.Kind
			data, _ = json.Marshal(struct {
				Kind       string        `json:"kind"`
				Options    games.Options `json:"options"`
				Commitment string        `json:"seed_sha256"`
			}{c.Kind, c.Options, c.Commitment})
		case TypeJoined:
			var j Joined
			if err := json.Unmarshal(e.Data, &j); err != nil {
				return nil, fmt.Errorf("decode %s: %w", e.Type, err)
			}
			data, _ = json.Marshal(struct {
				Name string `json:"name"`
			}{j.Name})
		case TypeResigned:
			var r Resigned
			if err := json.Unmarshal(e.Data, &r); err != nil {
				return nil, fmt.Errorf("decode %s: %w", e.Type, err)
			}
			data, _ = json.Marshal(struct {
				Seat games.Seat `json:"seat"`
			}{r.Seat})
		case TypeStarted, TypeEnded:
		default:
			typ := strings.TrimPrefix(e.Type, kind+".")
			red, err := eng.Redact(games.RawEvent{Type: typ, Data: e.Data}, seat)
			if err != nil {
				return nil, err
			}
			data = red.Data
		}
		if e.Version > after {
			out = append(out, Change{Version: e.Version, Type: e.Type, Data: data, RecordedAt: e.RecordedAt})
		}
	}
	return out, nil
}

// RebuildProjections recomputes every inline projection from the event log
// alone, in one transaction, and returns the number of games rebuilt.
func (s *Service) RebuildProjections(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := projections.Clear(ctx, tx); err != nil {
			return err
		}
		streams, err := events.Streams(ctx, tx, "game-")
		if err != nil {
			return err
		}
		for _, stream := range streams {
			recorded, err := events.ReadStream(ctx, tx, stream, 0)
			if err != nil {
				return err
			}
			t, err := fold(s.reg, strings.TrimPrefix(stream, "game-"), recorded)
			if err != nil {
				return err
			}
			g, views, err := t.Project()
			if err != nil {
				return err
			}
			if err := projections.Save(ctx, tx, g, views); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("rebuild projections: %w", err)
	}
	return n, nil
}

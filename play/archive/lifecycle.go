package archive

import (
	"encoding/json"
	"fmt"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// The lifecycle events' types that play writes and the walks read (play's
// TypeCreated, … are these), and the meta's channel of a default played at
// a deadline. A stored event's type is the log's format, fixed for ever.
const (
	// TypeCreated is the type of a game's first event.
	TypeCreated   = "game.created"
	TypeStarted   = "game.started"
	TypeResigned  = "game.resigned"
	TypeEnded     = "game.ended"
	TypeTimedOut  = "game.timed_out"
	ChannelSystem = "system" // the meta's channel of a default played at a deadline
)

// resigned is the data of a game.resigned event.
type resigned struct {
	Seat games.Seat `json:"seat"`
}

// ended is the data of a game.ended event.
type ended struct {
	Result games.Result `json:"result"`
	Seed   string       `json:"seed"`
}

// timedOut is the data of a game.timed_out event.
type timedOut struct {
	Seat  games.Seat `json:"seat"`
	Kind  string     `json:"kind"`
	Since int        `json:"since"`
}

// revealedSeed is the seed an Ended event of rec reveals, if any.
func revealedSeed(rec []events.Recorded) *games.Seed {
	for _, e := range rec {
		if e.Type != TypeEnded {
			continue
		}
		var en ended
		if json.Unmarshal(e.Data, &en) != nil {
			return nil
		}
		sd, err := games.ParseSeed(en.Seed)
		if err != nil {
			return nil
		}
		return &sd
	}
	return nil
}

// decodeMeta reads an event's meta (zero when absent or unreadable).
func decodeMeta(raw json.RawMessage) events.Meta {
	var m events.Meta
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &m) // a meta that does not decode names no move: the audit says so
	}
	return m
}

// wrapVersion names the game and version an error of the fold is at.
func wrapVersion(gameID string, version int, err error) error {
	return fmt.Errorf("game %s version %d: %w", gameID, version, err)
}

package archive

import (
	"encoding/json"
	"fmt"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// What the walks read of play's lifecycle events, as play writes them
// (play.TypeCreated, play.Ended, …). A stored event's type and data are the
// log's format, fixed for ever, so naming them here again cannot drift
// without breaking every stored game: play's audit tests and this package's
// own (which write their games with play's names) would fail first.
const (
	typeCreated   = "game.created"
	typeStarted   = "game.started"
	typeResigned  = "game.resigned"
	typeEnded     = "game.ended"
	typeTimedOut  = "game.timed_out"
	channelSystem = "system" // the meta's channel of a default played at a deadline
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
		if e.Type != typeEnded {
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

package archive

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// ReplayStep is one version of a game as a viewer saw it then: the event,
// redacted and described for the viewer, and the viewer's view after it.
type ReplayStep struct {
	Version int             `json:"version"`
	Type    string          `json:"type"`
	Text    games.Phrase    `json:"text"`
	At      time.Time       `json:"recorded_at"`
	Meta    ServedMeta      `json:"meta"`
	Data    json.RawMessage `json:"data"`
	// View is the viewer's view after this event (null before the start).
	View json.RawMessage `json:"view"`
	// Reveal is the full reveal, for a viewer who may have it.
	Reveal *Reveal `json:"reveal,omitempty"`
	// Talk is the table talk the viewer may read said at this version
	// (play's talk stream: never part of the game's events).
	Talk []TalkLine `json:"talk,omitempty"`
}

// TalkLine is a message of the table talk as a record or a replay shows
// it: who said it to whom, and what (or that the referee hid it), said
// in the reader's language.
type TalkLine struct {
	Heading games.Phrase `json:"heading"`
	Text    games.Phrase `json:"text"`
}

// Reveal is everything at one version: the event as stored, the move as
// typed, and every seat's view.
type Reveal struct {
	Data  json.RawMessage   `json:"data"`
	Move  string            `json:"move,omitempty"`
	Views []json.RawMessage `json:"views"`
}

// ReplaySteps folds recorded event by event with newFold and returns, for each version up
// to to (0: all), the event as viewer saw it and viewer's view after it.
func ReplaySteps(newFold Folder, gameID string, recorded []events.Recorded, viewer Viewer, to int) ([]ReplayStep, error) {
	return replaySteps(newFold, gameID, recorded, viewer, to, true)
}

// replaySteps is ReplaySteps, with the views only when views is set (a
// record needs the events, not the boards).
func replaySteps(newFold Folder, gameID string, recorded []events.Recorded, viewer Viewer, to int, views bool) ([]ReplayStep, error) {
	if to <= 0 || to > len(recorded) {
		to = len(recorded)
	}
	f := newFold(gameID)
	out := make([]ReplayStep, 0, to)
	for _, e := range recorded[:to] {
		seat := viewer.Seat
		if e.Version < viewer.From {
			seat = games.Spectator
		}
		c, err := f.Describe(e, seat)
		if err != nil {
			return nil, wrapVersion(gameID, e.Version, err)
		}
		step := ReplayStep{Version: e.Version, Type: e.Type, Text: c.Text, At: e.RecordedAt, Meta: c.Meta, Data: c.Data, View: json.RawMessage("null")}
		if viewer.Full {
			step.Reveal = &Reveal{Data: c.Data, Move: decodeMeta(e.Meta).Move, Views: []json.RawMessage{}}
			if kind := f.Game().Kind; kind != "" && strings.HasPrefix(e.Type, kind+".") {
				step.Reveal.Data = e.Data
			}
		}
		if err := f.Apply(e); err != nil {
			return nil, wrapVersion(gameID, e.Version, err)
		}
		if g := f.Game(); g.State != nil && views {
			view, err := g.Engine.View(g.State, seat)
			if err != nil {
				return nil, err
			}
			step.View = view
			if step.Reveal != nil {
				for s := range len(g.players()) {
					v, err := g.Engine.View(g.State, games.Seat(s))
					if err != nil {
						return nil, err
					}
					step.Reveal.Views = append(step.Reveal.Views, v)
				}
			}
		}
		out = append(out, step)
	}
	return out, nil
}

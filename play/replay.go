package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// Viewer is who a replay or a record is for: a seat (games.Spectator for
// the public), the version from which they hold it (a player who took over
// a seat sees it from then on; before, the public's view), and whether they
// get the full reveal (every hand, every shuffle, every move as typed).
type Viewer struct {
	Seat games.Seat
	From int
	Full bool
}

// ReplayStep is one version of a game as a viewer saw it then: the event,
// redacted and described for the viewer, and the viewer's view after it.
type ReplayStep struct {
	Version int             `json:"version"`
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	At      time.Time       `json:"recorded_at"`
	Meta    ServedMeta      `json:"meta"`
	Data    json.RawMessage `json:"data"`
	// View is the viewer's view after this event (null before the start).
	View json.RawMessage `json:"view"`
	// Reveal is the full reveal, for a viewer who may have it.
	Reveal *Reveal `json:"reveal,omitempty"`
}

// Reveal is everything at one version: the event as stored, the move as
// typed, and every seat's view.
type Reveal struct {
	Data  json.RawMessage   `json:"data"`
	Move  string            `json:"move,omitempty"`
	Views []json.RawMessage `json:"views"`
}

// ViewerOf returns who user is to a game: their seat (the public's until
// the end for a player who resigned), the version from which they hold it,
// and whether they get the full reveal. ok is false when user neither plays
// the game nor referees it (and the game has started: an open game is
// public).
func (t *Table) ViewerOf(user string) (v Viewer, ok bool) {
	seat := t.SeatOf(user)
	if slices.Contains(t.Resigned, seat) && !t.Ended {
		seat = games.Spectator
	}
	v = Viewer{Seat: seat, From: t.replacedAt[user], Full: t.FullReveal(user)}
	ok = !t.Started || t.SeatOf(user) != games.Spectator || (user != "" && user == t.Referee())
	return v, ok
}

// Replay returns a game's steps up to version to (0: all) as user may see
// them; a *Error (CodeForbidden) when user neither plays nor referees it.
func (s *Service) Replay(ctx context.Context, gameID, user string, to int) ([]ReplayStep, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	t, err := fold(s.reg, gameID, recorded)
	if err != nil {
		return nil, err
	}
	v, ok := t.ViewerOf(user)
	if !ok {
		return nil, refuse(CodeForbidden, "this is not your game: only its players and its referee can replay it")
	}
	return ReplaySteps(s.reg, gameID, recorded, v, to)
}

// ReplayAs returns a game's steps up to version to (0: all) as viewer saw
// them: for the operator's command line.
func (s *Service) ReplayAs(ctx context.Context, gameID string, viewer Viewer, to int) ([]ReplayStep, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return ReplaySteps(s.reg, gameID, recorded, viewer, to)
}

// ReplaySteps folds recorded event by event and returns, for each version up
// to to (0: all), the event as viewer saw it and viewer's view after it.
func ReplaySteps(reg *games.Registry, gameID string, recorded []events.Recorded, viewer Viewer, to int) ([]ReplayStep, error) {
	return replaySteps(reg, gameID, recorded, viewer, to, true)
}

// replaySteps is ReplaySteps, with the views only when views is set (a
// record needs the events, not the boards).
func replaySteps(reg *games.Registry, gameID string, recorded []events.Recorded, viewer Viewer, to int, views bool) ([]ReplayStep, error) {
	if to <= 0 || to > len(recorded) {
		to = len(recorded)
	}
	t := &Table{ID: gameID}
	out := make([]ReplayStep, 0, to)
	for _, e := range recorded[:to] {
		seat := viewer.Seat
		if e.Version < viewer.From {
			seat = games.Spectator
		}
		c, err := t.change(e, seat)
		if err != nil {
			return nil, fmt.Errorf("game %s version %d: %w", gameID, e.Version, err)
		}
		step := ReplayStep{Version: e.Version, Type: e.Type, Text: c.Text, At: e.RecordedAt, Meta: c.Meta, Data: c.Data, View: json.RawMessage("null")}
		if viewer.Full {
			step.Reveal = &Reveal{Data: c.Data, Move: decodeMeta(e.Meta).Move, Views: []json.RawMessage{}}
			if t.Kind != "" && strings.HasPrefix(e.Type, t.Kind+".") {
				step.Reveal.Data = e.Data
			}
		}
		if err := t.apply(reg, e, actorOf(e.Meta)); err != nil {
			return nil, fmt.Errorf("game %s version %d: %w", gameID, e.Version, err)
		}
		if t.State != nil && views {
			view, err := t.Engine.View(t.State, seat)
			if err != nil {
				return nil, err
			}
			step.View = view
			if step.Reveal != nil {
				for s := range t.seatCount() {
					v, err := t.Engine.View(t.State, games.Seat(s))
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

// ReplayAt returns the game at version (0: the latest) as user may see it,
// and the game's latest version.
func (s *Service) ReplayAt(ctx context.Context, gameID, user string, version int) (ReplayStep, int, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return ReplayStep{}, 0, err
	}
	t, err := fold(s.reg, gameID, recorded)
	if err != nil {
		return ReplayStep{}, 0, err
	}
	v, ok := t.ViewerOf(user)
	if !ok {
		return ReplayStep{}, 0, refuse(CodeForbidden, "this is not your game: only its players and its referee can replay it")
	}
	if version > t.Version {
		return ReplayStep{}, 0, refuse(CodeInvalid, "game %s has versions 1 to %d; there is no version %d", gameID, t.Version, version)
	}
	steps, err := ReplaySteps(s.reg, gameID, recorded, v, version)
	if err != nil {
		return ReplayStep{}, 0, err
	}
	return steps[len(steps)-1], t.Version, nil
}

package play

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/projections"
)

// Lifecycle event types, written by the command side around a game's own
// events. A game's own events are stored as "<kind>.<type>".
const (
	TypeCreated  = "game.created"
	TypeJoined   = "game.joined"
	TypeStarted  = "game.started"
	TypeResigned = "game.resigned"
	TypeEnded    = "game.ended"
)

// Created is the data of the first event of every game.
type Created struct {
	Kind    string        `json:"kind"`
	Options games.Options `json:"options"`
	// Commitment is the hex sha256 of the game's seed; the seed itself is
	// revealed by the Ended event.
	Commitment string `json:"seed_sha256"`
	Creator    string `json:"creator"`
}

// Joined is the data of a player taking a place before the start.
type Joined struct {
	User string `json:"user"`
	Name string `json:"name"`
}

// Resigned is the data of a player leaving a running game; the game's own
// resignation events follow it.
type Resigned struct {
	Seat games.Seat `json:"seat"`
	User string     `json:"user"`
}

// Ended closes a game: the result and the seed, so anyone can re-run every
// shuffle and compare it with the events.
type Ended struct {
	Result games.Result `json:"result"`
	Seed   string       `json:"seed"`
}

// Table is a game folded from its stream: the lifecycle around it and the
// game's own state.
type Table struct {
	ID         string
	Kind       string
	Engine     games.Engine
	Options    games.Options
	Commitment string
	Creator    string
	Joined     []Joined
	Started    bool
	Ended      bool
	State      games.State // nil before the start
	Version    int
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Stream is the event stream name of a game.
func Stream(gameID string) string { return "game-" + gameID }

// fold builds a table from a game's events.
func fold(reg *games.Registry, id string, evs []events.Recorded) (*Table, error) {
	t := &Table{ID: id}
	for _, e := range evs {
		if err := t.apply(reg, e); err != nil {
			return nil, fmt.Errorf("game %s version %d: %w", id, e.Version, err)
		}
	}
	return t, nil
}

// apply folds one recorded event into the table.
func (t *Table) apply(reg *games.Registry, e events.Recorded) error {
	switch e.Type {
	case TypeCreated:
		var c Created
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		eng, err := reg.Get(c.Kind)
		if err != nil {
			return err
		}
		t.Kind, t.Engine, t.Options, t.Commitment, t.Creator = c.Kind, eng, c.Options, c.Commitment, c.Creator
		t.CreatedAt = e.RecordedAt
	case TypeJoined:
		var j Joined
		if err := json.Unmarshal(e.Data, &j); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		t.Joined = append(t.Joined, j)
	case TypeStarted:
		t.Started = true
		t.State = t.Engine.Initial()
	case TypeResigned:
	case TypeEnded:
		t.Ended = true
	default:
		if t.Engine == nil || !t.Started {
			return fmt.Errorf("game event %s before the game started", e.Type)
		}
		typ, ok := strings.CutPrefix(e.Type, t.Kind+".")
		if !ok {
			return fmt.Errorf("event type %s does not belong to %s", e.Type, t.Kind)
		}
		var err error
		if t.State, err = t.Engine.Evolve(t.State, games.RawEvent{Type: typ, Data: e.Data}); err != nil {
			return err
		}
	}
	t.Version = e.Version
	t.UpdatedAt = e.RecordedAt
	return nil
}

// Status is the game's projection status.
func (t *Table) Status() string {
	switch {
	case t.Ended:
		return projections.StatusFinished
	case t.Started:
		return projections.StatusActive
	default:
		return projections.StatusOpen
	}
}

// Seats returns the players by seat once started, else in joining order with
// seat -1.
func (t *Table) Seats() []projections.Player {
	if !t.Started {
		out := make([]projections.Player, len(t.Joined))
		for i, j := range t.Joined {
			out[i] = projections.Player{Name: j.Name, User: j.User, Seat: -1}
		}
		return out
	}
	names := t.Engine.Players(t.State)
	out := make([]projections.Player, len(names))
	for seat, name := range names {
		out[seat] = projections.Player{Name: name, User: t.userOf(name), Seat: seat}
	}
	return out
}

func (t *Table) userOf(name string) string {
	for _, j := range t.Joined {
		if j.Name == name {
			return j.User
		}
	}
	return ""
}

// SeatOf returns the seat user plays, or games.Spectator.
func (t *Table) SeatOf(user string) games.Seat {
	if !t.Started || user == "" {
		return games.Spectator
	}
	i := slices.IndexFunc(t.Joined, func(j Joined) bool { return strings.EqualFold(j.User, user) })
	if i < 0 {
		return games.Spectator
	}
	seat := slices.Index(t.Engine.Players(t.State), t.Joined[i].Name)
	if seat < 0 {
		return games.Spectator
	}
	return games.Seat(seat)
}

// seatCount is the number of seated players (0 before the start).
func (t *Table) seatCount() int {
	if !t.Started {
		return 0
	}
	return len(t.Engine.Players(t.State))
}

// Project computes the table's inline projections: its list row and every
// seat's view (and the spectator's) with legal moves.
func (t *Table) Project() (projections.Game, []projections.SeatView, error) {
	g := projections.Game{
		ID: t.ID, Kind: t.Kind, Status: t.Status(), Options: t.Options, Players: t.Seats(),
		Version: t.Version, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
	if !t.Started {
		return g, nil, nil
	}
	g.ToAct = projections.PublicToAct(t.Engine.Pending(t.State))
	if res := t.Engine.Result(t.State); res.Finished {
		g.Result = &res
		g.ToAct = nil
	}
	seats := t.seatCount()
	views := make([]projections.SeatView, 0, seats+1)
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		v, err := t.Engine.View(t.State, seat)
		if err != nil {
			return g, nil, err
		}
		sv := projections.SeatView{GameID: t.ID, Seat: seat, Version: t.Version, View: v}
		if seat != games.Spectator && g.Result == nil {
			sv.Legal = t.Engine.Legal(t.State, seat)
		}
		views = append(views, sv)
	}
	return g, views, nil
}

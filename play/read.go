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
	"github.com/courrier-games/courrier/projections"
)

// Every read path of a game for a person goes through one function here that
// takes the person (their opaque user id, "" for the public) and returns only
// what their seat may see: the game's own events redacted and described by
// the game for that seat, lifecycle events without anyone's user id, and
// meta without the actor and with the move text only for the mover's own
// seat (a move as typed can name a hidden card).

// Change is one event of a game as a seat may see it.
type Change struct {
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	Data       json.RawMessage `json:"data"`
	Meta       ServedMeta      `json:"meta"`
	Text       games.Phrase    `json:"text"` // what happened, in words for that seat
	RecordedAt time.Time       `json:"recorded_at"`
}

// ServedMeta is the part of an event's meta a seat may see: through which
// channel and for which seat it was made, and the move as typed only when it
// was the viewer's own.
type ServedMeta struct {
	Seat    *int   `json:"seat,omitempty"`
	Channel string `json:"channel,omitempty"`
	Move    string `json:"move,omitempty"`
}

// Load folds a game from its stream (not from the command cache: the table
// is the caller's own).
func (s *Service) Load(ctx context.Context, gameID string) (*Table, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return fold(s.reg, gameID, recorded)
}

// readGame reads a game's whole stream; a game with none does not exist.
func (s *Service) readGame(ctx context.Context, gameID string) ([]events.Recorded, error) {
	recorded, err := events.ReadStream(ctx, s.pool, Stream(gameID), 0)
	if err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		return nil, refuse(CodeNotFound, "refusal.game_unknown", gameID)
	}
	return recorded, nil
}

// History returns the game's events after version after as user's seat may
// see them (the public's view for "" or a user without a seat).
func (s *Service) History(ctx context.Context, gameID, user string, after int) ([]Change, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return s.history(gameID, user, recorded, after)
}

// viewer is how a user reads a game's history: with the seat they play
// (games.Spectator for none, and for a player who resigned from a game
// still running: the hand they gave back is no longer theirs to see), from
// the version at which they took the seat over; at the table's version.
type viewer struct {
	seat    games.Seat
	took    int
	version int // 0: not known
}

// viewerOf is how user reads the table's history.
func (t *Table) viewerOf(user string) viewer {
	seat := t.SeatOf(user)
	if slices.Contains(t.Resigned, seat) && !t.Ended {
		seat = games.Spectator
	}
	return viewer{seat: seat, took: t.replacedAt[user], version: t.Version}
}

// history folds the whole stream and redacts and describes each event after
// version after on the state before it. The stream is folded twice: once
// whole to know the reader's seat (seated by the game's own setup events,
// which the reader's seat then redacts) and whether they resigned, once
// event by event.
func (s *Service) history(gameID, user string, recorded []events.Recorded, after int) ([]Change, error) {
	full, err := fold(s.reg, gameID, recorded)
	if err != nil {
		return nil, err
	}
	return s.historyAs(gameID, full.viewerOf(user), recorded, after)
}

// historyAs redacts and describes each event after version after as v
// reads it, folding the stream once.
func (s *Service) historyAs(gameID string, v viewer, recorded []events.Recorded, after int) ([]Change, error) {
	out, _, err := s.historyTable(gameID, v, recorded, after)
	return out, err
}

// historyTable is historyAs that also returns the table folded to the
// stream's end.
func (s *Service) historyTable(gameID string, v viewer, recorded []events.Recorded, after int) ([]Change, *Table, error) {
	t := &Table{ID: gameID}
	out := make([]Change, 0, len(recorded))
	for _, e := range recorded {
		if e.Version > after {
			seat := v.seat
			if e.Version < v.took {
				seat = games.Spectator // a player who took over a seat sees it from then on
			}
			c, err := t.change(e, seat)
			if err != nil {
				return nil, nil, fmt.Errorf("game %s version %d: %w", gameID, e.Version, err)
			}
			out = append(out, c)
		}
		if err := t.apply(s.reg, e, actorOf(e.Meta)); err != nil {
			return nil, nil, fmt.Errorf("game %s version %d: %w", gameID, e.Version, err)
		}
	}
	return out, t, nil
}

// change is event e, which applies to the table as it is, as seat sees it.
func (t *Table) change(e events.Recorded, seat games.Seat) (Change, error) {
	meta, err := decodeMeta(e.Meta)
	if err != nil {
		return Change{Version: e.Version, Type: e.Type, RecordedAt: e.RecordedAt, Data: e.Data}, err
	}
	return t.changeAs(e, meta, seat)
}

// decodeMeta decodes an event's meta (none: the zero Meta).
func decodeMeta(raw json.RawMessage) (events.Meta, error) {
	var meta events.Meta
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return meta, fmt.Errorf("decode meta: %w", err)
		}
	}
	return meta, nil
}

// changeAs is change with the event's meta decoded.
func (t *Table) changeAs(e events.Recorded, meta events.Meta, seat games.Seat) (Change, error) {
	c := Change{Version: e.Version, Type: e.Type, RecordedAt: e.RecordedAt, Data: e.Data}
	c.Meta = ServedMeta{Seat: meta.Seat, Channel: meta.Channel}
	if meta.Seat != nil && games.Seat(*meta.Seat) == seat && seat != games.Spectator {
		c.Meta.Move = meta.Move
	}
	var err error
	switch e.Type {
	case TypeCreated:
		var cr Created
		if err := json.Unmarshal(e.Data, &cr); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Data, err = json.Marshal(struct {
			Kind       string            `json:"kind"`
			Options    games.Options     `json:"options"`
			Rules      int               `json:"rules_version"`
			Shuffle    string            `json:"shuffle,omitempty"`
			Commitment string            `json:"seed_sha256"`
			Deadlines  map[string]string `json:"deadlines,omitempty"`
			Weekdays   []string          `json:"weekdays,omitempty"`
		}{cr.Kind, cr.Options, max(cr.Rules, 1), cr.Shuffle, cr.Commitment, cr.Deadlines, cr.Weekdays})
		c.Text = words.Phrase("change.created")
	case TypeJoined:
		var j Joined
		if err := json.Unmarshal(e.Data, &j); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Data, err = json.Marshal(struct {
			Name string `json:"name"`
		}{j.Name})
		c.Text = words.Phrase("change.joined", j.Name)
	case TypeInvited:
		var in Invited
		if err := json.Unmarshal(e.Data, &in); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Data, err = json.Marshal(struct {
			Invited int `json:"invited"`
		}{len(in.Users)})
		c.Text = words.Phrase("change.invited", len(in.Users))
	case TypeStarted:
		c.Text = words.Phrase("change.started")
	case TypeResigned:
		var r Resigned
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Data, err = json.Marshal(struct {
			Seat games.Seat `json:"seat"`
		}{r.Seat})
		c.Text = words.Phrase("change.resigned", t.nameText(r.Seat))
		if r.Seat == seat {
			c.Text = words.Phrase("change.you_resigned")
		}
	case TypeAway:
		var a Away
		if err := json.Unmarshal(e.Data, &a); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		until := whenText(a.Until.UTC())
		c.Text = words.Phrase("change.away", t.nameText(a.Seat), until)
		if a.Seat == seat {
			c.Text = words.Phrase("change.you_away", until)
		}
	case TypeReplaced:
		var r Replaced
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Data, err = json.Marshal(struct {
			Seat games.Seat `json:"seat"`
		}{r.Seat}) // never the user id
		c.Text = words.Phrase("change.replaced", int(r.Seat), t.nameText(r.Seat))
		if r.Seat == seat {
			c.Text = words.Phrase("change.you_replaced")
		}
	case TypeTimedOut:
		var to TimedOut
		if err := json.Unmarshal(e.Data, &to); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Text = words.Phrase("change.timed_out", t.nameText(to.Seat))
		if to.Seat == seat {
			c.Text = words.Phrase("change.you_timed_out")
		}
	case TypeAbandoned:
		var a Abandoned
		if err := json.Unmarshal(e.Data, &a); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Text = words.Phrase("change.abandoned", t.nameText(a.Seat), AbandonAfter)
		if a.Seat == seat {
			c.Text = words.Phrase("change.you_abandoned", AbandonAfter)
		}
	case TypeBack:
		var b Back
		if err := json.Unmarshal(e.Data, &b); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Text = words.Phrase("change.back", t.nameText(b.Seat))
		if b.Seat == seat {
			c.Text = words.Phrase("change.you_back")
		}
	case TypeDisputed, TypeRuled:
		c.Text, err = t.disputeText(e.Type, e.Data, seat)
	case TypeTakeBackAsked, TypeTakeBackAnswered, TypeTakeBackClosed, TypeTakenBack:
		c.Text, err = t.takeBackText(e.Type, e.Data, seat)
	case TypeEnded:
		var en Ended
		if err := json.Unmarshal(e.Data, &en); err != nil {
			return c, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		c.Text = words.Phrase("change.game_over")
		if !en.Result.Summary.IsZero() {
			c.Text = words.Phrase("change.game_over_with", en.Result.Summary)
		}
	default:
		typ := strings.TrimPrefix(e.Type, t.Kind+".")
		raw := games.RawEvent{Type: typ, Data: e.Data}
		red, err := t.Engine.Redact(t.State, raw, seat)
		if err != nil {
			return c, err
		}
		c.Data = red.Data
		if c.Text, err = t.Engine.Describe(t.State, red, seat); err != nil {
			return c, err
		}
	}
	return c, err
}

// nameOf is the name of the player at seat as anyone refers to them
// ("Seat 2" before the game names its players): a value of the log and
// the records, the same in every language.
func (t *Table) nameOf(seat games.Seat) string {
	if t.State != nil {
		if names := t.Engine.Players(t.State); int(seat) >= 0 && int(seat) < len(names) {
			return names[seat]
		}
	}
	return fmt.Sprintf("Seat %d", seat)
}

// nameText is the name of the player at seat in a sentence: their name,
// or "Seat 2" in the reader's language before the game names its players.
func (t *Table) nameText(seat games.Seat) any {
	if t.State != nil {
		if names := t.Engine.Players(t.State); int(seat) >= 0 && int(seat) < len(names) {
			return names[seat]
		}
	}
	return games.T("name.seat", int(seat))
}

// GameFor returns a game's list row as anyone may see it (no user ids).
func (s *Service) GameFor(ctx context.Context, gameID string) (projections.Game, error) {
	return projections.GetGame(ctx, s.pool, gameID)
}

// Commitment returns the sha256 of a game's seed, public from its creation
// (game.created publishes it; game.ended reveals the seed): one query.
func (s *Service) Commitment(ctx context.Context, gameID string) (string, error) {
	var c string
	err := s.pool.QueryRow(ctx, `select coalesce(data->>'seed_sha256', '') from events where stream = $1 and version = 1 and type = $2`,
		Stream(gameID), TypeCreated).Scan(&c)
	if err != nil {
		return "", fmt.Errorf("read the seed commitment of game %s: %w", gameID, err)
	}
	return c, nil
}

// GameAndViewFor returns a game's row and user's seat view of it, in one
// query (see projections.GetGameForUser): what an answer about a game to a
// person needs.
func (s *Service) GameAndViewFor(ctx context.Context, gameID, user string) (projections.Game, projections.SeatView, error) {
	return projections.GetGameForUser(ctx, s.pool, gameID, user)
}

// ViewFor returns user's seat view of a game (the public view for "" or a
// user without a seat), at the game's current version: one query, which
// finds the user's seat in the games row and reads that seat's view.
func (s *Service) ViewFor(ctx context.Context, gameID, user string) (projections.SeatView, error) {
	return projections.GetViewOfUser(ctx, s.pool, gameID, user)
}

// GamesOf lists the games user plays or played in, most recent first (at
// most limit), with the seat they hold in each.
func (s *Service) GamesOf(ctx context.Context, user string, limit int) ([]projections.GameOfUser, error) {
	return projections.ListGamesOf(ctx, s.pool, user, limit)
}

// Games lists games of a status ("" for all), newest activity first.
func (s *Service) Games(ctx context.Context, status string, limit int) ([]projections.Game, error) {
	return projections.ListGames(ctx, s.pool, status, limit)
}

// Registry returns the games this service plays.
func (s *Service) Registry() *games.Registry { return s.reg }

// GameIDs lists the ids of every game in the log.
func (s *Service) GameIDs(ctx context.Context) ([]string, error) {
	streams, err := events.Streams(ctx, s.pool, "game-")
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(streams))
	for i, st := range streams {
		ids[i] = strings.TrimPrefix(st, "game-")
	}
	return ids, nil
}

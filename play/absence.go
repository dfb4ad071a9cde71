package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/courrier-games/courrier/games"
)

// The lifecycle events of an absence.
const (
	TypeAway = "game.away"
	TypeBack = "game.back"
)

// DefaultAbsenceBound is how long, in all, a player may be away in one game
// (the game's "away" deadline key overrides it).
const DefaultAbsenceBound = 14 * 24 * time.Hour

// Away is the data of a player declaring an absence: their deadlines are
// paused until Until (or until they are back).
type Away struct {
	Seat  games.Seat `json:"seat"`
	Until time.Time  `json:"until"`
}

// Back is the data of a player ending their absence early.
type Back struct {
	Seat games.Seat `json:"seat"`
}

// absence is one declared absence of a seat, from when it was recorded.
type absence struct{ from, until time.Time }

// pausedIn returns by how much a seat's absences push back a deadline
// that would be at due for an entry opened at opened: every part of an
// absence after the opening and before the (pushed back) deadline.
func (t *Table) pausedIn(seat games.Seat, opened, due time.Time) time.Time {
	for _, a := range t.absences[seat] {
		if !a.from.Before(due) || !a.until.After(opened) {
			continue
		}
		start := a.from
		if start.Before(opened) {
			start = opened
		}
		due = due.Add(a.until.Sub(start))
	}
	return due
}

// awayUntil is when seat's current absence ends (false when not away at
// now).
func (t *Table) awayUntil(seat games.Seat, now time.Time) (time.Time, bool) {
	as := t.absences[seat]
	if len(as) == 0 {
		return time.Time{}, false
	}
	last := as[len(as)-1]
	return last.until, last.until.After(now)
}

// absent is how long seat has been or will be away in all.
func (t *Table) absent(seat games.Seat) time.Duration {
	var d time.Duration
	for _, a := range t.absences[seat] {
		d += a.until.Sub(a.from)
	}
	return d
}

// applyAbsence folds an absence event recorded at at.
func (t *Table) applyAbsence(typ string, data []byte, at time.Time) error {
	if t.absences == nil {
		t.absences = map[games.Seat][]absence{}
	}
	switch typ {
	case TypeAway:
		var a Away
		if err := decode(typ, data, &a); err != nil {
			return err
		}
		t.absences[a.Seat] = append(t.absences[a.Seat], absence{from: at, until: a.Until})
	case TypeBack:
		var b Back
		if err := decode(typ, data, &b); err != nil {
			return err
		}
		if as := t.absences[b.Seat]; len(as) > 0 && as[len(as)-1].until.After(at) {
			as[len(as)-1].until = at
		}
	}
	return nil
}

// AwayFor declares the actor away from a game for d: their deadlines stop
// running until they are back (at most the game's bound in all, 14 days
// by default). The others see until when.
func (s *Service) AwayFor(ctx context.Context, actor Actor, gameID string, d time.Duration) (Outcome, error) {
	req := replyRequest(gameID, Reply{Verb: VerbAway, For: d})
	return s.exec(ctx, actor, req, awayCmd(actor, d))
}

// awayCmd is the decision of AwayFor.
func awayCmd(actor Actor, d time.Duration) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		if d < time.Hour {
			return refuse(CodeInvalid, "refusal.absence_short")
		}
		if until, away := t.awayUntil(seat, c.now); away {
			return refuse(CodeConflict, "refusal.already_away", whenText(until.UTC()))
		}
		bound := DefaultAbsenceBound
		if b, ok := t.Deadlines["away"]; ok {
			bound = b
		}
		if left := bound - t.absent(seat); d > left {
			return refuse(CodeInvalid, "refusal.absence_bound", durationText(bound), durationText(left.Round(time.Hour)))
		}
		// No acting seat in the meta: an absence is not a move, and the
		// seat's pending entries keep their identities.
		c.retimed = &seat
		return c.stage(TypeAway, Away{Seat: seat, Until: c.now.Add(d).UTC()}, "")
	}
}

// BackNow ends the actor's absence from a game: their deadlines run again.
func (s *Service) BackNow(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	req := replyRequest(gameID, Reply{Verb: VerbBack})
	return s.exec(ctx, actor, req, backCmd(actor))
}

// backCmd is the decision of BackNow.
func backCmd(actor Actor) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		if _, away := t.awayUntil(seat, c.now); !away && !slices.Contains(t.Abandoned, seat) {
			return refuse(CodeConflict, "refusal.not_away", t.ID)
		}
		c.retimed = &seat
		return c.stage(TypeBack, Back{Seat: seat}, "")
	}
}

// decode reads an event's data.
func decode(typ string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", typ, err)
	}
	return nil
}

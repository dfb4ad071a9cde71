package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
)

// The lifecycle events of timeouts, abandoned seats and claims.
const (
	TypeTimedOut  = archive.TypeTimedOut
	TypeAbandoned = "game.abandoned"
)

// AbandonAfter is how many deadlines in a row a seat may miss before it is
// marked abandoned: from then on its decisions take their default moves at
// once, until its player writes back.
const AbandonAfter = 3

// TimedOut is the data of a deadline passing: the entry whose default the
// system plays next.
type TimedOut struct {
	Seat  games.Seat `json:"seat"`
	Kind  string     `json:"kind"`
	Since int        `json:"since"`
}

// Abandoned is the data of a seat marked abandoned.
type Abandoned struct {
	Seat games.Seat `json:"seat"`
}

// applyTimeouts folds the timeout events and counts each seat's deadlines
// missed in a row (a move of the seat's own resets its count).
func (t *Table) applyTimeouts(typ string, data []byte) error {
	if t.timeouts == nil {
		t.timeouts = map[games.Seat]int{}
	}
	switch typ {
	case TypeTimedOut:
		var to TimedOut
		if err := json.Unmarshal(data, &to); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		t.timeouts[to.Seat]++
	case TypeAbandoned:
		var a Abandoned
		if err := json.Unmarshal(data, &a); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		if !slices.Contains(t.Abandoned, a.Seat) {
			t.Abandoned = append(t.Abandoned, a.Seat)
		}
	}
	return nil
}

// playedBy notes a game event made by a seat: its own move (not a
// default) brings it back and resets its count of missed deadlines.
func (t *Table) playedBy(by eventActor) {
	if by.seat == games.Spectator || by.system {
		return
	}
	delete(t.timeouts, by.seat)
	t.Abandoned = slices.DeleteFunc(t.Abandoned, func(s games.Seat) bool { return s == by.seat })
}

// cameBack notes a seat's player writing back: not abandoned any more.
func (t *Table) cameBack(seat games.Seat) {
	delete(t.timeouts, seat)
	t.Abandoned = slices.DeleteFunc(t.Abandoned, func(s games.Seat) bool { return s == seat })
}

// Result is the game's result: the engine's, or the one its end recorded
// (a claim ends a game its engine has not finished).
func (t *Table) Result() games.Result {
	if t.endResult != nil {
		return *t.endResult
	}
	if t.Engine == nil || t.State == nil {
		return games.Result{}
	}
	return t.Engine.Result(t.State)
}

// Claim ends a game for the last player still in it, when every other seat
// resigned or was abandoned: the claimer wins.
func (s *Service) Claim(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	req := replyRequest(gameID, Reply{Verb: VerbClaim})
	return s.exec(ctx, actor, req, claimCmd(actor))
}

// claimCmd is the decision of Claim.
func claimCmd(actor Actor) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		if slices.Contains(t.Resigned, seat) {
			return refuse(CodeConflict, "refusal.resigned", t.ID)
		}
		players := t.Engine.Players(t.State)
		var still []string
		for i, name := range players {
			other := games.Seat(i)
			if other != seat && !slices.Contains(t.Resigned, other) && !slices.Contains(t.Abandoned, other) {
				still = append(still, name)
			}
		}
		if len(still) > 0 {
			return refuse(CodeConflict, "refusal.claim_early", sayList(still))
		}
		if t.seed == nil {
			return fmt.Errorf("game %s has no seed to reveal", t.ID)
		}
		res := games.Result{Finished: true, Winners: []games.Seat{seat},
			Summary: words.Phrase("summary.claims", players[seat])}
		if err := c.endTakeBack(); err != nil {
			return err
		}
		c.reveal = true
		return c.stage(TypeEnded, Ended{Result: res, Seed: t.seed.String()}, "")
	}
}

package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
)

// TypeReplaced is the lifecycle event of a seat taken over by another
// player.
const TypeReplaced = "game.replaced"

// Replaced is the data of a seat taken over: from this event on, User
// plays it (under the seat's name).
type Replaced struct {
	Seat games.Seat `json:"seat"`
	User string     `json:"user"`
}

// applyReplaced folds a replacement recorded at version.
func (t *Table) applyReplaced(data []byte, version int) error {
	var r Replaced
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("decode %s: %w", TypeReplaced, err)
	}
	if t.State == nil {
		return fmt.Errorf("%s before the game started", TypeReplaced)
	}
	names := t.Engine.Players(t.State)
	if int(r.Seat) < 0 || int(r.Seat) >= len(names) {
		return fmt.Errorf("%s: no seat %d", TypeReplaced, r.Seat)
	}
	for i, j := range t.Joined {
		if j.Name == names[r.Seat] {
			if t.replacedUsers == nil {
				t.replacedUsers = map[string]bool{}
			}
			t.replacedUsers[j.User] = true
			t.Joined[i].User = r.User
		}
	}
	if t.replacedAt == nil {
		t.replacedAt = map[string]int{}
	}
	t.replacedAt[r.User] = version
	t.cameBack(r.Seat)
	return nil
}

// Replace lets a game's creator hand an abandoned seat to another player
// (an opaque user id, without a seat in the game): from then on they play
// it, and they see what the seat may see from then on, never what its
// earlier player saw before. Nobody who may have seen more than a seat —
// the referee, named or by default, or a player whose seat was handed on —
// can be handed one.
func (s *Service) Replace(ctx context.Context, actor Actor, gameID string, seat games.Seat, user string) (Outcome, error) {
	req := request{gameID: gameID, retry: true, hash: commandHash("replace", gameID, fmt.Sprint(seat), user)}
	return s.exec(ctx, actor, req, replaceCmd(actor, seat, func() string { return user }))
}

// HandOver is Replace for a person named by address, as the API names
// them: their account is found, or made, in the command's transaction, so
// a refused hand-over leaves no account behind.
func (s *Service) HandOver(ctx context.Context, actor Actor, gameID string, seat games.Seat, address string) (Outcome, error) {
	addr, err := s.checkAddress("address.new_player", address)
	if err != nil {
		return Outcome{}, err
	}
	var user string
	req := request{gameID: gameID, retry: true, hash: commandHash("hand over", gameID, fmt.Sprint(seat), addr)}
	req.prepare = func(ctx context.Context, tx pgx.Tx) error {
		u, no, err := s.accounts.Invitee(ctx, tx, addr)
		if err != nil {
			return fmt.Errorf("find the account of the new player: %w", err)
		}
		if no {
			return refuse(CodeForbidden, "refusal.no_invitations_hand", addr)
		}
		user = u
		return nil
	}
	return s.exec(ctx, actor, req, replaceCmd(actor, seat, func() string { return user }))
}

// replaceCmd hands seat to the user userOf names (known once the command's
// transaction has found their account).
func replaceCmd(actor Actor, seat games.Seat, userOf func() string) command {
	return func(c *cmdCtx) error {
		user := userOf()
		t := c.table
		if err := playable(t); err != nil {
			return err
		}
		if actor.User == "" || actor.User != t.Creator {
			return refuse(CodeForbidden, "refusal.hand_creator", t.ID)
		}
		if int(seat) < 0 || int(seat) >= t.seatCount() {
			return refuse(CodeInvalid, "refusal.no_seat", t.ID, int(seat))
		}
		if !slices.Contains(t.Abandoned, seat) {
			return refuse(CodeConflict, "refusal.not_abandoned", int(seat), t.ID, AbandonAfter)
		}
		if user == "" || t.SeatOf(user) != games.Spectator {
			return refuse(CodeConflict, "refusal.new_player_plays", t.ID)
		}
		if err := t.saw(user); err != nil {
			return err
		}
		c.retimed, c.prompt = &seat, &seat
		return c.stage(TypeReplaced, Replaced{Seat: seat, User: user}, "")
	}
}

// saw refuses a seat to user when they may have seen what a seat may not:
// the game's referee (named, or its creator holding no seat), who may
// replay it with everything revealed, and a player whose own seat was
// handed to someone else, who saw that seat's cards.
func (t *Table) saw(user string) error {
	if user != "" && user == t.Referee() {
		return refuse(CodeConflict, "refusal.referee_no_seat", t.ID)
	}
	if t.replacedUsers[user] {
		return refuse(CodeConflict, "refusal.handed_away", t.ID)
	}
	return nil
}

package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
)

// maxSince bounds how many changes a brief recounts.
const maxSince = 40

// Brief is what a mail to one seat says of a game, read from one read of
// its stream: the seat's view, what it may do, and what happened since it
// last acted, as that seat may know it. Nothing in it is hidden from that
// seat; nothing names another player's address.
type Brief struct {
	GameID  string
	Kind    string
	Name    string // the game's display name ("Coyote")
	Version int
	// Head is the receipt of the game's last event (see ReceiptHead), set
	// once the game ended and its seed is public.
	Head    string
	Started bool
	Ended   bool
	Result  *games.Result
	// Seed and Commitment are set once the game ended (Commitment always).
	Seed       string
	Commitment string
	Creator    string   // the creator's opaque user id
	Invited    []string // user ids invited before the start
	Joined     []Joined // who took a place, in joining order
	Players    []string // names by seat once started

	Seat    games.Seat // games.Spectator for none
	Player  string     // the seat's player name
	User    string     // the seat's user id
	View    json.RawMessage
	Pending []games.Pending // the seat's own pending entries
	// Deadline is when the first of the seat's pending entries times out
	// (nil without entries, or in a game without deadlines).
	Deadline *time.Time
	Choices  []string // the seat's numbered moves
	// Since is what happened after the seat's last own action (at most the
	// last maxSince changes), redacted and described for the seat.
	Since []Change
}

// Brief returns the brief of seat (games.Spectator for someone without a
// seat, e.g. an invitee) in a game.
func (s *Service) Brief(ctx context.Context, gameID string, seat games.Seat) (Brief, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return Brief{}, err
	}
	t, err := fold(s.reg, gameID, recorded)
	if err != nil {
		return Brief{}, err
	}
	last := recorded[len(recorded)-1]
	b, err := t.brief(seat)
	if err != nil {
		return Brief{}, err
	}
	if t.Ended {
		var en Ended
		if err := json.Unmarshal(last.Data, &en); err == nil && last.Type == TypeEnded {
			b.Seed = en.Seed
			if sd, err := games.ParseSeed(en.Seed); err == nil {
				b.Head = archive.ReceiptHead(sd, gameID, last.Hash)
			}
		}
	}
	if !t.Started {
		return b, nil
	}
	after := lastCommandBefore(recorded, seat)
	after = max(after, t.Version-maxSince)
	if b.Since, err = s.historyAs(gameID, t.viewerOf(b.User), recorded, after); err != nil {
		return Brief{}, err
	}
	return b, nil
}

// lastCommandBefore is the version before the first event of seat's last
// own command (the events of one command share its transaction), 0 when
// the seat never acted: what a seat is told since then includes what its
// own last move caused.
func lastCommandBefore(recorded []events.Recorded, seat games.Seat) int {
	if seat == games.Spectator {
		return 0
	}
	last := -1
	for i, e := range slices.Backward(recorded) {
		switch {
		case last < 0 && actorSeat(e.Meta) == seat:
			last = i
		case last >= 0 && e.TX != recorded[last].TX:
			return e.Version
		}
	}
	return 0
}

// brief is the brief of seat on the table as it is, without what happened
// since (Since) and without the revealed seed: what a refusal needs.
func (t *Table) brief(seat games.Seat) (Brief, error) {
	b := Brief{
		GameID: t.ID, Kind: t.Kind, Name: t.Engine.Info().Name, Version: t.Version,
		Started: t.Started, Ended: t.Ended, Commitment: t.Commitment, Creator: t.Creator, Invited: t.Invited, Joined: t.Joined,
		Seat: seat,
	}
	if !t.Started {
		return b, nil
	}
	b.Players = t.Engine.Players(t.State)
	if res := t.Result(); res.Finished {
		b.Result = &res
	}
	if seat != games.Spectator {
		if int(seat) >= len(b.Players) {
			return Brief{}, fmt.Errorf("game %s has no seat %d", t.ID, seat)
		}
		b.Player, b.User = b.Players[seat], t.UserAt(seat)
	}
	viewer := seat
	if seat != games.Spectator && slices.Contains(t.Resigned, seat) && !t.Ended {
		viewer = games.Spectator
	}
	var err error
	if b.View, err = t.Engine.View(t.State, viewer); err != nil {
		return Brief{}, err
	}
	if viewer != games.Spectator && !t.Ended {
		b.Choices = t.Engine.Choices(t.State, seat)
		for _, p := range t.Pending {
			if p.Seat != seat {
				continue
			}
			b.Pending = append(b.Pending, p)
			if at, ok := t.Deadline(p); ok && (b.Deadline == nil || at.Before(*b.Deadline)) {
				b.Deadline = &at
			}
		}
	}
	return b, nil
}

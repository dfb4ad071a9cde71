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
	// Requires is what a player must show to join (nil: nothing);
	// Unrated is set when the game moves no rating.
	Requires *Requirement
	Unrated  bool

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
	// TakeBack is the game's open take-back request (nil: none).
	TakeBack *TakeBack
}

// Brief returns the brief of seat (games.Spectator for someone without a
// seat, e.g. an invitee) in a game.
//
// A game this process keeps folded (the command cache) is briefed from its
// cached table and the changes it told each viewer as its commands applied
// them: one indexed read of the events after the table's version (usually
// none), no read of the whole stream and no fold. Otherwise — not cached,
// or the seat's last command is further back than the table keeps told —
// the stream is read and folded, as BriefFolds counts.
func (s *Service) Brief(ctx context.Context, gameID string, seat games.Seat) (Brief, error) {
	b, _, err := s.briefOf(ctx, gameID, seat, nil)
	return b, err
}

// BriefAndCaused returns the brief of seat and what the command that took
// the game from version from to version to caused, as the seat's player
// reads it (History of those versions): a receipt's content, at the cost
// of a brief.
func (s *Service) BriefAndCaused(ctx context.Context, gameID string, seat games.Seat, from, to int) (Brief, []Change, error) {
	return s.briefOf(ctx, gameID, seat, &versionSpan{from: from, to: to})
}

// BriefFolds is the number of briefs this service made by reading and
// folding a game's stream (its cache did not hold the game, or not far
// enough back): for metrics and the load command.
func (s *Service) BriefFolds() int64 { return s.briefFolds.Load() }

// briefWait bounds how long a brief waits, in all, for a game's table that
// commands of this process have taken out before it folds the game instead.
const briefWait = 200 * time.Millisecond

// versionSpan is the events after version from up to version to.
type versionSpan struct{ from, to int }

// briefOf is the brief of seat, with the changes of span (nil: none) as
// the seat's player reads them.
func (s *Service) briefOf(ctx context.Context, gameID string, seat games.Seat, span *versionSpan) (Brief, []Change, error) {
	b, changes, ok, err := s.briefCached(ctx, gameID, seat, span)
	if ok || err != nil {
		return b, changes, err
	}
	s.briefFolds.Add(1)
	return s.briefFolded(ctx, gameID, seat, span)
}

// briefCached briefs seat from the cached table of the game, brought up to
// the store's version as a command does (one read of the events after it);
// ok is false when the cache cannot tell.
func (s *Service) briefCached(ctx context.Context, gameID string, seat games.Seat, span *versionSpan) (Brief, []Change, bool, error) {
	// A command of this process may have the table out: it comes back
	// after its commit. The brief waits for it, up to briefWait in all.
	wait := time.NewTimer(briefWait)
	defer wait.Stop()
	v, cached, out := s.cache.version(gameID)
	for !cached {
		if out == nil || !waitFor(ctx, out, wait.C) {
			return Brief{}, nil, false, nil
		}
		v, cached, out = s.cache.version(gameID)
	}
	recorded, err := events.ReadStream(ctx, s.pool, Stream(gameID), v)
	if err != nil {
		return Brief{}, nil, false, fmt.Errorf("read game %s after version %d: %w", gameID, v, err)
	}
	head := v
	if len(recorded) > 0 {
		head = recorded[len(recorded)-1].Version
	}
	for {
		select {
		case <-wait.C:
			return Brief{}, nil, false, nil
		default:
		}
		var b Brief
		var changes []Change
		var ok, behind bool
		// A table at the store's version as read, or beyond (commits of
		// this process since), holds everything the store held then.
		found := s.cache.read(gameID, func(t *Table) {
			if behind = t.Version < head; !behind {
				b, changes, ok, err = t.briefRecent(seat, span)
			}
		})
		switch {
		case found && !behind:
			return b, changes, ok, err
		case found:
			// Another process wrote: fold what it wrote into the table, as
			// a command would.
			return s.briefToppedUp(gameID, seat, span, v, recorded)
		}
		// A command took the table out meanwhile.
		if _, cached, out := s.cache.version(gameID); !cached && (out == nil || !waitFor(ctx, out, wait.C)) {
			return Brief{}, nil, false, nil
		}
	}
}

// briefToppedUp briefs seat from the cached table, at version v, with the
// events recorded after it folded in, and puts the table back.
func (s *Service) briefToppedUp(gameID string, seat games.Seat, span *versionSpan, v int, recorded []events.Recorded) (Brief, []Change, bool, error) {
	t := s.cache.take(gameID)
	if t == nil {
		return Brief{}, nil, false, nil
	}
	if t.Version != v {
		s.cache.put(t)
		return Brief{}, nil, false, nil
	}
	t, err := s.foldRecorded(t, gameID, recorded)
	if err != nil {
		s.cache.drop(gameID)
		return Brief{}, nil, false, nil // a fold says what is wrong
	}
	b, changes, ok, err := t.briefRecent(seat, span)
	s.cache.put(t)
	return b, changes, ok, err
}

// waitFor waits for out to close, until timeout fires or ctx ends; false
// when it did not close.
func waitFor(ctx context.Context, out <-chan struct{}, timeout <-chan time.Time) bool {
	select {
	case <-out:
		return true
	case <-timeout:
	case <-ctx.Done():
	}
	return false
}

// briefRecent is the brief of seat, and the changes of span, from the
// table and the events it keeps told, without reading or folding anything;
// ok is false when they do not reach back far enough. The brief shares
// nothing the table may later change.
func (t *Table) briefRecent(seat games.Seat, span *versionSpan) (Brief, []Change, bool, error) {
	r := t.recent
	if r == nil || r.hi() != t.Version || !r.settled() {
		return Brief{}, nil, false, nil
	}
	b, err := t.brief(seat)
	if err != nil {
		return Brief{}, nil, true, err
	}
	b.Joined, b.Invited = slices.Clone(b.Joined), slices.Clone(b.Invited)
	if t.Ended {
		if r.n == 0 {
			return Brief{}, nil, false, nil
		}
		if r.at(r.n-1).typ == TypeEnded {
			b.Seed = t.endSeed
			if sd, err := games.ParseSeed(t.endSeed); err == nil {
				b.Head = archive.ReceiptHead(sd, t.ID, r.head)
			}
		}
	}
	v := t.viewerOf(b.User)
	var changes []Change
	if span != nil {
		var ok bool
		if changes, ok = r.changes(v, span.from, span.to); !ok {
			return Brief{}, nil, false, nil
		}
	}
	if !t.Started {
		return b, changes, true, nil
	}
	after, ok := r.since(seat, t.Version)
	if !ok {
		return Brief{}, nil, false, nil
	}
	if b.Since, ok = r.changes(v, after, t.Version); !ok {
		return Brief{}, nil, false, nil
	}
	return b, changes, true, nil
}

// briefFolded is briefOf from one read of the game's stream, folded.
func (s *Service) briefFolded(ctx context.Context, gameID string, seat games.Seat, span *versionSpan) (Brief, []Change, error) {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return Brief{}, nil, err
	}
	t, err := fold(s.reg, gameID, recorded)
	if err != nil {
		return Brief{}, nil, err
	}
	last := recorded[len(recorded)-1]
	b, err := t.brief(seat)
	if err != nil {
		return Brief{}, nil, err
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
	if !t.Started && span == nil {
		return b, nil, nil
	}
	after := t.Version
	if t.Started {
		after = max(lastCommandBefore(recorded, seat), t.Version-maxSince)
	}
	from := after
	if span != nil {
		from = min(from, span.from)
	}
	told, err := s.historyAs(gameID, t.viewerOf(b.User), recorded, from)
	if err != nil {
		return Brief{}, nil, err
	}
	if t.Started {
		b.Since = make([]Change, 0, len(told))
		for _, c := range told {
			if c.Version > after {
				b.Since = append(b.Since, c)
			}
		}
	}
	var changes []Change
	if span != nil {
		changes = make([]Change, 0, len(told))
		for _, c := range told {
			if c.Version > span.from && c.Version <= span.to {
				changes = append(changes, c)
			}
		}
	}
	return b, changes, nil
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
		Seat: seat, Requires: t.Requires, Unrated: t.Unrated,
	}
	if !t.Started {
		return b, nil
	}
	b.Players = t.Engine.Players(t.State)
	if res := t.Result(); res.Finished {
		b.Result = &res
	}
	b.TakeBack = t.TakeBack.clone()
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

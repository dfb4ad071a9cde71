package play

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// Lifecycle event types, written by the command side around a game's own
// events. A game's own events are stored as "<kind>.<type>".
const (
	TypeCreated  = archive.TypeCreated
	TypeJoined   = "game.joined"
	TypeInvited  = "game.invited"
	TypeStarted  = archive.TypeStarted
	TypeResigned = archive.TypeResigned
	TypeEnded    = archive.TypeEnded
)

// Created is the data of the first event of every game.
type Created struct {
	Kind    string        `json:"kind"`
	Options games.Options `json:"options"`
	// Rules is the version of the game's rules the game is played under for
	// ever (games.Info.Rules when it was created; absent, 1).
	Rules int `json:"rules_version,omitempty"`
	// Shuffle names the drawing algorithm (games.ShuffleAlgorithm; absent,
	// the same algorithm before it had a name).
	Shuffle string `json:"shuffle,omitempty"`
	// Commitment is the hex sha256 of the game's seed; the seed itself is
	// revealed by the Ended event.
	Commitment string `json:"seed_sha256"`
	// Creator is the opaque user id of who created the game.
	Creator string `json:"creator"`
	// Deadlines is the time allowed per kind of pending entry (Deadlines,
	// as Go durations); absent in games created before deadlines existed,
	// which have none.
	Deadlines map[string]string `json:"deadlines,omitempty"`
	// Weekdays, when set, are the only days (UTC) on which deadlines run
	// ("mon", "tue", …).
	Weekdays []string `json:"weekdays,omitempty"`
	// Referee, when set, is the user (an opaque id) who rules on disputes;
	// absent, the creator.
	Referee string `json:"referee,omitempty"`
	// Unrated, when set, keeps the game out of the players' ratings.
	Unrated bool `json:"unrated,omitempty"`
	// Requires, when set, is what a player must show to join.
	Requires *Requirement `json:"requires,omitempty"`
	// Press is who may talk to whom (PressPublic, PressPrivate,
	// PressNone); absent, PressPublic. PressReveal makes private messages
	// readable by all once the game is over.
	Press       string `json:"press,omitempty"`
	PressReveal bool   `json:"press_reveal,omitempty"`
}

// Joined is the data of a player taking a place before the start.
type Joined struct {
	User string `json:"user"` // an opaque user id, never an address
	Name string `json:"name"`
}

// Invited is the data of the creator inviting people (opaque user ids) to
// take a seat; the game starts by itself once every invited user has
// joined.
type Invited struct {
	Users []string `json:"users"`
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
	Rules      int // the rules version the game is played under
	Commitment string
	Creator    string
	Joined     []Joined
	Invited    []string // user ids invited to take a seat
	Started    bool
	Ended      bool
	State      games.State // nil before the start
	Version    int
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// Pending lists who may act now, each entry with its identity (Since
	// filled): the version at which it opened.
	Pending []games.Pending
	// Resigned lists the seats that left the game.
	Resigned []games.Seat
	// Deadlines is the time the game allows per kind of pending entry
	// (none for a game created before deadlines existed).
	Deadlines Deadlines
	// Weekdays are the days on which deadlines run (all when empty).
	Weekdays []time.Weekday
	// Disputes lists the disputes raised, with their rulings.
	Disputes []Dispute
	// Unrated is set when the game does not move its players' ratings.
	Unrated bool
	// Requires is what a player must show to join (nil: nothing).
	Requires *Requirement
	// Press is who may talk to whom (a Press setting); PressReveal makes
	// private messages readable by all once the game is over.
	Press       string
	PressReveal bool
	// TakeBack is the open take-back request (nil: none).
	TakeBack *TakeBack
	// TakeBacks lists every take-back request, with its answers and
	// outcome (the archive's type: the audit lists them).
	TakeBacks []archive.TakeBack

	// rulesLog keeps the game's own events since the start, as folded (a
	// take-back drops those after its version), to re-fold the rules
	// state at a take-back.
	rulesLog []rulesEvent
	// lastMove is the last move a player made, which they may ask to take
	// back.
	lastMove moveMark

	// referee is the user the creation named to rule on disputes.
	referee string

	// opened holds when each current pending entry opened, by its Since.
	opened map[int]time.Time
	// absences lists each seat's declared absences, in order.
	absences map[games.Seat][]absence
	// Abandoned lists the seats that missed AbandonAfter deadlines in a
	// row and play by default until their player writes back.
	Abandoned []games.Seat
	// timeouts counts each seat's deadlines missed in a row.
	timeouts map[games.Seat]int
	// endResult is the result the game's end recorded.
	endResult *games.Result
	// replacedAt is, for a player who took over a seat, the version of
	// that event: they see nothing of the seat before it.
	replacedAt map[string]int
	// replacedUsers are the users whose seat was handed to someone else:
	// they saw that seat's hidden cards, so they may never take another.
	replacedUsers map[string]bool

	// seed is the game's secret, once a command has loaded it.
	seed *games.Seed
	// projected holds a digest of each seat's last written projection, so
	// that a command writes only the views that changed.
	projected map[games.Seat]uint64
	// recent, on a table of the command cache, keeps the last events told
	// for every viewer (see recentEvents); nil on any other table.
	recent *recentEvents
	// endSeed is the seed the game's end revealed.
	endSeed string
	// endedAt is the version of the game's end (0 while it runs).
	endedAt int
}

// Stream is the event stream name of a game.
func Stream(gameID string) string { return "game-" + gameID }

// fold builds a table from a game's events.
func fold(reg *games.Registry, id string, evs []events.Recorded) (*Table, error) {
	t := &Table{ID: id}
	return t, t.applyRecorded(reg, evs)
}

// applyRecorded folds recorded events into the table.
func (t *Table) applyRecorded(reg *games.Registry, evs []events.Recorded) error {
	for _, e := range evs {
		if err := t.apply(reg, e, actorOf(e.Meta)); err != nil {
			return fmt.Errorf("game %s version %d: %w", t.ID, e.Version, err)
		}
	}
	return nil
}

// actorSeat reads the seat that acted from an event's meta (Spectator when
// none: the system, or a lifecycle event).
func actorSeat(meta json.RawMessage) games.Seat {
	return actorOf(meta).seat
}

// actorOf reads who made an event from its meta: the seat that acted
// (games.Spectator for none) and whether the system acted for it (a
// default at a deadline).
func actorOf(meta json.RawMessage) eventActor {
	var m struct {
		Seat    *int   `json:"seat"`
		Channel string `json:"channel"`
		Move    string `json:"move"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil || m.Seat == nil {
		return eventActor{seat: games.Spectator, system: m.Channel == ChannelSystem}
	}
	return eventActor{seat: games.Seat(*m.Seat), system: m.Channel == ChannelSystem, move: m.Move}
}

// eventActor is who made an event, and the move line they sent.
type eventActor struct {
	seat   games.Seat
	system bool
	move   string
}

// apply folds one event, made by seat actor (games.Spectator for none), into
// the table, and keeps the identities of the pending entries: an entry keeps
// the version it opened at while it stays pending unchanged (same seat, kind
// and rule) through events its own seat did not make. A table that keeps
// its recent events told (recent) tells e first, on the state before it.
func (t *Table) apply(reg *games.Registry, e events.Recorded, by eventActor) error {
	if t.recent == nil {
		return t.applyEvent(reg, e, by)
	}
	told, ok := t.tell(e)
	if err := t.applyEvent(reg, e, by); err != nil {
		return err
	}
	if ok && t.recent.hi() == e.Version-1 {
		t.recent.push(told, e.Hash)
	} else {
		t.recent.restart(t.Version)
	}
	return nil
}

// applyEvent is apply without telling the event.
func (t *Table) applyEvent(reg *games.Registry, e events.Recorded, by eventActor) error {
	actor := by.seat
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
		t.Kind, t.Engine, t.Options, t.Commitment, t.Creator, t.referee = c.Kind, eng, c.Options, c.Commitment, c.Creator, c.Referee
		t.Unrated, t.Requires = c.Unrated, c.Requires
		t.Press, t.PressReveal = c.Press, c.PressReveal
		if t.Press == "" {
			t.Press = PressPublic
		}
		if t.Deadlines, err = decodeDeadlines(c.Deadlines); err != nil {
			return err
		}
		if t.Weekdays, err = ParseWeekdays(c.Weekdays); err != nil {
			return err
		}
		t.Rules = max(c.Rules, 1)
		if c.Shuffle != "" && c.Shuffle != games.ShuffleAlgorithm {
			return fmt.Errorf("the game was created with the drawing algorithm %q, and this courrier knows %q: upgrade courrier to play or replay it",
				c.Shuffle, games.ShuffleAlgorithm)
		}
		if t.Rules > eng.Info().Rules {
			return fmt.Errorf("%s: the game was created under rules version %d, and this courrier knows versions 1 to %d: upgrade courrier to play or replay it",
				eng.Info().Name, t.Rules, eng.Info().Rules)
		}
		t.CreatedAt = e.RecordedAt
	case TypeJoined:
		var j Joined
		if err := json.Unmarshal(e.Data, &j); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		t.Joined = append(t.Joined, j)
	case TypeInvited:
		var in Invited
		if err := json.Unmarshal(e.Data, &in); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		for _, u := range in.Users {
			if !slices.Contains(t.Invited, u) {
				t.Invited = append(t.Invited, u)
			}
		}
	case TypeStarted:
		st, err := t.Engine.Initial(t.Rules)
		if err != nil {
			return err
		}
		t.Started, t.State = true, st
		t.rulesLog, t.lastMove = nil, noMove
	case TypeResigned:
		var r Resigned
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		t.Resigned = append(t.Resigned, r.Seat)
		t.lastMove = noMove
	case TypeAway, TypeBack:
		if err := t.applyAbsence(e.Type, e.Data, e.RecordedAt); err != nil {
			return err
		}
		if e.Type == TypeBack {
			var b Back
			if err := json.Unmarshal(e.Data, &b); err != nil {
				return fmt.Errorf("decode %s: %w", e.Type, err)
			}
			t.cameBack(b.Seat)
		}
	case TypeReplaced:
		if err := t.applyReplaced(e.Data, e.Version); err != nil {
			return err
		}
		t.lastMove = noMove
	case TypeTimedOut, TypeAbandoned:
		if err := t.applyTimeouts(e.Type, e.Data); err != nil {
			return err
		}
		t.lastMove = noMove
	case TypeDisputed, TypeRuled:
		if err := t.applyDispute(e.Type, e.Data, e.Version, e.RecordedAt); err != nil {
			return err
		}
	case TypeTakeBackAsked, TypeTakeBackAnswered, TypeTakeBackClosed, TypeTakenBack:
		if err := t.applyTakeBack(e.Type, e.Data, e.Version, e.RecordedAt); err != nil {
			return err
		}
	case TypeEnded:
		t.Ended = true
		t.Pending = nil
		if t.TakeBack != nil {
			// A log from before the end closed its request explicitly.
			t.closeTakeBack(TakeBackEnded, e.Version)
		}
		t.TakeBack, t.lastMove = nil, noMove
		var en Ended
		if err := json.Unmarshal(e.Data, &en); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		t.endResult, t.endSeed = &en.Result, en.Seed
		t.endedAt = e.Version
	default:
		if t.Engine == nil || !t.Started {
			return fmt.Errorf("game event %s before the game started", e.Type)
		}
		typ, ok := strings.CutPrefix(e.Type, t.Kind+".")
		if !ok {
			return fmt.Errorf("event type %s does not belong to %s", e.Type, t.Kind)
		}
		raw := games.RawEvent{Type: typ, Data: e.Data}
		var err error
		if t.State, err = t.Engine.Evolve(t.State, raw); err != nil {
			return err
		}
		t.rulesLog = append(t.rulesLog, rulesEvent{version: e.Version, raw: raw})
		t.markMove(by, e.TX, e.Version)
		t.playedBy(by)
	}
	t.Version = e.Version
	t.UpdatedAt = e.RecordedAt
	if t.Started && !t.Ended {
		t.Pending = t.keepIdentities(t.Engine.Pending(t.State), actor)
		t.trackOpenings(e.RecordedAt)
	}
	return nil
}

// keepIdentities gives each new pending entry the version it opened at.
func (t *Table) keepIdentities(next []games.Pending, actor games.Seat) []games.Pending {
	for i := range next {
		next[i].Since = t.Version
		if next[i].Seat == actor {
			continue
		}
		for _, old := range t.Pending {
			// Not the default: it can depend on a hidden card, and Since is
			// public (the games list shows it).
			if old.Seat == next[i].Seat && old.Kind == next[i].Kind && old.Rule == next[i].Rule {
				next[i].Since = old.Since
				break
			}
		}
	}
	return next
}

// openSince reports whether seat has a pending entry that was already open
// at version v and has not changed since: a move the player made looking at
// version v still answers it.
func (t *Table) openSince(seat games.Seat, v int) bool {
	for _, p := range t.Pending {
		if p.Seat == seat && p.Since <= v {
			return true
		}
	}
	return false
}

// entry returns the pending entry of identity id, if it is still pending.
func (t *Table) entry(id games.PendingID) (games.Pending, bool) {
	for _, p := range t.Pending {
		if p.ID() == id {
			return p, true
		}
	}
	return games.Pending{}, false
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
	i := slices.IndexFunc(t.Joined, func(j Joined) bool { return j.User == user })
	if i < 0 {
		return games.Spectator
	}
	seat := slices.Index(t.Engine.Players(t.State), t.Joined[i].Name)
	if seat < 0 {
		return games.Spectator
	}
	return games.Seat(seat)
}

// UserAt returns the user id of the player at seat ("" for none).
func (t *Table) UserAt(seat games.Seat) string {
	if !t.Started || seat < 0 {
		return ""
	}
	names := t.Engine.Players(t.State)
	if int(seat) >= len(names) {
		return ""
	}
	return t.userOf(names[seat])
}

// everyoneInvitedJoined reports whether the game invited people and all of
// them have joined.
func (t *Table) everyoneInvitedJoined() bool {
	if len(t.Invited) == 0 {
		return false
	}
	for _, u := range t.Invited {
		if !slices.ContainsFunc(t.Joined, func(j Joined) bool { return j.User == u }) {
			return false
		}
	}
	return true
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
		for _, u := range t.Invited {
			if !slices.ContainsFunc(t.Joined, func(j Joined) bool { return j.User == u }) {
				g.Invited = append(g.Invited, u)
			}
		}
		return g, nil, nil
	}
	g.ToAct = projections.PublicToAct(t.Pending)
	for i, p := range t.Pending {
		if at, ok := t.Deadline(p); ok {
			g.ToAct[i].Deadline = &at
		}
	}
	if res := t.Result(); res.Finished {
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
			sv.Choices = t.Engine.Choices(t.State, seat)
		}
		views = append(views, sv)
	}
	return g, views, nil
}

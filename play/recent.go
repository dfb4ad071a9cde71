package play

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// recentCap bounds the events a cached table keeps told: enough for a
// brief's maxSince changes and the command before them.
const recentCap = maxSince + 8

// A cached table keeps its last events already told for every viewer
// (recentEvents): each event is redacted and described for the spectator
// and every seat when the table applies it, on the state before it — what
// Table.change needs, and what a brief could otherwise only get by folding
// the game again. A brief of a cached game is then its table's brief plus
// the told events after the seat's last command, with no read of the
// stream and no fold.

// toldEvent is one event of a game as each viewer is told it: what every
// viewer is told alike once, and for each seat what it is told apart (its
// redaction and description, shared with the spectator's when equal).
type toldEvent struct {
	version int
	tx      uint64
	actor   games.Seat // the seat its meta names; games.Spectator for none
	typ     string
	// base is the spectator's change.
	base Change
	// move is the move as typed, told to the seat that made it only.
	move string
	// shared is set when every viewer is told base.
	shared bool
	// seats is what each seat is told of the event, by seat.
	seats []toldAs
	// staged is the data of an event staged by a command, not yet read back
	// from the store (what changes that show the data as stored alias);
	// nil once settled.
	staged []byte
}

// toldAs is what one seat is told of an event apart from what every
// viewer is.
type toldAs struct {
	data json.RawMessage
	text games.Phrase
}

// changeFor is the change seat is told of the event, if the event was told
// for seat.
func (e *toldEvent) changeFor(seat games.Seat) (Change, bool) {
	c := e.base
	if e.shared || seat == games.Spectator {
		return c, true
	}
	if seat < 0 || int(seat) >= len(e.seats) {
		return Change{}, false
	}
	c.Data, c.Text = e.seats[seat].data, e.seats[seat].text
	if seat == e.actor {
		c.Meta.Move = e.move
	}
	return c, true
}

// recentEvents is a ring of the last told events of a table, up to the
// table's version: the events after version lo.
type recentEvents struct {
	lo    int
	ring  [recentCap]toldEvent
	first int // index in ring of the oldest event
	n     int
	// head is the hash of the newest event (nil until the store's is known).
	head []byte
}

// newRecent returns an empty ring of a table at version v.
func newRecent(v int) *recentEvents { return &recentEvents{lo: v} }

// hi is the version of the newest event kept (lo when none).
func (r *recentEvents) hi() int { return r.lo + r.n }

// at returns the i-th oldest event kept.
func (r *recentEvents) at(i int) *toldEvent { return &r.ring[(r.first+i)%recentCap] }

// push keeps e, the event after hi, with its stored hash (nil for an event
// a command staged), forgetting the oldest beyond recentCap.
func (r *recentEvents) push(e toldEvent, hash []byte) {
	if r.n == recentCap {
		r.ring[r.first] = toldEvent{}
		r.first = (r.first + 1) % recentCap
		r.n--
		r.lo++
	}
	*r.at(r.n) = e
	r.n++
	r.head = hash
}

// restart forgets every event kept: the ring starts again at version v.
func (r *recentEvents) restart(v int) { *r = recentEvents{lo: v} }

// settle completes the events a command staged with what the store
// recorded (rec, read back by the append): their transaction, time and
// data as stored, and the head's hash.
func (r *recentEvents) settle(rec []events.Recorded) {
	for _, s := range rec {
		i := s.Version - r.lo - 1
		if i < 0 || i >= r.n {
			continue
		}
		e := r.at(i)
		// A change that shows the event's data as staged shows it as the
		// store spells the same JSON, as a fold reads it.
		stored := func(data json.RawMessage) json.RawMessage {
			if len(e.staged) > 0 && len(data) == len(e.staged) && &data[0] == &e.staged[0] {
				return s.Data
			}
			return data
		}
		e.base.Data = stored(e.base.Data)
		for j := range e.seats {
			e.seats[j].data = stored(e.seats[j].data)
		}
		e.base.RecordedAt = s.RecordedAt
		e.tx, e.staged = s.TX, nil
		if s.Version == r.hi() {
			r.head = s.Hash
		}
	}
}

// settled reports whether every event kept is as the store recorded it.
func (r *recentEvents) settled() bool {
	for i := range r.n {
		if r.at(i).staged != nil {
			return false
		}
	}
	return r.head != nil || r.n == 0
}

// sharedType reports whether events of type typ are told alike to every
// viewer (when no seat made them): what Table.change says of them depends
// on no seat.
func sharedType(typ string) bool {
	switch typ {
	case TypeCreated, TypeJoined, TypeInvited, TypeStarted:
		return true
	}
	return false
}

// tell tells e, which applies to the table as it is, to every viewer: the
// spectator and each seat the game has or will have once seated. ok is
// false when some viewer's change cannot be made (a fold would fail the
// same way for that viewer; the ring then restarts).
func (t *Table) tell(e events.Recorded) (toldEvent, bool) {
	meta, err := decodeMeta(e.Meta)
	if err != nil {
		return toldEvent{}, false
	}
	te := toldEvent{version: e.Version, tx: e.TX, actor: games.Spectator, typ: e.Type, move: meta.Move}
	if meta.Seat != nil {
		te.actor = games.Seat(*meta.Seat)
	}
	if e.Position == 0 {
		te.staged = e.Data
		if te.staged == nil {
			te.staged = []byte{}
		}
	}
	if te.base, err = t.changeAs(e, meta, games.Spectator); err != nil {
		return toldEvent{}, false
	}
	if te.shared = sharedType(e.Type) && meta.Seat == nil; te.shared {
		return te, true
	}
	seats := max(t.seatCount(), len(t.Joined))
	te.seats = make([]toldAs, seats)
	for seat := range games.Seat(seats) {
		c, err := t.changeAs(e, meta, seat)
		if err != nil {
			return toldEvent{}, false
		}
		// Only the data, the text and the mover's own move may differ
		// between viewers.
		if c.Version != te.base.Version || c.Type != te.base.Type || c.Meta.Seat != te.base.Meta.Seat ||
			c.Meta.Channel != te.base.Meta.Channel || !c.RecordedAt.Equal(te.base.RecordedAt) ||
			c.Meta.Move != "" && (seat != te.actor || c.Meta.Move != te.move) {
			return toldEvent{}, false
		}
		as := toldAs{data: te.base.Data, text: te.base.Text}
		if !bytes.Equal(c.Data, as.data) {
			as.data = c.Data
		}
		if !reflect.DeepEqual(c.Text, as.text) {
			as.text = c.Text
		}
		te.seats[seat] = as
	}
	return te, true
}

// since is the version after which a brief of seat at the table's version
// v tells what happened (the seat's last command, at most maxSince back:
// see Brief), or false when the ring does not reach back far enough to say.
func (r *recentEvents) since(seat games.Seat, v int) (int, bool) {
	floor := v - maxSince
	last := -1
	if seat != games.Spectator {
		for i := r.n - 1; i >= 0; i-- {
			e := r.at(i)
			switch {
			case last < 0 && e.actor == seat:
				last = i
			case last >= 0 && e.tx != r.at(last).tx:
				return r.reach(max(e.version, floor))
			}
		}
	}
	// The seat's last command (if any) began before the ring's first event,
	// or never was: known only when the ring holds the whole game.
	if r.lo == 0 {
		return max(0, floor), true
	}
	return r.reach(floor)
}

// reach returns after, and whether the ring holds every event after it.
func (r *recentEvents) reach(after int) (int, bool) {
	return after, after >= r.lo
}

// changes returns the events in (after, to] as v reads them, or false when
// the ring lacks one of them or a change for v.
func (r *recentEvents) changes(v viewer, after, to int) ([]Change, bool) {
	if after < r.lo {
		return nil, false
	}
	out := make([]Change, 0, max(0, min(to, r.hi())-after))
	for i := max(0, after-r.lo); i < r.n; i++ {
		e := r.at(i)
		if e.version > to {
			break
		}
		seat := v.seat
		if e.version < v.took {
			seat = games.Spectator // a player who took over a seat sees it from then on
		}
		c, ok := e.changeFor(seat)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

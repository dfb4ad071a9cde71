package coupage

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// barrelSetup is a barrel of a rigged table: its wine, grapes, Time cards
// ("time" face up, any other code face down), Vin piqué counter and whether
// it is already bottled.
type barrelSetup struct {
	wine    string
	grapes  []string
	time    []string
	spoil   int
	bottled bool
}

// seatSetup is a seat of a rigged table.
type seatSetup struct {
	hand    []string
	barrels map[int]barrelSetup
}

// tableSetup is a rigged deal: built from events we write ourselves and
// fold, as the event model allows.
type tableSetup struct {
	players []string
	opts    games.Options
	seats   []seatSetup
	market  [2]string
	top     []string // the top of the deck, in order
	// restToDiscard puts every other card in the discard pile, leaving the
	// deck holding only top.
	restToDiscard bool
	// discard lists cards put in the discard pile (the rest stays in the deck).
	discard []string
	active  games.Seat
	// rules, when set, replaces NewRules() (a table with other house data).
	rules *Rules
	// version is the rules version of the game (0: the current one).
	version int
}

// table is a rigged game under test.
type table struct {
	t   testing.TB
	r   Rules
	s   *State
	log []Event
	rng *rand.Rand
}

func (ts tableSetup) build(t testing.TB) *table {
	t.Helper()
	r := NewRules()
	if ts.rules != nil {
		r = *ts.rules
	}
	if ts.players == nil {
		ts.players = []string{"Ana", "Bob", "Cleo"}
	}
	opts := games.Options{"wine_abilities": "on", "aid_tables": "house"}
	maps.Copy(opts, ts.opts)
	a := r.aids["house"]
	pool := a.Deck()
	take := func(c string) {
		i := slices.Index(pool, c)
		if i < 0 {
			t.Fatalf("rig: no %s left in the deck", c)
		}
		pool = slices.Delete(pool, i, i+1)
	}
	for len(ts.seats) < len(ts.players) {
		ts.seats = append(ts.seats, seatSetup{})
	}
	var deck []string
	var deals [][]string
	spoils := 0
	for _, ss := range ts.seats {
		var cards []string
		cards = append(cards, ss.hand...)
		for b := 1; b <= 4; b++ {
			if bs, ok := ss.barrels[b]; ok {
				cards = append(cards, bs.grapes...)
				cards = append(cards, bs.time...)
				if bs.spoil > 0 {
					spoils++
				}
			}
		}
		for _, c := range cards {
			take(c)
		}
		deals = append(deals, cards)
		deck = append(deck, cards...)
	}
	var spoilCards []string
	for range spoils {
		take("vin pique")
		spoilCards = append(spoilCards, "vin pique")
	}
	deck = append(deck, spoilCards...)
	for _, c := range ts.market {
		if c != "" {
			take(c)
			deck = append(deck, c)
		}
	}
	var discard []string
	for _, c := range ts.discard {
		take(c)
		discard = append(discard, c)
	}
	for _, c := range ts.top {
		take(c)
	}
	if ts.restToDiscard {
		discard = append(discard, pool...)
		pool = nil
	}
	deck = append(deck, discard...)
	deck = append(deck, ts.top...)
	deck = append(deck, pool...)
	version := ts.version
	if version == 0 {
		version = rulesCurrent
	}
	tb := &table{t: t, r: r, s: r.Initial(version), rng: rand.New(rand.NewPCG(1, 2))}
	tb.fold(Event{Type: evSeated, Players: ts.players, Options: opts})
	tb.fold(Event{Type: evShuffled, Cards: deck, N: len(deck), Reason: "setup"})
	for seat, cards := range deals {
		tb.fold(Event{Type: evDrew, Seat: games.Seat(seat), Cards: cards, N: len(cards), Reason: "deal"})
	}
	if len(spoilCards) > 0 {
		tb.fold(Event{Type: evDrew, Seat: 0, Cards: spoilCards, N: len(spoilCards), Reason: "deal"})
	}
	for slot := 1; slot <= 2; slot++ {
		if ts.market[slot-1] != "" {
			tb.fold(Event{Type: evMarket, Slot: slot, Card: ts.market[slot-1]})
		}
	}
	if len(discard) > 0 {
		tb.fold(Event{Type: evDrew, Seat: 0, Cards: discard, N: len(discard), Reason: "deal"})
		tb.fold(Event{Type: evDiscarded, Seat: 0, Cards: discard, Reason: "discard"})
	}
	for seat, ss := range ts.seats {
		st := games.Seat(seat)
		for b := 1; b <= 4; b++ {
			bs, ok := ss.barrels[b]
			if !ok {
				continue
			}
			tb.fold(Event{Type: evMade, Seat: st, Barrel: b, Wine: bs.wine, Cards: bs.grapes})
			for _, c := range bs.time {
				tb.fold(Event{Type: evAged, Seat: st, Barrel: b, Card: c, FaceDown: c != timeCard, Reason: "time"})
			}
			if bs.spoil > 0 {
				tb.fold(Event{Type: evPlayed, Seat: 0, Card: "vin pique"})
				tb.fold(Event{Type: evSpoiled, Seat: (st + 1) % games.Seat(len(ts.players)), Target: st, Barrel: b})
				tb.fold(Event{Type: evSpoilMoved, Target: st, Barrel: b, Counter: bs.spoil})
			}
			if bs.bottled {
				w, _ := a.wine(bs.wine)
				cava := w.IsCava()
				for _, o := range tb.s.Barrels[st] {
					if o.Cava {
						cava = false
					}
				}
				tb.fold(Event{Type: evBottled, Seat: st, Barrel: b, Wine: bs.wine, Cava: cava})
				tb.fold(Event{Type: evCleared, Seat: st, Barrel: b})
			}
		}
	}
	tb.fold(Event{Type: evTurnStarted, Seat: ts.active})
	if err := conserved(tb.s); err != nil {
		t.Fatalf("rig: %v", err)
	}
	return tb
}

func (tb *table) fold(e Event) {
	tb.s = tb.r.Evolve(tb.s, e)
	tb.log = append(tb.log, e)
}

// do plays a move that must be legal and returns its events.
func (tb *table) do(seat games.Seat, move string) []Event {
	tb.t.Helper()
	m, err := tb.r.Parse(tb.s, move)
	if err != nil {
		tb.t.Fatalf("%s: parse %q: %v", tb.s.name(seat), move, err)
	}
	legal := tb.r.Legal(tb.s, seat)
	if canon := tb.r.Format(tb.s, m); !slices.Contains(legal, canon) {
		tb.t.Errorf("%s: %q (%s) is not listed by Legal %v", tb.s.name(seat), move, canon, legal)
	}
	evs, err := tb.r.Decide(tb.s, seat, m, tb.rng)
	if err != nil {
		tb.t.Fatalf("%s: %q rejected: %v", tb.s.name(seat), move, err)
	}
	for _, e := range evs {
		tb.fold(e)
	}
	if err := conserved(tb.s); err != nil {
		tb.t.Fatalf("after %q: %v", move, err)
	}
	return evs
}

// reject plays a move that must be rejected with rule.
func (tb *table) reject(seat games.Seat, move, rule string) {
	tb.t.Helper()
	m, err := tb.r.Parse(tb.s, move)
	if err == nil {
		_, err = tb.r.Decide(tb.s, seat, m, tb.rng)
		if slices.Contains(tb.r.Legal(tb.s, seat), tb.r.Format(tb.s, m)) {
			tb.t.Errorf("%q is listed by Legal but should be rejected (%s)", move, rule)
		}
	}
	re, ok := games.AsRuleError(err)
	if !ok {
		tb.t.Fatalf("%s: %q accepted, want a %s rejection", tb.s.name(seat), move, rule)
	}
	if re.Rule != rule {
		tb.t.Errorf("%s: %q rejected by %s (%s), want %s", tb.s.name(seat), move, re.Rule, re.Reason.String(), rule)
	}
	if strings.TrimSpace(re.Reason.String()) == "" {
		tb.t.Errorf("%q: rule error without a reason", move)
	}
}

// endTurn plays "end" for seat.
func (tb *table) endTurn(seat games.Seat) { tb.t.Helper(); tb.do(seat, "end") }

// hand is seat's hand in canonical order.
func (tb *table) hand(seat games.Seat) []string {
	return tb.s.aid.sortCards(slices.Clone(tb.s.Hands[seat]))
}

// has tells whether events include a type.
func has(evs []Event, typ string) bool {
	return slices.ContainsFunc(evs, func(e Event) bool { return e.Type == typ })
}

// step is an event with the state before it, as Redact and Describe take
// them.
type step struct {
	before *State
	e      Event
}

// play plays a move that must be legal and returns its events with the
// state before each.
func (tb *table) play(seat games.Seat, move string) []step {
	tb.t.Helper()
	m, err := tb.r.Parse(tb.s, move)
	if err != nil {
		tb.t.Fatalf("%s: parse %q: %v", tb.s.name(seat), move, err)
	}
	evs, err := tb.r.Decide(tb.s, seat, m, tb.rng)
	if err != nil {
		tb.t.Fatalf("%s: %q rejected: %v", tb.s.name(seat), move, err)
	}
	out := make([]step, 0, len(evs))
	for _, e := range evs {
		out = append(out, step{tb.s.clone(), e})
		tb.fold(e)
	}
	return out
}

// first is the first step of an event type.
func first(t testing.TB, steps []step, typ string) step {
	t.Helper()
	for _, st := range steps {
		if st.e.Type == typ {
			return st
		}
	}
	t.Fatalf("no %s event among %d", typ, len(steps))
	return step{}
}

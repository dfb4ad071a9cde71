// Package coupage is the rules engine of Coupage (rules page RULES.md in
// this directory, id "coupage"): 2–4 wineries put grapes on
// barrels, age them with Time cards, bottle them by paying grape stars and
// sabotage each other with specials; the first with 2 wines and 1 cava
// bottled wins.
//
// Tables G, W and S (grapes, recipes, special counts) are [HOUSE]
// replaceable data read from the embedded aid_<name>.json files (option
// aid_tables). RULES.md is the game's rules page: the specification in our
// own words with the [HOUSE] decisions folded in, and the rules versions.
package coupage

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Rules implements games.Rules for Coupage. Build it with NewRules.
type Rules struct {
	aids map[string]*Aid
}

// NewRules returns the rules with the embedded data sets loaded.
func NewRules() Rules { return Rules{aids: mustAids()} }

// New returns the Coupage engine.
func New() games.Engine { return games.Adapt(NewRules()) }

var _ games.Rules[*State, Move, Event] = Rules{}

// Barrel states.
const (
	Empty      = "empty"
	Production = "in production"
	Bottled    = "bottled"
)

// TimeCard is a card lying under a barrel as Time: a face-up Time card, or a
// face-down card (CP-9, CP-32) known only to Knower, the seat that put it there.
type TimeCard struct {
	Card     string     `json:"card"`
	FaceDown bool       `json:"face_down,omitempty"`
	Knower   games.Seat `json:"knower"`
}

// Barrel is one of a player's barrels.
type Barrel struct {
	State  string     `json:"state"`
	Wine   string     `json:"wine,omitempty"`
	Grapes []string   `json:"grapes,omitempty"`
	Time   []TimeCard `json:"time,omitempty"`
	// Spoil is the Vin piqué counter (1–4), 0 when none (CP-24, CP-25).
	Spoil int `json:"spoil,omitempty"`
	// Cava is true when the bottle holds the player's Cava card (CP-35).
	Cava bool `json:"cava,omitempty"`
}

// Turn is the active player's turn.
type Turn struct {
	Seat    games.Seat `json:"seat"`
	Number  int        `json:"number"`
	Drawn   bool       `json:"drawn"`
	Actions int        `json:"actions"`
	// Ability is a wine ability waiting for its choice (take, age, recover)
	// for the bottle on AbilityBarrel (0-based).
	Ability       string `json:"ability,omitempty"`
	AbilityBarrel int    `json:"ability_barrel,omitempty"`
	// Extra is true when a Cava rosé gives one more turn after this one.
	Extra bool `json:"extra,omitempty"`
}

// Harvest is a Récolte being picked (CP-27).
type Harvest struct {
	Cards []string     `json:"cards"`
	Order []games.Seat `json:"order"`
	Next  int          `json:"next"`
}

// Rules versions (Info().Rules): a game keeps the version it was created
// under (State.Rules) and is decided by it for ever (RULES.md, "Rules
// versions").
const (
	// rulesV1 is the first version: Time may not be added to a barrel that
	// lost a grape (CP-19, CP-29, as first written).
	rulesV1 = 1
	// rulesV2 lets a barrel that lost a grape (CP-28) receive Time; only its
	// bottling waits for the repair (CP-19, CP-29; issue 19).
	rulesV2 = 2
	// idleRounds is how many rounds without a barrel made, repaired or
	// bottled end a game of rules version 2 (CP-51).
	idleRounds = 50
	// rulesCurrent is the version new games are created under.
	rulesCurrent = rulesV2
)

// State is the whole game state.
type State struct {
	aid *Aid
	// Rules is the rules version the game was created under.
	Rules     int `json:"rules"`
	Players   []string
	Options   games.Options
	Abilities bool
	Deck      []string // top first
	Discard   []string // oldest first
	Market    [2]string
	Hands     [][]string
	Barrels   [][]Barrel
	CavaLeft  int
	InPlay    string // a special being played (CP-21)
	Turn      Turn
	Harvest   *Harvest
	Resigned  []bool
	// Idle counts the turns ended since a barrel was last made, repaired
	// or bottled (CP-51).
	Idle    int `json:"idle"`
	Over    bool
	Winners []games.Seat
	// End is why a game ended without a winner (endDeadlock, endIdle).
	End string `json:"end,omitempty"`
}

// clone deep-copies the state. The card lists share one backing array and
// the barrels another (each list capped at its length, so that an append
// reallocates instead of writing over its neighbour): Decide clones the
// state for every move it accepts.
func (s *State) clone() *State {
	c := *s
	n := len(s.Players) + len(s.Deck) + len(s.Discard)
	nt, nb := 0, 0
	for _, h := range s.Hands {
		n += len(h)
	}
	for _, bs := range s.Barrels {
		nb += len(bs)
		for _, b := range bs {
			n += len(b.Grapes)
			nt += len(b.Time)
		}
	}
	strs := make([]string, 0, n)
	cp := func(x []string) []string {
		if x == nil {
			return nil
		}
		i := len(strs)
		strs = append(strs, x...)
		return strs[i:len(strs):len(strs)]
	}
	c.Players = cp(s.Players)
	// Options are never modified in place, so they are shared.
	c.Deck = cp(s.Deck)
	c.Discard = cp(s.Discard)
	c.Hands = make([][]string, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = cp(h)
	}
	c.Barrels = make([][]Barrel, len(s.Barrels))
	cells := make([]Barrel, 0, nb)
	times := make([]TimeCard, 0, nt)
	for i, bs := range s.Barrels {
		if bs == nil {
			continue
		}
		j := len(cells)
		for _, b := range bs {
			b.Grapes = cp(b.Grapes)
			if b.Time != nil {
				k := len(times)
				times = append(times, b.Time...)
				b.Time = times[k:len(times):len(times)]
			}
			cells = append(cells, b)
		}
		c.Barrels[i] = cells[j:len(cells):len(cells)]
	}
	if s.Harvest != nil {
		h := *s.Harvest
		h.Cards = slices.Clone(h.Cards)
		h.Order = slices.Clone(h.Order)
		c.Harvest = &h
	}
	c.Resigned = slices.Clone(s.Resigned)
	c.Winners = slices.Clone(s.Winners)
	return &c
}

// Event is every Coupage event: Type says which, the other fields are used
// as that type needs. Cards a seat may not see are removed by Redact.
type Event struct {
	Type    string        `json:"type"`
	Seat    games.Seat    `json:"seat"`
	Players []string      `json:"players,omitempty"`
	Options games.Options `json:"options,omitempty"`
	// Target is another seat (the victim, the owner of a barrel).
	Target games.Seat `json:"target,omitempty"`
	Barrel int        `json:"barrel,omitempty"` // 1-based
	// Own is the mover's own barrel (Vol de temps destination), 1-based.
	Own      int      `json:"own,omitempty"`
	Slot     int      `json:"slot,omitempty"` // market slot 1-2
	Wine     string   `json:"wine,omitempty"`
	Card     string   `json:"card,omitempty"`
	Cards    []string `json:"cards,omitempty"`
	Paid     []string `json:"paid,omitempty"`
	N        int      `json:"n,omitempty"`
	FaceDown bool     `json:"face_down,omitempty"`
	Index    int      `json:"index,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	// Action marks the event that uses one of the turn's actions (CP-16).
	Action  bool         `json:"action,omitempty"`
	Ability string       `json:"ability,omitempty"`
	Extra   bool         `json:"extra,omitempty"`
	Cava    bool         `json:"cava,omitempty"`
	Counter int          `json:"counter,omitempty"`
	Order   []games.Seat `json:"order,omitempty"`
	Winners []games.Seat `json:"winners,omitempty"`
	Hands   [][]string   `json:"hands,omitempty"`
	// Summary is the English summary that game_over events recorded
	// before the summary was said in each language (issue 33); it is read
	// and never written: Result says the summary from Winners, Reason and
	// the players who left.
	Summary string `json:"summary,omitempty"`
}

// EventType implements games.Event.
func (e Event) EventType() string { return e.Type }

// Event types.
const (
	evSeated      = "seated"        // players by seat, options
	evShuffled    = "shuffled"      // Cards: the new deck (hidden); Reason setup|reshuffle
	evDrew        = "drew"          // Seat draws N cards (Cards hidden from others); Reason deal|turn|action|refill
	evMarket      = "market_filled" // deck top to market Slot
	evTook        = "took_market"   // Seat takes market Slot's Card; Reason turn|ability
	evMade        = "made"          // CP-8
	evRepaired    = "repaired"      // CP-29
	evAged        = "aged"          // Time added; Reason time|stars|rouge
	evBottled     = "bottled"       // CP-10, CP-22
	evCleared     = "cleared"       // a bottled barrel's contents discarded
	evRecovered   = "recovered"     // CP-34
	evDeclined    = "declined"      // an optional ability declined
	evAbility     = "ability_due"   // a wine ability waits for its choice (CP-7)
	evDiscarded   = "discarded"     // cards to the discard pile; Reason discard|special|harvest
	evPlayed      = "played"        // a special leaves the hand (CP-21)
	evSpoiled     = "spoiled"       // CP-24
	evSpoilMoved  = "spoil_advanced"
	evSpoilGone   = "spoil_removed" // CP-25, CP-26
	evStole       = "stole"         // CP-23 (Card hidden from all but Seat and Target)
	evEvaporated  = "evaporated"    // CP-28
	evTimeStolen  = "time_stolen"   // CP-30
	evRevealed    = "revealed"      // CP-27
	evPicked      = "picked"        // CP-27
	evTurnEnded   = "turn_ended"
	evTurnStarted = "turn_started"
	evResigned    = "resigned"
	evGameOver    = "game_over"
)

// Why a game ends without a winner (the Reason of its game_over event).
const (
	endDeadlock = "deadlock" // CP-50
	endIdle     = "idle"     // CP-51
)

// Info implements games.Rules.
func (Rules) Info() games.Info {
	return games.Info{
		ID:       "coupage",
		Name:     "Coupage",
		MinSeats: 2,
		MaxSeats: 4,
		Options:  options(),
		Rules:    rulesCurrent,
	}
}

// Initial implements games.Rules: the empty state of a game created under
// rules version rules.
func (Rules) Initial(rules int) *State { return &State{Rules: rules} }

// timeOnIncomplete tells whether a barrel that lost a grape may still
// receive Time (CP-19 from rules version 2).
func (s *State) timeOnIncomplete() bool { return s.Rules >= rulesV2 }

// aidOf returns the data set named by the options.
func (r Rules) aidOf(opts games.Options) (*Aid, error) {
	name := opts["aid_tables"]
	if name == "" {
		name = "house"
	}
	a, ok := r.aids[name]
	if !ok {
		return nil, words.Illegal("options", "refusal.aid_tables", name)
	}
	return a, nil
}

// Setup implements games.Rules: CP-15 seat order, CP-3 deck, deal and market.
func (r Rules) Setup(opts games.Options, players []string, rng *rand.Rand) ([]Event, error) {
	if len(players) < 2 || len(players) > 4 {
		return nil, words.Illegal("CP-2", "refusal.player_count", len(players))
	}
	if v := opts["wine_abilities"]; v != "" && v != "on" && v != "off" {
		return nil, words.Illegal("options", "refusal.wine_abilities", v)
	}
	a, err := r.aidOf(opts)
	if err != nil {
		return nil, err
	}
	o := games.Options{"wine_abilities": "on", "aid_tables": a.Name}
	maps.Copy(o, opts)
	seated := games.Shuffle(rng, players)
	deck := games.Shuffle(rng, a.Deck())
	b := &builder{r: r, s: r.Initial(rulesCurrent), rng: rng}
	b.emit(Event{Type: evSeated, Players: seated, Options: o})
	b.emit(Event{Type: evShuffled, Cards: deck, N: len(deck), Reason: "setup"})
	for seat := range seated {
		b.emit(Event{Type: evDrew, Seat: games.Seat(seat), Cards: slices.Clone(deck[:5]), N: 5, Reason: "deal"})
		deck = deck[5:]
	}
	for slot := 1; slot <= 2; slot++ {
		b.emit(Event{Type: evMarket, Slot: slot, Card: deck[0]})
		deck = deck[1:]
	}
	b.emit(Event{Type: evTurnStarted, Seat: 0})
	return b.evs, nil
}

// Evolve implements games.Rules. It never fails: an event that does not fit
// the state is applied as far as it goes.
func (r Rules) Evolve(s *State, e Event) *State {
	switch e.Type {
	case evSeated:
		a, err := r.aidOf(e.Options)
		if err != nil {
			a = r.aids["house"]
		}
		n := len(e.Players)
		*s = State{aid: a, Rules: s.Rules, Players: slices.Clone(e.Players), Options: maps.Clone(e.Options),
			Abilities: e.Options["wine_abilities"] != "off", CavaLeft: a.CavaCards,
			Hands: make([][]string, n), Barrels: make([][]Barrel, n), Resigned: make([]bool, n)}
		for i := range n {
			s.Barrels[i] = make([]Barrel, a.Barrels)
			for j := range s.Barrels[i] {
				s.Barrels[i][j].State = Empty
			}
		}
	case evShuffled:
		if e.Reason == "reshuffle" {
			s.Discard = nil
		}
		s.Deck = slices.Clone(e.Cards)
	case evDrew:
		n := min(e.N, len(s.Deck))
		s.Hands[e.Seat] = append(s.Hands[e.Seat], s.Deck[:n]...)
		s.Deck = s.Deck[n:]
		if e.Reason == "turn" {
			s.Turn.Drawn = true
		}
		if e.Action {
			s.useAction()
		}
	case evMarket:
		if len(s.Deck) > 0 {
			s.Market[e.Slot-1] = s.Deck[0]
			s.Deck = s.Deck[1:]
		}
	case evTook:
		s.Hands[e.Seat] = append(s.Hands[e.Seat], s.Market[e.Slot-1])
		s.Market[e.Slot-1] = ""
		switch e.Reason {
		case "turn":
			s.Turn.Drawn = true
		case "ability":
			s.Turn.Ability = ""
		}
	case evMade:
		s.takeFromHand(e.Seat, e.Cards)
		b := &s.Barrels[e.Seat][e.Barrel-1]
		b.State, b.Wine, b.Grapes, b.Time, b.Spoil = Production, e.Wine, slices.Clone(e.Cards), nil, 0
		s.Idle = 0
		s.useActionIf(e.Action)
	case evRepaired:
		s.takeFromHand(e.Seat, e.Cards)
		b := &s.Barrels[e.Seat][e.Barrel-1]
		b.Grapes = append(b.Grapes, e.Cards...)
		s.Idle = 0
		s.useActionIf(e.Action)
	case evAged:
		b := &s.Barrels[e.Seat][e.Barrel-1]
		s.takeFromHand(e.Seat, []string{e.Card})
		b.Time = append(b.Time, TimeCard{Card: e.Card, FaceDown: e.FaceDown, Knower: e.Seat})
		s.takeFromHand(e.Seat, e.Paid)
		s.Discard = append(s.Discard, e.Paid...)
		if e.Reason == "rouge" {
			s.Turn.Ability = ""
		}
		s.useActionIf(e.Action)
	case evBottled:
		b := &s.Barrels[e.Seat][e.Barrel-1]
		s.takeFromHand(e.Seat, e.Paid)
		s.Discard = append(s.Discard, e.Paid...)
		b.State = Bottled
		b.Spoil = 0
		s.Idle = 0
		if e.Cava {
			b.Cava = true
			s.CavaLeft--
		}
		if e.Extra {
			s.Turn.Extra = true
		}
		s.useActionIf(e.Action)
	case evCleared:
		b := &s.Barrels[e.Seat][e.Barrel-1]
		s.Discard = append(s.Discard, b.Grapes...)
		for _, t := range b.Time {
			s.Discard = append(s.Discard, t.Card)
		}
		if b.Spoil > 0 {
			s.Discard = append(s.Discard, s.aid.byEff[effSpoil])
			b.Spoil = 0
		}
		b.Grapes, b.Time = nil, nil
		if b.State != Bottled {
			b.State, b.Wine = Empty, ""
		}
	case evRecovered:
		b := &s.Barrels[e.Seat][e.Barrel-1]
		if e.Index >= 0 && e.Index < len(b.Time) {
			s.Hands[e.Seat] = append(s.Hands[e.Seat], b.Time[e.Index].Card)
			b.Time = slices.Delete(b.Time, e.Index, e.Index+1)
		}
		if len(e.Cards) > 0 {
			if i := slices.Index(b.Grapes, e.Cards[0]); i >= 0 {
				s.Hands[e.Seat] = append(s.Hands[e.Seat], b.Grapes[i])
				b.Grapes = slices.Delete(b.Grapes, i, i+1)
			}
		}
		s.Turn.Ability = ""
	case evDeclined:
		s.Turn.Ability = ""
	case evAbility:
		s.Turn.Ability, s.Turn.AbilityBarrel = e.Ability, e.Barrel-1
	case evDiscarded:
		switch e.Reason {
		case "special":
			s.Discard = append(s.Discard, s.InPlay)
			s.InPlay = ""
		case "harvest":
			if s.Harvest != nil {
				s.Discard = append(s.Discard, s.Harvest.Cards...)
				s.Harvest = nil
			}
		default:
			s.takeFromHand(e.Seat, e.Cards)
			s.Discard = append(s.Discard, e.Cards...)
			s.useActionIf(e.Action)
		}
	case evPlayed:
		s.takeFromHand(e.Seat, []string{e.Card})
		s.InPlay = e.Card
		s.useActionIf(e.Action)
	case evSpoiled:
		s.Barrels[e.Target][e.Barrel-1].Spoil = 1
		s.InPlay = ""
	case evSpoilMoved:
		s.Barrels[e.Target][e.Barrel-1].Spoil = e.Counter
	case evSpoilGone:
		b := &s.Barrels[e.Target][e.Barrel-1]
		if b.Spoil > 0 {
			b.Spoil = 0
			s.Discard = append(s.Discard, s.aid.byEff[effSpoil])
		}
	case evStole:
		h := s.Hands[e.Target]
		if e.Index >= 0 && e.Index < len(h) {
			c := h[e.Index]
			s.Hands[e.Target] = slices.Delete(h, e.Index, e.Index+1)
			s.Hands[e.Seat] = append(s.Hands[e.Seat], c)
		}
	case evEvaporated:
		b := &s.Barrels[e.Target][e.Barrel-1]
		if i := slices.Index(b.Grapes, e.Card); i >= 0 {
			b.Grapes = slices.Delete(b.Grapes, i, i+1)
			s.Discard = append(s.Discard, e.Card)
		}
	case evTimeStolen:
		from := &s.Barrels[e.Target][e.Barrel-1]
		if e.Index >= 0 && e.Index < len(from.Time) {
			t := from.Time[e.Index]
			from.Time = slices.Delete(from.Time, e.Index, e.Index+1)
			to := &s.Barrels[e.Seat][e.Own-1]
			to.Time = append(to.Time, t)
		}
	case evRevealed:
		n := min(len(e.Cards), len(s.Deck))
		if s.Harvest == nil {
			s.Harvest = &Harvest{Order: slices.Clone(e.Order)}
		}
		s.Harvest.Cards = append(s.Harvest.Cards, s.Deck[:n]...)
		s.Deck = s.Deck[n:]
	case evPicked:
		if h := s.Harvest; h != nil {
			if i := slices.Index(h.Cards, e.Card); i >= 0 {
				h.Cards = slices.Delete(h.Cards, i, i+1)
				s.Hands[e.Seat] = append(s.Hands[e.Seat], e.Card)
			}
			h.Next++
			if h.Next >= len(h.Order) && len(h.Cards) == 0 {
				s.Harvest = nil
			}
		}
	case evTurnEnded:
		s.Turn.Actions = 0
		s.Idle++
	case evTurnStarted:
		s.Turn = Turn{Seat: e.Seat, Number: s.Turn.Number + 1, Actions: 2}
	case evResigned:
		s.Resigned[e.Seat] = true
		s.Discard = append(s.Discard, s.Hands[e.Seat]...)
		s.Hands[e.Seat] = nil
		for j := range s.Barrels[e.Seat] {
			b := &s.Barrels[e.Seat][j]
			s.Discard = append(s.Discard, b.Grapes...)
			for _, t := range b.Time {
				s.Discard = append(s.Discard, t.Card)
			}
			if b.Spoil > 0 {
				s.Discard = append(s.Discard, s.aid.byEff[effSpoil])
			}
			b.Grapes, b.Time, b.Spoil = nil, nil, 0
			if b.State == Production {
				b.State, b.Wine = Empty, ""
			}
		}
		if s.Turn.Seat == e.Seat {
			s.Turn.Ability = ""
			s.Turn.Extra = false
		}
		if h := s.Harvest; h != nil {
			for i := h.Next; i < len(h.Order); i++ {
				if h.Order[i] == e.Seat {
					h.Order = slices.Delete(h.Order, i, i+1)
					break
				}
			}
		}
	case evGameOver:
		s.Over = true
		s.Winners = slices.Clone(e.Winners)
		s.End = e.Reason
	}
	return s
}

func (s *State) useAction() {
	if s.Turn.Actions > 0 {
		s.Turn.Actions--
	}
}

func (s *State) useActionIf(ok bool) {
	if ok {
		s.useAction()
	}
}

// takeFromHand removes cards (a multiset) from seat's hand.
func (s *State) takeFromHand(seat games.Seat, cards []string) {
	h := s.Hands[seat]
	for _, c := range cards {
		if i := slices.Index(h, c); i >= 0 {
			h = slices.Delete(h, i, i+1)
		}
	}
	s.Hands[seat] = h
}

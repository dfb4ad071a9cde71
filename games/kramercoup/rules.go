package kramercoup

import (
	"math/rand/v2"
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Rules implements games.Rules for Kramer's Coup.
type Rules struct{}

// New returns the type-erased engine of Kramer's Coup.
func New() games.Engine { return games.Adapt[*State, Move, Event](Rules{}) }

// Event types.
const (
	// EvSeated records the seating (players by seat) and the options (KC-7).
	EvSeated = "seated"
	// EvDealt records the starting hands (KC-4, KC-22); hidden per seat.
	EvDealt = "dealt"
	// EvBought records a purchase of tokens (KC-9).
	EvBought = "bought"
	// EvPlaced records a placed tile (KC-10, KC-14, KC-15).
	EvPlaced = "placed"
	// EvPassed records a player placing no last tile (KC-15).
	EvPassed = "passed"
	// EvExchanged records an exchange: discards and refill draws (KC-11).
	EvExchanged = "exchanged"
	// EvResigned records a player leaving (KC-34).
	EvResigned = "resigned"
	// EvGameOver records the scoring and reveals every hand (KC-17..KC-20).
	EvGameOver = "game_over"
)

// Event is every event of the game; Type says which fields are used.
type Event struct {
	Type string `json:"type"`
	// Seat is the acting seat (bought, placed, passed, exchanged, resigned;
	// 0 and meaningless in seated, dealt and game_over).
	Seat int `json:"seat"`
	// Players are the names by seat (seated).
	Players []string `json:"players,omitempty"`
	// Options are the game's options (seated).
	Options games.Options `json:"options,omitempty"`
	// Hands are the hands by seat (dealt: hidden but one's own; game_over:
	// every remaining hand, revealed).
	Hands [][]Tile `json:"hands,omitempty"`
	// Counts are the hand sizes by seat (dealt).
	Counts []int `json:"counts,omitempty"`
	// PoolSize is the number of tiles left in the pool (dealt, exchanged,
	// resigned).
	PoolSize int `json:"pool_size,omitempty"`
	// Tokens are the tokens bought per colour index (bought).
	Tokens []int `json:"tokens,omitempty"`
	// Cost is the price paid (bought).
	Cost int `json:"cost,omitempty"`
	// Tile is the tile placed (placed).
	Tile *Tile `json:"tile,omitempty"`
	// Chain is the length of the chain the placed tile is in (placed).
	Chain int `json:"chain,omitempty"`
	// Coup is set when the placed tile makes the Coup (KC-14).
	Coup bool `json:"coup,omitempty"`
	// Last is set for a last tile after the Coup (KC-15).
	Last bool `json:"last,omitempty"`
	// Discarded and Drawn are the exchanged tiles (hidden but from the
	// exchanger); NDiscarded and NDrawn their public counts (exchanged).
	Discarded  []Tile `json:"discarded,omitempty"`
	Drawn      []Tile `json:"drawn,omitempty"`
	NDiscarded int    `json:"n_discarded,omitempty"`
	NDrawn     int    `json:"n_drawn,omitempty"`
	// Returned is the number of tiles a resigning player put back (resigned).
	Returned int `json:"returned,omitempty"`
	// Pool is the pool's content, revealed at the end (game_over).
	Pool []Tile `json:"pool,omitempty"`
	// Values are the token values per colour; Capital the capital per seat;
	// Winners the winning seats (game_over).
	Values  []int `json:"values,omitempty"`
	Capital []int `json:"capital,omitempty"`
	Winners []int `json:"winners,omitempty"`
}

// EventType implements games.Event.
func (e Event) EventType() string { return e.Type }

// Info describes the game (section 1 and 4).
func (Rules) Info() games.Info {
	return games.Info{
		ID: "kramercoup", Name: "Coup (Wolfgang Kramer, ASS 1975)", MinSeats: 2, MaxSeats: 6,
		Options: options(),
		Rules:   RulesVersion,
	}
}

// RulesVersion is the version of the rules this code decides by (see
// games.Info.Rules): RULES.md as it stands is version 1.
const RulesVersion = 1

// Initial is the state before any event of a game created under rules
// version rules (there is one version, 1; the state keeps it).
func (Rules) Initial(rules int) *State {
	return &State{Rules: rules, Phase: PhaseSetup, Turn: -1, CoupMaker: -1}
}

// Setup seats the players in a random order (KC-7), records the options and
// deals B tiles to each seat from the shuffled pool (KC-4, KC-22).
func (Rules) Setup(opts games.Options, players []string, r *rand.Rand) ([]Event, error) {
	lim, ok := LimitsFor(len(players))
	if !ok {
		return nil, words.Illegal("KC-3", "refusal.seats", len(players))
	}
	order := opts[OptExchangeOrder]
	if order == "" {
		order = DiscardFirst
	}
	if order != DiscardFirst && order != DrawFirst {
		return nil, words.Illegal("KC-11", "refusal.exchange_order", DiscardFirst, DrawFirst, order)
	}
	seated := games.Shuffle(r, players)
	tiles := games.Shuffle(r, allTiles())
	hands := make([][]Tile, len(players))
	counts := make([]int, len(players))
	for i := range hands {
		hands[i] = slices.Clone(tiles[i*lim.Hand : (i+1)*lim.Hand])
		slices.Sort(hands[i])
		counts[i] = lim.Hand
	}
	return []Event{
		{Type: EvSeated, Players: seated, Options: games.Options{OptExchangeOrder: order}},
		{Type: EvDealt, Hands: hands, Counts: counts, PoolSize: TileCount - len(players)*lim.Hand},
	}, nil
}

// turnError is the error for a seat that may not act now.
func turnError(s *State, seat int) error {
	if s.finished() || s.Phase == PhaseScoring {
		return words.Illegal("KC-14", "refusal.over")
	}
	if seat < 0 || seat >= s.n() {
		return words.Illegal("KC-8", "refusal.no_seat", seat)
	}
	if s.Resigned[seat] {
		return words.Illegal("KC-34", "refusal.left")
	}
	if s.Turn < 0 || s.Turn >= s.n() {
		// Between the seating and the deal: nobody may act yet.
		return words.Illegal("KC-8", "refusal.nobody")
	}
	who := s.Players[s.Turn]
	switch s.Phase {
	case PhaseBuy:
		return words.Illegal("KC-8", "refusal.turn_buy", who, s.Round)
	case PhasePlace:
		return words.Illegal("KC-8", "refusal.turn_place", who, s.Round, s.Lap)
	case PhaseExchange:
		return words.Illegal("KC-8", "refusal.turn_exchange", who, s.Round)
	default:
		return words.Illegal("KC-15", "refusal.turn_last", who)
	}
}

// Decide checks seat's move and returns its events with their automatic
// consequences (the refill draws, Coup detection, scoring).
func (Rules) Decide(s *State, seat games.Seat, m Move, r *rand.Rand) ([]Event, error) {
	p := seatOf(seat)
	if !s.started() {
		return nil, words.Illegal("KC-7", "refusal.not_set_up")
	}
	if s.Turn < 0 || p != s.Turn {
		return nil, turnError(s, p)
	}
	var ev Event
	var err error
	switch s.Phase {
	case PhaseBuy:
		ev, err = decideBuy(s, p, m)
	case PhasePlace:
		ev, err = decidePlace(s, p, m)
	case PhaseExchange:
		ev, err = decideExchange(s, p, m, r)
	case PhaseLast:
		ev, err = decideLast(s, p, m)
	default:
		return nil, turnError(s, p)
	}
	if err != nil {
		return nil, err
	}
	return finish(s, []Event{ev}), nil
}

// finish applies evs to a copy of s and appends the game_over event when
// nobody is left to act.
func finish(s *State, evs []Event) []Event {
	c := s.clone()
	for _, e := range evs {
		c = Rules{}.Evolve(c, e)
	}
	if c.Phase == PhaseScoring {
		evs = append(evs, gameOver(c))
	}
	return evs
}

// gameOver scores s (KC-17..KC-20) and reveals every hand and the pool.
func gameOver(s *State) Event {
	e := Event{Type: EvGameOver, Hands: make([][]Tile, s.n()), Pool: slices.Clone(s.Pool)}
	for i, h := range s.Hands {
		e.Hands[i] = slices.Clone(h)
		e.Capital = append(e.Capital, s.Capital(i))
	}
	for c := range Colours {
		e.Values = append(e.Values, s.TokenValue(c))
	}
	e.Winners = s.winners()
	return e
}

func decideBuy(s *State, p int, m Move) (Event, error) {
	if m.Kind != KindBuy {
		return Event{}, words.Illegal("KC-9", "refusal.buy_phase")
	}
	for c, k := range m.Buy {
		if k < 0 {
			return Event{}, words.Illegal("KC-9", "refusal.sold_back", k, games.T("colour."+ColourName(c)))
		}
	}
	total := m.total()
	if total > s.Limits.Buy {
		return Event{}, words.Illegal("KC-9", "refusal.buy_limit", s.n(), s.Limits.Buy, total)
	}
	if cost := total * TokenPrice; cost > s.Cash[p] {
		return Event{}, words.Illegal("KC-9", "refusal.cash", total, cost, s.Cash[p])
	}
	for c, k := range m.Buy {
		if k > s.Supply[c] {
			return Event{}, words.Illegal("KC-9", "refusal.supply", chipsText(c, s.Supply[c]), k)
		}
	}
	return Event{Type: EvBought, Seat: p, Tokens: m.Buy[:], Cost: total * TokenPrice}, nil
}

// checkPlace checks that p may place tile t.
func checkPlace(s *State, p int, t Tile, rule string) error {
	if !t.Valid() {
		return words.Unparsable("refusal.no_tile", int(t))
	}
	if s.Board[t] {
		return words.Illegal("KC-1", "refusal.on_board", t.Text())
	}
	if !slices.Contains(s.Hands[p], t) {
		return words.Illegal(rule, "refusal.not_held", t.Text())
	}
	return nil
}

func decidePlace(s *State, p int, m Move) (Event, error) {
	if m.Kind != KindPlace {
		return Event{}, words.Illegal("KC-10", "refusal.place_phase", s.Hands[p][0].Text())
	}
	if err := checkPlace(s, p, m.Tile, "KC-10"); err != nil {
		return Event{}, err
	}
	chain := s.chainWith(m.Tile)
	t := m.Tile
	return Event{Type: EvPlaced, Seat: p, Tile: &t, Chain: chain, Coup: chain >= CoupLength}, nil
}

func decideLast(s *State, p int, m Move) (Event, error) {
	switch m.Kind {
	case KindPass:
		return Event{Type: EvPassed, Seat: p}, nil
	case KindPlace:
		if err := checkPlace(s, p, m.Tile, "KC-15"); err != nil {
			return Event{}, err
		}
		t := m.Tile
		return Event{Type: EvPlaced, Seat: p, Tile: &t, Chain: s.chainWith(m.Tile), Last: true}, nil
	}
	return Event{}, words.Illegal("KC-15", "refusal.last_only")
}

func decideExchange(s *State, p int, m Move, r *rand.Rand) (Event, error) {
	var discards []Tile
	switch m.Kind {
	case KindKeep:
	case KindDiscard:
		discards = slices.Clone(m.Tiles)
		slices.Sort(discards)
		for i, t := range discards {
			if !t.Valid() {
				return Event{}, words.Unparsable("refusal.no_tile", int(t))
			}
			if i > 0 && discards[i-1] == t {
				return Event{}, words.Illegal("KC-11", "refusal.listed_twice", t.Text())
			}
			if !slices.Contains(s.Hands[p], t) {
				return Event{}, words.Illegal("KC-11", "refusal.not_held", t.Text())
			}
		}
	default:
		return Event{}, words.Illegal("KC-11", "refusal.exchange_phase")
	}
	kept := len(s.Hands[p]) - len(discards)
	avail := slices.Clone(s.Pool)
	if s.Order != DrawFirst {
		avail = addTiles(avail, discards)
	}
	k := min(s.Limits.Hand-kept, len(avail))
	var drawn []Tile
	for range max(k, 0) {
		j := games.IntN(r, len(avail))
		drawn = append(drawn, avail[j])
		avail = slices.Delete(avail, j, j+1)
	}
	slices.Sort(drawn)
	pool := len(s.Pool) + len(discards) - len(drawn)
	return Event{Type: EvExchanged, Seat: p, Discarded: discards, Drawn: drawn,
		NDiscarded: len(discards), NDrawn: len(drawn), PoolSize: pool}, nil
}

// Resign is a player leaving ([HOUSE] KC-34): the seat's hand goes back into
// the pool unseen, its cash and tokens stay on the table, it is skipped from
// now on and cannot win. When fewer than two players remain the game ends and
// is scored at once.
func (Rules) Resign(s *State, seat games.Seat, _ *rand.Rand) ([]Event, error) {
	p := seatOf(seat)
	if !s.started() {
		return nil, words.Illegal("KC-7", "refusal.not_set_up")
	}
	if s.finished() || s.Phase == PhaseScoring {
		return nil, words.Illegal("KC-14", "refusal.over")
	}
	if p < 0 || p >= s.n() {
		return nil, words.Illegal("KC-34", "refusal.no_seat", p)
	}
	if s.Resigned[p] {
		return nil, words.Illegal("KC-34", "refusal.already_left")
	}
	ev := Event{Type: EvResigned, Seat: p, Returned: len(s.Hands[p]), PoolSize: len(s.Pool) + len(s.Hands[p])}
	return finish(s, []Event{ev}), nil
}

// Evolve applies one event. It never fails: an event that does not fit the
// state (a seat not at the table, a tile that does not exist) is ignored.
func (Rules) Evolve(s *State, e Event) *State {
	switch e.Type {
	case EvBought, EvPlaced, EvPassed, EvExchanged, EvResigned:
		if e.Seat < 0 || e.Seat >= s.n() {
			return s
		}
	}
	switch e.Type {
	case EvSeated:
		n := len(e.Players)
		lim, _ := LimitsFor(n)
		s.Players = slices.Clone(e.Players)
		s.Order = e.Options[OptExchangeOrder]
		if s.Order == "" {
			s.Order = DiscardFirst
		}
		s.Limits = lim
		s.Hands = make([][]Tile, n)
		s.Cash = make([]int, n)
		s.Tokens = make([][Colours]int, n)
		s.Resigned = make([]bool, n)
		s.ExDiscarded = make([]int, n)
		s.ExDrawn = make([]int, n)
		for i := range s.Cash {
			s.Cash[i] = lim.Cash // KC-22
		}
		for c := range s.Supply {
			s.Supply[c] = TokensPerColour
		}
		s.Pool = allTiles()
		s.Round, s.Start, s.Phase, s.Step, s.Turn, s.CoupMaker = 1, 0, PhaseBuy, 0, -1, -1
	case EvDealt:
		var dealt []Tile
		for i := range s.Hands {
			if i < len(e.Hands) {
				s.Hands[i] = slices.Clone(e.Hands[i])
				dealt = append(dealt, e.Hands[i]...)
			}
		}
		slices.Sort(dealt)
		s.Pool = removeTiles(s.Pool, dealt)
		s.seek()
	case EvBought:
		for c := range Colours {
			if c < len(e.Tokens) {
				s.Tokens[e.Seat][c] += e.Tokens[c]
				s.Supply[c] -= e.Tokens[c]
			}
		}
		s.Cash[e.Seat] -= e.Cost
		s.Bank += e.Cost
		s.Step++
		s.seek()
	case EvPlaced:
		if e.Tile == nil || !e.Tile.Valid() {
			return s
		}
		t := *e.Tile
		s.Board[t] = true
		s.Placed++
		s.Hands[e.Seat] = removeTiles(s.Hands[e.Seat], []Tile{t})
		if e.Coup && s.Phase == PhasePlace {
			s.Phase, s.CoupMaker, s.Step, s.Lap = PhaseLast, e.Seat, 0, 0
		} else {
			s.Step++
		}
		s.seek()
	case EvPassed:
		s.Step++
		s.seek()
	case EvExchanged:
		s.Hands[e.Seat] = addTiles(removeTiles(s.Hands[e.Seat], e.Discarded), e.Drawn)
		s.Pool = removeTiles(addTiles(s.Pool, e.Discarded), e.Drawn)
		s.ExDiscarded[e.Seat], s.ExDrawn[e.Seat] = e.NDiscarded, e.NDrawn
		s.Step++
		s.seek()
	case EvResigned:
		s.Resigned[e.Seat] = true
		s.Pool = addTiles(s.Pool, s.Hands[e.Seat])
		s.Hands[e.Seat] = nil
		if s.activeCount() < 2 {
			s.Phase, s.Turn = PhaseScoring, -1
		} else {
			s.seek()
		}
	case EvGameOver:
		s.Phase, s.Turn = PhaseOver, -1
	}
	return s
}

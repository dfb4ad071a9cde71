package coyote

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/courrier-games/courrier/games"
)

// Rules is Coyote's implementation of the rules contract.
type Rules struct{}

// New returns the Coyote engine.
func New() games.Engine { return games.Adapt(Rules{}) }

var _ games.Rules[State, Move, Event] = Rules{}

// Option names.
const (
	OptDeck          = "deck"
	OptElimination   = "elimination"
	OptVariantTokens = "variant_tokens"
)

// Info describes Coyote and its options (rules section 4).
func (Rules) Info() games.Info {
	return games.Info{
		ID:       "coyote",
		Name:     "Coyote",
		MinSeats: 3,
		MaxSeats: 6,
		Options:  options(),
		Rules:    RulesVersion,
	}
}

// RulesVersion is the version of the rules this code decides by (RULES.md);
// Coyote has had one.
const RulesVersion = 1

// Initial is the state before any event of a game created under rules
// version rules.
func (Rules) Initial(rules int) State {
	s := newState()
	s.Rules = rules
	return s
}

// Players returns the player names by seat.
func (Rules) Players(s State) []string { return slices.Clone(s.Players) }

// Setup seats the players in a random order (CY-14), shuffles the deck into
// the pile (CY-18) and deals the first round, seat 0 bidding first.
func (r Rules) Setup(opts games.Options, players []string, rng *rand.Rand) ([]Event, error) {
	if len(players) < 3 || len(players) > 6 {
		return nil, words.Illegal("CY-1", "refusal.seats", len(players))
	}
	get := func(name string) string {
		if v, ok := opts[name]; ok {
			return v
		}
		for _, o := range r.Info().Options {
			if o.Name == name {
				return o.Default
			}
		}
		return ""
	}
	deckName := get(OptDeck)
	deck, err := LoadDeck(deckName)
	if err != nil {
		return nil, words.Illegal("CY-2", "refusal.deck", fmt.Sprint(deckNames()), deckName)
	}
	elim, err := strconv.Atoi(get(OptElimination))
	if err != nil || elim < 3 || elim > 5 {
		return nil, words.Illegal("CY-10", "refusal.elimination")
	}
	if elim > 3 && len(players) > 4 {
		return nil, words.Illegal("CY-10", "refusal.elimination_seats", elim, len(players))
	}
	var variant bool
	switch get(OptVariantTokens) {
	case "on":
		variant = true
	case "off":
	default:
		return nil, words.Illegal("CY-12", "refusal.variant_value")
	}
	var tokens []string
	if variant {
		if tokens, err = LoadVariantTokens(); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(players))
	for i := range order {
		order[i] = i
	}
	order = games.Shuffle(rng, order)
	seated := make([]string, len(players))
	for seat, j := range order {
		seated[seat] = players[j]
	}
	b := newBuilder(r.Initial(RulesVersion), rng)
	b.emit(Event{Type: EvSetup, Setup: &SetupEvent{Players: seated, Order: order, Deck: deckName, Feathers: deck,
		Elimination: elim, Variant: variant, Tokens: tokens}})
	ids := make([]int, len(deck))
	for i := range ids {
		ids[i] = i
	}
	b.shuffle("start", ids)
	b.deal(0)
	return b.evs, nil
}

// builder accumulates the events of one decision, folding each into its own
// copy of the state so that automatic consequences see their effects.
type builder struct {
	s   State
	evs []Event
	rng *rand.Rand
}

func newBuilder(s State, rng *rand.Rand) *builder { return &builder{s: s, rng: rng} }

func (b *builder) emit(e Event) {
	b.evs = append(b.evs, e)
	b.s = evolve(b.s, e)
}

// shuffle makes a new pile of ids (sorted first, so the draw depends only on
// the generator).
func (b *builder) shuffle(reason string, ids []int) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	pile := games.Shuffle(b.rng, ids)
	b.emit(Event{Type: EvShuffle, Shuffle: &ShuffleEvent{Reason: reason, Pile: pile, Size: len(pile)}})
}

// deal starts a round with first bidding (CY-4, CY-5): a short pile is first
// reshuffled with the discard; each living seat, from first clockwise, takes
// the top feather.
func (b *builder) deal(first games.Seat) {
	s := b.s
	first = s.nextLiving(first)
	if len(s.Pile) < s.living() {
		b.shuffle("short", append(slices.Clone(s.Pile), s.Discard...))
		s = b.s
	}
	var worn []Dealt
	top := 0
	for i := range s.seats() {
		seat := games.Seat((int(first) + i) % s.seats())
		if s.Out[seat] {
			continue
		}
		worn = append(worn, Dealt{Seat: seat, Feather: new(s.feather(s.Pile[top]))})
		top++
	}
	b.emit(Event{Type: EvDeal, Deal: &DealEvent{Round: s.Round + 1, First: first, Worn: worn}})
}

// turnOver draws the top feather for a turn (CY-16): an empty pile is first
// made anew from the discard. It returns false when there is none.
func (b *builder) turnOver() (Feather, bool) {
	if len(b.s.Pile) == 0 {
		if len(b.s.Discard) == 0 {
			return Feather{}, false
		}
		b.shuffle("empty", b.s.Discard)
	}
	return b.s.feather(b.s.Pile[0]), true
}

// endRound puts the round's feathers on the discard pile, reshuffling all of
// them after `night` (CY-11), and starts the next round with first, or ends
// the game (CY-17).
func (b *builder) endRound(first games.Seat, abandoned bool) {
	s := b.s
	var fs []Feather
	night := false
	for _, id := range s.roundFeathers() {
		f := s.feather(id)
		fs = append(fs, f)
		night = night || (f.Colour == Blue && f.Face == FaceNight)
	}
	b.emit(Event{Type: EvRoundEnd, RoundEnd: &RoundEndEvent{Round: s.Round, Feathers: fs, Night: night, Abandoned: abandoned}})
	if b.s.living() <= 1 {
		b.emit(Event{Type: EvGameOver, GameOver: &GameOverEvent{Winner: b.s.nextLiving(0)}})
		return
	}
	if night {
		all := make([]int, len(b.s.Deck))
		for i := range all {
			all[i] = i
		}
		b.shuffle("night", all)
	}
	b.deal(first)
}

// take gives seat a coyote token (CY-7, CY-10).
func (b *builder) take(seat games.Seat) {
	n := b.s.Coyotes[seat] + 1
	b.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: seat, Coyotes: n, Eliminated: n >= b.s.Elimination}})
}

// Decide checks a move by seat and returns its events with every automatic
// consequence: the count, tokens, the next round.
func (Rules) Decide(s State, seat games.Seat, m Move, rng *rand.Rand) ([]Event, error) {
	if err := mayAct(s, seat); err != nil {
		return nil, err
	}
	b := newBuilder(s.clone(), rng)
	switch m.Kind {
	case MoveBid:
		if m.Bid < 1 {
			return nil, words.Illegal("CY-6", "refusal.bid_min")
		}
		if s.Bid > 0 && m.Bid <= s.Bid {
			return nil, words.Illegal("CY-6", "refusal.bid_low", s.Bid)
		}
		if limit := bidLimit(s, seat); m.Bid > limit {
			return nil, words.Illegal("CY-32", "refusal.bid_max", s.MaxBid, limit)
		}
		b.emit(Event{Type: EvBid, Bid: &BidEvent{Seat: seat, Bid: m.Bid}})
	case MoveCoyote:
		if s.Bid == 0 {
			return nil, words.Illegal("CY-6", "refusal.no_bid")
		}
		if s.Bidder == seat {
			return nil, words.Illegal("CY-6", "refusal.own_bid", s.Bid)
		}
		b.call(seat)
	default:
		if err := mayFlip(s, seat, m); err != nil {
			return nil, err
		}
		b.flip(seat, m)
	}
	return b.evs, nil
}

func bidLimit(s State, seat games.Seat) int {
	if s.Bidder == seat {
		return max(s.MaxBid, s.Bid+1)
	}
	return s.MaxBid
}

func mayAct(s State, seat games.Seat) error {
	switch {
	case s.Over:
		return words.Illegal("CY-17", "refusal.over")
	case s.Turn < 0:
		return words.Illegal("CY-15", "refusal.not_started")
	case !s.valid(seat):
		return words.Illegal("CY-15", "refusal.not_seated", s.Players[s.Turn])
	case s.Out[seat]:
		return words.Illegal("CY-10", "refusal.eliminated")
	case s.Withdrawn[seat]:
		return words.Illegal("CY-15", "refusal.withdrawn")
	case s.Turn != seat:
		return words.Illegal("CY-15", "refusal.not_your_turn", s.Players[s.Turn])
	}
	return nil
}

func mayFlip(s State, seat games.Seat, m Move) error {
	switch {
	case !s.Variant:
		return words.Illegal("CY-12", "refusal.no_variant")
	case s.living() <= 2:
		return words.Illegal("CY-12", "refusal.two_left")
	case s.TokenUsed:
		return words.Illegal("CY-12", "refusal.token_used")
	case s.faceUpToken(m.Kind) < 0:
		if !slices.Contains(s.Tokens, m.Kind) {
			return words.Illegal("CY-12", "refusal.no_token", token(m.Kind))
		}
		return words.Illegal("CY-12", "refusal.token_flipped", token(m.Kind))
	}
	switch m.Kind {
	case TokenReveal, TokenReplace:
		if !s.canTurn() {
			return words.Illegal("CY-19", "refusal.nothing_to_turn")
		}
	case TokenDeclare:
		if s.Bidder == seat {
			return words.Illegal("CY-19", "refusal.declare_own_bid")
		}
		if !slices.Contains(s.Faces, m.Face) {
			return words.Illegal("CY-19", "refusal.no_face", face(m.Face), faceCodes(s.Faces))
		}
		if s.active() <= 2 {
			return words.Illegal("CY-31", "refusal.declare_two")
		}
	}
	return nil
}

// flip applies a variant token (CY-12, CY-19).
func (b *builder) flip(seat games.Seat, m Move) {
	s := b.s
	e := FlipEvent{Seat: seat, Token: m.Kind, Index: s.faceUpToken(m.Kind)}
	switch m.Kind {
	case TokenReveal:
		f, _ := b.turnOver()
		e.Feather = new(f)
	case TokenReplace:
		f, _ := b.turnOver()
		e.Feather = new(f)
		for v := range b.s.seats() {
			if v != int(seat) && !b.s.Out[v] {
				e.Viewers = append(e.Viewers, games.Seat(v))
			}
		}
	case TokenDeclare:
		f := s.feather(s.Worn[seat])
		right := f.Face == m.Face
		e.Named, e.Feather, e.Right = m.Face, new(f), &right
	}
	b.emit(Event{Type: EvFlip, Flip: &e})
	if e.Right != nil && !*e.Right {
		// CY-12e: a wrong declaration takes a token at once and ends the
		// round without a count; the declarer starts the next (CY-5).
		b.take(seat)
		b.endRound(seat, false)
	}
}

// call settles "Coyote!" (CY-7, CY-8): `?` turns feathers, the count, the
// token, the end of the round; the winner of the call starts the next (CY-5).
func (b *builder) call(caller games.Seat) {
	s := b.s
	bidder, bid := s.Bidder, s.Bid
	b.emit(Event{Type: EvCall, Call: &CallEvent{Seat: caller, Against: bidder, Bid: bid}})
	questions := countFace(b.s.counted(), b.s, FaceQuestion)
	for turned := 0; turned < questions; turned++ {
		f, ok := b.turnOver()
		if !ok {
			break
		}
		b.emit(Event{Type: EvTurn, Turn: &TurnEvent{Feather: f}})
		if f.Colour == Blue && f.Face == FaceQuestion {
			questions++
		}
	}
	c := judge(countFeathers(b.s, b.s.counted()), caller, bidder, bid)
	b.emit(Event{Type: EvCount, Count: &c})
	b.take(c.Loser)
	winner := caller
	if c.Loser == caller {
		winner = bidder
	}
	b.endRound(winner, false)
}

// Resign takes seat out of the game ([HOUSE] CY-33): it is eliminated, the
// round in progress is abandoned without a count and a new round starts with
// the seat whose turn it was (the next living seat clockwise if that was the
// resigning seat). The last player left wins.
func (Rules) Resign(s State, seat games.Seat, rng *rand.Rand) ([]Event, error) {
	switch {
	case s.Over:
		return nil, words.Illegal("CY-17", "refusal.over")
	case !s.valid(seat):
		return nil, words.Illegal("CY-33", "refusal.resign_seated")
	case s.Out[seat]:
		return nil, words.Illegal("CY-10", "refusal.already_out")
	}
	b := newBuilder(s.clone(), rng)
	first := s.Turn
	if first == seat || first < 0 {
		first = seat
	}
	b.emit(Event{Type: EvResign, Resign: &ResignEvent{Seat: seat}})
	b.endRound(b.s.nextLiving(first), true)
	return b.evs, nil
}

// Evolve applies one event.
func (Rules) Evolve(s State, e Event) State { return evolve(s, e) }

func evolve(s State, e Event) State {
	switch e.Type {
	case EvSetup:
		d := e.Setup
		n := len(d.Players)
		s.Players, s.Order = d.Players, d.Order
		s.DeckName, s.Deck, s.Faces, s.MaxBid = d.Deck, d.Feathers, faces(d.Feathers), maxBid(d.Feathers)
		s.Elimination, s.Variant = d.Elimination, d.Variant
		s.Tokens, s.Flipped = d.Tokens, make([]bool, len(d.Tokens))
		s.Coyotes, s.Out = make([]int, n), make([]bool, n)
		s.Worn, s.Replaced, s.Withdrawn = make([]int, n), make([][]int, n), make([]bool, n)
		for i := range s.Worn {
			s.Worn[i] = -1
		}
	case EvShuffle:
		pile := e.Shuffle.Pile
		s.Pile = slices.Clone(pile)
		s.Discard = slices.DeleteFunc(s.Discard, func(id int) bool { return slices.Contains(pile, id) })
	case EvDeal:
		d := e.Deal
		s.Round, s.Turn, s.Dir = d.Round, d.First, 1
		s.Bid, s.Bidder, s.TokenUsed = 0, -1, false
		clear(s.Flipped)
		s.clearRound()
		for _, w := range d.Worn {
			if w.Feather != nil {
				s.Worn[w.Seat] = w.Feather.ID
				s.Pile = remove(s.Pile, w.Feather.ID)
			}
		}
	case EvBid:
		s.Bid, s.Bidder, s.TokenUsed = e.Bid.Bid, e.Bid.Seat, false
		s.Turn = s.next(e.Bid.Seat)
	case EvFlip:
		f := e.Flip
		s.Flipped[f.Index] = true
		s.TokenUsed = true
		switch f.Token {
		case TokenReveal:
			s.Pile = remove(s.Pile, f.Feather.ID)
			s.FaceUp = append(s.FaceUp, Turned{Feather: f.Feather.ID, By: TokenReveal, Seat: f.Seat})
		case TokenReverse:
			s.Dir = -s.Dir
		case TokenSkip:
			s.Turn, s.TokenUsed = s.next(f.Seat), false
		case TokenReplace:
			if f.Feather != nil {
				s.Pile = remove(s.Pile, f.Feather.ID)
				s.Replaced[f.Seat] = append(s.Replaced[f.Seat], s.Worn[f.Seat])
				s.Worn[f.Seat] = f.Feather.ID
			}
		case TokenDeclare:
			if f.Right != nil && *f.Right {
				s.Withdrawn[f.Seat] = true
				s.Turn, s.TokenUsed = s.next(f.Seat), false
			} else {
				s.Turn = -1
			}
		}
	case EvCall:
		s.Turn = -1
	case EvTurn:
		s.Pile = remove(s.Pile, e.Turn.Feather.ID)
		s.FaceUp = append(s.FaceUp, Turned{Feather: e.Turn.Feather.ID, By: FaceQuestion, Seat: -1})
	case EvCount:
		s.LastCount = e.Count
	case EvCoyote:
		s.Coyotes[e.Coyote.Seat] = e.Coyote.Coyotes
		if e.Coyote.Eliminated {
			s.Out[e.Coyote.Seat] = true
		}
	case EvResign:
		s.Out[e.Resign.Seat] = true
		s.Turn = -1
	case EvRoundEnd:
		for _, f := range e.RoundEnd.Feathers {
			s.Discard = append(s.Discard, f.ID)
		}
		s.clearRound()
		s.Turn, s.Bid, s.Bidder, s.TokenUsed = -1, 0, -1, false
	case EvGameOver:
		s.Over, s.Winner, s.Turn = true, e.GameOver.Winner, -1
	}
	return s
}

func remove(ids []int, id int) []int {
	if i := slices.Index(ids, id); i >= 0 {
		return slices.Delete(ids, i, i+1)
	}
	return ids
}

// Pending is the one seat whose turn it is, with its default (CY-30).
func (Rules) Pending(s State) []games.Pending {
	if s.Over || s.Turn < 0 {
		return nil
	}
	return []games.Pending{{Seat: s.Turn, Kind: "turn", Rule: "CY-30", Default: defaultMove(s)}}
}

// defaultMove is the move at the deadline (CY-30): no token; bid 1 with no
// bid yet, "Coyote!" on another's bid, one more on one's own.
func defaultMove(s State) string {
	switch {
	case s.Bid == 0:
		return "bid 1"
	case s.Bidder != s.Turn:
		return "coyote"
	default:
		return "bid " + strconv.Itoa(s.Bid+1)
	}
}

// Legal lists seat's moves in canonical notation: the call, the tokens, then
// every bid allowed.
func (Rules) Legal(s State, seat games.Seat) []string {
	l, ok := legalMoves(s, seat)
	if !ok {
		return nil
	}
	var out []string
	if l.call {
		out = append(out, Rules{}.Format(s, Move{Kind: MoveCoyote}))
	}
	out = append(out, l.tokens...)
	for _, f := range l.declare {
		out = append(out, Rules{}.Format(s, Move{Kind: TokenDeclare, Face: f}))
	}
	for n := l.low; n <= l.high; n++ {
		out = append(out, Rules{}.Format(s, Move{Kind: MoveBid, Bid: n}))
	}
	return out
}

// legal is seat's legal moves by kind: whether it may call, the tokens it
// may flip (besides declare) in canonical order, the faces it may declare in
// table order, and its bids, every whole number from low to high.
type legal struct {
	call      bool
	tokens    []string
	declare   []string
	low, high int
}

func legalMoves(s State, seat games.Seat) (legal, bool) {
	if mayAct(s, seat) != nil {
		return legal{}, false
	}
	l := legal{call: s.Bid > 0 && s.Bidder != seat, low: max(s.Bid+1, 1), high: bidLimit(s, seat)}
	if s.Variant {
		for _, kind := range tokenKinds() {
			if kind == TokenDeclare {
				for _, f := range s.Faces {
					if mayFlip(s, seat, Move{Kind: kind, Face: f}) == nil {
						l.declare = append(l.declare, f)
					}
				}
			} else if mayFlip(s, seat, Move{Kind: kind}) == nil {
				l.tokens = append(l.tokens, kind)
			}
		}
	}
	return l, true
}

// Result tells whether the game is over and who won (CY-17).
func (Rules) Result(s State) games.Result {
	if !s.Over {
		return games.Result{}
	}
	return games.Result{Finished: true, Winners: []games.Seat{s.Winner}, Summary: words.Phrase("said.summary", s.Players[s.Winner])}
}

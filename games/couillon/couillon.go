// Package couillon is the rules engine of Couillon (id "couillon"), the
// Belgian and Ardennes 24-card trick-taking game for four players in two
// teams. RULES.md in this directory is its rules page: rule ids CO-1 … CO-31
// come from the project's rules specification, CO-32 … are this package's
// [HOUSE] rules, and the rules versions are listed there.
package couillon

import (
	"math/rand/v2"
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Rules implements games.Rules for Couillon.
type Rules struct{}

// New returns the Couillon engine.
func New() games.Engine { return games.Adapt(Rules{}) }

var _ games.Rules[State, Move, Event] = Rules{}

// RulesVersion is the rules version this code decides new games by
// (RULES.md, "Rules versions"):
//
//  1. the first rules: once a trick is trumped, any card of the led suit
//     follows (CO-7a); under deal_rule = threshold20 only a 20–20 split is a
//     tie (CO-9).
//  2. issue 19: the led suit is always played higher when possible, trumped
//     or not (CO-7a); under threshold20 any equal split is a tie (CO-9).
const RulesVersion = 2

// Info describes Couillon: exactly 4 seats and the options of section 4.
func (Rules) Info() games.Info {
	return games.Info{ID: "couillon", Name: "Couillon", MinSeats: 4, MaxSeats: 4, Options: optionSpecs(), Rules: RulesVersion, Teams: 2}
}

// Initial is the state before any event of a game created under rules
// version rules (1 ≤ rules ≤ RulesVersion); the state keeps the version and
// Decide follows it.
func (Rules) Initial(rules int) State {
	return State{Rules: rules, Winner: -1, Declarers: -1, Declarer: -1, Resigned: -1}
}

// Setup draws the teams and seating (CO-17), then shuffles and deals the
// first deal (CO-3) and turns the 17th card.
func (Rules) Setup(opts games.Options, players []string, rng *rand.Rand) ([]Event, error) {
	if len(players) != 4 {
		return nil, words.Illegal("CO-1", "refusal.players", len(players))
	}
	opts = completeOptions(opts)
	if _, err := parseSettings(opts); err != nil {
		return nil, err
	}
	pack := games.Shuffle(rng, Pack())
	players, draws := seatByDraw(players, pack[:4])
	evs := []Event{{Type: EvSeated, Players: players, Draws: draws, Options: opts}}
	return append(evs, dealEvents(0, 1, rng)...), nil
}

// seatByDraw seats players (in joining order) by the cards they drew (CO-17):
// the highest card (rank, then suit order) takes seat 0 and deals first, the
// second seat 2, the higher of the other two seat 1, the last seat 3. It
// returns the players and their cards by seat.
func seatByDraw(players []string, drawn []Card) ([]string, []Card) {
	order := []int{0, 1, 2, 3}
	slices.SortFunc(order, func(a, b int) int { return int(drawn[b]) - int(drawn[a]) })
	seatOf := [4]int{0, 2, 1, 3} // rank in the draw → seat
	byseat := make([]string, 4)
	cards := make([]Card, 4)
	for place, p := range order {
		byseat[seatOf[place]] = players[p]
		cards[seatOf[place]] = drawn[p]
	}
	return byseat, cards
}

// dealEvents shuffles and deals deal number n by dealer (CO-3), then turns
// the 17th card.
func dealEvents(dealer games.Seat, n int, rng *rand.Rand) []Event {
	pack := games.Shuffle(rng, Pack())
	hands := make([][]Card, 4)
	k := 0
	for range 2 {
		for i := 1; i <= 4; i++ {
			seat := (int(dealer) + i) % 4
			hands[seat] = append(hands[seat], pack[k], pack[k+1])
			k += 2
		}
	}
	for i := range hands {
		slices.Sort(hands[i])
	}
	stock := slices.Clone(pack[16:])
	return []Event{
		{Type: EvDealt, Deal: n, Dealer: dealer, Hands: hands, Stock: stock},
		{Type: EvTurned, Pos: 17, Card: stock[0]},
	}
}

// Decide returns the events of seat's move, with every automatic consequence
// (turning cards, collecting tricks, scoring, the next deal, the match end).
func (r Rules) Decide(s State, seat games.Seat, m Move, rng *rand.Rand) ([]Event, error) {
	if err := r.check(s, seat, m); err != nil {
		return nil, err
	}
	c := s.clone()
	var evs []Event
	emit := func(e Event) {
		evs = append(evs, e)
		c = r.Evolve(c, e)
	}
	switch m.Kind {
	case Accept:
		emit(Event{Type: EvAccepted, Seat: seat, Pos: c.Proposed})
		leader := next(c.Dealer) // CO-6
		if c.Set.LeaderDeclarer {
			leader = seat
		}
		emit(Event{Type: EvTrump, Suit: c.Stock[c.Proposed-17].Suit(), Team: team(seat), Declarer: seat, Leader: leader})
	case Pass:
		emit(Event{Type: EvPassed, Seat: seat, Pos: c.Proposed})
		if c.Passes < 4 {
			break
		}
		switch {
		case c.Set.AllPassGerver: // CO-5 option gerver: the bottom card makes trump
			emit(Event{Type: EvTurned, Pos: 24, Card: c.Stock[7]})
			emit(Event{Type: EvTrump, Suit: c.Stock[7].Suit(), NoDeclare: true, Team: -1, Declarer: -1, Leader: next(c.Dealer)})
		case c.Proposed == 24: // CO-5 [HOUSE]: the whole stock refused
			emit(Event{Type: EvTrump, Suit: c.Stock[7].Suit(), NoDeclare: true, Team: -1, Declarer: -1, Leader: next(c.Dealer)})
		default:
			emit(Event{Type: EvTurned, Pos: c.Proposed + 1, Card: c.Stock[c.Proposed-16]})
		}
	case Play:
		emit(Event{Type: EvPlayed, Seat: seat, Card: m.Card})
		if len(c.Trick) < 4 {
			break
		}
		w := trickWinner(c.Trick, c.Trump)
		pts := 0
		for _, p := range c.Trick {
			pts += p.Card.Points()
		}
		emit(Event{Type: EvTrick, Cards: slices.Clone(c.Trick), Winner: w, Points: pts})
		if len(c.Tricks) < 4 {
			break
		}
		rec := scoreDeal(c)
		emit(Event{Type: EvScored, Score: &rec})
		if rec.R[0] == 0 || rec.R[1] == 0 {
			emit(overEvent(c, rec.Winner, "lines"))
			break
		}
		for _, e := range dealEvents(next(c.Dealer), c.Deal+1, rng) {
			emit(e)
		}
	}
	return evs, nil
}

func overEvent(s State, winner int, reason string) Event {
	hands := make([][]Card, 4)
	for i := range hands {
		hands[i] = s.Hands[i].cards()
	}
	return Event{Type: EvOver, Team: winner, Reason: reason, Hands: hands, Stock: slices.Clone(s.Stock[:])}
}

// check says why seat may not make move m now, or nil.
func (r Rules) check(s State, seat games.Seat, m Move) error {
	if s.Phase == PhaseOver {
		return words.Illegal("CO-14", "refusal.over")
	}
	if seat < 0 || seat > 3 {
		return words.Illegal("CO-1", "refusal.not_seated")
	}
	if m.Kind < Accept || m.Kind > Play {
		return words.Unparsable("refusal.no_move")
	}
	switch s.Phase {
	case PhaseTrump:
		if m.Kind == Play {
			return words.Illegal("CO-4", "refusal.trump_not_made", s.name(s.Speaker), suitText(s.Stock[s.Proposed-17].Suit()))
		}
		if seat != s.Speaker {
			return words.Illegal("CO-4", "refusal.not_your_say", s.name(s.Speaker))
		}
		return nil
	case PhasePlay:
		if m.Kind != Play {
			return words.Illegal("CO-4", "refusal.trump_made", suitText(s.Trump))
		}
		if seat != s.Turn {
			return words.Illegal("CO-1", "refusal.not_your_turn", s.name(s.Turn))
		}
		if !m.Card.Valid() {
			return words.Illegal("CO-2", "refusal.no_card")
		}
		if !s.Hands[seat].has(m.Card) {
			return words.Illegal("CO-18", "refusal.not_held", cardText(m.Card))
		}
		if why := s.whyNot(seat, m.Card); !why.IsZero() {
			return words.Illegal("CO-7", why.Key, why.Args...)
		}
		return nil
	}
	return words.Illegal("CO-3", "refusal.not_dealt")
}

// name is seat's player name, or the words "seat n" for a seat with no
// player: a string or a Text, an argument of a message.
func (s *State) name(seat games.Seat) any {
	if seat >= 0 && int(seat) < len(s.Players) {
		return s.Players[seat]
	}
	return games.T("said.seat", int(seat))
}

// trickFacts are what CO-7 needs of the current trick.
type trickFacts struct {
	led       Suit
	highLed   Card // highest card of the led suit
	highTrump Card // highest trump (NoCard if the trick is not trumped)
}

func facts(trick []Played, trump Suit) trickFacts {
	f := trickFacts{led: trick[0].Card.Suit(), highLed: trick[0].Card}
	for _, p := range trick {
		c := p.Card
		if c.Suit() == f.led && c.Rank() > f.highLed.Rank() {
			f.highLed = c
		}
		if c.Suit() == trump && (f.highTrump == NoCard || c.Rank() > f.highTrump.Rank()) {
			f.highTrump = c
		}
	}
	return f
}

// legalSet is the set of cards seat may play now (CO-7).
func (s *State) legalSet(seat games.Seat) cardSet {
	hand := s.Hands[seat]
	if len(s.Trick) == 0 {
		return hand // the leader plays any card
	}
	f := facts(s.Trick, s.Trump)
	led := hand.ofSuit(f.led)
	trumps := hand.ofSuit(s.Trump)
	if s.Set.FollowingGerver {
		if led != 0 {
			return led | trumps
		}
		return hand
	}
	if f.led != s.Trump && led != 0 { // (a)
		if f.highTrump == NoCard || s.beatTrumped() {
			if over := led.above(f.highLed); over != 0 {
				return over
			}
		}
		return led
	}
	if trumps != 0 { // (b), (c)
		if f.highTrump == NoCard {
			return trumps
		}
		if over := trumps.above(f.highTrump); over != 0 {
			return over
		}
		return trumps
	}
	return hand // (d)
}

// whyNot says in words of the catalog why seat may not play c (held) now
// (a "refusal.*" text), or the zero Text. It names only the cards of the
// trick and the suits.
func (s *State) whyNot(seat games.Seat, c Card) games.Text {
	if s.legalSet(seat).has(c) {
		return games.Text{}
	}
	hand := s.Hands[seat]
	f := facts(s.Trick, s.Trump)
	if s.Set.FollowingGerver {
		return games.T("refusal.follow_or_trump", suitText(f.led), suitText(s.Trump))
	}
	if f.led != s.Trump && hand.ofSuit(f.led) != 0 {
		if c.Suit() != f.led {
			return games.T("refusal.follow", suitText(f.led))
		}
		switch {
		case !s.beatTrumped(): // rules version 1
			return games.T("refusal.beat_untrumped", cardText(f.highLed), f.led.Symbol())
		case f.highTrump != NoCard:
			return games.T("refusal.beat_trumped", cardText(f.highLed), f.led.Symbol())
		}
		return games.T("refusal.beat", cardText(f.highLed), f.led.Symbol())
	}
	if c.Suit() != s.Trump {
		if f.led == s.Trump {
			return games.T("refusal.trump_led", suitText(s.Trump))
		}
		return games.T("refusal.must_trump", suitText(f.led), suitText(s.Trump))
	}
	return games.T("refusal.overtrump", cardText(f.highTrump))
}

// trickWinner is the seat that wins a full trick (CO-8).
func trickWinner(trick []Played, trump Suit) games.Seat {
	best := trick[0]
	for _, p := range trick[1:] {
		b, c := best.Card, p.Card
		switch {
		case c.Suit() == b.Suit() && c.Rank() > b.Rank():
			best = p
		case c.Suit() == trump && b.Suit() != trump:
			best = p
		}
	}
	return best.Seat
}

// scoreDeal scores a finished deal (CO-9 … CO-16, CO-19, CO-33).
func scoreDeal(s State) DealRecord {
	rec := DealRecord{Deal: s.Deal, Dealer: s.Dealer, Trump: s.Trump, Declarers: s.Declarers, Winner: -1, Capot: -1}
	rec.Points = [2]int{s.Won[0].points(), s.Won[1].points()}
	tricks := [2]int{}
	for _, t := range s.Tricks {
		tricks[team(t.Winner)]++
	}
	for t := range 2 {
		if tricks[t] == 4 {
			rec.Capot = t
		}
	}
	d := s.Declarers
	switch {
	case s.Set.Threshold20 && d >= 0: // CO-9 option threshold20
		switch {
		case rec.Points[d] > 20:
			rec.Winner = d
		case rec.Points[d] == rec.Points[1-d] && (s.anyEqualTie() || rec.Points[d] == 20):
			rec.Winner = -1 // CO-13
		default:
			rec.Winner = 1 - d
		}
	case rec.Points[0] > rec.Points[1]:
		rec.Winner = 0
	case rec.Points[1] > rec.Points[0]:
		rec.Winner = 1
	}
	rec.R = s.R
	if rec.Winner < 0 { // CO-13
		rec.B = s.B + 1
		return rec
	}
	w := rec.Winner
	rec.Change[w] = -(1 + s.B) // CO-11, CO-13
	if s.Set.Capot && rec.Capot == w {
		rec.Change[w]-- // CO-16, CO-33
	}
	if d >= 0 && w != d {
		rec.Change[d] = 1 + s.B // CO-12, CO-19 (CO-15: never without declarers)
	}
	for t := range 2 {
		rec.R[t] = max(0, s.R[t]+rec.Change[t]) // CO-14
		rec.Change[t] = rec.R[t] - s.R[t]
	}
	rec.B = 0
	return rec
}

// beatTrumped says whether a player holding the led suit must beat its
// highest card even when the trick is trumped (CO-7a, rules version 2).
func (s *State) beatTrumped() bool { return s.Rules >= 2 }

// anyEqualTie says whether, under deal_rule = threshold20, any equal split is
// a tie rather than only 20–20 (CO-9, rules version 2).
func (s *State) anyEqualTie() bool { return s.Rules >= 2 }

// Resign is seat leaving the match: [HOUSE] CO-32, its team forfeits and the
// other team wins; every card becomes public.
func (r Rules) Resign(s State, seat games.Seat, _ *rand.Rand) ([]Event, error) {
	if s.Phase == PhaseOver {
		return nil, words.Illegal("CO-14", "refusal.over")
	}
	if s.Phase == PhaseSetup {
		return nil, words.Illegal("CO-17", "refusal.not_started")
	}
	if seat < 0 || seat > 3 {
		return nil, words.Illegal("CO-32", "refusal.resign_not_seated")
	}
	return []Event{
		{Type: EvResigned, Seat: seat},
		overEvent(s, 1-team(seat), "resign"),
	}, nil
}

// Pending names the one seat that may act (CO-30, CO-31).
func (r Rules) Pending(s State) []games.Pending {
	switch s.Phase {
	case PhaseTrump:
		return []games.Pending{{Seat: s.Speaker, Kind: "trump", Rule: "CO-30", Default: "pass"}}
	case PhasePlay:
		low := s.legalSet(s.Turn).cards()
		def := ""
		if len(low) > 0 {
			def = formatMove(Move{Kind: Play, Card: low[0]})
		}
		return []games.Pending{{Seat: s.Turn, Kind: "play", Rule: "CO-31", Default: def}}
	}
	return nil
}

// Legal lists seat's legal moves in canonical notation (cards in canonical order).
func (r Rules) Legal(s State, seat games.Seat) []string {
	switch {
	case s.Phase == PhaseTrump && seat == s.Speaker:
		return []string{"accept", "pass"}
	case s.Phase == PhasePlay && seat == s.Turn:
		var out []string
		for _, c := range s.legalSet(seat).cards() {
			out = append(out, formatMove(Move{Kind: Play, Card: c}))
		}
		return out
	}
	return nil
}

// Choices is Legal: a Couillon player never has more than 4 legal moves (a
// hand of 4 cards, or accept and pass), so the prompt lists them all.
func (r Rules) Choices(s State, seat games.Seat) []string { return r.Legal(s, seat) }

// Parse reads one move (section 7).
func (Rules) Parse(_ State, text string) (Move, error) { return parseMove(text) }

// Format writes a move in canonical notation.
func (Rules) Format(_ State, m Move) string { return formatMove(m) }

// Result tells whether the match is over and who won. Scores are per seat:
// the lines its team has erased net of loops (starting lines − R).
func (r Rules) Result(s State) games.Result {
	res := games.Result{Finished: s.Phase == PhaseOver}
	if s.Phase == PhaseSetup {
		return res
	}
	res.Scores = make([]int, 4)
	for i := range 4 {
		res.Scores[i] = s.Set.Lines - s.R[team(games.Seat(i))]
	}
	if res.Finished {
		w := s.Winner
		res.Winners = []games.Seat{games.Seat(w), games.Seat(w + 2)}
		letter := "A"
		if w == 1 {
			letter = "B"
		}
		if s.Reason == "resign" {
			res.Summary = words.Phrase("summary.won_resign", letter, s.name(games.Seat(w)), s.name(games.Seat(w+2)), s.R[0], s.R[1], s.name(s.Resigned))
			return res
		}
		res.Summary = words.Phrase("summary.won", letter, s.name(games.Seat(w)), s.name(games.Seat(w+2)), s.R[0], s.R[1])
		return res
	}
	if s.B > 0 {
		res.Summary = words.Phrase("summary.deal_tie", s.Deal, s.R[0], s.R[1], s.B)
		return res
	}
	res.Summary = words.Phrase("summary.deal", s.Deal, s.R[0], s.R[1])
	return res
}

// Players returns the player names by seat, as the seating draw placed them
// (CO-17); nil before seating.
func (Rules) Players(s State) []string { return slices.Clone(s.Players) }

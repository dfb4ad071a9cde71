package couillon

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Event types.
const (
	// EvSeated: the team draw and seating (CO-17), players by seat, options.
	EvSeated = "seated"
	// EvDealt: a shuffle and deal (CO-3): the four hands and the 8-card stock.
	EvDealt = "dealt"
	// EvTurned: a stock card is turned face up (CO-3, CO-5).
	EvTurned = "turned"
	// EvAccepted: a player accepts the proposed trump (CO-4).
	EvAccepted = "accepted"
	// EvPassed: a player passes (CO-4, CO-5).
	EvPassed = "passed"
	// EvTrump: trump is made (CO-4, CO-5) and the first leader named (CO-6).
	EvTrump = "trump"
	// EvPlayed: a card is played (CO-7).
	EvPlayed = "played"
	// EvTrick: a trick is collected (CO-8, CO-18).
	EvTrick = "trick"
	// EvScored: a deal is scored (CO-9 … CO-16, CO-19).
	EvScored = "scored"
	// EvResigned: a player leaves the match (CO-32).
	EvResigned = "resigned"
	// EvOver: the match is over (CO-14, CO-32); every card becomes public.
	EvOver = "over"
)

// Event is every Couillon event: Type says which fields are used.
type Event struct {
	Type string `json:"type"`

	// seated
	Players []string      `json:"players,omitempty"` // by seat
	Draws   []Card        `json:"draws,omitempty"`   // the draw, by seat
	Options games.Options `json:"options,omitempty"`

	// dealt, turned, accepted, passed, trump, played, trick, resigned
	Seat   games.Seat `json:"seat,omitempty"`
	Deal   int        `json:"deal,omitempty"`
	Dealer games.Seat `json:"dealer,omitempty"`
	Hands  [][]Card   `json:"hands,omitempty"` // dealt: by seat (redacted: only the viewer's)
	Stock  []Card     `json:"stock,omitempty"` // dealt: cards 17..24 (redacted: none)
	Pos    int        `json:"pos,omitempty"`   // turned, accepted, passed: stock card 17..24
	Card   Card       `json:"card,omitempty"`  // turned, played

	// trump
	Suit      Suit       `json:"suit,omitempty"`
	Team      int        `json:"team,omitempty"` // trump: declaring team; over: winning team (-1 none)
	Declarer  games.Seat `json:"declarer,omitempty"`
	Leader    games.Seat `json:"leader,omitempty"`
	NoDeclare bool       `json:"no_declarers,omitempty"`

	// trick
	Cards  []Played   `json:"cards,omitempty"`
	Winner games.Seat `json:"winner,omitempty"`
	Points int        `json:"points,omitempty"`

	// scored
	Score *DealRecord `json:"score,omitempty"`

	// over
	Reason string `json:"reason,omitempty"`
}

// EventType implements games.Event.
func (e Event) EventType() string { return e.Type }

// Evolve applies one event to the state. It never fails: an event that does
// not fit is applied as far as it goes.
func (Rules) Evolve(s State, e Event) State {
	switch e.Type {
	case EvSeated:
		s.Phase = PhaseScored
		s.Players = slices.Clone(e.Players)
		for i := range min(4, len(e.Draws)) {
			s.Draws[i] = e.Draws[i]
		}
		s.Options = completeOptions(e.Options)
		s.Set, _ = parseSettings(s.Options)
		s.R = [2]int{s.Set.Lines, s.Set.Lines}
		s.B = 0
		s.Winner, s.Declarers, s.Declarer, s.Resigned = -1, -1, -1, -1
	case EvDealt:
		s.Phase = PhaseTrump
		s.Deal = e.Deal
		s.Dealer = e.Dealer
		for i := range s.Hands {
			s.Hands[i] = 0
			if i < len(e.Hands) {
				s.Hands[i] = setOf(e.Hands[i]...)
			}
		}
		s.Stock = [8]Card{}
		copy(s.Stock[:], e.Stock)
		s.Turned, s.Proposed, s.Passes = 0, 0, 0
		s.Bids = nil
		s.Trump, s.Declarers, s.Declarer = NoSuit, -1, -1
		s.Trick, s.Tricks = nil, nil
		s.Won = [2]cardSet{}
		s.Speaker = next(s.Dealer)
	case EvTurned:
		if e.Pos >= 17 && e.Pos <= 24 {
			s.Turned |= 1 << (e.Pos - 17)
			s.Proposed = e.Pos
		}
		s.Passes = 0
		if e.Pos == 17 {
			s.Speaker = next(s.Dealer) // CO-4
		} else {
			s.Speaker = s.Dealer // CO-5: the dealer speaks first on a new card
		}
	case EvAccepted:
		s.Bids = append(s.Bids, Bid{Seat: e.Seat, Accept: true, Pos: e.Pos})
	case EvPassed:
		s.Bids = append(s.Bids, Bid{Seat: e.Seat, Pos: e.Pos})
		s.Passes++
		s.Speaker = next(e.Seat)
	case EvTrump:
		s.Phase = PhasePlay
		s.Trump = e.Suit
		if e.NoDeclare {
			s.Declarers, s.Declarer = -1, -1
		} else {
			s.Declarers, s.Declarer = e.Team, e.Declarer
		}
		s.Leader, s.Turn = e.Leader, e.Leader
	case EvPlayed:
		s.Hands[e.Seat%4] = s.Hands[e.Seat%4].without(e.Card)
		s.Trick = append(s.Trick, Played{Seat: e.Seat, Card: e.Card})
		s.Turn = next(e.Seat)
	case EvTrick:
		s.Tricks = append(s.Tricks, Trick{Leader: s.Leader, Cards: slices.Clone(e.Cards), Winner: e.Winner, Points: e.Points})
		for _, p := range e.Cards {
			s.Won[team(e.Winner)] = s.Won[team(e.Winner)].with(p.Card)
		}
		s.Trick = nil
		s.Leader, s.Turn = e.Winner, e.Winner
	case EvScored:
		s.Phase = PhaseScored
		if e.Score != nil {
			s.History = append(s.History, *e.Score)
			s.R, s.B = e.Score.R, e.Score.B
		}
	case EvResigned:
		s.Resigned = e.Seat
	case EvOver:
		s.Phase = PhaseOver
		s.Winner = e.Team
		s.Reason = e.Reason
	}
	return s
}

package couillon

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// TurnedCard is a face-up stock card (public, CO-5).
type TurnedCard struct {
	Pos  int  `json:"pos"` // 17..24
	Card Card `json:"card"`
}

// View is what one seat (or a spectator) sees of a match (section 5): its own
// hand, the seating draw, the dealer, the turned stock cards, every accept and
// pass, trump and declarers, every card played and the tricks of the current
// deal, the score sheet. Other hands and the unturned stock are hidden until
// the match ends; then Hands and Stock show every card.
type View struct {
	Viewer  games.Seat  `json:"viewer"`
	Players []string    `json:"players"`
	Draws   []Card      `json:"draws"`
	Options ViewOptions `json:"options"`
	Phase   string      `json:"phase"`

	Lines int    `json:"lines"`
	R     [2]int `json:"r"` // deal wins still needed, team A (seats 0, 2) and B (1, 3)
	B     int    `json:"b"` // pending tie bonus

	Deal      int          `json:"deal"`
	Dealer    games.Seat   `json:"dealer"`
	Hand      []Card       `json:"hand,omitempty"` // the viewer's hand
	HandSizes [4]int       `json:"hand_sizes"`
	Turned    []TurnedCard `json:"turned"`
	Hidden    int          `json:"stock_hidden"` // unturned stock cards
	Proposed  int          `json:"proposed,omitempty"`
	Bids      []Bid        `json:"bids"`

	Trump     Suit       `json:"trump,omitempty"`
	Declarers int        `json:"declarers"` // team; -1 none
	Declarer  games.Seat `json:"declarer"`  // -1 none

	ToAct     games.Seat `json:"to_act"` // -1 nobody
	Trick     []Played   `json:"trick"`
	Tricks    []Trick    `json:"tricks"`
	DealScore [2]int     `json:"deal_points"` // card points taken so far this deal

	History []DealLine `json:"history"` // the score sheet: one line per finished deal

	// At match end only.
	Winner int      `json:"winner"` // team; -1 none yet
	Reason string   `json:"reason,omitempty"`
	Hands  [][]Card `json:"hands,omitempty"`
	Stock  []Card   `json:"stock,omitempty"`
}

// DealLine is one line of the score sheet in a view: the declaring team (-1
// none), each team's card points, the deal's winner (-1 tie), the change of
// each team's R, and R and b after the deal. The "scored" event has the full record.
type DealLine struct {
	Declarers int    `json:"d"`
	Points    [2]int `json:"p"`
	Winner    int    `json:"w"`
	Change    [2]int `json:"c"` // change of R per team (negative: lines erased)
	R         [2]int `json:"r"`
	B         int    `json:"b"`
}

// ViewOptions are the match's options (section 4), as in the seating event.
type ViewOptions struct {
	Following string `json:"following"`
	AllPass   string `json:"all_pass"`
	Leader    string `json:"leader"`
	DealRule  string `json:"deal_rule"`
	Lines     string `json:"lines"`
	Capot     string `json:"capot"`
}

func viewOptions(o games.Options) ViewOptions {
	return ViewOptions{Following: o["following"], AllPass: o["all_pass"], Leader: o["leader"], DealRule: o["deal_rule"], Lines: o["lines"], Capot: o["capot"]}
}

// View is seat's view of the state (games.Spectator sees the public part).
func (r Rules) View(s State, seat games.Seat) any {
	v := View{
		Viewer:    seat,
		Players:   slices.Clone(s.Players),
		Options:   viewOptions(s.Options),
		Lines:     s.Set.Lines,
		R:         s.R,
		B:         s.B,
		Deal:      s.Deal,
		Dealer:    s.Dealer,
		Proposed:  s.Proposed,
		Bids:      slices.Clone(s.Bids),
		Trump:     s.Trump,
		Declarers: s.Declarers,
		Declarer:  s.Declarer,
		ToAct:     -1,
		Trick:     slices.Clone(s.Trick),
		Tricks:    slices.Clone(s.Tricks),
		DealScore: [2]int{s.Won[0].points(), s.Won[1].points()},
		Winner:    s.Winner,
		Reason:    s.Reason,
	}
	v.History = make([]DealLine, len(s.History))
	for i, h := range s.History {
		v.History[i] = DealLine{Declarers: h.Declarers, Points: h.Points, Winner: h.Winner, Change: h.Change, R: h.R, B: h.B}
	}
	if s.Phase != PhaseSetup {
		v.Draws = slices.Clone(s.Draws[:])
	}
	v.Phase = s.Phase.String()
	if p := r.Pending(s); len(p) > 0 {
		v.ToAct = p[0].Seat
	}
	for i := range 4 {
		v.HandSizes[i] = s.Hands[i].len()
	}
	if seat >= 0 && seat < 4 {
		v.Hand = s.Hands[seat].cards()
	}
	for i, c := range s.Stock {
		if !c.Valid() {
			continue
		}
		if s.Turned&(1<<i) != 0 {
			v.Turned = append(v.Turned, TurnedCard{Pos: 17 + i, Card: c})
		} else {
			v.Hidden++
		}
	}
	if s.Phase == PhaseOver { // section 5: at match end every card is public
		v.Hands = make([][]Card, 4)
		for i := range v.Hands {
			v.Hands[i] = s.Hands[i].cards()
		}
		v.Stock = slices.Clone(s.Stock[:])
	}
	return v
}

// Redact is seat's version of an event: a deal shows only seat's own hand and
// no stock card (the 17th is shown by the following "turned" event). Every
// other event is public; the "over" event shows every card (section 5). The
// state is not needed: a seat that resigns ends the match ([HOUSE] CO-32), so
// no seated player ever watches as a spectator while cards are still hidden.
func (r Rules) Redact(_ State, e Event, seat games.Seat) Event {
	if e.Type != EvDealt {
		return e
	}
	out := e
	out.Stock = nil
	out.Hands = make([][]Card, len(e.Hands))
	if seat >= 0 && int(seat) < len(e.Hands) {
		out.Hands[seat] = slices.Clone(e.Hands[seat])
	}
	return out
}

// String names the phase: setup, trump, play, scored, over.
func (p Phase) String() string {
	switch p {
	case PhaseTrump:
		return "trump"
	case PhasePlay:
		return "play"
	case PhaseScored:
		return "scored"
	case PhaseOver:
		return "over"
	}
	return "setup"
}

package coyote

import (
	"github.com/courrier-games/courrier/games"
)

// Event types, as stored.
const (
	EvSetup    = "setup"     // seating, options, the deck table and the tokens
	EvShuffle  = "shuffle"   // a new pile (order hidden from every seat)
	EvDeal     = "deal"      // a round starts: each living seat wears a feather
	EvBid      = "bid"       // a bid (CY-6)
	EvFlip     = "flip"      // a variant token flipped and applied (CY-12)
	EvCall     = "call"      // "Coyote!" (CY-7)
	EvTurn     = "turn"      // `?` turns the top pile feather at the count (CY-8)
	EvCount    = "count"     // the count, step by step (CY-8)
	EvCoyote   = "coyote"    // a seat takes a coyote token (CY-7, CY-10, CY-12e)
	EvRoundEnd = "round_end" // the round's feathers go to the discard (CY-11)
	EvResign   = "resign"    // a seat leaves the game (CY-33)
	EvGameOver = "game_over" // the last player left wins (CY-17)
)

// Event is every Coyote event: Type says which, and the fields of that type
// are set (the others are zero and omitted).
type Event struct {
	Type string `json:"type"`

	// setup
	Players     []string  `json:"players,omitempty"` // names by seat
	Order       []int     `json:"order,omitempty"`   // joining index of each seat
	Deck        string    `json:"deck,omitempty"`
	Feathers    []Feather `json:"feathers,omitempty"` // the deck table; round_end: the round's feathers
	Elimination int       `json:"elimination,omitempty"`
	Variant     bool      `json:"variant,omitempty"`
	Tokens      []string  `json:"tokens,omitempty"`

	// shuffle: Reason is start, short (CY-4), night (CY-11) or empty (CY-16);
	// Pile the new pile's ids, top first (redacted for every seat); Size its
	// size.
	Reason string `json:"reason,omitempty"`
	Pile   []int  `json:"pile,omitempty"`
	Size   int    `json:"size,omitempty"`

	// deal: the round, its first bidder and each living seat's feather.
	Round int        `json:"round,omitempty"`
	First games.Seat `json:"first,omitempty"`
	Worn  []Dealt    `json:"worn,omitempty"`

	// bid, flip, call, coyote, resign: the acting seat.
	Seat games.Seat `json:"seat,omitempty"`
	Bid  int        `json:"bid,omitempty"`

	// flip: the token kind and index; Feather is the feather turned (reveal),
	// put in front (replace, hidden from all but Viewers) or declared
	// (declare, public); Named the declared face; Right whether it was.
	Token   string       `json:"token,omitempty"`
	Index   int          `json:"index,omitempty"`
	Feather *Feather     `json:"feather,omitempty"`
	Viewers []games.Seat `json:"viewers,omitempty"`
	Named   string       `json:"named,omitempty"`
	Right   bool         `json:"right,omitempty"`
	Against games.Seat   `json:"against,omitempty"` // call: the bidder

	// count: the whole computation.
	Count *Count `json:"count,omitempty"`

	// coyote: the seat's tokens after taking one, and whether it is out.
	Coyotes    int  `json:"coyotes,omitempty"`
	Eliminated bool `json:"eliminated,omitempty"`

	// round_end: whether night reshuffles everything; Abandoned when the
	// round ended by a resignation.
	Night     bool `json:"night,omitempty"`
	Abandoned bool `json:"abandoned,omitempty"`

	// game_over
	Winner games.Seat `json:"winner,omitempty"`
}

// EventType implements games.Event.
func (e Event) EventType() string { return e.Type }

// Dealt is the feather a seat wears this round; Feather is nil in a seat's
// redacted copy when it may not see it.
type Dealt struct {
	Seat    games.Seat `json:"seat"`
	Feather *Feather   `json:"feather,omitempty"`
}

// Count is a count step by step (CY-8): the feathers counted, each with the
// value it finally adds, and the steps in their fixed order.
type Count struct {
	Caller games.Seat  `json:"caller"`
	Bidder games.Seat  `json:"bidder"`
	Bid    int         `json:"bid"`
	Lines  []CountLine `json:"lines"`
	Steps  []Step      `json:"steps"`
	Total  int         `json:"total"`
	// Loser takes the coyote token (CY-7): the caller when Total ≥ Bid.
	Loser games.Seat `json:"loser"`
	Night bool       `json:"night,omitempty"`
}

// CountLine is one counted feather: where it came from (worn, withdrawn,
// reveal, ?), whose it is (or who turned it; -1 for `?`), the value it adds
// and what happened to it.
type CountLine struct {
	Feather Feather    `json:"feather"`
	From    string     `json:"from"`
	Seat    games.Seat `json:"seat"`
	Value   int        `json:"value"`
	Note    string     `json:"note,omitempty"` // discarded, negated, doubled
}

// Step is one step of the count in resolution order: its number (1 `?`,
// 2 max0, 3 -max, 4 x2, 5 night, 6 the sum), the face acting and plain words.
type Step struct {
	Step int    `json:"step"`
	Face string `json:"face,omitempty"`
	Text string `json:"text"`
}

func ptr(f Feather) *Feather { return &f }

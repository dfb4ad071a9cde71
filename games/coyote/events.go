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

// Event is every Coyote event: Type says which, and the payload of that
// type is set (the others are nil and omitted).
type Event struct {
	Type     string         `json:"type"`
	Setup    *SetupEvent    `json:"setup,omitempty"`
	Shuffle  *ShuffleEvent  `json:"shuffle,omitempty"`
	Deal     *DealEvent     `json:"deal,omitempty"`
	Bid      *BidEvent      `json:"bid,omitempty"`
	Flip     *FlipEvent     `json:"flip,omitempty"`
	Call     *CallEvent     `json:"call,omitempty"`
	Turn     *TurnEvent     `json:"turn,omitempty"`
	Count    *Count         `json:"count,omitempty"`
	Coyote   *TakeEvent     `json:"coyote,omitempty"`
	RoundEnd *RoundEndEvent `json:"round_end,omitempty"`
	Resign   *ResignEvent   `json:"resign,omitempty"`
	GameOver *GameOverEvent `json:"game_over,omitempty"`
}

// EventType implements games.Event.
func (e Event) EventType() string { return e.Type }

// SetupEvent seats the players and records the options, the deck table
// (feather ids are positions in it) and the variant tokens.
type SetupEvent struct {
	Players     []string  `json:"players"` // names by seat
	Order       []int     `json:"order"`   // joining index of each seat
	Deck        string    `json:"deck"`
	Feathers    []Feather `json:"feathers"`
	Elimination int       `json:"elimination"`
	Variant     bool      `json:"variant_tokens"`
	Tokens      []string  `json:"tokens,omitempty"`
}

// ShuffleEvent makes a new pile. Reason is start (CY-18), short (CY-4),
// night (CY-11) or empty (CY-16); Pile is its order, top first, hidden from
// every seat (redacted); Size its size.
type ShuffleEvent struct {
	Reason string `json:"reason"`
	Pile   []int  `json:"pile,omitempty"`
	Size   int    `json:"size"`
}

// DealEvent starts a round (CY-4): its number, its first bidder (CY-5) and
// the feather each living seat wears, in the order they were drawn.
type DealEvent struct {
	Round int        `json:"round"`
	First games.Seat `json:"first"`
	Worn  []Dealt    `json:"worn"`
}

// BidEvent is a bid (CY-6).
type BidEvent struct {
	Seat games.Seat `json:"seat"`
	Bid  int        `json:"bid"`
}

// FlipEvent is a variant token flipped and applied (CY-12): its kind and
// index among the tokens. Feather is the feather turned (reveal, public),
// put in front of the seat (replace: hidden from all but Viewers) or
// declared (declare: public); Named is the face declared and Right whether
// it was right.
type FlipEvent struct {
	Seat    games.Seat   `json:"seat"`
	Token   string       `json:"token"`
	Index   int          `json:"index"`
	Feather *Feather     `json:"feather,omitempty"`
	Viewers []games.Seat `json:"viewers,omitempty"`
	Named   string       `json:"named,omitempty"`
	Right   *bool        `json:"right,omitempty"`
}

// CallEvent is "Coyote!" by Seat against Against's Bid (CY-7).
type CallEvent struct {
	Seat    games.Seat `json:"seat"`
	Against games.Seat `json:"against"`
	Bid     int        `json:"bid"`
}

// TurnEvent is the top pile feather turned by `?` at the count (CY-8).
type TurnEvent struct {
	Feather Feather `json:"feather"`
}

// TakeEvent gives Seat a coyote token (CY-7, CY-12e): Coyotes is its
// count after, Eliminated whether that put it out (CY-10).
type TakeEvent struct {
	Seat       games.Seat `json:"seat"`
	Coyotes    int        `json:"coyotes"`
	Eliminated bool       `json:"eliminated"`
}

// RoundEndEvent ends a round (CY-11): every feather of the round, now public,
// goes to the discard; Night says all feathers are reshuffled next;
// Abandoned that a resignation ended it (CY-33).
type RoundEndEvent struct {
	Round     int       `json:"round"`
	Feathers  []Feather `json:"feathers"`
	Night     bool      `json:"night"`
	Abandoned bool      `json:"abandoned,omitempty"`
}

// ResignEvent is Seat leaving the game (CY-33).
type ResignEvent struct {
	Seat games.Seat `json:"seat"`
}

// GameOverEvent names the last player left (CY-17).
type GameOverEvent struct {
	Winner games.Seat `json:"winner"`
}

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

// Step is one line of the count in resolution order: its number (0 the
// feathers counted, then the steps of CY-8: 1 `?`, 2 max0, 3 -max, 4 x2,
// 5 night, and 6 the sum), the face acting and plain words. Text is
// English, as recorded: a trace for replays and developers; what players
// read of a count is Describe's, in their language, from Lines.
type Step struct {
	Step int    `json:"step"`
	Face string `json:"face,omitempty"`
	Text string `json:"text"`
}

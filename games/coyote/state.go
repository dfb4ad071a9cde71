package coyote

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// State is a Coyote game folded from its events.
type State struct {
	// Rules is the rules version the game was created under (RULES.md).
	Rules int `json:"rules"`
	// Players are the names by seat; Order the joining index of each seat.
	Players []string
	Order   []int
	// Options.
	DeckName    string
	Elimination int
	Variant     bool
	// Deck is the table of feathers by id (from the setup event); Faces its
	// distinct faces in table order; MaxBid the highest bid allowed (CY-32).
	Deck   []Feather
	Faces  []string
	MaxBid int
	// Tokens are the variant token kinds by index; Flipped whether each is
	// face down this round (CY-12).
	Tokens  []string
	Flipped []bool

	// Pile holds feather ids face down, top first; Discard face up.
	Pile    []int
	Discard []int

	// Coyotes counts each seat's coyote tokens; Out marks eliminated seats.
	Coyotes []int
	Out     []bool

	// The current round.
	Round     int
	Worn      []int   // feather worn by each seat, -1 for none
	Replaced  [][]int // feathers left behind by replace, per seat (CY-12d)
	Withdrawn []bool  // seats that declared right (CY-12e)
	FaceUp    []Turned
	Dir       int        // +1 clockwise, -1 reversed (CY-12b)
	Turn      games.Seat // seat to act, -1 when nobody
	TokenUsed bool       // a token was flipped this turn (CY-12)
	Bid       int        // current bid, 0 for none
	Bidder    games.Seat // -1 for none

	// LastCount is the last count (public).
	LastCount *Count

	Over   bool
	Winner games.Seat
}

// Turned is a feather lying face up in the middle of the round: turned by a
// reveal token (Seat is who flipped it) or by `?` at the count (Seat -1).
type Turned struct {
	Feather int        `json:"feather"`
	By      string     `json:"by"`
	Seat    games.Seat `json:"seat"`
}

func newState() State {
	return State{Turn: -1, Bidder: -1, Winner: -1, Dir: 1}
}

func (s State) clone() State {
	c := s
	c.Flipped = slices.Clone(s.Flipped)
	c.Pile = slices.Clone(s.Pile)
	c.Discard = slices.Clone(s.Discard)
	c.Coyotes = slices.Clone(s.Coyotes)
	c.Out = slices.Clone(s.Out)
	c.Worn = slices.Clone(s.Worn)
	c.Replaced = make([][]int, len(s.Replaced))
	for i, r := range s.Replaced {
		c.Replaced[i] = slices.Clone(r)
	}
	c.Withdrawn = slices.Clone(s.Withdrawn)
	c.FaceUp = slices.Clone(s.FaceUp)
	return c
}

// clearRound takes every feather of the round off the table (the events
// put them where they go).
func (s *State) clearRound() {
	for i := range s.Worn {
		s.Worn[i], s.Replaced[i], s.Withdrawn[i] = -1, nil, false
	}
	s.FaceUp = nil
}

func (s State) seats() int { return len(s.Players) }

func (s State) feather(id int) Feather { return s.Deck[id] }

func (s State) living() int {
	n := 0
	for _, o := range s.Out {
		if !o {
			n++
		}
	}
	return n
}

// active counts the living players still in the round (not withdrawn).
func (s State) active() int {
	n := 0
	for i, o := range s.Out {
		if !o && !s.Withdrawn[i] {
			n++
		}
	}
	return n
}

func (s State) valid(seat games.Seat) bool { return seat >= 0 && int(seat) < s.seats() }

// next is the next living, non-withdrawn seat after seat in the play
// direction (CY-15).
func (s State) next(seat games.Seat) games.Seat {
	n := s.seats()
	for i := 1; i <= n; i++ {
		c := games.Seat(((int(seat)+s.Dir*i)%n + n) % n)
		if !s.Out[c] && !s.Withdrawn[c] {
			return c
		}
	}
	return seat
}

// nextLiving is the next living seat clockwise from seat, seat itself
// included (CY-5 [HOUSE]).
func (s State) nextLiving(seat games.Seat) games.Seat {
	n := s.seats()
	for i := range n {
		c := games.Seat((int(seat) + i) % n)
		if !s.Out[c] {
			return c
		}
	}
	return seat
}

// counted lists the feathers the count uses (CY-8): every living player's
// worn feather in seat order, then the feathers lying face up in the order
// they were turned.
func (s State) counted() []countedFeather {
	var out []countedFeather
	for seat, id := range s.Worn {
		if id >= 0 && !s.Out[seat] {
			from := "worn"
			if s.Withdrawn[seat] {
				from = "withdrawn"
			}
			out = append(out, countedFeather{id: id, from: from, seat: games.Seat(seat)})
		}
	}
	for _, t := range s.FaceUp {
		out = append(out, countedFeather{id: t.Feather, from: t.By, seat: t.Seat})
	}
	return out
}

type countedFeather struct {
	id   int
	from string
	seat games.Seat
}

// roundFeathers lists every feather of the current round (CY-11): worn,
// replaced and turned.
func (s State) roundFeathers() []int {
	var out []int
	for seat, id := range s.Worn {
		if id >= 0 {
			out = append(out, id)
		}
		out = append(out, s.Replaced[seat]...)
	}
	for _, t := range s.FaceUp {
		out = append(out, t.Feather)
	}
	return out
}

// canTurn says whether a feather can be turned now (CY-16): the pile or the
// discard holds one.
func (s State) canTurn() bool { return len(s.Pile)+len(s.Discard) > 0 }

// faceUpToken returns the index of a face-up token of kind, or -1.
func (s State) faceUpToken(kind string) int {
	for i, k := range s.Tokens {
		if k == kind && !s.Flipped[i] {
			return i
		}
	}
	return -1
}

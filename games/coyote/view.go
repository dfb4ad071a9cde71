package coyote

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// View is what one seat sees (rules section 5).
type View struct {
	Seat        games.Seat   `json:"seat"`
	Deck        string       `json:"deck"`
	Elimination int          `json:"elimination"`
	Variant     bool         `json:"variant_tokens"`
	MaxBid      int          `json:"max_bid"`
	Round       int          `json:"round"`
	Players     []PlayerView `json:"players"`
	// Turn is the seat to act (-1 for none); Direction is "clockwise" or
	// "reversed".
	Turn      games.Seat  `json:"turn"`
	Direction string      `json:"direction"`
	Bid       int         `json:"bid"`
	Bidder    games.Seat  `json:"bidder"`
	TokenUsed bool        `json:"token_used,omitempty"`
	Tokens    []TokenView `json:"tokens,omitempty"`
	// FaceUp are the feathers turned this round (reveal tokens).
	FaceUp    []FaceUpView `json:"face_up,omitempty"`
	Discard   []Feather    `json:"discard"`
	PileSize  int          `json:"pile_size"`
	LastCount *Count       `json:"last_count,omitempty"`
	Over      bool         `json:"over"`
	Winner    games.Seat   `json:"winner"`
}

// PlayerView is one player as a seat sees them. Feather is nil when the
// viewer may not see it (their own, or any worn feather for spectators and
// eliminated players); Hidden then says a feather is worn. Replaced lists the
// feathers left behind by replace that the viewer may see; ReplacedCount how
// many there are.
type PlayerView struct {
	Seat          games.Seat `json:"seat"`
	Name          string     `json:"name"`
	Coyotes       int        `json:"coyotes"`
	Eliminated    bool       `json:"eliminated,omitempty"`
	Withdrawn     bool       `json:"withdrawn,omitempty"`
	Feather       *Feather   `json:"feather,omitempty"`
	Hidden        bool       `json:"hidden,omitempty"`
	Replaced      []Feather  `json:"replaced,omitempty"`
	ReplacedCount int        `json:"replaced_count,omitempty"`
}

// TokenView is one variant token and whether it lies face up.
type TokenView struct {
	Kind   string `json:"kind"`
	FaceUp bool   `json:"face_up"`
}

// FaceUpView is a feather turned face up this round and who turned it.
type FaceUpView struct {
	Feather Feather    `json:"feather"`
	By      string     `json:"by"`
	Seat    games.Seat `json:"seat"`
}

// seesWorn says whether viewer sees the feathers worn (and replaced) by
// wearer: living seats see every other living player's; spectators and
// eliminated players see none (section 5). At game end everything is public.
func seesWorn(s State, viewer, wearer games.Seat) bool {
	if s.Over {
		return true
	}
	return s.valid(viewer) && !s.Out[viewer] && viewer != wearer
}

// View is what seat sees of the state.
func (Rules) View(s State, seat games.Seat) any {
	v := View{
		Seat: seat, Deck: s.DeckName, Elimination: s.Elimination, Variant: s.Variant, MaxBid: s.MaxBid,
		Round: s.Round, Turn: s.Turn, Direction: "clockwise", Bid: s.Bid, Bidder: s.Bidder,
		TokenUsed: s.TokenUsed, PileSize: len(s.Pile), LastCount: s.LastCount,
		Over: s.Over, Winner: s.Winner, Discard: make([]Feather, 0, len(s.Discard)),
		Players: make([]PlayerView, 0, len(s.Players)),
	}
	if s.Dir < 0 {
		v.Direction = "reversed"
	}
	for i, name := range s.Players {
		p := games.Seat(i)
		pv := PlayerView{Seat: p, Name: name, Coyotes: s.Coyotes[i], Eliminated: s.Out[i], Withdrawn: s.Withdrawn[i]}
		if id := s.Worn[i]; id >= 0 {
			if s.Withdrawn[i] || seesWorn(s, seat, p) {
				pv.Feather = new(s.feather(id))
			} else {
				pv.Hidden = true
			}
		}
		pv.ReplacedCount = len(s.Replaced[i])
		if seesWorn(s, seat, p) {
			for _, id := range s.Replaced[i] {
				pv.Replaced = append(pv.Replaced, s.feather(id))
			}
		}
		v.Players = append(v.Players, pv)
	}
	for i, kind := range s.Tokens {
		v.Tokens = append(v.Tokens, TokenView{Kind: kind, FaceUp: !s.Flipped[i]})
	}
	for _, t := range s.FaceUp {
		v.FaceUp = append(v.FaceUp, FaceUpView{Feather: s.feather(t.Feather), By: t.By, Seat: t.Seat})
	}
	for _, id := range s.Discard {
		v.Discard = append(v.Discard, s.feather(id))
	}
	return v
}

// Redact is seat's copy of event e, which applies to s (section 5): the pile
// order is hidden from every seat; a worn feather from its wearer, from
// spectators and from eliminated players (who are not dealt in and see only
// what lies face up); a replacing feather from all but its viewers (the
// other living players).
func (Rules) Redact(s State, e Event, seat games.Seat) Event {
	switch {
	case e.Shuffle != nil:
		sh := *e.Shuffle
		sh.Pile = nil
		e.Shuffle = &sh
	case e.Deal != nil:
		d := *e.Deal
		dealtIn := slices.ContainsFunc(d.Worn, func(w Dealt) bool { return w.Seat == seat }) && seesTable(s, seat)
		d.Worn = slices.Clone(d.Worn)
		for i, w := range d.Worn {
			if !dealtIn || w.Seat == seat {
				d.Worn[i].Feather = nil
			}
		}
		e.Deal = &d
	case e.Flip != nil && e.Flip.Token == TokenReplace && (!slices.Contains(e.Flip.Viewers, seat) || !seesTable(s, seat)):
		f := *e.Flip
		f.Feather = nil
		e.Flip = &f
	}
	return e
}

// seesTable says whether seat sees other players' worn feathers at all: a
// living seated player does; a spectator or an eliminated (or resigned)
// player does not (section 5).
func seesTable(s State, seat games.Seat) bool {
	return s.valid(seat) && !s.Out[seat]
}

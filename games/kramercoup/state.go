package kramercoup

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Phase is where a game stands.
type Phase string

// The phases of a game (KC-8, KC-14, KC-15).
const (
	// PhaseSetup is before the seating and the deal.
	PhaseSetup Phase = "setup"
	// PhaseBuy is a round's Buy phase (KC-9).
	PhaseBuy Phase = "buy"
	// PhasePlace is a round's Place phase (KC-10).
	PhasePlace Phase = "place"
	// PhaseExchange is a round's Exchange phase (KC-11).
	PhaseExchange Phase = "exchange"
	// PhaseLast is the last tiles after the Coup (KC-15).
	PhaseLast Phase = "last"
	// PhaseScoring is reached when nobody is left to act; the game_over event
	// (scoring, the reveal) follows in the same decision.
	PhaseScoring Phase = "scoring"
	// PhaseOver is the finished game.
	PhaseOver Phase = "over"
)

// Option names and values (section 4).
const (
	// OptExchangeOrder is the exchange_order option (KC-11).
	OptExchangeOrder = "exchange_order"
	// DiscardFirst returns discards to the pool before the draw (default).
	DiscardFirst = "discard-first"
	// DrawFirst draws before the discards go to the pool.
	DrawFirst = "draw-first"
)

// State is a game's full state, hidden parts included. Hands and the pool
// are kept in canonical order; the pool is a set (every draw is picked at
// random when it happens and recorded in its event).
type State struct {
	// Rules is the rules version the game was created under (Initial); this
	// engine has one version, 1.
	Rules int `json:"rules"`
	// Players are the names by seat (KC-7).
	Players []string `json:"players"`
	// Order is the exchange_order option (KC-11).
	Order string `json:"exchange_order"`
	// Limits are Table 1's B, C, D, E for the number of players (KC-3).
	Limits Limits `json:"limits"`
	// Board tells which cells hold their tile, indexed by Tile (KC-1).
	Board [TileCount]bool `json:"board"`
	// Hands are the hands by seat, in canonical order (hidden).
	Hands [][]Tile `json:"hands"`
	// Pool is the set of tiles left to draw, in canonical order (hidden).
	Pool []Tile `json:"pool"`
	// Cash is each seat's cash (KC-22).
	Cash []int `json:"cash"`
	// Tokens are each seat's tokens by colour index (KC-9).
	Tokens [][Colours]int `json:"tokens"`
	// Supply is the number of tokens left per colour (KC-2).
	Supply [Colours]int `json:"supply"`
	// Bank is the cash paid to the bank so far (KC-6).
	Bank int `json:"bank"`
	// Resigned marks the seats that left the game (KC-34).
	Resigned []bool `json:"resigned"`
	// ExDiscarded and ExDrawn are the counts of each seat's latest exchange.
	ExDiscarded []int `json:"ex_discarded"`
	ExDrawn     []int `json:"ex_drawn"`

	Round int   `json:"round"`
	Start int   `json:"start"` // the round's start player (KC-13)
	Phase Phase `json:"phase"`
	Lap   int   `json:"lap"`  // Place phase: 1..C
	Step  int   `json:"step"` // position in the phase's seat order
	Turn  int   `json:"turn"` // the seat to act, -1 when nobody
	// CoupMaker is the seat that made the Coup, -1 before it (KC-14).
	CoupMaker int `json:"coup_maker"`
	// Placed counts the tiles on the board.
	Placed int `json:"placed"`
}

// n is the number of seats.
func (s *State) n() int { return len(s.Players) }

// clone is a deep copy.
func (s *State) clone() *State {
	c := *s
	c.Players = slices.Clone(s.Players)
	c.Hands = make([][]Tile, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pool = slices.Clone(s.Pool)
	c.Cash = slices.Clone(s.Cash)
	c.Tokens = slices.Clone(s.Tokens)
	c.Resigned = slices.Clone(s.Resigned)
	c.ExDiscarded = slices.Clone(s.ExDiscarded)
	c.ExDrawn = slices.Clone(s.ExDrawn)
	return &c
}

// started reports whether the seating happened.
func (s *State) started() bool { return s.Phase != PhaseSetup && s.Phase != "" }

// finished reports whether the game is over.
func (s *State) finished() bool { return s.Phase == PhaseOver }

// active reports whether seat still plays (has not resigned).
func (s *State) active(seat int) bool { return seat >= 0 && seat < s.n() && !s.Resigned[seat] }

// activeCount is the number of seats still playing.
func (s *State) activeCount() int {
	k := 0
	for i := range s.Players {
		if s.active(i) {
			k++
		}
	}
	return k
}

// canBuy reports whether seat can buy anything (KC-23).
func (s *State) canBuy(seat int) bool {
	if !s.active(seat) || s.Cash[seat] < TokenPrice {
		return false
	}
	for _, k := range s.Supply {
		if k > 0 {
			return true
		}
	}
	return false
}

// seek moves Turn to the next seat that may act from the current position
// (Phase, Lap, Step), skipping seats with nothing to do (KC-10, KC-15,
// KC-23, KC-34, KC-35) and running the phase changes of KC-8, KC-13 and KC-15.
func (s *State) seek() {
	n := s.n()
	rounds := 0
	for {
		switch s.Phase {
		case PhaseBuy:
			if s.Step >= n {
				s.Phase, s.Lap, s.Step = PhasePlace, 1, 0
				continue
			}
			if seat := (s.Start + s.Step) % n; s.canBuy(seat) {
				s.Turn = seat
				return
			}
			s.Step++
		case PhasePlace:
			if s.Lap > s.Limits.Place {
				s.Phase, s.Lap, s.Step = PhaseExchange, 0, 0
				continue
			}
			if s.Step >= n {
				s.Lap, s.Step = s.Lap+1, 0
				continue
			}
			if seat := (s.Start + s.Step) % n; s.active(seat) && len(s.Hands[seat]) > 0 {
				s.Turn = seat
				return
			}
			s.Step++
		case PhaseExchange:
			if s.Step >= n {
				if rounds++; rounds > 1 {
					// A whole round in which nobody could act: unreachable
					// (KC-12), but never loop; score the game.
					s.Phase, s.Turn = PhaseScoring, -1
					return
				}
				s.Round++
				s.Start = (s.Start + 1) % n
				s.Phase, s.Step = PhaseBuy, 0
				continue
			}
			// KC-35: nothing to discard and nothing to draw: skipped.
			if seat := (s.Start + s.Step) % n; s.active(seat) && (len(s.Hands[seat]) > 0 || len(s.Pool) > 0) {
				s.Turn = seat
				return
			}
			s.Step++
		case PhaseLast:
			if s.Step >= n-1 {
				s.Phase, s.Turn = PhaseScoring, -1
				return
			}
			if seat := (s.CoupMaker + 1 + s.Step) % n; s.active(seat) && len(s.Hands[seat]) > 0 {
				s.Turn = seat
				return
			}
			s.Step++
		default:
			s.Turn = -1
			return
		}
	}
}

// chainWith is the length of the chain through cell t once t is filled.
func (s *State) chainWith(t Tile) int {
	c, k := t.Colour(), t.Number()
	lo, hi := k, k
	for lo > 1 && s.Board[NewTile(c, lo-1)] {
		lo--
	}
	for hi < Numbers && s.Board[NewTile(c, hi+1)] {
		hi++
	}
	return hi - lo + 1
}

// TokenValue is the value of one token of colour c: the sum of its row's
// chain values (KC-18).
func (s *State) TokenValue(c int) int {
	v, run := 0, 0
	for k := range Numbers {
		if s.Board[c*Numbers+k] {
			run++
			continue
		}
		v += ChainValue(run)
		run = 0
	}
	return v + ChainValue(run)
}

// values are the token values of all colours (KC-18).
func (s *State) values() [Colours]int {
	var v [Colours]int
	for c := range Colours {
		v[c] = s.TokenValue(c)
	}
	return v
}

// Capital is seat's cash plus its tokens at their values (KC-19).
func (s *State) Capital(seat int) int { return s.capital(seat, s.values()) }

// capital is seat's capital with the token values vals.
func (s *State) capital(seat int, vals [Colours]int) int {
	v := s.Cash[seat]
	for c := range Colours {
		v += s.Tokens[seat][c] * vals[c]
	}
	return v
}

// winners are the seats with the highest capital, ties broken by cash, still
// tied sharing the win (KC-20); resigned seats cannot win (KC-34).
func (s *State) winners() []int {
	var best []int
	bc, bcash := -1, -1
	vals := s.values()
	for i := range s.Players {
		if !s.active(i) {
			continue
		}
		c, cash := s.capital(i, vals), s.Cash[i]
		switch {
		case c > bc || (c == bc && cash > bcash):
			best, bc, bcash = []int{i}, c, cash
		case c == bc && cash == bcash:
			best = append(best, i)
		}
	}
	return best
}

// removeTiles returns hand without the tiles ts (each once).
func removeTiles(hand []Tile, ts []Tile) []Tile {
	out := hand[:0:0]
	for _, t := range hand {
		if i := slices.Index(ts, t); i >= 0 {
			ts = slices.Delete(slices.Clone(ts), i, i+1)
			continue
		}
		out = append(out, t)
	}
	return out
}

// addTiles returns the sorted union of a and b.
func addTiles(a []Tile, b []Tile) []Tile {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return out
}

// seatOf converts a games.Seat to an int index.
func seatOf(seat games.Seat) int { return int(seat) }

package kramercoup

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// pendingOf is the async-play row of the current decision (section 6).
func pendingOf(s *State) (kind, rule, def string) {
	switch s.Phase {
	case PhaseBuy:
		return "buy", "KC-30", "buy nothing"
	case PhasePlace:
		return "place", "KC-31", "place " + s.Hands[s.Turn][0].String()
	case PhaseExchange:
		return "exchange", "KC-32", "keep"
	case PhaseLast:
		return "last", "KC-33", "pass"
	}
	return "", "", ""
}

// Pending names the one seat that may act and its default at the deadline
// (KC-30..KC-33). Note: the KC-31 default names the placer's lowest tile, so
// it must be shown to that seat only.
func (Rules) Pending(s *State) []games.Pending {
	if s.Turn < 0 || s.finished() {
		return nil
	}
	kind, rule, def := pendingOf(s)
	if kind == "" {
		return nil
	}
	return []games.Pending{{Seat: games.Seat(s.Turn), Kind: kind, Rule: rule, Default: def}}
}

// Legal lists every move seat may make now, in canonical notation.
func (Rules) Legal(s *State, seat games.Seat) []string {
	p := seatOf(seat)
	if s.Turn < 0 || p != s.Turn || s.finished() {
		return nil
	}
	f := Rules{}.Format
	switch s.Phase {
	case PhaseBuy:
		most := min(s.Limits.Buy, s.Cash[p]/TokenPrice)
		var out []string
		var m Move
		m.Kind = KindBuy
		var rec func(c, left int)
		rec = func(c, left int) {
			if c == Colours {
				out = append(out, f(s, m))
				return
			}
			for k := 0; k <= min(left, s.Supply[c]); k++ {
				m.Buy[c] = k
				rec(c+1, left-k)
			}
			m.Buy[c] = 0
		}
		rec(0, most)
		return out
	case PhasePlace:
		out := make([]string, 0, len(s.Hands[p]))
		for _, t := range s.Hands[p] {
			out = append(out, f(s, Move{Kind: KindPlace, Tile: t}))
		}
		return out
	case PhaseExchange:
		h := s.Hands[p]
		out := make([]string, 0, 1<<len(h))
		out = append(out, "keep")
		for mask := 1; mask < 1<<len(h); mask++ {
			var ts []Tile
			for i, t := range h {
				if mask&(1<<i) != 0 {
					ts = append(ts, t)
				}
			}
			out = append(out, f(s, Move{Kind: KindDiscard, Tiles: ts}))
		}
		return out
	case PhaseLast:
		out := []string{"pass"}
		for _, t := range s.Hands[p] {
			out = append(out, f(s, Move{Kind: KindPlace, Tile: t}))
		}
		return out
	}
	return nil
}

// RowView is one colour row as everybody sees it.
type RowView struct {
	Colour string `json:"colour"`
	// Chains are the row's chains as [first, last] cell, e.g. [5, 14]
	// (KC-17): together they are exactly the filled cells of the row.
	Chains [][2]int `json:"chains"`
	// TokenValue is the current value of one token of the colour (KC-18).
	TokenValue int `json:"token_value"`
	// Supply is the number of tokens of the colour left to buy.
	Supply int `json:"supply"`
}

// PlayerView is one player as the viewer sees them.
type PlayerView struct {
	Name     string  `json:"name"`
	Cash     int     `json:"cash"`
	Tokens   Holding `json:"tokens"`
	HandSize int     `json:"hand_size"`
	// Hand is shown to its owner only, and to everybody at the end.
	Hand []Tile `json:"hand,omitempty"`
	// Discarded and Drawn are the counts of the player's latest exchange.
	Discarded int  `json:"discarded"`
	Drawn     int  `json:"drawn"`
	Resigned  bool `json:"resigned,omitempty"`
	// Capital is cash plus tokens at the current token values (KC-19).
	Capital int `json:"capital"`
}

// Holding is a player's tokens per colour.
type Holding struct {
	Yellow int `json:"yellow"`
	Orange int `json:"orange"`
	Red    int `json:"red"`
	Violet int `json:"violet"`
	Blue   int `json:"blue"`
	Green  int `json:"green"`
}

// View is what one seat sees (section 5).
type View struct {
	Seat int `json:"seat"`
	// ExchangeOrder is the exchange_order option (KC-11).
	ExchangeOrder string `json:"exchange_order"`
	Limits        Limits `json:"limits"`
	Round         int    `json:"round"`
	Start         int    `json:"start"`
	Phase         Phase  `json:"phase"`
	Lap           int    `json:"lap,omitempty"`
	Turn          int    `json:"turn"`
	Kind          string `json:"kind,omitempty"`
	Rule          string `json:"rule,omitempty"`
	// Default is the viewer's own default move when it is the viewer's turn.
	Default   string       `json:"default,omitempty"`
	CoupMaker int          `json:"coup_maker"`
	Rows      []RowView    `json:"rows"`
	PoolSize  int          `json:"pool_size"`
	Pool      []Tile       `json:"pool,omitempty"` // revealed at the end
	Players   []PlayerView `json:"players"`
	Finished  bool         `json:"finished"`
	Winners   []int        `json:"winners,omitempty"`
	// Summary is the state of play in words, in every language: {"en":
	// "…", "fr": "…"}.
	Summary games.Phrase `json:"summary"`
}

// View is what seat may see: its own hand, the board, every player's cash,
// tokens, hand size and exchange counts, the supply, the pool size and whose
// move it is; at the end every hand and the pool (section 5).
func (Rules) View(s *State, seat games.Seat) any {
	p := seatOf(seat)
	over := s.finished()
	v := View{Seat: p, ExchangeOrder: s.Order, Limits: s.Limits,
		Round: s.Round, Start: s.Start, Phase: s.Phase, Lap: s.Lap, Turn: s.Turn,
		CoupMaker: s.CoupMaker, PoolSize: len(s.Pool), Finished: over,
		Summary: summary(s), Rows: make([]RowView, 0, Colours), Players: make([]PlayerView, 0, s.n())}
	if s.Turn >= 0 {
		kind, rule, def := pendingOf(s)
		v.Kind, v.Rule = kind, rule
		if p == s.Turn {
			v.Default = def
		}
	}
	var values [Colours]int
	for c := range Colours {
		values[c] = s.TokenValue(c)
		row := RowView{Colour: ColourName(c), Chains: make([][2]int, 0, 4), TokenValue: values[c], Supply: s.Supply[c]}
		for k := 1; k <= Numbers; k++ {
			if s.Board[NewTile(c, k)] {
				if j := len(row.Chains) - 1; j >= 0 && row.Chains[j][1] == k-1 {
					row.Chains[j][1] = k
				} else {
					row.Chains = append(row.Chains, [2]int{k, k})
				}
			}
		}
		v.Rows = append(v.Rows, row)
	}
	for i, name := range s.Players {
		tk := s.Tokens[i]
		pv := PlayerView{Name: name, Cash: s.Cash[i], HandSize: len(s.Hands[i]),
			Tokens:    Holding{Yellow: tk[0], Orange: tk[1], Red: tk[2], Violet: tk[3], Blue: tk[4], Green: tk[5]},
			Discarded: s.ExDiscarded[i], Drawn: s.ExDrawn[i], Resigned: s.Resigned[i], Capital: s.Cash[i]}
		for c := range Colours {
			pv.Capital += tk[c] * values[c]
		}
		if over || (i == p && !s.Resigned[i]) {
			pv.Hand = slices.Clone(s.Hands[i])
		}
		v.Players = append(v.Players, pv)
	}
	if over {
		v.Pool = slices.Clone(s.Pool)
		v.Winners = s.winners()
	}
	return v
}

// Redact is seat's version of event e, which applies to s (section 5):
// other seats' dealt hands and the tiles another player discarded or drew are
// removed; counts stay. A seat that has resigned in s (KC-34), like any seat
// not at the table, gets the spectator's version until the game is over;
// once s is over everything is public and e is returned whole. Redact
// depends on s only through who has resigned and whether the game is over,
// so it gives the right version with the state before e or any later state
// (a resigned player re-reading the deal with the current state sees no hand).
func (Rules) Redact(s *State, e Event, seat games.Seat) Event {
	if s.finished() {
		return e
	}
	p := seatOf(seat)
	if !s.active(p) {
		p = seatOf(games.Spectator)
	}
	switch e.Type {
	case EvDealt:
		hands := make([][]Tile, len(e.Hands))
		for i, h := range e.Hands {
			if i == p {
				hands[i] = slices.Clone(h)
			} else {
				hands[i] = []Tile{}
			}
		}
		e.Hands = hands
	case EvExchanged:
		if e.Seat != p {
			e.Discarded, e.Drawn = nil, nil
		}
	}
	return e
}

// Result tells whether the game is over; Scores are the capitals (KC-19),
// public at every moment since cash, tokens and the board are public.
func (Rules) Result(s *State) games.Result {
	if !s.started() {
		return games.Result{Summary: summary(s)}
	}
	res := games.Result{Finished: s.finished(), Summary: summary(s)}
	vals := s.values()
	for i := range s.Players {
		res.Scores = append(res.Scores, s.capital(i, vals))
	}
	if res.Finished {
		for _, p := range s.winners() {
			res.Winners = append(res.Winners, games.Seat(p))
		}
	}
	return res
}

// summary is one line on the game's state, in words of the game's
// catalog. Its English is the one results and records have always held:
// "round 2, place phase: Ana to place", "Ana wins with a capital of 5920".
func summary(s *State) games.Phrase {
	if !s.started() {
		return words.Phrase("summary.not_set_up")
	}
	if !s.finished() {
		switch {
		case s.Turn < 0:
			return words.Phrase("scoring")
		case s.Phase == PhaseLast:
			return words.Phrase("last_tile", s.Players[s.CoupMaker], s.Players[s.Turn])
		}
		return words.Phrase("summary."+string(s.Phase), s.Round, s.Players[s.Turn])
	}
	w := s.winners()
	switch len(w) {
	case 0:
		return words.Phrase("nobody_wins")
	case 1:
		return words.Phrase("wins", s.Players[w[0]], s.Capital(w[0]))
	}
	return words.Phrase("share", winnerNames(s, w), s.Capital(w[0]))
}

// winnerNames lists the names of seats as the summary always has: "A and
// B and C" in English, "A, B et C" in French.
func winnerNames(s *State, seats []int) games.Text {
	if len(seats) == 1 {
		return games.Plain(s.Players[seats[0]])
	}
	key := "summary.and_more"
	if len(seats) == 2 {
		key = "summary.and"
	}
	return games.T(key, s.Players[seats[0]], winnerNames(s, seats[1:]))
}

// Players returns the player names by seat, as seated; nil before seating.
func (Rules) Players(s *State) []string { return slices.Clone(s.Players) }

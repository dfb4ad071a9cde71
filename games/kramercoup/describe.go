package kramercoup

import (
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Choices is Legal in compact form for a numbered prompt (RULES.md, section
// 7.1). When Legal has at most games.MaxChoices lines it is
// Legal itself (a place or last-tile turn always is: a hand holds at most
// B ≤ 12 tiles). Otherwise:
//
//   - buy: "buy nothing", then one line per colour on sale, "buy 1 … K
//     <colour>" (K the most of that colour the buyer may take), then the
//     blank "buy <n> <colour> <n> <colour>" for a mix of colours;
//   - exchange: "keep", one "discard <tile>" per tile held, the discard of
//     the whole hand, then the blank "discard <tiles>" for any other set.
func (r Rules) Choices(s *State, seat games.Seat) []string {
	p := seatOf(seat)
	if s.Turn < 0 || p != s.Turn || s.finished() {
		return nil
	}
	switch s.Phase {
	case PhaseBuy:
		legal := r.Legal(s, seat)
		if len(legal) <= games.MaxChoices {
			return legal
		}
		most := min(s.Limits.Buy, s.Cash[p]/TokenPrice)
		out := []string{"buy nothing"}
		colours := 0
		for c := range Colours {
			k := min(most, s.Supply[c])
			switch {
			case k == 1:
				out = append(out, "buy 1 "+ColourName(c))
			case k > 1:
				out = append(out, "buy 1 … "+strconv.Itoa(k)+" "+ColourName(c))
			}
			if k > 0 {
				colours++
			}
		}
		if most > 1 && colours > 1 {
			out = append(out, "buy <n> <colour> <n> <colour>")
		}
		return out
	case PhaseExchange:
		h := s.Hands[p]
		if 1<<len(h) <= games.MaxChoices {
			return r.Legal(s, seat)
		}
		out := make([]string, 0, len(h)+3)
		out = append(out, "keep")
		for _, t := range h {
			out = append(out, r.Format(s, Move{Kind: KindDiscard, Tiles: []Tile{t}}))
		}
		return append(out, r.Format(s, Move{Kind: KindDiscard, Tiles: h}), "discard <tiles>")
	}
	return r.Legal(s, seat)
}

// Describe says in plain words what event e, which applies to s (the state
// before it), did as seat may know it. It describes Redact(s, e, seat), so it
// never tells more than that shows.
func (r Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	return games.Said(r.describeEN(s, e, seat))
}

// describeEN is Describe in English (until the game's catalog says it).
func (r Rules) describeEN(s *State, e Event, seat games.Seat) string {
	e = r.Redact(s, e, seat)
	actor := func(capital bool) string { return who(s, e.Seat, seat, capital) }
	switch e.Type {
	case EvSeated:
		order := make([]string, len(e.Players))
		for i, name := range e.Players {
			order[i] = name
			if i == seatOf(seat) {
				order[i] = "you"
			}
		}
		text := "Seats were drawn; the order of play is " + strings.Join(order, ", ") + "."
		if e.Options[OptExchangeOrder] == DrawFirst {
			text += " Exchanged tiles go back into the pool after the draw (draw-first)."
		}
		return text
	case EvDealt:
		text := "The tiles were dealt"
		if k, ok := sameCount(e.Counts); ok {
			text = "Each player was dealt " + tiles(k)
		}
		text += ", leaving " + tiles(e.PoolSize) + " in the pool."
		var got []string
		for q, h := range e.Hands {
			if len(h) > 0 {
				got = append(got, who(s, q, seat, len(got) == 0)+" got "+tileWords(h))
			}
		}
		if len(got) > 0 {
			text += " " + strings.Join(got, "; ") + "."
		}
		return text
	case EvBought:
		var parts []string
		for c, k := range e.Tokens {
			if k > 0 && c < Colours {
				parts = append(parts, strconv.Itoa(k)+" "+ColourName(c))
			}
		}
		if len(parts) == 0 {
			return actor(true) + " bought nothing."
		}
		return actor(true) + " bought " + andList(parts) + " for " + strconv.Itoa(e.Cost) + "."
	case EvPlaced:
		if e.Tile == nil || !e.Tile.Valid() {
			return actor(true) + " placed a tile."
		}
		text := actor(true) + " placed " + e.Tile.String()
		if e.Last {
			text += " as a last tile"
		}
		if e.Chain > 1 {
			text += ", making a " + ColourName(e.Tile.Colour()) + " chain of " + strconv.Itoa(e.Chain)
		}
		if e.Coup {
			return text + ": the Coup! The other players may each place one last tile."
		}
		return text + "."
	case EvPassed:
		return actor(true) + " placed no last tile."
	case EvExchanged:
		text := actor(true)
		if e.NDiscarded == 0 {
			text += " kept every tile"
		} else {
			text += " discarded " + someTiles(e.NDiscarded, e.Discarded)
		}
		if e.NDrawn == 0 {
			return text + " and drew none."
		}
		return text + " and drew " + someTiles(e.NDrawn, e.Drawn) + "."
	case EvResigned:
		if e.Returned == 0 {
			return actor(true) + " left the game."
		}
		return actor(true) + " left the game and put " + tiles(e.Returned) + " back into the pool unseen."
	case EvGameOver:
		ws := make([]string, 0, len(e.Winners))
		for i, w := range e.Winners {
			ws = append(ws, who(s, w, seat, i == 0))
		}
		best := 0
		if len(e.Winners) > 0 && e.Winners[0] >= 0 && e.Winners[0] < len(e.Capital) {
			best = e.Capital[e.Winners[0]]
		}
		switch len(ws) {
		case 0:
			return "The game is over and every hand is shown; nobody won."
		case 1:
			return "The game is over and every hand is shown. " + ws[0] + " won with a capital of " + strconv.Itoa(best) + "."
		}
		return "The game is over and every hand is shown. " + andList(ws) + " shared the win with a capital of " + strconv.Itoa(best) + "."
	}
	return ""
}

// who names seat p for viewer: "You"/"you" for the viewer's own seat, the
// player's name otherwise.
func who(s *State, p int, viewer games.Seat, capital bool) string {
	switch {
	case p == seatOf(viewer) && p >= 0:
		if capital {
			return "You"
		}
		return "you"
	case p >= 0 && p < s.n():
		return s.Players[p]
	}
	return "seat " + strconv.Itoa(p)
}

// tiles writes a number of tiles: "1 tile", "3 tiles".
func tiles(k int) string {
	if k == 1 {
		return "1 tile"
	}
	return strconv.Itoa(k) + " tiles"
}

// tileWords writes tiles in notation as an English list: "red 3, blue 7 and
// green 1".
func tileWords(ts []Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return andList(parts)
}

// andList joins words as an English list: "a", "a and b", "a, b and c".
func andList(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// sameCount returns the common value of counts, if they are all equal and
// there is at least one.
func sameCount(counts []int) (int, bool) {
	if len(counts) == 0 || slices.ContainsFunc(counts, func(k int) bool { return k != counts[0] }) {
		return 0, false
	}
	return counts[0], true
}

// someTiles names the tiles when the reader may see them (shown), else says
// how many there were.
func someTiles(n int, shown []Tile) string {
	if len(shown) > 0 {
		return tileWords(shown)
	}
	return tiles(n)
}

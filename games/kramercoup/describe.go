package kramercoup

import (
	"slices"
	"strconv"

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

// Describe says in words of the game's catalog what event e, which applies
// to s (the state before it), did as seat may know it. It describes
// Redact(s, e, seat), so it never tells more than that shows, in any
// language. The seat's own actions have their own messages ("said.you_…"),
// since a language may conjugate them differently.
func (r Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	t := r.describe(s, e, seat)
	if t.IsZero() {
		return games.Said("") // an event this engine does not know
	}
	return games.Phrase{Text: t, Words: words}
}

// describe is Describe's text, without the phrase around it.
func (r Rules) describe(s *State, e Event, seat games.Seat) games.Text {
	e = r.Redact(s, e, seat)
	act := func(key string, args ...any) games.Text { return said(s, e.Seat, seat, key, args...) }
	switch e.Type {
	case EvSeated:
		order := make([]any, len(e.Players))
		for i, name := range e.Players {
			order[i] = name
			if i == seatOf(seat) {
				order[i] = games.T("said.you")
			}
		}
		if e.Options[OptExchangeOrder] == DrawFirst {
			return games.T("said.seated_draw_first", commas(order))
		}
		return games.T("said.seated", commas(order))
	case EvDealt:
		text := games.T("said.dealt", tiles(e.PoolSize))
		if k, ok := sameCount(e.Counts); ok {
			text = games.T("said.dealt_each", tiles(k), tiles(e.PoolSize))
		}
		var got []games.Text
		for q, h := range e.Hands {
			if len(h) == 0 {
				continue
			}
			switch {
			case q == seatOf(seat) && len(got) == 0:
				got = append(got, games.T("said.you_got", tilesNamed(h)))
			case q == seatOf(seat):
				got = append(got, games.T("said.you_got_after", tilesNamed(h)))
			default:
				got = append(got, games.T("said.got", name(s, q), tilesNamed(h)))
			}
		}
		if len(got) == 0 {
			return text
		}
		return games.T("said.then", text, semicolons(got))
	case EvBought:
		var parts []any
		for c, k := range e.Tokens {
			if k > 0 && c < Colours {
				parts = append(parts, chipsText(c, k))
			}
		}
		if len(parts) == 0 {
			return act("bought_nothing")
		}
		return act("bought", games.List(parts...), e.Cost)
	case EvPlaced:
		if e.Tile == nil || !e.Tile.Valid() {
			return act("placed_a_tile")
		}
		t, chain := e.Tile.Text(), games.T("colour_chain."+ColourName(e.Tile.Colour()))
		switch {
		case e.Coup:
			return act("coup", t, chain, e.Chain)
		case e.Last && e.Chain > 1:
			return act("placed_last_chain", t, chain, e.Chain)
		case e.Last:
			return act("placed_last", t)
		case e.Chain > 1:
			return act("placed_chain", t, chain, e.Chain)
		}
		return act("placed", t)
	case EvPassed:
		return act("passed")
	case EvExchanged:
		switch {
		case e.NDiscarded == 0 && e.NDrawn == 0:
			return act("kept_drew_none")
		case e.NDiscarded == 0:
			return act("kept", someTiles(e.NDrawn, e.Drawn))
		case e.NDrawn == 0:
			return act("discarded_drew_none", someTiles(e.NDiscarded, e.Discarded))
		}
		return act("discarded", someTiles(e.NDiscarded, e.Discarded), someTiles(e.NDrawn, e.Drawn))
	case EvResigned:
		if e.Returned == 0 {
			return act("left")
		}
		return act("left_returned", tiles(e.Returned))
	case EvGameOver:
		best := 0
		if len(e.Winners) > 0 && e.Winners[0] >= 0 && e.Winners[0] < len(e.Capital) {
			best = e.Capital[e.Winners[0]]
		}
		switch len(e.Winners) {
		case 0:
			return games.T("said.over_nobody")
		case 1:
			return said(s, e.Winners[0], seat, "over_won", best)
		}
		ws := make([]any, len(e.Winners))
		you := false
		for i, w := range e.Winners {
			ws[i] = name(s, w)
			if w == seatOf(seat) && w >= 0 {
				you = true
				ws[i] = games.T("said.you")
				if i == 0 {
					ws[i] = games.T("said.you_first")
				}
			}
		}
		if you {
			return games.T("said.over_you_shared", games.List(ws...), best)
		}
		return games.T("said.over_shared", games.List(ws...), best)
	}
	return games.Text{}
}

// said is the text of key about what seat p did, as viewer reads it: the
// message "said.you_<key>" for the viewer's own seat, else "said.<key>"
// with the player's name first.
func said(s *State, p int, viewer games.Seat, key string, args ...any) games.Text {
	if p >= 0 && p == seatOf(viewer) {
		return games.T("said.you_"+key, args...)
	}
	return games.T("said."+key, append([]any{name(s, p)}, args...)...)
}

// name is seat p's player's name (a seat number for a seat not at the
// table).
func name(s *State, p int) any {
	if p >= 0 && p < s.n() {
		return s.Players[p]
	}
	return games.T("said.seat", p)
}

// tiles is a number of tiles in words: "1 tile", "3 tiles".
func tiles(k int) games.Text { return games.T("said.tiles", k) }

// chipsText is k tokens of colour c in words: "2 red".
func chipsText(c, k int) games.Text { return games.T("said.chips."+ColourName(c), k) }

// tilesNamed is tiles named one by one as a list: "red 3, blue 7 and green 1".
func tilesNamed(ts []Tile) games.Text {
	parts := make([]any, len(ts))
	for i, t := range ts {
		parts[i] = t.Text()
	}
	if len(ts) == 1 {
		return games.T("said.tile_named", games.List(parts...))
	}
	return games.T("said.tiles_named", games.List(parts...))
}

// commas joins items with commas: "A, you, C".
func commas(items []any) games.Text {
	if len(items) == 1 {
		if t, ok := items[0].(games.Text); ok {
			return t
		}
		return games.Plain(items[0])
	}
	return games.T("board.commas", items[0], commas(items[1:]))
}

// semicolons joins texts with semicolons.
func semicolons(items []games.Text) games.Text {
	if len(items) == 1 {
		return items[0]
	}
	return games.T("board.semicolons", items[0], semicolons(items[1:]))
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
func someTiles(n int, shown []Tile) games.Text {
	if len(shown) > 0 {
		return tilesNamed(shown)
	}
	return tiles(n)
}

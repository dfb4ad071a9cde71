package kramercoup

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/courrier-games/courrier/games"
)

// Kind is the kind of a move.
type Kind string

// The move kinds of section 7.
const (
	// KindBuy buys tokens (Buy phase); a buy of no tokens is "buy nothing".
	KindBuy Kind = "buy"
	// KindPlace places one tile (Place phase, last tile).
	KindPlace Kind = "place"
	// KindPass places no last tile after the Coup.
	KindPass Kind = "pass"
	// KindDiscard discards one or more tiles (Exchange phase).
	KindDiscard Kind = "discard"
	// KindKeep discards nothing (Exchange phase).
	KindKeep Kind = "keep"
)

// Move is one move line.
type Move struct {
	// Kind is what the move does.
	Kind Kind `json:"kind"`
	// Buy is the number of tokens per colour index (KindBuy).
	Buy [Colours]int `json:"buy"`
	// Tile is the tile placed (KindPlace).
	Tile Tile `json:"tile"`
	// Tiles are the tiles discarded, in canonical order (KindDiscard).
	Tiles []Tile `json:"tiles,omitempty"`
}

// total is the number of tokens a buy asks for.
func (m Move) total() int {
	n := 0
	for _, k := range m.Buy {
		n += k
	}
	return n
}

// fields lower-cases text, drops accents and commas, and splits it into
// words, cutting "b7" into "b", "7".
func fields(text string) []string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch r {
		case 'à', 'á', 'â', 'ä', 'ã', 'å':
			r = 'a'
		case 'è', 'é', 'ê', 'ë':
			r = 'e'
		case 'ì', 'í', 'î', 'ï':
			r = 'i'
		case 'ò', 'ó', 'ô', 'ö', 'õ':
			r = 'o'
		case 'ù', 'ú', 'û', 'ü':
			r = 'u'
		case 'ç':
			r = 'c'
		case ',', ';', '+':
			r = ' '
		}
		b.WriteRune(r)
	}
	var out []string
	for w := range strings.FieldsSeq(b.String()) {
		i := strings.IndexFunc(w, unicode.IsDigit)
		if i > 0 && strings.IndexFunc(w[:i], func(r rune) bool { return !unicode.IsLetter(r) }) < 0 &&
			strings.IndexFunc(w[i:], func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
			out = append(out, w[:i], w[i:])
			continue
		}
		out = append(out, w)
	}
	return out
}

// parseTile reads "<colour> <number>" from the front of f.
func parseTile(f []string) (Tile, []string, error) {
	if len(f) == 0 {
		return 0, nil, games.Unparsable("a tile is written <colour> <number>, e.g. blue 7 or b7")
	}
	c, ok := colourIndex(f[0])
	if !ok {
		return 0, nil, games.Unparsable("%q is not a colour (yellow, orange, red, violet, blue, green or y, o, r, v, b, g)", f[0])
	}
	if len(f) < 2 {
		return 0, nil, games.Unparsable("a tile needs a number after its colour, e.g. %s 7", ColourName(c))
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > Numbers {
		return 0, nil, games.Unparsable("%q is not a tile number: numbers go from 1 to 20", f[1])
	}
	return NewTile(c, n), f[2:], nil
}

// parseBuy reads "[<n>] <colour> …" after "buy".
func parseBuy(f []string) (Move, error) {
	m := Move{Kind: KindBuy}
	if len(f) == 1 && (f[0] == "nothing" || f[0] == "0") {
		return m, nil
	}
	if len(f) == 0 {
		return m, games.Unparsable("write buy <n> <colour> … (e.g. buy 2 red 1 blue) or buy nothing")
	}
	for len(f) > 0 {
		n := 1
		if k, err := strconv.Atoi(f[0]); err == nil {
			if k < 0 || k > 999 {
				return m, games.Unparsable("%q is not a number of tokens", f[0])
			}
			n = k
			f = f[1:]
			if len(f) == 0 {
				return m, games.Unparsable("a number of tokens needs a colour after it, e.g. buy %d red", n)
			}
		}
		c, ok := colourIndex(f[0])
		if !ok {
			return m, games.Unparsable("%q is not a colour (yellow, orange, red, violet, blue, green)", f[0])
		}
		if m.Buy[c]+n > 999 {
			// Format writes one count per colour: keep it readable by Parse.
			return m, games.Unparsable("%d %s tokens is not a purchase", m.Buy[c]+n, ColourName(c))
		}
		m.Buy[c] += n
		f = f[1:]
	}
	return m, nil
}

// Parse reads one move line (section 7). "pass" is "buy nothing" during a
// Buy phase and "pass" (no last tile) otherwise.
func (Rules) Parse(s *State, text string) (Move, error) {
	f := fields(text)
	if len(f) == 0 {
		return Move{}, games.Unparsable("empty move: write buy …, place <tile>, pass, discard <tile> … or keep")
	}
	rest := f[1:]
	switch f[0] {
	case "buy":
		return parseBuy(rest)
	case "pass":
		if len(rest) > 0 {
			return Move{}, games.Unparsable("pass takes nothing after it")
		}
		if s != nil && s.Phase == PhaseBuy {
			return Move{Kind: KindBuy}, nil
		}
		return Move{Kind: KindPass}, nil
	case "keep":
		if len(rest) > 0 {
			return Move{}, games.Unparsable("keep takes nothing after it; to discard write discard <tile> …")
		}
		return Move{Kind: KindKeep}, nil
	case "place":
		if len(rest) == 1 && rest[0] == "nothing" {
			return Move{Kind: KindPass}, nil
		}
		t, more, err := parseTile(rest)
		if err != nil {
			return Move{}, err
		}
		if len(more) > 0 {
			return Move{}, games.Unparsable("place one tile at a time, e.g. place blue 7")
		}
		return Move{Kind: KindPlace, Tile: t}, nil
	case "discard":
		if len(rest) == 0 {
			return Move{}, games.Unparsable("discard needs at least one tile (e.g. discard red 3); to discard nothing write keep")
		}
		m := Move{Kind: KindDiscard}
		for len(rest) > 0 {
			t, more, err := parseTile(rest)
			if err != nil {
				return Move{}, err
			}
			m.Tiles = append(m.Tiles, t)
			rest = more
		}
		slices.Sort(m.Tiles)
		return m, nil
	}
	return Move{}, games.Unparsable("%q is not a move: write buy …, place <tile>, pass, discard <tile> … or keep", f[0])
}

// Format writes a move in canonical notation: the first form of section 7,
// counts always written, colours and tiles in canonical order; the last-tile
// pass is written "place nothing" during a buy phase, where "pass" reads as
// "buy nothing".
func (Rules) Format(s *State, m Move) string {
	switch m.Kind {
	case KindBuy:
		if m.total() == 0 {
			return "buy nothing"
		}
		var b strings.Builder
		b.WriteString("buy")
		for c, n := range m.Buy {
			if n > 0 {
				b.WriteString(" " + strconv.Itoa(n) + " " + ColourName(c))
			}
		}
		return b.String()
	case KindPlace:
		return "place " + m.Tile.String()
	case KindPass:
		if s != nil && s.Phase == PhaseBuy {
			// "pass" means "buy nothing" in a buy phase: write the alias
			// so that Parse(Format(m)) == m there too.
			return "place nothing"
		}
		return "pass"
	case KindDiscard:
		ts := slices.Clone(m.Tiles)
		slices.Sort(ts)
		return "discard " + tileList(ts)
	case KindKeep:
		return "keep"
	}
	return string(m.Kind)
}

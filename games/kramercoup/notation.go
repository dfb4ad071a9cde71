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

// fillers are the words a move may have between its items, which Parse
// skips: "buy 2 red and 1 blue", "place the blue 7", "buy 2 red tokens"
// (and their forms in every language, read by the catalog: "et", "la",
// "tuile", "jetons").
func fillers() []string { return []string{"and", "the", "tile", "tiles", "token", "tokens"} }

// readWords reads text as Parse does: fields, each word or run of words that
// is a form of a notation word in any language the catalog speaks made
// that word (also the letters of a glued code: "j7" is "yellow 7"), and
// the fillers dropped.
func readWords(text string) []string {
	var out []string
	for w := range strings.FieldsSeq(words.ReadMove(strings.Join(fields(text), " "))) {
		if !slices.Contains(fillers(), w) {
			out = append(out, w)
		}
	}
	return out
}

// parseTile reads "<colour> <number>" (or "<number> <colour>") from the
// front of f.
func parseTile(f []string) (Tile, []string, error) {
	if len(f) == 0 {
		return 0, nil, words.Unparsable("refusal.tile_form")
	}
	if len(f) >= 2 {
		if n, err := strconv.Atoi(f[0]); err == nil {
			if c, ok := colourIndex(f[1]); ok {
				if n < 1 || n > Numbers {
					return 0, nil, words.Unparsable("refusal.not_number", f[0])
				}
				return NewTile(c, n), f[2:], nil
			}
		}
	}
	c, ok := colourIndex(f[0])
	if !ok {
		return 0, nil, words.Unparsable("refusal.not_tile_colour", f[0])
	}
	if len(f) < 2 {
		return 0, nil, words.Unparsable("refusal.tile_number", games.T("colour."+ColourName(c)))
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > Numbers {
		return 0, nil, words.Unparsable("refusal.not_number", f[1])
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
		return m, words.Unparsable("refusal.buy_form")
	}
	for len(f) > 0 {
		n := 1
		if k, err := strconv.Atoi(f[0]); err == nil {
			if k < 0 || k > 999 {
				return m, words.Unparsable("refusal.token_count", f[0])
			}
			n = k
			f = f[1:]
			if len(f) == 0 {
				return m, words.Unparsable("refusal.count_colour", n)
			}
		}
		c, ok := colourIndex(f[0])
		if !ok {
			return m, words.Unparsable("refusal.not_colour", f[0])
		}
		if m.Buy[c]+n > 999 {
			// Format writes one count per colour: keep it readable by Parse.
			return m, words.Unparsable("refusal.too_many", chipsText(c, m.Buy[c]+n))
		}
		m.Buy[c] += n
		f = f[1:]
	}
	return m, nil
}

// Parse reads one move line (section 7), in the notation words of any
// language of the game's catalog. "pass" is "buy nothing" during a Buy
// phase and "pass" (no last tile) otherwise.
func (Rules) Parse(s *State, text string) (Move, error) {
	f := readWords(text)
	if len(f) == 0 {
		return Move{}, words.Unparsable("refusal.empty")
	}
	rest := f[1:]
	switch f[0] {
	case "buy":
		return parseBuy(rest)
	case "pass":
		if len(rest) > 0 {
			return Move{}, words.Unparsable("refusal.pass_alone")
		}
		if s != nil && s.Phase == PhaseBuy {
			return Move{Kind: KindBuy}, nil
		}
		return Move{Kind: KindPass}, nil
	case "keep":
		if len(rest) > 0 {
			return Move{}, words.Unparsable("refusal.keep_alone")
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
			return Move{}, words.Unparsable("refusal.one_tile")
		}
		return Move{Kind: KindPlace, Tile: t}, nil
	case "discard":
		if len(rest) == 0 {
			return Move{}, words.Unparsable("refusal.discard_none")
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
	return Move{}, words.Unparsable("refusal.not_move", f[0])
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

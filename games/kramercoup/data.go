// Package kramercoup is the rules engine of Coup by Wolfgang Kramer (ASS,
// 1975). RULES.md in this directory is its rules page: rule ids KC-1 …
// KC-33 of the specification and the engine's own [HOUSE] rules KC-34
// onwards.
//
// Six coloured rows of cells 1–20; players buy shares (tokens) in colours,
// lay hidden tiles on their own cells, exchange and refill their hands; an
// unbroken chain of 10 tiles in a row (the Coup) ends the game, and each
// token pays by its row's chains (Table 2).
package kramercoup

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Colours is the number of colour rows (KC-1).
const Colours = 6

// Numbers is the number of cells per row (KC-1).
const Numbers = 20

// TileCount is the number of tiles, one per cell (KC-1).
const TileCount = Colours * Numbers

// TokensPerColour is the supply of tokens of each colour (KC-2).
const TokensPerColour = 20

// TokenPrice is the price of one token, paid to the bank (KC-2).
const TokenPrice = 100

// CoupLength is the chain length that makes the Coup (KC-14).
const CoupLength = 10

// colourNames returns the colour names in canonical order (section 2).
func colourNames() [Colours]string {
	return [Colours]string{"yellow", "orange", "red", "violet", "blue", "green"}
}

// colourIndex reads a colour word or alias (section 2).
func colourIndex(word string) (int, bool) {
	switch word {
	case "yellow", "y":
		return 0, true
	case "orange", "o":
		return 1, true
	case "red", "r":
		return 2, true
	case "violet", "v", "purple", "p":
		return 3, true
	case "blue", "b":
		return 4, true
	case "green", "g":
		return 5, true
	}
	return 0, false
}

// ColourName is the notation of colour index c.
func ColourName(c int) string {
	if c < 0 || c >= Colours {
		return fmt.Sprintf("colour%d", c)
	}
	return colourNames()[c]
}

// Limits are the values of Table 1 for a number of players (KC-3).
type Limits struct {
	// Hand is B: tiles in hand.
	Hand int `json:"hand"`
	// Place is C: tiles placed per place phase (laps).
	Place int `json:"place"`
	// Buy is D: maximum tokens per buy phase.
	Buy int `json:"buy"`
	// Cash is E: starting cash.
	Cash int `json:"cash"`
}

// LimitsFor returns Table 1's row for n players (KC-3); ok is false outside 2–6.
func LimitsFor(n int) (Limits, bool) {
	switch n {
	case 2:
		return Limits{Hand: 12, Place: 6, Buy: 4, Cash: 3000}, true
	case 3:
		return Limits{Hand: 11, Place: 5, Buy: 4, Cash: 3000}, true
	case 4:
		return Limits{Hand: 10, Place: 4, Buy: 4, Cash: 3000}, true
	case 5:
		return Limits{Hand: 8, Place: 3, Buy: 3, Cash: 2000}, true
	case 6:
		return Limits{Hand: 7, Place: 3, Buy: 2, Cash: 1000}, true
	}
	return Limits{}, false
}

// ChainValue is Table 2: the value of one chain of length tiles (KC-17):
// 0 for 1–3, 20, 50, 100, 150, 200, 250, 300, 400, 500 for 4 … 12, then 100
// more per further tile ([HOUSE] reading of "each further tile adds 100").
func ChainValue(length int) int {
	small := [...]int{0, 0, 0, 0, 20, 50, 100, 150, 200, 250, 300, 400, 500}
	switch {
	case length <= 0:
		return 0
	case length < len(small):
		return small[length]
	default:
		return 500 + 100*(length-12)
	}
}

// Tile is one tile (and the cell it fits): colour*20 + number-1, so the
// integer order is the canonical order (colour index, then number). In JSON
// it is its notation, e.g. "blue 7".
type Tile int

// NewTile returns the tile of colour index c and number 1..20.
func NewTile(c, number int) Tile { return Tile(c*Numbers + number - 1) }

// Colour is the tile's colour index.
func (t Tile) Colour() int { return int(t) / Numbers }

// Number is the tile's number 1..20.
func (t Tile) Number() int { return int(t)%Numbers + 1 }

// Valid reports whether t is one of the 120 tiles.
func (t Tile) Valid() bool { return t >= 0 && t < TileCount }

// String is the tile's canonical notation, e.g. "blue 7".
func (t Tile) String() string {
	return ColourName(t.Colour()) + " " + strconv.Itoa(t.Number())
}

// Text is the tile's name in words of the game's catalog ("blue 7",
// "bleu 7").
func (t Tile) Text() games.Text {
	return games.T("tile", games.T("colour."+ColourName(t.Colour())), t.Number())
}

// MarshalText writes the tile's notation.
func (t Tile) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("kramercoup: invalid tile %d", int(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a tile in any accepted notation ("blue 7", "b7").
func (t *Tile) UnmarshalText(b []byte) error {
	// fast path: the canonical form written by MarshalText
	if name, num, ok := strings.Cut(string(b), " "); ok {
		if c, ok := colourIndex(name); ok {
			if k, err := strconv.Atoi(num); err == nil && k >= 1 && k <= Numbers {
				*t = NewTile(c, k)
				return nil
			}
		}
	}
	f := fields(string(b))
	tile, rest, err := parseTile(f)
	if err != nil || len(rest) > 0 {
		return fmt.Errorf("kramercoup: %q is not a tile", string(b))
	}
	*t = tile
	return nil
}

// allTiles returns the 120 tiles in canonical order.
func allTiles() []Tile {
	out := make([]Tile, TileCount)
	for i := range out {
		out[i] = Tile(i)
	}
	return out
}

// tileList writes tiles in notation, separated by spaces.
func tileList(ts []Tile) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

package coyote

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The decks and the variant tokens are replaceable data (rules README, "House
// data"): CSV files embedded from data/, never written into code.
//
//go:embed data/*.csv
var dataFS embed.FS

// Colours of feathers.
const (
	Green = "green"
	Red   = "red"
	Blue  = "blue"
)

// Faces of the blue feathers, in resolution order (CY-8).
const (
	FaceQuestion = "?"
	FaceMax0     = "max0"
	FaceMinusMax = "-max"
	FaceDouble   = "x2"
	FaceNight    = "night"
)

// blueOrder is the fixed resolution order of the blue feathers (CY-8).
func blueOrder() []string {
	return []string{FaceQuestion, FaceMax0, FaceMinusMax, FaceDouble, FaceNight}
}

// Variant token kinds (CY-12), in the canonical order Legal lists them.
const (
	TokenReveal  = "reveal"
	TokenReverse = "reverse"
	TokenSkip    = "skip"
	TokenReplace = "replace"
	TokenDeclare = "declare"
)

func tokenKinds() []string {
	return []string{TokenReveal, TokenReverse, TokenSkip, TokenReplace, TokenDeclare}
}

// Deck names (option deck, CY-2).
const (
	DeckFeathers30     = "feathers-30"
	DeckFirstEdition36 = "first-edition-36"
)

func deckNames() []string { return []string{DeckFeathers30, DeckFirstEdition36} }

// Feather is one physical feather: its id in the game's deck (0..n-1, fixed
// at setup), its face code (notation), its colour and its value.
type Feather struct {
	ID     int    `json:"id"`
	Face   string `json:"face"`
	Colour string `json:"colour"`
	Value  int    `json:"value"`
}

// FaceRow is one row of a deck table: a face, its colour, value and count.
type FaceRow struct {
	Face   string
	Colour string
	Value  int
	Count  int
}

// DeckTable reads the data table of the named deck (CY-2): one row per face.
func DeckTable(name string) ([]FaceRow, error) {
	if !slices.Contains(deckNames(), name) {
		return nil, fmt.Errorf("coyote: no deck %q (decks: %s)", name, strings.Join(deckNames(), ", "))
	}
	recs, err := readCSV("data/"+name+".csv", []string{"face", "colour", "value", "count"})
	if err != nil {
		return nil, err
	}
	var rows []FaceRow
	seen := map[string]bool{}
	for i, rec := range recs {
		face := strings.ToLower(strings.TrimSpace(rec[0]))
		colour := strings.ToLower(strings.TrimSpace(rec[1]))
		value, err1 := strconv.Atoi(strings.TrimSpace(rec[2]))
		count, err2 := strconv.Atoi(strings.TrimSpace(rec[3]))
		switch {
		case err1 != nil || err2 != nil || count < 1:
			return nil, fmt.Errorf("coyote: deck %s row %d: value and count must be whole numbers, count ≥ 1", name, i+1)
		case seen[face]:
			return nil, fmt.Errorf("coyote: deck %s row %d: face %q twice", name, i+1, face)
		case colour == Blue && (value != 0 || !slices.Contains(blueOrder(), face)):
			return nil, fmt.Errorf("coyote: deck %s row %d: a blue feather is one of %v and worth 0", name, i+1, blueOrder())
		case colour == Green || colour == Red:
			if n, err := strconv.Atoi(face); err != nil || n != value {
				return nil, fmt.Errorf("coyote: deck %s row %d: a %s feather's face is its value", name, i+1, colour)
			}
		case colour != Blue:
			return nil, fmt.Errorf("coyote: deck %s row %d: colour %q is not green, red or blue", name, i+1, colour)
		}
		seen[face] = true
		rows = append(rows, FaceRow{Face: face, Colour: colour, Value: value, Count: count})
	}
	return rows, nil
}

// LoadDeck returns the feathers of the named deck with their ids, in table
// order.
func LoadDeck(name string) ([]Feather, error) {
	rows, err := DeckTable(name)
	if err != nil {
		return nil, err
	}
	var out []Feather
	for _, r := range rows {
		for range r.Count {
			out = append(out, Feather{ID: len(out), Face: r.Face, Colour: r.Colour, Value: r.Value})
		}
	}
	return out, nil
}

// LoadVariantTokens returns the variant tokens (CY-12), one entry per token.
func LoadVariantTokens() ([]string, error) {
	recs, err := readCSV("data/variant-tokens.csv", []string{"kind", "count"})
	if err != nil {
		return nil, err
	}
	var out []string
	for i, rec := range recs {
		kind := strings.ToLower(strings.TrimSpace(rec[0]))
		count, err := strconv.Atoi(strings.TrimSpace(rec[1]))
		if err != nil || count < 0 || !slices.Contains(tokenKinds(), kind) {
			return nil, fmt.Errorf("coyote: variant tokens row %d: want one of %v and a count", i+1, tokenKinds())
		}
		for range count {
			out = append(out, kind)
		}
	}
	return out, nil
}

func readCSV(path string, header []string) ([][]string, error) {
	f, err := dataFS.Open(path)
	if err != nil {
		return nil, fmt.Errorf("coyote: %w", err)
	}
	defer func() { _ = f.Close() }() // a file of the embedded FS: closing it cannot fail in a way that matters
	r := csv.NewReader(f)
	r.Comment = '#'
	r.FieldsPerRecord = len(header)
	var recs [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("coyote: %s: %w", path, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		return nil, fmt.Errorf("coyote: %s: the first row must be %v", path, header)
	}
	return recs[1:], nil
}

// maxBid is the highest total a count can reach with this deck: every green
// value doubled by every x2 (CY-32).
func maxBid(deck []Feather) int {
	sum, factor := 0, 1
	for _, f := range deck {
		switch {
		case f.Colour == Green && f.Value > 0:
			sum += f.Value
		case f.Colour == Blue && f.Face == FaceDouble:
			factor *= 2
		}
	}
	return max(sum*factor, 1)
}

// faces lists the distinct faces of a deck in table order (the names a
// declaration may use, CY-19).
func faces(deck []Feather) []string {
	var out []string
	for _, f := range deck {
		if !slices.Contains(out, f.Face) {
			out = append(out, f.Face)
		}
	}
	return out
}

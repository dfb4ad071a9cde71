package coupage

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The [HOUSE] replaceable data of Tables G, W and S (coupage.md section 2),
// one JSON file per value of the option aid_tables.
//
//go:embed aid_*.json
var aidFiles embed.FS

// Effect keys of the specials: the code implements these effects; the data
// names the cards that carry them and their counts.
const (
	effYoung     = "young"      // CP-22
	effStealCard = "steal_card" // CP-23
	effSpoil     = "spoil"      // CP-24
	effOenologue = "oenologist" // CP-26
	effHarvest   = "harvest"    // CP-27
	effEvaporate = "evaporate"  // CP-28
	effStealTime = "steal_time" // CP-30
)

// Ability keys of the wines (CP-31 to CP-34).
const (
	abTake    = "take"    // Rosé, CP-31
	abAge     = "age"     // Rouge, CP-32
	abExtra   = "extra"   // Cava rosé, CP-33
	abRecover = "recover" // Cava blanc, CP-34
)

// timeCard is the code of a Time card.
const timeCard = "time"

// Variety is a grape variety of Table G.
type Variety struct {
	Code   string `json:"code"`
	Name   string `json:"name"`
	Colour string `json:"colour"`
	// Cards is how many cards of 1, 2 and 3 stars.
	Cards [3]int `json:"cards"`
}

// Wine is a row of Table W.
type Wine struct {
	Code     string         `json:"code"`
	Name     string         `json:"name"`
	Type     string         `json:"type"` // "wine" or "cava"
	Recipe   map[string]int `json:"recipe"`
	Distinct bool           `json:"distinct,omitempty"`
	Time     int            `json:"time"`
	Stars    int            `json:"stars"`
	Ability  string         `json:"ability"`

	// need is Recipe by colour index and n its number of cards, filled
	// when the data set is read (matches runs for every barrel of a view).
	need [8]int
	n    int
}

// IsCava tells whether the wine is a cava.
func (w Wine) IsCava() bool { return w.Type == "cava" }

// size is the number of grape cards of the recipe.
func (w Wine) size() int { return w.n }

// Special is a row of Table S.
type Special struct {
	Code   string `json:"code"`
	Alias  string `json:"alias"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Effect string `json:"effect"`
}

// Aid is one data set of Tables G, W and S (option aid_tables).
type Aid struct {
	Name      string    `json:"name"`
	Grapes    []Variety `json:"grapes"`
	Time      int       `json:"time"`
	CavaCards int       `json:"cava_cards"`
	Barrels   int       `json:"barrels"`
	Wines     []Wine    `json:"wines"`
	Specials  []Special `json:"specials"`

	order   map[string]int // canonical card order
	variety map[string]string
	colour  map[string]string
	stars   map[string]int
	effect  map[string]string // special code -> effect
	byEff   map[string]string // effect -> special code
	cardPh  phrases
	winePh  phrases
	colours []string          // colour names by index
	names   map[string]string // card code -> its name (cardName)
	colIdx  map[string]int    // grape code -> colour index
	varIdx  map[string]int    // grape code -> variety index
}

// loadAid reads and checks the data set name.
func loadAid(name string) (*Aid, error) {
	b, err := aidFiles.ReadFile("aid_" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("coupage: no aid table %q: %w", name, err)
	}
	return parseAid(name, b)
}

// parseAid reads and checks the data set name from its JSON text.
func parseAid(name string, b []byte) (*Aid, error) {
	var a Aid
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("coupage: aid table %q: %w", name, err)
	}
	a.order = map[string]int{}
	a.variety = map[string]string{}
	a.colour = map[string]string{}
	a.stars = map[string]int{}
	a.effect = map[string]string{}
	a.byEff = map[string]string{}
	a.colIdx = map[string]int{}
	a.names = map[string]string{timeCard: timeCard}
	a.varIdx = map[string]int{}
	if len(a.Grapes) > 64 {
		return nil, fmt.Errorf("coupage: aid table %q has more than 64 varieties", name)
	}
	i := 0
	for vi, v := range a.Grapes {
		ci := slices.Index(a.colours, v.Colour)
		if ci < 0 {
			ci = len(a.colours)
			a.colours = append(a.colours, v.Colour)
		}
		if ci >= 8 {
			return nil, fmt.Errorf("coupage: aid table %q has more than 8 colours", name)
		}
		for st := 1; st <= 3; st++ {
			c := v.Code + strconv.Itoa(st)
			a.order[c] = i
			a.variety[c] = v.Code
			a.colour[c] = v.Colour
			a.stars[c] = st
			a.colIdx[c] = ci
			a.varIdx[c] = vi
			a.names[c] = v.Name + " " + strings.Repeat("★", st)
			i++
		}
	}
	a.order[timeCard] = i
	i++
	for _, sp := range a.Specials {
		a.order[sp.Code] = i
		a.effect[sp.Code] = sp.Effect
		a.byEff[sp.Effect] = sp.Code
		a.names[sp.Code] = sp.Name
		i++
	}
	for _, e := range []string{effYoung, effStealCard, effSpoil, effOenologue, effHarvest, effEvaporate, effStealTime} {
		if a.byEff[e] == "" {
			return nil, fmt.Errorf("coupage: aid table %q has no special with effect %q", name, e)
		}
	}
	for i := range a.Wines {
		w := &a.Wines[i]
		for col, n := range w.Recipe {
			if n == 0 {
				continue
			}
			ci := slices.Index(a.colours, col)
			if ci < 0 {
				return nil, fmt.Errorf("coupage: aid table %q: wine %s needs colour %q that no grape has", name, w.Code, col)
			}
			w.need[ci] = n
			w.n += n
		}
	}
	a.cardPh = a.buildCardPhrases()
	a.winePh = a.buildWinePhrases()
	if a.Barrels <= 0 {
		a.Barrels = 4
	}
	return &a, nil
}

// cardName is a card as players read it, by its name in the rules'
// tables: a grape by its variety and its stars ("Macabeu ★★"), a special
// by its French name ("Vin piqué"), Time as "time". The parser reads it,
// and the code too.
func (a *Aid) cardName(code string) string {
	if n, ok := a.names[code]; ok {
		return n
	}
	return code
}

// cardNames are cardName of each code, joined by spaces.
func (a *Aid) cardNames(codes []string) string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = a.cardName(c)
	}
	return strings.Join(out, " ")
}

// verb is a special as the verb of its move, lower case: "vin piqué".
func (a *Aid) verb(code string) string {
	if _, ok := a.effect[code]; ok {
		return strings.ToLower(a.cardName(code))
	}
	return code
}

// wineName is a wine as players read it and write it, lower case: "cava
// rosé".
func (a *Aid) wineName(code string) string {
	for _, w := range a.Wines {
		if w.Code == code {
			return strings.ToLower(w.Name)
		}
	}
	return code
}

// mustAids loads every embedded data set; a broken embedded file is a
// programming error.
func mustAids() map[string]*Aid {
	out := map[string]*Aid{}
	entries, err := aidFiles.ReadDir(".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		name := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "aid_"), ".json")
		a, err := loadAid(name)
		if err != nil {
			panic(err)
		}
		out[name] = a
	}
	return out
}

// Deck returns the full deck of the data set in canonical order.
func (a *Aid) Deck() []string {
	var out []string
	for _, v := range a.Grapes {
		for st := 1; st <= 3; st++ {
			for range v.Cards[st-1] {
				out = append(out, v.Code+strconv.Itoa(st))
			}
		}
	}
	for range a.Time {
		out = append(out, timeCard)
	}
	for _, sp := range a.Specials {
		for range sp.Count {
			out = append(out, sp.Code)
		}
	}
	return out
}

// wine returns the wine of a code.
func (a *Aid) wine(code string) (Wine, bool) {
	for _, w := range a.Wines {
		if w.Code == code {
			return w, true
		}
	}
	return Wine{}, false
}

// isGrape tells whether a card code is a grape.
func (a *Aid) isGrape(c string) bool { _, ok := a.variety[c]; return ok }

// sortCards sorts card codes in canonical order (in place) and returns them.
func (a *Aid) sortCards(cs []string) []string {
	slices.SortStableFunc(cs, func(x, y string) int { return a.order[x] - a.order[y] })
	return cs
}

// starsOf sums the stars of grape cards.
func (a *Aid) starsOf(cs []string) int {
	n := 0
	for _, c := range cs {
		n += a.stars[c]
	}
	return n
}

// matches tells whether grapes are exactly the recipe of w.
func (a *Aid) matches(w Wine, grapes []string) bool {
	if len(grapes) != w.size() {
		return false
	}
	return a.couldComplete(w, grapes)
}

// couldComplete tells whether grapes are part of some exact recipe of w
// (a barrel that lost cards can be repaired back to w).
func (a *Aid) couldComplete(w Wine, grapes []string) bool {
	var count [8]int
	var seen uint64
	for _, g := range grapes {
		ci, ok := a.colIdx[g]
		if !ok {
			return false
		}
		count[ci]++
		if count[ci] > w.need[ci] {
			return false
		}
		if w.Distinct {
			bit := uint64(1) << a.varIdx[g]
			if seen&bit != 0 {
				return false
			}
			seen |= bit
		}
	}
	return true
}

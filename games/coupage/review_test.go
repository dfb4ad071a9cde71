package coupage

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// CP-15, CP-41, CP-7: a seat that may not act is told so by the turn-order
// rule whatever it sends, even a wine-ability move in a game without
// abilities or a pick when no Récolte is being picked.
func TestCP15_CP41_SeatRuleFirst(t *testing.T) {
	tb := tableSetup{
		opts:   games.Options{"wine_abilities": "off"},
		seats:  []seatSetup{{hand: []string{"recolte"}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "xar2", "xar3", "mac1"},
	}.build(t)
	for _, mv := range []string{"take market 1", "take nothing", "age nothing", "recover time mac1", "pick mac1", "draw"} {
		tb.reject(bob, mv, "CP-15")
		tb.reject(games.Spectator, mv, "CP-15")
	}
	tb.reject(ana, "take nothing", "CP-7") // her turn: the option is what forbids it
	tb.reject(ana, "pick mac1", "CP-27")
	tb.do(ana, "draw")
	tb.do(ana, "recolte")
	tb.reject(bob, "take market 1", "CP-41")
	tb.reject(cleo, "age nothing", "CP-41")
}

// CP-46: a one-word name that is the first word of another player's name
// is written by seat number, so that Parse(Format(m)) == m.
func TestCP46_SeatNamePrefix(t *testing.T) {
	tb := tableSetup{players: []string{"Jean", "Jean 2", "Bob"}, market: [2]string{"ull3", "par3"}}.build(t)
	for seat, want := range []string{"0", "1", "bob"} {
		if got := tb.s.seatName(games.Seat(seat)); got != want {
			t.Errorf("seat %d written %q, want %q", seat, got, want)
		}
	}
	for target := range games.Seat(3) {
		for _, m := range []Move{
			{Kind: mvSpecial, Special: "vin pique", Target: target, Barrel: 2},
			{Kind: mvSpecial, Special: "vol de carte", Target: target},
			{Kind: mvSpecial, Special: "evaporation", Target: target, Barrel: 1, Card: "gar2"},
			{Kind: mvSpecial, Special: "vol de temps", Target: target, Barrel: 2, FaceDown: true, Own: 1},
		} {
			text := tb.r.Format(tb.s, m)
			back, err := tb.r.Parse(tb.s, text)
			if err != nil || !reflect.DeepEqual(back, m) {
				t.Errorf("Parse(%q) = %+v, %v; want %+v", text, back, err, m)
			}
		}
	}
}

// CP-40, CP-44: at the deadline (or on "end") a waiting Rosé or Rouge
// choice is declined: no market card is taken, no card goes face down.
func TestCP40_CP44_DeclineRoseRouge(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"mac2", "par2", "xar1", "xar2"},
			barrels: map[int]barrelSetup{
				1: {wine: "rose", grapes: []string{"gar1", "mac1"}, time: []string{"time"}},
				2: {wine: "rouge", grapes: []string{"gar2", "tre2"}, time: []string{"time", "time"}},
				3: {wine: "blanc", grapes: []string{"mac3", "par3"}},
			}}},
		market: [2]string{"ull3", "par1"},
		top:    []string{"gar3", "tre1", "tre3", "ull1", "ull2"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 1 mac2")
	p := tb.r.Pending(tb.s)
	if len(p) != 1 || p[0].Seat != ana || p[0].Rule != "CP-40" || p[0].Default != "end" || tb.s.Turn.Ability != abTake {
		t.Fatalf("pending %+v, ability %q: want Ana's Rosé choice with default end", p, tb.s.Turn.Ability)
	}
	evs := tb.do(ana, p[0].Default)
	if !has(evs, evDeclined) || has(evs, evTook) || tb.s.Market != [2]string{"ull3", "par1"} {
		t.Errorf("the default took a market card: market %v", tb.s.Market)
	}
	if tb.s.Turn.Seat != bob {
		t.Fatalf("the turn did not end")
	}
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 2 par2")
	if tb.s.Turn.Ability != abAge {
		t.Fatalf("no Rouge choice waiting")
	}
	n := len(tb.s.Hands[ana])
	evs = tb.do(ana, "end")
	if !has(evs, evDeclined) || has(evs, evAged) || len(tb.s.Barrels[ana][2].Time) != 0 {
		t.Errorf("the default put a card face down: %+v", tb.s.Barrels[ana][2])
	}
	if got := len(tb.s.Hands[ana]); got != max(n, 3) {
		t.Errorf("Ana holds %d cards, want %d", got, max(n, 3))
	}
}

// CP-45: a Rouge ability with nothing to choose is skipped: an empty hand,
// or no barrel that may receive Time (CP-19).
func TestCP45_RougeSkipped(t *testing.T) {
	// Empty hand after the payment.
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"mac1"},
			barrels: map[int]barrelSetup{
				1: {wine: "rouge", grapes: []string{"gar2", "tre2"}, time: []string{"time", "time"}},
				2: {wine: "blanc", grapes: []string{"mac3", "par3"}},
			}}},
		market: [2]string{"ull3", "par2"},
		top:    []string{"par1"},
	}.build(t)
	tb.do(ana, "draw")
	evs := tb.do(ana, "bottle 1 mac1 par1")
	if has(evs, evAbility) || tb.s.Turn.Ability != "" || tb.s.Turn.Actions != 1 || len(tb.s.Hands[ana]) != 0 {
		t.Errorf("Rouge with an empty hand: ability %q, want it skipped", tb.s.Turn.Ability)
	}
	tb.reject(ana, "age nothing", "CP-32")

	// A hand, but no barrel that may receive Time (barrel 2 is spoiled).
	tb = tableSetup{
		seats: []seatSetup{{hand: []string{"mac2", "xar1"},
			barrels: map[int]barrelSetup{
				1: {wine: "rouge", grapes: []string{"gar2", "tre2"}, time: []string{"time", "time"}},
				2: {wine: "blanc", grapes: []string{"mac3", "par3"}, spoil: 1},
			}}},
		market: [2]string{"ull3", "par2"},
		top:    []string{"xar2"},
	}.build(t)
	tb.do(ana, "draw")
	evs = tb.do(ana, "bottle 1 mac2")
	if has(evs, evAbility) || tb.s.Turn.Ability != "" || tb.s.Turn.Actions != 1 {
		t.Errorf("Rouge without a barrel to age: ability %q, want it skipped", tb.s.Turn.Ability)
	}
	tb.reject(ana, "age 2 xar1", "CP-32")
}

// CP-49: a special leaves the hand before its effect; Récolte reveals one
// card per player still in the game and skips those who left.
func TestCP49_RecolteAfterResignation(t *testing.T) {
	tb := tableSetup{
		players: []string{"Ana", "Bob", "Cleo", "Dan"},
		seats:   []seatSetup{{hand: []string{"recolte"}}},
		market:  [2]string{"ull3", "par3"},
		top:     []string{"xar1", "time", "mac3", "gar1", "tre1"},
	}.build(t)
	evs, err := tb.r.Resign(tb.s, cleo, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.fold(e)
	}
	tb.do(ana, "draw")
	n := len(tb.s.Hands[ana])
	tb.do(ana, "recolte")
	if d := tb.s.Discard; len(tb.s.Hands[ana]) != n-1 || len(d) == 0 || d[len(d)-1] != "recolte" {
		t.Errorf("the Récolte was not discarded after its reveal: discard %v", d)
	}
	h := tb.s.Harvest
	if h == nil || !slices.Equal(h.Cards, []string{"time", "mac3", "gar1"}) || !slices.Equal(h.Order, []games.Seat{ana, bob, 3}) {
		t.Fatalf("harvest %+v, want 3 cards for Ana, Bob and Dan", h)
	}
	tb.do(ana, "pick 3")
	tb.do(bob, "pick time")
	tb.reject(cleo, "pick mac3", "CP-41")
	tb.do(3, "pick mac3")
	if tb.s.Harvest != nil || tb.s.Turn.Seat != ana || tb.s.Turn.Actions != 1 {
		t.Errorf("after the picks: harvest %+v, turn %+v, discard %v", tb.s.Harvest, tb.s.Turn, tb.s.Discard)
	}
}

// Tables G, W and S are [HOUSE] replaceable data: the embedded house set
// holds exactly the page's tables, and another data set changes the game
// without a code change.
func TestHouseData_TablesAreData(t *testing.T) {
	a := NewRules().aids["house"]
	type row struct {
		colour string
		cards  [3]int
	}
	wantG := map[string]row{"mac": {"white", [3]int{3, 3, 2}}, "xar": {"white", [3]int{3, 3, 2}}, "par": {"white", [3]int{3, 3, 2}},
		"gar": {"red", [3]int{3, 3, 2}}, "tre": {"red", [3]int{3, 3, 2}}, "ull": {"red", [3]int{3, 3, 2}}}
	if len(a.Grapes) != 6 {
		t.Errorf("%d varieties, want 6", len(a.Grapes))
	}
	for _, v := range a.Grapes {
		if w, ok := wantG[v.Code]; !ok || w.colour != v.Colour || w.cards != v.Cards {
			t.Errorf("Table G row %+v", v)
		}
	}
	type wrow struct {
		typ         string
		recipe      map[string]int
		distinct    bool
		time, stars int
		ability     string
	}
	wantW := map[string]wrow{
		"blanc":      {"wine", map[string]int{"white": 2}, false, 1, 2, ""},
		"rose":       {"wine", map[string]int{"red": 1, "white": 1}, false, 1, 2, abTake},
		"rouge":      {"wine", map[string]int{"red": 2}, false, 2, 2, abAge},
		"cava blanc": {"cava", map[string]int{"white": 3}, true, 2, 3, abRecover},
		"cava rose":  {"cava", map[string]int{"white": 2, "red": 1}, false, 2, 3, abExtra},
	}
	if len(a.Wines) != len(wantW) {
		t.Errorf("%d wines, want %d", len(a.Wines), len(wantW))
	}
	for _, w := range a.Wines {
		x, ok := wantW[w.Code]
		if !ok || x.typ != w.Type || !reflect.DeepEqual(x.recipe, w.Recipe) || x.distinct != w.Distinct || x.time != w.Time || x.stars != w.Stars || x.ability != w.Ability {
			t.Errorf("Table W row %+v", w)
		}
	}
	wantS := map[string]int{"vin jeune": 3, "vol de carte": 3, "vin pique": 3, "oenologue": 3, "recolte": 3, "evaporation": 2, "vol de temps": 2}
	for _, sp := range a.Specials {
		if wantS[sp.Code] != sp.Count {
			t.Errorf("Table S row %+v", sp)
		}
		delete(wantS, sp.Code)
	}
	if len(wantS) != 0 || a.Time != 12 || a.CavaCards != 4 || len(a.Deck()) != 79 {
		t.Errorf("missing specials %v, time %d, cava %d, deck %d", wantS, a.Time, a.CavaCards, len(a.Deck()))
	}

	// Another data set: a Blanc needs 2 Time, Macabeu has 3 cards, one Vin jeune.
	raw, err := aidFiles.ReadFile("aid_house.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["wines"].([]any)[0].(map[string]any)["time"] = 2
	doc["grapes"].([]any)[0].(map[string]any)["cards"] = []int{1, 1, 1}
	doc["specials"].([]any)[0].(map[string]any)["count"] = 1
	raw, _ = json.Marshal(doc)
	other, err := parseAid("house", raw)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(other.Deck()); n != 79-5-2 {
		t.Errorf("the other data set makes a deck of %d cards, want 72", n)
	}
	r := Rules{aids: map[string]*Aid{"house": other}}
	tb := tableSetup{
		rules: &r,
		seats: []seatSetup{{hand: []string{"xar2", "time"},
			barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}}}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"gar1"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "bottle 1 xar2", "CP-10") // 1 Time of the 2 this data set asks
	tb.do(ana, "time 1")
	tb.do(ana, "bottle 1 xar2")
	evs, err := r.Setup(games.Options{}, []string{"Ana", "Bob"}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || len(evs[1].Cards) != 72 {
		t.Errorf("setup with the other data set: %v", err)
	}
}

// The conservation check of the property tests notices a lost, a doubled
// and an unknown card, and a lost Cava card.
func TestConservedDetects(t *testing.T) {
	tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
	if err := conserved(tb.s); err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(s *State){
		"lost":    func(s *State) { s.Deck = s.Deck[1:] },
		"doubled": func(s *State) { s.Hands[0] = append(s.Hands[0], s.Deck[0]) },
		"unknown": func(s *State) { s.Hands[1] = append(s.Hands[1], "joker") },
		"swapped": func(s *State) { s.Deck[0] = s.Deck[len(s.Deck)-1] },
		"cava":    func(s *State) { s.CavaLeft-- },
	} {
		c := tb.s.clone()
		spoil(c)
		if err := conserved(c); err == nil {
			t.Errorf("%s: not noticed", name)
		}
	}
}

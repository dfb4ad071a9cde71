package coyote

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Tests for the rule ids the scenarios do not reach, and for the [HOUSE]
// rules of RULES.md. Where each rule id is tested:
//
//	CY-1   TestPlayers_CY1
//	CY-2   TestDecks_CY2_CY3, TestProperties (the game's deck is the table)
//	CY-3   TestDecks_CY2_CY3
//	CY-4   TestScenario8, TestSetup_CY14_CY18_CY4, TestDealOrder_CY4_CY5_House
//	CY-5   TestScenario1, TestScenario10, TestScenario12, TestWrongDeclarationEliminates_CY5_CY12e
//	CY-6   TestScenario9, TestBids_CY6_CY32
//	CY-7   TestScenario1, TestScenario2
//	CY-8   TestScenario3 to 6, TestCount_CY8, TestTies_CY8_House, TestBlueCopies_CY8_CY16_House
//	CY-9   TestScenario5
//	CY-10  TestScenario10, TestProperties (out exactly at the threshold)
//	CY-11  TestScenario7, TestScenario12, TestWrongDeclarationEliminates_CY5_CY12e, TestNightAnywhere_CY11_House
//	CY-12  TestScenario11, TestScenario12, TestTokens_CY12, TestReveal_CY12a_CY16
//	CY-14  TestSetup_CY14_CY18_CY4
//	CY-15  TestTurnOrder_CY15, TestScenario10 (the eliminated), TestScenario12 (the withdrawn)
//	CY-16  TestScenario4, TestEmptyPile_CY16_CY19, TestRevealEmptyPile_CY16
//	CY-17  TestGameOver_CY17, TestProperties
//	CY-18  TestSetup_CY14_CY18_CY4
//	CY-19  TestScenario11, TestDeclare_CY19, TestEmptyPile_CY16_CY19, TestBids_CY6_CY32
//	CY-30  TestScenario9, TestDefaultAfterToken_CY30, TestBids_CY6_CY32, TestProperties (20% timeouts)
//	CY-31  TestDeclareKeepsTwo_CY31 [HOUSE]
//	CY-32  TestBids_CY6_CY32 [HOUSE]
//	CY-33  TestResign_CY33, TestResignProperties [HOUSE]
//	§5     TestViews_Section5, TestEliminatedSeesPublic_Section5, TestRoundEndPublic_Section5_CY11,
//	       TestWithdrawnReplaced_Section5_House, TestRedact_ResignedSeesNoFeather_Section5_CY33,
//	       TestProperties (every view, redacted event and description)
//	words  TestDescribe_Round_Section5, TestDescribe_Settling (Describe of every event type)
//	prompt TestChoices_WorstCases, TestChoices_NotYourTurn_CY15, TestChoices_DeclareBlank
//	robustness FuzzDecide (its seed corpus runs with every go test)
//	§7     TestNotation_Section7

func TestInfo_Options_Section4(t *testing.T) {
	info := Rules{}.Info()
	if info.ID != "coyote" || info.MinSeats != 3 || info.MaxSeats != 6 {
		t.Fatalf("info %+v", info)
	}
	want := map[string]struct {
		values []string
		def    string
	}{
		OptDeck:          {[]string{"feathers-30", "first-edition-36"}, "feathers-30"},
		OptElimination:   {[]string{"3", "4", "5"}, "3"},
		OptVariantTokens: {[]string{"off", "on"}, "off"},
	}
	if len(info.Options) != len(want) {
		t.Fatalf("options %+v", info.Options)
	}
	for _, o := range info.Options {
		if w := want[o.Name]; !slices.Equal(o.Values, w.values) || o.Default != w.def {
			t.Errorf("option %+v, want %+v", o, w)
		}
	}
	opts, err := New().Options(nil)
	if err != nil || opts[OptDeck] != "feathers-30" || opts[OptElimination] != "3" || opts[OptVariantTokens] != "off" {
		t.Fatalf("defaults %v %v", opts, err)
	}
}

func TestPlayers_CY1(t *testing.T) {
	for _, n := range []int{0, 2, 7} {
		names := make([]string, n)
		for i := range names {
			names[i] = string(rune('A' + i))
		}
		_, err := Rules{}.Setup(nil, names, rand.New(rand.NewPCG(1, 1)))
		if re, ok := games.AsRuleError(err); !ok || re.Rule != "CY-1" {
			t.Errorf("%d players: %v", n, err)
		}
	}
}

// CY-2, CY-3: the decks are data tables with the rules' compositions.
func TestDecks_CY2_CY3(t *testing.T) {
	colours := func(d []Feather) map[string]int {
		m := map[string]int{}
		for _, f := range d {
			m[f.Colour]++
		}
		return m
	}
	count := func(d []Feather, face string) int {
		n := 0
		for _, f := range d {
			if f.Face == face {
				n++
			}
		}
		return n
	}
	d30, err := LoadDeck(DeckFeathers30)
	if err != nil {
		t.Fatal(err)
	}
	if c := colours(d30); len(d30) != 30 || c[Green] != 22 || c[Red] != 3 || c[Blue] != 5 {
		t.Fatalf("feathers-30: %d feathers, %v", len(d30), c)
	}
	for face, n := range map[string]int{"1": 3, "4": 3, "5": 2, "6": 1, "9": 1, "10": 2, "15": 1, "20": 1, "-5": 2, "-10": 1,
		"?": 1, "max0": 1, "-max": 1, "x2": 1, "night": 1, "0": 0, "11": 0} {
		if got := count(d30, face); got != n {
			t.Errorf("feathers-30 has %d × %s, want %d", got, face, n)
		}
	}
	d36, err := LoadDeck(DeckFirstEdition36)
	if err != nil {
		t.Fatal(err)
	}
	if c := colours(d36); len(d36) != 36 || c[Green] != 29 || c[Red] != 3 || c[Blue] != 4 {
		t.Fatalf("first-edition-36: %d feathers, %v", len(d36), c)
	}
	for face, n := range map[string]int{"0": 3, "1": 4, "5": 4, "10": 3, "15": 2, "20": 1, "-max": 0} {
		if got := count(d36, face); got != n {
			t.Errorf("first-edition-36 has %d × %s, want %d", got, face, n)
		}
	}
	for i, f := range d36 {
		if f.ID != i {
			t.Fatalf("ids are table positions: %+v at %d", f, i)
		}
	}
	tokens, err := LoadVariantTokens()
	if err != nil || !slices.Equal(tokens, []string{"reveal", "reveal", "reverse", "reverse", "skip", "skip", "replace", "declare"}) {
		t.Fatalf("tokens %v %v", tokens, err)
	}
	if _, err := LoadDeck("nope"); err == nil {
		t.Fatal("unknown deck loaded")
	}
	// The game's deck travels in its setup event (a replaced table does not
	// change a game already started).
	evs, err := Rules{}.Setup(games.Options{OptDeck: DeckFirstEdition36}, fiveNames[:3], rand.New(rand.NewPCG(1, 1)))
	if err != nil || !slices.Equal(evs[0].Setup.Feathers, d36) {
		t.Fatalf("setup: %v", err)
	}
	s := fold(evs)
	if s.MaxBid != 280 || len(s.Pile) != 33 {
		t.Fatalf("max bid %d, pile %d", s.MaxBid, len(s.Pile))
	}
}

func fold(evs []Event) State {
	s := newState()
	for _, e := range evs {
		s = evolve(s, e)
	}
	return s
}

// CY-14, CY-18, CY-4: random seating, a shuffled pile, one feather each,
// seat 0 first.
func TestSetup_CY14_CY18_CY4(t *testing.T) {
	players := []string{"Ana", "Bob", "Cal", "Dee", "Eve"}
	orders := map[string]bool{}
	for seed := range uint64(20) {
		evs, err := Rules{}.Setup(nil, players, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		if got := types(evs); !slices.Equal(got, []string{EvSetup, EvShuffle, EvDeal}) {
			t.Fatalf("setup events %v", got)
		}
		for seat, j := range evs[0].Setup.Order {
			if evs[0].Setup.Players[seat] != players[j] {
				t.Fatalf("order %v does not map %v to %v", evs[0].Setup.Order, players, evs[0].Setup.Players)
			}
		}
		orders[strings.Join(evs[0].Setup.Players, ",")] = true
		sh := evs[1].Shuffle
		if sh.Reason != "start" || len(sh.Pile) != 30 || slices.IsSorted(sh.Pile) {
			t.Fatalf("shuffle %+v", sh)
		}
		s := fold(evs)
		if s.Turn != 0 || s.Round != 1 || len(s.Pile) != 25 || slices.Contains(s.Worn, -1) {
			t.Fatalf("after the deal: turn %d round %d pile %d worn %v", s.Turn, s.Round, len(s.Pile), s.Worn)
		}
		if got := (Rules{}).Players(s); !slices.Equal(got, evs[0].Setup.Players) {
			t.Fatalf("players %v", got)
		}
	}
	if len(orders) < 10 {
		t.Fatalf("seat orders are not drawn at random: %d distinct in 20 games", len(orders))
	}
}

// CY-15: turns clockwise; a seat out of turn, a spectator and an unknown
// seat are rejected.
func TestTurnOrder_CY15(t *testing.T) {
	tb := rig(t, 4, nil)
	tb.reject("Bob", "bid 3", "CY-15")
	for _, seat := range []games.Seat{games.Spectator, 4, 99} {
		if _, err := (Rules{}).Decide(tb.s, seat, Move{Kind: MoveBid, Bid: 3}, tb.rng); err == nil {
			t.Fatalf("seat %d played", seat)
		}
		if got := (Rules{}).Legal(tb.s, seat); got != nil {
			t.Fatalf("seat %d has legal moves %v", seat, got)
		}
	}
	for i, name := range []string{"Ana", "Bob", "Cal", "Dee", "Ana"} {
		tb.wantTurn(name)
		tb.play(name, "bid "+string(rune('1'+i)))
	}
}

// CY-6: "Coyote!" against one's own bid is rejected; CY-32: a bid above
// the highest possible total is rejected, except one more than one's own.
func TestBids_CY6_CY32(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"})
	tb.reject("Ana", "bid 251", "CY-32")
	tb.play("Ana", "bid 250")
	if legal := (Rules{}).Legal(tb.s, 1); !slices.Equal(legal, []string{"coyote", "reveal", "reverse", "skip", "replace",
		"declare 1", "declare 2", "declare 3", "declare 4", "declare 5", "declare 6", "declare 7", "declare 8", "declare 9",
		"declare 10", "declare 15", "declare 20", "declare -5", "declare -10",
		"declare ?", "declare max→0", "declare -max", "declare ×2", "declare night"}) {
		t.Fatalf("legal at the ceiling: %v", legal)
	}
	tb.reject("Bob", "bid 251", "CY-32")
	tb.play("Bob", "skip")
	tb.play("Cal", "skip")
	tb.wantTurn("Ana") // her own bid stands
	tb.reject("Ana", "coyote", "CY-6")
	tb.reject("Ana", "declare 5", "CY-19")
	if p := (Rules{}).Pending(tb.s); p[0].Default != "bid 251" {
		t.Fatalf("default %q", p[0].Default)
	}
	if legal := (Rules{}).Legal(tb.s, 0); legal[len(legal)-1] != "bid 251" || slices.Contains(legal, "coyote") {
		t.Fatalf("legal %v", legal)
	}
	tb.play("Ana", "bid 251")
	tb.reject("Bob", "bid 252", "CY-32")
	tb.play("Bob", "coyote")
}

// CY-8: the count's corner cases.
func TestCount_CY8(t *testing.T) {
	for _, tc := range []struct {
		name  string
		faces []string
		total int
	}{
		{"green minus red", []string{"10", "-5", "3"}, 8},
		{"max0 without a green", []string{"-5", "max0", "-10"}, -15},
		{"-max without a green", []string{"-5", "-max", "night"}, -5},
		{"x2 leaves red alone", []string{"5", "-5", "x2"}, 5},
		{"x2 does not double the negated", []string{"10", "4", "-max", "x2"}, -2},
		{"max0 then -max on the next highest", []string{"10", "9", "max0", "-max"}, -9},
		{"? turning a red", []string{"5", "?", "1", "-10"}, -4},
		{"? turning night", []string{"5", "?", "1", "night"}, 6},
		{"blue only", []string{"?", "max0", "x2", "-max"}, 0}, // ? turns 1 from the rest of the pile: max0 discards it
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.faces)
			if tc.faces[1] == "?" {
				n-- // the last face is what ? turns
			}
			c := countOf(t, n, tc.faces...)
			if c.Total != tc.total {
				t.Fatalf("total %d, want %d: %+v", c.Total, tc.total, c.Steps)
			}
			if last := c.Steps[len(c.Steps)-1]; last.Step != 6 || !strings.HasSuffix(last.Text, "= "+itoa(tc.total)) {
				t.Fatalf("last step %+v", last)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// CY-12a, CY-16: a revealed feather is counted; a `?` turned by reveal acts.
func TestReveal_CY12a_CY16(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"}, "5", "3", "2", "?", "20")
	tb.play("Ana", "reveal")
	if v := (Rules{}).View(tb.s, games.Spectator).(View); len(v.FaceUp) != 1 || v.FaceUp[0].Feather.Face != "?" {
		t.Fatalf("face up %+v", v.FaceUp)
	}
	tb.play("Ana", "bid 3")
	evs := tb.play("Bob", "coyote")
	c := find(t, evs, EvCount).Count
	if c.Total != 30 || len(c.Lines) != 5 || c.Lines[3].From != "reveal" || c.Lines[4].From != "?" {
		t.Fatalf("count %+v", c)
	}
}

// CY-16: with an empty pile the discard is shuffled into a new pile; with
// neither, nothing is turned and reveal/replace cannot be flipped (CY-19).
func TestEmptyPile_CY16_CY19(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"}, "5", "?", "2")
	tb.s.Discard, tb.s.Pile = tb.s.Pile, nil
	tb.play("Ana", "bid 3")
	evs := tb.play("Bob", "coyote")
	if got := types(evs)[:4]; !slices.Equal(got, []string{EvCall, EvShuffle, EvTurn, EvCount}) {
		t.Fatalf("events %v", got)
	}
	if sh := find(t, evs, EvShuffle).Shuffle; sh.Reason != "empty" || sh.Size != 27 {
		t.Fatalf("shuffle %+v", sh)
	}

	tb = rig(t, 3, games.Options{OptVariantTokens: "on"}, "5", "?", "2")
	// Everything else lies face up (as if revealed): nothing is left to turn.
	for _, id := range tb.s.Pile {
		tb.s.FaceUp = append(tb.s.FaceUp, Turned{Feather: id, By: TokenReveal, Seat: 0})
	}
	tb.s.Pile = nil
	tb.reject("Ana", "reveal", "CY-19")
	tb.reject("Ana", "replace", "CY-19")
	tb.play("Ana", "bid 3")
	evs = tb.play("Bob", "coyote")
	if has(evs, EvTurn, "") || !slices.ContainsFunc(find(t, evs, EvCount).Count.Steps, func(s Step) bool {
		return s.Step == 1 && strings.Contains(s.Text, "no feather")
	}) {
		t.Fatalf("events %v", types(evs))
	}
}

// CY-12: tokens: only with the variant; one per turn; a flipped token is not
// reused this round; all face up next round.
func TestTokens_CY12(t *testing.T) {
	tb := rig(t, 4, nil)
	tb.reject("Ana", "reverse", "CY-12")
	tb = rig(t, 4, games.Options{OptVariantTokens: "on"})
	tb.play("Ana", "reverse") // → Dee next
	tb.reject("Ana", "reveal", "CY-12")
	tb.play("Ana", "bid 1")
	tb.wantTurn("Dee")
	tb.play("Dee", "reverse") // clockwise again → Ana
	tb.play("Dee", "bid 2")
	tb.wantTurn("Ana")
	tb.reject("Ana", "reverse", "CY-12") // both reverse tokens are flipped
	tb.play("Ana", "skip")
	tb.play("Bob", "skip")
	tb.reject("Cal", "skip", "CY-12")
	if (Rules{}).View(tb.s, 2).(View).Tokens[4].FaceUp {
		t.Fatal("a flipped token shows face up")
	}
}

// CY-12e, CY-5: a wrong declaration that eliminates: the next living player
// clockwise starts. The declarer's feather is public at once.
func TestWrongDeclarationEliminates_CY5_CY12e(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"}, "1", "2", "3", "night")
	tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 1, Coyotes: 2}})
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "declare 5")
	if got := types(evs); !slices.Equal(got, []string{EvFlip, EvCoyote, EvRoundEnd, EvShuffle, EvDeal}) {
		t.Fatalf("events %v", got)
	}
	if e := find(t, evs, EvRoundEnd).RoundEnd; !e.Night || len(e.Feathers) != 4 {
		t.Fatalf("round end %+v: night reshuffles after a wrong declaration too (CY-11)", e)
	}
	if d := find(t, evs, EvDeal).Deal; d.First != 2 || len(d.Worn) != 3 {
		t.Fatalf("deal %+v: Cal starts", d)
	}
	// The declarer's flip event is public for every seat.
	for seat := games.Spectator; seat < 4; seat++ {
		if r := tb.redact(evs[0], seat).Flip; r.Feather == nil || r.Feather.Face != "2" {
			t.Fatalf("seat %d: %+v", seat, r)
		}
	}
}

// CY-19: declarations name faces; "declare 0" is not night; a face the deck
// lacks is rejected; declaring while holding the bid is rejected.
func TestDeclare_CY19(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"}, "night", "2", "3", "4")
	tb.reject("Ana", "declare 0", "CY-19")
	tb.reject("Ana", "declare 11", "CY-19")
	tb.reject("Ana", "declare foo", games.NotationRule)
	tb.play("Ana", "declare night")
	if !tb.s.Withdrawn[0] {
		t.Fatal("Ana did not withdraw")
	}
	tb.wantTurn("Bob")
	tb = rig(t, 4, games.Options{OptVariantTokens: "on", OptDeck: DeckFirstEdition36}, "0", "2", "3", "4")
	tb.reject("Ana", "declare -max", "CY-19") // not in that deck
	tb.play("Ana", "declare 0")
	if !tb.s.Withdrawn[0] {
		t.Fatal("0 is a face of first-edition-36")
	}
}

// CY-31: a declaration may not leave fewer than two players in the round.
func TestDeclareKeepsTwo_CY31(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"}, "1", "2", "3")
	tb.s.Tokens = append(slices.Clone(tb.s.Tokens), TokenDeclare) // a table with two declare tokens
	tb.s.Flipped = append(slices.Clone(tb.s.Flipped), false)
	tb.play("Ana", "declare 1")
	tb.wantTurn("Bob")
	tb.reject("Bob", "declare 2", "CY-31")
	if slices.ContainsFunc((Rules{}).Legal(tb.s, 1), func(m string) bool { return strings.HasPrefix(m, "declare") }) {
		t.Fatal("Legal lists a declaration")
	}
}

// CY-30: the default after a token is the same; it is always accepted.
func TestDefaultAfterToken_CY30(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"})
	tb.play("Ana", "reveal")
	if d := (Rules{}).Pending(tb.s)[0].Default; d != "bid 1" {
		t.Fatalf("default %q", d)
	}
	tb.play("Ana", "bid 1")
	tb.play("Bob", "replace")
	if d := (Rules{}).Pending(tb.s)[0].Default; d != "coyote" {
		t.Fatalf("default %q", d)
	}
}

// CY-17: the last player left wins; nothing more can be played.
func TestGameOver_CY17(t *testing.T) {
	tb := rig(t, 3, nil, "20", "15", "10")
	tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 0, Coyotes: 2}})
	tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 1, Coyotes: 2}})
	tb.play("Ana", "bid 100")
	tb.play("Bob", "coyote") // Ana out
	tb.play(tb.turn(), "bid 200")
	evs := tb.play(tb.turn(), "coyote")
	if got := types(evs); got[len(got)-1] != EvGameOver {
		t.Fatalf("events %v", got)
	}
	res := Rules{}.Result(tb.s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{2}) || res.Summary.In(games.English) != "Cal wins" || res.Summary.In("fr") != "Cal gagne" {
		t.Fatalf("result %+v", res)
	}
	if p := (Rules{}).Pending(tb.s); len(p) != 0 {
		t.Fatalf("pending %+v", p)
	}
	tb.reject("Cal", "bid 1", "CY-17")
	if _, err := (Rules{}).Resign(tb.s, 2, tb.rng); err == nil {
		t.Fatal("resigned after the end")
	}
}

// CY-33: a resignation eliminates the seat and deals a new round.
func TestResign_CY33(t *testing.T) {
	tb := rig(t, 4, nil, "1", "2", "3", "4")
	tb.play("Ana", "bid 5")
	evs, err := Rules{}.Resign(tb.s, 1, tb.rng) // Bob, whose turn it is
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.emit(e)
	}
	if got := types(evs); !slices.Equal(got, []string{EvResign, EvRoundEnd, EvDeal}) {
		t.Fatalf("events %v", got)
	}
	if e := find(t, evs, EvRoundEnd).RoundEnd; !e.Abandoned || len(e.Feathers) != 4 {
		t.Fatalf("round end %+v", e)
	}
	if !tb.s.Out[1] || tb.s.Round != 2 || tb.s.Bid != 0 || slices.Contains(tb.s.Coyotes, 1) {
		t.Fatalf("state: out %v round %d bid %d", tb.s.Out, tb.s.Round, tb.s.Bid)
	}
	tb.wantTurn("Cal")
	if _, err := (Rules{}).Resign(tb.s, 1, tb.rng); err == nil {
		t.Fatal("resigned twice")
	}
	// Dee resigns while it is Cal's turn: Cal starts the new round.
	if evs, err = (Rules{}).Resign(tb.s, 3, tb.rng); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.emit(e)
	}
	tb.wantTurn("Cal")
	if evs, err = (Rules{}).Resign(tb.s, 0, tb.rng); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.emit(e)
	}
	if res := (Rules{}).Result(tb.s); !res.Finished || res.Winners[0] != 2 {
		t.Fatalf("result %+v", res)
	}
}

// Section 5: views and redactions.
func TestViews_Section5(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"}, "1", "2", "3", "4", "5")
	tb.play("Ana", "bid 1")
	tb.play("Bob", "replace") // Bob now wears 5, the 2 lies behind it
	r := Rules{}
	for seat := games.Spectator; seat < 4; seat++ {
		v := r.View(tb.s, seat).(View)
		for _, p := range v.Players {
			see := seat >= 0 && seat != p.Seat
			if (p.Feather != nil) != see || p.Hidden == see {
				t.Errorf("seat %d sees %s's feather: %+v", seat, p.Name, p)
			}
			if p.Seat == 1 && (len(p.Replaced) == 1) != see || p.ReplacedCount != map[bool]int{true: 1, false: 0}[p.Seat == 1] {
				t.Errorf("seat %d sees Bob's replaced feather: %+v", seat, p)
			}
		}
		if v.PileSize != 25 || v.Bid != 1 || v.Tokens[6].FaceUp {
			t.Errorf("seat %d: pile %d bid %d tokens %+v", seat, v.PileSize, v.Bid, v.Tokens)
		}
	}
	// The deal and the replace event, redacted.
	deal := tb.log[2]
	for seat := games.Spectator; seat < 4; seat++ {
		d := tb.redact(deal, seat)
		for _, w := range d.Deal.Worn {
			if see := seat >= 0 && seat != w.Seat; (w.Feather != nil) != see {
				t.Errorf("seat %d, deal of seat %d: %+v", seat, w.Seat, w.Feather)
			}
		}
		if tb.redact(tb.log[1], seat).Shuffle.Pile != nil {
			t.Errorf("seat %d sees the pile order", seat)
		}
		rep := tb.redact(tb.log[len(tb.log)-1], seat).Flip
		if see := seat >= 0 && seat != 1; (rep.Feather != nil) != see {
			t.Errorf("seat %d, replace: %+v", seat, rep.Feather)
		}
	}
	if deal.Deal.Worn[0].Feather == nil {
		t.Fatal("Redact changed the event it was given")
	}
}

func TestNotation_Section7(t *testing.T) {
	r := Rules{}
	for in, want := range map[string]string{
		"bid 14": "bid 14", "14": "bid 14", "BID 14": "bid 14", " bid   7 ": "bid 7", "bid 0": "bid 0", "-3": "bid -3",
		"coyote": "coyote", "Coyote!": "coyote", "call": "coyote", "CALL": "coyote",
		"reveal": "reveal", "Reverse": "reverse", "skip": "skip", "REPLACE": "replace",
		"declare 7": "declare 7", "declare -5": "declare -5", "declare −5": "declare -5", "declare +07": "declare 7",
		"declare ×2": "declare ×2", "Declare X2": "declare ×2", "declare ?": "declare ?", "declare night": "declare night",
		"declare max→0": "declare max→0", "declare -max": "declare -max",
	} {
		m, err := r.Parse(State{}, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := r.Format(State{}, m); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
		if back, err := r.Parse(State{}, r.Format(State{}, m)); err != nil || back != m {
			t.Errorf("%q does not round-trip: %+v %v", in, back, err)
		}
	}
	for _, in := range []string{"", "  ", "bid", "bid x", "bid 1 2", "bid 99999999999", "declare", "declare seven",
		"declare 7 8", "coyote now", "pass", "reveal 3", "nuit"} {
		if _, err := r.Parse(State{}, in); err == nil {
			t.Errorf("%q parsed", in)
		} else if re, ok := games.AsRuleError(err); !ok || re.Rule != games.NotationRule {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// The state before any event answers every question without a panic.
func TestInitialState(t *testing.T) {
	r := Rules{}
	s := r.Initial(RulesVersion)
	if p := r.Pending(s); p != nil {
		t.Fatalf("pending %v", p)
	}
	if l := r.Legal(s, 0); l != nil {
		t.Fatalf("legal %v", l)
	}
	if _, err := r.Decide(s, 0, Move{Kind: MoveBid, Bid: 1}, nil); err == nil {
		t.Fatal("a bid before setup")
	}
	if _, err := r.Resign(s, 0, nil); err == nil {
		t.Fatal("a resignation before setup")
	}
	if res := r.Result(s); res.Finished {
		t.Fatalf("result %+v", res)
	}
	if _, err := json.Marshal(r.View(s, games.Spectator)); err != nil {
		t.Fatal(err)
	}
}

// CY-16, CY-12a: reveal with an empty pile shuffles the discard first.
func TestRevealEmptyPile_CY16(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"}, "5", "3", "2")
	tb.s.Discard, tb.s.Pile = tb.s.Pile, nil
	evs := tb.play("Ana", "reveal")
	if got := types(evs); !slices.Equal(got, []string{EvShuffle, EvFlip}) || evs[0].Shuffle.Reason != "empty" {
		t.Fatalf("events %v", got)
	}
	if len(tb.s.FaceUp) != 1 || len(tb.s.Pile) != 26 || len(tb.s.Discard) != 0 {
		t.Fatalf("face up %v, pile %d, discard %d", tb.s.FaceUp, len(tb.s.Pile), len(tb.s.Discard))
	}
}

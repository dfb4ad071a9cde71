package kramercoup

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// TestNotation_PassInBuyPhase_KC9_KC15: in a buy phase "pass" means "buy
// nothing", so the last-tile pass (written "place nothing" there) must not be
// written back as "pass": Parse(Format(m)) == m, and the canonical text of a
// refused "place nothing" must not become an accepted "buy nothing".
func TestNotation_PassInBuyPhase_KC9_KC15(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	m, err := Rules{}.Parse(tb.s, "place nothing")
	if err != nil || m.Kind != KindPass {
		t.Fatalf("place nothing = %+v, %v", m, err)
	}
	text := Rules{}.Format(tb.s, m)
	if back, err := (Rules{}).Parse(tb.s, text); err != nil || !reflect.DeepEqual(back, m) {
		t.Fatalf("Format = %q, parsed back as %+v, %v; want %+v", text, back, err, m)
	}
	canon, err := New().Canonical(tb.s, "place nothing")
	if err != nil {
		t.Fatal(err)
	}
	tb.reject(0, canon, "KC-9")
	tb.reject(0, "place nothing", "KC-9")
	if got := (Rules{}).Format(&State{Phase: PhaseLast}, m); got != "pass" {
		t.Errorf("after the Coup the pass is written %q, want pass", got)
	}
}

// TestKC8_NobodyMovesBetweenSeatingAndDeal: before the deal nobody may act;
// every seat's move is refused with a rule error (it used to panic).
func TestKC8_NobodyMovesBetweenSeatingAndDeal(t *testing.T) {
	s := Rules{}.Evolve(Rules{}.Initial(RulesVersion), Event{Type: EvSeated, Players: []string{"a", "b"}})
	for seat := games.Seat(-1); seat < 3; seat++ {
		_, err := New().Decide(s, seat, "buy nothing", games.Seed{}.Rand(0))
		if re, ok := games.AsRuleError(err); !ok || re.Reason.String() == "" {
			t.Errorf("seat %d: %v", seat, err)
		}
	}
	if p := (Rules{}).Pending(s); len(p) != 0 {
		t.Errorf("pending %v before the deal", p)
	}
}

// TestEvolveIgnoresMisfits: Evolve never fails; an event naming a seat not at
// the table or a tile that does not exist is ignored.
func TestEvolveIgnoresMisfits(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	before, err := json.Marshal(tb.s)
	if err != nil {
		t.Fatal(err)
	}
	bad := Tile(500)
	for _, e := range []Event{
		{Type: EvBought, Seat: 2, Tokens: []int{1}, Cost: 100},
		{Type: EvBought, Seat: -1, Tokens: []int{1}, Cost: 100},
		{Type: EvPlaced, Seat: 5, Tile: new(Tile)},
		{Type: EvPlaced, Seat: 0, Tile: &bad},
		{Type: EvExchanged, Seat: 9},
		{Type: EvPassed, Seat: -3},
		{Type: EvResigned, Seat: 2},
	} {
		s := Rules{}.Evolve(tb.s.clone(), e)
		if after, err := json.Marshal(s); err != nil || string(after) != string(before) {
			t.Errorf("%s for seat %d changed the state", e.Type, e.Seat)
		}
	}
}

// TestKC15_LastTileNotHeld: after the Coup a last tile must be held (KC-15)
// and its cell empty (KC-1); nothing but a tile or a pass is accepted.
func TestKC15_LastTileNotHeld(t *testing.T) {
	tb := newTable(t, "", tls(t, "b10", "y1"), tls(t, "g5", "y3"), tls(t, "y5"))
	tb.row(blue, 1, 9)
	tb.buyNothing()
	tb.play(0, "place b10")
	tb.expect(1, "last")
	reason := tb.reject(1, "place y5", "KC-15")
	if reason != "you do not hold yellow 5" {
		t.Errorf("reason %q", reason)
	}
	tb.reject(1, "place b4", "KC-1")
	tb.reject(1, "buy nothing", "KC-15")
	tb.reject(1, "discard g5", "KC-15")
	tb.reject(0, "place y1", "KC-15") // the Coup-maker gets no last tile
	if l := (Rules{}).Legal(tb.s, 1); !slices.Equal(l, []string{"pass", "place yellow 3", "place green 5"}) {
		t.Errorf("legal %v", l)
	}
	tb.play(1, "place g5")
	tb.expect(2, "last")
}

// TestKC34_ResignedSkippedEverywhere ([HOUSE]): a resigned seat is skipped
// when buying, placing, exchanging (even with tiles in the pool) and for the
// last tile, and the start player still moves on one seat per round (KC-13).
func TestKC34_ResignedSkippedEverywhere(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y2", "y3", "y4", "y5"), tls(t, "r1", "r2"), tls(t, "o1", "o2", "o3", "o4", "o5"))
	out, err := Rules{}.Resign(tb.s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	var order []int
	for tb.s.Round == 1 {
		order = append(order, tb.s.Turn)
		switch tb.s.Phase {
		case PhaseBuy:
			tb.play(tb.s.Turn, "buy nothing")
		case PhasePlace:
			tb.play(tb.s.Turn, "place "+tb.s.Hands[tb.s.Turn][0].String())
		case PhaseExchange:
			tb.play(tb.s.Turn, "keep")
		}
	}
	want := []int{0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2}
	if !slices.Equal(order, want) {
		t.Errorf("round 1 seats %v, want %v (2 buys, 5 laps, 2 exchanges)", order, want)
	}
	if tb.s.Start != 1 {
		t.Errorf("round 2 start player %d, want 1 (resigned, so seat 2 acts first)", tb.s.Start)
	}
	tb.expect(2, "buy")
	tb.play(2, "buy nothing")
	tb.expect(0, "buy")
	tb.play(0, "buy nothing")
	tb.expect(2, "place")

	// Last tiles: the resigned seat is not offered one.
	tb = newTable(t, "", tls(t, "b10", "y1"), tls(t, "y3"), tls(t, "y5"), tls(t, "y7"))
	tb.row(blue, 1, 9)
	out, err = Rules{}.Resign(tb.s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	tb.buyNothing()
	tb.play(0, "place b10")
	tb.expect(1, "last")
	tb.play(1, "pass")
	tb.expect(3, "last")
	tb.play(3, "pass")
	if !tb.s.finished() {
		t.Errorf("game not over after the last tiles")
	}
}

// TestScenario12_EmptyHandEveryLap_KC10_KC35: an empty-handed seat is skipped
// in all C = 5 laps of a whole place phase; in the exchange it is not
// skipped (the pool is not empty) and draws a full hand.
func TestScenario12_EmptyHandEveryLap_KC10_KC35(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y3", "y5", "y7", "y9", "g1"), nil, tls(t, "o1", "o3", "o5", "o7", "o9", "g3"))
	tb.buyNothing()
	var placers []int
	for tb.s.Phase == PhasePlace {
		placers = append(placers, tb.s.Turn)
		tb.play(tb.s.Turn, "place "+tb.s.Hands[tb.s.Turn][0].String())
	}
	if want := []int{0, 2, 0, 2, 0, 2, 0, 2, 0, 2}; !slices.Equal(placers, want) {
		t.Fatalf("placers %v, want %v", placers, want)
	}
	if len(tb.s.Hands[0]) != 1 || len(tb.s.Hands[2]) != 1 {
		t.Errorf("hands %v: each holder places exactly C = 5 tiles", tb.s.Hands)
	}
	tb.expect(0, "exchange")
	tb.play(0, "keep")
	tb.expect(1, "exchange")
	if e := tb.play(1, "keep")[0]; e.NDrawn != 11 || len(tb.s.Hands[1]) != 11 {
		t.Errorf("the empty hand drew %d, want B = 11", e.NDrawn)
	}
}

// TestScenario10_WorthlessTokensAtTheEnd_KC18_KC19: played to the end, 8
// orange tokens with no orange chain over 3 tiles add nothing to the capital.
func TestScenario10_WorthlessTokensAtTheEnd_KC18_KC19(t *testing.T) {
	tb := newTable(t, "", tls(t, "b10", "o4"), tls(t, "y3"))
	tb.row(orange, 1, 3)
	tb.row(orange, 5, 7)
	tb.row(orange, 18, 20)
	tb.row(blue, 1, 9)
	tb.tokens(0, [Colours]int{orange: 8})
	tb.cash(0, 2200)
	tb.buyNothing()
	tb.play(0, "place b10")
	tb.play(1, "pass")
	over := tb.gameOver()
	if over.Values[orange] != 0 || over.Capital[0] != 2200 {
		t.Errorf("orange %d, capital %d; want 0 and the cash 2200", over.Values[orange], over.Capital[0])
	}
}

// TestView_DefaultOwnSeatOnly_KC31: the placement default names the placer's
// lowest tile, so only the placer's view carries it; the kind and rule of the
// decision are public.
func TestView_DefaultOwnSeatOnly_KC31(t *testing.T) {
	tb := newTable(t, "", tls(t, "blue 3", "yellow 12", "red 1", "yellow 4"), tls(t, "green 1"), tls(t, "green 3"))
	tb.buyNothing()
	for seat := games.Spectator; seat < 4; seat++ {
		v := Rules{}.View(tb.s, seat).(View)
		if v.Kind != "place" || v.Rule != "KC-31" || v.Turn != 0 {
			t.Errorf("seat %d: kind %q rule %q turn %d", seat, v.Kind, v.Rule, v.Turn)
		}
		want := ""
		if seat == 0 {
			want = "place yellow 4"
		}
		if v.Default != want {
			t.Errorf("seat %d sees default %q, want %q", seat, v.Default, want)
		}
	}
}

// TestHouse_StallSafetyNet_KC12: a whole round in which nobody can act (no
// cash, no tiles, an empty pool) ends the game for scoring instead of
// looping; the game_over event follows in the same decision.
func TestHouse_StallSafetyNet_KC12(t *testing.T) {
	tb := newTable(t, DrawFirst, tls(t, "y1"), tls(t, "y3"))
	tb.cash(0, 0)
	tb.cash(1, 0)
	tb.s.seek()
	tb.play(0, "place y1")
	tb.play(1, "place y3")
	// Rig: the pool is emptied onto the board, every row broken at 10 and
	// 15 so that no 10-chain exists (conservation does not matter here).
	for _, x := range tb.s.Pool {
		if x.Number() != 10 && x.Number() != 15 {
			tb.s.Board[x] = true
		}
	}
	tb.s.Pool = nil
	tb.s.seek()
	if tb.s.Phase != PhaseScoring || tb.s.Turn != -1 {
		t.Fatalf("phase %s turn %d, want scoring", tb.s.Phase, tb.s.Turn)
	}
	evs := finish(tb.s, nil)
	if len(evs) != 1 || evs[0].Type != EvGameOver {
		t.Errorf("events %+v, want game_over", evs)
	}
}

// TestHouse_CapitalAtAnyMoment_KC19: Result.Scores are every seat's current
// capital during play (public: cash, tokens, board); no winner before the end.
func TestHouse_CapitalAtAnyMoment_KC19(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	tb.row(red, 1, 6) // red worth 100
	tb.play(0, "buy 2 red")
	res := Rules{}.Result(tb.s)
	if res.Finished || res.Winners != nil || !slices.Equal(res.Scores, []int{3000 - 200 + 200, 3000}) {
		t.Errorf("result %+v", res)
	}
	if en, fr := res.Summary.In("en"), res.Summary.In("fr"); en != "round 1, buy phase: B to buy" || fr != "manche 1, phase d’achat : à B d’acheter" {
		t.Errorf("summary %q / %q", en, fr)
	}
}

package kramercoup

import (
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Colour indices, for readability.
const (
	yellow = iota
	orange
	red
	violet
	blue
	green
)

// workedExample rigs the end position of the text's Table 3 (section 3,
// KC-21) for seat 0 and lets seat 0 make the Coup with blue 6 (blue 1–12),
// seat 1 passing its last tile. With green4 the green row's first chain is
// 1–4 instead of 1–3.
func workedExample(t *testing.T, green4 bool) *table {
	tb := newTable(t, "", tls(t, "blue 6"), tls(t, "yellow 1"))
	tb.row(yellow, 5, 10)
	tb.row(yellow, 12, 16)
	tb.row(orange, 7, 15)
	tb.row(red, 8, 11)
	tb.row(violet, 11, 18)
	tb.row(blue, 1, 5)
	tb.row(blue, 7, 12)
	tb.row(green, 1, 3)
	if green4 {
		tb.board(NewTile(green, 4))
	}
	tb.row(green, 8, 13)
	tb.row(green, 16, 20)
	tb.cash(0, 1000)
	tb.tokens(0, [Colours]int{5, 10, 4, 0, 6, 5})
	tb.buyNothing()
	tb.expect(0, "place")
	evs := tb.play(0, "place blue 6")
	if !evs[0].Coup || evs[0].Chain != 12 {
		t.Fatalf("blue 6 should make the Coup with a 12-chain: %+v", evs[0])
	}
	tb.expect(1, "last")
	tb.play(1, "pass")
	return tb
}

// TestScenario1_WorkedExample_KC17_KC18_KC19_KC21: Table 3, corrected: green
// is worth 150 per token, tokens total 7080, capital 8080.
func TestScenario1_WorkedExample_KC17_KC18_KC19_KC21(t *testing.T) {
	tb := workedExample(t, false)
	over := tb.gameOver()
	if want := []int{150, 250, 20, 200, 500, 150}; !slices.Equal(over.Values, want) {
		t.Errorf("token values %v, want %v", over.Values, want)
	}
	if over.Capital[0] != 8080 || over.Capital[0]-tb.s.Cash[0] != 7080 {
		t.Errorf("capital %d (tokens %d), want 8080 (7080)", over.Capital[0], over.Capital[0]-tb.s.Cash[0])
	}
	res := Rules{}.Result(tb.s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{0}) || res.Scores[0] != 8080 || res.Scores[1] != 3000 {
		t.Errorf("result %+v", res)
	}
}

// TestScenario2_GreenVariant_KC17: green 1–4 makes green 170, tokens 7180,
// capital 8180.
func TestScenario2_GreenVariant_KC17(t *testing.T) {
	tb := workedExample(t, true)
	over := tb.gameOver()
	if over.Values[green] != 170 || over.Capital[0] != 8180 || over.Capital[0]-tb.s.Cash[0] != 7180 {
		t.Errorf("green %d, capital %d, want 170 and 8180", over.Values[green], over.Capital[0])
	}
}

// TestScenario3_MergingChains_KC17: red 1–3 and 5–7 are worth 0; red 4
// makes 1–7 worth 150.
func TestScenario3_MergingChains_KC17(t *testing.T) {
	tb := newTable(t, "", tls(t, "red 4", "yellow 1"), tls(t, "yellow 3"))
	tb.row(red, 1, 3)
	tb.row(red, 5, 7)
	if v := tb.s.TokenValue(red); v != 0 {
		t.Fatalf("red before: %d, want 0", v)
	}
	tb.buyNothing()
	evs := tb.play(0, "place red 4")
	if evs[0].Chain != 7 || evs[0].Coup {
		t.Errorf("placed %+v, want a 7-chain and no Coup", evs[0])
	}
	if v := tb.s.TokenValue(red); v != 150 {
		t.Errorf("red after: %d, want 150", v)
	}
}

// TestScenario4_TextCoupExample_KC14_KC17: 4–10 and 12–17 (250) joined by
// 11 give 4–17, 14 tiles: the Coup, and 700 per token.
func TestScenario4_TextCoupExample_KC14_KC17(t *testing.T) {
	tb := newTable(t, "", tls(t, "violet 11", "yellow 1"), tls(t, "yellow 3"))
	tb.row(violet, 4, 10)
	tb.row(violet, 12, 17)
	if v := tb.s.TokenValue(violet); v != 250 {
		t.Fatalf("violet before: %d, want 250", v)
	}
	tb.buyNothing()
	evs := tb.play(0, "place v11")
	if !evs[0].Coup || evs[0].Chain != 14 || tb.s.CoupMaker != 0 || tb.s.Phase != PhaseLast {
		t.Errorf("placed %+v, phase %s: want the Coup with 14 tiles", evs[0], tb.s.Phase)
	}
	if v := tb.s.TokenValue(violet); v != 700 {
		t.Errorf("violet after: %d, want 700", v)
	}
}

// TestScenario5_CoupAndLastTiles_KC14_KC15: seat 1 makes the Coup in lap 2;
// seats 2 and 3 lose their lap-2 placements, no laps 3–4, no exchange; last
// tiles go to seats 2, 3, 0; seat 3's blue 15 makes blue worth 400.
func TestScenario5_CoupAndLastTiles_KC14_KC15(t *testing.T) {
	tb := newTable(t, "",
		tls(t, "y1", "y9", "o1"),
		tls(t, "y3", "b14", "o3"),
		tls(t, "y5", "o5"),
		tls(t, "y7", "b15", "o7"))
	tb.row(blue, 5, 13)
	tb.buyNothing()
	for seat, m := range []string{"place y1", "place y3", "place y5", "place y7", "place y9"} {
		tb.expect(seat%4, "place")
		tb.play(seat%4, m)
	}
	if tb.s.Lap != 2 {
		t.Fatalf("lap %d, want 2", tb.s.Lap)
	}
	evs := tb.play(1, "place blue 14")
	if !evs[0].Coup {
		t.Fatalf("blue 14 should make the Coup")
	}
	if v := tb.s.TokenValue(blue); v != 300 {
		t.Errorf("blue after the Coup %d, want 300", v)
	}
	p := tb.pending()
	if p.Seat != 2 || p.Kind != "last" || p.Rule != "KC-33" || p.Default != "pass" {
		t.Fatalf("pending %+v, want seat 2 last KC-33 pass", p)
	}
	tb.reject(3, "place blue 15", "KC-15")
	tb.reject(2, "keep", "KC-15")
	tb.play(2, "pass")
	tb.expect(3, "last")
	tb.play(3, "place blue 15")
	tb.expect(0, "last")
	tb.play(0, "pass")
	if !tb.s.finished() {
		t.Fatalf("game not over after the last tiles")
	}
	if v := tb.gameOver().Values[blue]; v != 400 {
		t.Errorf("blue token %d, want 400", v)
	}
	for _, e := range tb.log {
		if e.Type == EvExchanged {
			t.Errorf("an exchange happened after the Coup")
		}
	}
	if !slices.Equal(tb.s.Hands[2], tls(t, "o5")) || !slices.Equal(tb.s.Hands[3], tls(t, "o7")) {
		t.Errorf("seats 2 and 3 hold %v and %v: their lap-2 placements should never have happened", tb.s.Hands[2], tb.s.Hands[3])
	}
}

// TestScenario6_BuyingLimits_KC9: cash, supply and D limit a purchase.
func TestScenario6_BuyingLimits_KC9(t *testing.T) {
	four := func() *table {
		return newTable(t, "", tls(t, "y1"), tls(t, "y3"), tls(t, "y5"), tls(t, "y7"))
	}
	tb := four()
	tb.cash(0, 250)
	reason := tb.reject(0, "buy 3 red", "KC-9")
	if !strings.Contains(reason, "300") {
		t.Errorf("reason %q should say the cost", reason)
	}
	tb.play(0, "buy 2 red")
	if tb.s.Cash[0] != 50 || tb.s.Tokens[0][red] != 2 || tb.s.Supply[red] != 18 {
		t.Errorf("cash %d, red %d, supply %d", tb.s.Cash[0], tb.s.Tokens[0][red], tb.s.Supply[red])
	}

	tb = four()
	tb.tokens(1, [Colours]int{red: 19})
	tb.reject(0, "buy 2 red", "KC-9")
	tb.play(0, "buy 1 red")
	tb.reject(0, "buy 5 yellow", "KC-8") // seat 0 has bought: it is seat 1's turn

	six := newTable(t, "", tls(t, "y1"), tls(t, "y3"), tls(t, "y5"), tls(t, "y7"), tls(t, "y9"), tls(t, "y11"))
	six.reject(0, "buy 1 red 2 blue", "KC-9")
	six.play(0, "buy 1 red 1 blue")
}

// TestScenario7_StartPlayerRotation_KC13: rounds 1, 2, 3, 5 start with seats
// 0, 1, 2, 0; the start player buys, places and exchanges first.
func TestScenario7_StartPlayerRotation_KC13(t *testing.T) {
	deal := games.Shuffle(games.Seed{3}.Rand(0), allTiles())
	hands := make([][]Tile, 4)
	for i := range hands {
		hands[i] = slices.Sorted(slices.Values(deal[i*10 : i*10+10]))
	}
	tb := newTable(t, "", hands...)
	for round := 1; round <= 5; round++ {
		if tb.s.Round != round || tb.s.Start != (round-1)%4 {
			t.Fatalf("round %d start %d, want round %d start %d", tb.s.Round, tb.s.Start, round, (round-1)%4)
		}
		start := tb.s.Start
		tb.expect(start, "buy")
		tb.buyNothing()
		tb.expect(start, "place")
		for tb.s.Phase == PhasePlace {
			tb.play(tb.s.Turn, "place "+safeTile(tb.s, tb.s.Turn).String())
		}
		tb.expect(start, "exchange")
		for tb.s.Phase == PhaseExchange {
			tb.play(tb.s.Turn, "keep")
		}
	}
}

// safeTile is a tile of seat's hand that makes no Coup.
func safeTile(s *State, seat int) Tile {
	for _, x := range s.Hands[seat] {
		if s.chainWith(x) < CoupLength {
			return x
		}
	}
	return s.Hands[seat][0]
}

// shortPool rigs scenario 8: four players, seat 0 will hold 6 tiles and
// seat 1 4 tiles after placing, seats 2 and 3 none, and the pool holds 2
// tiles (blue 11, green 2); every other cell is filled without a 10-chain.
func shortPool(t *testing.T, order string) *table {
	tb := newTable(t, order,
		tls(t, "y1", "y2", "y3", "y4", "red 3", "green 12", "blue 1", "y10", "o10", "v10"),
		tls(t, "y5", "y6", "y7", "y8", "y20", "o20", "v20", "r13"),
		nil, nil)
	gaps := map[int][2]int{yellow: {10, 20}, orange: {10, 20}, red: {3, 13}, violet: {10, 20}, blue: {1, 11}, green: {2, 12}}
	for c := range Colours {
		for k := 1; k <= Numbers; k++ {
			if k == gaps[c][0] || k == gaps[c][1] || (c == yellow && k <= 8) {
				continue
			}
			tb.board(NewTile(c, k))
		}
	}
	if !slices.Equal(tb.s.Pool, tls(t, "blue 11", "green 2")) {
		t.Fatalf("rigged pool %v", tb.s.Pool)
	}
	tb.buyNothing()
	for lap := range 4 {
		tb.play(0, "place yellow "+string(rune('1'+lap)))
		tb.play(1, "place yellow "+string(rune('5'+lap)))
	}
	tb.expect(0, "exchange")
	if len(tb.s.Hands[0]) != 6 || len(tb.s.Pool) != 2 {
		t.Fatalf("hand %d pool %d, want 6 and 2", len(tb.s.Hands[0]), len(tb.s.Pool))
	}
	return tb
}

// TestScenario8_ShortPool_KC11_KC12: with discard-first the discards join the
// pool (5), the player draws all 5 (hand 8, pool 0, and may redraw its own
// discards); with draw-first it draws 2 (hand 5) and the pool keeps the 3
// discards.
func TestScenario8_ShortPool_KC11_KC12(t *testing.T) {
	tb := shortPool(t, "")
	evs := tb.play(0, "discard red 3 green 12 blue 1")
	e := evs[0]
	if e.NDiscarded != 3 || e.NDrawn != 5 || e.PoolSize != 0 || len(tb.s.Hands[0]) != 8 || len(tb.s.Pool) != 0 {
		t.Fatalf("exchange %+v, hand %d, pool %d; want 3 discarded, 5 drawn, hand 8, pool 0", e, len(tb.s.Hands[0]), len(tb.s.Pool))
	}
	if !slices.Equal(e.Drawn, tls(t, "red 3", "green 12", "blue 1", "blue 11", "green 2")) {
		t.Errorf("drew %v: the whole pool, own discards included", e.Drawn)
	}
	tb.expect(1, "exchange")
	if evs := tb.play(1, "keep"); evs[0].NDrawn != 0 || len(tb.s.Hands[1]) != 4 {
		t.Errorf("seat 1 drew %d from an empty pool", evs[0].NDrawn)
	}
	// KC-35: seats 2 and 3 hold nothing and the pool is empty: skipped.
	// KC-12: play goes on with short hands.
	if tb.s.Round != 2 || tb.s.Phase != PhaseBuy {
		t.Errorf("round %d phase %s, want round 2 buy", tb.s.Round, tb.s.Phase)
	}

	tb = shortPool(t, DrawFirst)
	e = tb.play(0, "discard red 3 green 12 blue 1")[0]
	if e.NDrawn != 2 || len(tb.s.Hands[0]) != 5 || len(tb.s.Pool) != 3 || !slices.Equal(tb.s.Pool, tls(t, "red 3", "green 12", "blue 1")) {
		t.Fatalf("draw-first: drew %d, hand %d, pool %v; want 2, 5, the 3 discards", e.NDrawn, len(tb.s.Hands[0]), tb.s.Pool)
	}
	if e = tb.play(1, "keep")[0]; e.NDrawn != 3 || len(tb.s.Hands[1]) != 7 {
		t.Errorf("seat 1 drew %d, want the 3 discards", e.NDrawn)
	}
}

// TestScenario9_PlacementTimeout_KC31: the default places yellow 4.
func TestScenario9_PlacementTimeout_KC31(t *testing.T) {
	tb := newTable(t, "", tls(t, "blue 3", "yellow 12", "red 1", "yellow 4"), tls(t, "green 1"))
	tb.buyNothing()
	p := tb.pending()
	if p.Seat != 0 || p.Kind != "place" || p.Rule != "KC-31" || p.Default != "place yellow 4" {
		t.Fatalf("pending %+v, want seat 0 place KC-31 place yellow 4", p)
	}
	evs := tb.play(0, p.Default)
	if *evs[0].Tile != tl(t, "yellow 4") || !tb.s.Board[tl(t, "yellow 4")] {
		t.Errorf("placed %v", evs[0].Tile)
	}
}

// TestScenario10_WorthlessTokens_KC18_KC19: orange chains of at most 3
// tiles make 8 orange tokens worth nothing.
func TestScenario10_WorthlessTokens_KC18_KC19(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	tb.row(orange, 1, 3)
	tb.row(orange, 5, 7)
	tb.row(orange, 9, 10)
	tb.row(orange, 18, 20)
	tb.tokens(0, [Colours]int{orange: 8})
	if v := tb.s.TokenValue(orange); v != 0 {
		t.Errorf("orange token %d, want 0", v)
	}
	if c := tb.s.Capital(0); c != tb.s.Cash[0] {
		t.Errorf("capital %d, want the cash %d", c, tb.s.Cash[0])
	}
}

// TestScenario11_Ties_KC20: A and B 5200, C 4900: B wins on cash (1200 >
// 800); with equal cash A and B share the win.
func TestScenario11_Ties_KC20(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a       [Colours]int
		aCash   int
		want    []games.Seat
		summary string
		resume  string // in French
	}{
		{"B wins on cash", [Colours]int{yellow: 4, blue: 8}, 800, []games.Seat{1}, "B wins with a capital of 5200",
			"B gagne avec un capital de 5200"},
		{"A and B share", [Colours]int{blue: 8}, 1200, []games.Seat{0, 1}, "A and B share the win with a capital of 5200",
			"A et B se partagent la victoire avec un capital de 5200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, "", tls(t, "g20"), tls(t, "g18"), tls(t, "g16"))
			tb.row(yellow, 1, 6)  // 100
			tb.row(orange, 1, 12) // 500
			tb.row(blue, 1, 12)   // 500
			tb.cash(0, tc.aCash)
			tb.tokens(0, tc.a)
			tb.cash(1, 1200)
			tb.tokens(1, [Colours]int{orange: 8})
			tb.cash(2, 900)
			tb.tokens(2, [Colours]int{orange: 4, blue: 4})
			for seat, want := range []int{5200, 5200, 4900} {
				if c := tb.s.Capital(seat); c != want {
					t.Fatalf("seat %d capital %d, want %d", seat, c, want)
				}
			}
			tb.s.Phase, tb.s.Turn = PhaseOver, -1 // rig the end
			res := Rules{}.Result(tb.s)
			if !slices.Equal(res.Winners, tc.want) || res.Summary.In("en") != tc.summary || res.Summary.In("fr") != tc.resume {
				t.Errorf("winners %v (%s / %s), want %v (%s / %s)", res.Winners, res.Summary.In("en"), res.Summary.In("fr"), tc.want, tc.summary, tc.resume)
			}
			if !slices.Equal(res.Scores, []int{5200, 5200, 4900}) {
				t.Errorf("scores %v, want 5200 5200 4900", res.Scores)
			}
		})
	}
}

// TestScenario12_EmptyHand_KC10_KC15: a seat without tiles is skipped in
// every lap and is not offered a last tile.
func TestScenario12_EmptyHand_KC10_KC15(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y3", "o1"), nil, tls(t, "y5", "b10"))
	tb.row(blue, 1, 9)
	tb.buyNothing()
	tb.expect(0, "place")
	tb.play(0, "place y1")
	tb.expect(2, "place")
	tb.reject(1, "pass", "KC-8")
	tb.play(2, "place y5")
	tb.expect(0, "place")
	tb.play(0, "place y3")
	tb.expect(2, "place")
	tb.play(2, "place b10")
	// last tiles from seat 0 (after the Coup-maker, seat 2); seat 1 has none.
	tb.expect(0, "last")
	tb.play(0, "pass")
	if !tb.s.finished() {
		t.Fatalf("seat 1 (no tiles) was offered a last tile: pending %v", Rules{}.Pending(tb.s))
	}
}

package kramercoup

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// Rule ids the scenarios do not reach, each with its own test:
//
//	KC-1  TestKC1_TileOnItsOwnCell
//	KC-2  TestKC2_KC6_TokensPriceAndBank
//	KC-3  TestKC3_KC22_Table1
//	KC-4  TestKC4_KC5_DealAndHiddenHands
//	KC-5  TestKC4_KC5_DealAndHiddenHands, TestHiddenInformation_Exchange
//	KC-6  TestKC2_KC6_TokensPriceAndBank
//	KC-7  TestKC7_RandomSeating
//	KC-8  TestKC8_PhasesAndTurns
//	KC-16 TestKC16_LastTileMakesAnotherCoup
//	KC-17 TestKC17_Table2
//	KC-22 TestKC3_KC22_Table1
//	KC-23 TestKC23_SkipBuyers
//	KC-30..KC-33 TestAsyncDefaults_KC30_KC31_KC32_KC33
//	KC-34 TestKC34_Resign, TestKC34_ResignRandomGames ([HOUSE])
//	KC-35 TestKC35_ExchangeSkip ([HOUSE])
//
// KC-9 … KC-15 and KC-18 … KC-21 are in the scenarios; further cases:
// TestKC9_MixedColours, TestKC10_PlacingIsMandatory, TestKC11_DiscardErrors,
// TestKC12_DefaultGamesEnd.

// TestKC1_TileOnItsOwnCell: a tile goes on its own cell; one not held or
// already on the board is rejected; Legal offers exactly the hand.
func TestKC1_TileOnItsOwnCell(t *testing.T) {
	tb := newTable(t, "", tls(t, "red 3", "blue 7"), tls(t, "green 1"))
	tb.row(yellow, 1, 2)
	tb.buyNothing()
	tb.reject(0, "place yellow 1", "KC-1")
	reason := tb.reject(0, "place green 1", "KC-10")
	if strings.Contains(reason, "B") || !strings.Contains(reason, "you do not hold green 1") {
		t.Errorf("reason %q should only say the mover does not hold the tile", reason)
	}
	if l := (Rules{}).Legal(tb.s, 0); !slices.Equal(l, []string{"place red 3", "place blue 7"}) {
		t.Errorf("legal %v", l)
	}
	tb.play(0, "place b7")
	if !tb.s.Board[NewTile(blue, 7)] || tb.s.Board[NewTile(blue, 6)] {
		t.Errorf("blue 7 should be on cell blue 7 only")
	}
}

// TestKC2_KC6_TokensPriceAndBank: 20 tokens per colour at 100 each, paid to
// the bank, which never pays anything out.
func TestKC2_KC6_TokensPriceAndBank(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	for c := range Colours {
		if tb.s.Supply[c] != 20 {
			t.Errorf("%s supply %d", ColourName(c), tb.s.Supply[c])
		}
	}
	evs := tb.play(0, "buy 3 green 1 red")
	if evs[0].Cost != 400 || tb.s.Cash[0] != 2600 || tb.s.Bank != 400 || tb.s.Supply[green] != 17 {
		t.Errorf("cost %d cash %d bank %d supply %d", evs[0].Cost, tb.s.Cash[0], tb.s.Bank, tb.s.Supply[green])
	}
	if tb.s.Cash[0]+tb.s.Cash[1]+tb.s.Bank != 6000 {
		t.Errorf("money not conserved")
	}
}

// TestKC3_KC22_Table1: B tiles dealt, E cash, at most D tokens, C laps.
func TestKC3_KC22_Table1(t *testing.T) {
	want := map[int]Limits{2: {12, 6, 4, 3000}, 3: {11, 5, 4, 3000}, 4: {10, 4, 4, 3000}, 5: {8, 3, 3, 2000}, 6: {7, 3, 2, 1000}}
	eng := New()
	for n := 2; n <= 6; n++ {
		lim, ok := LimitsFor(n)
		if !ok || lim != want[n] {
			t.Fatalf("%d players: %+v", n, lim)
		}
		players := []string{"a", "b", "c", "d", "e", "f"}[:n]
		evs, err := eng.Setup(nil, players, games.Seed{byte(n)}.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		gs, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		s := gs.(*State)
		for p := range n {
			if len(s.Hands[p]) != lim.Hand || s.Cash[p] != lim.Cash {
				t.Errorf("%d players seat %d: hand %d cash %d", n, p, len(s.Hands[p]), s.Cash[p])
			}
		}
		most := 0
		for _, m := range eng.Legal(s, 0) {
			mv, err := Rules{}.Parse(s, m)
			if err != nil {
				t.Fatal(err)
			}
			most = max(most, mv.total())
		}
		if most != lim.Buy {
			t.Errorf("%d players: legal buys go up to %d tokens, want %d", n, most, lim.Buy)
		}
		placed := make([]int, n)
		for s.Phase != PhaseExchange {
			p := eng.Pending(s)[0]
			if s.Phase == PhasePlace {
				placed[p.Seat]++
			}
			out, err := eng.Decide(s, p.Seat, p.Default, games.Seed{}.Rand(0))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range out {
				gs, err = eng.Evolve(s, e)
				if err != nil {
					t.Fatal(err)
				}
				s = gs.(*State)
			}
		}
		for p := range n {
			if placed[p] != lim.Place {
				t.Errorf("%d players: seat %d placed %d tiles, want C = %d", n, p, placed[p], lim.Place)
			}
		}
	}
	if _, err := (Rules{}).Setup(nil, []string{"solo"}, games.Seed{}.Rand(0)); err == nil {
		t.Errorf("1 player accepted")
	}
}

// TestKC4_KC5_DealAndHiddenHands: each seat draws B tiles hidden from the
// others; cash, tokens and hand sizes are public; spectators see no hand.
func TestKC4_KC5_DealAndHiddenHands(t *testing.T) {
	eng := New()
	evs, err := eng.Setup(nil, []string{"ana", "bob", "cy"}, games.Seed{1}.Rand(0))
	if err != nil {
		t.Fatal(err)
	}
	gs, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		t.Fatal(err)
	}
	s := gs.(*State)
	if len(s.Pool) != 120-33 {
		t.Errorf("pool %d", len(s.Pool))
	}
	for seat := games.Spectator; seat < 3; seat++ {
		seated := Rules{}.Evolve(Rules{}.Initial(RulesVersion), Event{Type: EvSeated, Players: s.Players})
		red, err := eng.Redact(seated, evs[1], seat)
		if err != nil {
			t.Fatal(err)
		}
		var e Event
		if err := json.Unmarshal(red.Data, &e); err != nil {
			t.Fatal(err)
		}
		for p, h := range e.Hands {
			if (int(seat) == p) != (len(h) == 11) || e.Counts[p] != 11 {
				t.Errorf("seat %d sees %d tiles of seat %d's deal", seat, len(h), p)
			}
		}
		raw, err := eng.View(s, seat)
		if err != nil {
			t.Fatal(err)
		}
		var v View
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		for p, pv := range v.Players {
			if (int(seat) == p) != (len(pv.Hand) == 11) || pv.HandSize != 11 || pv.Cash != 3000 {
				t.Errorf("seat %d's view of seat %d: %+v", seat, p, pv)
			}
		}
	}
}

// TestHiddenInformation_Exchange: another player's exchange shows counts,
// never tiles; the game end reveals every hand and the pool.
func TestHiddenInformation_Exchange(t *testing.T) {
	tb := shortPool(t, "")
	before := tb.s.clone()
	evs := tb.play(0, "discard red 3 green 12 blue 1")
	for seat := games.Spectator; seat < 4; seat++ {
		e := Rules{}.Redact(before, evs[0], seat)
		if seat == 0 {
			if len(e.Discarded) != 3 || len(e.Drawn) != 5 {
				t.Errorf("the exchanger sees %+v", e)
			}
			continue
		}
		if e.Discarded != nil || e.Drawn != nil || e.NDiscarded != 3 || e.NDrawn != 5 {
			t.Errorf("seat %d sees %+v", seat, e)
		}
	}
	v := Rules{}.View(tb.s, 1).(View)
	if v.Players[0].Discarded != 3 || v.Players[0].Drawn != 5 || v.Players[0].Hand != nil || v.Players[1].Hand == nil {
		t.Errorf("view %+v", v.Players)
	}
	// End: resigning seats 1, 2 leaves one player: the game is scored and
	// everything is shown.
	for _, seat := range []int{1, 2} {
		out, err := Rules{}.Resign(tb.s, games.Seat(seat), nil)
		if err != nil {
			t.Fatal(err)
		}
		tb.apply(out)
	}
	if tb.s.finished() {
		t.Fatalf("two players left; the game goes on")
	}
	out, err := Rules{}.Resign(tb.s, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	if !tb.s.finished() {
		t.Fatalf("one player left; the game should be over")
	}
	sv, err := json.Marshal(Rules{}.View(tb.s, games.Spectator))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range append(slices.Clone(tb.s.Pool), tb.s.Hands[0]...) {
		if !gametest.Contains(sv, x.String()) {
			t.Errorf("the end view of a spectator lacks %s", x)
		}
	}
}

// TestKC7_RandomSeating: the seating is drawn at setup; seat 0 starts.
func TestKC7_RandomSeating(t *testing.T) {
	eng := New()
	players := []string{"a", "b", "c", "d", "e"}
	orders := map[string]bool{}
	for i := range 20 {
		evs, err := eng.Setup(nil, players, games.Seed{byte(i)}.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		gs, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		seated := eng.Players(gs)
		if !slices.Equal(slices.Sorted(slices.Values(seated)), players) {
			t.Fatalf("seating %v", seated)
		}
		orders[strings.Join(seated, "")] = true
		if p := eng.Pending(gs); p[0].Seat != 0 {
			t.Errorf("round 1 starts with seat %d", p[0].Seat)
		}
	}
	if len(orders) < 10 {
		t.Errorf("only %d seatings in 20 games", len(orders))
	}
}

// TestKC8_PhasesAndTurns: buy, place, exchange in order from the start
// player; moves out of turn or out of phase name the rule and the player.
func TestKC8_PhasesAndTurns(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y3"), tls(t, "o1", "o3"), tls(t, "r1", "r3"))
	reason := tb.reject(1, "buy nothing", "KC-8")
	if !strings.Contains(reason, "A's turn to buy") {
		t.Errorf("reason %q", reason)
	}
	tb.reject(0, "place y1", "KC-9")
	tb.reject(0, "keep", "KC-9")
	tb.reject(7, "buy nothing", "KC-8")
	tb.buyNothing()
	tb.expect(0, "place")
	tb.reject(1, "place o1", "KC-8")
	for range 2 {
		for seat := range 3 {
			tb.play(seat, "place "+tb.s.Hands[seat][0].String())
		}
	}
	tb.expect(0, "exchange")
	tb.reject(0, "place y5", "KC-11")
	tb.reject(0, "pass", "KC-11")
	tb.reject(2, "keep", "KC-8")
	for seat := range 3 {
		tb.play(seat, "keep")
	}
	tb.expect(1, "buy")
}

// TestKC9_MixedColours: one buy mixes colours freely, no per-colour cap;
// tokens are never sold back.
func TestKC9_MixedColours(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"), tls(t, "y5"), tls(t, "y7"))
	tb.play(0, "buy y o r v")
	tb.play(1, "buy 4 red")
	if tb.s.Tokens[0] != [Colours]int{1, 1, 1, 1, 0, 0} || tb.s.Tokens[1][red] != 4 {
		t.Errorf("tokens %v %v", tb.s.Tokens[0], tb.s.Tokens[1])
	}
	tb.reject(2, "buy 2 r 2 g 1 b", "KC-9")
	if _, err := (Rules{}).Decide(tb.s, 2, Move{Kind: KindBuy, Buy: [Colours]int{red: -1}}, nil); err == nil {
		t.Errorf("a negative purchase (selling back) was accepted")
	}
	if _, err := (Rules{}).Parse(tb.s, "sell 1 red"); err == nil {
		t.Errorf("selling parsed")
	}
}

// TestKC10_PlacingIsMandatory: while holding a tile a player must place.
func TestKC10_PlacingIsMandatory(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	tb.buyNothing()
	for _, m := range []string{"pass", "place nothing", "keep", "buy nothing", "discard y1"} {
		tb.reject(0, m, "KC-10")
	}
}

// TestKC11_DiscardErrors: discards must be held and listed once.
func TestKC11_DiscardErrors(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y2", "y3", "y4", "y5", "y6", "y8"), tls(t, "o1", "o2", "o3", "o4", "o5", "o6"))
	tb.buyNothing()
	for k := range 6 {
		tb.play(0, fmt.Sprintf("place y%d", k+1))
		tb.play(1, fmt.Sprintf("place o%d", k+1))
	}
	tb.expect(0, "exchange")
	tb.reject(0, "discard y8 y8", "KC-11")
	tb.reject(0, "discard y1", "KC-11")
	tb.reject(0, "discard o9", "KC-11")
	if l := (Rules{}).Legal(tb.s, 0); !slices.Equal(l, []string{"keep", "discard yellow 8"}) {
		t.Errorf("legal %v", l)
	}
	e := tb.play(0, "discard y8")[0]
	if e.NDrawn != 12 || len(tb.s.Hands[0]) != 12 {
		t.Errorf("drew %d, hand %d; want a full hand of 12", e.NDrawn, len(tb.s.Hands[0]))
	}
}

// TestKC12_DefaultGamesEnd: games played only by timeout defaults end with a
// Coup for every player count and option.
func TestKC12_DefaultGamesEnd(t *testing.T) {
	eng := New()
	for n := 2; n <= 6; n++ {
		for _, order := range []string{DiscardFirst, DrawFirst} {
			s := playDefaults(t, eng, n, order, games.Seed{byte(n), 9})
			if !s.finished() || s.CoupMaker < 0 {
				t.Errorf("%d players %s: not ended by a Coup", n, order)
			}
		}
	}
}

// playDefaults plays a game by defaults only and returns its end state.
func playDefaults(t testing.TB, eng games.Engine, n int, order string, seed games.Seed) *State {
	evs, err := eng.Setup(games.Options{OptExchangeOrder: order}, []string{"a", "b", "c", "d", "e", "f"}[:n], seed.Rand(0))
	if err != nil {
		t.Fatal(err)
	}
	gs, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		t.Fatal(err)
	}
	v := len(evs)
	for moves := 0; ; moves++ {
		p := eng.Pending(gs)
		if len(p) == 0 {
			break
		}
		if moves > 5000 {
			t.Fatalf("no end after 5000 moves")
		}
		out, err := eng.Decide(gs, p[0].Seat, p[0].Default, seed.Rand(v))
		if err != nil {
			t.Fatalf("default %q: %v", p[0].Default, err)
		}
		for _, e := range out {
			gs, err = eng.Evolve(gs, e)
			if err != nil {
				t.Fatal(err)
			}
		}
		v += len(out)
	}
	return gs.(*State)
}

// TestKC16_LastTileMakesAnotherCoup: a last tile making a second 10-chain
// changes nothing about the procedure; both rows are scored.
func TestKC16_LastTileMakesAnotherCoup(t *testing.T) {
	tb := newTable(t, "", tls(t, "b10", "y1"), tls(t, "g10", "y3"), tls(t, "y5"))
	tb.row(blue, 1, 9)
	tb.row(green, 1, 9)
	tb.buyNothing()
	tb.play(0, "place b10")
	tb.expect(1, "last")
	e := tb.play(1, "place g10")[0]
	if e.Coup || !e.Last || e.Chain != 10 {
		t.Errorf("last tile %+v", e)
	}
	tb.expect(2, "last")
	tb.play(2, "pass")
	over := tb.gameOver()
	if over.Values[blue] != 300 || over.Values[green] != 300 {
		t.Errorf("values %v", over.Values)
	}
}

// TestKC17_Table2: every chain length's value.
func TestKC17_Table2(t *testing.T) {
	want := []int{0, 0, 0, 0, 20, 50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300}
	for n, v := range want {
		if got := ChainValue(n); got != v {
			t.Errorf("chain of %d: %d, want %d", n, got, v)
		}
	}
}

// TestKC23_SkipBuyers: a player with less than 100 is skipped; with every
// supply empty nobody buys.
func TestKC23_SkipBuyers(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3"), tls(t, "y5"))
	tb.cash(1, 99)
	tb.play(0, "buy nothing")
	tb.expect(2, "buy")
	tb.play(2, "buy nothing")
	tb.expect(0, "place")

	tb = newTable(t, "", tls(t, "y1"), tls(t, "y3"))
	tb.tokens(0, [Colours]int{20, 20, 20, 0, 0, 0})
	tb.tokens(1, [Colours]int{0, 0, 0, 20, 20, 20})
	tb.s.seek()
	tb.expect(0, "place")
}

// TestKC35_ExchangeSkip: nothing to discard and nothing to draw: skipped
// ([HOUSE]); a player with an empty hand but a pool to draw from is not.
func TestKC35_ExchangeSkip(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1"), tls(t, "y3", "y5"))
	tb.buyNothing()
	tb.play(0, "place y1")
	tb.play(1, "place y3")
	tb.play(1, "place y5")
	tb.expect(0, "exchange") // empty hand, full pool: draws
	if e := tb.play(0, "keep")[0]; e.NDrawn != 12 {
		t.Errorf("drew %d", e.NDrawn)
	}
}

// TestAsyncDefaults_KC30_KC31_KC32_KC33: each decision point's kind, rule
// and default, and that the default is accepted.
func TestAsyncDefaults_KC30_KC31_KC32_KC33(t *testing.T) {
	tb := newTable(t, "", tls(t, "b9", "r2"), tls(t, "y3", "g4"))
	tb.row(blue, 1, 8)
	want := []games.Pending{
		{Seat: 0, Kind: "buy", Rule: "KC-30", Default: "buy nothing"},
		{Seat: 1, Kind: "buy", Rule: "KC-30", Default: "buy nothing"},
		{Seat: 0, Kind: "place", Rule: "KC-31", Default: "place red 2"},
		{Seat: 1, Kind: "place", Rule: "KC-31", Default: "place yellow 3"},
		{Seat: 0, Kind: "place", Rule: "KC-31", Default: "place blue 9"},
		{Seat: 1, Kind: "place", Rule: "KC-31", Default: "place green 4"},
		{Seat: 0, Kind: "exchange", Rule: "KC-32", Default: "keep"},
		{Seat: 1, Kind: "exchange", Rule: "KC-32", Default: "keep"},
		{Seat: 1, Kind: "buy", Rule: "KC-30", Default: "buy nothing"},
	}
	for i, w := range want {
		p := tb.pending()
		if p != w {
			t.Fatalf("step %d: pending %+v, want %+v", i, p, w)
		}
		tb.play(int(p.Seat), p.Default)
	}
	tb = newTable(t, "", tls(t, "b10"), tls(t, "y3"))
	tb.row(blue, 1, 9)
	tb.buyNothing()
	tb.play(0, "place b10")
	if p := tb.pending(); p != (games.Pending{Seat: 1, Kind: "last", Rule: "KC-33", Default: "pass"}) {
		t.Errorf("pending %+v", p)
	}
	tb.play(1, "pass")
	if len(Rules{}.Pending(tb.s)) != 0 {
		t.Errorf("pending after the end")
	}
}

// TestKC34_Resign ([HOUSE]): the hand goes back to the pool unseen, the seat
// is skipped and cannot win; cash and tokens stay; resigning out of turn
// works; errors for a resigned seat and after the end.
func TestKC34_Resign(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y2"), tls(t, "y3", "y4"), tls(t, "y5", "y6"))
	tb.play(0, "buy 4 blue")
	tb.row(blue, 1, 12) // blue worth 500: seat 0 is far ahead
	out, err := Rules{}.Resign(tb.s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Returned != 2 {
		t.Fatalf("events %+v", out)
	}
	for seat := games.Spectator; seat < 3; seat++ {
		b, err := json.Marshal(Rules{}.Redact(tb.s, out[0], seat))
		if err != nil {
			t.Fatal(err)
		}
		if gametest.Contains(b, "yellow 3") {
			t.Errorf("the resignation shows the hand to seat %d", seat)
		}
	}
	tb.apply(out)
	tb.expect(2, "buy")
	tb.reject(1, "buy nothing", "KC-34")
	if _, err := (Rules{}).Resign(tb.s, 1, nil); err == nil {
		t.Errorf("resigned twice")
	}
	if !slices.Contains(tb.s.Pool, tl(t, "y3")) || tb.s.Cash[1] != 3000 {
		t.Errorf("hand not in the pool or cash gone")
	}
	if out, err = (Rules{}).Resign(tb.s, 0, nil); err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	res := Rules{}.Result(tb.s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{2}) || res.Scores[0] <= res.Scores[2] {
		t.Errorf("result %+v: the one player left wins", res)
	}
	if _, err := (Rules{}).Resign(tb.s, 2, nil); err == nil {
		t.Errorf("resigned after the end")
	}
	tb.reject(2, "buy nothing", "KC-14")
}

// TestKC34_ResignRandomGames: random games with random resignations end,
// conserve every component and leak nothing.
func TestKC34_ResignRandomGames(t *testing.T) {
	eng := New()
	for g := range 150 {
		seed := games.Seed{byte(g), 0xAA}
		pick := seed.Rand(1 << 40)
		n := 2 + pick.IntN(5)
		evs, err := eng.Setup(nil, []string{"a", "b", "c", "d", "e", "f"}[:n], seed.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		gs, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		v := len(evs)
		for moves := 0; ; moves++ {
			p := eng.Pending(gs)
			if len(p) == 0 {
				break
			}
			if moves > 6000 {
				t.Fatalf("game %d: no end", g)
			}
			var out []games.RawEvent
			var err error
			if pick.IntN(40) == 0 {
				out, err = eng.Resign(gs, games.Seat(pick.IntN(n)), seed.Rand(v))
				if _, ok := games.AsRuleError(err); err != nil && !ok {
					t.Fatal(err)
				}
			} else {
				legal := eng.Legal(gs, p[0].Seat)
				out, err = eng.Decide(gs, p[0].Seat, legal[pick.IntN(len(legal))], seed.Rand(v))
				if err != nil {
					t.Fatal(err)
				}
			}
			prev := gs.(*State).clone()
			for _, e := range out {
				if gs, err = eng.Evolve(gs, e); err != nil {
					t.Fatal(err)
				}
			}
			v += len(out)
			s := gs.(*State)
			checkConservation(t, s)
			checkHidden(t, eng, prev, s, out, nil)
			checkResignedRereads(t, eng, s, evs)
			if t.Failed() {
				t.Fatalf("game %d move %d", g, moves)
			}
		}
		if res := eng.Result(gs); !res.Finished || len(res.Winners) == 0 {
			t.Fatalf("game %d: result %+v", g, res)
		}
	}
}

// TestNotation: every form and alias of section 7, case-insensitive, and
// Parse(Format(m)) == m.
func TestNotation(t *testing.T) {
	buy := (&table{s: &State{Phase: PhaseBuy}}).s
	other := &State{Phase: PhaseLast}
	cases := []struct {
		s    *State
		in   string
		want string
	}{
		{buy, "buy 2 red 1 blue", "buy 2 red 1 blue"},
		{buy, "BUY 1 Blue 2 RED", "buy 2 red 1 blue"},
		{buy, "buy red blue", "buy 1 red 1 blue"},
		{buy, "buy 4 green", "buy 4 green"},
		{buy, "buy 2 y 1 o 1 p", "buy 2 yellow 1 orange 1 violet"},
		{buy, "buy purple v r g", "buy 1 red 2 violet 1 green"},
		{buy, "buy 1 red, 1 red", "buy 2 red"},
		{buy, "buy nothing", "buy nothing"},
		{buy, "buy 0", "buy nothing"},
		{buy, "  Pass ", "buy nothing"},
		{buy, "place nothing", "place nothing"}, // the last-tile pass, refused in a buy phase
		{buy, "buy 999 red", "buy 999 red"},
		{buy, "buy g999 g", ""}, // 1000 green: Format could not be read back
		{buy, "buy 999 red 1 red", ""},
		{other, "place blue 7", "place blue 7"},
		{other, "place v12", "place violet 12"},
		{other, "Place B 7", "place blue 7"},
		{other, "place purple 20", "place violet 20"},
		{other, "place y1", "place yellow 1"},
		{other, "place o 3", "place orange 3"},
		{other, "place g20", "place green 20"},
		{other, "place r5", "place red 5"},
		{other, "place blue7", "place blue 7"},
		{other, "place b 7", "place blue 7"},
		{other, "place p7", "place violet 7"},
		{other, "place Violet 7", "place violet 7"},
		{other, "pass", "pass"},
		{other, "place nothing", "pass"},
		{other, "discard red 3 green 12", "discard red 3 green 12"},
		{other, "discard g12 r3 b1", "discard red 3 blue 1 green 12"},
		{other, "keep", "keep"},
		{other, "KEEP", "keep"},
		{other, "place 7 blue", "place blue 7"},
		{other, "place the blue 7", "place blue 7"},
		{other, "place tile v12", "place violet 12"},
		{buy, "buy 2 red tokens and 1 blue", "buy 2 red 1 blue"},
		{other, "discard 3 red and 12 green", "discard red 3 green 12"},
		{other, "discard the tiles red 3, 12 green", "discard red 3 green 12"},
		{other, "keep the tiles", "keep"},
		{other, "place bleu 7", "place blue 7"}, // Parse reads every language of the catalog
		{other, "place pink 7", ""},
		{other, "place 0 blue", ""},
		{other, "place 7 7", ""},
		{other, "the", ""},
		{other, "place blue 0", ""},
		{other, "place blue 21", ""},
		{other, "place blue", ""},
		{other, "place blue 7 red 8", ""},
		{other, "buy 2", ""},
		{other, "buy", ""},
		{other, "discard", ""},
		{other, "keep red 3", ""},
		{other, "steal", ""},
		{other, "", ""},
	}
	for _, c := range cases {
		m, err := Rules{}.Parse(c.s, c.in)
		if c.want == "" {
			if re, ok := games.AsRuleError(err); !ok || re.Rule != games.NotationRule {
				t.Errorf("%q: want a notation error, got %v", c.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		got := Rules{}.Format(c.s, m)
		if got != c.want {
			t.Errorf("%q formats as %q, want %q", c.in, got, c.want)
		}
		back, err := Rules{}.Parse(c.s, got)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Errorf("%q: Parse(Format) = %+v, %v; want %+v", c.in, back, err, m)
		}
	}
	for x := range TileCount {
		tile := Tile(x)
		b, err := json.Marshal(tile)
		if err != nil {
			t.Fatal(err)
		}
		var back Tile
		if err := json.Unmarshal(b, &back); err != nil || back != tile || string(b) != fmt.Sprintf("%q", tile.String()) {
			t.Errorf("tile %s JSON %s", tile, b)
		}
	}
}

// TestInfo: id, seats and the option with its values and default.
func TestInfo(t *testing.T) {
	info := New().Info()
	if info.ID != "kramercoup" || info.MinSeats != 2 || info.MaxSeats != 6 || len(info.Options) != 1 ||
		info.Options[0].Default != DiscardFirst || !slices.Equal(info.Options[0].Values, []string{DiscardFirst, DrawFirst}) {
		t.Errorf("info %+v", info)
	}
	if info.Rules != 1 {
		t.Errorf("rules version %d, want 1", info.Rules)
	}
	if s := (Rules{}).Initial(1); s.Rules != 1 {
		t.Errorf("Initial(1) keeps rules version %d", s.Rules)
	}
	if _, err := New().Initial(2); err == nil {
		t.Errorf("rules version 2 accepted")
	}
	if _, err := New().Setup(games.Options{OptExchangeOrder: "shuffle"}, []string{"a", "b"}, games.Seed{}.Rand(0)); err == nil {
		t.Errorf("bad option accepted")
	}
}

package coupage

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Seats in every scenario: Ana 0, Bob 1, Cleo 2; house tables.
const (
	ana  games.Seat = 0
	bob  games.Seat = 1
	cleo games.Seat = 2
)

// Scenario 1: one action for all grapes (CP-8).
func TestScenario1_OneActionForAllGrapes_CP8(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"gar2", "tre1", "mac1"}}},
		market: [2]string{"xar1", "par1"},
		top:    []string{"time"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "make rouge 1 gar2", "CP-8")
	tb.reject(ana, "make rouge 1 gar2 mac1", "CP-8")
	tb.do(ana, "make rouge 1 gar2 tre1")
	b := tb.s.Barrels[ana][0]
	if b.State != Production || b.Wine != "rouge" || !slices.Equal(b.Grapes, []string{"gar2", "tre1"}) {
		t.Errorf("barrel 1 = %+v, want a Rouge in production", b)
	}
	if tb.s.Turn.Actions != 1 {
		t.Errorf("actions left %d, want 1", tb.s.Turn.Actions)
	}
}

// Scenario 2: Time from stars (CP-9, CP-19).
func TestScenario2_TimeFromStars_CP9_CP19(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{
			hand:    []string{"mac2", "par1", "time"},
			barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre1"}}},
		}},
		market: [2]string{"xar1", "par2"},
		top:    []string{"ull1"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "time 1 mac2", "CP-9")
	tb.do(ana, "time 1 mac2 par1")
	b := tb.s.Barrels[ana][0]
	if len(b.Time) != 1 || b.Time[0] != (TimeCard{Card: "mac2", FaceDown: true, Knower: ana}) {
		t.Errorf("barrel 1 Time = %+v, want mac2 face down", b.Time)
	}
	if d := tb.s.Discard; len(d) == 0 || d[len(d)-1] != "par1" {
		t.Errorf("discard %v, want par1 on top", d)
	}
	tb.reject(ana, "time 2", "CP-19")
	// The face-down card is Ana's secret (section 5).
	if v := tb.r.View(tb.s, bob).(View); v.Barrels[ana][0].Time[0].Card != "" {
		t.Errorf("Bob sees Ana's face-down card")
	}
	if v := tb.r.View(tb.s, ana).(View); v.Barrels[ana][0].Time[0].Card != "mac2" {
		t.Errorf("Ana does not see her face-down card")
	}
}

// Scenario 3: bottling (CP-10, CP-35).
func TestScenario3_Bottling_CP10_CP35(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{
			hand: []string{"xar1", "xar2", "gar1", "tre1", "tre2"},
			barrels: map[int]barrelSetup{
				1: {wine: "rouge", grapes: []string{"gar2", "tre1"}, time: []string{"time", "time"}},
				3: {wine: "cava rose", grapes: []string{"mac1", "par1", "ull1"}, time: []string{"time", "time"}},
			},
		}},
		market: [2]string{"ull2", "par2"},
		top:    []string{"mac3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "bottle 1 xar1", "CP-10")
	before := len(tb.s.Discard)
	tb.do(ana, "bottle 1 xar2")
	got := tb.s.aid.sortCards(slices.Clone(tb.s.Discard[before:]))
	if want := []string{"xar2", "gar2", "tre1", "time", "time"}; !slices.Equal(got, tb.s.aid.sortCards(want)) {
		t.Errorf("discarded %v, want %v", got, want)
	}
	if b := tb.s.Barrels[ana][0]; b.State != Bottled || b.Wine != "rouge" {
		t.Errorf("barrel 1 = %+v, want a Rouge bottle", b)
	}
	tb.do(ana, "age nothing") // the Rouge ability (CP-32) is declined
	tb.reject(ana, "make blanc 1 xar1 xar2", "CP-10")
	tb.reject(ana, "bottle 3 gar1 tre1", "CP-10")
	tb.do(ana, "bottle 3 gar1 tre2")
	if b := tb.s.Barrels[ana][2]; b.State != Bottled || !b.Cava || tb.s.CavaLeft != 3 {
		t.Errorf("barrel 3 = %+v, cava left %d: want a cava with the Cava card", b, tb.s.CavaLeft)
	}
}

// Scenario 4: Vin piqué (CP-24, CP-25, CP-26).
func TestScenario4_VinPique_CP24_CP25_CP26(t *testing.T) {
	setup := func() *table {
		return tableSetup{
			seats: []seatSetup{
				{hand: []string{"mac2", "time"}, barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}}}},
				{hand: []string{"vin pique"}},
				{hand: []string{"oenologue"}},
			},
			market: [2]string{"ull2", "par2"},
			active: bob,
		}.build(t)
	}
	tb := setup()
	tb.do(bob, "draw")
	tb.do(bob, "vin pique ana 2")
	if tb.s.Barrels[ana][1].Spoil != 1 {
		t.Fatalf("Vin piqué not on Ana's barrel 2")
	}
	tb.endTurn(bob)
	tb.endTurn(cleo)
	for turn := 1; turn <= 4; turn++ {
		tb.do(ana, "draw")
		tb.reject(ana, "time 2", "CP-24")
		tb.reject(ana, "bottle 2 mac2", "CP-24")
		tb.reject(ana, "vin jeune 2", "CP-21") // she holds none; the barrel is spoiled anyway
		pile := len(tb.s.Discard)
		evs := tb.do(ana, "end")
		want := turn + 1
		if turn == 4 {
			want = 0
			// At the end of her 4th turn the card is discarded.
			if !has(evs, evSpoilGone) || !slices.Equal(tb.s.Discard[pile:], []string{"vin pique"}) {
				t.Errorf("after Ana's 4th turn: discarded %v, want the Vin piqué", tb.s.Discard[pile:])
			}
		} else if has(evs, evSpoilGone) || len(tb.s.Discard) != pile {
			t.Errorf("the Vin piqué was removed after Ana's turn %d", turn)
		}
		if got := tb.s.Barrels[ana][1].Spoil; got != want {
			t.Errorf("after Ana's turn %d the counter is %d, want %d", turn, got, want)
		}
		tb.endTurn(bob)
		tb.endTurn(cleo)
	}
	tb.do(ana, "draw")
	tb.do(ana, "bottle 2 mac2")

	// Alternative: after Ana's 2nd turn, Cleo's Œnologue removes it at once.
	tb = setup()
	tb.do(bob, "draw")
	tb.do(bob, "vin pique ana 2")
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.endTurn(ana)
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.endTurn(ana)
	tb.endTurn(bob)
	if c := tb.s.Barrels[ana][1].Spoil; c != 3 {
		t.Errorf("after Ana's 2nd turn the counter is %d, want 3", c)
	}
	tb.do(cleo, "draw")
	evs := tb.do(cleo, "oenologue ana 2")
	if !has(evs, evSpoilGone) || tb.s.Barrels[ana][1].Spoil != 0 {
		t.Errorf("Œnologue did not remove the Vin piqué")
	}
	d := tb.s.Discard
	if n := len(d); n < 2 || d[n-2] != "vin pique" || d[n-1] != "oenologue" {
		t.Errorf("discard %v, want vin pique then oenologue", d)
	}
}

// Scenario 5: Évaporation and repair (CP-28, CP-29), under the current
// rules (version 2): a barrel that lost a grape still receives Time (CP-19);
// only its bottling waits for the repair.
func TestScenario5_EvaporationRepair_CP28_CP29(t *testing.T) {
	tb := scenario5(t, 0)
	tb.do(ana, "draw")
	tb.reject(ana, "bottle 2 xar2", "CP-29")
	tb.do(ana, "time 2")
	if b := tb.s.Barrels[ana][1]; len(b.Time) != 2 || tb.s.complete(b) {
		t.Errorf("barrel 2 = %+v, want the incomplete Rosé with Time 2", b)
	}
	tb.do(ana, "repair 2 par1")
	if b := tb.s.Barrels[ana][1]; !tb.s.complete(b) || len(b.Time) != 2 {
		t.Errorf("barrel 2 = %+v, want it complete again with its 2 Time", b)
	}
	if _, err := tb.s.ready(ana, 2, "CP-10"); err != nil {
		t.Errorf("after the repair barrel 2 is not ready: %v", err)
	}
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	if !slices.Contains(tb.r.Legal(tb.s, ana), "bottle 2 Xarel·lo ★★") {
		t.Errorf("with her next action Ana may bottle barrel 2")
	}
	tb.reject(ana, "repair 4 mac1", "CP-29")
	tb.do(ana, "repair 4 xar3")
	if !tb.s.complete(tb.s.Barrels[ana][3]) {
		t.Errorf("Cava blanc not repaired")
	}
	tb.do(ana, "bottle 2 xar2")
}

// Scenario 5 as rules version 1 decided it (games created before issue
// 19 keep it): Time on a barrel that lost a grape is refused (CP-29).
func TestScenario5_RulesV1_CP28_CP29(t *testing.T) {
	tb := scenario5(t, rulesV1)
	tb.do(ana, "draw")
	tb.reject(ana, "bottle 2 xar2", "CP-29")
	tb.reject(ana, "time 2", "CP-29")
	tb.do(ana, "repair 2 par1")
	if b := tb.s.Barrels[ana][1]; !tb.s.complete(b) || len(b.Time) != 1 {
		t.Errorf("barrel 2 = %+v, want it complete with its 1 Time", b)
	}
	if !slices.Contains(tb.r.Legal(tb.s, ana), "bottle 2 Xarel·lo ★★") {
		t.Errorf("after the repair Ana may bottle barrel 2")
	}
	tb.reject(ana, "repair 4 mac1", "CP-29")
	tb.do(ana, "repair 4 xar3")
}

// scenario5 is scenario 5's table under rules version (0: current), after
// Bob's and Cleo's Évaporations: Ana's Rosé on barrel 2 holds gar1 and 1
// Time, her Cava blanc on barrel 4 lost xar1; it is Ana's turn.
func scenario5(t *testing.T, version int) *table {
	t.Helper()
	tb := tableSetup{
		version: version,
		seats: []seatSetup{
			{hand: []string{"par1", "xar2", "time", "mac1", "xar3"}, barrels: map[int]barrelSetup{
				2: {wine: "rose", grapes: []string{"gar1", "mac2"}, time: []string{"time"}},
				4: {wine: "cava blanc", grapes: []string{"mac1", "xar1", "par1"}},
			}},
			{hand: []string{"evaporation"}},
			{hand: []string{"evaporation"}},
		},
		market: [2]string{"ull2", "par2"},
		top:    []string{"gar2", "tre2", "ull1", "tre3", "gar3", "mac3"},
		active: bob,
	}.build(t)
	tb.do(bob, "draw")
	tb.do(bob, "evaporation ana 2 mac2")
	if g := tb.s.Barrels[ana][1].Grapes; !slices.Equal(g, []string{"gar1"}) {
		t.Errorf("Ana's barrel 2 holds %v, want gar1", g)
	}
	tb.endTurn(bob)
	tb.do(cleo, "draw")
	tb.reject(cleo, "evaporation ana 2 gar1", "CP-28")
	tb.do(cleo, "evaporation ana 4 xar1")
	tb.endTurn(cleo)
	return tb
}

// Scenario 6: Vol de temps (CP-30).
func TestScenario6_VolDeTemps_CP30(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{
			{barrels: map[int]barrelSetup{
				1: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"mac3"}},
				2: {wine: "blanc", grapes: []string{"mac1", "par1"}},
			}},
			{hand: []string{"vol de temps", "xar1", "par2"}},
		},
		market: [2]string{"ull2", "par3"},
		active: bob,
	}.build(t)
	tb.do(bob, "draw")
	tb.reject(bob, "vol de temps ana 1 facedown 1", "CP-30")
	tb.do(bob, "make blanc 1 xar1 par2")
	tb.reject(bob, "vol de temps ana 2 time 1", "CP-30")
	tb.do(bob, "vol de temps ana 1 facedown 1")
	if got := tb.s.Barrels[bob][0].Time; len(got) != 1 || got[0] != (TimeCard{Card: "mac3", FaceDown: true, Knower: ana}) {
		t.Errorf("Bob's barrel 1 Time = %+v, want Ana's face-down mac3", got)
	}
	if n := len(tb.s.Barrels[ana][0].Time); n != 0 {
		t.Errorf("Ana's barrel 1 still has %d Time", n)
	}
	if c := tb.r.View(tb.s, bob).(View).Barrels[bob][0].Time[0].Card; c != "" {
		t.Errorf("Bob sees the stolen face-down card %s", c)
	}
	if c := tb.r.View(tb.s, ana).(View).Barrels[bob][0].Time[0].Card; c != "mac3" {
		t.Errorf("Ana no longer sees the card she put face down")
	}
}

// Scenario 7: winning (CP-6, CP-13, CP-17).
func TestScenario7_Winning_CP6_CP13_CP17(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{
			hand: []string{"mac1", "par2", "xar2", "xar1", "par1", "ull1", "time", "time", "gar3"},
			barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac2", "par3"}, time: []string{"time"}, bottled: true},
				2: {wine: "rouge", grapes: []string{"gar2", "tre2"}, time: []string{"time", "time"}, bottled: true},
				3: {wine: "rose", grapes: []string{"gar1", "mac3"}, time: []string{"time"}},
			},
		}},
		market: [2]string{"ull2", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "make blanc 4 mac1 par2", "CP-17")
	tb.do(ana, "bottle 3 xar2")
	if tb.s.Over {
		t.Fatalf("3 wines and no cava is not a win")
	}
	tb.do(ana, "take nothing")
	tb.do(ana, "make cava rose 4 xar1 par1 ull1")
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	tb.do(ana, "time 4")
	tb.do(ana, "time 4")
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	evs := tb.do(ana, "bottle 4 gar3")
	res := tb.r.Result(tb.s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{ana}) {
		t.Fatalf("result %+v, want Ana's win", res)
	}
	if has(evs, evTurnStarted) || len(tb.r.Pending(tb.s)) != 0 {
		t.Errorf("the extra turn of the Cava rosé was played after the win")
	}
}

// Scenario 8: market and hand refill (CP-4, CP-12).
func TestScenario8_MarketAndRefill_CP4_CP12(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"gar2", "tre1", "time", "mac1"}}},
		market: [2]string{"xar1", "par3"},
		top:    []string{"ull1", "ull2"},
	}.build(t)
	tb.do(ana, "draw market 2")
	if n := len(tb.s.Hands[ana]); n != 5 {
		t.Errorf("Ana holds %d cards, want 5", n)
	}
	if tb.s.Market != [2]string{"xar1", "ull1"} {
		t.Errorf("market %v, want slot 2 refilled with ull1", tb.s.Market)
	}
	tb.do(ana, "make rouge 1 gar2 tre1")
	evs := tb.do(ana, "time 1")
	if !has(evs, evTurnEnded) {
		t.Fatalf("the turn did not end after the second action")
	}
	// 2 cards left after the two actions, then exactly 1 drawn at the end.
	var refill []Event
	for _, e := range evs {
		if e.Type == evDrew {
			refill = append(refill, e)
		}
	}
	if len(refill) != 1 || refill[0].Reason != "refill" || refill[0].N != 1 {
		t.Errorf("end-of-turn draws %+v, want one card", refill)
	}
	if got := tb.hand(ana); !slices.Equal(got, []string{"mac1", "par3", "ull2"}) {
		t.Errorf("Ana holds %v after the refill, want mac1 par3 ull2", got)
	}
}

// Scenario 9: Récolte (CP-27, CP-41).
func TestScenario9_Recolte_CP27_CP41(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{}, {hand: []string{"recolte"}}},
		market: [2]string{"ull2", "par3"},
		top:    []string{"xar1", "time", "mac3", "vin pique"},
		active: bob,
	}.build(t)
	tb.do(bob, "draw")
	tb.do(bob, "recolte")
	if h := tb.s.Harvest; h == nil || !slices.Equal(h.Cards, []string{"time", "mac3", "vin pique"}) || !slices.Equal(h.Order, []games.Seat{bob, cleo, ana}) {
		t.Fatalf("harvest %+v, want [time mac3 vin pique] for Bob, Cleo, Ana", tb.s.Harvest)
	}
	p := tb.r.Pending(tb.s)
	if len(p) != 1 || p[0].Seat != bob || p[0].Kind != "pick" || p[0].Rule != "CP-41" {
		t.Fatalf("pending %+v, want Bob's pick", p)
	}
	tb.reject(ana, "pick time", "CP-41")
	tb.reject(bob, "end", "CP-27")
	tb.do(bob, "pick mac3")
	p = tb.r.Pending(tb.s)
	if len(p) != 1 || p[0].Seat != cleo || p[0].Default != "pick time" {
		t.Fatalf("pending %+v, want Cleo's pick defaulting to time", p)
	}
	tb.do(cleo, p[0].Default)
	tb.do(ana, "pick 1")
	if !slices.Contains(tb.s.Hands[ana], "vin pique") || !slices.Contains(tb.s.Hands[cleo], "time") || !slices.Contains(tb.s.Hands[bob], "mac3") {
		t.Errorf("picks went wrong: %v", tb.s.Hands)
	}
	p = tb.r.Pending(tb.s)
	if len(p) != 1 || p[0].Seat != bob || p[0].Kind != "turn" || tb.s.Turn.Actions != 1 {
		t.Errorf("pending %+v, actions %d: Bob should continue his turn", p, tb.s.Turn.Actions)
	}
}

// Scenario 10: extra turn (CP-33, CP-25).
func TestScenario10_ExtraTurn_CP33_CP25(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{
			hand: []string{"gar3", "mac2"},
			barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time"}},
				2: {wine: "blanc", grapes: []string{"xar1", "xar2"}, spoil: 1},
			},
		}},
		market: [2]string{"ull2", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 1 gar3")
	if tb.s.Over || !tb.s.Turn.Extra {
		t.Fatalf("a Cava rosé gives an extra turn")
	}
	evs := tb.do(ana, "discard mac2")
	if !has(evs, evTurnEnded) || tb.s.Turn.Seat != ana || tb.s.Turn.Actions != 2 || tb.s.Turn.Drawn {
		t.Fatalf("no extra turn for Ana: %+v", tb.s.Turn)
	}
	if len(tb.s.Hands[ana]) < 3 {
		t.Errorf("the end-of-turn draw was not made before the extra turn")
	}
	if s := tb.s.Barrels[ana][1].Spoil; s != 2 {
		t.Errorf("Vin piqué counter %d after the first turn, want 2", s)
	}
	tb.endTurn(ana)
	if s := tb.s.Barrels[ana][1].Spoil; s != 3 {
		t.Errorf("Vin piqué counter %d after the extra turn, want 3", s)
	}
	if tb.s.Turn.Seat != bob {
		t.Errorf("after the extra turn it is %s's turn, want Bob", tb.s.name(tb.s.Turn.Seat))
	}
}

// Scenario 11: Cava blanc and Rouge abilities (CP-34, CP-32), and option
// wine_abilities = off (CP-7).
func TestScenario11_CavaBlancRouge_CP34_CP32_CP7(t *testing.T) {
	setup := func(opts games.Options) *table {
		return tableSetup{
			opts: opts,
			seats: []seatSetup{{
				hand: []string{"gar3", "ull2", "vin pique"},
				barrels: map[int]barrelSetup{
					2: {wine: "blanc", grapes: []string{"mac2", "par2"}},
					3: {wine: "rouge", grapes: []string{"gar1", "tre2"}, time: []string{"time", "time"}},
					4: {wine: "cava blanc", grapes: []string{"mac1", "xar2", "par3"}, time: []string{"time", "tre1"}},
				},
			}},
			market: [2]string{"ull3", "par1"},
			top:    []string{"mac3"},
		}.build(t)
	}
	tb := setup(nil)
	tb.do(ana, "draw")
	before := len(tb.s.Discard)
	tb.do(ana, "bottle 4 gar3")
	if tb.s.Turn.Ability != abRecover {
		t.Fatalf("no Cava blanc choice pending")
	}
	tb.reject(ana, "bottle 3 ull2", "CP-34")
	evs := tb.do(ana, "recover time xar2")
	if h := tb.hand(ana); !slices.Equal(h, []string{"mac3", "xar2", "ull2", "time", "vin pique"}) {
		t.Errorf("Ana's hand %v, want the recovered time and xar2 added", h)
	}
	// tre1, face down until now, is discarded face up: everyone sees it.
	for _, e := range evs {
		if e.Type == evCleared && !slices.Contains(tb.r.Redact(tb.s, e, games.Spectator).Cards, "tre1") {
			t.Errorf("the cleared bottle hides tre1: %+v", tb.r.Redact(tb.s, e, games.Spectator))
		}
	}
	got := tb.s.aid.sortCards(slices.Clone(tb.s.Discard[before:]))
	if want := []string{"mac1", "par3", "gar3", "tre1"}; !slices.Equal(got, tb.s.aid.sortCards(want)) {
		t.Errorf("discarded %v, want %v", got, want)
	}
	tb.do(ana, "bottle 3 ull2")
	tb.do(ana, "age 2 vin pique")
	if tm := tb.s.Barrels[ana][1].Time; len(tm) != 1 || tm[0] != (TimeCard{Card: "vin pique", FaceDown: true, Knower: ana}) {
		t.Errorf("barrel 2 Time = %+v, want the Vin piqué face down", tm)
	}

	tb = setup(games.Options{"wine_abilities": "off"})
	tb.do(ana, "draw")
	tb.do(ana, "bottle 4 gar3")
	tb.reject(ana, "recover time xar2", "CP-7")
	if b := tb.s.Barrels[ana][3]; len(b.Grapes)+len(b.Time) != 0 || slices.Contains(tb.s.Hands[ana], "xar2") {
		t.Errorf("without abilities the Cava blanc is cleared at once: %+v", b)
	}
	tb.endTurn(ana)
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 3 ull2")
	tb.reject(ana, "age 2 vin pique", "CP-7")
	if tb.s.Turn.Ability != "" || len(tb.s.Barrels[ana][1].Time) != 0 {
		t.Errorf("without abilities a Rouge gives no choice")
	}
}

// Scenario 12: reshuffle (CP-11).
func TestScenario12_Reshuffle_CP11(t *testing.T) {
	tb := tableSetup{
		market:        [2]string{"ull3", "par1"},
		restToDiscard: true,
	}.build(t)
	if len(tb.s.Deck) != 0 {
		t.Fatalf("rig: deck holds %d cards", len(tb.s.Deck))
	}
	n := len(tb.s.Discard)
	evs := tb.do(ana, "draw")
	if len(evs) < 2 || evs[0].Type != evShuffled || evs[0].Reason != "reshuffle" || evs[1].Type != evDrew {
		t.Fatalf("events %+v, want a recorded reshuffle then the draw", evs)
	}
	if len(tb.s.Discard) != 0 || len(tb.s.Deck) != n-1 || len(evs[0].Cards) != n {
		t.Errorf("deck %d, discard %d after the reshuffle of %d", len(tb.s.Deck), len(tb.s.Discard), n)
	}
	if x := tb.r.Redact(tb.s, evs[0], ana); x.Cards != nil {
		t.Errorf("the new deck order is visible")
	}
}

package coupage

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Rule ids the scenarios do not reach, one test each (or a part of one):
//
//	CP-1, CP-3 TestCP1_CP3_Setup          CP-2 TestCP2_PlayerCount
//	CP-15 TestCP15_TurnOrder              CP-16, CP-5 TestCP16_CP5_Actions
//	CP-18, CP-19 TestCP18_CP19_TimeCard   CP-20 TestCP20_DiscardAndDraw
//	CP-21, CP-14 TestCP21_CP14_Specials   CP-22, CP-13 TestCP22_CP13_VinJeune
//	CP-23 TestCP23_VolDeCarte             CP-24 TestCP24_VinPiqueLimits
//	CP-27 TestCP27_FewerCards             CP-28 TestCP28_FaceDownIsNotGrape
//	CP-31, CP-45 TestCP31_CP45_Rose       CP-35, CP-6, CP-17 TestCP35_CP6_CP17_Cavas
//	CP-40, CP-44 TestCP40_CP44_Defaults   CP-11, CP-47 TestCP11_CP47_EmptyDeck
//	CP-42 TestCP42_Resign                 CP-43 TestCP43_MinimalPayment
//	CP-46 TestNotation*                   CP-48 TestCP48_EndOfTurnOrder
//	CP-12 TestCP12_RefillOnlyBelowThree
//	CP-19, CP-29 by rules version: TestCP19_CP29_TimeOnBarrelThatLostAGrape,
//	TestScenario5_*, TestRulesV1_RecordedGameReplays (version_test.go)
//	CP-50 TestCP50_Deadlock               CP-51 TestCP51_IdleRounds

func TestCP1_CP3_Setup(t *testing.T) {
	r := NewRules()
	evs, err := r.Setup(games.Options{"wine_abilities": "on", "aid_tables": "house"}, []string{"Ana", "Bob", "Cleo"}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Initial(rulesCurrent)
	for _, e := range evs {
		s = r.Evolve(s, e)
	}
	if n := len(s.aid.Deck()); n != 79 {
		t.Errorf("the deck holds %d cards, want 79 (CP-1)", n)
	}
	for seat, h := range s.Hands {
		if len(h) != 5 {
			t.Errorf("seat %d was dealt %d cards, want 5", seat, len(h))
		}
		for j, b := range s.Barrels[seat] {
			if b.State != Empty {
				t.Errorf("seat %d barrel %d is %s", seat, j+1, b.State)
			}
		}
	}
	if s.Market[0] == "" || s.Market[1] == "" || len(s.Deck) != 79-15-2 || s.CavaLeft != 4 {
		t.Errorf("market %v, deck %d, cava %d", s.Market, len(s.Deck), s.CavaLeft)
	}
	if err := conserved(s); err != nil {
		t.Error(err)
	}
	if p := r.Pending(s); len(p) != 1 || p[0].Seat != 0 || p[0].Kind != "turn" || p[0].Rule != "CP-40" {
		t.Errorf("pending %+v, want seat 0's turn (CP-15)", p)
	}
	// Every card of the deal is in the events, hidden from the other seats.
	for _, e := range evs {
		if e.Type == evDrew && e.Seat == 1 {
			if x := r.Redact(s, e, 0); x.Cards != nil || x.N != 5 {
				t.Errorf("Ana sees Bob's deal: %+v", x)
			}
			if x := r.Redact(s, e, 1); len(x.Cards) != 5 {
				t.Errorf("Bob does not see his deal")
			}
		}
	}
	// CP-15: the seat order is drawn with the generator.
	orders := map[string]bool{}
	for i := range 20 {
		evs, _ := r.Setup(games.Options{}, []string{"Ana", "Bob", "Cleo"}, rand.New(rand.NewPCG(uint64(i), 9)))
		orders[strings.Join(evs[0].Players, ",")] = true
	}
	if len(orders) < 2 {
		t.Errorf("the seat order is always %v", orders)
	}
}

func TestCP2_PlayerCount(t *testing.T) {
	r := NewRules()
	for _, n := range []int{0, 1, 5} {
		players := []string{"A", "B", "C", "D", "E"}[:n]
		_, err := r.Setup(games.Options{}, players, rand.New(rand.NewPCG(1, 1)))
		if re, ok := games.AsRuleError(err); !ok || re.Rule != "CP-2" {
			t.Errorf("%d players: %v, want CP-2", n, err)
		}
	}
	info := r.Info()
	if info.MinSeats != 2 || info.MaxSeats != 4 || info.ID != "coupage" {
		t.Errorf("info %+v", info)
	}
	want := map[string]string{"wine_abilities": "on", "aid_tables": "house"}
	for _, o := range info.Options {
		if want[o.Name] != o.Default {
			t.Errorf("option %s default %s", o.Name, o.Default)
		}
		delete(want, o.Name)
	}
	if len(want) != 0 {
		t.Errorf("missing options %v", want)
	}
	if _, err := New().Options(games.Options{"wine_abilities": "maybe"}); err == nil {
		t.Errorf("wine_abilities=maybe accepted")
	}
}

func TestCP15_TurnOrder(t *testing.T) {
	tb := tableSetup{market: [2]string{"ull3", "par1"}}.build(t)
	tb.reject(bob, "draw", "CP-15")
	tb.reject(games.Spectator, "draw", "CP-15")
	tb.endTurn(ana)
	tb.reject(ana, "draw", "CP-15")
	tb.endTurn(bob)
	tb.endTurn(cleo)
	if tb.s.Turn.Seat != ana {
		t.Errorf("after Cleo it is %s's turn", tb.s.name(tb.s.Turn.Seat))
	}
}

func TestCP16_CP5_Actions(t *testing.T) {
	// CP-5: every kind of action is offered when possible.
	tb := tableSetup{
		seats: []seatSetup{
			{hand: []string{"gar2", "tre1", "mac1", "par2", "time", "xar3", "vin jeune", "vol de carte", "vin pique", "oenologue", "recolte", "evaporation", "vol de temps"},
				barrels: map[int]barrelSetup{
					1: {wine: "blanc", grapes: []string{"mac2", "par1"}, time: []string{"time"}},
					2: {wine: "rose", grapes: []string{"gar1"}},
					3: {wine: "rouge", grapes: []string{"gar3", "tre2"}, spoil: 2},
				}},
			{hand: []string{"ull1"}, barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"ull2", "tre3"}, time: []string{"time"}}}},
		},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	legal := tb.r.Legal(tb.s, ana)
	for _, prefix := range []string{"make ", "repair ", "time ", "bottle ", "discard ", "vin jeune ", "vol de carte ",
		"vin piqué ", "œnologue ", "récolte", "évaporation ", "vol de temps ", "end"} {
		if !slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, prefix) }) {
			t.Errorf("no %q move among %d legal moves", prefix, len(legal))
		}
	}
	// CP-16: two actions, the same twice; then the turn ends.
	tb.do(ana, "discard mac1")
	if tb.s.Turn.Seat != ana || tb.s.Turn.Actions != 1 {
		t.Fatalf("turn %+v after one action", tb.s.Turn)
	}
	evs := tb.do(ana, "discard gar2")
	if !has(evs, evTurnEnded) || tb.s.Turn.Seat != bob {
		t.Errorf("the turn did not end after two actions")
	}
	// Zero actions: draw then end.
	tb.do(bob, "draw")
	tb.do(bob, "end")
	if tb.s.Turn.Seat != cleo {
		t.Errorf("Bob's turn did not end")
	}
	tb.reject(cleo, "make rouge 1 gar2 tre1", "CP-4")
	tb.do(cleo, "draw market 1")
	tb.reject(cleo, "draw", "CP-4")
}

func TestCP18_CP19_TimeCard(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"time", "time", "mac1"},
			barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac2", "par1"}, time: []string{"time", "time"}}}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "time 1")
	tb.do(ana, "time 1") // CP-19: no maximum
	if n := len(tb.s.Barrels[ana][0].Time); n != 4 {
		t.Errorf("barrel 1 has %d Time, want 4", n)
	}
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	tb.reject(ana, "time 1", "CP-18")
	tb.reject(ana, "time 3", "CP-19")
}

func TestCP20_DiscardAndDraw(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"mac1", "time"}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "gar3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "discard vin jeune", "CP-20")
	evs := tb.do(ana, "discard mac1")
	if d := tb.s.Discard; d[len(d)-1] != "mac1" {
		t.Errorf("discard %v", d)
	}
	if got := tb.hand(ana); !slices.Equal(got, []string{"xar1", "gar3", "time"}) {
		t.Errorf("hand %v", got)
	}
	for _, e := range evs {
		if e.Type == evDrew {
			if x := tb.r.Redact(tb.s, e, bob); x.Cards != nil {
				t.Errorf("Bob sees Ana's draw")
			}
		}
	}
}

func TestCP21_CP14_Specials(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{
			{hand: []string{"vin pique", "evaporation", "vol de temps", "oenologue"}},
			{barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}, bottled: true}}},
		},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	// CP-14: bottles are out of reach; CP-21: no target, no play.
	tb.reject(ana, "vin pique bob 1", "CP-24")
	tb.reject(ana, "evaporation bob 1 mac1", "CP-28")
	tb.reject(ana, "vol de temps bob 1 time 1", "CP-30")
	tb.reject(ana, "oenologue bob 1", "CP-26")
	tb.reject(ana, "recolte", "CP-21")
	legal := tb.r.Legal(tb.s, ana)
	for _, m := range legal {
		if strings.HasPrefix(m, "vin pique") || strings.HasPrefix(m, "evaporation") || strings.HasPrefix(m, "vol de temps") || strings.HasPrefix(m, "oenologue") {
			t.Errorf("%q offered without a target", m)
		}
	}
	if !slices.Contains(legal, "discard Vin piqué") {
		t.Errorf("an unplayable special can still be discarded (CP-20)")
	}
	// CP-14: only on your own turn.
	tb.endTurn(ana)
	tb.reject(ana, "vin pique bob 1", "CP-15")
}

func TestCP22_CP13_VinJeune(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"vin jeune", "vin jeune"},
			barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}, bottled: true},
				2: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"time"}},
				3: {wine: "cava rose", grapes: []string{"mac2", "par2", "gar2"}, time: []string{"time", "time"}},
				4: {wine: "rouge", grapes: []string{"gar3", "tre3"}, time: []string{"time", "time"}, bottled: true},
			}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "vin jeune 2", "CP-22") // 1 Time of the 2 a Rouge needs
	tb.reject(ana, "vin jeune 1", "CP-22")
	n := len(tb.s.Hands[ana])
	evs := tb.do(ana, "vin jeune 3")
	if !tb.s.Over || !slices.Equal(tb.s.Winners, []games.Seat{ana}) {
		t.Fatalf("bottling the Cava rosé with Vin jeune wins (CP-13)")
	}
	if len(tb.s.Hands[ana]) != n-1 || !tb.s.Barrels[ana][2].Cava {
		t.Errorf("Vin jeune paid stars or no Cava card")
	}
	if evs[len(evs)-1].Type != evGameOver || has(evs, evTurnStarted) {
		t.Errorf("the game did not end at once")
	}
	tb.reject(ana, "end", "CP-13")
	if _, err := tb.r.Resign(tb.s, bob, tb.rng); err == nil {
		t.Errorf("resign accepted after the end")
	}
	if v := tb.r.View(tb.s, games.Spectator).(View); len(v.Hands) != 3 {
		t.Errorf("hands are not public at the end")
	}
}

func TestCP23_VolDeCarte(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"vol de carte", "vol de carte"}}, {hand: []string{"mac1"}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "xar2", "xar3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "vol de carte ana", "CP-23")
	// Cleo was dealt nothing in this rig.
	tb.reject(ana, "vol de carte cleo", "CP-23")
	evs := tb.do(ana, "vol de carte bob")
	if !slices.Contains(tb.hand(ana), "mac1") || len(tb.hand(bob)) != 0 {
		t.Errorf("the card did not move")
	}
	for _, e := range evs {
		if e.Type != evStole {
			continue
		}
		if tb.r.Redact(tb.s, e, cleo).Card != "" || tb.r.Redact(tb.s, e, games.Spectator).Card != "" {
			t.Errorf("Cleo sees the stolen card")
		}
		if tb.r.Redact(tb.s, e, bob).Card != "mac1" || tb.r.Redact(tb.s, e, ana).Card != "mac1" {
			t.Errorf("thief and victim see the card")
		}
	}
}

func TestCP24_VinPiqueLimits(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{
			{hand: []string{"vin pique", "evaporation", "vol de temps"}, barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac3", "par3"}}}},
			{hand: []string{"xar1"}, barrels: map[int]barrelSetup{1: {wine: "rose", grapes: []string{"gar1", "mac1"}, time: []string{"time"}, spoil: 1}}},
		},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "vin pique bob 1", "CP-24") // one per barrel
	tb.reject(ana, "vin pique ana 2", "CP-24") // another player's barrel
	tb.do(ana, "vol de temps bob 1 time 2")    // a spoiled barrel is still a target
	tb.do(ana, "evaporation bob 1 mac1")
	tb.reject(ana, "vin pique bob 1", "CP-15")
	tb.do(bob, "draw")
	tb.reject(bob, "repair 1 xar1", "CP-24")
}

func TestCP27_FewerCards(t *testing.T) {
	tb := tableSetup{
		seats:         []seatSetup{{}, {hand: []string{"recolte", "recolte"}}},
		market:        [2]string{"ull3", "par3"},
		top:           []string{"xar1", "xar2"},
		restToDiscard: true,
		active:        bob,
	}.build(t)
	// Empty the discard pile into Ana's hand so that only the deck is left.
	n := len(tb.s.Discard)
	tb.s.Hands[ana] = append(tb.s.Hands[ana], tb.s.Discard...)
	tb.s.Discard = nil
	if n == 0 || len(tb.s.Deck) != 2 {
		t.Fatalf("rig: deck %d", len(tb.s.Deck))
	}
	tb.do(bob, "draw")
	tb.do(bob, "recolte")
	if h := tb.s.Harvest; h == nil || len(h.Cards) != 1 || !slices.Equal(h.Order, []games.Seat{bob}) {
		t.Fatalf("harvest %+v, want one card for Bob only", tb.s.Harvest)
	}
	tb.do(bob, "pick xar2")
	if tb.s.Harvest != nil || tb.s.Turn.Seat != bob {
		t.Fatalf("Bob's turn should resume")
	}
	// Now the deck is empty and the discard pile holds only the Récolte.
	tb.do(bob, "recolte")
	if h := tb.s.Harvest; h == nil || h.Cards[0] != "recolte" {
		t.Fatalf("the first Récolte was reshuffled and revealed: %+v", tb.s.Harvest)
	}
}

func TestCP28_FaceDownIsNotGrape(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{
			{hand: []string{"evaporation"}},
			{barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"mac2"}}}},
		},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "evaporation bob 1 mac2", "CP-28")
	tb.reject(ana, "evaporation bob 2 mac2", "CP-28")
	tb.do(ana, "evaporation bob 1 tre1")
}

func TestCP31_CP45_Rose(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"mac2", "par2"},
			barrels: map[int]barrelSetup{
				1: {wine: "rose", grapes: []string{"gar1", "mac1"}, time: []string{"time"}},
				2: {wine: "rose", grapes: []string{"gar2", "par1"}, time: []string{"time"}},
			}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "xar2"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 1 mac2")
	tb.reject(ana, "bottle 2 par2", "CP-31")
	tb.reject(ana, "age nothing", "CP-31")
	tb.do(ana, "take market 2")
	if !slices.Contains(tb.s.Hands[ana], "par3") || tb.s.Market[1] != "xar2" {
		t.Errorf("market %v, hand %v", tb.s.Market, tb.s.Hands[ana])
	}
	// CP-45: with an empty market the Rosé ability is skipped.
	tb.s.Discard = append(tb.s.Discard, tb.s.Deck...)
	tb.s.Deck = nil
	tb.s.Hands[bob] = append(tb.s.Hands[bob], tb.s.Discard...)
	tb.s.Hands[bob] = append(tb.s.Hands[bob], tb.s.Market[:]...)
	tb.s.Discard, tb.s.Market = nil, [2]string{}
	evs := tb.do(ana, "bottle 2 par2")
	if has(evs, evAbility) || !has(evs, evTurnEnded) {
		t.Errorf("the Rosé ability should be skipped with an empty market")
	}
	tb.reject(bob, "take market 1", "CP-31")
}

func TestCP35_CP6_CP17_Cavas(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"gar3", "tre3", "mac1", "xar1", "ull1"},
			barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac2", "par2"}, time: []string{"time"}, bottled: true},
				2: {wine: "cava rose", grapes: []string{"mac3", "par3", "gar2"}, time: []string{"time", "time"}, bottled: true},
				3: {wine: "cava blanc", grapes: []string{"mac1", "xar2", "par1"}, time: []string{"time", "time"}},
			}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "make cava rose 4 mac1 xar1 ull1", "CP-17")
	tb.do(ana, "bottle 3 gar3")
	if tb.s.Over {
		t.Fatalf("a second cava is not a wine (CP-6)")
	}
	if tb.s.Barrels[ana][2].Cava || tb.s.CavaLeft != 3 {
		t.Errorf("a second cava took a Cava card (CP-35)")
	}
}

func TestCP40_CP44_Defaults(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"gar3", "tre3"},
			barrels: map[int]barrelSetup{
				1: {wine: "cava blanc", grapes: []string{"xar2", "mac1", "par3"}, time: []string{"ull1", "time"}},
			}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "xar3"},
	}.build(t)
	// CP-40 default before drawing: draw from the deck, then end.
	p := tb.r.Pending(tb.s)
	if len(p) != 1 || p[0].Default != "end" {
		t.Fatalf("pending %+v", p)
	}
	tb.do(ana, p[0].Default)
	if !slices.Contains(tb.s.Hands[ana], "xar1") || tb.s.Turn.Seat != bob {
		t.Errorf("the default did not draw and end the turn")
	}
	tb.endTurn(bob)
	tb.endTurn(cleo)
	tb.do(ana, "draw")
	tb.do(ana, "bottle 1 gar3")
	// CP-40: Cava blanc default: the first Time card in placement order (the
	// face-down ull1) and the lowest grape (mac1).
	tb.do(ana, tb.r.Pending(tb.s)[0].Default)
	h := tb.hand(ana)
	if !slices.Contains(h, "ull1") || !slices.Contains(h, "mac1") || tb.s.Turn.Seat != bob {
		t.Errorf("hand %v after the Cava blanc default", h)
	}
	// The face-down ull1 becomes visible to its new holder only.
	for _, e := range tb.log {
		if e.Type == evRecovered && (tb.r.Redact(tb.s, e, bob).Card != "" || tb.r.Redact(tb.s, e, ana).Card != "ull1") {
			t.Errorf("recovered face-down card redacted wrongly")
		}
	}
}

func TestCP11_CP47_EmptyDeck(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"mac1"}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	// Move every other card out of deck and discard (into Cleo's hand).
	tb.s.Hands[cleo] = append(tb.s.Hands[cleo], tb.s.Deck...)
	tb.s.Deck = nil
	if p := tb.r.Pending(tb.s); p[0].Default != "end" {
		t.Fatalf("pending %+v", p)
	}
	// The default takes market slot 1 when deck and discard are empty.
	tb.do(ana, "end")
	if !slices.Contains(tb.s.Hands[ana], "ull3") || tb.s.Market[0] != "" {
		t.Errorf("market %v, hand %v", tb.s.Market, tb.s.Hands[ana])
	}
	// A draw from an empty deck is skipped.
	evs := tb.do(bob, "draw")
	if len(evs) != 1 || evs[0].N != 0 || !tb.s.Turn.Drawn {
		t.Errorf("events %+v", evs)
	}
	// A discard makes the pile; the next draw reshuffles it.
	tb.s.Hands[bob] = append(tb.s.Hands[bob], "xar1")
	i := slices.Index(tb.s.Hands[cleo], "xar1")
	tb.s.Hands[cleo] = slices.Delete(tb.s.Hands[cleo], i, i+1)
	evs = tb.do(bob, "discard xar1")
	if !has(evs, evShuffled) || !slices.Contains(tb.s.Hands[bob], "xar1") {
		t.Errorf("discard-and-draw did not reshuffle and draw back xar1: %+v", evs)
	}
	tb.do(bob, "end")
	// The empty market slot is refilled at the end of a turn when a card can
	// be drawn: here nothing can, so it stays empty.
	if tb.s.Market[0] != "" {
		t.Errorf("market %v", tb.s.Market)
	}
}

func TestCP12_RefillOnlyBelowThree(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{hand: []string{"mac1", "mac2", "mac3", "xar1"}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "end")
	if n := len(tb.s.Hands[ana]); n != 5 {
		t.Errorf("Ana holds %d cards, want 5 (no refill above 3)", n)
	}
	tb.do(bob, "end") // Bob was dealt nothing: 1 drawn + 2 refilled
	if n := len(tb.s.Hands[bob]); n != 3 {
		t.Errorf("Bob holds %d cards, want 3", n)
	}
}

func TestCP42_Resign(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{
			{hand: []string{"recolte"}},
			{hand: []string{"mac1", "vin pique"}, barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac2", "par2"}, time: []string{"xar3"}, spoil: 2}}},
		},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.do(ana, "recolte")
	tb.do(ana, "pick 1")
	// Bob leaves while it is his pick: his cards are discarded, he is skipped.
	evs, err := tb.r.Resign(tb.s, bob, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.fold(e)
	}
	if err := conserved(tb.s); err != nil {
		t.Fatal(err)
	}
	if len(tb.s.Hands[bob]) != 0 || tb.s.Barrels[bob][0].State != Empty {
		t.Errorf("Bob's cards stay in play")
	}
	if p := tb.r.Pending(tb.s); p[0].Seat != cleo {
		t.Fatalf("pending %+v, want Cleo's pick", p)
	}
	tb.do(cleo, "pick 1")
	tb.do(ana, "end")
	if tb.s.Turn.Seat != cleo {
		t.Errorf("Bob was not skipped")
	}
	if _, err := tb.r.Resign(tb.s, bob, tb.rng); err == nil {
		t.Errorf("a second resignation was accepted")
	}
	// Cleo leaves on her own turn: Ana is the last player and wins.
	evs, err = tb.r.Resign(tb.s, cleo, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.fold(e)
	}
	if res := tb.r.Result(tb.s); !res.Finished || !slices.Equal(res.Winners, []games.Seat{ana}) {
		t.Errorf("result %+v", res)
	}
}

func TestCP43_MinimalPayment(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"mac2", "par1", "xar3", "gar1", "tre1"},
			barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac1", "par2"}, time: []string{"time"}},
				2: {wine: "rouge", grapes: []string{"gar2", "tre2"}},
			}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	tb.reject(ana, "bottle 1 mac2 par1", "CP-43")
	tb.reject(ana, "time 2 xar3 par1", "CP-43")
	tb.do(ana, "time 2 gar1 tre1 par1")
	tb.do(ana, "bottle 1 xar3") // 3★ for 2: surplus lost, no card too many
}

func TestCP48_EndOfTurnOrder(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac2", "par2"}, spoil: 4}}}},
		market: [2]string{"ull3", "par3"},
		top:    []string{"xar1", "xar2", "xar3"},
	}.build(t)
	evs := tb.do(ana, "end")
	var order []string
	for _, e := range evs {
		order = append(order, e.Type)
	}
	want := []string{evDrew, evTurnEnded, evSpoilGone, evDrew, evDrew, evTurnStarted}
	if !slices.Equal(order, want) {
		t.Errorf("events %v, want %v", order, want)
	}
}

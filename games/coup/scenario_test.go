package coup

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// deal4 is a 4-player deal; the Court holds the other 7 cards.
func deal4() [][]Char {
	return [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa)}
}

// Scenario 1: forced Coup (TC-5, TC-25a).
func TestScenario1_ForcedCoup_TC5_TC25a(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{9, 2, 2, 2})
	g.do(ana, "income")
	g.coins(ana, 10)
	for _, s := range []int{bob, cal, dee} {
		g.do(s, "income")
	}
	g.reject(ana, "tax", "TC-5")
	g.reject(ana, "income", "TC-5")
	if d := g.defaultOf(ana); d != "coup Bob" {
		t.Fatalf("default %q, want coup Bob (TC-25a)", d)
	}
	if legal := (Rules{}).Legal(g.s, ana); !slices.Contains(legal, "coup Bob") || slices.Contains(legal, "income") {
		t.Fatalf("legal %v", legal)
	}
	g.do(ana, "coup bob")
	g.coins(ana, 3)
	g.influence(bob, 2) // Bob chooses the card he turns face up (TC-33)
	g.wantPending("lose", bob)
	g.do(bob, "reveal assassin")
	if !slices.Equal(g.s.Players[bob].Lost, h(Assassin)) {
		t.Fatalf("Bob lost %v", g.s.Players[bob].Lost)
	}
	g.wantPending("turn", bob)
	g.refold()
}

// Scenario 2: refund of a failed claim (TC-17, TC-24), and option
// failed_claim_cost = spent.
func TestScenario2_Refund_TC17_TC24(t *testing.T) {
	for _, spent := range []bool{false, true} {
		opts := games.Options{}
		if spent {
			opts["failed_claim_cost"] = "spent"
		}
		g := newGame(t, opts, deal4(), []int{3, 2, 2, 2})
		g.do(ana, "assassinate bob")
		g.coins(ana, 0)
		g.wantPending("challenge", bob, cal, dee)
		g.do(cal, "challenge")
		g.reject(dee, "challenge", "TC-24")
		g.wantPending("answer", ana)
		g.do(ana, "reveal captain")
		if !slices.Equal(g.s.Players[ana].Lost, h(Captain)) {
			t.Fatalf("Ana lost %v", g.s.Players[ana].Lost)
		}
		if spent {
			g.coins(ana, 0)
		} else {
			g.coins(ana, 3)
		}
		g.influence(bob, 2)
		g.wantPending("turn", bob) // no W2
		g.refold()
	}
}

// Scenario 3: blocked, and a bluffed Contessa (TC-17, TC-18).
func TestScenario3_BlockedAndBluffed_TC17_TC18(t *testing.T) {
	hands := [][]Char{h(Assassin, Duke), h(Captain, Duke), h(Captain, Ambassador), h(Duke, Contessa)}
	g := newGame(t, nil, hands, []int{3, 2, 2, 2})
	g.do(ana, "assassinate bob")
	g.allAllow()
	g.wantPending("block", bob)
	g.do(bob, "block contessa")
	g.wantPending("block-challenge", ana, cal, dee)
	g.allAllow()
	g.coins(ana, 0)
	g.influence(bob, 2)
	g.wantPending("turn", bob)

	// Variant: Ana challenges the block; Bob has no Contessa.
	g = newGame(t, nil, hands, []int{3, 2, 2, 2})
	g.do(ana, "assassinate bob")
	g.allAllow()
	g.do(bob, "block contessa")
	g.do(ana, "challenge")
	g.wantPending("answer", bob)
	if d := g.defaultOf(bob); d != "reveal duke" {
		t.Fatalf("answer default %q, want the first card in canonical order (TC-25c)", d)
	}
	evs := g.do(bob, "reveal captain")
	if !hasType(evs, evLost) || !g.s.Players[bob].Out {
		t.Fatalf("Bob should lose his second card to the assassination: %+v", evs)
	}
	g.coins(ana, 0)
	g.wantPending("turn", cal)
	g.refold()
}

// Scenario 4: a failed challenge by the target (TC-19, TC-16).
func TestScenario4_TargetChallengeFails_TC19_TC16(t *testing.T) {
	hands := [][]Char{h(Assassin, Duke), h(Captain, Duke), h(Captain, Ambassador), h(Duke, Contessa)}
	g := newGame(t, nil, hands, []int{3, 2, 2, 2})
	g.do(ana, "assassinate bob")
	g.do(bob, "challenge")
	g.do(ana, "reveal assassin")
	// Bob's loss happens first; Ana's Assassin waits, shown to all.
	g.wantPending("lose", bob)
	if v := (Rules{}).View(g.s, games.Spectator).(View); v.Action.Proven != Assassin {
		t.Fatalf("the proven card is public: %+v", v.Action)
	}
	evs := g.do(bob, "reveal duke")
	i := slices.IndexFunc(evs, func(e Event) bool { return e.Type == evReplaced })
	if evs[0].Type != evLost || i < 0 || evs[i].Char != Assassin || evs[i].Seat != ana {
		t.Fatalf("want Bob's loss then Ana's replacement: %+v", evs)
	}
	if g.courtSize() != 7 {
		t.Fatalf("court %d", g.courtSize())
	}
	g.wantPending("block", bob)
	if d := g.defaultOf(bob); d != "allow" {
		t.Fatalf("W2 default %q (TC-25d)", d)
	}
	g.do(bob, g.defaultOf(bob))
	if !g.s.Players[bob].Out {
		t.Fatal("Bob should be out")
	}
	g.wantPending("turn", cal)
	g.refold()
}

// Scenario 5: a dead target (TC-20, TC-9).
func TestScenario5_DeadTarget_TC20_TC9(t *testing.T) {
	hands := [][]Char{h(Assassin, Captain), h(Captain, Duke), h(Ambassador, Duke), h(Duke, Contessa)}
	g := newGame(t, nil, hands, []int{3, 2, 1, 2})
	g.rigLoss(bob, Duke)
	g.do(ana, "assassinate bob")
	g.do(bob, "challenge")
	evs := g.do(ana, "reveal assassin")
	if !g.s.Players[bob].Out || hasType(evs, evResolved) {
		t.Fatalf("Bob is out after the challenge and the action has no effect: %+v", evs)
	}
	g.coins(ana, 0)
	g.wantPending("turn", cal) // W2 skipped, Bob skipped

	// Steal from a player with 1 coin.
	g = newGame(t, nil, hands, []int{3, 2, 1, 2})
	g.do(ana, "steal cal")
	g.allAllow()
	g.wantPending("block", cal)
	g.do(cal, "allow")
	g.coins(ana, 4)
	g.coins(cal, 0)

	// Cal, at one influence, challenges and loses: Ana gains nothing.
	g = newGame(t, nil, hands, []int{3, 2, 1, 2})
	g.rigLoss(cal, Duke)
	g.do(ana, "steal cal")
	g.do(cal, "challenge")
	g.do(ana, "reveal captain")
	if !g.s.Players[cal].Out {
		t.Fatal("Cal should be out")
	}
	g.coins(ana, 3)
	g.coins(cal, 1)
	g.wantPending("turn", bob)
}

// Scenario 6: Exchange with one influence (TC-10, TC-16).
func TestScenario6_ExchangeOneInfluence_TC10_TC16(t *testing.T) {
	hands := [][]Char{h(Ambassador, Duke), h(Captain, Duke), h(Captain, Assassin), h(Duke, Contessa)}
	g := newGame(t, nil, hands, nil)
	g.rigLoss(ana, Duke)
	g.do(ana, "exchange")
	g.do(bob, "challenge")
	g.do(ana, "reveal ambassador")
	g.wantPending("lose", bob)
	evs := g.do(bob, "reveal captain")
	if !hasType(evs, evReplaced) || !hasType(evs, evExchDrawn) {
		t.Fatalf("want the replacement then the draw: %+v", evs)
	}
	if slices.IndexFunc(evs, func(e Event) bool { return e.Type == evReplaced }) > slices.IndexFunc(evs, func(e Event) bool { return e.Type == evExchDrawn }) {
		t.Fatal("the replacement is drawn before the exchange (TC-16)")
	}
	g.wantPending("exchange", ana)
	v := (Rules{}).View(g.s, ana).(View)
	if len(v.Players[ana].Cards)+len(v.Action.Drawn) != 3 {
		t.Fatalf("Ana sees %v + %v, want 3 cards", v.Players[ana].Cards, v.Action.Drawn)
	}
	if v := (Rules{}).View(g.s, bob).(View); v.Action.Drawn != nil || v.Action.DrawnCount != 2 {
		t.Fatalf("Bob sees the draw: %+v", v.Action)
	}
	legal := (Rules{}).Legal(g.s, ana)
	keep := ""
	for _, l := range legal {
		if len(l) > 5 && l[:5] == "keep " {
			keep = l
		}
	}
	g.do(ana, keep)
	g.influence(ana, 1)
	if g.courtSize() != 7 {
		t.Fatalf("court %d, want 7", g.courtSize())
	}
}

// Scenario 7: the first block wins (TC-24, TC-31, TC-14).
func TestScenario7_FirstBlockWins_TC24_TC31_TC14(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "foreign aid")
	g.wantPending("block", bob, cal, dee) // no W1
	g.do(cal, "block duke")
	g.reject(bob, "block duke", "TC-24")
	g.wantPending("block-challenge", ana, bob, dee)
	g.do(dee, "challenge")
	g.reject(bob, "challenge", "TC-24")
	g.do(cal, "reveal ambassador")
	g.influence(cal, 1)
	g.coins(ana, 4)
	g.wantPending("turn", bob)
	g.refold()
}

// Scenario 8: order of windows and auto-allow (TC-13, TC-32).
func TestScenario8_WindowOrderAutoAllow_TC13_TC32(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(cal, "auto-allow challenge on") // any time, not pending
	g.do(dee, "auto-allow challenge on")
	evs := g.do(ana, "steal bob")
	auto := 0
	for _, e := range evs {
		if e.Type == evAllow && e.Auto {
			auto++
		}
	}
	if auto != 2 {
		t.Fatalf("want Cal's and Dee's allows recorded when W1 opened: %+v", evs)
	}
	g.wantPending("challenge", bob)
	g.reject(bob, "block captain", "TC-13")
	g.do(bob, "allow")
	g.wantPending("block", bob)
	g.do(bob, "block captain")
	g.wantPending("block-challenge", ana, cal, dee)
	g.refold()
}

// Scenario 9: two players (TC-2, TC-25i).
func TestScenario9_TwoPlayers_TC2_TC25i(t *testing.T) {
	g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
	g.wantPending("keep", ana, bob)
	if d := g.defaultOf(ana); d != "keep duke" {
		t.Fatalf("default %q", d)
	}
	g.do(ana, g.defaultOf(ana)) // Ana's deadline passes
	g.reject(ana, "keep captain", "TC-2")
	if v := (Rules{}).View(g.s, bob).(View); v.Players[ana].Cards != nil || v.Players[ana].SetAside != nil {
		t.Fatal("Bob sees Ana's cards")
	}
	g.do(bob, "keep captain")
	g.coins(ana, 1)
	g.coins(bob, 2)
	for _, p := range g.s.Players {
		if len(p.Hidden) != 2 || len(p.SetAside) != 4 {
			t.Fatalf("%s holds %v, set aside %v", p.Name, p.Hidden, p.SetAside)
		}
	}
	if !slices.Contains(g.s.Players[ana].Hidden, Duke) {
		t.Fatal("Ana keeps her Duke")
	}
	if g.courtSize() != 3 {
		t.Fatalf("court %d", g.courtSize())
	}
	g.wantPending("turn", ana)
	g.refold()
}

// Scenario 10: factions (TC-27).
func TestScenario10_Factions_TC27(t *testing.T) {
	g := newGame(t, games.Options{"factions": "on"}, deal4(), nil)
	g.wantPending("faction", ana, bob, cal, dee)
	g.do(ana, "faction up")
	if v := (Rules{}).View(g.s, bob).(View); v.Players[ana].Faction != "" {
		t.Fatal("faction choices are secret until all are made")
	}
	g.do(bob, "faction up")
	g.do(cal, "faction down")
	g.do(dee, g.defaultOf(dee)) // odd seat: face down (TC-25j)
	if !g.s.FactionsPublic || g.s.Players[dee].FactionUp {
		t.Fatal("factions revealed, Dee face down")
	}
	g.reject(ana, "steal bob", "TC-27")
	if m, _ := (Rules{}).Parse(g.s, "steal cal"); !slices.Contains((Rules{}).Legal(g.s, ana), "steal Cal") {
		t.Fatal("Ana may steal from Cal (other faction)")
	} else if _, err := (Rules{}).Decide(g.s, ana, m, g.r); err != nil {
		t.Fatalf("steal cal rejected: %v", err)
	}
	g.do(ana, "defect")
	g.coins(ana, 1)
	for _, s := range []int{bob, cal, dee} {
		g.do(s, "income")
	}
	if !slices.Contains((Rules{}).Legal(g.s, ana), "steal Bob") {
		t.Fatal("after defecting Ana may steal from Bob")
	}
	g.reject(ana, "steal cal", "TC-27")

	// All living players face up: anyone may be targeted.
	g = newGame(t, games.Options{"factions": "on"}, deal4(), nil)
	for s := range 4 {
		g.do(s, "faction up")
	}
	g.do(ana, "steal bob")
}

// Scenario 11: Selective Coup (TC-28).
func TestScenario11_SelectiveCoup_TC28(t *testing.T) {
	hands := [][]Char{h(Assassin, Contessa), h(Duke, Captain), h(Captain, Ambassador), h(Duke, Contessa)}
	g := newGame(t, games.Options{"selective_coup": "on"}, hands, []int{7, 2, 2, 2})
	g.reject(ana, "coup bob", "TC-28")
	evs := g.do(ana, "coup bob contessa")
	g.coins(ana, 0)
	g.influence(bob, 2)
	shown := evs[len(evs)-1]
	if shown.Type != evCoupShown {
		t.Fatalf("%+v", evs)
	}
	if got := g.redact(shown, ana).Cards; !slices.Equal(got, h(Duke, Captain)) {
		t.Fatalf("Ana sees %v", got)
	}
	if got := g.redact(shown, cal).Cards; got != nil {
		t.Fatalf("Cal sees %v", got)
	}
	g = newGame(t, games.Options{"selective_coup": "on"}, hands, []int{7, 2, 2, 2})
	g.do(ana, "coup bob duke")
	if !slices.Equal(g.s.Players[bob].Lost, h(Duke)) {
		t.Fatalf("Bob lost %v", g.s.Players[bob].Lost)
	}
}

// Scenario 12: Blocking Contessa (TC-29).
func TestScenario12_BlockingContessa_TC29(t *testing.T) {
	g := newGame(t, games.Options{"blocking_contessa": "on"}, deal4(), nil)
	g.do(ana, "tax")
	g.allAllow()
	g.wantPending("block", bob, cal, dee)
	g.do(dee, "block contessa")
	g.do(ana, "challenge")
	g.do(dee, "reveal contessa")
	g.wantPending("lose", ana)
	evs := g.do(ana, "reveal captain")
	if !hasType(evs, evReplaced) || hasType(evs, evResolved) {
		t.Fatalf("%+v", evs)
	}
	g.coins(ana, 2)
	g.influence(ana, 1)
	g.influence(dee, 2)
	g.wantPending("turn", bob)

	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.reject(dee, "block contessa", "TC-29")
	g.allAllow()
	g.coins(ana, 5) // no W2
	g.wantPending("turn", bob)

	// Contessa does not block a Duke's block of Foreign Aid.
	g = newGame(t, games.Options{"blocking_contessa": "on"}, deal4(), nil)
	g.do(ana, "foreign aid")
	g.do(bob, "block duke")
	g.reject(cal, "block contessa", "TC-29")
	g.reject(ana, "block contessa", "TC-29")
}

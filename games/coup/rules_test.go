package coup

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// TestRules covers the rule ids the scenarios do not reach (section 3 and
// section 6 of the rules file, and the [HOUSE] rules of RULES.md).
func TestRules(t *testing.T) {
	tests := []struct {
		rule string
		test func(t *testing.T)
	}{
		{"TC-1", testSetupDeal},
		{"TC-3", testSeatOrder},
		{"TC-4", testTurnOrder},
		{"TC-6", testGeneralActions},
		{"TC-7", testBluffUnchallenged},
		{"TC-8", testTargets},
		{"TC-10", testExchangeTwo},
		{"TC-11", testNoGiving},
		{"TC-12", testOnlyClaims},
		{"TC-15", testProvenAndLoseOnPurpose},
		{"TC-19", testStealTargetChallengesThenBlocks},
		{"TC-21", testNoInfluence},
		{"TC-22", testGameEnd},
		{"TC-23", testWindowMembers},
		{"TC-25b_TC-25e_TC-25f", testWindowDefaults},
		{"TC-25g", testExchangeDefault},
		{"TC-26", testInquisitor},
		{"TC-26_2p", testInquisitorTwoPlayer},
		{"TC-30", testCosts},
		{"TC-31", testAnswersFinal},
		{"TC-32", testAutoAllow},
		{"TC-33", testLoseChoice},
		{"TC-34", testResign},
		{"options", testOptions},
	}
	for _, tc := range tests {
		t.Run(tc.rule, tc.test)
	}
}

func testSetupDeal(t *testing.T) {
	eng := New()
	for n := 2; n <= 6; n++ {
		for _, opt := range []string{"official", "standard"} {
			players := []string{"A", "B", "C", "D", "E", "F"}[:n]
			raw, err := eng.Setup(games.Options{"two_player_setup": opt}, players, rand.New(rand.NewPCG(uint64(n), 3)))
			if err != nil {
				t.Fatal(err)
			}
			st, err := games.Fold(eng, RulesVersion, raw)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			court := 0
			for _, c := range s.Court {
				court += c
			}
			if n == 2 && opt == "official" {
				if s.Stage != stKeep || court != 5 || s.Players[0].Coins != 1 || s.Players[1].Coins != 2 {
					t.Fatalf("2-player official setup: %+v court %d", s.Players, court)
				}
				continue
			}
			if court != 15-2*n {
				t.Fatalf("%d players: court %d", n, court)
			}
			for _, p := range s.Players {
				if len(p.Hidden) != 2 || p.Coins != 2 {
					t.Fatalf("%d players: %+v", n, p)
				}
			}
		}
	}
	if _, err := eng.Setup(nil, []string{"A"}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("1 player accepted")
	}
	if _, err := (Rules{}).Setup(nil, []string{"A", "B", "C", "D", "E", "F", "G"}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("7 players accepted")
	}
}

func testSeatOrder(t *testing.T) {
	eng := New()
	players := []string{"A", "B", "C", "D", "E"}
	orders := map[string]bool{}
	for i := range 20 {
		raw, err := eng.Setup(nil, players, rand.New(rand.NewPCG(uint64(i), 9)))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := games.Fold(eng, RulesVersion, raw)
		seated := eng.Players(s)
		if !slices.Equal(slices.Sorted(slices.Values(seated)), players) {
			t.Fatalf("seating %v", seated)
		}
		orders[strings.Join(seated, "")] = true
		if p := eng.Pending(s); len(p) != 1 || p[0].Seat != 0 || p[0].Kind != "turn" {
			t.Fatalf("seat 0 starts: %v", p)
		}
	}
	if len(orders) < 5 {
		t.Fatalf("seat order is not drawn at random: %v", orders)
	}
}

func testTurnOrder(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.reject(bob, "income", "TC-4")
	g.reject(ana, "pass", "TC-4")
	g.reject(ana, "allow", "TC-4")
	g.do(ana, "income")
	g.wantPending("turn", bob)
	g.do(bob, "tax")
	g.reject(bob, "income", "TC-4")
	g.reject(cal, "income", "TC-4")
}

func testGeneralActions(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
	g.do(ana, "income") // never blocked: no window
	g.coins(ana, 8)
	g.wantPending("turn", bob)
	g.do(bob, "income")
	g.do(cal, "income")
	g.do(dee, "income")
	g.do(ana, "coup cal") // not blockable, not challengeable: Cal loses at once
	g.coins(ana, 1)
	g.wantPending("lose", cal)
}

func testBluffUnchallenged(t *testing.T) {
	g := newGame(t, nil, deal4(), nil) // Ana has no Assassin, no Ambassador
	g.do(ana, "tax")
	g.allAllow()
	g.coins(ana, 5)
	g.do(bob, "exchange") // Bob has no Ambassador
	g.allAllow()
	g.wantPending("exchange", bob)
}

func testTargets(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
	g.reject(ana, "steal ana", "TC-8")
	g.reject(ana, "assassinate 0", "TC-8")
	g.rigLoss(bob, Assassin)
	g.rigLoss(bob, Contessa)
	g.reject(ana, "steal bob", "TC-21")
	evs := g.do(ana, "steal cal")
	if evs[0].Target != cal {
		t.Fatal("the target is named when the action is declared")
	}
	g.wantPending("challenge", cal, dee) // Bob, out, cannot respond
}

func testExchangeTwo(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "exchange")
	g.allAllow()
	v := (Rules{}).View(g.s, ana).(View)
	if len(v.Action.Drawn) != 2 {
		t.Fatalf("drew %v", v.Action.Drawn)
	}
	g.reject(ana, "keep duke", "TC-10")
	g.reject(ana, "keep duke duke", "TC-10")
	pool := append(slices.Clone(g.s.Players[ana].Hidden), g.s.Ctx.Drawn...)
	slices.Sort(pool)
	g.do(ana, "keep "+pool[3].String()+" "+pool[2].String())
	if !slices.Equal(g.s.Players[ana].Hidden, pool[2:]) || g.courtSize() != 7 {
		t.Fatalf("kept %v of %v; court %d", g.s.Players[ana].Hidden, pool, g.courtSize())
	}
}

func testNoGiving(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	for _, m := range []string{"give bob 2", "lend bob 1", "show duke", "reveal duke"} {
		m2, err := (Rules{}).Parse(g.s, m)
		if err == nil {
			_, err = (Rules{}).Decide(g.s, ana, m2, g.r)
		}
		if _, ok := games.AsRuleError(err); !ok {
			t.Fatalf("%q accepted", m)
		}
	}
}

func testOnlyClaims(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "foreign aid")
	g.reject(bob, "challenge", "TC-12")
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "steal bob")
	g.do(dee, "challenge") // an uninvolved player may challenge
	g.wantPending("answer", ana)
}

func testProvenAndLoseOnPurpose(t *testing.T) {
	hands := [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa)}
	g := newGame(t, nil, hands, nil)
	g.do(ana, "tax")
	g.do(cal, "challenge")
	g.reject(ana, "reveal assassin", "TC-15")
	g.do(ana, "reveal duke")
	g.do(cal, "reveal captain")
	g.coins(ana, 5) // proven: the tax goes on
	g.influence(ana, 2)
	if slices.Contains(g.s.Players[ana].Lost, Duke) {
		t.Fatal("a proven card is not lost")
	}
	// Lose on purpose: Ana holds the Duke but reveals her Captain.
	g = newGame(t, nil, hands, nil)
	g.do(ana, "tax")
	g.do(cal, "challenge")
	g.do(ana, "reveal captain")
	g.coins(ana, 2)
	if !slices.Equal(g.s.Players[ana].Lost, h(Captain)) {
		t.Fatal("Ana loses her Captain")
	}
	g.wantPending("turn", bob)
}

func testStealTargetChallengesThenBlocks(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "steal bob")
	g.do(bob, "challenge")
	g.do(ana, "reveal captain")
	g.do(bob, "reveal assassin")
	g.wantPending("block", bob)
	g.reject(cal, "allow", "TC-23")
	g.reject(cal, "block captain", "TC-14")
	g.reject(cal, "challenge", "TC-24")
	g.do(bob, "block ambassador")
	g.allAllow()
	g.coins(ana, 2)
	g.coins(bob, 2)
}

func testNoInfluence(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.rigLoss(cal, Captain)
	g.rigLoss(cal, Ambassador)
	g.do(ana, "tax")
	g.wantPending("challenge", bob, dee)
	g.reject(cal, "challenge", "TC-21")
	g.reject(cal, "auto-allow all on", "TC-21")
	if (Rules{}).Legal(g.s, cal) != nil {
		t.Fatal("an eliminated player has no legal move")
	}
	// An eliminated player sees the public part only.
	v := (Rules{}).View(g.s, cal).(View)
	for _, p := range v.Players {
		if p.Cards != nil {
			t.Fatal("Cal sees hidden cards")
		}
	}
	g.allAllow()
	g.do(bob, "income")
	g.wantPending("turn", dee) // Cal is skipped
	if _, err := (Rules{}).Resign(g.s, cal, g.r); err == nil {
		t.Fatal("an eliminated player cannot resign")
	}
}

func testGameEnd(t *testing.T) {
	hands := [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador)}
	g := newGame(t, nil, hands, []int{7, 2, 2})
	g.rigLoss(bob, Assassin)
	g.rigLoss(cal, Captain)
	g.do(ana, "coup bob")
	g.do(cal, "income")
	g.do(ana, "income")
	g.do(cal, "income")
	g.do(ana, "steal cal")
	g.do(cal, "challenge")
	g.do(ana, "reveal captain")
	r := (Rules{}).Result(g.s)
	if !r.Finished || !slices.Equal(r.Winners, []games.Seat{ana}) || r.Summary.String() != "Ana wins" || r.Summary.In("fr") != "Ana gagne" {
		t.Fatalf("%+v", r)
	}
	if len((Rules{}).Pending(g.s)) != 0 {
		t.Fatal("pending after the end")
	}
	g.reject(ana, "income", "TC-22")
	last := g.log[len(g.log)-1]
	if last.Type != evEnded || len(last.Court) != 9 || g.redact(last, games.Spectator).Hands == nil {
		t.Fatalf("the end reveals every card: %+v", last)
	}
	v := (Rules{}).View(g.s, games.Spectator).(View)
	if v.Players[ana].Cards == nil || len(v.Court) != 9 || *v.Winner != ana {
		t.Fatalf("everything is public at the end: %+v", v)
	}
}

func testWindowMembers(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "foreign aid")
	g.do(bob, "block duke")
	g.wantPending("block-challenge", ana, cal, dee) // the actor included, the blocker not
	g.reject(bob, "challenge", "TC-23")
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.reject(ana, "challenge", "TC-23")
	// A window with no eligible responder is skipped: nobody may block Tax.
	g.allAllow()
	g.wantPending("turn", bob)
}

func testWindowDefaults(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{3, 2, 2, 2})
	g.do(ana, "assassinate bob")
	for _, p := range (Rules{}).Pending(g.s) {
		if p.Rule != "TC-25b" || p.Default != "allow" || p.Kind != "challenge" {
			t.Fatalf("%+v", p)
		}
	}
	g.allAllow()
	g.do(bob, "block contessa")
	for _, p := range (Rules{}).Pending(g.s) {
		if p.Rule != "TC-25e" || p.Default != "allow" {
			t.Fatalf("%+v", p)
		}
	}
	g.do(ana, "challenge")
	p := (Rules{}).Pending(g.s)
	if len(p) != 1 || p[0].Rule != "TC-25c" || p[0].Default != "reveal contessa" {
		t.Fatalf("%+v", p)
	}
	g.do(bob, "reveal contessa") // proven: Ana loses one
	p = (Rules{}).Pending(g.s)
	if len(p) != 1 || p[0].Rule != "TC-25f" || p[0].Default != "reveal duke" || p[0].Seat != ana {
		t.Fatalf("%+v", p)
	}
	g.do(ana, p[0].Default)
	g.coins(ana, 0)
	g.influence(bob, 2)
}

func testExchangeDefault(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "exchange")
	g.allAllow()
	p := (Rules{}).Pending(g.s)
	if len(p) != 1 || p[0].Rule != "TC-25g" || p[0].Default != "keep duke captain" {
		t.Fatalf("%+v", p)
	}
	g.do(ana, p[0].Default)
	if !slices.Equal(g.s.Players[ana].Hidden, h(Duke, Captain)) {
		t.Fatal("the default keeps the current cards")
	}
}

func testInquisitor(t *testing.T) {
	opts := games.Options{"inquisitor": "on"}
	hands := [][]Char{h(Duke, Inquisitor), h(Captain, Contessa), h(Captain, Inquisitor), h(Duke, Contessa)}
	g := newGame(t, opts, hands, nil)
	g.reject(ana, "keep duke", "TC-10")
	// Exchange draws 1 card.
	g.do(ana, "exchange")
	g.allAllow()
	if len(g.s.Ctx.Drawn) != 1 {
		t.Fatalf("drawn %v", g.s.Ctx.Drawn)
	}
	g.reject(ana, "keep duke", "TC-26")
	g.do(ana, g.defaultOf(ana))
	// Examine: Bob shows a card to Ana only; Ana changes it.
	g.do(bob, "income")
	g.do(cal, "examine bob")
	g.allAllow()
	g.wantPending("show", bob)
	if g.defaultOf(bob) != "show captain" {
		t.Fatalf("TC-25h default %q", g.defaultOf(bob))
	}
	evs := g.do(bob, "show contessa")
	if g.redact(evs[0], cal).Char != Contessa || g.redact(evs[0], dee).Char != NoChar {
		t.Fatal("the shown card is for the Inquisitor only")
	}
	if v := (Rules{}).View(g.s, dee).(View); v.Action.Shown != NoChar {
		t.Fatal("Dee sees the examined card")
	}
	g.wantPending("examine", cal)
	if g.defaultOf(cal) != "return" {
		t.Fatal("TC-25h default return")
	}
	evs = g.do(cal, "change")
	ch := evs[0]
	if ch.Type != evChanged || g.redact(ch, cal).Drew != NoChar || g.redact(ch, bob).Drew == NoChar {
		t.Fatalf("the replacement is seen by its owner only: %+v", ch)
	}
	g.influence(bob, 2)
	// The Inquisitor blocks Steal; the Ambassador is not in the game.
	g.do(dee, "steal cal")
	g.allAllow()
	g.reject(cal, "block ambassador", "TC-14")
	g.do(cal, "block inquisitor")
	g.allAllow()
	g.coins(dee, 2)
	// Examine is not blockable, and Ambassador is not in the deck.
	g.do(ana, "examine bob")
	g.allAllow()
	g.wantPending("show", bob)
	g.do(bob, "show "+g.s.Players[bob].Hidden[0].String())
	g.do(ana, "return")
	g.wantPending("turn", bob)
	g.reject(bob, "examine bob", "TC-8")
	g2 := newGame(t, nil, deal4(), nil)
	g2.reject(ana, "examine bob", "TC-26")
	g.refold()
}

func testInquisitorTwoPlayer(t *testing.T) {
	g := newGame(t, games.Options{"inquisitor": "on"}, [][]Char{nil, nil}, []int{1, 2})
	if !slices.Contains(g.s.Players[ana].Set, Inquisitor) || slices.Contains(g.s.Players[ana].Set, Ambassador) {
		t.Fatalf("set %v", g.s.Players[ana].Set)
	}
	g.reject(ana, "keep ambassador", "TC-2")
	g.do(ana, "keep inquisitor")
	g.do(bob, "keep duke")
	g.wantPending("turn", ana)
}

func testCosts(t *testing.T) {
	g := newGame(t, games.Options{"factions": "on"}, deal4(), []int{2, 0, 6, 2})
	for s := range 4 {
		g.do(s, "faction up")
	}
	g.reject(ana, "assassinate bob", "TC-30")
	g.do(ana, "income")
	g.reject(bob, "defect", "TC-30")
	g.do(bob, "income")
	g.reject(cal, "coup ana", "TC-30")
	g.do(cal, "income")
	g.do(dee, "income")
	g.do(ana, "assassinate bob") // cost paid when declared
	g.coins(ana, 0)
}

func testAnswersFinal(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(bob, "allow")
	g.reject(bob, "challenge", "TC-31")
	g.reject(bob, "allow", "TC-31")
	g.do(cal, "allow")
	g.do(dee, "allow") // every responder allowed: closes at once
	g.wantPending("turn", bob)
	g.reject(dee, "challenge", "TC-31")
}

func testAutoAllow(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(bob, "auto-allow all on")
	g.reject(bob, "auto-allow block on", "TC-32")
	g.do(bob, "auto-allow block-challenge off")
	g.do(cal, "auto-allow challenge on")
	g.do(dee, "auto-allow challenge on")
	// Every responder has a standing allow: W1 and W2 close at once, also for
	// the target (Bob).
	evs := g.do(ana, "steal bob")
	if !hasType(evs, evResolved) {
		t.Fatalf("%+v", evs)
	}
	g.coins(ana, 4)
	g.coins(bob, 0)
	// A preference set while a window is open applies to later windows only.
	g.do(bob, "tax")
	g.wantPending("challenge", ana)
	g.do(ana, "auto-allow challenge on")
	g.wantPending("challenge", ana)
	g.do(ana, "allow")
	v := (Rules{}).View(g.s, games.Spectator).(View)
	if !slices.Equal(v.Players[ana].AutoAllow, []string{"challenge"}) {
		t.Fatalf("preferences are public: %+v", v.Players[ana])
	}
}

func testLoseChoice(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
	g.do(ana, "coup bob")
	g.reject(bob, "reveal duke", "TC-33")
	g.reject(cal, "reveal captain", "TC-33")
	g.do(bob, "lose contessa")
	if !slices.Equal(g.s.Players[bob].Lost, h(Contessa)) {
		t.Fatal("Bob chose his Contessa")
	}
	// With one card left the loss is automatic.
	g = newGame(t, nil, deal4(), []int{7, 2, 2, 2})
	g.rigLoss(bob, Contessa)
	evs := g.do(ana, "coup bob")
	if !hasType(evs, evLost) || !g.s.Players[bob].Out {
		t.Fatalf("%+v", evs)
	}
}

func testResign(t *testing.T) {
	// On one's own turn: cards face up, the turn passes.
	g := newGame(t, nil, deal4(), nil)
	evs, err := (Rules{}).Resign(g.s, ana, g.r)
	if err != nil {
		t.Fatal(err)
	}
	g.apply(evs)
	if !g.s.Players[ana].Out || len(g.s.Players[ana].Lost) != 2 {
		t.Fatal("Ana's cards are face up")
	}
	g.wantPending("turn", bob)
	// A responder leaving a window: the window closes if all others allowed.
	g.do(bob, "tax")
	g.do(cal, "allow")
	evs, _ = (Rules{}).Resign(g.s, dee, g.r)
	g.apply(evs)
	g.coins(bob, 5)
	g.wantPending("turn", cal)
	// The target leaving: the action has no further effect (TC-20).
	g.do(cal, "steal bob")
	evs, _ = (Rules{}).Resign(g.s, bob, g.r)
	g.apply(evs)
	r := (Rules{}).Result(g.s)
	if !r.Finished || r.Winners[0] != cal {
		t.Fatalf("%+v", r)
	}
	// 2-player setup: leaving while keeping ends the game.
	g = newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
	evs, _ = (Rules{}).Resign(g.s, bob, g.r)
	g.apply(evs)
	if r := (Rules{}).Result(g.s); !r.Finished || r.Winners[0] != ana {
		t.Fatalf("%+v", r)
	}
	if _, err := (Rules{}).Resign(g.s, ana, g.r); err == nil {
		t.Fatal("resign after the end")
	}
}

func testOptions(t *testing.T) {
	info := (Rules{}).Info()
	want := map[string]string{"two_player_setup": "official", "inquisitor": "off", "factions": "off",
		"selective_coup": "off", "blocking_contessa": "off", "failed_claim_cost": "refund"}
	if len(info.Options) != len(want) || info.MinSeats != 2 || info.MaxSeats != 6 || info.ID != "coup" {
		t.Fatalf("%+v", info)
	}
	for _, o := range info.Options {
		if want[o.Name] != o.Default || len(o.Values) != 2 {
			t.Fatalf("%+v", o)
		}
	}
	if _, err := (Rules{}).Setup(games.Options{"factions": "maybe"}, []string{"A", "B", "C"}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("bad option value accepted")
	}
	if _, err := (Rules{}).Setup(games.Options{"colour": "red"}, []string{"A", "B", "C"}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("unknown option accepted")
	}
}

// TestNotation parses every form and alias of section 7 and checks that
// Format round-trips (Parse(Format(m)) == m).
func TestNotation(t *testing.T) {
	g := newGame(t, nil, [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa), h(Assassin, Ambassador)}, nil)
	g.s.Players[4].Name = "Zoé Ann"
	tests := []struct{ in, canon string }{
		{"income", "income"},
		{"  INCOME ", "income"},
		{"foreign aid", "foreign aid"},
		{"aid", "foreign aid"},
		{"Foreign  Aid", "foreign aid"},
		{"coup bob", "coup Bob"},
		{"coup 1", "coup Bob"},
		{"coup 2 duke", "coup Cal duke"},
		{"coup bob jack", "coup Bob duke"},
		{"coup zoe ann", "coup Zoé Ann"},
		{"coup ZOÉ ANN queen", "coup Zoé Ann contessa"},
		{"tax", "tax"},
		{"exchange", "exchange"},
		{"steal bob", "steal Bob"},
		{"assassinate 3", "assassinate Dee"},
		{"examine cal", "examine Cal"},
		{"defect", "defect"},
		{"challenge", "challenge"},
		{"block contessa", "block contessa"},
		{"block king", "block captain"},
		{"block two", "block ambassador"},
		{"block duke", "block duke"},
		{"allow", "allow"},
		{"pass", "allow"},
		{"reveal duke", "reveal duke"},
		{"lose ace", "reveal assassin"},
		{"keep duke contessa", "keep duke contessa"},
		{"keep queen jack", "keep duke contessa"},
		{"keep assassin", "keep assassin"},
		{"keep inquisitor", "keep inquisitor"},
		{"show captain", "show captain"},
		{"return", "return"},
		{"change", "change"},
		{"faction up", "faction up"},
		{"faction down", "faction down"},
		{"auto-allow challenge on", "auto-allow challenge on"},
		{"auto-allow block off", "auto-allow block off"},
		{"auto-allow block-challenge on", "auto-allow block-challenge on"},
		{"Auto-Allow ALL on", "auto-allow all on"},
		{"auto allow all off", "auto-allow all off"},
	}
	r := Rules{}
	for _, tc := range tests {
		m, err := r.Parse(g.s, tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if got := r.Format(g.s, m); got != tc.canon {
			t.Fatalf("Format(Parse(%q)) = %q, want %q", tc.in, got, tc.canon)
		}
		back, err := r.Parse(g.s, tc.canon)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("Parse(Format(m)) = %+v, %v; want %+v", back, err, m)
		}
	}
	for _, bad := range []string{"", "coup", "coup nobody", "coup 9", "steal", "block", "block joker", "keep", "keep a b c",
		"faction", "faction left", "auto-allow", "auto-allow sometimes on", "auto-allow all maybe", "income now", "foreign", "bribe"} {
		if _, err := r.Parse(g.s, bad); err == nil {
			t.Fatalf("%q parsed", bad)
		} else if re, ok := games.AsRuleError(err); !ok || re.Rule != games.NotationRule {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	// A player whose name is a number or a keyword is written by seat number.
	g.s.Players[1].Name = "7"
	g.s.Players[2].Name = "Cal duke"
	g.s.Players[3].Name = "Cal"
	g.s.Opt.SelectiveCoup = true
	for _, m := range []Move{{Kind: MAction, Action: CoupAct, Target: 1}, {Kind: MAction, Action: CoupAct, Target: 3, Char: Duke}, {Kind: MAction, Action: CoupAct, Target: 2}} {
		f := r.Format(g.s, m)
		back, err := r.Parse(g.s, f)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("%q: %+v %v", f, back, err)
		}
	}
}

// TestEventJSON checks that every event type round-trips through JSON.
func TestEventJSON(t *testing.T) {
	e := Event{Type: evChanged, Seat: 2, Viewer: 1, Char: Contessa, Drew: Duke, Cards: h(Duke, Inquisitor), Hands: [][]Char{nil, h(Captain)}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Fatalf("%s → %+v %v", b, back, err)
	}
	if !strings.Contains(string(b), `"contessa"`) {
		t.Fatalf("characters are written by name: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"type":"lost","char":"joker"}`), &back); err == nil {
		t.Fatal("unknown character decoded")
	}
}

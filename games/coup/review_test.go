package coup

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// resign applies seat's resignation to the rigged game.
func (g *game) resign(seat int) []Event {
	g.t.Helper()
	evs, err := (Rules{}).Resign(g.s, games.Seat(seat), g.r)
	if err != nil {
		g.t.Fatalf("%s: resign rejected: %v", g.s.name(seat), err)
	}
	g.apply(evs)
	return evs
}

// TC-34: a player who leaves while someone else chooses their Exchange does
// not cancel that Exchange; only the actor leaving abandons it.
func TestResignDuringOthersExchange_TC34(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "exchange")
	g.allAllow()
	g.wantPending("exchange", ana)
	drawn := slices.Clone(g.s.Ctx.Drawn)
	g.resign(dee)
	g.wantPending("exchange", ana)
	if !slices.Equal(g.s.Ctx.Drawn, drawn) {
		t.Fatalf("Ana's drawn cards changed: %v, want %v", g.s.Ctx.Drawn, drawn)
	}
	pool := append(slices.Clone(g.s.Players[ana].Hidden), drawn...)
	slices.Sort(pool)
	g.do(ana, "keep "+pool[2].String()+" "+pool[3].String())
	if !slices.Equal(g.s.Players[ana].Hidden, pool[2:]) || g.courtSize() != 7 {
		t.Fatalf("Ana keeps %v of %v, court %d", g.s.Players[ana].Hidden, pool, g.courtSize())
	}
	g.wantPending("turn", bob)

	// The actor leaving abandons the Exchange: the drawn cards go back.
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "exchange")
	g.allAllow()
	g.resign(ana)
	if g.s.Ctx.Drawn != nil || g.courtSize() != 7 {
		t.Fatalf("drawn %v, court %d", g.s.Ctx.Drawn, g.courtSize())
	}
	g.wantPending("turn", bob)
	g.refold()
}

// TC-40, TC-22: a game that ends while an Exchange is being chosen shows
// every card at the end, the drawn ones included.
func TestEndDuringExchange_TC40(t *testing.T) {
	g := newGame(t, games.Options{"two_player_setup": "standard"}, [][]Char{h(Duke, Captain), h(Assassin, Contessa)}, nil)
	g.do(ana, "exchange")
	g.allAllow()
	g.wantPending("exchange", ana)
	g.resign(bob)
	last := g.log[len(g.log)-1]
	if last.Type != evEnded || len(last.Court) != 11 {
		t.Fatalf("ended event %+v", last)
	}
	v := (Rules{}).View(g.s, games.Spectator).(View)
	if len(v.Court) != 11 || v.CourtSize != 11 {
		t.Fatalf("the end view shows the Court %v (%d), want all 11 cards", v.Court, v.CourtSize)
	}
	if !slices.Equal(v.Court, last.Court) && !slices.Equal(slices.Sorted(slices.Values(v.Court)), slices.Sorted(slices.Values(last.Court))) {
		t.Fatalf("view Court %v, ended Court %v", v.Court, last.Court)
	}
	g.refold()
}

// Rule errors name the rule the move breaks: a challenge of a general action
// breaks TC-12 (not the window order), a block while the action's challenge
// is being settled breaks TC-13, a block of a Coup TC-14.
func TestResponseErrorIDs_TC12_TC13_TC14(t *testing.T) {
	g := newGame(t, nil, deal4(), []int{7, 2, 2, 2})
	g.do(ana, "foreign aid")
	g.reject(ana, "challenge", "TC-12") // the actor, not a W2 responder
	g.reject(bob, "challenge", "TC-12")
	g.allAllow()
	g.do(bob, "income")
	g.do(cal, "income")
	g.do(dee, "income")
	g.do(ana, "coup bob")
	g.wantPending("lose", bob)
	g.reject(cal, "challenge", "TC-12")
	g.reject(cal, "block contessa", "TC-14")

	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "steal bob")
	g.do(cal, "challenge")
	g.wantPending("answer", ana)
	g.reject(bob, "block captain", "TC-13") // the challenge is not settled yet
	g.reject(dee, "challenge", "TC-24")
	g.do(ana, "reveal captain")
	g.wantPending("lose", cal)
	g.reject(bob, "block captain", "TC-13")
	g.do(cal, "reveal captain")
	g.wantPending("block", bob)
	g.do(bob, "block captain")
}

// TC-34: the other cases of a player leaving during a turn.
func TestResignCases_TC34(t *testing.T) {
	// A challenged actor leaves: the claim fails, the action does not happen.
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(bob, "challenge")
	g.resign(ana)
	g.coins(ana, 2)
	g.wantPending("turn", bob)

	// A challenger leaves before the answer: the action goes on.
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(bob, "challenge")
	g.resign(bob)
	g.coins(ana, 5)
	g.wantPending("turn", cal)

	// The blocker leaves during W3: the block is void; the action resolves.
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "foreign aid")
	g.do(cal, "block duke")
	g.do(bob, "allow")
	g.resign(cal)
	g.coins(ana, 4)
	g.wantPending("turn", bob)

	// A challenger of a block leaves before the answer: the block stands.
	g = newGame(t, nil, deal4(), nil)
	g.do(ana, "foreign aid")
	g.do(cal, "block duke")
	g.do(dee, "challenge")
	g.resign(dee)
	g.coins(ana, 2)
	g.wantPending("turn", bob)

	// The target of an Examine leaves before showing: the turn ends.
	hands := [][]Char{h(Duke, Inquisitor), h(Captain, Contessa), h(Captain, Inquisitor), h(Duke, Contessa)}
	g = newGame(t, games.Options{"inquisitor": "on"}, hands, nil)
	g.do(ana, "examine bob")
	g.allAllow()
	g.wantPending("show", bob)
	g.resign(bob)
	g.wantPending("turn", cal)
	// The Inquisitor leaves while deciding: the turn ends.
	g = newGame(t, games.Options{"inquisitor": "on"}, hands, nil)
	g.do(ana, "examine bob")
	g.allAllow()
	g.do(bob, "show contessa")
	g.resign(ana)
	g.influence(bob, 2)
	g.wantPending("turn", bob)
	g.refold()
}

// TC-35: in the official 2-player setup both keep first, then each is dealt
// one Court card, then (with factions) the factions are chosen; with 3 or
// more players two_player_setup is ignored.
func TestTwoPlayerOrder_TC35(t *testing.T) {
	g := newGame(t, games.Options{"factions": "on"}, [][]Char{nil, nil}, []int{1, 2})
	g.wantPending("keep", ana, bob)
	g.do(bob, "keep contessa")
	g.wantPending("keep", ana)
	g.reject(ana, "faction up", "TC-27")
	evs := g.do(ana, "keep assassin")
	if !hasType(evs, evDealt) || hasType(evs, evFactions) {
		t.Fatalf("the deal follows both keeps: %+v", evs)
	}
	for _, p := range g.s.Players {
		if len(p.Hidden) != 2 {
			t.Fatalf("%s holds %v", p.Name, p.Hidden)
		}
	}
	g.wantPending("faction", ana, bob)
	g.do(ana, "faction up")
	g.do(bob, "faction down")
	g.wantPending("turn", ana)
	g.coins(ana, 1)

	eng := New()
	for _, opt := range []string{"official", "standard"} {
		raw, err := eng.Setup(games.Options{"two_player_setup": opt}, []string{"A", "B", "C"}, games.Seed{1}.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := games.Fold(eng, RulesVersion, raw)
		s := st.(*State)
		if s.Stage != stTurn || s.Players[0].Coins != 2 || len(s.Players[0].Hidden) != 2 {
			t.Fatalf("%s with 3 players: %+v", opt, s.Players[0])
		}
	}
}

// TC-36: answering a challenge is a move even with one unrevealed card.
func TestAnswerIsAMove_TC36(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.rigLoss(ana, Captain)
	g.do(ana, "tax")
	evs := g.do(bob, "challenge")
	if hasType(evs, evRevealed) {
		t.Fatalf("the answer was automatic: %+v", evs)
	}
	g.wantPending("answer", ana)
	if d := g.defaultOf(ana); d != "reveal duke" {
		t.Fatalf("default %q", d)
	}
	g.do(ana, "reveal duke")
	g.wantPending("lose", bob)
}

// TC-37: auto-allow may be sent by any living player at any time and is in
// Legal; a change that changes nothing is rejected; one set while a window
// is open applies from the next window.
func TestAutoAllowAnyTime_TC37(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	if l := (Rules{}).Legal(g.s, dee); !slices.Equal(l, []string{"auto-allow challenge on", "auto-allow block on", "auto-allow block-challenge on", "auto-allow all on"}) {
		t.Fatalf("Dee, not pending, may set preferences: %v", l)
	}
	g.reject(dee, "auto-allow all off", "TC-32")
	g.do(ana, "tax")
	g.do(dee, "auto-allow challenge on")
	g.wantPending("challenge", bob, cal, dee) // not for the open window
	g.allAllow()
	evs := g.do(bob, "exchange")
	if !slices.ContainsFunc(evs, func(e Event) bool { return e.Type == evAllow && e.Seat == dee && e.Auto }) {
		t.Fatalf("Dee's allow is recorded when the next window opens: %+v", evs)
	}
	g.wantPending("challenge", ana, cal)
}

// TC-38: every Court draw is recorded in its event (only its owner sees the
// card), the Court's content is never shown before the end, and a fold of
// the events needs no generator.
func TestCourtDrawsRecorded_TC38(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(bob, "challenge")
	g.do(ana, "reveal duke")
	evs := g.do(bob, "reveal assassin")
	i := slices.IndexFunc(evs, func(e Event) bool { return e.Type == evReplaced })
	if i < 0 || evs[i].Drew == NoChar || !slices.Contains(g.s.Players[ana].Hidden, evs[i].Drew) {
		t.Fatalf("the drawn card is in the event: %+v", evs)
	}
	if g.redact(evs[i], bob).Drew != NoChar || g.redact(evs[i], ana).Drew != evs[i].Drew {
		t.Fatal("the replacement is seen by its owner only")
	}
	for seat := games.Spectator; seat <= dee; seat++ {
		if v := (Rules{}).View(g.s, seat).(View); v.Court != nil || v.CourtSize != 7 {
			t.Fatalf("seat %d sees the Court %v", seat, v.Court)
		}
	}
	g.refold()
}

// TC-39: the proven card stays shown to everyone while the challenger
// chooses the influence they lose; then it is replaced.
func TestProvenCardShown_TC39(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(cal, "challenge")
	g.do(ana, "reveal duke")
	g.wantPending("lose", cal)
	for seat := games.Spectator; seat <= dee; seat++ {
		v := (Rules{}).View(g.s, seat).(View)
		if v.Action == nil || v.Action.Proven != Duke || v.Action.Loser == nil || *v.Action.Loser != cal {
			t.Fatalf("seat %d: %+v", seat, v.Action)
		}
	}
	evs := g.do(cal, "reveal ambassador")
	if evs[0].Type != evLost || evs[1].Type != evReplaced {
		t.Fatalf("the loss, then the replacement: %+v", evs)
	}
	if v := (Rules{}).View(g.s, games.Spectator).(View); v.Action != nil && v.Action.Proven != NoChar {
		t.Fatal("the proven card is shuffled in")
	}
	g.coins(ana, 5)
}

// TC-40: the end shows every hand, every set-aside card and the Court.
func TestEndShowsAll_TC40(t *testing.T) {
	g := newGame(t, nil, [][]Char{nil, nil}, []int{1, 2})
	g.do(ana, "keep duke")
	g.do(bob, "keep captain")
	g.resign(bob)
	last := g.log[len(g.log)-1]
	if last.Type != evEnded || len(last.SetAside[ana]) != 4 || len(last.SetAside[bob]) != 4 || len(last.Court) != 3 {
		t.Fatalf("ended %+v", last)
	}
	if red := g.redact(last, games.Spectator); !slices.Equal(red.SetAside[bob], last.SetAside[bob]) || red.Hands[ana] == nil {
		t.Fatal("the end is public")
	}
	v := (Rules{}).View(g.s, games.Spectator).(View)
	if !slices.Equal(v.Players[ana].SetAside, g.s.Players[ana].SetAside) || len(v.Players[ana].Cards) != 2 || len(v.Court) != 3 {
		t.Fatalf("the end view shows everything: %+v", v)
	}
}

// TC-34: the actor leaving while a block's challenge is being answered
// abandons the action: nothing is stolen for a player who is out.
func TestResignActorDuringBlockChallenge_TC34(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "steal bob")
	g.allAllow()
	g.do(bob, "block captain") // Bob has no Captain
	g.do(cal, "challenge")
	g.wantPending("answer", bob)
	g.resign(ana)
	g.wantPending("turn", bob)
	g.coins(bob, 2)
	g.influence(bob, 2)
	g.refold()
}

// TC-34: the loser of an influence leaving (the turn continues: the proven
// card is replaced and the action resolves), and a player leaving during the
// faction choice (the others' choices are revealed when all are in).
func TestResignLoserAndFaction_TC34(t *testing.T) {
	g := newGame(t, nil, deal4(), nil)
	g.do(ana, "tax")
	g.do(bob, "challenge")
	g.do(ana, "reveal duke")
	g.wantPending("lose", bob)
	evs := g.resign(bob)
	if !hasType(evs, evReplaced) {
		t.Fatalf("Ana's proven Duke is replaced: %+v", evs)
	}
	g.coins(ana, 5)
	g.wantPending("turn", cal)

	g = newGame(t, games.Options{"factions": "on"}, deal4()[:3], nil)
	g.do(ana, "faction up")
	g.resign(bob)
	g.wantPending("faction", cal)
	evs = g.do(cal, "faction down")
	if !hasType(evs, evFactions) || !g.s.FactionsPublic {
		t.Fatalf("factions revealed: %+v", evs)
	}
	g.wantPending("turn", ana)
	g.do(ana, "steal cal")
	g.refold()
}

package coyote

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// The scenarios of rules section 8: default deck; seats Ana 0, Bob 1, Cal 2,
// Dee 3, Eve 4 unless stated.

// countOf rigs n players wearing the given faces (then the pile's next
// faces), has seat 0 bid 1 and seat 1 call, and returns the count.
func countOf(t *testing.T, n int, top ...string) Count {
	t.Helper()
	tb := rig(t, n, nil, top...)
	tb.play("Ana", "bid 1")
	c := find(t, tb.play("Bob", "coyote"), EvCount).Count
	return *c
}

// Scenario 1: the text's example (CY-7, CY-5).
func TestScenario1_TextExample_CY7_CY5(t *testing.T) {
	for _, tc := range []struct {
		name        string
		feathers    []string
		total       int
		loser, next string
	}{
		{"total 14 < 16: Dee takes the token, Eve starts", []string{"1", "2", "3", "4", "4"}, 14, "Dee", "Eve"},
		{"total 16 or more: Eve takes it, Dee starts", []string{"1", "2", "3", "4", "6"}, 16, "Eve", "Dee"},
		{"total well above 16: Eve takes it, Dee starts", []string{"1", "2", "3", "4", "10"}, 20, "Eve", "Dee"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := rig(t, 5, nil, tc.feathers...)
			tb.play("Ana", "bid 8")
			tb.play("Bob", "13")
			tb.play("Cal", "bid 14")
			tb.play("Dee", "bid 16")
			evs := tb.play("Eve", "Coyote!")
			c := find(t, evs, EvCount).Count
			if c.Total != tc.total || c.Bid != 16 || c.Caller != tb.seat("Eve") || c.Bidder != tb.seat("Dee") {
				t.Fatalf("count %+v", c)
			}
			tok := find(t, evs, EvCoyote).Coyote
			if tok.Seat != tb.seat(tc.loser) || tb.s.Coyotes[tb.seat(tc.loser)] != 1 {
				t.Fatalf("token to seat %d, want %s", tok.Seat, tc.loser)
			}
			if d := find(t, evs, EvDeal).Deal; d.First != tb.seat(tc.next) || d.Round != 2 {
				t.Fatalf("round %d starts with seat %d, want %s", d.Round, d.First, tc.next)
			}
			tb.wantTurn(tc.next)
		})
	}
}

// Scenario 2: equality (CY-7): 23 ≥ 23, the caller takes the token.
func TestScenario2_Equality_CY7(t *testing.T) {
	tb := rig(t, 3, nil, "5", "8", "10")
	tb.play("Ana", "bid 23")
	evs := tb.play("Bob", "coyote")
	if c := find(t, evs, EvCount).Count; c.Total != 23 || c.Loser != tb.seat("Bob") {
		t.Fatalf("count %+v", c)
	}
	if tb.s.Coyotes[tb.seat("Bob")] != 1 || tb.s.Coyotes[tb.seat("Ana")] != 0 {
		t.Fatalf("tokens %v", tb.s.Coyotes)
	}
	tb.wantTurn("Ana") // the winner of the call starts (CY-5)
}

// Scenario 3: max0 (CY-8).
func TestScenario3_Max0_CY8(t *testing.T) {
	c := countOf(t, 4, "20", "15", "3", "max0")
	if c.Total != 18 || c.Lines[0].Note != "discarded by max0" || c.Lines[3].Note != "discarded by max0" {
		t.Fatalf("20, 15, 3, max0: %+v", c)
	}
	c = countOf(t, 4, "10", "10", "4", "max0")
	if c.Total != 14 {
		t.Fatalf("10, 10, 4, max0: total %d, want 14", c.Total)
	}
	discarded := 0
	for _, l := range c.Lines {
		if l.Feather.Face == "10" && l.Note != "" {
			discarded++
		}
	}
	if discarded != 1 {
		t.Fatalf("a tie discards only one 10: %+v", c.Lines)
	}
}

// Scenario 4: `?` acts first (CY-8, CY-16).
func TestScenario4_QuestionFirst_CY8_CY16(t *testing.T) {
	c := countOf(t, 4, "4", "3", "?", "max0", "20")
	if c.Total != 7 || len(c.Lines) != 5 || c.Lines[4].Feather.Face != "20" || c.Lines[4].From != "?" {
		t.Fatalf("? turns 20: %+v", c)
	}
	c = countOf(t, 4, "4", "3", "?", "max0", "x2")
	if c.Total != 6 {
		t.Fatalf("? turns x2: total %d, want 6 (%+v)", c.Total, c.Steps)
	}
	// max0 discards the 4 (and itself), x2 doubles the 3.
	if l := c.Lines; l[0].Note != "discarded by max0" || l[0].Value != 0 || l[1].Value != 6 || l[1].Note != "doubled by x2" ||
		l[3].Note != "discarded by max0" || l[4].Feather.Face != "x2" || l[4].From != "?" {
		t.Fatalf("? turns x2: lines %+v", l)
	}
	if steps := stepNumbers(c); !slices.IsSorted(steps) {
		t.Fatalf("steps out of order: %v", steps)
	}
}

func stepNumbers(c Count) []int {
	var out []int
	for _, s := range c.Steps {
		out = append(out, s.Step)
	}
	return out
}

// Scenario 5: -max negates the highest green (CY-9).
func TestScenario5_MinusMax_CY9(t *testing.T) {
	c := countOf(t, 4, "10", "5", "-5", "-max")
	if c.Total != -10 || c.Lines[0].Value != -10 {
		t.Fatalf("10, 5, -5, -max: %+v", c)
	}
}

// Scenario 6: every step (CY-8), 6 players; a bid of 1 called: the bidder
// takes the token.
func TestScenario6_AllSteps_CY8(t *testing.T) {
	tb := rig(t, 6, nil, "20", "15", "5", "max0", "-max", "x2")
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "coyote")
	c := find(t, evs, EvCount).Count
	if c.Total != -5 || c.Loser != tb.seat("Ana") {
		t.Fatalf("count %+v", c)
	}
	want := []int{0, 2, 3, 4, 6}
	if got := stepNumbers(*c); !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v: %+v", got, want, c.Steps)
	}
	values := map[string]int{}
	for _, l := range c.Lines {
		values[l.Feather.Face] = l.Value
	}
	if values["20"] != 0 || values["15"] != -15 || values["5"] != 10 {
		t.Fatalf("values %v", values)
	}
	if tb.s.Coyotes[tb.seat("Ana")] != 1 {
		t.Fatalf("Ana has %d tokens", tb.s.Coyotes[0])
	}
}

// Scenario 7: night (CY-11): worth 0; after the round all 30 feathers are
// reshuffled and the next deal draws from a 30-feather pile.
func TestScenario7_Night_CY11(t *testing.T) {
	tb := rig(t, 4, nil, "7", "-5", "night", "3")
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "coyote")
	if c := find(t, evs, EvCount).Count; c.Total != 5 || !c.Night {
		t.Fatalf("count %+v", c)
	}
	end := find(t, evs, EvRoundEnd).RoundEnd
	sh := find(t, evs, EvShuffle).Shuffle
	if !end.Night || sh.Reason != "night" || sh.Size != 30 || len(sh.Pile) != 30 {
		t.Fatalf("round end %+v, shuffle %+v", end, sh)
	}
	if len(tb.s.Pile) != 26 || len(tb.s.Discard) != 0 {
		t.Fatalf("after the deal: pile %d, discard %d", len(tb.s.Pile), len(tb.s.Discard))
	}
}

// Scenario 8: a short pile (CY-4): 4 living players and 3 feathers in the
// pile at a round's start: the 3 and the 27 discarded feathers are
// reshuffled; after the deal the pile holds 26.
func TestScenario8_ShortPile_CY4(t *testing.T) {
	tb := rig(t, 4, nil, "1", "2", "3", "4")
	// The previous rounds, in short: 23 feathers went to the discard (none is
	// night: the rigged pile has it at the end, in table order).
	tb.s.Discard, tb.s.Pile = slices.Clone(tb.s.Pile[:23]), slices.Clone(tb.s.Pile[23:])
	if len(tb.s.Pile) != 3 || slices.ContainsFunc(tb.s.Discard, func(id int) bool { return tb.s.Deck[id].Face == FaceNight }) {
		t.Fatalf("rig: pile %d", len(tb.s.Pile))
	}
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "coyote")
	sh := find(t, evs, EvShuffle).Shuffle
	if sh.Reason != "short" || sh.Size != 30 {
		t.Fatalf("shuffle %+v, want all 30 feathers reshuffled", sh)
	}
	if len(tb.s.Pile) != 26 || len(tb.s.Discard) != 0 {
		t.Fatalf("after the deal: pile %d, discard %d", len(tb.s.Pile), len(tb.s.Discard))
	}
}

// Scenario 9: bids and timeouts (CY-6, CY-30).
func TestScenario9_BidsAndTimeouts_CY6_CY30(t *testing.T) {
	tb := rig(t, 5, nil)
	r := Rules{}
	if p := r.Pending(tb.s); len(p) != 1 || p[0].Seat != 0 || p[0].Default != "bid 1" || p[0].Rule != "CY-30" {
		t.Fatalf("pending %+v: a silent first bidder bids 1", p)
	}
	tb.reject("Ana", "coyote", "CY-6")
	tb.reject("Ana", "bid 0", "CY-6")
	// A silent first bidder bids 1: the default is accepted and is that bid.
	silent := rig(t, 5, nil)
	if b := find(t, silent.play("Ana", r.Pending(silent.s)[0].Default), EvBid).Bid; b.Bid != 1 || b.Seat != 0 {
		t.Fatalf("the silent first bidder's default made %+v", b)
	}
	tb.play("Ana", "bid 12")
	tb.reject("Bob", "bid 12", "CY-6")
	tb.play("Bob", "bid 13")
	if p := r.Pending(tb.s); len(p) != 1 || p[0].Seat != 2 || p[0].Default != "coyote" {
		t.Fatalf("pending %+v: a silent later player calls", p)
	}
	evs := tb.play("Cal", r.Pending(tb.s)[0].Default)
	if c := find(t, evs, EvCount).Count; c.Caller != 2 || c.Bidder != 1 || c.Bid != 13 {
		t.Fatalf("count %+v", c)
	}
}

// Scenario 10: elimination (CY-10, CY-5).
func TestScenario10_Elimination_CY10_CY5(t *testing.T) {
	t.Run("third token eliminates; the winner starts with 4 players", func(t *testing.T) {
		tb := rig(t, 5, nil, "1", "2", "3", "4", "4")
		tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 3, Coyotes: 2}}) // Dee's earlier tokens
		tb.play("Ana", "bid 8")
		tb.play("Bob", "bid 13")
		tb.play("Cal", "bid 14")
		tb.play("Dee", "bid 16")
		evs := tb.play("Eve", "coyote")
		tok := find(t, evs, EvCoyote).Coyote
		if tok.Seat != 3 || tok.Coyotes != 3 || !tok.Eliminated || !tb.s.Out[3] {
			t.Fatalf("token %+v", tok)
		}
		d := find(t, evs, EvDeal).Deal
		if d.First != 4 || len(d.Worn) != 4 || slices.ContainsFunc(d.Worn, func(w Dealt) bool { return w.Seat == 3 }) {
			t.Fatalf("deal %+v", d)
		}
		tb.wantTurn("Eve")
		tb.reject("Dee", "bid 1", "CY-10")
		tb.play("Eve", "bid 1")
		tb.wantTurn("Ana")
		tb.play("Ana", "bid 2")
		tb.play("Bob", "bid 3")
		tb.play("Cal", "bid 4")
		tb.wantTurn("Eve") // Dee is skipped
	})
	t.Run("elimination 4 in a 4-player game: 3 tokens stay in", func(t *testing.T) {
		tb := rig(t, 4, games.Options{OptElimination: "4"}, "10", "10", "9", "8")
		tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 2, Coyotes: 2}})
		tb.play("Ana", "bid 1")
		tb.play("Bob", "bid 2")
		evs := tb.play("Cal", "coyote")
		if tok := find(t, evs, EvCoyote).Coyote; tok.Seat != 2 || tok.Coyotes != 3 || tok.Eliminated || tb.s.Out[2] {
			t.Fatalf("token %+v", tok)
		}
		if d := find(t, evs, EvDeal).Deal; len(d.Worn) != 4 {
			t.Fatalf("deal %+v", d)
		}
	})
	t.Run("elimination 4 for 5 players is rejected at setup", func(t *testing.T) {
		for _, elim := range []string{"4", "5"} {
			_, err := Rules{}.Setup(games.Options{OptElimination: elim}, fiveNames[:5], rand.New(rand.NewPCG(1, 1)))
			if re, ok := games.AsRuleError(err); !ok || re.Rule != "CY-10" {
				t.Fatalf("elimination %s, 5 players: %v", elim, err)
			}
			if _, err := New().Setup(games.Options{OptElimination: elim}, fiveNames[:5], rand.New(rand.NewPCG(1, 1))); err == nil {
				t.Fatalf("engine accepted elimination %s for 5 players", elim)
			}
		}
		for n := 3; n <= 4; n++ {
			if _, err := New().Setup(games.Options{OptElimination: "5"}, fiveNames[:n], rand.New(rand.NewPCG(1, 1))); err != nil {
				t.Fatalf("elimination 5, %d players: %v", n, err)
			}
		}
	})
}

// Scenario 11: reverse and skip (CY-12b, CY-12c, CY-19).
func TestScenario11_ReverseAndSkip_CY12_CY19(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"})
	tb.play("Ana", "bid 5")
	tb.play("Bob", "reverse")
	tb.reject("Bob", "skip", "CY-12") // one token per turn
	tb.play("Bob", "bid 7")
	tb.wantTurn("Ana")
	tb.play("Ana", "skip")
	tb.wantTurn("Dee")
	evs := tb.play("Dee", "coyote")
	if c := find(t, evs, EvCount).Count; c.Caller != 3 || c.Bidder != 1 || c.Bid != 7 {
		t.Fatalf("Dee calls on Bob's 7: %+v", c)
	}
	if tb.s.Dir != 1 || slices.Contains(tb.s.Flipped, true) {
		t.Fatalf("next round: direction %d, flipped %v", tb.s.Dir, tb.s.Flipped)
	}
	first := tb.s.Turn
	tb.play(tb.turn(), "bid 1")
	if want := tb.s.next(first); tb.s.Turn != want || want != (first+1)%4 {
		t.Fatalf("next round is not clockwise: %d after %d", tb.s.Turn, first)
	}
}

// Scenario 12: declare and replace (CY-12d, CY-12e).
func TestScenario12_DeclareAndReplace_CY12(t *testing.T) {
	on := games.Options{OptVariantTokens: "on"}
	t.Run("a right declaration withdraws", func(t *testing.T) {
		tb := rig(t, 5, on, "1", "2", "7", "3", "4")
		tb.play("Ana", "bid 5")
		tb.play("Bob", "bid 6")
		evs := tb.play("Cal", "declare 7")
		if f := find(t, evs, EvFlip).Flip; !*f.Right || f.Feather.Face != "7" || f.Named != "7" {
			t.Fatalf("flip %+v", f)
		}
		if own := (Rules{}).View(tb.s, 2).(View).Players[2]; own.Feather == nil || own.Feather.Face != "7" || !own.Withdrawn {
			t.Fatalf("Cal's feather is not face up: %+v", own)
		}
		tb.wantTurn("Dee")
		tb.play("Dee", "bid 7")
		tb.play("Eve", "bid 8")
		tb.play("Ana", "bid 9")
		tb.play("Bob", "bid 10")
		tb.wantTurn("Dee")                  // Cal is skipped
		tb.reject("Cal", "bid 20", "CY-15") // the turn-order rule: the withdrawn are skipped
		tb.reject("Cal", "coyote", "CY-15")
		if l := (Rules{}).Legal(tb.s, 2); l != nil {
			t.Fatalf("withdrawn Cal has legal moves %v", l)
		}
		// Cal's feather lies face up: every seat, spectators included, sees it.
		for seat := games.Spectator; seat < 5; seat++ {
			if p := (Rules{}).View(tb.s, seat).(View).Players[2]; p.Feather == nil || p.Feather.Face != "7" || p.Hidden {
				t.Fatalf("seat %d does not see Cal's face-up 7: %+v", seat, p)
			}
		}
		evs = tb.play("Dee", "coyote")
		c := find(t, evs, EvCount).Count
		if c.Total != 17 || c.Lines[2].From != "withdrawn" || c.Lines[2].Value != 7 {
			t.Fatalf("count %+v", c)
		}
		// Cal cannot take this round's token: the call is between Dee and Bob.
		if tok := find(t, evs, EvCoyote).Coyote; tok.Seat != 3 || c.Loser != 3 || c.Bidder != 1 || tb.s.Coyotes[2] != 0 {
			t.Fatalf("token %+v, count %+v, Cal's tokens %d", tok, c, tb.s.Coyotes[2])
		}
	})
	t.Run("a wrong declaration takes a token and ends the round", func(t *testing.T) {
		tb := rig(t, 5, on, "1", "2", "9", "3", "4")
		tb.play("Ana", "bid 5")
		tb.play("Bob", "bid 6")
		evs := tb.play("Cal", "declare 7")
		if f := find(t, evs, EvFlip).Flip; *f.Right || f.Feather.Face != "9" {
			t.Fatalf("flip %+v", f)
		}
		if has(evs, EvCount, "") || !has(evs, EvRoundEnd, "") {
			t.Fatalf("events %v: the round ends without a count", types(evs))
		}
		if tok := find(t, evs, EvCoyote).Coyote; tok.Seat != 2 || tb.s.Coyotes[2] != 1 {
			t.Fatalf("token %+v", tok)
		}
		if d := find(t, evs, EvDeal).Deal; d.First != 2 {
			t.Fatalf("Cal does not start the next round: %+v", d)
		}
	})
	t.Run("replace: the night left behind is not counted but reshuffles", func(t *testing.T) {
		tb := rig(t, 5, on, "1", "night", "2", "3", "4", "10")
		tb.play("Ana", "bid 5")
		tb.play("Bob", "replace")
		if tb.worn("Bob") != "10" || len(tb.s.Replaced[1]) != 1 {
			t.Fatalf("Bob wears %s", tb.worn("Bob"))
		}
		tb.play("Bob", "bid 6")
		evs := tb.play("Cal", "coyote")
		c := find(t, evs, EvCount).Count
		if c.Total != 20 || c.Night || slices.ContainsFunc(c.Lines, func(l CountLine) bool { return l.Feather.Face == FaceNight }) {
			t.Fatalf("count %+v", c)
		}
		if !find(t, evs, EvRoundEnd).RoundEnd.Night || find(t, evs, EvShuffle).Shuffle.Reason != "night" {
			t.Fatalf("events %v: night must reshuffle", types(evs))
		}
		if len(tb.s.Pile) != 30-5 {
			t.Fatalf("pile %d after a night reshuffle and a deal", len(tb.s.Pile))
		}
	})
	t.Run("with two living players every token is rejected", func(t *testing.T) {
		tb := rig(t, 3, on, "1", "2", "3")
		tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 2, Coyotes: 2}})
		tb.play("Ana", "bid 1")
		tb.play("Bob", "bid 2")
		tb.play("Cal", "bid 50")
		tb.play("Ana", "coyote") // Cal is out
		if tb.s.living() != 2 {
			t.Fatalf("living %d", tb.s.living())
		}
		for _, m := range []string{"reveal", "reverse", "skip", "replace", "declare 5"} {
			tb.reject(tb.turn(), m, "CY-12")
		}
		if slices.ContainsFunc((Rules{}).Legal(tb.s, tb.s.Turn), func(m string) bool { return !strings.HasPrefix(m, "bid ") && m != "coyote" }) {
			t.Fatalf("legal %v", Rules{}.Legal(tb.s, tb.s.Turn))
		}
	})
}

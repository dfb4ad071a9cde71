package coyote

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Tests of the [HOUSE] clarifications of RULES.md that have no id of their own, and
// of rules the other tests reach only in passing.

// rigDeck is rig with a replaced deck table (RULES.md [HOUSE]: several copies of a
// blue face are possible with a replaced data table).
func rigDeck(t *testing.T, n int, deck []Feather, top ...string) *table {
	t.Helper()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	tb := &table{t: t, rng: rand.New(rand.NewPCG(3, 4))}
	tb.emit(Event{Type: EvSetup, Setup: &SetupEvent{Players: fiveNames[:n], Order: order, Deck: "custom", Feathers: deck, Elimination: 3}})
	tb.emit(Event{Type: EvShuffle, Shuffle: &ShuffleEvent{Reason: "start", Pile: pileWith(t, deck, top), Size: len(deck)}})
	b := newBuilder(tb.s.clone(), tb.rng)
	b.deal(0)
	for _, e := range b.evs {
		tb.emit(e)
	}
	return tb
}

// withCopies is the feathers-30 table with some green feathers turned into
// extra copies of blue faces.
func withCopies(t *testing.T, extra ...string) []Feather {
	t.Helper()
	deck, err := LoadDeck(DeckFeathers30)
	if err != nil {
		t.Fatal(err)
	}
	for i, face := range extra {
		deck[i] = Feather{ID: i, Face: face, Colour: Blue}
	}
	return deck
}

// RULES.md [HOUSE] "Ties (CY-8)": max0 and -max take the first of the tied highest
// green feathers in counting order (seats in order, then face-up feathers).
func TestTies_CY8_House(t *testing.T) {
	c := countOf(t, 4, "10", "10", "4", "max0")
	if c.Lines[0].Note != "discarded by max0" || c.Lines[1].Note != "" || c.Lines[1].Value != 10 {
		t.Fatalf("max0 on 10, 10: %+v", c.Lines)
	}
	c = countOf(t, 4, "4", "10", "10", "-max")
	if c.Total != 4 || c.Lines[1].Value != -10 || c.Lines[2].Value != 10 {
		t.Fatalf("-max on 10, 10: total %d, %+v", c.Total, c.Lines)
	}
}

// RULES.md [HOUSE] "Several copies of a blue face" (CY-8, CY-16): each copy acts in its
// step; a `?` turned by `?` turns another feather.
func TestBlueCopies_CY8_CY16_House(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra []string
		faces []string
		total int
	}{
		{"two max0 discard the two highest greens", []string{FaceMax0}, []string{"20", "15", "10", "5", "max0", "max0"}, 15},
		{"two -max negate the two highest greens", []string{FaceMinusMax}, []string{"10", "5", "3", "-max", "-max"}, -12},
		{"two x2 double twice", []string{FaceDouble}, []string{"3", "x2", "x2"}, 12},
		{"two x2 leave the negated alone", []string{FaceDouble}, []string{"10", "3", "-max", "x2", "x2"}, 2},
		{"a ? turned by ? turns again", []string{FaceQuestion}, []string{"2", "?", "3", "?", "20"}, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.faces)
			if tc.extra[0] == FaceQuestion {
				n = 3 // 2, ?, 3 worn; the pile's top is ? then 20
			}
			tb := rigDeck(t, n, withCopies(t, tc.extra...), tc.faces...)
			tb.play("Ana", "bid 1")
			evs := tb.play("Bob", "coyote")
			c := find(t, evs, EvCount).Count
			if c.Total != tc.total {
				t.Fatalf("total %d, want %d: %+v", c.Total, tc.total, c.Steps)
			}
			if steps := stepNumbers(*c); !slices.IsSorted(steps) {
				t.Fatalf("steps out of order: %v", steps)
			}
		})
	}
}

// RULES.md [HOUSE] "Deal order (CY-4)": from the round's first bidder (CY-5) clockwise,
// each living player takes the top feather of the pile.
func TestDealOrder_CY4_CY5_House(t *testing.T) {
	tb := rig(t, 5, nil, "1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
	tb.play("Ana", "bid 1")
	tb.play("Bob", "bid 100")
	evs := tb.play("Cal", "coyote") // 15 < 100: Bob takes the token, Cal starts
	d := find(t, evs, EvDeal).Deal
	var seats []games.Seat
	var faces []string
	for _, w := range d.Worn {
		seats = append(seats, w.Seat)
		faces = append(faces, w.Feather.Face)
	}
	if d.First != 2 || !slices.Equal(seats, []games.Seat{2, 3, 4, 0, 1}) || !slices.Equal(faces, []string{"6", "7", "8", "9", "10"}) {
		t.Fatalf("deal from Cal clockwise: first %d, seats %v, faces %v", d.First, seats, faces)
	}
}

// RULES.md [HOUSE] "Night (CY-11)": night turned face up by `?` reshuffles all the
// feathers after the round; so does night worn when a resignation ends the
// round (CY-33).
func TestNightAnywhere_CY11_House(t *testing.T) {
	tb := rig(t, 3, nil, "5", "?", "1", "night")
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "coyote")
	if c := find(t, evs, EvCount).Count; c.Total != 6 || !c.Night {
		t.Fatalf("count %+v", c)
	}
	if !find(t, evs, EvRoundEnd).RoundEnd.Night || !has(evs, EvShuffle, "night") || len(tb.s.Pile) != 27 {
		t.Fatalf("events %v, pile %d: night turned by ? must reshuffle all 30", types(evs), len(tb.s.Pile))
	}

	tb = rig(t, 4, nil, "5", "night", "1", "2")
	tb.play("Ana", "bid 3")
	evs, err := Rules{}.Resign(tb.s, 3, tb.rng) // Dee resigns while Bob is to play
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tb.emit(e)
	}
	if got := types(evs); !slices.Equal(got, []string{EvResign, EvRoundEnd, EvShuffle, EvDeal}) || !has(evs, EvShuffle, "night") {
		t.Fatalf("events %v", got)
	}
	if len(tb.s.Pile) != 30-3 || tb.s.Coyotes[1] != 0 {
		t.Fatalf("pile %d after a night reshuffle and a 3-player deal; tokens %v", len(tb.s.Pile), tb.s.Coyotes)
	}
	tb.wantTurn("Bob")
}

// RULES.md [HOUSE] "A withdrawn player" (section 5, CY-12d, CY-12e): after declaring
// right, a player sees their own face-up feather but still not the one their
// replaced feather left behind; the others see both; spectators see the
// face-up one only.
func TestWithdrawnReplaced_Section5_House(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"}, "1", "2", "3", "4", "5")
	tb.play("Ana", "bid 1")
	tb.play("Bob", "replace") // Bob wears 5, the 2 lies behind it
	tb.play("Bob", "bid 2")
	tb.play("Cal", "bid 3")
	tb.play("Dee", "bid 4")
	tb.play("Ana", "bid 5")
	tb.play("Bob", "declare 5")
	if !tb.s.Withdrawn[1] {
		t.Fatal("Bob did not withdraw")
	}
	for seat := games.Spectator; seat < 4; seat++ {
		p := (Rules{}).View(tb.s, seat).(View).Players[1]
		if p.Feather == nil || p.Feather.Face != "5" || p.ReplacedCount != 1 {
			t.Fatalf("seat %d: Bob's face-up feather %+v", seat, p)
		}
		if see := seat >= 0 && seat != 1; (len(p.Replaced) == 1 && p.Replaced[0].Face == "2") != see {
			t.Fatalf("seat %d sees Bob's replaced feather: %+v", seat, p.Replaced)
		}
	}
}

// Section 5: a seat eliminated sees only the public part, like a
// spectator: no worn feather in its view or in its copy of the deal.
func TestEliminatedSeesPublic_Section5(t *testing.T) {
	tb := rig(t, 4, nil, "1", "2", "3", "4")
	tb.emit(Event{Type: EvCoyote, Coyote: &TakeEvent{Seat: 3, Coyotes: 2}})
	tb.play("Ana", "bid 1")
	tb.play("Bob", "bid 2")
	tb.play("Cal", "bid 3")
	tb.play("Dee", "bid 50")
	evs := tb.play("Ana", "coyote") // 10 < 50: Dee is out
	if !tb.s.Out[3] {
		t.Fatal("Dee is not out")
	}
	deal := find(t, evs, EvDeal)
	spectator := viewJSON(t, tb.s, games.Spectator)
	v := (Rules{}).View(tb.s, 3).(View)
	for _, p := range v.Players {
		if p.Feather != nil || len(p.Replaced) > 0 || (p.Seat != 3) != p.Hidden {
			t.Fatalf("eliminated Dee sees %+v", p)
		}
	}
	v.Seat = games.Spectator // apart from the seat, Dee's view is the spectators'
	if got, err := json.Marshal(v); err != nil || string(got) != spectator {
		t.Fatalf("eliminated Dee's view %s\nspectator's %s", got, spectator)
	}
	for _, w := range tb.redact(deal, 3).Deal.Worn {
		if w.Feather != nil {
			t.Fatalf("eliminated Dee's copy of the deal shows %+v", w)
		}
	}
	// The round just counted is public to everyone, Dee included.
	for seat := games.Spectator; seat < 4; seat++ {
		if e := tb.redact(find(t, evs, EvRoundEnd), seat).RoundEnd; len(e.Feathers) != 4 {
			t.Fatalf("seat %d: round end %+v", seat, e)
		}
	}
}

// Section 5, "Becomes public": at the end of a round all of its feathers,
// the replaced one and its replacement included, are in every seat's copy.
func TestRoundEndPublic_Section5_CY11(t *testing.T) {
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"}, "1", "2", "3", "4")
	tb.play("Ana", "replace") // Ana wears 4; her 1 lies behind it
	tb.play("Ana", "bid 1")
	evs := tb.play("Bob", "coyote")
	for seat := games.Spectator; seat < 3; seat++ {
		e := tb.redact(find(t, evs, EvRoundEnd), seat).RoundEnd
		var faces []string
		for _, f := range e.Feathers {
			faces = append(faces, f.Face)
		}
		slices.Sort(faces)
		if !slices.Equal(faces, []string{"1", "2", "3", "4"}) {
			t.Fatalf("seat %d: round end shows %v", seat, faces)
		}
	}
	if c := find(t, evs, EvCount).Count; c.Total != 9 {
		t.Fatalf("the replaced 1 is not counted: total %d, want 4+2+3", c.Total)
	}
	// RULES.md [HOUSE] "History in the view": the count stays in every view, public.
	for seat := games.Spectator; seat < 3; seat++ {
		if lc := (Rules{}).View(tb.s, seat).(View).LastCount; lc == nil || lc.Total != 9 || lc.Loser != 1 {
			t.Fatalf("seat %d: last count %+v", seat, lc)
		}
	}
}

// RULES.md [HOUSE] "Shuffles": the pile is a shuffle of the feather ids in ascending
// order by the game's generator, so the seed revealed at the end lets anyone
// recompute it (rules README, Randomness).
func TestShufflesRecomputable_CY18_House(t *testing.T) {
	var seed games.Seed
	copy(seed[:], "a seed revealed at the end!")
	evs, err := New().Setup(map[string]string{OptDeck: DeckFeathers30, OptElimination: "3", OptVariantTokens: "off"},
		[]string{"Ana", "Bob", "Cal", "Dee"}, seed.Rand(3))
	if err != nil {
		t.Fatal(err)
	}
	var sh Event
	if err := json.Unmarshal(evs[1].Data, &sh); err != nil || sh.Shuffle == nil {
		t.Fatalf("second setup event: %s %v", evs[1].Type, err)
	}
	r := seed.Rand(3)
	games.Shuffle(r, []int{0, 1, 2, 3}) // the seating is drawn first (CY-14)
	ids := make([]int, 30)
	for i := range ids {
		ids[i] = i
	}
	if want := games.Shuffle(r, ids); !slices.Equal(sh.Shuffle.Pile, want) {
		t.Fatalf("pile %v, recomputed %v", sh.Shuffle.Pile, want)
	}
	// A later reshuffle sorts the ids first, whatever order they lay in.
	b := newBuilder(rig(t, 3, nil).s.clone(), rand.New(rand.NewPCG(5, 5)))
	b.shuffle("short", []int{9, 2, 7, 4})
	if want := games.Shuffle(rand.New(rand.NewPCG(5, 5)), []int{2, 4, 7, 9}); !slices.Equal(b.evs[0].Shuffle.Pile, want) {
		t.Fatalf("pile %v, want %v", b.evs[0].Shuffle.Pile, want)
	}
}

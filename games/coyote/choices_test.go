package coyote

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// Choices on the states with the most legal moves (CY-6, CY-12, CY-19,
// CY-32): every token, every declaration and some 250 bids fit in at most
// games.MaxChoices lines, the call first, and cover Legal exactly.
func TestChoices_WorstCases(t *testing.T) {
	on := games.Options{OptVariantTokens: "on"}
	declares30 := []string{"declare -10", "declare -5", "declare 1 … 10", "declare 15", "declare 20",
		"declare ?", "declare max→0", "declare -max", "declare ×2", "declare night"}
	for _, tc := range []struct {
		name  string
		tb    func(t *testing.T) *table
		legal int
		want  []string
	}{
		{
			name:  "feathers-30, first bid of the round: every token and bid 1 to 250",
			tb:    func(t *testing.T) *table { return rig(t, 6, on) },
			legal: 4 + 19 + 250,
			want:  append([]string{"bid 1", "bid 2 … 250", "reveal", "reverse", "skip", "replace"}, declares30...),
		},
		{
			name: "feathers-30, another's bid: the call comes first",
			tb: func(t *testing.T) *table {
				tb := rig(t, 6, on)
				tb.play("Ana", "bid 12")
				return tb
			},
			legal: 1 + 4 + 19 + 238,
			want:  append([]string{"coyote", "bid 13", "bid 14 … 250", "reveal", "reverse", "skip", "replace"}, declares30...),
		},
		{
			name: "first-edition-36: the 0 to 5 run is one range",
			tb: func(t *testing.T) *table {
				tb := rig(t, 6, games.Options{OptVariantTokens: "on", OptDeck: DeckFirstEdition36})
				tb.play("Ana", "bid 1")
				return tb
			},
			legal: 1 + 4 + 15 + 279,
			want: []string{"coyote", "bid 2", "bid 3 … 280", "reveal", "reverse", "skip", "replace",
				"declare -10", "declare -5", "declare 0 … 5", "declare 10", "declare 15", "declare 20",
				"declare ×2", "declare max→0", "declare ?", "declare night"},
		},
		{
			name: "own bid standing at the cap after two skips: one more, no call, no declaration (CY-32, CY-19)",
			tb: func(t *testing.T) *table {
				tb := rig(t, 3, on)
				tb.play("Ana", "bid 250")
				tb.play("Bob", "skip")
				tb.play("Cal", "skip")
				return tb
			},
			legal: 3 + 1,
			want:  []string{"bid 251", "reveal", "reverse", "replace"},
		},
		{
			name: "variant off, after bid 247: the last bids stand alone",
			tb: func(t *testing.T) *table {
				tb := rig(t, 3, nil)
				tb.play("Ana", "bid 247")
				return tb
			},
			legal: 1 + 3,
			want:  []string{"coyote", "bid 248", "bid 249", "bid 250"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := tc.tb(t)
			legal := Rules{}.Legal(tb.s, tb.s.Turn)
			got := Rules{}.Choices(tb.s, tb.s.Turn)
			if len(legal) != tc.legal {
				t.Errorf("%d legal moves, want %d", len(legal), tc.legal)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("choices %q\nwant    %q", got, tc.want)
			}
			if !gametest.CheckChoices(t, New(), tb.s, tb.s.Turn) {
				t.Fatal("CheckChoices failed")
			}
			// The default move is among the first two lines.
			if def := (Rules{}).Pending(tb.s)[0].Default; !slices.Contains(got[:2], def) {
				t.Errorf("default %q is not among the first lines %q", def, got[:2])
			}
		})
	}
}

// Nobody but the seat to play has choices; neither after the game.
func TestChoices_NotYourTurn_CY15(t *testing.T) {
	tb := rig(t, 3, nil)
	for _, seat := range []games.Seat{games.Spectator, 1, 2, 9} {
		if c := (Rules{}).Choices(tb.s, seat); c != nil {
			t.Errorf("seat %d: choices %q", seat, c)
		}
	}
	if c := (Rules{}).Choices(Rules{}.Initial(RulesVersion), 0); c != nil {
		t.Errorf("before the game: %q", c)
	}
}

// A replaced deck table with many faces and no runs: the declarations
// would not fit, so they become the one line "declare <face>" (RULES.md,
// "The list of choices"); every other line is still legal.
func TestChoices_DeclareBlank(t *testing.T) {
	var deck []Feather
	for i := range 30 { // greens 1, 3, 5, …, 59: no two consecutive
		v := 2*i + 1
		deck = append(deck, Feather{ID: i, Face: strconv.Itoa(v), Colour: Green, Value: v})
	}
	tokens, err := LoadVariantTokens()
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, rng: rand.New(rand.NewPCG(1, 2))}
	tb.emit(Event{Type: EvSetup, Setup: &SetupEvent{Players: fiveNames[:3], Order: []int{0, 1, 2}, Deck: "custom",
		Feathers: deck, Elimination: 3, Variant: true, Tokens: tokens}})
	tb.emit(Event{Type: EvShuffle, Shuffle: &ShuffleEvent{Reason: "start", Pile: pileWith(t, deck, nil), Size: len(deck)}})
	b := newBuilder(tb.s.clone(), tb.rng)
	b.deal(0)
	for _, e := range b.evs {
		tb.emit(e)
	}
	got := Rules{}.Choices(tb.s, 0)
	want := []string{"bid 1", "bid 2 … 900", "reveal", "reverse", "skip", "replace", "declare <face>"}
	if !slices.Equal(got, want) {
		t.Fatalf("choices %q, want %q", got, want)
	}
	if !gametest.CheckChoices(t, New(), tb.s, 0) {
		t.Fatal("CheckChoices failed")
	}
}

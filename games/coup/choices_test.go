package coup

import (
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// deal6 is a 6-player deal with the Inquisitor (Ambassadors out).
func deal6() [][]Char {
	return [][]Char{h(Duke, Inquisitor), h(Captain, Contessa), h(Captain, Inquisitor), h(Duke, Contessa), h(Assassin, Assassin), h(Duke, Captain)}
}

// TestChoicesWorstCases builds the states with the most legal moves (a turn
// with five targets and every option that adds actions) and checks that
// Choices fits games.MaxChoices lines, covers Legal (blanks expanded) and
// reads as expected.
func TestChoicesWorstCases(t *testing.T) {
	autos := []string{"auto-allow challenge on", "auto-allow block on", "auto-allow block-challenge on", "auto-allow all on"}
	tests := []struct {
		name  string
		build func(t *testing.T) *game
		legal int // len(Legal)
		want  []string
	}{
		{
			name: "turn_six_players_all_options",
			build: func(t *testing.T) *game {
				g := newGame(t, games.Options{"selective_coup": "on", "inquisitor": "on", "factions": "on"}, deal6(), []int{7, 2, 2, 2, 2, 2})
				for s := range 6 {
					g.do(s, "faction up")
				}
				g.do(ana, "auto-allow challenge on")
				return g
			},
			legal: 50,
			want: []string{"income", "foreign aid", "tax", "exchange", "defect",
				"steal Bob", "steal Cal", "steal Dee", "steal Eve", "steal Fay",
				"assassinate <player>", "examine <player>", "coup <player> <character>",
				"auto-allow challenge off", "auto-allow block on", "auto-allow block-challenge on", "auto-allow all on", "auto-allow all off"},
		},
		{
			name: "turn_forced_selective_coup",
			build: func(t *testing.T) *game {
				return newGame(t, games.Options{"selective_coup": "on"}, deal6(), []int{10, 2, 2, 2, 2, 2})
			},
			legal: 29,
			want: append([]string{"coup Bob <character>", "coup Cal <character>", "coup Dee <character>", "coup Eve <character>",
				"coup Fay <character>"}, autos...),
		},
		{
			name: "turn_six_players",
			build: func(t *testing.T) *game {
				return newGame(t, nil, [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa), h(Duke, Ambassador), h(Assassin, Assassin)}, []int{7, 2, 2, 2, 2, 2})
			},
			legal: 23,
			want: append([]string{"income", "foreign aid", "tax", "exchange",
				"steal Bob", "steal Cal", "steal Dee", "steal Eve", "steal Fay",
				"assassinate Bob", "assassinate Cal", "assassinate Dee", "assassinate Eve", "assassinate Fay",
				"coup <player>"}, autos...),
		},
		{
			name: "turn_five_players_fits",
			build: func(t *testing.T) *game {
				return newGame(t, nil, [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa), h(Duke, Ambassador)}, []int{7, 2, 2, 2, 2})
			},
			legal: 20,
			want: append([]string{"income", "foreign aid", "tax", "exchange",
				"steal Bob", "steal Cal", "steal Dee", "steal Eve",
				"assassinate Bob", "assassinate Cal", "assassinate Dee", "assassinate Eve",
				"coup Bob", "coup Cal", "coup Dee", "coup Eve"}, autos...),
		},
		{
			name: "exchange_four_distinct",
			build: func(t *testing.T) *game {
				g := newGame(t, nil, deal4(), nil)
				g.do(ana, "exchange")
				g.allAllow()
				// Rig the draw: two cards Ana does not hold.
				for _, c := range g.s.Ctx.Drawn {
					g.s.Court[c]++
				}
				g.s.Ctx.Drawn = h(Assassin, Ambassador)
				g.s.Court[Assassin]--
				g.s.Court[Ambassador]--
				return g
			},
			legal: 10,
			want: append([]string{"keep duke assassin", "keep duke captain", "keep duke ambassador", "keep assassin captain",
				"keep assassin ambassador", "keep captain ambassador"}, autos...),
		},
		{
			name: "block_window_steal",
			build: func(t *testing.T) *game {
				g := newGame(t, nil, deal4(), nil)
				g.do(ana, "steal bob")
				g.allAllow()
				return g
			},
			legal: 7,
			want:  append([]string{"allow", "block captain", "block ambassador"}, autos...),
		},
	}
	eng := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.build(t)
			seat := games.Seat(g.s.Turn)
			if p := (Rules{}).Pending(g.s); len(p) > 0 {
				seat = p[0].Seat
			}
			legal := (Rules{}).Legal(g.s, seat)
			got := (Rules{}).Choices(g.s, seat)
			if len(legal) != tc.legal {
				t.Errorf("Legal has %d lines, want %d: %q", len(legal), tc.legal, legal)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Choices =\n%q\nwant\n%q", got, tc.want)
			}
			if !gametest.CheckChoices(t, eng, g.s, seat) {
				t.Fatal("CheckChoices failed")
			}
			checkBlanks(t, g.s, legal, got)
		})
	}
}

// checkBlanks expands the blanks of Choices (<player>: each player as the
// notation writes a target; <character>: each character in the game) and
// requires every legal move to be covered, every plain line to be legal and
// every line with a blank to stand for at least one legal move.
func checkBlanks(t *testing.T, s *State, legal, choices []string) {
	t.Helper()
	var players, chars []string
	for i := range s.Players {
		players = append(players, strings.TrimPrefix((Rules{}).Format(s, Move{Kind: MAction, Action: Steal, Target: i}), "steal "))
	}
	for _, c := range s.deckChars() {
		chars = append(chars, c.String())
	}
	expand := func(lines []string, blank string, fills []string) []string {
		var out []string
		for _, l := range lines {
			if !strings.Contains(l, blank) {
				out = append(out, l)
				continue
			}
			for _, f := range fills {
				out = append(out, strings.Replace(l, blank, f, 1))
			}
		}
		return out
	}
	covered := map[string]bool{}
	for _, line := range choices {
		moves := expand(expand([]string{line}, "<player>", players), "<character>", chars)
		n := 0
		for _, m := range moves {
			if slices.Contains(legal, m) {
				covered[m] = true
				n++
			}
		}
		if n == 0 || (len(moves) == 1 && n != 1) {
			t.Errorf("choice %q stands for no legal move", line)
		}
	}
	for _, m := range legal {
		if !covered[m] {
			t.Errorf("legal move %q is in no choice of %q", m, choices)
		}
	}
}

// TestChoicesOtherStages: outside a turn with many targets, Choices lists
// Legal's moves themselves, the decision's moves before the auto-allow
// preferences.
func TestChoicesOtherStages(t *testing.T) {
	g := newGame(t, games.Options{"blocking_contessa": "on"}, deal4(), nil)
	g.do(ana, "tax")
	if got := (Rules{}).Choices(g.s, bob); !slices.Equal(got, []string{"allow", "challenge", "auto-allow challenge on", "auto-allow block on", "auto-allow block-challenge on", "auto-allow all on"}) {
		t.Fatalf("W1: %q", got)
	}
	g.do(bob, "challenge")
	if got := (Rules{}).Choices(g.s, ana); !slices.Equal(got[:2], []string{"reveal duke", "reveal captain"}) || len(got) != 6 {
		t.Fatalf("answer: %q", got)
	}
	if got := (Rules{}).Choices(g.s, cal); !slices.Equal(got, (Rules{}).Legal(g.s, cal)) || len(got) != 4 {
		t.Fatalf("a seat with nothing to decide has its preferences only: %q", got)
	}
	g.rigLoss(dee, Duke)
	g.rigLoss(dee, Contessa)
	if got := (Rules{}).Choices(g.s, dee); got != nil {
		t.Fatalf("a seat that is out has no choices: %q", got)
	}
}

package coupage

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// choiceRegexp reads a choice line as a pattern: each <blank> stands for
// one or more words.
func choiceRegexp(line string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for line != "" {
		i := strings.IndexByte(line, '<')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(line))
			break
		}
		j := strings.IndexByte(line[i:], '>')
		b.WriteString(regexp.QuoteMeta(line[:i]))
		b.WriteString(`\S+(?: \S+)*`)
		line = line[i+j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// checkChoices checks seat's choices on tb's state: the harness's check
// (at most games.MaxChoices lines, deterministic, exact lines legal), and
// that every legal move matches one line, a pattern's blanks included.
func checkChoices(t *testing.T, tb *table, seat games.Seat) (legal, choices []string) {
	t.Helper()
	eng := games.Adapt(tb.r)
	if !gametest.CheckChoices(t, eng, tb.s, seat) {
		t.FailNow()
	}
	legal = tb.r.Legal(tb.s, seat)
	choices = tb.r.Choices(tb.s, seat)
	res := make([]*regexp.Regexp, len(choices))
	for i, c := range choices {
		res[i] = choiceRegexp(c)
	}
	for _, m := range legal {
		if !slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(m) }) {
			t.Errorf("legal move %q matches no choice of %q", m, choices)
		}
	}
	for _, c := range choices {
		if !strings.Contains(c, "<") && !slices.Contains(legal, c) {
			t.Errorf("choice %q is not a legal move", c)
		}
	}
	return legal, choices
}

// A worst case of the action phase: 4 players, a hand of 13 grapes, a Time
// card and one of each special, Ana's barrels empty, incomplete (it may
// receive Time, CP-19) and ready, every other player's barrels full of
// targets. Legal lists hundreds of moves; Choices keeps 20 lines, most
// useful first, a pattern per kind at worst.
func TestChoicesWorstCases(t *testing.T) {
	rich := tableSetup{
		players: []string{"Ana", "Bob", "Cleo", "Dan"},
		seats: []seatSetup{
			{hand: []string{"mac1", "mac2", "mac3", "xar1", "xar2", "xar3", "par1", "par2", "gar1", "gar2", "tre3", "ull1", "ull3", "time",
				"vin jeune", "vol de carte", "vin pique", "oenologue", "recolte", "evaporation", "vol de temps"},
				barrels: map[int]barrelSetup{
					3: {wine: "rose", grapes: []string{"ull2"}},
					4: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}},
				}},
			{hand: []string{"tre1"}, barrels: map[int]barrelSetup{
				1: {wine: "cava blanc", grapes: []string{"mac2", "xar2", "par2"}, time: []string{"time", "gar3"}},
				2: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"time"}, spoil: 2},
			}},
			{hand: []string{"tre2"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac3", "par3", "gar2"}, time: []string{"tre2", "time"}},
				3: {wine: "rose", grapes: []string{"tre1", "xar1"}, time: []string{"time"}},
			}},
			{hand: []string{"ull1"}, barrels: map[int]barrelSetup{
				2: {wine: "rouge", grapes: []string{"ull2", "tre2"}, time: []string{"time", "xar3"}},
				4: {wine: "blanc", grapes: []string{"xar1", "par1"}, spoil: 1},
			}},
		},
		market: [2]string{"ull3", "par3"},
		top:    []string{"gar3"},
	}
	t.Run("actions", func(t *testing.T) {
		tb := rich.build(t)
		tb.do(ana, "draw")
		legal, choices := checkChoices(t, tb, ana)
		t.Logf("%d legal moves in %d choices: %q", len(legal), len(choices), choices)
		if len(legal) < 300 || len(choices) < games.MaxChoices-5 {
			t.Errorf("%d legal moves in %d choices: not the worst case this test means", len(legal), len(choices))
		}
		if !strings.HasPrefix(choices[0], "bottle ") || choices[len(choices)-1] != "end" {
			t.Errorf("choices %q: want bottling first and end last", choices)
		}
		// Under version 2 the incomplete barrel 3 may receive Time.
		if !slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, "time 3") }) {
			t.Errorf("no Time for the incomplete barrel 3 under version 2")
		}
	})
	t.Run("actions, rules version 1", func(t *testing.T) {
		v1 := rich
		v1.version = rulesV1
		tb := v1.build(t)
		tb.do(ana, "draw")
		legal, _ := checkChoices(t, tb, ana)
		if slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, "time 3") }) {
			t.Errorf("Time for the incomplete barrel 3 under version 1")
		}
	})
	t.Run("Rouge ability", func(t *testing.T) {
		ts := rich
		ts.seats = slices.Clone(rich.seats)
		ts.seats[0] = seatSetup{
			hand: []string{"mac1", "mac2", "mac3", "xar1", "xar2", "xar3", "par2", "gar1", "gar2", "time", "vin jeune", "recolte", "evaporation"},
			barrels: map[int]barrelSetup{
				1: {wine: "rouge", grapes: []string{"gar3", "tre3"}, time: []string{"time", "time"}},
				2: {wine: "blanc", grapes: []string{"mac1", "par1"}},
				3: {wine: "rose", grapes: []string{"ull2"}},
			}}
		ts.top = nil
		tb := ts.build(t)
		tb.do(ana, "draw")
		tb.do(ana, "bottle 1 mac2")
		if tb.s.Turn.Ability != abAge {
			t.Fatalf("no Rouge choice waiting")
		}
		legal, choices := checkChoices(t, tb, ana)
		t.Logf("%d legal moves in %d choices: %q", len(legal), len(choices), choices)
		if len(legal) <= games.MaxChoices || choices[0] != "age nothing" {
			t.Errorf("%d legal moves, choices %q", len(legal), choices)
		}
	})
	t.Run("few moves: the moves themselves", func(t *testing.T) {
		tb := rich.build(t)
		legal, choices := checkChoices(t, tb, ana)
		want := []string{"draw", "draw market 1", "draw market 2", "end"}
		if !slices.Equal(choices, want) || len(legal) != len(want) {
			t.Errorf("choices %q (legal %q), want %q", choices, legal, want)
		}
		if c := tb.r.Choices(tb.s, bob); c != nil {
			t.Errorf("Bob, who may not act, has choices %q", c)
		}
	})
	t.Run("Récolte pick", func(t *testing.T) {
		tb := tableSetup{seats: []seatSetup{{}, {hand: []string{"recolte"}}}, market: [2]string{"ull2", "par3"},
			top: []string{"xar1", "time", "mac3", "vin pique"}, active: bob}.build(t)
		tb.do(bob, "draw")
		tb.do(bob, "recolte")
		_, choices := checkChoices(t, tb, bob)
		if want := []string{"pick time", "pick Macabeu ★★★", "pick Vin piqué"}; !slices.Equal(choices, want) {
			t.Errorf("choices %q, want %q", choices, want)
		}
	})
}

// The patterns narrow as far as the limit allows: a kind with few moves is
// listed move by move, a kind with many keeps a pattern.
func TestChoicesNarrowing(t *testing.T) {
	tb := tableSetup{
		seats: []seatSetup{{hand: []string{"mac1", "mac2", "xar1", "xar2", "par1", "par2", "time"},
			barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar1", "tre1"}}}}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.do(ana, "draw")
	legal, choices := checkChoices(t, tb, ana)
	t.Logf("%d legal moves: %q", len(legal), choices)
	if !slices.Contains(choices, "time 1") {
		t.Errorf("the single Time-card move is not listed as itself: %q", choices)
	}
	if !slices.Contains(choices, "make blanc <barrel> mac1 xar1") && !slices.Contains(choices, "make blanc <barrel> <grapes>") {
		t.Errorf("no make pattern: %q", choices)
	}
}

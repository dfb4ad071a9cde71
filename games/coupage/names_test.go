package coupage

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// grapeCode matches a grape card's code, which a player never reads.
var grapeCode = regexp.MustCompile(`\b(mac|xar|par|gar|tre|ull)[123]\b`)

// [HOUSE] CP-52: a move is written and shown with the cards' names; the
// names, the stars as a number and the codes are read alike.
func TestCardNames_CP52(t *testing.T) {
	tb := tableSetup{seats: []seatSetup{{hand: []string{"gar2", "tre1", "vin pique"}}, {}}, active: ana}.build(t)
	tb.do(ana, "draw")
	want := "make rouge 1 Garnatxa ★★ Trepat ★"
	for _, in := range []string{want, "make rouge 1 garnatxa 2 trepat 1", "make Rouge 1 GARNATXA 2★ trepat ★", "make rouge 1 gar2 tre1"} {
		m, err := tb.r.Parse(tb.s, in)
		if err != nil {
			t.Errorf("parse %q: %v", in, err)
			continue
		}
		if got := tb.r.Format(tb.s, m); got != want {
			t.Errorf("%q formats as %q, want %q", in, got, want)
		}
	}
	for _, m := range append(tb.r.Legal(tb.s, ana), tb.r.Choices(tb.s, ana)...) {
		if grapeCode.MatchString(m) {
			t.Errorf("move %q shows a grape by its code", m)
		}
	}
	_, err := tb.r.Decide(tb.s, ana, Move{Kind: mvBottle, Barrel: 1, Cards: []string{"mac3"}}, nil)
	if _, ok := errors.AsType[*games.RuleError](err); !ok {
		t.Fatalf("bottling an empty barrel with a card not held: %v", err)
	}
	for _, lang := range games.Languages() {
		if e := games.Explain(err, lang); grapeCode.MatchString(e) {
			t.Errorf("refusal %q names a grape by its code", e)
		}
	}
}

// No grape code reaches what a player reads in a whole game: the boards
// told, the narratives of every event for every seat, the moves offered.
func TestNoGrapeCodeReachesAPlayer_CP52(t *testing.T) {
	texts := gametest.GoldenBoards(t, gametest.Golden{Engine: New(), Players: []string{"Ana", "Bob", "Cleo"}, Seed: 1})
	for name, text := range texts {
		if grapeCode.MatchString(text) {
			t.Errorf("%s shows a grape code:\n%s", name, text)
		}
	}
	eng := New()
	var seed games.Seed
	evs, err := eng.Setup(nil, []string{"Ana", "Bob", "Cleo"}, seed.Rand(0))
	if err != nil {
		t.Fatal(err)
	}
	s, err := games.Fold(eng, eng.Info().Rules, evs)
	if err != nil {
		t.Fatal(err)
	}
	pick := seed.Rand(1 << 40)
	said := 0
	for step := 1; step < 400; step++ {
		pend := eng.Pending(s)
		if len(pend) == 0 {
			break
		}
		p := pend[0]
		legal := eng.Legal(s, p.Seat)
		for _, m := range append(legal, eng.Choices(s, p.Seat)...) {
			if grapeCode.MatchString(m) {
				t.Fatalf("move %q shows a grape code", m)
			}
		}
		out, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(step))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range out {
			for seat := games.Spectator; seat < 3; seat++ {
				p, err := eng.Describe(s, e, seat)
				if err != nil {
					t.Fatal(err)
				}
				for _, lang := range games.Languages() {
					d := p.In(lang)
					if grapeCode.MatchString(d) {
						t.Fatalf("seat %d is told %q", seat, d)
					}
					said += len(strings.TrimSpace(d))
				}
			}
			if s, err = eng.Evolve(s, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if said == 0 {
		t.Fatal("nothing was told: the test checked nothing")
	}
}

package couillon

import (
	"regexp"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// [HOUSE] CO-34: a move shows its card as the board prints it (play K♥),
// and the codes are still read.
func TestCardsAsPrinted_CO34(t *testing.T) {
	s := (Rules{}).Initial(RulesVersion)
	for _, in := range []string{"play K♥", "play kh", "K♥", "kh", "play k♥"} {
		m, err := (Rules{}).Parse(s, in)
		if err != nil {
			t.Errorf("parse %q: %v", in, err)
			continue
		}
		if got := (Rules{}).Format(s, m); got != "play K♥" {
			t.Errorf("%q formats as %q, want play K♥", in, got)
		}
	}
	code := regexp.MustCompile(`\b(10|9|[jqka])[cdhs]\b`)
	eng := New()
	evs, err := eng.Setup(nil, []string{"Ana", "Bob", "Cleo", "Dan"}, rng())
	if err != nil {
		t.Fatal(err)
	}
	st, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for range 200 {
		pend := eng.Pending(st)
		if len(pend) == 0 {
			break
		}
		legal := eng.Legal(st, pend[0].Seat)
		for _, m := range append(legal, eng.Choices(st, pend[0].Seat)...) {
			if code.MatchString(m) {
				t.Fatalf("move %q shows a card by its code", m)
			}
		}
		move := legal[len(legal)-1]
		if move != "pass" && move != "accept" {
			played++
		}
		out, err := eng.Decide(st, pend[0].Seat, move, rng())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range out {
			if st, err = eng.Evolve(st, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if played == 0 {
		t.Fatal("no card was played: the test checked nothing")
	}
}

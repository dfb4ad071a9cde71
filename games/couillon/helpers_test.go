package couillon

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// cards reads space-separated card codes ("kh 10d 9s").
func cards(t testing.TB, s string) []Card {
	t.Helper()
	var out []Card
	for w := range strings.FieldsSeq(s) {
		c, ok := parseCard(w)
		if !ok {
			t.Fatalf("bad card %q", w)
		}
		out = append(out, c)
	}
	return out
}

// rng is a fixed generator for decisions whose randomness does not matter.
func rng() *rand.Rand { return rand.New(rand.NewPCG(7, 11)) }

// rig builds a match under the current rules version by folding chosen
// events: the seating (Ana, Ben, Cleo, Dan in seats 0..3), optionally a score
// sheet (R, b) from an earlier deal, then deal 1 by dealer 0 with the given
// hands (by seat) and stock (cards 17..24) and the 17th card turned.
func rig(t testing.TB, opts games.Options, hands [4]string, stock string) State {
	t.Helper()
	return rigAt(t, RulesVersion, opts, hands, stock, nil, 0)
}

func rigScore(t testing.TB, opts games.Options, hands [4]string, stock string, r []int, b int) State {
	t.Helper()
	return rigAt(t, RulesVersion, opts, hands, stock, r, b)
}

// rigAt is rig under rules version version, with an optional score sheet.
func rigAt(t testing.TB, version int, opts games.Options, hands [4]string, stock string, r []int, b int) State {
	t.Helper()
	var rules Rules
	evs := []Event{{Type: EvSeated, Players: []string{"Ana", "Ben", "Cleo", "Dan"},
		Draws: cards(t, "as ah kd 9c"), Options: completeOptions(opts)}}
	if r != nil {
		evs = append(evs, Event{Type: EvScored, Score: &DealRecord{Deal: 0, Winner: -1, Declarers: -1, Capot: -1, R: [2]int{r[0], r[1]}, B: b}})
	}
	hs := make([][]Card, 4)
	all := map[Card]bool{}
	for i, h := range hands {
		hs[i] = cards(t, h)
		for _, c := range hs[i] {
			all[c] = true
		}
	}
	st := cards(t, stock)
	for _, c := range st {
		all[c] = true
	}
	if len(all) != 24 || len(st) != 8 {
		t.Fatalf("rigged deal is not 24 distinct cards with 8 in the stock: %d, %d", len(all), len(st))
	}
	evs = append(evs, Event{Type: EvDealt, Deal: 1, Dealer: 0, Hands: hs, Stock: st},
		Event{Type: EvTurned, Pos: 17, Card: st[0]})
	s := rules.Initial(version)
	for _, e := range evs {
		s = rules.Evolve(s, e)
	}
	return s
}

// do decides move for seat and applies the events; it fails the test on an error.
func do(t testing.TB, s State, seat games.Seat, move string) (State, []Event) {
	t.Helper()
	var rules Rules
	m, err := rules.Parse(s, move)
	if err != nil {
		t.Fatalf("parse %q: %v", move, err)
	}
	evs, err := rules.Decide(s, seat, m, rng())
	if err != nil {
		t.Fatalf("seat %d %q: %v", seat, move, err)
	}
	for _, e := range evs {
		s = rules.Evolve(s, e)
	}
	return s, evs
}

// run plays moves in order, each by the seat that is pending.
func run(t testing.TB, s State, moves ...string) (State, []Event) {
	t.Helper()
	var all []Event
	for _, m := range moves {
		p := Rules{}.Pending(s)
		if len(p) != 1 {
			t.Fatalf("before %q: pending %v", m, p)
		}
		var evs []Event
		s, evs = do(t, s, p[0].Seat, m)
		all = append(all, evs...)
	}
	return s, all
}

// refuse checks that seat's move is rejected for rule and returns the reason.
func refuse(t testing.TB, s State, seat games.Seat, move, rule string) string {
	t.Helper()
	var rules Rules
	m, err := rules.Parse(s, move)
	if err == nil {
		_, err = rules.Decide(s, seat, m, rng())
	}
	re, ok := games.AsRuleError(err)
	if !ok {
		t.Fatalf("seat %d %q: want a %s rule error, got %v", seat, move, rule, err)
	}
	if re.Rule != rule {
		t.Fatalf("seat %d %q: rule %s (%s), want %s", seat, move, re.Rule, re.Reason.String(), rule)
	}
	if re.Reason.String() == "" {
		t.Fatalf("rule error without a reason")
	}
	return re.Reason.String()
}

// legal is seat's legal moves joined by spaces.
func legal(s State, seat games.Seat) string {
	return strings.Join(Rules{}.Legal(s, seat), ", ")
}

// find returns the events of type typ.
func find(evs []Event, typ string) []Event {
	var out []Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// deal2 is a deal with trump ♠ (the 9♠ turned) in which, when Ben (seat 1)
// accepts and the moves of deal2Play are played, team B (Ben, Dan) takes 15
// card points and team A (Ana, Cleo) 10; 15 points stay in the stock.
func deal2() ([4]string, string) {
	return [4]string{
		"jh 9d qs 10c",  // Ana, dealer
		"ah kd js 10s",  // Ben
		"9h qd as qh",   // Cleo
		"10h 10d ks kh", // Dan
	}, "9s ac kc qc jc ad jd 9c"
}

// deal2Play is the play of deal2 (Ben leads).
func deal2Play() []string {
	return []string{
		"ah", "9h", "10h", "jh", // Ben wins 5
		"kd", "qd", "10d", "9d", // Ben wins 5
		"js", "as", "ks", "qs", // Cleo wins 10
		"qh", "kh", "10c", "10s", // Cleo leads, Ben trumps: 5
	}
}

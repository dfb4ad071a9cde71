package couillon

import (
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// applied is one event with the state before it.
type applied struct {
	before State
	e      Event
}

// record plays moves in order, each by the pending seat, and returns every
// event with the state before it.
func record(t testing.TB, s State, moves ...string) (State, []applied) {
	t.Helper()
	var out []applied
	for _, m := range moves {
		p := Rules{}.Pending(s)
		if len(p) != 1 {
			t.Fatalf("before %q: pending %v", m, p)
		}
		mv, err := Rules{}.Parse(s, m)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := Rules{}.Decide(s, p[0].Seat, mv, rng())
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		for _, e := range evs {
			out = append(out, applied{s.clone(), e})
			s = Rules{}.Evolve(s, e)
		}
	}
	return s, out
}

// firstOf is the first recorded event of type typ.
func firstOf(t testing.TB, evs []applied, typ string) applied {
	t.Helper()
	for _, a := range evs {
		if a.e.Type == typ {
			return a
		}
	}
	t.Fatalf("no %s event", typ)
	return applied{}
}

// Describe for every event type, as the actor (or a player it names), another
// seat and a spectator.
func TestDescribe_EveryEvent(t *testing.T) {
	const (
		ana, ben, cleo, dan = games.Seat(0), games.Seat(1), games.Seat(2), games.Seat(3)
		spec                = games.Spectator
	)
	// The seating and the first deal (deal2), event by event.
	players := []string{"Ana", "Ben", "Cleo", "Dan"}
	hands, stock := deal2()
	dealtHands := make([][]Card, 4)
	for i, h := range hands {
		dealtHands[i] = slices.Sorted(slices.Values(cards(t, h)))
	}
	s0 := Rules{}.Initial(RulesVersion)
	seated := Event{Type: EvSeated, Players: players, Draws: cards(t, "as ah kd 9c"), Options: completeOptions(nil)}
	s1 := Rules{}.Evolve(s0.clone(), seated)
	dealt := Event{Type: EvDealt, Deal: 1, Dealer: 0, Hands: dealtHands, Stock: cards(t, stock)}
	s2 := Rules{}.Evolve(s1.clone(), dealt)
	turned := Event{Type: EvTurned, Pos: 17, Card: cards(t, "9s")[0]}

	// Scenario 3's deal: Ben passes, Cleo accepts, team A loses 10–15.
	s := rig(t, nil, hands, stock)
	_, play := record(t, s, append([]string{"pass", "accept"}, deal2Play()...)...)
	// A tie (tieDeal), a gerver all-pass and a resignation.
	th, tst := tieDeal()
	_, tie := record(t, rig(t, nil, th, tst), append([]string{"accept"}, tieDealPlay()...)...)
	ap, apStock := allPassDeal()
	_, gerver := record(t, rig(t, games.Options{"all_pass": "gerver"}, ap, apStock), "pass", "pass", "pass", "pass")
	mid, _ := record(t, rig(t, nil, hands, stock), "accept", "ah")
	resignEvs, err := Rules{}.Resign(mid, cleo, rng())
	if err != nil || len(resignEvs) != 2 {
		t.Fatalf("resign: %v %v", resignEvs, err)
	}
	resigned := applied{mid, resignEvs[0]}
	over := applied{Rules{}.Evolve(mid.clone(), resignEvs[0]), resignEvs[1]}

	tests := []struct {
		name string
		a    applied
		seat games.Seat
		want string
	}{
		{"seated, first dealer", applied{s0, seated}, ana, "The draw seats you (A♠) and Cleo (K♦) against Ben (A♥) and Dan (9♣); the first dealer is you."},
		{"seated, other", applied{s0, seated}, ben, "The draw seats Ana (A♠) and Cleo (K♦) against you (A♥) and Dan (9♣); the first dealer is Ana."},
		{"seated, spectator", applied{s0, seated}, spec, "The draw seats Ana (A♠) and Cleo (K♦) against Ben (A♥) and Dan (9♣); the first dealer is Ana."},
		{"dealt, dealer", applied{s1, dealt}, ana, "Deal 1: you dealt 4 cards to each player. Your hand: 9♦, 10♣, J♥, Q♠."},
		{"dealt, other", applied{s1, dealt}, ben, "Deal 1: Ana dealt 4 cards to each player. Your hand: 10♠, J♠, K♦, A♥."},
		{"dealt, spectator", applied{s1, dealt}, spec, "Deal 1: Ana dealt 4 cards to each player."},
		{"turned, a seat", applied{s2, turned}, dan, "The 17th card, 9♠, is turned: spades are proposed as trump."},
		{"turned, spectator", applied{s2, turned}, spec, "The 17th card, 9♠, is turned: spades are proposed as trump."},
		{"passed, actor", firstOf(t, play, EvPassed), ben, "You passed on spades."},
		{"passed, other", firstOf(t, play, EvPassed), ana, "Ben passed on spades."},
		{"passed, spectator", firstOf(t, play, EvPassed), spec, "Ben passed on spades."},
		{"accepted, actor", firstOf(t, play, EvAccepted), cleo, "You accepted spades as trump."},
		{"accepted, other", firstOf(t, play, EvAccepted), dan, "Cleo accepted spades as trump."},
		{"accepted, spectator", firstOf(t, play, EvAccepted), spec, "Cleo accepted spades as trump."},
		{"trump, declarer", firstOf(t, play, EvTrump), cleo, "Spades are trump; Ana and you declare. Ben leads the first trick."},
		{"trump, leader", firstOf(t, play, EvTrump), ben, "Spades are trump; Ana and Cleo declare. You lead the first trick."},
		{"trump, spectator", firstOf(t, play, EvTrump), spec, "Spades are trump; Ana and Cleo declare. Ben leads the first trick."},
		{"trump, no declarers", firstOf(t, gerver, EvTrump), ana, "Diamonds are trump, with no declaring team. Ben leads the first trick."},
		{"turned, gerver bottom card", firstOf(t, gerver, EvTurned), spec, "The bottom card of the stock, 9♦, is turned."},
		{"played, actor", firstOf(t, play, EvPlayed), ben, "You played A♥."},
		{"played, other", firstOf(t, play, EvPlayed), cleo, "Ben played A♥."},
		{"played, spectator", firstOf(t, play, EvPlayed), spec, "Ben played A♥."},
		{"trick, winner", firstOf(t, play, EvTrick), ben, "You won the trick (5 points)."},
		{"trick, other", firstOf(t, play, EvTrick), ana, "Ben won the trick (5 points)."},
		{"trick, spectator", firstOf(t, play, EvTrick), spec, "Ben won the trick (5 points)."},
		{"scored, declarer", firstOf(t, play, EvScored), cleo, "Deal 1: Ana and you took 10 points, Ben and Dan 15 points; Ben and Dan win the deal and erase 1 line, and Ana and you, the declarers, take 1 loop. Lines still to erase: Ana and you 6, Ben and Dan 4."},
		{"scored, winner", firstOf(t, play, EvScored), dan, "Deal 1: Ana and Cleo took 10 points, Ben and you 15 points; Ben and you win the deal and erase 1 line, and Ana and Cleo, the declarers, take 1 loop. Lines still to erase: Ana and Cleo 6, Ben and you 4."},
		{"scored, spectator", firstOf(t, play, EvScored), spec, "Deal 1: Ana and Cleo took 10 points, Ben and Dan 15 points; Ben and Dan win the deal and erase 1 line, and Ana and Cleo, the declarers, take 1 loop. Lines still to erase: Ana and Cleo 6, Ben and Dan 4."},
		{"scored, tie", firstOf(t, tie, EvScored), ana, "Deal 1: you and Cleo took 10 points, Ben and Dan 10 points; a tie, nobody erases a line (the next winners erase 2 lines). Lines still to erase: you and Cleo 5, Ben and Dan 5."},
		{"resigned, actor", resigned, cleo, "You resigned."},
		{"resigned, other", resigned, ben, "Cleo resigned."},
		{"resigned, spectator", resigned, spec, "Cleo resigned."},
		{"over, winner", over, dan, "Ben and you win the match; every card is now shown."},
		{"over, loser", over, cleo, "Ben and Dan win the match; every card is now shown."},
		{"over, spectator", over, spec, "Ben and Dan win the match; every card is now shown."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Rules{}.describeEN(tc.a.before, tc.a.e, tc.seat)
			if got != tc.want {
				t.Fatalf("Describe = %q\n           want %q", got, tc.want)
			}
			red := Rules{}.Redact(tc.a.before, tc.a.e, tc.seat)
			if again := (Rules{}).describeEN(tc.a.before, red, tc.seat); again != got {
				t.Fatalf("the redacted event is described %q", again)
			}
		})
	}
}

// A deal's description names the viewer's own cards and no other: no card of
// another hand or of the stock, for any seat or a spectator, through the
// engine's JSON path too; the redacted event describes the same.
func TestDescribe_DealHidesCards(t *testing.T) {
	eng := New()
	evs, err := eng.Setup(nil, []string{"Ana", "Ben", "Cleo", "Dan"}, rng())
	if err != nil {
		t.Fatal(err)
	}
	before, err := games.Fold(eng, RulesVersion, evs[:1])
	if err != nil {
		t.Fatal(err)
	}
	after, err := games.Fold(eng, RulesVersion, evs[:2])
	if err != nil {
		t.Fatal(err)
	}
	st := after.(State)
	for seat := games.Spectator; seat < 4; seat++ {
		desc, err := eng.Describe(before, evs[1], seat)
		if err != nil {
			t.Fatal(err)
		}
		red, err := eng.Redact(before, evs[1], seat)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := eng.Describe(before, red, seat); err != nil || again.String() != desc.String() {
			t.Fatalf("seat %d: %q, redacted %q (%v)", seat, desc, again, err)
		}
		for _, c := range hiddenFrom(st, seat).cards() {
			if strings.Contains(desc, c.String()) {
				t.Errorf("seat %d's description %q names the hidden %v", seat, desc, c)
			}
		}
		if seat >= 0 {
			for _, c := range st.Hands[seat].cards() {
				if !strings.Contains(desc, c.String()) {
					t.Errorf("seat %d's description %q does not name its own %v", seat, desc, c)
				}
			}
		} else if strings.Contains(desc, "hand") {
			t.Errorf("the spectator's description %q tells a hand", desc)
		}
	}
}

// Redact: a deal keeps only the viewer's hand and no stock, whatever the
// state it applies to (a seat never watches as a spectator while cards are
// hidden: resigning ends the match, CO-32); the end shows every card to all.
func TestRedact_DealAndEnd(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	_, play := record(t, s, append([]string{"accept"}, deal2Play()...)...)
	dealt := firstOf(t, play, EvDealt) // the second deal
	for seat := games.Spectator; seat < 4; seat++ {
		for _, st := range []State{dealt.before, Rules{}.Initial(1), s} {
			red := Rules{}.Redact(st, dealt.e, seat)
			if len(red.Stock) != 0 || len(red.Hands) != 4 {
				t.Fatalf("seat %d sees stock %v", seat, red.Stock)
			}
			for h := range 4 {
				if own := games.Seat(h) == seat; own != (len(red.Hands[h]) > 0) || (own && !slices.Equal(red.Hands[h], dealt.e.Hands[h])) {
					t.Fatalf("seat %d's copy has hand %d = %v", seat, h, red.Hands[h])
				}
			}
		}
	}
	mid, _ := record(t, rig(t, nil, hands, stock), "accept", "ah")
	evs, err := Rules{}.Resign(mid, 0, rng())
	if err != nil {
		t.Fatal(err)
	}
	overBefore := Rules{}.Evolve(mid.clone(), evs[0])
	for seat := games.Spectator; seat < 4; seat++ {
		red := Rules{}.Redact(overBefore, evs[1], seat)
		if len(red.Hands) != 4 || len(red.Hands[1]) != 3 || len(red.Stock) != 8 {
			t.Fatalf("seat %d's copy of the end: hands %v stock %v", seat, red.Hands, red.Stock)
		}
	}
}

// Choices is Legal: at most 4 lines (a full hand), checked on the states with
// the most legal moves: a leader with 4 cards of 4 suits, a follower under
// following = gerver holding the led suit and trumps, a void player without
// trumps, the making of trump, a seat not to act and the end.
func TestChoices_WorstCases(t *testing.T) {
	eng := New()
	hands := [4]string{"9c 9d 9h 9s", "10c 10d 10h 10s", "jc jd jh js", "qc qd qh qs"}
	stock := "kc kd kh ks ac ad ah as"
	type check struct {
		name string
		s    State
		seat games.Seat
		want int
	}
	var checks []check
	s := rig(t, nil, hands, stock)
	checks = append(checks, check{"making trump", s, 1, 2}, check{"not to speak", s, 0, 0})
	s, _ = run(t, s, "accept")
	checks = append(checks, check{"leader, 4 suits", s, 1, 4})
	s, _ = run(t, s, "10h")
	checks = append(checks, check{"ardennes: must beat", s, 2, 1})
	g := rig(t, games.Options{"following": "gerver"}, [4]string{"9c 9d 9h 9s", "10c 10d 10h 10s", "jc jd jh js", "qc qd kh ks"}, "kc kd qh qs ac ad ah as")
	g, _ = run(t, g, "accept", "10h")
	checks = append(checks, check{"gerver: led suit or trumps", g, 2, 2})
	v := rig(t, nil, [4]string{"9c 9d 9h 9s", "10c 10d 10h 10s", "jc jd qc qd", "jh js qh qs"}, "ks kc kd kh ac ad ah as")
	v, _ = run(t, v, "accept", "10h") // trump ♠, ♥ led: Cleo holds neither
	checks = append(checks, check{"void in the led suit and trumps", v, 2, 4})
	over, _ := record(t, rig(t, nil, hands, stock), "accept")
	evs, err := Rules{}.Resign(over, 0, rng())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		over = Rules{}.Evolve(over, e)
	}
	checks = append(checks, check{"match over", over, 1, 0})
	most := 0
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !gametest.CheckChoices(t, eng, c.s, c.seat) {
				return
			}
			ch := eng.Choices(c.s, c.seat)
			if len(ch) != c.want || !slices.Equal(ch, eng.Legal(c.s, c.seat)) {
				t.Fatalf("choices %q, want the %d legal moves %q", ch, c.want, eng.Legal(c.s, c.seat))
			}
			most = max(most, len(ch))
		})
	}
	if most != 4 {
		t.Fatalf("the worst case has %d choices, want 4", most)
	}
}

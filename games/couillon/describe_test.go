package couillon

import (
	"slices"
	"strings"
	"sync"
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
// seat and a spectator, in English and in French (where the sentences whose
// subject is the reader conjugate: "Vous avez joué", "Ben et vous gagnez").
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
		want string // in English
		fr   string // in French
	}{
		{"seated, first dealer", applied{s0, seated}, ana,
			"The draw seats you (A♠) and Cleo (K♦) against Ben (A♥) and Dan (9♣); the first dealer is you.",
			"Le tirage forme les équipes : vous (A♠) et Cleo (R♦) contre Ben (A♥) et Dan (9♣) ; vous donnez en premier."},
		{"seated, other", applied{s0, seated}, ben,
			"The draw seats Ana (A♠) and Cleo (K♦) against you (A♥) and Dan (9♣); the first dealer is Ana.",
			"Le tirage forme les équipes : Ana (A♠) et Cleo (R♦) contre vous (A♥) et Dan (9♣) ; Ana donne en premier."},
		{"seated, spectator", applied{s0, seated}, spec,
			"The draw seats Ana (A♠) and Cleo (K♦) against Ben (A♥) and Dan (9♣); the first dealer is Ana.",
			"Le tirage forme les équipes : Ana (A♠) et Cleo (R♦) contre Ben (A♥) et Dan (9♣) ; Ana donne en premier."},
		{"dealt, dealer", applied{s1, dealt}, ana,
			"Deal 1: you dealt 4 cards to each player. Your hand: 9♦, 10♣, J♥, Q♠.",
			"Donne 1 : vous avez distribué 4 cartes à chaque joueur. Votre main : 9♦, 10♣, V♥, D♠."},
		{"dealt, other", applied{s1, dealt}, ben,
			"Deal 1: Ana dealt 4 cards to each player. Your hand: 10♠, J♠, K♦, A♥.",
			"Donne 1 : Ana a distribué 4 cartes à chaque joueur. Votre main : 10♠, V♠, R♦, A♥."},
		{"dealt, spectator", applied{s1, dealt}, spec,
			"Deal 1: Ana dealt 4 cards to each player.",
			"Donne 1 : Ana a distribué 4 cartes à chaque joueur."},
		{"turned, a seat", applied{s2, turned}, dan,
			"The 17th card, 9♠, is turned: spades are proposed as trump.",
			"La 17e carte, 9♠, est retournée : sa couleur, pique, est proposée comme atout."},
		{"turned, spectator", applied{s2, turned}, spec,
			"The 17th card, 9♠, is turned: spades are proposed as trump.",
			"La 17e carte, 9♠, est retournée : sa couleur, pique, est proposée comme atout."},
		{"passed, actor", firstOf(t, play, EvPassed), ben,
			"You passed on spades.",
			"Vous avez passé (pique refusé)."},
		{"passed, other", firstOf(t, play, EvPassed), ana,
			"Ben passed on spades.",
			"Ben a passé (pique refusé)."},
		{"passed, spectator", firstOf(t, play, EvPassed), spec,
			"Ben passed on spades.",
			"Ben a passé (pique refusé)."},
		{"accepted, actor", firstOf(t, play, EvAccepted), cleo,
			"You accepted spades as trump.",
			"Vous avez accepté pique comme atout."},
		{"accepted, other", firstOf(t, play, EvAccepted), dan,
			"Cleo accepted spades as trump.",
			"Cleo a accepté pique comme atout."},
		{"accepted, spectator", firstOf(t, play, EvAccepted), spec,
			"Cleo accepted spades as trump.",
			"Cleo a accepté pique comme atout."},
		{"trump, declarer", firstOf(t, play, EvTrump), cleo,
			"Spades are trump; Ana and you declare. Ben leads the first trick.",
			"L’atout est pique ; Ana et vous formez l’équipe déclarante. Ben entame la première levée."},
		{"trump, leader", firstOf(t, play, EvTrump), ben,
			"Spades are trump; Ana and Cleo declare. You lead the first trick.",
			"L’atout est pique ; Ana et Cleo forment l’équipe déclarante. Vous entamez la première levée."},
		{"trump, spectator", firstOf(t, play, EvTrump), spec,
			"Spades are trump; Ana and Cleo declare. Ben leads the first trick.",
			"L’atout est pique ; Ana et Cleo forment l’équipe déclarante. Ben entame la première levée."},
		{"trump, no declarers", firstOf(t, gerver, EvTrump), ana,
			"Diamonds are trump, with no declaring team. Ben leads the first trick.",
			"L’atout est carreau, sans équipe déclarante. Ben entame la première levée."},
		{"turned, gerver bottom card", firstOf(t, gerver, EvTurned), spec,
			"The bottom card of the stock, 9♦, is turned.",
			"La dernière carte du talon, 9♦, est retournée."},
		{"played, actor", firstOf(t, play, EvPlayed), ben,
			"You played A♥.",
			"Vous avez joué A♥."},
		{"played, other", firstOf(t, play, EvPlayed), cleo,
			"Ben played A♥.",
			"Ben a joué A♥."},
		{"played, spectator", firstOf(t, play, EvPlayed), spec,
			"Ben played A♥.",
			"Ben a joué A♥."},
		{"trick, winner", firstOf(t, play, EvTrick), ben,
			"You won the trick (5 points).",
			"Vous avez remporté la levée (5 points)."},
		{"trick, other", firstOf(t, play, EvTrick), ana,
			"Ben won the trick (5 points).",
			"Ben a remporté la levée (5 points)."},
		{"trick, spectator", firstOf(t, play, EvTrick), spec,
			"Ben won the trick (5 points).",
			"Ben a remporté la levée (5 points)."},
		{"scored, declarer", firstOf(t, play, EvScored), cleo,
			"Deal 1: Ana and you took 10 points, Ben and Dan 15 points; Ben and Dan win the deal and erase 1 line, and Ana and you, the declarers, take 1 loop. Lines still to erase: Ana and you 6, Ben and Dan 4.",
			"Donne 1 : Ana et vous avez fait 10 points, Ben et Dan 15 points ; Ben et Dan gagnent la donne et effacent 1 ligne ; l’équipe déclarante, Ana et vous, ajoute 1 boucle. Lignes restant à effacer : Ana et vous 6, Ben et Dan 4."},
		{"scored, winner", firstOf(t, play, EvScored), dan,
			"Deal 1: Ana and Cleo took 10 points, Ben and you 15 points; Ben and you win the deal and erase 1 line, and Ana and Cleo, the declarers, take 1 loop. Lines still to erase: Ana and Cleo 6, Ben and you 4.",
			"Donne 1 : Ana et Cleo ont fait 10 points, Ben et vous 15 points ; Ben et vous gagnez la donne et effacez 1 ligne ; l’équipe déclarante, Ana et Cleo, ajoute 1 boucle. Lignes restant à effacer : Ana et Cleo 6, Ben et vous 4."},
		{"scored, spectator", firstOf(t, play, EvScored), spec,
			"Deal 1: Ana and Cleo took 10 points, Ben and Dan 15 points; Ben and Dan win the deal and erase 1 line, and Ana and Cleo, the declarers, take 1 loop. Lines still to erase: Ana and Cleo 6, Ben and Dan 4.",
			"Donne 1 : Ana et Cleo ont fait 10 points, Ben et Dan 15 points ; Ben et Dan gagnent la donne et effacent 1 ligne ; l’équipe déclarante, Ana et Cleo, ajoute 1 boucle. Lignes restant à effacer : Ana et Cleo 6, Ben et Dan 4."},
		{"scored, tie", firstOf(t, tie, EvScored), ana,
			"Deal 1: you and Cleo took 10 points, Ben and Dan 10 points; a tie, nobody erases a line (the next winners erase 2 lines). Lines still to erase: you and Cleo 5, Ben and Dan 5.",
			"Donne 1 : vous et Cleo avez fait 10 points, Ben et Dan 10 points ; égalité, « la craie dans le trou » : personne n’efface de ligne (les gagnants de la donne suivante effaceront 2 lignes). Lignes restant à effacer : vous et Cleo 5, Ben et Dan 5."},
		{"resigned, actor", resigned, cleo,
			"You resigned.",
			"Vous avez abandonné."},
		{"resigned, other", resigned, ben,
			"Cleo resigned.",
			"Cleo a abandonné."},
		{"resigned, spectator", resigned, spec,
			"Cleo resigned.",
			"Cleo a abandonné."},
		{"over, winner", over, dan,
			"Ben and you win the match; every card is now shown.",
			"Ben et vous gagnez la partie ; toutes les cartes sont maintenant visibles."},
		{"over, loser", over, cleo,
			"Ben and Dan win the match; every card is now shown.",
			"Ben et Dan gagnent la partie ; toutes les cartes sont maintenant visibles."},
		{"over, spectator", over, spec,
			"Ben and Dan win the match; every card is now shown.",
			"Ben et Dan gagnent la partie ; toutes les cartes sont maintenant visibles."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			said := Rules{}.Describe(tc.a.before, tc.a.e, tc.seat)
			red := Rules{}.Redact(tc.a.before, tc.a.e, tc.seat)
			again := Rules{}.Describe(tc.a.before, red, tc.seat)
			for lang, want := range map[string]string{games.English: tc.want, "fr": tc.fr} {
				if err := words.In(lang).Check(said.Text); err != nil {
					t.Errorf("in %s: %v", lang, err)
				}
				if got := said.In(lang); got != want {
					t.Errorf("Describe in %s = %q\n                 want %q", lang, got, want)
				}
				if got := again.In(lang); got != said.In(lang) {
					t.Errorf("the redacted event is described %q in %s", got, lang)
				}
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
		for _, lang := range games.Languages() {
			said := desc.In(lang)
			for _, c := range hiddenFrom(st, seat).cards() {
				if namesCard(said, lang, c) {
					t.Errorf("seat %d's description %q names the hidden %v", seat, said, c)
				}
			}
			if seat >= 0 {
				for _, c := range st.Hands[seat].cards() {
					if !namesCard(said, lang, c) {
						t.Errorf("seat %d's description %q does not name its own %v", seat, said, c)
					}
				}
			} else if hand := words.In(lang).Must(games.T("hand")); strings.Contains(said, hand) {
				t.Errorf("the spectator's description %q tells a hand (%q)", said, hand)
			}
		}
	}
}

// cardNames are the cards' printed names by language, said once.
var cardNames = sync.OnceValue(func() map[string][NumCards + 1]string {
	out := map[string][NumCards + 1]string{}
	for _, lang := range games.Languages() {
		var names [NumCards + 1]string
		for _, c := range Pack() {
			names[c] = words.In(lang).Must(cardText(c))
		}
		out[lang] = names
	}
	return out
})

// namesCard reports whether text, in lang, names card c as the game prints
// it ("K♥" in English, "R♥" in French), as a whole (10♥ does not name 0♥).
func namesCard(text, lang string, c Card) bool {
	name := cardNames()[lang][c]
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !strings.ContainsAny(text[at-1:at], "0123456789") {
			return true
		}
		i = at + len(name)
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

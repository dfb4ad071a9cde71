package coupage

import (
	"math/rand/v2"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// spec is the spectator in the tables below.
const spec = games.Spectator

// Describe says what each event did as the actor, another seat and the
// spectator know it: a drawn, stolen or face-down card is named only for the
// seats that may see it (section 5); the description of the redacted event
// is the same.
func TestDescribe(t *testing.T) {
	cases := []struct {
		name  string
		steps func(t *testing.T) []step
		typ   string
		want  map[games.Seat]string
	}{
		{"draw from the deck", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw")
		}, evDrew, map[games.Seat]string{
			ana:  "You drew Xarel·lo ★ from the deck.",
			bob:  "Ana drew a card from the deck.",
			spec: "Ana drew a card from the deck.",
		}},
		{"draw from the market", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw market 2")
		}, evTook, map[games.Seat]string{
			ana:  "You took Parellada ★★★ from market slot 2.",
			bob:  "Ana took Parellada ★★★ from market slot 2.",
			spec: "Ana took Parellada ★★★ from market slot 2.",
		}},
		{"market refilled", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1"}}.build(t)
			return tb.play(ana, "draw market 2")
		}, evMarket, map[games.Seat]string{
			ana:  "Market slot 2 now shows Xarel·lo ★.",
			spec: "Market slot 2 now shows Xarel·lo ★.",
		}},
		{"end-of-turn refill (one event per card)", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}, top: []string{"xar1", "xar2", "time"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "end")
		}, evDrew, map[games.Seat]string{
			ana:  "You drew Xarel·lo ★★ at the end of the turn.",
			cleo: "Ana drew a card at the end of the turn.",
			spec: "Ana drew a card at the end of the turn.",
		}},
		{"make", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar2", "tre1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "make rouge 1 gar2 tre1")
		}, evMade, map[games.Seat]string{
			ana: "You started a Rouge on your barrel 1 with Garnatxa ★★ and Trepat ★.",
			bob: "Ana started a Rouge on barrel 1 with Garnatxa ★★ and Trepat ★.",
		}},
		{"Time card", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"time"}, barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "time 1")
		}, evAged, map[games.Seat]string{
			ana:  "You added a Time card to your barrel 1.",
			spec: "Ana added a Time card to barrel 1.",
		}},
		{"Time from stars: the face-down card is Ana's", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac2", "par1"}, barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "time 1 mac2 par1")
		}, evAged, map[games.Seat]string{
			ana:  "You put Macabeu ★★ face down under your barrel 1 as Time and discarded Parellada ★.",
			bob:  "Ana put a grape card face down under barrel 1 as Time and discarded Parellada ★.",
			spec: "Ana put a grape card face down under barrel 1 as Time and discarded Parellada ★.",
		}},
		{"Vol de carte: thief and victim see the card", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evStole, map[games.Seat]string{
			ana:  "You took Macabeu ★ at random from Bob's hand.",
			bob:  "Ana took Macabeu ★ at random from your hand.",
			cleo: "Ana took a card at random from Bob's hand.",
			spec: "Ana took a card at random from Bob's hand.",
		}},
		{"a special is played", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evPlayed, map[games.Seat]string{
			ana: "You played Vol de carte.",
			bob: "Ana played Vol de carte.",
		}},
		{"the played special's discard is not told twice", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vol de carte"}}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vol de carte bob")
		}, evDiscarded, map[games.Seat]string{ana: "", bob: "", spec: ""}},
		{"Évaporation", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "rose", grapes: []string{"gar1", "mac2"}}}}, {hand: []string{"evaporation"}}},
				market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "evaporation ana 2 mac2")
		}, evEvaporated, map[games.Seat]string{
			bob:  "You evaporated Macabeu ★★ from Ana's barrel 2.",
			ana:  "Bob evaporated Macabeu ★★ from your barrel 2.",
			cleo: "Bob evaporated Macabeu ★★ from Ana's barrel 2.",
		}},
		{"Vin piqué", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}}}}, {hand: []string{"vin pique"}}},
				market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "vin pique ana 2")
		}, evSpoiled, map[games.Seat]string{
			bob: "You put a Vin piqué on Ana's barrel 2.",
			ana: "Bob put a Vin piqué on your barrel 2.",
		}},
		{"Vin piqué counter", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 1}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evSpoilMoved, map[games.Seat]string{
			ana: "The Vin piqué on your barrel 2 turned to 2.",
			bob: "The Vin piqué on Ana's barrel 2 turned to 2.",
		}},
		{"Vin piqué wears off", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{barrels: map[int]barrelSetup{2: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 4}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evSpoilGone, map[games.Seat]string{
			bob: "The Vin piqué on Ana's barrel 2 wore off and was discarded.",
		}},
		{"Œnologue", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"oenologue"}}, {barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac1", "par1"}, spoil: 2}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "oenologue bob 1")
		}, evSpoilGone, map[games.Seat]string{
			ana: "You removed the Vin piqué from Bob's barrel 1 (Œnologue).",
			bob: "Ana removed the Vin piqué from your barrel 1 (Œnologue).",
		}},
		{"Vol de temps: the face-down card stays unseen", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{
				{barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar1", "tre1"}, time: []string{"mac3"}}}},
				{hand: []string{"vol de temps"}, barrels: map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"xar1", "par2"}}}},
			}, market: [2]string{"ull3", "par3"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "vol de temps ana 1 facedown 1")
		}, evTimeStolen, map[games.Seat]string{
			bob:  "You moved a face-down card counting as Time from Ana's barrel 1 to your barrel 1.",
			ana:  "Bob moved a face-down card counting as Time from your barrel 1 to Bob's barrel 1.",
			spec: "Bob moved a face-down card counting as Time from Ana's barrel 1 to Bob's barrel 1.",
		}},
		{"repair", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"par1"}, barrels: map[int]barrelSetup{2: {wine: "rose", grapes: []string{"gar1"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "repair 2 par1")
		}, evRepaired, map[games.Seat]string{
			ana: "You repaired your barrel 2 with Parellada ★.",
			bob: "Ana repaired barrel 2 with Parellada ★.",
		}},
		{"bottle, first cava, extra turn", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 1 gar3")
		}, evBottled, map[games.Seat]string{
			ana: "You bottled the Cava rosé of your barrel 1, paying Garnatxa ★★★, and took a Cava card for it. You will play an extra turn (Cava rosé).",
			bob: "Ana bottled the Cava rosé of barrel 1, paying Garnatxa ★★★, and took a Cava card for it. Ana will play an extra turn (Cava rosé).",
		}},
		{"a bottled barrel is cleared", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time", "xar3"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 1 gar3")
		}, evCleared, map[games.Seat]string{
			bob: "The contents of Ana's barrel 1 went to the discard pile: Macabeu ★, Parellada ★, Garnatxa ★, 2 Time cards and Xarel·lo ★★★.",
		}},
		{"the extra turn", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				1: {wine: "cava rose", grapes: []string{"mac1", "par1", "gar1"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 1 gar3")
			return tb.play(ana, "end")
		}, evTurnStarted, map[games.Seat]string{
			ana: "You took an extra turn (Cava rosé).",
			bob: "Ana took an extra turn (Cava rosé).",
		}},
		{"next turn", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evTurnStarted, map[games.Seat]string{
			ana:  "It is Bob's turn.",
			bob:  "It is your turn.",
			spec: "It is Bob's turn.",
		}},
		{"turn ended is bookkeeping", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
			return tb.play(ana, "end")
		}, evTurnEnded, map[games.Seat]string{ana: "", spec: ""}},
		{"Rouge ability waits", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"ull2", "vin pique"}, barrels: map[int]barrelSetup{
				2: {wine: "blanc", grapes: []string{"mac2", "par2"}},
				3: {wine: "rouge", grapes: []string{"gar1", "tre2"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "bottle 3 ull2")
		}, evAbility, map[games.Seat]string{
			ana: "You may now use the Rouge ability.",
			bob: "Ana may now use the Rouge ability.",
		}},
		{"Rouge ability: the face-down card is Ana's", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"ull2", "vin pique"}, barrels: map[int]barrelSetup{
				2: {wine: "blanc", grapes: []string{"mac2", "par2"}},
				3: {wine: "rouge", grapes: []string{"gar1", "tre2"}, time: []string{"time", "time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 3 ull2")
			return tb.play(ana, "age 2 vin pique")
		}, evAged, map[games.Seat]string{
			ana:  "You put Vin piqué face down under your barrel 2 as Time (Rouge ability).",
			bob:  "Ana put a card from their hand face down under barrel 2 as Time (Rouge ability).",
			spec: "Ana put a card from their hand face down under barrel 2 as Time (Rouge ability).",
		}},
		{"Rosé ability declined", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac2"}, barrels: map[int]barrelSetup{
				1: {wine: "rose", grapes: []string{"gar1", "mac1"}, time: []string{"time"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 1 mac2")
			return tb.play(ana, "take nothing")
		}, evDeclined, map[games.Seat]string{
			ana:  "You declined the Rosé ability.",
			cleo: "Ana declined the Rosé ability.",
		}},
		{"Cava blanc: the face-down card reaches Ana's hand unseen", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"gar3"}, barrels: map[int]barrelSetup{
				4: {wine: "cava blanc", grapes: []string{"mac1", "xar2", "par3"}, time: []string{"time", "tre1"}}}}},
				market: [2]string{"ull3", "par1"}}.build(t)
			tb.do(ana, "draw")
			tb.do(ana, "bottle 4 gar3")
			return tb.play(ana, "recover facedown xar2")
		}, evRecovered, map[games.Seat]string{
			ana:  "You took Trepat ★ and Xarel·lo ★★ back into your hand from the bottled Cava blanc of your barrel 4 (Cava blanc ability).",
			bob:  "Ana took a face-down card and Xarel·lo ★★ back into their hand from the bottled Cava blanc of barrel 4 (Cava blanc ability).",
			spec: "Ana took a face-down card and Xarel·lo ★★ back into their hand from the bottled Cava blanc of barrel 4 (Cava blanc ability).",
		}},
		{"discard and draw", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}, top: []string{"xar1", "gar3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "discard mac1")
		}, evDiscarded, map[games.Seat]string{
			ana: "You discarded Macabeu ★.",
			bob: "Ana discarded Macabeu ★.",
		}},
		{"the card drawn after a discard", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}, top: []string{"xar1", "gar3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "discard mac1")
		}, evDrew, map[games.Seat]string{
			ana: "You drew Garnatxa ★★★.",
			bob: "Ana drew a card.",
		}},
		{"reshuffle", func(t *testing.T) []step {
			tb := tableSetup{market: [2]string{"ull3", "par1"}, restToDiscard: true}.build(t)
			return tb.play(ana, "draw")
		}, evShuffled, map[games.Seat]string{
			ana:  "The discard pile was shuffled into a new deck of 77 cards.",
			spec: "The discard pile was shuffled into a new deck of 77 cards.",
		}},
		{"Récolte revealed", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{}, {hand: []string{"recolte"}}}, market: [2]string{"ull2", "par3"},
				top: []string{"xar1", "time", "mac3", "vin pique"}, active: bob}.build(t)
			tb.do(bob, "draw")
			return tb.play(bob, "recolte")
		}, evRevealed, map[games.Seat]string{
			ana:  "The Récolte revealed a Time card, Macabeu ★★★ and Vin piqué.",
			spec: "The Récolte revealed a Time card, Macabeu ★★★ and Vin piqué.",
		}},
		{"Récolte pick", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{}, {hand: []string{"recolte"}}}, market: [2]string{"ull2", "par3"},
				top: []string{"xar1", "time", "mac3", "vin pique"}, active: bob}.build(t)
			tb.do(bob, "draw")
			tb.do(bob, "recolte")
			return tb.play(bob, "pick mac3")
		}, evPicked, map[games.Seat]string{
			bob: "You picked Macabeu ★★★ from the Récolte.",
			ana: "Bob picked Macabeu ★★★ from the Récolte.",
		}},
		{"a win", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vin jeune"}, barrels: map[int]barrelSetup{
				1: {wine: "blanc", grapes: []string{"mac1", "par1"}, time: []string{"time"}, bottled: true},
				3: {wine: "cava rose", grapes: []string{"mac2", "par2", "gar2"}, time: []string{"time", "time"}},
				4: {wine: "rouge", grapes: []string{"gar3", "tre3"}, time: []string{"time", "time"}, bottled: true}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vin jeune 3")
		}, evGameOver, map[games.Seat]string{
			ana:  "The game is over: you win with 2 wines and 1 cava bottled.",
			bob:  "The game is over: Ana wins with 2 wines and 1 cava bottled.",
			spec: "The game is over: Ana wins with 2 wines and 1 cava bottled.",
		}},
		{"Vin jeune bottles without stars", func(t *testing.T) []step {
			tb := tableSetup{seats: []seatSetup{{hand: []string{"vin jeune"}, barrels: map[int]barrelSetup{
				3: {wine: "blanc", grapes: []string{"mac2", "par2"}, time: []string{"time"}}}}},
				market: [2]string{"ull3", "par3"}}.build(t)
			tb.do(ana, "draw")
			return tb.play(ana, "vin jeune 3")
		}, evBottled, map[games.Seat]string{
			ana: "You bottled the Blanc of your barrel 3 without paying stars (Vin jeune).",
			bob: "Ana bottled the Blanc of barrel 3 without paying stars (Vin jeune).",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := first(t, c.steps(t), c.typ)
			r := NewRules()
			for seat, want := range c.want {
				if got := r.describeEN(st.before, st.e, seat); got != want {
					t.Errorf("seat %d: %q, want %q", seat, got, want)
				}
				if got := r.describeEN(st.before, r.Redact(st.before, st.e, seat), seat); got != want {
					t.Errorf("seat %d, redacted event: %q, want %q", seat, got, want)
				}
			}
		})
	}
}

// Describe of the setup: the seating and each seat's deal, its own cards
// named for that seat only.
func TestDescribeSetup(t *testing.T) {
	r := NewRules()
	evs, err := r.Setup(games.Options{"wine_abilities": "off"}, []string{"Ana", "Bob"}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Initial(rulesCurrent)
	got := map[string]string{}
	for _, e := range evs {
		for _, seat := range []games.Seat{0, 1, spec} {
			d := r.describeEN(s, e, seat)
			switch {
			case e.Type == evSeated && seat == 0:
				got["seated/0"] = d
			case e.Type == evShuffled && seat == spec:
				got["shuffled"] = d
			case e.Type == evDrew && e.Seat == 0 && seat == 0:
				got["deal/own"] = d
				if want := "You were dealt " + (teller{s: s}).cards(e.Cards) + "."; d != want {
					t.Errorf("own deal %q, want %q", d, want)
				}
			case e.Type == evDrew && e.Seat == 0 && seat != 0:
				if want := s.Players[0] + " was dealt 5 cards."; d != want {
					t.Errorf("seat %d: deal %q, want %q", seat, d, want)
				}
			}
		}
		s = r.Evolve(s, e)
	}
	p := evs[0].Players
	if want := "The game began with " + p[0] + " (you) and " + p[1] + ", in this order of play; wine abilities are off."; got["seated/0"] != want {
		t.Errorf("seated %q, want %q", got["seated/0"], want)
	}
	if want := "The deck of 79 cards was shuffled."; got["shuffled"] != want {
		t.Errorf("shuffled %q, want %q", got["shuffled"], want)
	}
}

// Describe of a resignation and of the win it gives (CP-42).
func TestDescribeResign(t *testing.T) {
	tb := tableSetup{players: []string{"Ana", "Bob"}, seats: []seatSetup{{}, {hand: []string{"mac1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
	evs, err := tb.r.Resign(tb.s, bob, tb.rng)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, tb.r.describeEN(tb.s, e, ana))
		tb.fold(e)
	}
	want := []string{"Bob left the game; Bob's cards went to the discard pile: Macabeu ★.", "The game is over: you win as every other player left the game."}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("descriptions %q, want %q", got, want)
	}
}

// Redact with the state: a player who left sees as a spectator (CP-42).
func TestRedactResignedSeat(t *testing.T) {
	tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
	drew := Event{Type: evDrew, Seat: bob, Cards: []string{"mac1"}, N: 1, Reason: "action"}
	if x := tb.r.Redact(tb.s, drew, bob); len(x.Cards) != 1 {
		t.Fatalf("Bob does not see his own draw: %+v", x)
	}
	tb.s.Resigned[bob] = true
	if x := tb.r.Redact(tb.s, drew, bob); x.Cards != nil {
		t.Errorf("Bob left the game but still sees private cards: %+v", x)
	}
	if d := tb.r.describeEN(tb.s, drew, bob); d != "You drew a card." {
		t.Errorf("description for Bob after leaving: %q", d)
	}
}

package couillon

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// A typed move of no known kind is refused as notation, never accepted as a
// move that produces nothing (section 7; the speaker of CO-4 included).
func TestUnknownMoveKindRefused_CO4(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	for _, m := range []Move{{}, {Kind: 9}, {Kind: 9, Card: NewCard(Ace, Hearts)}} {
		evs, err := (Rules{}).Decide(s, 1, m, rng())
		re, ok := games.AsRuleError(err)
		if !ok || re.Rule != games.NotationRule || evs != nil {
			t.Fatalf("trump phase, move %+v: events %v, error %v", m, evs, err)
		}
	}
	s, _ = run(t, s, "accept")
	if _, err := (Rules{}).Decide(s, 1, Move{}, rng()); err == nil {
		t.Fatal("play phase: an empty move was accepted")
	}
}

// [HOUSE] Notation extras: French words, white suit symbols, `jouer <card>`,
// and the emoji form of the suit symbols that phones send ("k♥️").
func TestNotationExtras_HOUSE(t *testing.T) {
	s := (Rules{}).Initial(RulesVersion)
	for _, tc := range []struct{ in, want string }{
		{"prendre", "accept"}, {"Prendre", "accept"}, {"passe", "pass"}, {"PASSE", "pass"},
		{"k♡", "play K♥"}, {"q♢", "play Q♦"}, {"a♤", "play A♠"}, {"10♧", "play 10♣"},
		{"jouer kh", "play K♥"}, {"Jouer roi de cœur", "play K♥"}, {"joue as de pique", "play A♠"},
		{"neuf de carreau", "play 9♦"}, {"valet de trèfle", "play J♣"}, {"dame de cœur", "play Q♥"},
		{"as de carreau", "play A♦"}, {"dix de pique", "play 10♠"},
		{"k♥️", "play K♥"}, {"play 10♦️", "play 10♦"}, {"A♠️", "play A♠"}, {"q♣︎", "play Q♣"},
	} {
		m, err := (Rules{}).Parse(s, tc.in)
		if err != nil {
			t.Errorf("parse %q: %v", tc.in, err)
			continue
		}
		if got := (Rules{}).Format(s, m); got != tc.want {
			t.Errorf("%q formats as %q, want %q", tc.in, got, tc.want)
		}
	}
}

// [HOUSE] CO-33 with CO-15: without a declaring team the capot bonus still
// goes to a team that takes all 4 tricks (CO-15 only rules out loops).
func TestCapotWithoutDeclarers_CO16_CO33_CO15(t *testing.T) {
	on := games.Options{"capot": "on"}
	rec := scoreDeal(scoreState(on, -1, 0, 24, [2]int{5, 5}, 0, 1))
	if rec.Winner != 1 || rec.Capot != 1 || rec.R != [2]int{5, 3} || rec.Change != [2]int{0, -2} {
		t.Fatalf("capot without declarers: %+v", rec)
	}
	rec = scoreDeal(scoreState(nil, -1, 0, 24, [2]int{5, 5}, 0, 1))
	if rec.R != [2]int{5, 4} {
		t.Fatalf("capot off: %+v", rec)
	}
	// A capot is not a loss for the other team: no loop without declarers.
	rec = scoreDeal(scoreState(on, -1, 24, 0, [2]int{2, 2}, 1, 0))
	if rec.R != [2]int{0, 2} || rec.Change != [2]int{-2, 0} {
		t.Fatalf("capot after a tie, floor at 0: %+v", rec)
	}
}

// CO-9 threshold20 edges: 20–20 is a tie (under every rules version), and
// "anything else is won by the opponents": declarers with exactly 20 against
// 19 fail. Equal splits under each version: TestThreshold20EqualSplits_CO9_CO13.
func TestThreshold20Edges_CO9(t *testing.T) {
	th := games.Options{"deal_rule": "threshold20"}
	for _, tc := range []struct {
		d, pa, pb int
		win       int
		r         [2]int
	}{
		{0, 20, 20, -1, [2]int{5, 5}},
		{0, 20, 19, 1, [2]int{6, 4}},
		{1, 19, 20, 0, [2]int{4, 6}},
		{1, 4, 21, 1, [2]int{5, 4}},
		{0, 0, 30, 1, [2]int{6, 4}},
	} {
		rec := scoreDeal(scoreState(th, tc.d, tc.pa, tc.pb, [2]int{5, 5}, 0, -1))
		if rec.Winner != tc.win || rec.R != tc.r {
			t.Errorf("declarers %d, %d–%d: winner %d R %v, want %d %v", tc.d, tc.pa, tc.pb, rec.Winner, rec.R, tc.win, tc.r)
		}
	}
}

// [HOUSE] Rule ids of errors: the reasons say in words what CO-7 asks
// (follow suit, beat, trump, overtrump), and never name a card of another hand.
func TestErrorReasons_CO7_HOUSE(t *testing.T) {
	// Ben accepts ♠ and leads Q♦; Cleo holds 10♦ K♦ A♠ 9♣.
	s := followRig(t, nil)
	s, _ = run(t, s, "qd")
	if why := refuse(t, s, 2, "9c", "CO-7"); !strings.Contains(why, "follow suit") {
		t.Errorf("9♣ when holding ♦: %q", why)
	}
	if why := refuse(t, s, 2, "10d", "CO-7"); !strings.Contains(why, "higher") || !strings.Contains(why, "Q♦") {
		t.Errorf("10♦ under Q♦: %q", why)
	}
	// Void in ♦ with trumps: Dan must trump, then overtrump.
	s = rig(t, nil, [4]string{"10d jd qd kd", "9d 9h 10h ac", "ks jc qc kc", "qs as 9c 10c"},
		"9s jh qh kh ah 10s js ad")
	s, _ = run(t, s, "accept", "9d")
	if why := refuse(t, s, 2, "jc", "CO-7"); !strings.Contains(why, "trump") {
		t.Errorf("a club when void in ♦ with trumps: %q", why)
	}
	s, _ = run(t, s, "ks")
	why := refuse(t, s, 3, "qs", "CO-7")
	if !strings.Contains(why, "higher trump") || !strings.Contains(why, "K♠") {
		t.Errorf("Q♠ under K♠ while holding A♠: %q", why)
	}
	if strings.Contains(why, "A♠") {
		t.Errorf("the reason names the card to play: %q", why)
	}
	// Trumps led, a non-trump while holding trumps.
	s = rig(t, nil, [4]string{"10d jd qd kd", "9s 9h 10h ac", "ks jc qc kc", "qs as 9c 10c"},
		"9d 10s qh kh ah jh js ad")
	s, _ = run(t, s, "pass", "pass", "pass", "pass", "pass", "accept", "9s") // ♠ (18th card) made by Ben
	if why := refuse(t, s, 2, "jc", "CO-7"); !strings.Contains(why, "must play a trump") {
		t.Errorf("a club on a trump lead: %q", why)
	}
	// A card of another hand: CO-18, naming only the card the mover wrote.
	if why := refuse(t, s, 2, "qs", "CO-18"); strings.Contains(why, "Dan") || strings.Contains(why, "seat 3") {
		t.Errorf("the reason tells who holds Q♠: %q", why)
	}
}

// [HOUSE] Scores: every seat gets its team's lines erased net of loops; the
// summary names the teams and R, never a card.
func TestResultScores_HOUSE(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "pass", "accept") // Cleo declares for team A, which loses 10–15
	s, _ = run(t, s, deal2Play()...)
	res := (Rules{}).Result(s)
	if res.Finished || !slices.Equal(res.Scores, []int{-1, 1, -1, 1}) {
		t.Fatalf("after a lost declaration: %+v", res)
	}
	if !strings.Contains(res.Summary.String(), "A 6, B 4") {
		t.Fatalf("summary %q", res.Summary.String())
	}
	// The view's score sheet has the deal's changes (HOUSE View).
	v := (Rules{}).View(s, games.Spectator).(View)
	if len(v.History) != 1 || v.History[0].Change != [2]int{1, -1} || v.History[0].R != [2]int{6, 4} ||
		v.History[0].Points != [2]int{10, 15} || v.History[0].Winner != 1 || v.History[0].Declarers != 0 {
		t.Fatalf("score sheet %+v", v.History)
	}
	// Match end: the winners reach the number of lines, the summary names them.
	s = rigScore(t, nil, hands, stock, []int{3, 1}, 0)
	s, _ = run(t, s, "accept")
	s, _ = run(t, s, deal2Play()...)
	res = (Rules{}).Result(s)
	if !res.Finished || !slices.Equal(res.Scores, []int{2, 5, 2, 5}) || !strings.Contains(res.Summary.String(), "Team B (Ben & Dan) wins") {
		t.Fatalf("match end: %+v", res)
	}
}

// [HOUSE] View: the turned cards keep their stock positions, the hidden ones
// are only counted, the accepting player and the tricks of the deal are shown.
func TestViewContents_HOUSE(t *testing.T) {
	hands, stock := allPassDeal()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "pass", "pass", "pass", "pass", "pass", "pass", "accept") // Cleo takes ♠
	s, _ = run(t, s, "10c", "qd", "as", "ac")
	v := (Rules{}).View(s, 1).(View)
	want := []TurnedCard{{17, NewCard(Nine, Hearts)}, {18, NewCard(Nine, Spades)}}
	if !slices.Equal(v.Turned, want) || v.Hidden != 6 || v.Proposed != 18 {
		t.Fatalf("turned %v hidden %d proposed %d", v.Turned, v.Hidden, v.Proposed)
	}
	if v.Declarer != 2 || v.Declarers != 0 || v.Trump != Spades || len(v.Bids) != 7 || v.Bids[6] != (Bid{Seat: 2, Accept: true, Pos: 18}) {
		t.Fatalf("declarer %d declarers %d trump %v bids %v", v.Declarer, v.Declarers, v.Trump, v.Bids)
	}
	if len(v.Tricks) != 1 || v.Tricks[0].Winner != 3 || v.Tricks[0].Points != 10 || v.DealScore != [2]int{0, 10} || v.ToAct != 3 {
		t.Fatalf("tricks %+v points %v to act %d", v.Tricks, v.DealScore, v.ToAct)
	}
	if v.HandSizes != [4]int{3, 3, 3, 3} || len(v.Hand) != 3 || v.Hands != nil || v.Stock != nil {
		t.Fatalf("hand sizes %v hand %v hands %v stock %v", v.HandSizes, v.Hand, v.Hands, v.Stock)
	}
}

// fuzzStates plays a few seeded random games (random options, random legal
// moves and defaults) and returns every state met, the initial state and the
// finished ones included.
func fuzzStates(tb testing.TB) []games.State {
	eng := New()
	s0, err := eng.Initial(RulesVersion)
	if err != nil {
		tb.Fatal(err)
	}
	out := []games.State{s0}
	for i := range 4 {
		var seed games.Seed
		seed[0], seed[1] = byte(i), 0xf7
		pick := seed.Rand(1 << 40)
		opts := randomOptions(pick)
		if i == 0 {
			opts = games.Options{"all_pass": "gerver", "following": "gerver", "lines": "5", "capot": "on"}
		}
		log, err := eng.Setup(opts, randomPlayers(pick), seed.Rand(0))
		if err != nil {
			tb.Fatal(err)
		}
		s, err := games.Fold(eng, RulesVersion, log)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
		for len(eng.Pending(s)) > 0 {
			p := eng.Pending(s)[0]
			m := p.Default
			if pick.IntN(3) > 0 {
				legal := eng.Legal(s, p.Seat)
				m = legal[pick.IntN(len(legal))]
			}
			evs, err := eng.Decide(s, p.Seat, m, seed.Rand(len(log)))
			if err != nil {
				tb.Fatal(err)
			}
			for _, e := range evs {
				if s, err = eng.Evolve(s, e); err != nil {
					tb.Fatal(err)
				}
			}
			log = append(log, evs...)
			out = append(out, s)
		}
		if i == 1 { // a match ended by resignation
			evs, err := eng.Resign(out[len(out)/2], 2, seed.Rand(0))
			if err != nil {
				tb.Fatal(err)
			}
			r := out[len(out)/2]
			for _, e := range evs {
				r, _ = eng.Evolve(r, e)
			}
			out = append(out, r)
		}
	}
	return out
}

// FuzzDecide feeds arbitrary text from arbitrary seats (spectators and seats
// out of range included) against states of a few random games: Decide and
// Resign never panic, refuse with a rule error that names no hidden card,
// accept only a listed legal move of the pending seat, and leave the state
// alone. The seed corpus runs with every `go test`.
func FuzzDecide(f *testing.F) {
	texts := []string{
		"accept", "pass", "play", "take", "jouer", "passer", "prendre", "passe",
		"play kh", "kh", "KH", "td", "10d", "play 10♦", "k♥", "k♥️", "q♡", "king of hearts",
		"roi de cœur", "jouer as de trèfle", "play 9c", "play as", "play ac", "9s",
		"", " ", "play ", "play 8h", "play kx", "kh kh", "fold", "play 11c", "pass pass",
		"king of", "of hearts", "10", "t", "♥", "play ♥", "\x00", "play \xff\xfe", "jouer jouer",
		"accept\naccept", "PLAY QS", "Play\tJd", "as de", "de pique", strings.Repeat("a", 300),
		"1", "-1", "Ana", "seat 0", "10 of", "t♦️", "\u00e9", "play 10d 10d",
	}
	r := rand.New(rand.NewPCG(5, 9))
	seats := []int8{-2, -1, 0, 1, 2, 3, 4, 5} // seats in and out of range
	for i, text := range texts {
		f.Add(text, seats[r.IntN(len(seats))], uint16(r.Uint32()&0xffff))
		f.Add(text, int8(i%6-1), uint16(i*7919))
	}
	for _, c := range Pack() {
		f.Add("play "+c.Code(), seats[1+r.IntN(6)], uint16(r.Uint32()&0xffff))
		f.Add(c.Rank().Name()+" of "+c.Suit().Name(), seats[2+r.IntN(4)], uint16(r.Uint32()&0xffff))
	}
	states := fuzzStates(f)
	eng := New()
	f.Fuzz(func(t *testing.T, text string, seat8 int8, pick uint16) {
		s := states[int(pick)%len(states)]
		st := s.(State)
		seat := games.Seat(seat8)
		keep := st.clone()
		evs, err := eng.Decide(s, seat, text, rand.New(rand.NewPCG(uint64(pick), 1)))
		if !reflect.DeepEqual(keep, s.(State)) {
			t.Fatalf("Decide(%d, %q) changed the state", seat, text)
		}
		canon, perr := eng.Canonical(s, text)
		if err != nil {
			re, ok := games.AsRuleError(err)
			if !ok {
				t.Fatalf("seat %d %q: not a rule error: %v", seat, text, err)
			}
			if re.Rule != games.NotationRule {
				named := NoCard
				if m, err := parseMove(text); err == nil {
					named = m.Card
				}
				for _, lang := range games.Languages() {
					why := re.Reason.In(lang)
					for _, c := range hiddenFrom(st, seat).without(named).cards() {
						if namesCard(why, lang, c) {
							t.Fatalf("seat %d %q: reason %q names the hidden %v", seat, text, why, c)
						}
					}
				}
				if perr != nil {
					t.Fatalf("seat %d %q: a rule error %v for text that does not parse (%v)", seat, text, re, perr)
				}
				if slices.Contains(eng.Legal(s, seat), canon) {
					t.Fatalf("seat %d %q: listed legal but refused: %v", seat, text, re)
				}
			}
		} else {
			pend := eng.Pending(s)
			if perr != nil || len(pend) != 1 || pend[0].Seat != seat || !slices.Contains(eng.Legal(s, seat), canon) {
				t.Fatalf("seat %d %q accepted (canonical %q, %v) but pending %v, legal %v", seat, text, canon, perr, pend, eng.Legal(s, seat))
			}
			next := games.State(st.clone())
			for _, e := range evs {
				if next, err = eng.Evolve(next, e); err != nil {
					t.Fatalf("evolve: %v", err)
				}
			}
			conserved(t, next.(State))
		}
		// Resigning never panics either, and is refused with a rule error.
		if _, err := eng.Resign(s, seat, rand.New(rand.NewPCG(1, 1))); err != nil {
			if _, ok := games.AsRuleError(err); !ok {
				t.Fatalf("resign seat %d: %v", seat, err)
			}
		} else if seat < 0 || seat > 3 || st.Phase == PhaseOver || st.Phase == PhaseSetup {
			t.Fatalf("resign of seat %d accepted in phase %v", seat, st.Phase)
		}
		// Views and Legal of any seat never panic.
		if _, err := eng.View(s, seat); err != nil {
			t.Fatal(err)
		}
		_ = eng.Legal(s, seat)
		_ = fmt.Sprint(eng.Result(s))
	})
}

package couillon

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// Rule ids the scenarios do not reach, each with its test:
//
//	CO-1  TestTeamsAndTurnOrder_CO1
//	CO-2  TestPack_CO2
//	CO-3  TestDeal_CO3
//	CO-4  TestMakingTrump_CO4
//	CO-6  TestLeaderOption_CO6
//	CO-8  TestTrickWinner_CO8
//	CO-10 TestLines_CO10 (and the scoring table)
//	CO-11 the scoring table (winners erase)
//	CO-16 TestCapot_CO16_CO33
//	CO-18 TestTricks_CO18
//	CO-32 TestResign_CO32 ([HOUSE])
//	CO-33 TestCapot_CO16_CO33 ([HOUSE])
//	section 5 TestHiddenInformation
//	section 7 TestNotation, TestNotationExtras_HOUSE
//	[HOUSE] TestCapotWithoutDeclarers_CO16_CO33_CO15, TestErrorReasons_CO7_HOUSE,
//	        TestResultScores_HOUSE, TestViewContents_HOUSE
//	CO-9 threshold20 TestThreshold20Edges_CO9, TestThreshold20EqualSplits_CO9_CO13
//	rules versions TestInfoRulesVersion, TestScenario10_FollowingDefault_CO7,
//	        TestScenario2_EqualScore_CO9_CO13, TestRecordedGameRules1
//	Describe, Choices, Redact TestDescribe*, TestChoices*, TestRedact*
//	robustness FuzzDecide (its seed corpus runs with every go test)

func TestTeamsAndTurnOrder_CO1(t *testing.T) {
	if team(0) != 0 || team(2) != 0 || team(1) != 1 || team(3) != 1 {
		t.Fatal("teams are seats 0+2 and 1+3")
	}
	if _, err := (Rules{}).Setup(nil, []string{"a", "b", "c"}, rng()); err == nil {
		t.Fatal("3 players accepted")
	}
	if info := (Rules{}).Info(); info.MinSeats != 4 || info.MaxSeats != 4 {
		t.Fatalf("seats %d..%d", info.MinSeats, info.MaxSeats)
	}
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "accept", "ah")
	// Cleo (seat 2) is next, clockwise; Ana and Dan may not play.
	why := refuse(t, s, 3, "10h", "CO-1")
	if !strings.Contains(why, "Cleo") {
		t.Fatalf("reason %q does not say whose turn it is", why)
	}
	refuse(t, s, 0, "jh", "CO-1")
	refuse(t, s, 7, "jh", "CO-1")
	refuse(t, s, games.Spectator, "jh", "CO-1")
}

func TestPack_CO2(t *testing.T) {
	p := Pack()
	if len(p) != 24 || setOf(p...) != fullSet {
		t.Fatalf("pack %v", p)
	}
	if pts := setOf(p...).points(); pts != 40 {
		t.Fatalf("pack is worth %d points", pts)
	}
	if p[0].Code() != "9c" || p[23].Code() != "as" || p[4].Code() != "10c" {
		t.Fatalf("canonical order starts %v … ends %v", p[0], p[23])
	}
	for _, tc := range []struct {
		code string
		pts  int
	}{{"ah", 4}, {"kc", 3}, {"qd", 2}, {"js", 1}, {"10h", 0}, {"9c", 0}} {
		c, _ := parseCard(tc.code)
		if c.Points() != tc.pts {
			t.Errorf("%s is worth %d, want %d", tc.code, c.Points(), tc.pts)
		}
	}
	// Queens are in the pack (corrected text).
	if !setOf(p...).has(NewCard(Queen, Hearts)) {
		t.Fatal("no queen")
	}
}

func TestDeal_CO3(t *testing.T) {
	for dealer := range games.Seat(4) {
		r1 := rand.New(rand.NewPCG(uint64(dealer), 3))
		r2 := rand.New(rand.NewPCG(uint64(dealer), 3))
		evs := dealEvents(dealer, 7, r1)
		pack := games.Shuffle(r2, Pack())
		d := evs[0]
		if d.Type != EvDealt || d.Dealer != dealer || d.Deal != 7 || len(d.Stock) != 8 {
			t.Fatalf("dealt %+v", d)
		}
		// Two rounds of 2, clockwise from the dealer's left.
		for i := range 4 {
			seat := (int(dealer) + 1 + i) % 4
			want := []Card{pack[2*i], pack[2*i+1], pack[8+2*i], pack[8+2*i+1]}
			slices.Sort(want)
			if !slices.Equal(d.Hands[seat], want) {
				t.Errorf("dealer %d: seat %d got %v, want %v", dealer, seat, d.Hands[seat], want)
			}
		}
		if !slices.Equal(d.Stock, pack[16:]) {
			t.Errorf("stock %v, want cards 17–24 %v", d.Stock, pack[16:])
		}
		if evs[1].Type != EvTurned || evs[1].Pos != 17 || evs[1].Card != pack[16] {
			t.Errorf("turned %+v, want the 17th card %v", evs[1], pack[16])
		}
	}
}

func TestMakingTrump_CO4(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	// Ben speaks first; the others wait.
	why := refuse(t, s, 2, "accept", "CO-4")
	if !strings.Contains(why, "Ben") {
		t.Fatalf("reason %q", why)
	}
	refuse(t, s, 1, "play ah", "CO-4")
	s, evs := run(t, s, "pass", "accept")
	// The first accept ends the round.
	if len(find(evs, EvTrump)) != 1 || s.Phase != PhasePlay || s.Trump != Spades || s.Declarers != 0 {
		t.Fatalf("phase %d trump %v declarers %d", s.Phase, s.Trump, s.Declarers)
	}
	refuse(t, s, 1, "pass", "CO-4")
	refuse(t, s, 1, "accept", "CO-4")
	if got := (Rules{}).Legal(s, 3); got != nil {
		t.Fatalf("Dan may not act but has legal moves %v", got)
	}
	// Bids are public.
	v := (Rules{}).View(s, games.Spectator).(View)
	if len(v.Bids) != 2 || v.Bids[0].Accept || !v.Bids[1].Accept || v.Trump != Spades || v.Declarer != 2 {
		t.Fatalf("view bids %+v trump %v declarer %d", v.Bids, v.Trump, v.Declarer)
	}
}

func TestLeaderOption_CO6(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, games.Options{"leader": "declarer"}, hands, stock)
	s, _ = run(t, s, "pass", "accept")
	if s.Turn != 2 {
		t.Fatalf("leader = declarer: seat %d leads, want Cleo (2)", s.Turn)
	}
	s = rig(t, games.Options{"leader": "declarer"}, hands, stock)
	s, _ = run(t, s, "pass", "pass", "pass", "accept")
	if s.Turn != 0 {
		t.Fatalf("leader = declarer: seat %d leads, want Ana (0)", s.Turn)
	}
	// No declaring team: left of the dealer leads.
	ap, st := allPassDeal()
	g := rig(t, games.Options{"leader": "declarer", "all_pass": "gerver"}, ap, st)
	g, _ = run(t, g, "pass", "pass", "pass", "pass")
	if g.Turn != 1 || g.Declarers != -1 {
		t.Fatalf("no declarers: seat %d leads", g.Turn)
	}
}

func TestTrickWinner_CO8(t *testing.T) {
	for _, tc := range []struct {
		trick string
		trump Suit
		want  games.Seat
	}{
		{"9d kd qd ad", Spades, 3},  // highest of the led suit
		{"kd ad 9s 10d", Spades, 2}, // the only trump
		{"9s ad as 10h", Hearts, 3}, // trump beats the led ♠ and ♦
		{"jd ac ah as", Hearts, 2},  // off-suit cards never win
		{"qh 9h kh 10h", Hearts, 2}, // trump led
		{"10c 9c jd ks", Hearts, 0}, // nobody follows or trumps
	} {
		cs := cards(t, tc.trick)
		var trick []Played
		for i, c := range cs {
			trick = append(trick, Played{Seat: games.Seat(i), Card: c})
		}
		if got := trickWinner(trick, tc.trump); got != tc.want {
			t.Errorf("%s trump %v: seat %d wins, want %d", tc.trick, tc.trump, got, tc.want)
		}
	}
}

func TestLines_CO10(t *testing.T) {
	evs, err := (Rules{}).Setup(games.Options{"lines": "7"}, []string{"a", "b", "c", "d"}, rng())
	if err != nil {
		t.Fatal(err)
	}
	s := (Rules{}).Initial(RulesVersion)
	for _, e := range evs {
		s = (Rules{}).Evolve(s, e)
	}
	if s.R != [2]int{7, 7} {
		t.Fatalf("R %v", s.R)
	}
	evs, _ = (Rules{}).Setup(nil, []string{"a", "b", "c", "d"}, rng())
	if evs[0].Options["lines"] != "5" || (Rules{}).Evolve(Rules{}.Initial(RulesVersion), evs[0]).R != [2]int{5, 5} {
		t.Fatalf("default lines: %v", evs[0].Options)
	}
	if _, err := (Rules{}).Setup(games.Options{"lines": "6"}, []string{"a", "b", "c", "d"}, rng()); err == nil {
		t.Fatal("lines 6 accepted")
	}
}

func TestCapot_CO16_CO33(t *testing.T) {
	on := games.Options{"capot": "on"}
	for _, tc := range []struct {
		name      string
		opts      games.Options
		declarers int
		pa, pb    int
		capot     int
		b         int
		want      [2]int
	}{
		{"off: no bonus", nil, 0, 25, 0, 0, 0, [2]int{4, 5}},
		{"on: one extra line", on, 0, 25, 0, 0, 0, [2]int{3, 5}},
		{"on: with a tie bonus", on, 1, 0, 22, 1, 1, [2]int{5, 2}},
		{"on, CO-33: declarers take all 4 tricks but fail threshold20", games.Options{"capot": "on", "deal_rule": "threshold20"}, 0, 18, 0, 0, 0, [2]int{6, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := scoreState(tc.opts, tc.declarers, tc.pa, tc.pb, [2]int{5, 5}, tc.b, tc.capot)
			rec := scoreDeal(s)
			if rec.R != tc.want || rec.Capot != tc.capot {
				t.Fatalf("R %v capot %d, want %v", rec.R, rec.Capot, tc.want)
			}
		})
	}
}

func TestTricks_CO18(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "accept")
	refuse(t, s, 1, "play 9c", "CO-18") // a card Ben does not hold
	refuse(t, s, 1, "play ac", "CO-18")
	play := deal2Play()
	var leaders []games.Seat
	for i := 0; i < 12; i += 4 {
		s, _ = run(t, s, play[i:i+4]...)
		leaders = append(leaders, s.Turn)
	}
	if !slices.Equal(leaders, []games.Seat{1, 1, 2}) || len(s.Tricks) != 3 {
		t.Fatalf("leaders after tricks 1–3: %v", leaders)
	}
	v := (Rules{}).View(s, games.Spectator).(View)
	if len(v.Tricks) != 3 || v.DealScore != [2]int{10, 10} {
		t.Fatalf("spectator sees tricks %v points %v", v.Tricks, v.DealScore)
	}
	_, evs := run(t, s, play[12:]...)
	if n := len(find(evs, EvTrick)); n != 1 || len(find(evs, EvScored)) != 1 {
		t.Fatalf("tricks %d", n)
	}
}

func TestResign_CO32(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "accept", "ah")
	evs, err := (Rules{}).Resign(s, 2, rng())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		s = (Rules{}).Evolve(s, e)
	}
	res := (Rules{}).Result(s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{1, 3}) || !strings.Contains(res.Summary.String(), "Cleo resigned") {
		t.Fatalf("result %+v", res)
	}
	if len(Rules{}.Pending(s)) != 0 {
		t.Fatal("pending after resign")
	}
	if _, err := (Rules{}).Resign(s, 1, rng()); err == nil {
		t.Fatal("resign after the end accepted")
	}
	v := (Rules{}).View(s, 0).(View)
	if len(v.Hands) != 4 || len(v.Hands[2]) != 4 || len(v.Stock) != 8 {
		t.Fatalf("after resign every card is public: %v %v", v.Hands, v.Stock)
	}
	if _, err := (Rules{}).Resign(Rules{}.Initial(RulesVersion), 0, rng()); err == nil {
		t.Fatal("resign before setup accepted")
	}
}

func TestHiddenInformation(t *testing.T) {
	eng := New()
	evs, err := eng.Setup(nil, []string{"Ana", "Ben", "Cleo", "Dan"}, rng())
	if err != nil {
		t.Fatal(err)
	}
	var dealt Event
	if err := json.Unmarshal(evs[1].Data, &dealt); err != nil {
		t.Fatal(err)
	}
	for seat := games.Spectator; seat < 4; seat++ {
		before, err := games.Fold(eng, RulesVersion, evs[:1])
		if err != nil {
			t.Fatal(err)
		}
		red, err := eng.Redact(before, evs[1], seat)
		if err != nil {
			t.Fatal(err)
		}
		var e Event
		if err := json.Unmarshal(red.Data, &e); err != nil {
			t.Fatal(err)
		}
		if len(e.Stock) != 0 {
			t.Errorf("seat %d sees the stock", seat)
		}
		for h := range 4 {
			if games.Seat(h) == seat {
				if !slices.Equal(e.Hands[h], dealt.Hands[h]) {
					t.Errorf("seat %d does not see its own hand", seat)
				}
			} else if len(e.Hands[h]) != 0 {
				t.Errorf("seat %d sees hand %d", seat, h)
			}
		}
	}
	s, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		t.Fatal(err)
	}
	st := s.(State)
	for seat := games.Spectator; seat < 4; seat++ {
		doc, _ := eng.View(s, seat)
		if c, bad := leaks(doc, hiddenFrom(st, seat)); bad {
			t.Errorf("seat %d sees %v", seat, c)
		}
		// The turned 17th card is public.
		if !gametest.Contains(doc, st.Stock[0].Code()) {
			t.Errorf("seat %d does not see the turned card", seat)
		}
	}
	// The seating draw is public from the start.
	v := (Rules{}).View(st, games.Spectator).(View)
	if len(v.Draws) != 4 || len(v.Hand) != 0 {
		t.Fatalf("spectator view %+v", v)
	}
}

func TestNotation(t *testing.T) {
	s := (Rules{}).Initial(RulesVersion)
	for _, tc := range []struct {
		in, want string
	}{
		{"accept", "accept"}, {"ACCEPT", "accept"}, {" play ", "accept"}, {"take", "accept"},
		{"jouer", "accept"}, {"Jouer", "accept"},
		{"pass", "pass"}, {"passer", "pass"}, {"PASS", "pass"},
		{"play kh", "play K♥"}, {"kh", "play K♥"}, {"KH", "play K♥"}, {"Play Kh", "play K♥"},
		{"play 10d", "play 10♦"}, {"10d", "play 10♦"}, {"td", "play 10♦"}, {"TD", "play 10♦"},
		{"9s", "play 9♠"}, {"k♥", "play K♥"}, {"10♦", "play 10♦"}, {"a♠", "play A♠"}, {"q♣", "play Q♣"},
		{"king of hearts", "play K♥"}, {"play ten of diamonds", "play 10♦"}, {"Nine of Spades", "play 9♠"},
		{"ace of clubs", "play A♣"}, {"queen diamonds", "play Q♦"}, {"jack of spades", "play J♠"},
		{"roi de cœur", "play K♥"}, {"dame de pique", "play Q♠"}, {"as de trèfle", "play A♣"},
		{"valet de carreau", "play J♦"}, {"dix de coeur", "play 10♥"},
	} {
		m, err := (Rules{}).Parse(s, tc.in)
		if err != nil {
			t.Errorf("parse %q: %v", tc.in, err)
			continue
		}
		if got := (Rules{}).Format(s, m); got != tc.want {
			t.Errorf("%q formats as %q, want %q", tc.in, got, tc.want)
		}
		back, err := (Rules{}).Parse(s, (Rules{}).Format(s, m))
		if err != nil || back != m {
			t.Errorf("round trip of %q: %v %v", tc.in, back, err)
		}
	}
	for _, c := range Pack() {
		m := Move{Kind: Play, Card: c}
		for _, text := range []string{formatMove(m), c.Code(), c.Rank().Code() + c.Suit().Symbol(), c.Rank().Name() + " of " + c.Suit().Name()} {
			got, err := (Rules{}).Parse(s, text)
			if err != nil || got != m {
				t.Errorf("%q parses as %v, %v; want %v", text, got, err, m)
			}
		}
	}
	for _, bad := range []string{"", "8h", "play 8h", "kx", "play", "fold", "play king", "11c", "king of", "kh kh"} {
		m, err := (Rules{}).Parse(s, bad)
		if bad == "play" {
			if err != nil || m.Kind != Accept {
				t.Errorf("play alone is accept: %v %v", m, err)
			}
			continue
		}
		re, ok := games.AsRuleError(err)
		if !ok || re.Rule != games.NotationRule {
			t.Errorf("%q: want a notation error, got %v %v", bad, m, err)
		}
	}
}

func TestInfoOptions(t *testing.T) {
	info := (Rules{}).Info()
	if info.ID != "couillon" || len(info.Options) != 6 {
		t.Fatalf("info %+v", info)
	}
	want := map[string]string{"following": "ardennes", "all_pass": "next-card", "leader": "left-of-dealer",
		"deal_rule": "compare", "lines": "5", "capot": "off"}
	for _, o := range info.Options {
		if want[o.Name] != o.Default || len(o.Values) != 2 || o.Values[0] != o.Default {
			t.Errorf("option %+v", o)
		}
	}
	opts, err := New().Options(nil)
	if err != nil || len(opts) != 6 {
		t.Fatalf("defaults %v %v", opts, err)
	}
}

// TestEventsRoundTrip: every event type survives JSON (the harness checks
// whole logs; this pins seat 0 and "no declarers").
func TestEventsRoundTrip(t *testing.T) {
	ap, st := allPassDeal()
	s := rig(t, games.Options{"all_pass": "gerver"}, ap, st)
	_, evs := run(t, s, "pass", "pass", "pass", "pass")
	for _, e := range evs {
		b, _ := json.Marshal(e)
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		s1 := (Rules{}).Evolve(s.clone(), e)
		s2 := (Rules{}).Evolve(s.clone(), back)
		v1, _ := json.Marshal(Rules{}.View(s1, 0))
		v2, _ := json.Marshal(Rules{}.View(s2, 0))
		if string(v1) != string(v2) {
			t.Fatalf("%s does not round-trip: %s", e.Type, b)
		}
		s = s1
	}
	if s.Declarers != -1 || s.Declarer != -1 {
		t.Fatalf("declarers %d", s.Declarers)
	}
}

package couillon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Scenario 1 (CO-17, CO-3): the draw seats the players and names the first
// dealer; the next deal is dealt by the player left of the dealer.
func TestScenario1_DrawAndSeating_CO17_CO3(t *testing.T) {
	players, draws := seatByDraw([]string{"Ana", "Ben", "Cleo", "Dan"}, cards(t, "ah 9c as kd"))
	if want := []string{"Cleo", "Dan", "Ana", "Ben"}; !slices.Equal(players, want) {
		t.Fatalf("seating %v, want %v", players, want)
	}
	if want := cards(t, "as kd ah 9c"); !slices.Equal(draws, want) {
		t.Fatalf("draws by seat %v, want %v", draws, want)
	}
	// Play a whole deal with these seats: Dan (seat 1) speaks first and
	// leads; the next deal is dealt by Dan.
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s.Players = players
	if p := (Rules{}).Pending(s); p[0].Seat != 1 || p[0].Kind != "trump" {
		t.Fatalf("first to speak: %+v, want seat 1 (Dan)", p)
	}
	s, _ = do(t, s, 1, "pass")
	s, _ = do(t, s, 2, "accept")
	if s.Turn != 1 {
		t.Fatalf("first leader seat %d, want 1 (Dan)", s.Turn)
	}
	for len(s.History) == 0 {
		p := (Rules{}).Pending(s)[0]
		s, _ = do(t, s, p.Seat, p.Default)
	}
	if s.Dealer != 1 || s.Deal != 2 {
		t.Fatalf("deal %d dealt by seat %d, want deal 2 by seat 1 (Dan)", s.Deal, s.Dealer)
	}
}

// Scenario 1, through Setup (CO-17): the draw comes from the generator, is
// recorded in the seating event and seats by the house order.
func TestSetupSeatsByRecordedDraw_CO17(t *testing.T) {
	for seed := range uint64(50) {
		evs, err := (Rules{}).Setup(completeOptions(nil), []string{"Ana", "Ben", "Cleo", "Dan"}, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		e := evs[0]
		if e.Type != EvSeated || len(e.Draws) != 4 || len(e.Players) != 4 {
			t.Fatalf("first event %+v", e)
		}
		d := e.Draws
		if d[0] <= d[2] || d[2] <= d[1] || d[1] <= d[3] {
			t.Fatalf("draws by seat %v are not highest, third, second, fourth", d)
		}
		got := slices.Sorted(slices.Values(e.Players))
		if !slices.Equal(got, []string{"Ana", "Ben", "Cleo", "Dan"}) {
			t.Fatalf("players %v", e.Players)
		}
		if evs[1].Type != EvDealt || evs[1].Dealer != 0 || evs[2].Type != EvTurned || evs[2].Pos != 17 {
			t.Fatalf("first deal events %+v %+v", evs[1], evs[2])
		}
	}
}

// pointSets returns two disjoint card sets worth a and b card points.
func pointSets(a, b int) (cardSet, cardSet) {
	pick := func(n int, taken cardSet) cardSet {
		var s cardSet
		for k := Ace; k >= Nine && n > 0; k-- {
			for _, u := range []Suit{Hearts, Clubs, Spades, Diamonds} {
				c := NewCard(k, u)
				if !taken.has(c) && c.Points() <= n {
					s = s.with(c)
					n -= c.Points()
				}
			}
		}
		return s
	}
	sa := pick(a, 0)
	return sa, pick(b, sa)
}

// scoreState is a finished deal under the current rules version: team A
// took pa points, team B pb; tricks split 2–2 unless capot names a team that
// took all four.
func scoreState(opts games.Options, declarers, pa, pb int, r [2]int, b int, capot int) State {
	return scoreStateAt(RulesVersion, opts, declarers, pa, pb, r, b, capot)
}

// scoreStateAt is scoreState under rules version version.
func scoreStateAt(version int, opts games.Options, declarers, pa, pb int, r [2]int, b int, capot int) State {
	s := (Rules{}).Initial(version)
	s.Options = completeOptions(opts)
	s.Set, _ = parseSettings(s.Options)
	s.Declarers = declarers
	s.R, s.B = r, b
	s.Won[0], s.Won[1] = pointSets(pa, pb)
	winners := []games.Seat{0, 1, 2, 3}
	if capot >= 0 {
		winners = []games.Seat{games.Seat(capot), games.Seat(capot), games.Seat(capot + 2), games.Seat(capot)}
	}
	for _, w := range winners {
		s.Tricks = append(s.Tricks, Trick{Winner: w})
	}
	return s
}

// The scoring scenarios 2–7 as a table over scoreDeal (CO-9 … CO-19).
func TestScenarios2to7_Scoring_CO9_CO11_CO12_CO13_CO14_CO19(t *testing.T) {
	th20 := games.Options{"deal_rule": "threshold20"}
	tests := []struct {
		name      string
		opts      games.Options
		declarers int
		pa, pb    int // points of team A (0) and B (1)
		r         [2]int
		b         int
		wantWin   int
		wantR     [2]int
		wantB     int
	}{
		{"S2 CO-9 declarers 15 v 10 win", nil, 0, 15, 10, [2]int{5, 5}, 0, 0, [2]int{4, 5}, 0},
		{"S2 CO-9 threshold20: 15 fails", th20, 0, 15, 10, [2]int{5, 5}, 0, 1, [2]int{6, 4}, 0},
		{"S2 CO-9 threshold20: 21 wins", th20, 0, 21, 10, [2]int{5, 5}, 0, 0, [2]int{4, 5}, 0},
		{"S2 CO-9 threshold20: 20-20 tie", th20, 1, 20, 20, [2]int{5, 5}, 0, -1, [2]int{5, 5}, 1},
		{"S2 CO-9 CO-13 10-10 tie", nil, 0, 10, 10, [2]int{5, 5}, 0, -1, [2]int{5, 5}, 1},
		{"S2 CO-9 CO-13 threshold20 (rules 2): 10-10 tie", th20, 0, 10, 10, [2]int{5, 5}, 0, -1, [2]int{5, 5}, 1},
		{"S3 CO-12 declarers 8 v 12 lose", nil, 1, 12, 8, [2]int{5, 5}, 0, 0, [2]int{4, 6}, 0},
		{"S4 CO-13 tie 12-12", nil, 0, 12, 12, [2]int{5, 5}, 0, -1, [2]int{5, 5}, 1},
		{"S4 CO-13 after a tie the non-declarers win: erase 2", nil, 1, 14, 9, [2]int{5, 5}, 1, 0, [2]int{3, 7}, 0},
		{"S5 CO-19 replacement deal lost 9 v 14", nil, 0, 9, 14, [2]int{5, 5}, 1, 1, [2]int{7, 3}, 0},
		{"S6 CO-13 stacked ties: erase 3", nil, 0, 16, 9, [2]int{5, 5}, 2, 0, [2]int{2, 5}, 0},
		{"S6 CO-13 a third tie stacks", nil, 0, 10, 10, [2]int{5, 5}, 2, -1, [2]int{5, 5}, 3},
		{"S7 CO-14 R=1 with b=1 ends at 0", nil, 1, 5, 15, [2]int{4, 1}, 1, 1, [2]int{4, 0}, 0},
		{"S7 CO-12 R=1 declares and loses: 2", nil, 0, 5, 15, [2]int{1, 3}, 0, 1, [2]int{2, 2}, 0},
		{"CO-15 no declarers: winners erase, no loop", nil, -1, 5, 15, [2]int{3, 3}, 1, 1, [2]int{3, 1}, 0},
		{"CO-15 threshold20 without declarers compares", th20, -1, 12, 11, [2]int{3, 3}, 0, 0, [2]int{2, 3}, 0},
		{"CO-10 lines 7 starts R at 7", games.Options{"lines": "7"}, 0, 12, 11, [2]int{7, 7}, 0, 0, [2]int{6, 7}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scoreState(tc.opts, tc.declarers, tc.pa, tc.pb, tc.r, tc.b, -1)
			if got := [2]int{s.Won[0].points(), s.Won[1].points()}; got != [2]int{tc.pa, tc.pb} {
				t.Fatalf("rigged points %v", got)
			}
			rec := scoreDeal(s)
			if rec.Winner != tc.wantWin || rec.R != tc.wantR || rec.B != tc.wantB {
				t.Fatalf("winner %d R %v b %d; want winner %d R %v b %d", rec.Winner, rec.R, rec.B, tc.wantWin, tc.wantR, tc.wantB)
			}
		})
	}
}

// Scenario 2 played card by card (CO-9, CO-11; CO-7, CO-8, CO-18 on the way):
// Ben accepts, team B takes 15 and team A 10 (15 stay in the stock).
func TestScenario2_DealWonOnPoints_Played_CO9(t *testing.T) {
	hands, stock := deal2()
	for _, tc := range []struct {
		opts  games.Options
		wantR [2]int
	}{
		{nil, [2]int{5, 4}},
		{games.Options{"deal_rule": "threshold20"}, [2]int{4, 6}},
	} {
		s := rig(t, tc.opts, hands, stock)
		if s.stockSet().points() != 15 {
			t.Fatalf("stock holds %d points", s.stockSet().points())
		}
		s, _ = run(t, s, "accept")
		s, evs := run(t, s, deal2Play()...)
		sc := find(evs, EvScored)
		if len(sc) != 1 {
			t.Fatalf("scored events %v", sc)
		}
		rec := sc[0].Score
		if rec.Points != [2]int{10, 15} || rec.Declarers != 1 || rec.R != tc.wantR {
			t.Fatalf("%v: score %+v, want points [10 15], R %v", tc.opts, rec, tc.wantR)
		}
		// The next deal is dealt at once by seat 1 (CO-3).
		if s.Deal != 2 || s.Dealer != 1 || s.Phase != PhaseTrump || len(find(evs, EvDealt)) != 1 {
			t.Fatalf("next deal: deal %d dealer %d phase %d", s.Deal, s.Dealer, s.Phase)
		}
	}
}

// Scenario 3 played (CO-12): Cleo accepts for team A, which takes only 10
// against 15: team A takes a loop, team B erases a line.
func TestScenario3_DeclarersLose_Played_CO12(t *testing.T) {
	hands, stock := deal2()
	s := rig(t, nil, hands, stock)
	s, _ = run(t, s, "pass", "accept")
	if s.Declarers != 0 || s.Declarer != 2 || s.Turn != 1 {
		t.Fatalf("declarers %d declarer %d leader %d", s.Declarers, s.Declarer, s.Turn)
	}
	_, evs := run(t, s, deal2Play()...)
	rec := find(evs, EvScored)[0].Score
	if rec.Winner != 1 || rec.R != [2]int{6, 4} || rec.Change != [2]int{1, -1} {
		t.Fatalf("score %+v", rec)
	}
}

// Scenario 7 played (CO-14): team B at R = 1 wins a deal with b = 1: R = 0
// (not −1), it wins the match and every card becomes public.
func TestScenario7_MatchEnd_Played_CO14(t *testing.T) {
	hands, stock := deal2()
	s := rigScore(t, nil, hands, stock, []int{3, 1}, 1)
	s, _ = run(t, s, "accept")
	s, evs := run(t, s, deal2Play()...)
	if s.Phase != PhaseOver || s.R != [2]int{3, 0} || s.Winner != 1 {
		t.Fatalf("phase %d R %v winner %d", s.Phase, s.R, s.Winner)
	}
	over := find(evs, EvOver)
	if len(over) != 1 || len(over[0].Stock) != 8 || len(find(evs, EvDealt)) != 0 {
		t.Fatalf("over events %+v", over)
	}
	res := (Rules{}).Result(s)
	if !res.Finished || !slices.Equal(res.Winners, []games.Seat{1, 3}) || res.Scores[1] != 5 {
		t.Fatalf("result %+v", res)
	}
	if len(Rules{}.Pending(s)) != 0 {
		t.Fatal("pending after the match end")
	}
	refuse(t, s, 0, "pass", "CO-14")
	v := (Rules{}).View(s, games.Spectator).(View)
	if len(v.Hands) != 4 || !slices.Equal(v.Stock, cards(t, stock)) {
		t.Fatalf("match over: spectator sees hands %v stock %v", v.Hands, v.Stock)
	}
}

// allPassDeal has a ♥ turned first, then a ♠, and a ♦ at the bottom.
func allPassDeal() ([4]string, string) {
	return [4]string{
		"ac kc qc jc",
		"10c 9c ad kd",
		"qd jd 10d 10h",
		"as ks qs js",
	}, "9h 9s ah kh qh jh 10s 9d"
}

// Scenario 8 (CO-5, CO-6): all pass on ♥; ♠ is turned and the dealer speaks
// first; the dealer passes and the player left of the dealer accepts; the
// first lead is left of the dealer. Option all_pass = gerver: the 24th card
// makes trump, nobody declares.
func TestScenario8_AllPass_CO5_CO6(t *testing.T) {
	hands, stock := allPassDeal()
	s := rig(t, nil, hands, stock)
	if s.Proposed != 17 || s.Speaker != 1 {
		t.Fatalf("proposed %d speaker %d", s.Proposed, s.Speaker)
	}
	s, evs := run(t, s, "pass", "pass", "pass", "pass")
	tu := find(evs, EvTurned)
	if len(tu) != 1 || tu[0].Pos != 18 || tu[0].Card != cards(t, "9s")[0] {
		t.Fatalf("turned %+v", tu)
	}
	if p := (Rules{}).Pending(s); p[0].Seat != 0 {
		t.Fatalf("on the 18th card seat %d speaks, want the dealer", p[0].Seat)
	}
	s, _ = run(t, s, "pass", "accept")
	if s.Trump != Spades || s.Declarers != 1 || s.Declarer != 1 || s.Turn != 1 {
		t.Fatalf("trump %v declarers %d leader %d", s.Trump, s.Declarers, s.Turn)
	}
	// A later acceptor (Cleo, after the dealer and Ben pass): still Ben leads.
	s = rig(t, nil, hands, stock)
	s, _ = run(t, s, "pass", "pass", "pass", "pass", "pass", "pass", "accept")
	if s.Declarer != 2 || s.Declarers != 0 || s.Turn != 1 {
		t.Fatalf("declarer %d leader %d", s.Declarer, s.Turn)
	}
	// The turned ♥ and ♠ stay face up in the stock; the others stay hidden.
	if v := (Rules{}).View(s, 3).(View); len(v.Turned) != 2 || v.Hidden != 6 {
		t.Fatalf("view turned %v hidden %d", v.Turned, v.Hidden)
	}

	g := rig(t, games.Options{"all_pass": "gerver"}, hands, stock)
	g, evs = run(t, g, "pass", "pass", "pass", "pass")
	tu = find(evs, EvTurned)
	if len(tu) != 1 || tu[0].Pos != 24 || tu[0].Card != cards(t, "9d")[0] || g.Trump != Diamonds || g.Declarers != -1 || g.Declarer != -1 || g.Phase != PhasePlay || g.Turn != 1 {
		t.Fatalf("gerver: turned %+v trump %v declarers %d phase %d", tu, g.Trump, g.Declarers, g.Phase)
	}
	if v := (Rules{}).View(g, 0).(View); len(v.Turned) != 2 || v.Turned[1].Pos != 24 {
		t.Fatalf("gerver view turned %v", v.Turned)
	}
}

// Scenario 9 (CO-5, CO-15): all eight stock cards refused: the 24th card's
// suit is trump, nobody declares, and the deal ends with a winner or a tie,
// never a loop.
func TestScenario9_WholeStockRefused_CO5_CO15(t *testing.T) {
	hands, stock := allPassDeal()
	s := rig(t, nil, hands, stock)
	passes := make([]string, 32)
	for i := range passes {
		passes[i] = "pass"
	}
	s, evs := run(t, s, passes...)
	if n := len(find(evs, EvTurned)); n != 7 {
		t.Fatalf("%d cards turned, want 7 more", n)
	}
	// The 24th card is the 9♦: ♦ is trump (not the ♥ or ♠ refused before).
	if s.Phase != PhasePlay || s.Trump != Diamonds || s.Declarers != -1 || s.Declarer != -1 || s.Turn != 1 || s.Turned != 0xff {
		t.Fatalf("phase %d trump %v declarers %d leader %d", s.Phase, s.Trump, s.Declarers, s.Turn)
	}
	for len(s.History) == 0 {
		p := (Rules{}).Pending(s)[0]
		s, _ = do(t, s, p.Seat, p.Default)
	}
	rec := s.History[0]
	if rec.Declarers != -1 || rec.Change[0] > 0 || rec.Change[1] > 0 {
		t.Fatalf("score without declarers %+v", rec)
	}
	// A winner erases a line, a tie stacks the bonus; nobody takes a loop.
	switch w := rec.Winner; {
	case w < 0 && (rec.Change != [2]int{} || rec.B != 1):
		t.Fatalf("tie without declarers %+v", rec)
	case w >= 0 && (rec.Change[w] != -1 || rec.Change[1-w] != 0 || rec.B != 0):
		t.Fatalf("deal without declarers won by team %d: %+v", w, rec)
	}
	// Whatever the play, a deal without declarers never makes a loop (CO-15).
	for _, pts := range [][2]int{{4, 20}, {20, 4}, {12, 12}} {
		for _, opts := range []games.Options{nil, {"deal_rule": "threshold20"}} {
			rec := scoreDeal(scoreState(opts, -1, pts[0], pts[1], [2]int{3, 3}, 1, -1))
			if rec.Change[0] > 0 || rec.Change[1] > 0 {
				t.Fatalf("%v %v: loop without declarers %+v", opts, pts, rec)
			}
		}
	}
}

// followRig: trump ♠ (Ben accepts), Ben leads; Cleo holds 10♦ K♦ A♠ 9♣.
func followRig(t *testing.T, opts games.Options) State {
	return followRigAt(t, RulesVersion, opts)
}

func followRigAt(t *testing.T, version int, opts games.Options) State {
	s := rigAt(t, version, opts, [4]string{
		"9d jd qc jc",
		"qd 9h 10h jh",
		"10d kd as 9c",
		"ad ks qs js",
	}, "9s kc ac qh kh ah 10c 10s", nil, 0)
	s, _ = run(t, s, "accept")
	return s
}

// trumpedRig: trump ♠; Ben leads Q♦, Cleo (void) trumps with 9♠, Dan
// follows with 9♦; Ana, to play, holds 10♦ K♦ A♠ 9♣.
func trumpedRig(t *testing.T, version int) State {
	s := rigAt(t, version, nil, [4]string{
		"10d kd as 9c",
		"qd 9h 10h jh",
		"9s qc jc kc",
		"9d ks qs js",
	}, "10s ac qh kh ah 10c ad jd", nil, 0)
	s, _ = run(t, s, "accept", "qd", "9s", "9d")
	return s
}

// Scenario 10 (CO-7): ♦ led, highest Q♦: Cleo holding 10♦ K♦ A♠ must play
// K♦. Even if the trick has already been trumped, K♦ (rules version 2; under
// version 1, which games created before it keep, 10♦ or K♦ once trumped).
// With following = gerver 10♦, K♦ and A♠ are legal and a ♣ is rejected.
func TestScenario10_FollowingDefault_CO7(t *testing.T) {
	for _, tc := range []struct {
		version int
		trumped string // Ana's legal moves on the trumped trick
	}{
		{1, "play 10♦, play K♦"},
		{2, "play K♦"},
	} {
		t.Run(fmt.Sprintf("rules %d", tc.version), func(t *testing.T) {
			s := followRigAt(t, tc.version, nil)
			s, _ = run(t, s, "qd")
			if got := legal(s, 2); got != "play K♦" {
				t.Fatalf("legal %q, want play K♦", got)
			}
			why := refuse(t, s, 2, "10d", "CO-7")
			if !strings.Contains(why, "higher ♦") || !strings.Contains(why, "Q♦") {
				t.Errorf("10♦ under Q♦: %q", why)
			}
			refuse(t, s, 2, "as", "CO-7")
			refuse(t, s, 2, "9c", "CO-7")

			s = trumpedRig(t, tc.version)
			if got := legal(s, 0); got != tc.trumped {
				t.Fatalf("trumped trick: legal %q, want %q", got, tc.trumped)
			}
			if p, low := (Rules{}).Pending(s), strings.Split(tc.trumped, ", ")[0]; p[0].Default != low {
				t.Errorf("trumped trick: default %q, want %q (CO-31)", p[0].Default, low)
			}
			if tc.version >= 2 {
				why := refuse(t, s, 0, "10d", "CO-7")
				if !strings.Contains(why, "Q♦") || !strings.Contains(why, "trumped") {
					t.Errorf("10♦ on a trumped trick: %q", why)
				}
			} else {
				s, _ = do(t, s, 0, "10d") // version 1 still accepts it
				if w := s.Tricks[0].Winner; w != 2 {
					t.Errorf("the 9♠ should win the trick, not seat %d", w)
				}
			}

			g := followRigAt(t, tc.version, games.Options{"following": "gerver"})
			g, _ = run(t, g, "qd")
			if got := legal(g, 2); got != "play 10♦, play K♦, play A♠" {
				t.Fatalf("gerver legal %q", got)
			}
			refuse(t, g, 2, "9c", "CO-7")
			// gerver is the same under every version, trumped or not.
			g = rigAt(t, tc.version, games.Options{"following": "gerver"}, [4]string{
				"10d kd as 9c", "qd 9h 10h jh", "9s qc jc kc", "9d ks qs js",
			}, "10s ac qh kh ah 10c ad jd", nil, 0)
			g, _ = run(t, g, "accept", "qd", "9s", "9d")
			if got := legal(g, 0); got != "play 10♦, play K♦, play A♠" {
				t.Fatalf("gerver, trumped: legal %q", got)
			}
		})
	}
}

// Scenario 11 (CO-7): ♦ led and trumped with K♠: without ♦, Q♠ and A♠ →
// A♠; 9♠ and clubs → 9♠ (undertrump); neither ♦ nor ♠ → any card.
func TestScenario11_Void_CO7(t *testing.T) {
	// Ben leads 9♦, Cleo (void in ♦) trumps with K♠; Dan is tested.
	for _, tc := range []struct {
		hands [4]string
		stock string
		want  string
	}{
		{[4]string{"10d jd qd kd", "9d 9h 10h jh", "ks jc qc kc", "qs as 9c 10c"},
			"9s ac qh kh ah 10s js ad", "play A♠"},
		{[4]string{"10d jd qd kd", "9d 9c 10c ac", "ks 9h 10h jh", "9s jc qc kc"},
			"10s qs js as qh kh ah ad", "play 9♠"},
		{[4]string{"10d jd qd kd", "9d 9h 10h ac", "ks jc qc kc", "9c 10c jh qh"},
			"9s 10s js qs as kh ah ad", "play 9♣, play 10♣, play J♥, play Q♥"},
	} {
		s := rig(t, nil, tc.hands, tc.stock)
		s, _ = run(t, s, "accept", "9d", "ks")
		if got := legal(s, 3); got != tc.want {
			t.Errorf("Dan holds %s: legal %q, want %q", tc.hands[3], got, tc.want)
		}
	}
}

// Scenario 12 (CO-30, CO-31): a silent speaker passes; legal {K♦, A♦} → K♦;
// a leader holding {9♥, 9♣, J♠} → 9♣.
func TestScenario12_Timeouts_CO30_CO31(t *testing.T) {
	s := rig(t, nil, [4]string{
		"9d jd qc jc",
		"ad 9h 9c js",
		"kd ah 10h jh",
		"10d ks qs as",
	}, "9s kc ac qh kh 10c 10s qd")
	p := (Rules{}).Pending(s)
	if len(p) != 1 || p[0] != (games.Pending{Seat: 1, Kind: "trump", Rule: "CO-30", Default: "pass"}) {
		t.Fatalf("pending %+v", p)
	}
	s, _ = do(t, s, 1, p[0].Default)
	s, _ = run(t, s, "accept") // Cleo accepts ♠; Ben leads
	s, _ = run(t, s, "ad")
	// Cleo must follow ♦ and cannot beat A♦: her only ♦ is K♦.
	p = (Rules{}).Pending(s)
	if p[0].Seat != 2 || p[0].Rule != "CO-31" || p[0].Default != "play K♦" {
		t.Fatalf("pending %+v", p)
	}
	s, _ = run(t, s, p[0].Default, "10d", "9d")
	// Ben won with A♦ and leads holding 9♥ 9♣ J♠.
	p = (Rules{}).Pending(s)
	if p[0].Seat != 1 || p[0].Default != "play 9♣" {
		t.Fatalf("leader pending %+v, hand %v", p, s.Hands[1].cards())
	}
	// Legal {K♦, A♦}: Ana's hand after a 9♦ lead.
	s = rig(t, nil, [4]string{
		"kd ad qc jc",
		"9d 9h 9c js",
		"10d ah 10h jh",
		"jd ks qs as",
	}, "9s kc ac qh kh 10c 10s qd")
	s, _ = run(t, s, "accept", "9d", "10d", "jd")
	if p := (Rules{}).Pending(s); p[0].Seat != 0 || p[0].Default != "play K♦" || legal(s, 0) != "play K♦, play A♦" {
		t.Fatalf("pending %+v legal %q", p, legal(s, 0))
	}
}

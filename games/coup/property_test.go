package coup

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

var gameCount = flag.Int("gamecount", 1000, "number of random games in TestRandomGames")

func randomPlayers(r *rand.Rand) []string {
	pool := []string{"Ana", "Bob", "Cal", "Dee", "Zoé", "Ana Maria", "Eve", "Fay"}
	n := 2 + r.IntN(5)
	out := games.Shuffle(r, pool)[:n]
	return out
}

func randomOptions(r *rand.Rand) games.Options {
	pick := func(vs ...string) string { return vs[r.IntN(len(vs))] }
	return games.Options{
		"two_player_setup":  pick("official", "standard"),
		"inquisitor":        pick("off", "on"),
		"factions":          pick("off", "off", "on"),
		"selective_coup":    pick("off", "on"),
		"blocking_contessa": pick("off", "on"),
		"failed_claim_cost": pick("refund", "spent"),
	}
}

func nearMisses(s games.State, seat games.Seat, r *rand.Rand) []string {
	st := s.(*State)
	n := len(st.Players)
	chars := []string{"duke", "assassin", "captain", "ambassador", "contessa", "inquisitor", "jack", "queen"}
	c := func() string { return chars[r.IntN(len(chars))] }
	t := func() string {
		if r.IntN(2) == 0 {
			return fmt.Sprint(r.IntN(n + 1))
		}
		return st.Players[r.IntN(n)].Name
	}
	all := []string{
		"income", "foreign aid", "aid", "tax", "exchange", "defect", "challenge", "allow", "pass",
		"return", "change", "faction up", "faction down",
		"coup " + t(), "coup " + t() + " " + c(), "steal " + t(), "assassinate " + t(), "examine " + t(),
		"block " + c(), "reveal " + c(), "lose " + c(), "show " + c(), "keep " + c(), "keep " + c() + " " + c(),
		"auto-allow all on", "auto-allow challenge off", "auto-allow block on", "auto-allow block-challenge on",
		"", "hello", "coup", "keep", "block", "steal nobody", "faction sideways", "auto-allow sometimes on",
	}
	return []string{all[r.IntN(len(all))], all[r.IntN(len(all))], all[r.IntN(len(all))]}
}

// checker verifies conservation and hidden information after every decision.
type checker struct {
	eng   games.Engine
	total int    // coins held by the players after the previous decision
	prev  *State // the state after the previous decision
}

func (k *checker) check(t testing.TB, gs games.State, raw []games.RawEvent) {
	s := gs.(*State)
	var evs []Event
	for _, r := range raw {
		var e Event
		if err := json.Unmarshal(r.Data, &e); err != nil {
			t.Fatalf("decode %s: %v", r.Type, err)
		}
		evs = append(evs, e)
	}
	// Coins: nothing appears or vanishes except through the treasury moves
	// that the events name.
	total := 0
	for _, p := range s.Players {
		if p.Coins < 0 {
			t.Errorf("%s has %d coins", p.Name, p.Coins)
		}
		total += p.Coins
	}
	delta := 0
	for _, e := range evs {
		switch e.Type {
		case evSetup:
			k.total = 0
			for _, c := range e.Coins {
				delta += c
			}
		case evAction:
			delta -= e.N
		case evRevealed:
			delta += e.N
		case evResolved:
			if a := actFromID(e.Action); a == Income || a == ForeignAid || a == Tax {
				delta += e.N
			}
		}
	}
	if total != k.total+delta {
		t.Errorf("coins: %d before, events say %+d, now %d", k.total, delta, total)
	}
	if total != s.StartCoins+s.Bank {
		t.Errorf("coins: %d held, but start %d + bank %d", total, s.StartCoins, s.Bank)
	}
	k.total = total
	// Cards: 3 of each character in play, none of the others.
	var count [nChars]int
	for _, p := range s.Players {
		for _, zone := range [][]Char{p.Hidden, p.Lost, p.Set, p.SetAside} {
			for _, c := range zone {
				count[c]++
			}
		}
		if s.Dealt && len(p.Hidden)+len(p.Lost) != 2 {
			t.Errorf("%s holds %d cards (hidden %v, lost %v)", p.Name, len(p.Hidden)+len(p.Lost), p.Hidden, p.Lost)
		}
		if !p.Out && len(p.Hidden) == 0 && s.Dealt {
			t.Errorf("%s has no influence but is not out", p.Name)
		}
	}
	for c := range nChars {
		count[c] += s.Court[c]
	}
	for _, c := range s.Ctx.Drawn {
		count[c]++
	}
	for c := Duke; c < nChars; c++ {
		want := 0
		if s.inDeck(c) {
			want = 3
		}
		if count[c] != want || s.Court[c] < 0 {
			t.Errorf("%d %s in the game, want %d (court %v)", count[c], c, want, s.Court)
		}
	}
	// Hidden information in redacted events and descriptions, each against
	// the state before its event, and in views.
	before := k.prev
	if len(evs) > 0 && evs[0].Type == evSetup {
		before = (Rules{}).Initial(RulesVersion)
	}
	for _, e := range evs {
		for seat := games.Spectator; seat < games.Seat(len(s.Players)); seat++ {
			red := (Rules{}).Redact(before, e, seat)
			me := int(seat)
			if !before.inGame(e, me) {
				me = int(games.Spectator)
				if spec := (Rules{}).Redact(before, e, games.Spectator); !reflect.DeepEqual(red, spec) {
					t.Errorf("seat %d, out of the game, sees more of %s than a spectator: %+v", seat, e.Type, red)
				}
			}
			checkRedacted(t, e, red, me)
			checkDescription(t, before, e, seat)
		}
		before = (Rules{}).Evolve(before.clone(), e)
	}
	k.prev = s.clone()
	for seat := games.Spectator; seat < games.Seat(len(s.Players)); seat++ {
		k.checkView(t, s, seat)
	}
}

// checkDescription verifies that seat's description of e (which applies to
// s) names no hidden card seat may not know (section 5) and does not depend
// on another player's hidden card in s.
func checkDescription(t testing.TB, s *State, e Event, seat games.Seat) {
	phrase := (Rules{}).Describe(s, e, seat)
	me := int(seat)
	if !s.inGame(e, me) {
		me = -1
	}
	alt := swapHidden(s, me)
	for _, lang := range games.Languages() {
		say := words.In(lang)
		desc := phrase.In(lang)
		if e.Type != "" && desc == "" {
			t.Errorf("seat %d: no description of %s in %s", seat, e.Type, lang)
		}
		if allowed, private := knownChars(s, e, me); private {
			for c := Duke; c < nChars; c++ {
				if name := say.Must(charName(c)); strings.Contains(desc, name) && !slices.Contains(allowed, c) {
					t.Errorf("seat %d: the description of %s names the %s, which it may not know: %q (event %+v)", seat, e.Type, name, desc, e)
				}
			}
		}
		if e.Type == evFactionChose && me != e.Seat && strings.Contains(desc, "face") {
			t.Errorf("seat %d: the description tells %s's secret faction: %q", seat, s.name(e.Seat), desc)
		}
		if alt != nil {
			if other := (Rules{}).Describe(alt, e, seat).In(lang); other != desc {
				t.Errorf("seat %d: the description of %s depends on another player's hidden card: %q vs %q", seat, e.Type, desc, other)
			}
		}
	}
}

// knownChars lists, for an event with private cards, the characters seat
// (-1: nobody's cards) may see named in its description: public ones (the
// proven card, the character a Selective Coup names) and those section 5
// shows seat. private is false for an event with no private part.
func knownChars(s *State, e Event, seat int) (allowed []Char, private bool) {
	switch e.Type {
	case evSetup, evDealt:
		if seat >= 0 && seat < len(e.Hands) {
			allowed = e.Hands[seat]
		}
	case evKept:
		if seat == e.Seat {
			allowed = []Char{e.Char}
		}
	case evReplaced:
		allowed = []Char{e.Char}
		if seat == e.Seat {
			allowed = append(allowed, e.Drew)
		}
	case evExchDrawn:
		if seat == e.Seat {
			allowed = e.Cards
		}
	case evExchanged:
		if seat == e.Seat {
			allowed = append(slices.Clone(s.Players[seat].Hidden), s.Ctx.Drawn...)
		}
	case evCoupShown:
		allowed = []Char{s.Ctx.Named}
		if seat == e.Seat || seat == e.Viewer {
			allowed = append(allowed, e.Cards...)
		}
	case evShown:
		if seat == e.Seat || seat == e.Viewer {
			allowed = []Char{e.Char}
		}
	case evChanged:
		if seat == e.Seat || seat == e.Viewer {
			allowed = []Char{e.Char}
		}
		if seat == e.Seat {
			allowed = append(allowed, e.Drew)
		}
	default:
		return nil, false
	}
	return allowed, true
}

func (k *checker) checkView(t testing.TB, s *State, seat games.Seat) {
	v := (Rules{}).View(s, seat).(View)
	over := s.Stage == stOver
	me := int(seat)
	meIn := me >= 0 && !s.Players[me].Out
	for i, p := range s.Players {
		pv := v.Players[i]
		mine := meIn && i == me
		if pv.Coins != p.Coins || !slices.Equal(pv.Lost, p.Lost) || pv.Influence != len(p.Hidden) {
			t.Errorf("seat %d sees %s with wrong public data", seat, p.Name)
		}
		if mine || over {
			if !slices.Equal(pv.Cards, p.Hidden) || !slices.Equal(pv.SetAside, p.SetAside) {
				t.Errorf("seat %d does not see %s's own cards", seat, p.Name)
			}
		} else if pv.Cards != nil || pv.SetAside != nil || pv.Set != nil {
			t.Errorf("seat %d sees %s's hidden cards: %v %v %v (stage %s)", seat, p.Name, pv.Cards, pv.SetAside, pv.Set, s.Stage)
		}
		if pv.Faction != "" && !s.FactionsPublic && !over && !mine {
			t.Errorf("seat %d sees %s's secret faction", seat, p.Name)
		}
	}
	// The view must not depend on what the seat may not see: swap a hidden
	// card of another player with a different card of the Court.
	if !over {
		for i, p := range s.Players {
			if (meIn && i == me) || len(p.Hidden) == 0 {
				continue
			}
			for c := Duke; c < nChars; c++ {
				if s.Court[c] == 0 || c == p.Hidden[0] {
					continue
				}
				alt := s.clone()
				old := alt.Players[i].Hidden[0]
				alt.Players[i].Hidden = addSorted(removeOne(alt.Players[i].Hidden, old), c)
				alt.Court[c]--
				alt.Court[old]++
				if !reflect.DeepEqual((Rules{}).View(alt, seat), v) {
					t.Errorf("seat %d's view depends on %s's hidden card (stage %s)", seat, p.Name, s.Stage)
				}
				break
			}
			break
		}
	}
	if v.Court != nil && !over {
		t.Errorf("seat %d sees the Court %v", seat, v.Court)
	}
	if a := v.Action; a != nil && !over {
		if a.Drawn != nil && (!meIn || me != s.Ctx.Actor) {
			t.Errorf("seat %d sees the exchange draw", seat)
		}
		if a.Shown != NoChar && (!meIn || (me != s.Ctx.Actor && me != s.Ctx.Target)) {
			t.Errorf("seat %d sees the examined card", seat)
		}
	}
}

// checkRedacted verifies that seat's version of e hides exactly what
// section 5 of the rules file hides from seat.
func checkRedacted(t testing.TB, e, red Event, seat int) {
	leak := func(what string) { t.Errorf("seat %d sees %s in %s event %+v", seat, what, e.Type, red) }
	switch e.Type {
	case evSetup, evDealt:
		for i := range red.Hands {
			if i != seat && red.Hands[i] != nil {
				leak(fmt.Sprintf("hand of seat %d", i))
			}
			if i == seat && !slices.Equal(red.Hands[i], e.Hands[i]) {
				t.Errorf("seat %d does not see its own deal", seat)
			}
		}
	case evKept:
		if seat != e.Seat && red.Char != NoChar {
			leak("the kept card")
		}
	case evFactionChose:
		if seat != e.Seat && red.On {
			leak("the faction choice")
		}
	case evReplaced:
		if seat != e.Seat && red.Drew != NoChar {
			leak("the replacement card")
		}
		if red.Char != e.Char {
			t.Errorf("the proven card is public")
		}
	case evExchDrawn, evExchanged:
		if seat != e.Seat && red.Cards != nil {
			leak("the exchange")
		}
		if red.N != e.N {
			t.Errorf("the exchange count is public")
		}
	case evCoupShown, evShown:
		if seat != e.Seat && seat != e.Viewer && (red.Cards != nil || red.Char != NoChar) {
			leak("shown cards")
		}
	case evChanged:
		if seat != e.Seat && red.Drew != NoChar {
			leak("the changed card's replacement")
		}
		if seat != e.Seat && seat != e.Viewer && red.Char != NoChar {
			leak("the changed card")
		}
	default:
		if !reflect.DeepEqual(e, red) {
			t.Errorf("public event %s redacted for seat %d", e.Type, seat)
		}
	}
}

// TestRandomGames plays thousands of seeded games by random legal moves and
// timeout defaults (all TC rules), checking conservation and hidden
// information after every decision.
func TestRandomGames(t *testing.T) {
	eng := New()
	k := &checker{eng: eng}
	st := gametest.Run(t, gametest.Config{
		Engine:      eng,
		Games:       *gameCount,
		MaxMoves:    5000,
		Players:     randomPlayers,
		Options:     randomOptions,
		DefaultRate: 0.2,
		Candidates:  nearMisses,
		Check:       k.check,
	})
	t.Logf("%+v", st)
}

// TestRandomResigns plays random games in which players leave at random
// moments ([HOUSE] TC-34), checking that every game still ends, that
// components are conserved, that nothing hidden leaks and that a fold of the
// log reproduces the state.
func TestRandomResigns(t *testing.T) {
	eng := New()
	k := &checker{eng: eng}
	for i := range max(*gameCount/5, 50) {
		var seed games.Seed
		seed[0], seed[1], seed[31] = byte(i), byte(i>>8), 7
		pick := seed.Rand(1 << 40)
		evs, err := eng.Setup(randomOptions(pick), randomPlayers(pick), seed.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		log := slices.Clone(evs)
		s, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		k.check(t, s, evs)
		for move := 0; len(eng.Pending(s)) > 0; move++ {
			if move > 5000 {
				t.Fatalf("game %d does not end", i)
			}
			pend := eng.Pending(s)
			p := pend[pick.IntN(len(pend))]
			var out []games.RawEvent
			if pick.IntN(40) == 0 {
				seat := games.Seat(pick.IntN(len(eng.Players(s))))
				out, err = eng.Resign(s, seat, seed.Rand(len(log)))
				if err != nil {
					if s.(*State).alive(int(seat)) {
						t.Fatalf("game %d: resign of a living seat rejected: %v", i, err)
					}
					continue
				}
			} else {
				legal := eng.Legal(s, p.Seat)
				choice := legal[pick.IntN(len(legal))]
				if pick.IntN(4) == 0 {
					choice = p.Default
				}
				out, err = eng.Decide(s, p.Seat, choice, seed.Rand(len(log)))
				if err != nil {
					t.Fatalf("game %d: %q rejected: %v", i, choice, err)
				}
			}
			for _, e := range out {
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatal(err)
				}
			}
			log = append(log, out...)
			k.check(t, s, out)
			if t.Failed() {
				t.Fatalf("game %d failed", i)
			}
		}
		if !eng.Result(s).Finished {
			t.Fatalf("game %d: nobody pending but not finished", i)
		}
		refold, err := games.Fold(eng, RulesVersion, log)
		if err != nil {
			t.Fatal(err)
		}
		for seat := games.Spectator; seat < games.Seat(len(eng.Players(s))); seat++ {
			a, _ := eng.View(s, seat)
			b, _ := eng.View(refold, seat)
			if string(a) != string(b) {
				t.Fatalf("game %d: refold differs", i)
			}
		}
	}
}

// TestRandomGamesFull tries every legal move of the acting seat at every
// step, on fewer games.
func TestRandomGamesFull(t *testing.T) {
	eng := New()
	k := &checker{eng: eng}
	gametest.Run(t, gametest.Config{
		Engine: eng, Games: max(*gameCount/15, 20), MaxMoves: 5000, Players: randomPlayers, Options: randomOptions,
		DefaultRate: 0.2, Candidates: nearMisses, Check: k.check, Full: true,
	})
}

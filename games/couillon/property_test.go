package couillon

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

var gameCount = flag.Int("gamecount", 1000, "number of random games in TestRandomGames")

func randomOptions(r *rand.Rand) games.Options {
	opts := games.Options{}
	for _, o := range optionSpecs() {
		if r.IntN(3) > 0 { // defaults often, so the default play dominates
			opts[o.Name] = o.Values[r.IntN(len(o.Values))]
		}
	}
	return opts
}

func randomPlayers(r *rand.Rand) []string {
	names := []string{"Ana", "Ben", "Cleo", "Dan", "Émile", "Fanny", "Gus", "Hélène"}
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names[:4]
}

// candidates are near misses: every card of the pack (held or not, legal or
// not), the bidding words out of place, and garbage.
func candidates(s games.State, seat games.Seat, r *rand.Rand) []string {
	st := s.(State)
	garbage := []string{"", "play 8h", "play kx", "kh kh", "fold", "play 11c", "pass pass"}
	out := []string{garbage[r.IntN(len(garbage))]}
	if st.Phase == PhasePlay {
		out = append(out, "accept", "pass")
	} else {
		out = append(out, "play "+Pack()[r.IntN(NumCards)].Code())
	}
	words := r.IntN(2) == 0
	for _, c := range st.Hands[seat].cards() {
		if words {
			out = append(out, c.Rank().Name()+" of "+c.Suit().Name())
		} else {
			out = append(out, c.Code())
		}
	}
	out = append(out, "play "+Pack()[r.IntN(NumCards)].Code())
	return out
}

// hiddenFrom is the set of cards seat may not see in st: the other hands and
// the unturned stock (section 5); nothing once the match is over.
func hiddenFrom(st State, seat games.Seat) cardSet {
	if st.Phase == PhaseOver {
		return 0
	}
	h := st.hiddenStock()
	for i := range games.Seat(4) {
		if i != seat {
			h |= st.Hands[i]
		}
	}
	return h
}

// cardsNamed is the set of cards whose code appears as a JSON string in doc,
// leaving out the public seating draw (a card of another pack).
func cardsNamed(doc []byte) cardSet {
	skipFrom, skipTo := -1, -1
	if i := bytes.Index(doc, []byte(`"draws":[`)); i >= 0 {
		skipFrom, skipTo = i, i+bytes.IndexByte(doc[i:], ']')
	}
	var out cardSet
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		j := bytes.IndexByte(doc[i+1:], '"')
		if j < 0 {
			break
		}
		if j >= 2 && j <= 3 && (i < skipFrom || i > skipTo) {
			var c Card
			if c.UnmarshalText(doc[i+1:i+1+j]) == nil {
				out = out.with(c)
			}
		}
		i += j + 1
	}
	return out
}

// leaks reports a card of hidden that doc names.
func leaks(doc json.RawMessage, hidden cardSet) (Card, bool) {
	if hidden == 0 {
		return 0, false
	}
	if l := cardsNamed(doc) & hidden; l != 0 {
		return l.cards()[0], true
	}
	return 0, false
}

// conserved checks that the 24 cards of the deal are all somewhere exactly
// once: hands + stock + current trick + tricks taken (CO-2, CO-3).
func conserved(t testing.TB, st State) {
	t.Helper()
	if st.Phase == PhaseSetup {
		return
	}
	parts := []cardSet{st.Hands[0], st.Hands[1], st.Hands[2], st.Hands[3], st.stockSet(), st.trickSet(), st.Won[0], st.Won[1]}
	var all cardSet
	n := 0
	for _, p := range parts {
		all |= p
		n += p.len()
	}
	if all != fullSet || n != NumCards {
		t.Errorf("deal %d: %d cards in play, union %024b: hands %v stock %v trick %v won %v %v", st.Deal, n, all, st.Hands[0].cards(), st.stockSet().cards(), st.trickSet().cards(), st.Won[0].cards(), st.Won[1].cards())
	}
	taken := 0
	for _, tr := range st.Tricks {
		taken += len(tr.Cards)
	}
	if taken != st.Won[0].len()+st.Won[1].len() {
		t.Errorf("tricks hold %d cards but teams took %d", taken, st.Won[0].len()+st.Won[1].len())
	}
	if st.Phase == PhasePlay {
		for i := range games.Seat(4) {
			want := 4 - len(st.Tricks)
			for _, p := range st.Trick {
				if p.Seat == i {
					want--
				}
			}
			if st.Hands[i].len() != want {
				t.Errorf("seat %d holds %d cards, want %d", i, st.Hands[i].len(), want)
			}
		}
	}
}

// scoredRight re-derives the score sheet of the last finished deal from the
// one before it (CO-9 … CO-16, CO-19, CO-33), under the match's rules
// version: under threshold20, version 1 ties only 20–20, version 2 any equal
// split.
func scoredRight(t testing.TB, st State) {
	t.Helper()
	n := len(st.History)
	rec := st.History[n-1]
	prevR, prevB := [2]int{st.Set.Lines, st.Set.Lines}, 0
	if n > 1 {
		prevR, prevB = st.History[n-2].R, st.History[n-2].B
	}
	d := rec.Declarers
	winner := -1
	switch {
	case st.Set.Threshold20 && d >= 0 && rec.Points[d] > 20:
		winner = d
	case st.Set.Threshold20 && d >= 0 && rec.Points[0] == rec.Points[1] && (st.Rules >= 2 || rec.Points[0] == 20):
		// a tie
	case st.Set.Threshold20 && d >= 0:
		winner = 1 - d
	case rec.Points[0] != rec.Points[1]:
		winner = 0
		if rec.Points[1] > rec.Points[0] {
			winner = 1
		}
	}
	want, wantB := prevR, 0
	for w := range want {
		if w != winner {
			continue
		}
		erase := 1 + prevB
		if st.Set.Capot && rec.Capot == w {
			erase++
		}
		want[w] = max(0, prevR[w]-erase)
		if d >= 0 && d != w {
			want[1-w] = prevR[1-w] + 1 + prevB
		}
	}
	if winner < 0 {
		wantB = prevB + 1
	}
	if rec.Winner != winner || rec.R != want || rec.B != wantB {
		t.Errorf("deal %d scored %+v after R %v b %d; want winner %d R %v b %d", rec.Deal, rec, prevR, prevB, winner, want, wantB)
	}
	if rec.Points[0]+rec.Points[1] > 40 {
		t.Errorf("deal %d: %v points", rec.Deal, rec.Points)
	}
}

// checkEvents walks the events of one decision from before, the state before
// them: each seat's (and the spectator's) redacted copy and description of
// an event name no card that is hidden from it once the event has applied (a
// deal shows only the viewer's hand and no stock; a played or turned card is
// public; the end reveals all).
func checkEvents(t testing.TB, eng games.Engine, before State, evs []games.RawEvent) {
	t.Helper()
	s := before.clone()
	for _, raw := range evs {
		var e Event
		if err := json.Unmarshal(raw.Data, &e); err != nil {
			t.Fatalf("decode event: %v", err)
		}
		after := Rules{}.Evolve(s.clone(), e)
		named := cardsNamed(raw.Data) // the copy of a seat that Redact leaves whole
		for seat := games.Spectator; seat < 4; seat++ {
			hidden := hiddenFrom(after, seat)
			if hidden == 0 {
				continue
			}
			seen := named
			if red := (Rules{}).Redact(s, e, seat); !reflect.DeepEqual(red, e) {
				doc, err := eng.Redact(s, raw, seat)
				if err != nil {
					t.Fatalf("redact: %v", err)
				}
				seen = cardsNamed(doc.Data)
			}
			if l := seen & hidden; l != 0 {
				t.Errorf("seat %d's copy of %s reveals %v", seat, raw.Type, l.cards())
			}
			desc := (Rules{}).Describe(s, e, seat)
			for _, lang := range games.Languages() {
				said := desc.In(lang)
				for _, c := range hidden.cards() {
					if namesCard(said, lang, c) {
						t.Errorf("seat %d's description of %s in %s names the hidden %v: %q", seat, raw.Type, lang, c, said)
					}
				}
			}
		}
		s = after
	}
}

func checkState(t testing.TB, eng games.Engine, s games.State, evs []games.RawEvent) {
	t.Helper()
	st := s.(State)
	conserved(t, st)
	for _, e := range evs {
		if e.Type == EvScored {
			scoredRight(t, st)
		}
	}
	// Views: no seat sees another hand or the unturned stock; each sees its
	// own. Spectators are checked after every decision, and one seat in turn
	// (all four at deal starts and at the end), so that across the games every
	// seat is checked at every kind of moment.
	rot := games.Seat((st.Deal + len(st.Bids) + 4*len(st.Tricks) + len(st.Trick)) % 4)
	for seat := games.Spectator; seat < 4; seat++ {
		if seat >= 0 && seat != rot && st.Phase != PhaseOver && len(st.Bids) > 0 {
			continue
		}
		doc, err := eng.View(s, seat)
		if err != nil {
			t.Fatalf("view: %v", err)
		}
		named := cardsNamed(doc)
		if l := named & hiddenFrom(st, seat); l != 0 {
			t.Errorf("seat %d's view reveals %v: %s", seat, l.cards(), doc)
		}
		if seat >= 0 && named&st.Hands[seat] != st.Hands[seat] {
			t.Errorf("seat %d does not see all its own cards %v: %s", seat, st.Hands[seat].cards(), doc)
		}
		if st.Phase == PhaseOver {
			var v View
			if err := json.Unmarshal(doc, &v); err != nil {
				t.Fatalf("decode view: %v", err)
			}
			if len(v.Hands) != 4 || len(v.Stock) != 8 {
				t.Errorf("match over but seat %d does not see every card", seat)
			}
		}
	}
	// A seat that may not act is refused, with a rule error.
	if st.Phase == PhaseOver {
		return
	}
	pend := eng.Pending(s)
	refused := func(seat games.Seat, m string) {
		_, err := eng.Decide(s, seat, m, rand.New(rand.NewPCG(1, 2)))
		re, ok := games.AsRuleError(err)
		if !ok {
			t.Errorf("seat %d %q: want a rule error, got %v", seat, m, err)
			return
		}
		// The reason names no card the mover may not see, in any language.
		for _, lang := range games.Languages() {
			why := re.Reason.In(lang)
			for _, c := range hiddenFrom(st, seat).cards() {
				if namesCard(why, lang, c) {
					t.Errorf("seat %d %q: reason %q names the hidden %s", seat, m, why, c)
				}
			}
		}
	}
	for seat := range games.Seat(4) {
		if seat == pend[0].Seat {
			// Its own illegal cards are refused in words that leak nothing.
			if st.Phase == PhasePlay {
				for _, c := range (st.Hands[seat] &^ st.legalSet(seat)).cards() {
					refused(seat, "play "+c.Code())
				}
			}
			continue
		}
		m := "accept"
		if st.Phase == PhasePlay && st.Hands[seat] != 0 {
			m = "play " + st.Hands[seat].cards()[0].Code()
		}
		refused(seat, m)
	}
}

// TestRandomGames plays -gamecount seeded games under the current rules
// version by random legal moves and timeout defaults, with random options,
// checking that every game ends, that Legal and Decide agree, that Choices
// covers Legal, that a fold reproduces the state, that the 24 cards are
// conserved and that no view, redacted event or description leaks a hidden
// card.
func TestRandomGames(t *testing.T) {
	n := *gameCount
	if testing.Short() {
		n = min(n, 200)
	}
	randomGames(t, 0, n)
}

// TestRandomGamesRules1 is TestRandomGames for matches created under rules
// version 1 (a quarter of the games), which are still played and replayed.
func TestRandomGamesRules1(t *testing.T) {
	n := max(1, *gameCount/4)
	if testing.Short() {
		n = min(n, 50)
	}
	randomGames(t, 1, n)
}

// randomGames runs the property harness for n games under rules version
// rules (0: the current one).
func randomGames(t *testing.T, rules, n int) {
	// The run allocates many short-lived views; collect garbage less often.
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	eng := New()
	version := rules
	if version == 0 {
		version = RulesVersion
	}
	var deals, ties, stacked, noDecl int
	var before State // the state before the decision being checked
	st := gametest.Run(t, gametest.Config{
		Rules:       rules,
		Engine:      eng,
		Games:       n,
		MaxMoves:    20000,
		Players:     randomPlayers,
		Options:     randomOptions,
		DefaultRate: 0.2,
		Candidates:  candidates,
		Check: func(t testing.TB, s games.State, evs []games.RawEvent) {
			if len(evs) > 0 && evs[0].Type == EvSeated { // a new game
				before = Rules{}.Initial(version)
			}
			if v := s.(State).Rules; v != version {
				t.Errorf("the state keeps rules version %d, want %d", v, version)
			}
			checkEvents(t, eng, before, evs)
			before = s.(State).clone()
			checkState(t, eng, s, evs)
			for _, e := range evs {
				if e.Type == EvScored {
					h := s.(State).History
					rec := h[len(h)-1]
					deals++
					switch {
					case rec.B >= 2:
						stacked++
					case rec.Winner < 0:
						ties++
					}
					if rec.Declarers < 0 {
						noDecl++
					}
				}
			}
		},
	})
	t.Logf("rules %d: %d games, %d moves, %d defaults, %d near misses rejected; %d deals, %d ties, %d stacked ties, %d without declarers",
		version, st.Games, st.Moves, st.Defaults, st.Rejected, deals, ties, stacked, noDecl)
}

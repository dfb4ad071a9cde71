package coupage

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// gameCount is the number of random games of TestRandomGames (a tenth of it
// under rules version 1). The default of 400 keeps the package near three
// minutes of CPU: a version-2 game runs longer, the harness redacts and
// describes every event for every seat in every language, and the engine
// looks for the closest legal move to each refused candidate. Soak with
// -gamecount 5000 (BENCHMARKS.md records the runs).
var gameCount = flag.Int("gamecount", 400, "number of random games in TestRandomGames")

// conserved checks that every card of the deck is somewhere exactly once
// (as a multiset), that the Cava cards and barrels are all accounted for.
func conserved(s *State) error {
	a := s.aid
	// Counts by canonical card index: the full deck adds, what is in play
	// takes away; every count must end at zero.
	count := slices.Clone(deckCounts(a))
	var unknown string
	take := func(cs ...string) {
		for _, c := range cs {
			if c == "" {
				continue
			}
			if i, ok := a.order[c]; ok {
				count[i]--
			} else {
				unknown = c
			}
		}
	}
	take(s.Deck...)
	take(s.Discard...)
	take(s.Market[:]...)
	take(s.InPlay)
	for _, h := range s.Hands {
		take(h...)
	}
	cava := s.CavaLeft
	for _, bs := range s.Barrels {
		if len(bs) != a.Barrels {
			return fmt.Errorf("a player has %d barrels", len(bs))
		}
		for _, b := range bs {
			take(b.Grapes...)
			for _, t := range b.Time {
				take(t.Card)
			}
			if b.Spoil > 0 {
				take(a.byEff[effSpoil])
			}
			if b.Cava {
				cava++
			}
		}
	}
	if s.Harvest != nil {
		take(s.Harvest.Cards...)
	}
	if unknown != "" {
		return fmt.Errorf("unknown card %q in play", unknown)
	}
	for c, i := range a.order {
		if count[i] != 0 {
			return fmt.Errorf("card %s: %d in play, want %d", c, a.countOf(c)-count[i], a.countOf(c))
		}
	}
	if cava != a.CavaCards {
		return fmt.Errorf("%d Cava cards, want %d", cava, a.CavaCards)
	}
	return nil
}

// deckCounts is the full deck of a data set as counts by canonical index.
var deckCounts = func() func(a *Aid) []int {
	var mu sync.Mutex
	memo := map[*Aid][]int{}
	return func(a *Aid) []int {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := memo[a]; ok {
			return c
		}
		c := make([]int, len(a.order))
		for _, card := range a.Deck() {
			c[a.order[card]]++
		}
		memo[a] = c
		return c
	}
}()

// countOf is how many copies of card c the deck holds.
func (a *Aid) countOf(c string) int {
	n := 0
	for _, d := range a.Deck() {
		if d == c {
			n++
		}
	}
	return n
}

// checkHidden compares each seat's view with the true state: it shows the
// seat's own hand only, face-down cards only to the seat that put them there,
// and no deck order, until the game is over.
func checkHidden(t testing.TB, r Rules, s *State) {
	t.Helper()
	for seat := games.Spectator; int(seat) < len(s.Players); seat++ {
		v := r.View(s, seat).(View)
		for i, h := range s.Hands {
			if v.HandSizes[i] != len(h) {
				t.Errorf("seat %d sees hand size %d of seat %d, true %d", seat, v.HandSizes[i], i, len(h))
			}
		}
		if v.DeckSize != len(s.Deck) {
			t.Errorf("deck size %d, true %d", v.DeckSize, len(s.Deck))
		}
		if s.Over {
			if len(v.Hands) != len(s.Hands) {
				t.Errorf("seat %d: hands not public at game end", seat)
			}
		} else {
			if v.Hands != nil || v.Deck != nil {
				t.Errorf("seat %d sees every hand or the deck before the end", seat)
			}
			if seat >= 0 && !slices.Equal(v.Hand, s.Hands[seat]) && len(v.Hand)+len(s.Hands[seat]) > 0 {
				t.Errorf("seat %d sees hand %v, true %v", seat, v.Hand, s.Hands[seat])
			}
			if seat < 0 && v.Hand != nil {
				t.Errorf("spectator sees a hand")
			}
		}
		for p, bs := range s.Barrels {
			for j, b := range bs {
				bv := v.Barrels[p][j]
				if !slices.Equal(bv.Grapes, b.Grapes) && len(bv.Grapes)+len(b.Grapes) > 0 || bv.Spoil != b.Spoil || bv.State != b.State {
					t.Errorf("seat %d: barrel %d/%d differs from the truth", seat, p, j+1)
				}
				if len(bv.Time) != len(b.Time) {
					t.Fatalf("seat %d: barrel %d/%d shows %d Time, true %d", seat, p, j+1, len(bv.Time), len(b.Time))
				}
				for k, tc := range b.Time {
					tv := bv.Time[k]
					see := !tc.FaceDown || (tc.Knower == seat && !s.Resigned[seat]) || s.Over
					switch {
					case tv.FaceDown != tc.FaceDown:
						t.Errorf("seat %d: face-down flag differs", seat)
					case see && tv.Card != tc.Card:
						t.Errorf("seat %d: should see %s, sees %q", seat, tc.Card, tv.Card)
					case !see && tv.Card != "":
						t.Errorf("seat %d sees face-down card %s it may not see", seat, tv.Card)
					}
				}
			}
		}
	}
}

// viewer is the seat whose private information an event may show: a
// player who left sees the public part only (CP-42), as a spectator.
func viewer(s *State, seat games.Seat) games.Seat {
	if seat >= 0 && int(seat) < len(s.Resigned) && s.Resigned[seat] && !s.Over {
		return games.Spectator
	}
	return seat
}

// hiddenCards are the cards of event e (which applies to s) that seat may
// not see (section 5): another seat's draw, a stolen card seen by neither
// thief nor victim, a card put face down or recovered from face down by
// someone else.
func hiddenCards(s *State, e Event, seat games.Seat) []string {
	seat = viewer(s, seat)
	switch e.Type {
	case evDrew:
		if seat != e.Seat {
			return e.Cards
		}
	case evStole:
		if seat != e.Seat && seat != e.Target {
			return []string{e.Card}
		}
	case evAged, evRecovered:
		if e.FaceDown && seat != e.Seat {
			return []string{e.Card}
		}
	}
	return nil
}

// checkRedacted checks every event's redacted versions against the true
// event (which applies to s): private cards reach only the seats that may
// see them.
func checkRedacted(t testing.TB, r Rules, s *State, e Event, seats int) {
	t.Helper()
	for seat := games.Spectator; int(seat) < seats; seat++ {
		x := r.Redact(s, e, seat)
		v := viewer(s, seat)
		switch e.Type {
		case evShuffled:
			if x.Cards != nil {
				t.Errorf("seat %d sees the order of a shuffled deck", seat)
			}
		case evDrew:
			if v != e.Seat && x.Cards != nil {
				t.Errorf("seat %d sees the cards seat %d drew", seat, e.Seat)
			}
			if v == e.Seat && !slices.Equal(x.Cards, e.Cards) {
				t.Errorf("seat %d does not see its own draw", seat)
			}
		case evStole:
			may := v == e.Seat || v == e.Target
			if !may && (x.Card != "" || x.Index != 0) {
				t.Errorf("seat %d sees the stolen card", seat)
			}
			if may && x.Card != e.Card {
				t.Errorf("seat %d does not see the stolen card", seat)
			}
		case evAged, evRecovered:
			if e.FaceDown && v != e.Seat && x.Card != "" {
				t.Errorf("seat %d sees a face-down card (%s)", seat, e.Type)
			}
		default:
			if !reflect.DeepEqual(x, e) {
				t.Errorf("public event %s redacted for seat %d", e.Type, seat)
			}
		}
	}
}

// namesCard tells whether the description d names the card name as a
// whole: "Xarel·lo ★" is not named by "Xarel·lo ★★".
func namesCard(d, name string) bool {
	for rest := d; ; {
		i := strings.Index(rest, name)
		if i < 0 {
			return false
		}
		rest = rest[i+len(name):]
		if !strings.HasPrefix(rest, "★") {
			return true
		}
	}
}

// checkDescribed checks every seat's description of event e (which applies
// to s): a sentence that names no card the seat may not see, unless the
// same card is also shown in public by the event (a payment, a grape).
func checkDescribed(t testing.TB, r Rules, s *State, e Event, seats int) {
	t.Helper()
	tl := teller{s: s}
	for seat := games.Spectator; int(seat) < seats; seat++ {
		for _, lang := range games.Languages() {
			d := r.Describe(s, e, seat).In(lang)
			if d != "" && !strings.HasSuffix(d, ".") {
				t.Errorf("seat %d: description of %s in %s %q is not a sentence", seat, e.Type, lang, d)
			}
			public := slices.Concat(e.Paid, e.Cards)
			for _, c := range hiddenCards(s, e, seat) {
				if c == "" || (e.Type != evDrew && slices.Contains(public, c)) {
					continue
				}
				if name := words.In(lang).Must(tl.card(c)); namesCard(d, name) {
					t.Errorf("seat %d: description of %s in %s %q names the hidden card %s", seat, e.Type, lang, d, name)
				}
			}
		}
	}
}

// eventChecker follows one random game event by event from the harness's
// Check calls, keeping the state before each event (the harness gives the
// state after a decision only), and checks every event's redactions and
// descriptions against it.
type eventChecker struct {
	r       Rules
	version int
	s       *State
}

func (c *eventChecker) check(t testing.TB, evs []games.RawEvent) {
	t.Helper()
	for _, raw := range evs {
		var e Event
		if err := json.Unmarshal(raw.Data, &e); err != nil {
			t.Fatalf("event: %v", err)
		}
		if e.Type == evSeated {
			c.s = c.r.Initial(c.version)
		}
		if c.s == nil {
			t.Fatalf("event %s before the seating", e.Type)
		}
		checkRedacted(t, c.r, c.s, e, max(len(c.s.Players), len(e.Players)))
		checkDescribed(t, c.r, c.s, e, max(len(c.s.Players), len(e.Players)))
		c.s = c.r.Evolve(c.s, e)
	}
}

// candidates are near-miss moves: other phases' moves, wrong barrels, wrong
// cards, garbage.
func candidates(s games.State, seat games.Seat, r *rand.Rand, eng games.Engine) []string {
	fixed := []string{
		"draw", "draw market 1", "draw market 2", "end", "pick 1", "pick mac1", "take market 1",
		"take nothing", "age nothing", "age 1 time", "recover time mac1", "recover facedown gar2",
		"make rouge 1 gar1 gar1", "make blanc 2 mac1", "make cava blanc 3 mac1 mac2 par1",
		"repair 1 mac1", "time 1", "time 2 mac1 mac2", "bottle 1 mac1", "bottle 2 gar3 tre1",
		"discard time", "discard vin pique", "vin jeune 1", "vol de carte 0", "vol de carte 1",
		"vin pique 0 1", "vin pique 1 2", "oenologue 0 1", "oenologue 1 1", "recolte",
		"evaporation 0 1 mac1", "evaporation 1 1 gar2", "vol de temps 0 1 facedown 1",
		"vol de temps 1 1 time 2", "steal time 1 2 time 1", "young wine 4", "harvest",
		"", "fly", "make", "draw market 3", "time 5", "pick 9",
		// The same in French (games.Catalog.ReadMove reads them).
		"piocher", "Je pioche marché 2", "fin", "élaborer rouge 1 gar1 gar1", "mettre en bouteille 1 mac1",
		"défausser temps", "prendre rien", "vieillir rien", "récupérer face cachée mac1", "choisir 1",
		"temps 1", "réparer 1 mac1", "vol de temps 0 1 face cachée 1", "vin piqué 1 2",
	}
	var out []string
	for range 6 {
		out = append(out, fixed[r.IntN(len(fixed))])
	}
	legal := eng.Legal(s, seat)
	for range 3 {
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		toks := strings.Fields(m)
		switch r.IntN(5) {
		case 0:
			out = append(out, strings.Join(toks[:len(toks)-1], " "))
		case 4:
			// The move in French, its last word dropped.
			fr := strings.Fields(words.In("fr").WriteMove(m))
			out = append(out, strings.Join(fr[:len(fr)-1], " "))
		case 1:
			out = append(out, m+" mac1")
		case 2:
			i := r.IntN(len(toks))
			toks[i] = fmt.Sprint(r.IntN(5))
			out = append(out, strings.Join(toks, " "))
		default:
			i := r.IntN(len(toks))
			toks[i] = []string{"gar1", "xar3", "time", "ull2", "rouge"}[r.IntN(5)]
			out = append(out, strings.Join(toks, " "))
		}
	}
	return out
}

// legalMemo is the engine under test, remembering the choices of the
// state and seat it was last asked about until the next Evolve: the
// harness asks for the acting seat's choices more than once, for the same,
// unchanged state (the harness checks that Decide leaves it alone). The
// first answer is computed; Choices' determinism is tested on fresh calls
// by TestChoicesWorstCases. Its rules (legalRules) remember the legal
// moves likewise.
type legalMemo struct {
	games.Engine
	cs      games.State
	cseat   games.Seat
	choices []string
}

func (m *legalMemo) Choices(s games.State, seat games.Seat) []string {
	if m.choices == nil || m.cs != s || m.cseat != seat {
		m.cs, m.cseat, m.choices = s, seat, m.Engine.Choices(s, seat)
	}
	return slices.Clone(m.choices)
}

func (m *legalMemo) Evolve(s games.State, e games.RawEvent) (games.State, error) {
	m.cs, m.choices = nil, nil
	return m.Engine.Evolve(s, e)
}

// legalRules is the rules under test remembering the legal moves of the
// state and seat they were last asked about until the next Evolve: the
// harness and candidates ask for them more than once, and the engine asks
// again for each refused candidate (to suggest the closest legal move).
type legalRules struct {
	Rules
	memo *legalMoves
}

// legalMoves are the legal moves of seat in state s.
type legalMoves struct {
	s     *State
	seat  games.Seat
	legal []string
}

func newLegalRules(r Rules) legalRules { return legalRules{Rules: r, memo: &legalMoves{}} }

func (r legalRules) Legal(s *State, seat games.Seat) []string {
	if m := r.memo; m.legal == nil || m.s != s || m.seat != seat {
		*m = legalMoves{s: s, seat: seat, legal: r.Rules.Legal(s, seat)}
	}
	return slices.Clone(r.memo.legal)
}

func (r legalRules) Evolve(s *State, e Event) *State {
	*r.memo = legalMoves{}
	return r.Rules.Evolve(s, e)
}

// TestRandomGames runs the property harness under the current rules
// version (2: Time on a barrel that lost a grape, CP-19).
func TestRandomGames(t *testing.T) {
	randomGames(t, 0, *gameCount)
}

// TestRandomGamesV1 runs the property harness under rules version 1, which
// games created before issue 19 keep (fewer games: only CP-19 differs).
func TestRandomGamesV1(t *testing.T) {
	randomGames(t, rulesV1, max(*gameCount/10, 1))
}

func randomGames(t *testing.T, version, count int) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	r := NewRules()
	eng := &legalMemo{Engine: games.Adapt[*State, Move, Event](newLegalRules(r))}
	names := []string{"Ana", "Bob", "Cléo", "Dan"}
	events := &eventChecker{r: r, version: version}
	if version == 0 {
		events.version = r.Info().Rules
	}
	st := gametest.Run(t, gametest.Config{
		Engine:   eng,
		Games:    count,
		MaxMoves: 5000,
		Rules:    version,
		Players: func(rng *rand.Rand) []string {
			return names[:2+rng.IntN(3)]
		},
		Options: func(rng *rand.Rand) games.Options {
			if rng.IntN(4) == 0 {
				return games.Options{"wine_abilities": "off"}
			}
			return nil
		},
		DefaultRate: 0.2,
		Candidates: func(s games.State, seat games.Seat, rng *rand.Rand) []string {
			return candidates(s, seat, rng, eng)
		},
		Check: func(t testing.TB, gs games.State, evs []games.RawEvent) {
			s := gs.(*State)
			if s.Rules != events.version {
				t.Fatalf("the state keeps rules version %d, want %d", s.Rules, events.version)
			}
			if err := conserved(s); err != nil {
				t.Errorf("conservation: %v", err)
			}
			checkHidden(t, r, s)
			events.check(t, evs)
		},
	})
	t.Logf("%+v", st)
}

// TestRandomResignations plays random games in which players leave at
// random moments (CP-42): the game still ends, components are conserved,
// the pending seat always has a legal move and nobody who left is pending.
func TestRandomResignations(t *testing.T) {
	r := NewRules()
	names := []string{"Ana", "Bob", "Cléo", "Dan"}
	for g := range 150 {
		rng := rand.New(rand.NewPCG(uint64(g), 77))
		evs, err := r.Setup(games.Options{}, names[:2+rng.IntN(3)], rng)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Initial(rulesCurrent)
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
		log := slices.Clone(evs)
		for moves := 0; !s.Over; moves++ {
			if moves > 5000 {
				t.Fatalf("game %d did not end", g)
			}
			var out []Event
			if rng.IntN(60) == 0 {
				seat := games.Seat(rng.IntN(len(s.Players)))
				out, err = r.Resign(s, seat, rng)
				if s.Resigned[seat] {
					if _, ok := games.AsRuleError(err); !ok {
						t.Fatalf("game %d: second resignation: %v", g, err)
					}
					continue
				}
			} else {
				p := r.Pending(s)[0]
				if s.Resigned[p.Seat] {
					t.Fatalf("game %d: %s left but is pending", g, s.name(p.Seat))
				}
				legal := r.Legal(s, p.Seat)
				if len(legal) == 0 {
					t.Fatalf("game %d: no legal move for pending seat %d", g, p.Seat)
				}
				choice := legal[rng.IntN(len(legal))]
				if rng.IntN(5) == 0 {
					choice = p.Default
				}
				m, perr := r.Parse(s, choice)
				if perr != nil {
					t.Fatalf("game %d: %q: %v", g, choice, perr)
				}
				out, err = r.Decide(s, p.Seat, m, rng)
			}
			if err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
			for _, e := range out {
				checkRedacted(t, r, s, e, len(s.Players))
				checkDescribed(t, r, s, e, len(s.Players))
				s = r.Evolve(s, e)
			}
			log = append(log, out...)
			if err := conserved(s); err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
			checkHidden(t, r, s)
		}
		re := r.Initial(rulesCurrent)
		for _, e := range log {
			re = r.Evolve(re, e)
		}
		if !reflect.DeepEqual(r.View(re, games.Spectator), r.View(s, games.Spectator)) {
			t.Fatalf("game %d: refold differs", g)
		}
	}
}

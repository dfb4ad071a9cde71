package coyote

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// table is a rigged game: its state and the events so far.
type table struct {
	t   *testing.T
	s   State
	log []Event
	// prev holds the state before each event of log (what Redact and
	// Describe take).
	prev []State
	rng  *rand.Rand
}

var fiveNames = []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}

// rig seats the first n of Ana, Bob, Cal, Dee, Eve, Fay in that order and
// deals round 1 from a pile whose top feathers have the given faces (seat 0
// gets the first, seat 1 the second, …; the next ones are what `?`, reveal
// and replace turn). The rest of the pile follows in table order. opts may be
// nil.
func rig(t *testing.T, n int, opts games.Options, top ...string) *table {
	t.Helper()
	o := games.Options{OptDeck: DeckFeathers30, OptElimination: "3", OptVariantTokens: "off"}
	maps.Copy(o, opts)
	deck, err := LoadDeck(o[OptDeck])
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	if o[OptVariantTokens] == "on" {
		if tokens, err = LoadVariantTokens(); err != nil {
			t.Fatal(err)
		}
	}
	elim := map[string]int{"3": 3, "4": 4, "5": 5}[o[OptElimination]]
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	tb := &table{t: t, rng: rand.New(rand.NewPCG(1, 2))}
	tb.emit(Event{Type: EvSetup, Setup: &SetupEvent{Players: fiveNames[:n], Order: order, Deck: o[OptDeck], Feathers: deck,
		Elimination: elim, Variant: tokens != nil, Tokens: tokens}})
	tb.emit(Event{Type: EvShuffle, Shuffle: &ShuffleEvent{Reason: "start", Pile: pileWith(t, deck, top), Size: len(deck)}})
	b := newBuilder(tb.s.clone(), tb.rng)
	b.deal(0)
	for _, e := range b.evs {
		tb.emit(e)
	}
	return tb
}

// pileWith returns every feather id of deck, the given faces first.
func pileWith(t *testing.T, deck []Feather, top []string) []int {
	t.Helper()
	used := make([]bool, len(deck))
	var pile []int
	for _, face := range top {
		i := slices.IndexFunc(deck, func(f Feather) bool { return f.Face == face && !used[f.ID] })
		if i < 0 {
			t.Fatalf("the deck has no more feathers %q", face)
		}
		used[i] = true
		pile = append(pile, i)
	}
	for i := range deck {
		if !used[i] {
			pile = append(pile, i)
		}
	}
	return pile
}

func (tb *table) emit(e Event) {
	tb.log = append(tb.log, e)
	tb.prev = append(tb.prev, tb.s.clone())
	tb.s = evolve(tb.s, e)
}

// before is the state just before event e, the last such event of the log.
func (tb *table) before(e Event) State {
	tb.t.Helper()
	for i, logged := range slices.Backward(tb.log) {
		if reflect.DeepEqual(logged, e) {
			return tb.prev[i]
		}
	}
	tb.t.Fatalf("no event %+v in the log", e)
	return State{}
}

// redact is seat's copy of event e of the log.
func (tb *table) redact(e Event, seat games.Seat) Event {
	tb.t.Helper()
	return Rules{}.Redact(tb.before(e), e, seat)
}

// seat returns the seat of a player name.
func (tb *table) seat(name string) games.Seat {
	tb.t.Helper()
	i := slices.Index(tb.s.Players, name)
	if i < 0 {
		tb.t.Fatalf("no player %s", name)
	}
	return games.Seat(i)
}

// play makes name send move; it must be accepted. It returns the events.
func (tb *table) play(name, move string) []Event {
	tb.t.Helper()
	evs, err := tb.try(name, move)
	if err != nil {
		tb.t.Fatalf("%s %q: %v", name, move, err)
	}
	return evs
}

func (tb *table) try(name, move string) ([]Event, error) {
	tb.t.Helper()
	r := Rules{}
	m, err := r.Parse(tb.s, move)
	if err != nil {
		return nil, err
	}
	before := viewJSON(tb.t, tb.s, -1)
	evs, err := r.Decide(tb.s, tb.seat(name), m, tb.rng)
	if after := viewJSON(tb.t, tb.s, -1); before != after {
		tb.t.Fatalf("Decide changed the state")
	}
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		tb.emit(e)
	}
	return evs, nil
}

// reject makes name send move; it must be refused citing rule.
func (tb *table) reject(name, move, rule string) {
	tb.t.Helper()
	_, err := tb.try(name, move)
	re, ok := games.AsRuleError(err)
	if !ok {
		tb.t.Fatalf("%s %q: want a rule error citing %s, got %v", name, move, rule, err)
	}
	if re.Rule != rule {
		tb.t.Fatalf("%s %q: rejected citing %s (%s), want %s", name, move, re.Rule, re.Reason.String(), rule)
	}
	checkReason(tb.t, re)
}

// checkReason checks that a refusal's reason is said in every language
// with every argument it places: no "[games: …]" in place of words, and
// the French one is not the English one.
func checkReason(t testing.TB, re *games.RuleError) {
	t.Helper()
	for _, lang := range games.Languages() {
		if err := words.In(lang).Check(re.Reason.Text); err != nil {
			t.Fatalf("the reason of %s in %s: %v", re.Rule, lang, err)
		}
	}
	if en, fr := re.Reason.In(games.English), re.Reason.In("fr"); en == fr {
		t.Fatalf("the reason of %s is %q in English and in French", re.Rule, en)
	}
}

// turn is the name of the player to act.
func (tb *table) turn() string {
	if tb.s.Turn < 0 {
		return "nobody"
	}
	return tb.s.Players[tb.s.Turn]
}

func (tb *table) wantTurn(name string) {
	tb.t.Helper()
	if got := tb.turn(); got != name {
		tb.t.Fatalf("turn: %s, want %s", got, name)
	}
}

// find returns the first event of type typ in evs.
func find(t *testing.T, evs []Event, typ string) Event {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ {
			return e
		}
	}
	t.Fatalf("no %s event among %v", typ, types(evs))
	return Event{}
}

func types(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func has(evs []Event, typ, reason string) bool {
	return slices.ContainsFunc(evs, func(e Event) bool {
		return e.Type == typ && (reason == "" || e.Shuffle != nil && e.Shuffle.Reason == reason)
	})
}

// worn is the face name wears.
func (tb *table) worn(name string) string {
	id := tb.s.Worn[tb.seat(name)]
	if id < 0 {
		return ""
	}
	return tb.s.Deck[id].Face
}

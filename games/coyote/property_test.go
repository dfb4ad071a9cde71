package coyote

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

var gameCount = flag.Int("gamecount", 1000, "random games played by TestProperties")

// TestProperties plays thousands of random games (random player counts and
// options, 20% timeouts) and checks after every event that the game ends,
// that the feathers are conserved (CY-2, CY-4, CY-11, CY-16) and that no
// view, redacted event or description shows a seat a feather hidden from it
// (section 5); gametest.Run itself checks Choices against Legal on every
// decision.
func TestProperties(t *testing.T) {
	eng := New()
	decks := map[string][]Feather{}
	for _, name := range deckNames() {
		d, err := LoadDeck(name)
		if err != nil {
			t.Fatal(err)
		}
		decks[name] = d
	}
	var players int
	var shadow State
	var stats struct{ calls, declares, replaces, reveals, nights, eliminations, shortShuffles, emptyShuffles int }
	cfg := gametest.Config{
		Engine:   eng,
		Games:    *gameCount,
		MaxMoves: 5000,
		Players: func(r *rand.Rand) []string {
			players = 3 + r.IntN(4)
			names := make([]string, players)
			for i := range names {
				names[i] = fmt.Sprintf("P%d", i)
			}
			return names
		},
		Options: func(r *rand.Rand) games.Options {
			o := games.Options{OptDeck: deckNames()[r.IntN(2)], OptVariantTokens: "off"}
			if r.IntN(4) != 0 {
				o[OptVariantTokens] = "on"
			}
			if players <= 4 {
				o[OptElimination] = strconv.Itoa(3 + r.IntN(3))
			}
			return o
		},
		DefaultRate: 0.2,
		Candidates:  nearMisses,
		Check: func(t testing.TB, s games.State, evs []games.RawEvent) {
			for i, raw := range evs {
				var e Event
				if err := json.Unmarshal(raw.Data, &e); err != nil {
					t.Fatalf("decode %s: %v", raw.Type, err)
				}
				if e.Type == EvSetup {
					shadow = Rules{}.Initial(RulesVersion)
				}
				prev := shadow.clone()
				shadow = evolve(shadow, e)
				if e.Type != EvSetup { // the deck is shuffled into the pile next
					checkConservation(t, decks, shadow, e)
				}
				checkHidden(t, prev, shadow, e, i == len(evs)-1)
				if i == len(evs)-1 {
					checkTokens(t, shadow)
				}
				switch {
				case e.Type == EvCount:
					stats.calls++
				case e.Type == EvFlip && e.Flip.Token == TokenDeclare:
					stats.declares++
				case e.Type == EvFlip && e.Flip.Token == TokenReplace:
					stats.replaces++
				case e.Type == EvFlip && e.Flip.Token == TokenReveal:
					stats.reveals++
				case e.Type == EvShuffle && e.Shuffle.Reason == "night":
					stats.nights++
				case e.Type == EvShuffle && e.Shuffle.Reason == "short":
					stats.shortShuffles++
				case e.Type == EvShuffle && e.Shuffle.Reason == "empty":
					stats.emptyShuffles++
				case e.Type == EvCoyote && e.Coyote.Eliminated:
					stats.eliminations++
				}
			}
		},
	}
	run := gametest.Run(t, cfg)
	t.Logf("%+v %+v", run, stats)
	if run.Games != *gameCount || stats.declares == 0 || stats.replaces == 0 || stats.nights == 0 || stats.shortShuffles == 0 {
		t.Errorf("the random games did not reach every rule: %+v", stats)
	}
}

// checkConservation: pile + discard + worn + face up + replaced hold every
// feather of the deck exactly once, and the deck is the data table.
func checkConservation(t testing.TB, decks map[string][]Feather, s State, e Event) {
	t.Helper()
	if !slices.Equal(decks[s.DeckName], s.Deck) {
		t.Fatalf("the game's deck differs from the %s table", s.DeckName)
	}
	seen := make([]int, len(s.Deck))
	mark := func(id int) {
		if id < 0 || id >= len(seen) {
			t.Fatalf("after %s: feather id %d is not in the deck", e.Type, id)
		}
		seen[id]++
	}
	for _, id := range s.Pile {
		mark(id)
	}
	for _, id := range s.Discard {
		mark(id)
	}
	for seat, id := range s.Worn {
		if id >= 0 {
			if s.Out[seat] && s.Turn >= 0 {
				t.Errorf("after %s: eliminated seat %d wears a feather", e.Type, seat)
			}
			mark(id)
		}
		for _, r := range s.Replaced[seat] {
			mark(r)
		}
	}
	for _, f := range s.FaceUp {
		mark(f.Feather)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("after %s: feather %d (%s) is held %d times (pile %d, discard %d)", e.Type, id, s.Deck[id].Face, n, len(s.Pile), len(s.Discard))
		}
	}
}

// hidden lists the feathers seat may not see now: the pile; its own worn and
// replaced feathers (every worn and replaced feather for spectators and
// eliminated seats), unless the round is being settled (after a call or a
// wrong declaration every feather of the round is public, section 5).
func hidden(s State, seat games.Seat) []int {
	out := slices.Clone(s.Pile)
	for p, id := range s.Worn {
		if hidesWorn(s, seat, games.Seat(p)) {
			out = append(out, id)
		}
		if hidesReplaced(s, seat, games.Seat(p)) {
			out = append(out, s.Replaced[p]...)
		}
	}
	return out
}

// hidesReplaced says whether the feathers left behind p's worn one are
// hidden from seat (section 5).
func hidesReplaced(s State, seat, p games.Seat) bool {
	if s.Over || s.Turn < 0 || s.Worn[p] < 0 {
		return false
	}
	return seat < 0 || s.Out[seat] || seat == p
}

// hidesWorn says whether p's worn feather is hidden from seat: as its
// replaced ones, unless p withdrew (its feather lies face up).
func hidesWorn(s State, seat, p games.Seat) bool {
	return hidesReplaced(s, seat, p) && !s.Withdrawn[p]
}

// checkHidden checks seat by seat that the redacted event (which applies to
// prev and gave s) and, when views is set, the view show no feather hidden
// from that seat, and that the description says nothing hidden either.
func checkHidden(t testing.TB, prev, s State, e Event, views bool) {
	t.Helper()
	for seat := games.Spectator; int(seat) < s.seats(); seat++ {
		checkDescribeHidden(t, prev, e, seat)
	}
	switch e.Type {
	case EvBid, EvCall, EvCoyote, EvResign, EvGameOver: // no feathers in these
		if !views {
			return
		}
	}
	for seat := games.Spectator; int(seat) < s.seats(); seat++ {
		h := hidden(s, seat)
		red, err := json.Marshal(Rules{}.Redact(prev, e, seat))
		if err != nil {
			t.Fatalf("redact: %v", err)
		}
		if leak := intersect(featherIDs(t, red), h); len(leak) > 0 {
			t.Fatalf("redacted %s event shows seat %d hidden feathers %v: %s", e.Type, seat, leak, red)
		}
		if !views {
			continue
		}
		v := currentViewJSON(t, s, seat)
		if leak := intersect(featherIDs(t, v), h); len(leak) > 0 {
			t.Fatalf("after %s, seat %d's view shows hidden feathers %v: %s", e.Type, seat, leak, v)
		}
		if seat >= 0 && s.Worn[seat] >= 0 && !s.Withdrawn[seat] && !s.Over && s.Turn >= 0 {
			own := Rules{}.View(s, seat).(View).Players[seat]
			if own.Feather != nil || len(own.Replaced) > 0 || !own.Hidden {
				t.Fatalf("seat %d sees its own feather: %+v", seat, own)
			}
		}
	}
}

// checkDescribeHidden checks that seat's description of e (which applies to
// prev) does not change when every feather hidden from seat is changed for
// one of another face: in the state (its own worn and replaced feathers,
// every worn one for spectators and eliminated seats, the pile order) and
// in the event (its own dealt feather, every dealt one for a seat not dealt
// in, a replacing feather it may not see, the pile order of a shuffle). So
// the description names no hidden feather, whatever its words.
func checkDescribeHidden(t testing.TB, prev State, e Event, seat games.Seat) {
	t.Helper()
	want := Rules{}.Describe(prev, e, seat)
	if prev.Deck == nil { // the setup event: nothing is hidden yet
		return
	}
	alt := prev.clone()
	slices.Reverse(alt.Pile)
	for p := range alt.Worn {
		if hidesWorn(prev, seat, games.Seat(p)) {
			alt.Worn[p] = otherFace(prev.Deck, alt.Worn[p])
		}
		if hidesReplaced(prev, seat, games.Seat(p)) {
			for i, id := range alt.Replaced[p] {
				alt.Replaced[p][i] = otherFace(prev.Deck, id)
			}
		}
	}
	out := seat < 0 || int(seat) >= prev.seats() || prev.Out[seat]
	changed := func(f *Feather) *Feather {
		if f == nil {
			return nil
		}
		return new(prev.Deck[otherFace(prev.Deck, f.ID)])
	}
	ae := e
	switch {
	case e.Shuffle != nil:
		sh := *e.Shuffle
		sh.Pile = slices.Clone(sh.Pile)
		slices.Reverse(sh.Pile)
		ae.Shuffle = &sh
	case e.Deal != nil:
		d := *e.Deal
		d.Worn = slices.Clone(d.Worn)
		for i, w := range d.Worn {
			if out || w.Seat == seat {
				d.Worn[i].Feather = changed(w.Feather)
			}
		}
		ae.Deal = &d
	case e.Flip != nil && e.Flip.Token == TokenReplace && (out || e.Flip.Seat == seat):
		f := *e.Flip
		f.Feather = changed(f.Feather)
		ae.Flip = &f
	}
	got := Rules{}.Describe(alt, ae, seat)
	for _, lang := range games.Languages() {
		if got.In(lang) != want.In(lang) {
			t.Fatalf("seat %d's description of %s in %s tells a hidden feather: %q, but %q when the hidden feathers are others", seat, e.Type, lang, want.In(lang), got.In(lang))
		}
	}
}

// otherFace returns the first feather of deck with another face than id's.
func otherFace(deck []Feather, id int) int {
	for _, f := range deck {
		if f.Face != deck[id].Face {
			return f.ID
		}
	}
	return id
}

func viewJSON(t testing.TB, s State, seat games.Seat) string {
	b, err := json.Marshal(Rules{}.View(s, seat))
	if err != nil {
		t.Fatalf("view: %v", err)
	}
	return string(b)
}

// featherRe matches a feather as encoding/json writes it.
var featherRe = regexp.MustCompile(`\{"id":(\d+),"face":`)

// featherIDs returns the id of every feather in a JSON document, and fails
// on a pile order (shuffle events are redacted for every seat).
func featherIDs(t testing.TB, doc []byte) []int {
	t.Helper()
	if bytes.Contains(doc, []byte(`"pile":`)) {
		t.Fatalf("a pile order is shown: %s", doc)
	}
	var out []int
	for _, m := range featherRe.FindAllSubmatch(doc, -1) {
		id, err := strconv.Atoi(string(m[1]))
		if err != nil {
			t.Fatalf("feather id %q: %v", m[1], err)
		}
		out = append(out, id)
	}
	return out
}

// currentViewJSON is seat's view without its history (last_count): that was
// public when it happened, and a feather shown there
// may have been reshuffled and dealt since.
func currentViewJSON(t testing.TB, s State, seat games.Seat) []byte {
	v := Rules{}.View(s, seat).(View)
	v.LastCount = nil
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("view: %v", err)
	}
	return b
}

func intersect(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// checkTokens: a seat is out exactly when it holds enough tokens (CY-10);
// the game is over exactly when one seat is left, and it won (CY-17).
func checkTokens(t testing.TB, s State) {
	t.Helper()
	for i, n := range s.Coyotes {
		if s.Out[i] != (n >= s.Elimination) {
			t.Errorf("seat %d has %d tokens (elimination %d) but out=%v", i, n, s.Elimination, s.Out[i])
		}
	}
	if s.Over != (s.living() == 1) {
		t.Errorf("over=%v with %d living players", s.Over, s.living())
	}
	if s.Over && (s.Out[s.Winner] || s.Turn >= 0) {
		t.Errorf("winner %d is out, or someone still has the turn", s.Winner)
	}
	if !s.Over && (s.Turn < 0 || s.Out[s.Turn] || s.Withdrawn[s.Turn]) {
		t.Errorf("turn %d is not a living player in the round", s.Turn)
	}
	if !s.Over && s.active() < 2 {
		t.Errorf("fewer than two players in the round")
	}
}

// nearMisses are moves that Legal does not list but a player might send.
func nearMisses(st games.State, seat games.Seat, r *rand.Rand) []string {
	s := st.(State)
	out := []string{
		"", "bid", "bid x", "call me", "declare", "declare foo", "declare 11", "declare 0",
		"bid 0", "bid -3", "0",
		"bid " + strconv.Itoa(s.Bid),
		"bid " + strconv.Itoa(bidLimit(s, seat)+1),
		"coyote", "reveal", "reverse", "skip", "replace", "declare 7", "declare night",
	}
	if s.Bid > 1 {
		out = append(out, "bid "+strconv.Itoa(s.Bid-r.IntN(s.Bid)))
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:6]
}

// TestResignProperties plays random games in which players resign at random
// moments (CY-33): every game ends, feathers are conserved and nothing
// hidden shows.
func TestResignProperties(t *testing.T) {
	decks := map[string][]Feather{}
	for _, name := range deckNames() {
		d, err := LoadDeck(name)
		if err != nil {
			t.Fatal(err)
		}
		decks[name] = d
	}
	r := Rules{}
	for g := range max(*gameCount/10, 20) {
		rng := rand.New(rand.NewPCG(uint64(g), 99))
		n := 3 + rng.IntN(4)
		opts := games.Options{OptVariantTokens: []string{"on", "off"}[rng.IntN(2)], OptDeck: deckNames()[rng.IntN(2)]}
		evs, err := r.Setup(opts, fiveNames[:n], rng)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Initial(RulesVersion)
		apply := func(evs []Event) {
			for i, e := range evs {
				prev := s.clone()
				s = evolve(s, e)
				if e.Type != EvSetup {
					checkConservation(t, decks, s, e)
				}
				checkHidden(t, prev, s, e, i == len(evs)-1)
				for seat := games.Spectator; int(seat) < s.seats(); seat++ {
					full, red := r.Describe(prev, e, seat), r.Describe(prev, r.Redact(prev, e, seat), seat)
					for _, lang := range games.Languages() {
						if d := full.In(lang); d != red.In(lang) || !strings.HasSuffix(d, ".") && !strings.HasSuffix(d, "!") || strings.HasPrefix(d, "[") {
							t.Fatalf("seat %d: description %q of %s in %s is not a sentence or tells more than the redacted event", seat, d, e.Type, lang)
						}
					}
				}
			}
		}
		apply(evs)
		resigned := 0
		for moves := 0; !s.Over; moves++ {
			if moves > 3000 {
				t.Fatalf("game %d does not end", g)
			}
			if rng.IntN(30) == 0 {
				seat := games.Seat(rng.IntN(n))
				out, err := r.Resign(s, seat, rng)
				if s.Out[seat] != (err != nil) {
					t.Fatalf("resign of seat %d (out %v): %v", seat, s.Out[seat], err)
				}
				if err == nil {
					resigned++
				}
				apply(out)
				continue
			}
			legal := r.Legal(s, s.Turn)
			m, err := r.Parse(s, legal[rng.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.Decide(s, s.Turn, m, rng)
			if err != nil {
				t.Fatalf("%+v: %v", m, err)
			}
			apply(out)
			if !s.Over && (s.Turn < 0 || s.Out[s.Turn] || s.active() < 2) {
				t.Fatalf("turn %d, active %d", s.Turn, s.active())
			}
		}
		if res := r.Result(s); !res.Finished || len(res.Winners) != 1 || s.Out[res.Winners[0]] || s.living() != 1 {
			t.Fatalf("game %d: result %+v", g, res)
		}
	}
}

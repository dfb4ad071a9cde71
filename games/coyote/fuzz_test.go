package coyote

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// fuzzStates are the states of a few random games, one after every decision
// (the last of each game is over), shared by every FuzzDecide input.
var fuzzStates = sync.OnceValue(func() [][]State {
	r := Rules{}
	var out [][]State
	for g, opts := range []games.Options{
		{OptVariantTokens: "on"},
		{OptVariantTokens: "off", OptDeck: DeckFirstEdition36},
		{OptVariantTokens: "on", OptDeck: DeckFirstEdition36, OptElimination: "4"},
		{OptVariantTokens: "on"},
	} {
		rng := rand.New(rand.NewPCG(uint64(g), 2026))
		n := []int{6, 5, 3, 4}[g]
		full, err := New().Options(opts)
		if err != nil {
			panic(err)
		}
		evs, err := r.Setup(full, fiveNames[:n], rng)
		if err != nil {
			panic(err)
		}
		s := fold(evs)
		states := []State{s}
		for !s.Over {
			legal := r.Legal(s, s.Turn)
			move := legal[rng.IntN(len(legal))]
			if rng.IntN(3) == 0 && s.Bid > 0 && s.Bidder != s.Turn {
				move = "coyote" // keep rounds short, so the game ends
			}
			m, err := r.Parse(s, move)
			if err != nil {
				panic(err)
			}
			evs, err := r.Decide(s, s.Turn, m, rng)
			if err != nil {
				panic(err)
			}
			s = s.clone()
			for _, e := range evs {
				s = evolve(s, e)
			}
			states = append(states, s)
		}
		out = append(out, states)
	}
	return out
})

// FuzzDecide feeds arbitrary text from arbitrary seats (spectator, out of
// range, eliminated, after the end) to states of random games: Parse and
// Decide never panic, refuse with a *RuleError, leave the state alone, and
// what they accept is a legal move whose events keep the game sound. The
// seed corpus runs with every `go test`.
func FuzzDecide(f *testing.F) {
	moves := []string{
		"", " ", "bid", "bid 1", "1", "bid 0", "bid -1", "-7", "+3", "bid 999999999", "bid 9999999999", "bid 1 2",
		"coyote", "Coyote!", "call", "coyote now", "COYOTE", "coyote!!", "reveal", "reverse", "skip", "replace",
		"declare", "declare 7", "declare -5", "declare −10", "declare ?", "declare max0", "declare -max", "declare x2",
		"declare night", "declare 0", "declare 11", "declare +07", "declare -", "declare --5", "declare ??",
		"reveal\nbid 3", "bid\t4", "\x00", "déclare 5", "日本", "bid ٣", "declare 1e3", "bid 0x10", "-", "+", "--1",
		"enchère 5", "J’annonce 12.", "Coyote !", "je dis coyote", "je passe", "deviner nuit", "DEVINER ×2", "nuit", "enchère coyote",
	}
	for i, m := range moves {
		for k := range 4 { // each text against a state of every game, from several seats
			f.Add(uint8(k), uint16(i*7+k*13), int8((i+k)%10), m)
		}
	}
	decks := map[string][]Feather{}
	for _, name := range deckNames() {
		d, err := LoadDeck(name)
		if err != nil {
			f.Fatal(err)
		}
		decks[name] = d
	}
	f.Fuzz(func(t *testing.T, game uint8, step uint16, seatN int8, text string) {
		all := fuzzStates()
		states := all[int(game)%len(all)]
		s := states[int(step)%len(states)]
		seat := games.Seat(int(seatN)%10 - 2) // -2 .. 7: spectator and seats out of range too
		r := Rules{}
		before := s.clone()
		rng := rand.New(rand.NewPCG(uint64(step), uint64(game)))

		// The engine reads the words of every language into the canonical
		// ones before Parse ("déclare 5" is "declare 5", accents optional).
		read := words.ReadMove(text)
		m, perr := r.Parse(s, read)
		if perr != nil {
			if re, ok := games.AsRuleError(perr); !ok || re.Rule != games.NotationRule {
				t.Fatalf("Parse(%q): %v is not a notation error", read, perr)
			}
			for _, lang := range games.Languages() {
				if err := words.In(lang).Check(ruleErr(perr).Reason.Text); err != nil {
					t.Fatalf("Parse(%q) refuses in %s: %v", read, lang, err)
				}
			}
		} else if back, err := r.Parse(s, r.Format(s, m)); err != nil || back != m {
			t.Fatalf("Parse(Format(%+v)) = %+v, %v", m, back, err)
		}
		// The type-erased face must agree and must not panic either.
		_, eerr := New().Decide(s, seat, text, rng)
		if _, err := r.Resign(s, seat, rand.New(rand.NewPCG(1, 1))); err != nil {
			if _, ok := games.AsRuleError(err); !ok {
				t.Fatalf("Resign(seat %d): %v is not a rule error", seat, err)
			}
		}
		for v := games.Seat(-2); v < 8; v++ {
			r.Legal(s, v)
			if _, err := json.Marshal(r.View(s, v)); err != nil {
				t.Fatal(err)
			}
		}
		if perr != nil {
			if eerr == nil {
				t.Fatalf("the engine accepted %q that Parse refuses as %q", text, read)
			}
			return
		}
		evs, err := r.Decide(s, seat, m, rng)
		if !reflect.DeepEqual(before, s) {
			t.Fatalf("Decide(%q) by seat %d changed the state", text, seat)
		}
		if (err == nil) != (eerr == nil) {
			t.Fatalf("Decide and the engine disagree on %q by seat %d: %v / %v", text, seat, err, eerr)
		}
		if err != nil {
			if _, ok := games.AsRuleError(err); !ok {
				t.Fatalf("Decide(%q) by seat %d: %v is not a rule error", text, seat, err)
			}
			if slices.Contains(r.Legal(s, seat), r.Format(s, m)) {
				t.Fatalf("seat %d: legal move %q refused: %v", seat, r.Format(s, m), err)
			}
			return
		}
		if !slices.Contains(r.Legal(s, seat), r.Format(s, m)) {
			t.Fatalf("seat %d: %q accepted but not among the legal moves %v", seat, text, r.Legal(s, seat))
		}
		next := s.clone()
		for _, e := range evs {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var back Event
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			for v := games.Seat(-1); int(v) < next.seats(); v++ {
				full, red := r.Describe(next, back, v), r.Describe(next, r.Redact(next, back, v), v)
				for _, lang := range games.Languages() {
					if d := full.In(lang); d != red.In(lang) {
						t.Fatalf("seat %d: the description %q in %s tells more than the redacted event", v, d, lang)
					}
				}
			}
			next = evolve(next, back)
			checkConservation(t, decks, next, e)
		}
		checkTokens(t, next)
	})
}

// ruleErr is err's *games.RuleError (nil when it is none).
func ruleErr(err error) *games.RuleError {
	e, _ := games.AsRuleError(err)
	return e
}

package kramercoup

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// fuzzStates are states to fuzz Decide against: before the setup, between
// the seating and the deal, and snapshots of a few random games (every
// phase, resignations, the end).
var fuzzStates = sync.OnceValue(func() []*State {
	eng := New()
	out := []*State{Rules{}.Initial(RulesVersion)}
	seated := Rules{}.Evolve(Rules{}.Initial(RulesVersion), Event{Type: EvSeated, Players: []string{"a", "b", "c"},
		Options: games.Options{OptExchangeOrder: DiscardFirst}})
	out = append(out, seated)
	for g, n := range []int{2, 4, 6, 3} {
		seed := games.Seed{byte(g), 0xF0}
		pick := seed.Rand(1 << 40)
		opts := games.Options{OptExchangeOrder: []string{DiscardFirst, DrawFirst}[g%2]}
		evs, err := eng.Setup(opts, []string{"a", "b", "c", "d", "e", "f"}[:n], seed.Rand(0))
		if err != nil {
			panic(err)
		}
		gs, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			panic(err)
		}
		v := len(evs)
		for moves := range 6000 {
			s := gs.(*State)
			if moves%7 == 0 || s.Phase == PhaseLast {
				out = append(out, s.clone())
			}
			p := eng.Pending(gs)
			if len(p) == 0 {
				break
			}
			var raw []games.RawEvent
			if g == 3 && pick.IntN(60) == 0 {
				// A seat that already left is refused (no events): skip it.
				raw, err = eng.Resign(gs, games.Seat(pick.IntN(n)), seed.Rand(v))
				if _, ok := games.AsRuleError(err); err != nil && !ok {
					panic(err)
				}
			} else {
				legal := eng.Legal(gs, p[0].Seat)
				raw, err = eng.Decide(gs, p[0].Seat, legal[pick.IntN(len(legal))], seed.Rand(v))
				if err != nil {
					panic(err)
				}
			}
			for _, e := range raw {
				if gs, err = eng.Evolve(gs, e); err != nil {
					panic(err)
				}
			}
			v += len(raw)
		}
		out = append(out, gs.(*State).clone())
	}
	return out
})

// namedTiles are the tiles written in text in any language ("b7", "blue
// 7", "le 7 bleu"): a rule error may repeat them to the mover without
// revealing anything.
func namedTiles(text string) []Tile {
	var out []Tile
	f := readWords(text)
	for i := 0; i+1 < len(f); i++ {
		if c, ok := colourIndex(f[i]); ok {
			if k, err := strconv.Atoi(f[i+1]); err == nil && k >= 1 && k <= Numbers {
				out = append(out, NewTile(c, k))
			}
		}
		if c, ok := colourIndex(f[i+1]); ok {
			if k, err := strconv.Atoi(f[i]); err == nil && k >= 1 && k <= Numbers {
				out = append(out, NewTile(c, k))
			}
		}
	}
	return out
}

// FuzzDecide feeds arbitrary text for arbitrary seats (spectator, seats out
// of range, resigned seats, after the end) against states of random games:
// Parse and Decide never panic, a rejection is a rule error naming no tile
// the seat may not see, Decide leaves the state alone, an accepted move is
// one of the seat's legal moves, and Parse(Format(m)) == m. Its seed corpus
// (every state × legal moves, near misses and garbage, for several seats)
// runs with the normal tests.
func FuzzDecide(f *testing.F) {
	states := fuzzStates()
	texts := []string{"", "pass", "keep", "buy nothing", "buy 0", "place nothing", "buy 4 red", "buy 1 red 2 blue",
		"buy 999 green", "buy -1 red", "buy red red red red red", "place b7", "place blue 21", "place", "discard",
		"discard y1 y1", "discard p20 g20 b20", "keep red 3", "bUy  2 Réd, 1 BLUE", "place violet7", "\x00\xff",
		"place purple 0", "buy 99999999999999999999 red", "place b٣", "discard b 7 8", "hello world", "place nothing else",
		"pose bleu 7", "Je pose le 7 bleu", "je défausse le 3 rouge et le 12 vert", "J’achète 2 jetons rouges et 1 bleu",
		"je garde tout", "je n'achète rien", "pose j7", "échange", "achète 2", "pose rose 7", "passe mon tour"}
	for i, s := range states {
		seats := []int{-1, 0, 1, s.n(), s.n() + 5, -7}
		if s.Turn >= 0 {
			seats = append(seats, s.Turn)
			legal := Rules{}.Legal(s, games.Seat(s.Turn))
			for j := 0; j < len(legal); j += 1 + len(legal)/4 {
				f.Add(uint16(i), s.Turn, legal[j])
			}
		}
		for j, text := range texts {
			f.Add(uint16(i), seats[(i+j)%len(seats)], text)
		}
		for p, h := range s.Hands {
			if len(h) > 0 {
				f.Add(uint16(i), s.Turn, "place "+h[0].String())
				f.Add(uint16(i), s.Turn, "discard "+h[len(h)-1].String())
				f.Add(uint16(i), p, "place "+h[0].String())
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, seat int, text string) {
		s := states[int(which)%len(states)]
		before, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		eng := New()
		if m, err := (Rules{}).Parse(s, text); err == nil {
			back, err := Rules{}.Parse(s, Rules{}.Format(s, m))
			if err != nil || !reflect.DeepEqual(back, m) {
				t.Errorf("%q: Parse(Format(m)) = %+v, %v; want %+v", text, back, err, m)
			}
		} else if _, ok := games.AsRuleError(err); !ok {
			t.Errorf("%q: parse error %v is not a rule error", text, err)
		}
		evs, err := eng.Decide(s, games.Seat(seat), text, games.Seed{9}.Rand(int(which)))
		if after, err := json.Marshal(s); err != nil || string(after) != string(before) {
			t.Fatalf("seat %d %q: Decide changed the state", seat, text)
		}
		if err != nil {
			re, ok := games.AsRuleError(err)
			if !ok {
				t.Fatalf("seat %d %q: %v is not a rule error", seat, text, err)
			}
			if re.Reason.String() == "" {
				t.Errorf("seat %d %q: rule %s without a reason", seat, text, re.Rule)
			}
			for _, lang := range games.Languages() {
				if err := words.In(lang).Check(re.Reason.Text); err != nil {
					t.Errorf("seat %d %q: the reason in %s: %v", seat, text, lang, err)
				}
			}
			if re.Rule == games.NotationRule {
				return // Parse reads only the phase: its fixed examples ("e.g. blue 7") name nobody's tile
			}
			if re.Reason.Text.Key == "refusal.exchange_phase" {
				return // a fixed text, whose example ("discard red 3 green 12") names nobody's tile
			}
			named := namedTiles(text)
			for _, lang := range games.Languages() {
				shown := tilesNamedIn(lang, re.Reason.In(lang))
				for _, x := range hiddenFrom(s, seat) {
					if shown[x] && !slices.Contains(named, x) {
						t.Errorf("seat %d %q: error %q in %s reveals %s", seat, text, re.Reason.In(lang), lang, x)
					}
				}
			}
			return
		}
		canon, err := eng.Canonical(s, text)
		if err != nil {
			t.Fatalf("seat %d %q accepted but not canonical: %v", seat, text, err)
		}
		if !slices.Contains(eng.Legal(s, games.Seat(seat)), canon) {
			t.Errorf("seat %d: %q (%q) accepted but not among its legal moves", seat, text, canon)
		}
		var c games.State = s.clone()
		for _, e := range evs {
			if c, err = eng.Evolve(c, e); err != nil {
				t.Fatalf("seat %d %q: evolve %s: %v", seat, text, e.Type, err)
			}
		}
	})
}

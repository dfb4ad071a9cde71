package coupage

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// fuzzStates are states of a few seeded random games (2, 3 and 4 players,
// abilities on and off, a resignation): every Récolte being picked, every
// ability choice, the end of the game and every 7th move.
var fuzzStates = sync.OnceValue(func() []*State {
	r := NewRules()
	var out []*State
	names := []string{"Ana", "Bob", "Cléo", "Jean Luc"}
	for g := range 4 {
		rng := rand.New(rand.NewPCG(uint64(g), 2024))
		opts := games.Options{}
		if g == 1 {
			opts["wine_abilities"] = "off"
		}
		evs, err := r.Setup(opts, names[:2+g%3], rng)
		if err != nil {
			panic(err)
		}
		s := r.Initial(rulesCurrent)
		for _, e := range evs {
			s = r.Evolve(s, e)
		}
		out = append(out, s.clone())
		for move := 0; !s.Over && move < 3000; move++ {
			var evs []Event
			if g == 3 && move == 40 {
				evs, err = r.Resign(s, 1, rng)
			} else {
				p := r.Pending(s)[0]
				legal := r.Legal(s, p.Seat)
				choice := legal[rng.IntN(len(legal))]
				if rng.IntN(6) == 0 {
					choice = p.Default
				}
				m, perr := r.Parse(s, choice)
				if perr != nil {
					panic(perr)
				}
				evs, err = r.Decide(s, p.Seat, m, rng)
			}
			if err != nil {
				panic(err)
			}
			for _, e := range evs {
				s = r.Evolve(s, e)
			}
			if s.Harvest != nil || s.Turn.Ability != "" || move%7 == 0 || s.Over {
				out = append(out, s.clone())
			}
		}
	}
	return out
})

// fuzzMoves seed the corpus: every form of section 7, near misses and
// garbage.
var fuzzMoves = []string{
	"draw", "draw deck", "draw market 1", "draw market 2", "draw market 0", "draw market 3", "draw market",
	"make rouge 1 gar2 tre1", "make rouge 1 gar2", "make blanc 2 mac1 par1", "make rose 3 gar1 mac1",
	"make cava blanc 3 mac1 xar2 par1", "make cava rose 4 mac1 par1 gar1", "make cava 1 mac1", "make",
	"repair 2 xar1", "repair 1", "time 1", "time 4 mac2 tre1", "time 1 mac3", "time 0", "time 5 mac1",
	"bottle 1 par2", "bottle 3 gar1 tre2", "bottle 2", "discard mac1", "discard vin pique", "discard time",
	"discard", "vin jeune 2", "young wine 1", "vol de carte bob", "vol de carte 0", "vol de carte 1",
	"steal card -1", "vol de carte 99999999999999999999", "vin pique bob 2", "vin pique 0 1", "spoil 2 4",
	"oenologue ana 3", "oenologue 3", "oenologist 1 1", "recolte", "harvest", "evaporation 2 1 gar2",
	"evaporation bob 1 mac1", "vol de temps bob 2 facedown 1", "vol de temps 0 1 time 2",
	"steal time 1 1 face down 1", "pick 1", "pick 2", "pick 9", "pick 0", "pick -1", "pick mac3",
	"pick vin pique", "take market 1", "take market 2", "take nothing", "take", "age 2 vin pique",
	"age nothing", "age 1 time", "recover time xar2", "recover facedown mac1", "recover", "end",
	"END NOW", "", "   ", "\x00", "fly", "😀", "vin", "vol de", "jean luc", "Œnologue Jean Luc 2",
	"MAKE CAVA ROSÉ 1 MAC1 PAR1 GAR1", "time 1 vin pique", "bottle 1 mac1 mac1 mac1 mac1",
	"evaporation jean 1 gar2", "vol de temps cléo 4 facedown 4", "age 4 recolte", "pick 2 3",
}

// FuzzDecide feeds arbitrary text for arbitrary seats against states of a
// few random games: Parse and Decide never panic, every refusal is a rule
// error with a reason, Decide leaves the state alone, an accepted move is
// among the Legal moves, and its events keep every card in play.
func FuzzDecide(f *testing.F) {
	for i, m := range fuzzMoves {
		f.Add(m, i%7-2, uint16(i*37))
		f.Add(m, i%5, uint16(i*11+3))
	}
	f.Fuzz(func(t *testing.T, text string, seatN int, pick uint16) {
		r := NewRules()
		eng := games.Adapt(r)
		states := fuzzStates()
		s := states[int(pick)%len(states)]
		seat := games.Seat(seatN)
		before := s.clone()
		rng := rand.New(rand.NewPCG(uint64(pick), 1))
		out, derr := eng.Decide(s, seat, text, rng)
		if !reflect.DeepEqual(before, s) {
			t.Fatalf("Decide(%d, %q) changed the state", seat, text)
		}
		if derr != nil {
			re, ok := games.AsRuleError(derr)
			if !ok || strings.TrimSpace(re.Reason.String()) == "" || re.Rule == "" {
				t.Fatalf("Decide(%d, %q): %v, want a rule error with a reason", seat, text, derr)
			}
		}
		m, perr := r.Parse(s, text)
		if perr == nil {
			canon := r.Format(s, m)
			back, err := r.Parse(s, canon)
			if err != nil || !reflect.DeepEqual(back, m) {
				t.Fatalf("Parse(Format(Parse(%q))) = %+v, %v; want %+v", text, back, err, m)
			}
			if derr == nil && !slices.Contains(r.Legal(s, seat), canon) {
				t.Fatalf("seat %d: %q accepted but not among the legal moves", seat, canon)
			}
		}
		if derr == nil {
			var c games.State = s.clone()
			for _, raw := range out {
				var err error
				if c, err = eng.Evolve(c, raw); err != nil {
					t.Fatal(err)
				}
			}
			if err := conserved(c.(*State)); err != nil {
				t.Fatalf("after %q by %d: %v", text, seat, err)
			}
		}
		// The other read-only faces never panic for any seat either.
		r.Legal(s, seat)
		r.View(s, seat)
		r.Pending(s)
	})
}

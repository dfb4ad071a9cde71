package play

import (
	"errors"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
)

// The compact-number form of a move ("3", "#3", "3."): whatever a player
// types, resolving it never panics, and a number resolves to one of the
// seat's legal moves or is refused with a rule or a clear message.
func FuzzResolveChoice(f *testing.F) {
	reg := catalog.Registry()
	eng, err := reg.Get("coyote")
	if err != nil {
		f.Fatal(err)
	}
	st, err := eng.Initial(1)
	if err != nil {
		f.Fatal(err)
	}
	evs, err := eng.Setup(nil, []string{"Ana", "Bob", "Cal"}, games.Seed{}.Rand(1))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range evs {
		if st, err = eng.Evolve(st, e); err != nil {
			f.Fatal(err)
		}
	}
	seat := eng.Pending(st)[0].Seat
	choices := eng.Choices(st, seat)
	for _, s := range []string{"1", "2", "#3", "3.", "99", "0", "-1", "bid 4", "1 2", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		out, err := resolveChoice(eng, st, choices, line)
		if err != nil {
			var pe *Error
			if _, ok := games.AsRuleError(err); !ok && !errors.As(err, &pe) {
				t.Fatalf("%q: %v is neither a rule error nor a clear refusal", line, err)
			}
			return
		}
		if out != line {
			// A number became a move: one the seat may play.
			if _, err := eng.Decide(st, seat, out, games.Seed{}.Rand(3)); err != nil {
				t.Fatalf("%q resolves to %q, which is not legal: %v", line, out, err)
			}
		}
	})
}

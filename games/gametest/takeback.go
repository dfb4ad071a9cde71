package gametest

import (
	"testing"

	"github.com/courrier-games/courrier/games"
)

// FixedSeen is what a walk of random games saw of the take-back hook: by
// key (an event's type, or what the caller's key function makes of it),
// the answers of Engine.Fixed, and how many moves could be taken back (no
// event of theirs fixed) and how many could not.
type FixedSeen struct {
	ByKey    map[string]map[bool]int
	Free     int
	Fixed    int
	Setup    bool // whether some setup event was not fixed (it must be)
	LastFree bool // whether some game's last move could be taken back (it must not)
}

// WalkFixed plays games random games of eng from seeds 1..games (a random
// legal move of a random pending seat at each step) and asks Engine.Fixed
// of every event, on the state before it, checking that every seat's
// version of the event (Redact) gets the same answer. key names an event for the
// caller's table (nil: its type).
func WalkFixed(t testing.TB, eng games.Engine, players []string, opts games.Options, n int, key func(games.RawEvent) string) FixedSeen {
	t.Helper()
	if key == nil {
		key = func(e games.RawEvent) string { return e.Type }
	}
	seen := FixedSeen{ByKey: map[string]map[bool]int{}}
	note := func(s games.State, e games.RawEvent) bool {
		fixed, err := eng.Fixed(s, e)
		if err != nil {
			t.Fatalf("fixed %s: %v", e.Type, err)
		}
		// What every seat saw of e decides as e does: Fixed reads only
		// the public part of an event, so a refused take-back tells
		// nothing of a hidden card.
		for seat := games.Spectator; seat < games.Seat(len(players)); seat++ {
			red, err := eng.Redact(s, e, seat)
			if err != nil {
				t.Fatalf("redact %s for seat %d: %v", e.Type, seat, err)
			}
			if f, err := eng.Fixed(s, red); err != nil || f != fixed {
				t.Fatalf("%s: Fixed says %v of the event and %v (%v) of seat %d's version of it", e.Type, fixed, f, err, seat)
			}
		}
		k := key(e)
		if seen.ByKey[k] == nil {
			seen.ByKey[k] = map[bool]int{}
		}
		seen.ByKey[k][fixed]++
		return fixed
	}
	for g := 1; g <= n; g++ {
		var seed games.Seed
		seed[0], seed[1] = byte(g), 0x7b
		pick := seed.Rand(1 << 41)
		full, err := eng.Options(opts)
		if err != nil {
			t.Fatalf("options: %v", err)
		}
		evs, err := eng.Setup(full, players, seed.Rand(0))
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		s, err := eng.Initial(eng.Info().Rules)
		if err != nil {
			t.Fatal(err)
		}
		anyFixed := false
		for _, e := range evs {
			anyFixed = note(s, e) || anyFixed
			if s, err = eng.Evolve(s, e); err != nil {
				t.Fatalf("evolve: %v", err)
			}
		}
		if !anyFixed {
			seen.Setup = true
		}
		version := len(evs)
		lastFree := false
		for range 5000 {
			pending := eng.Pending(s)
			if len(pending) == 0 {
				break
			}
			p := pending[pick.IntN(len(pending))]
			legal := eng.Legal(s, p.Seat)
			move := legal[pick.IntN(len(legal))]
			out, err := eng.Decide(s, p.Seat, move, seed.Rand(version))
			if err != nil {
				t.Fatalf("seat %d: %q: %v", p.Seat, move, err)
			}
			fixed := false
			for _, e := range out {
				fixed = note(s, e) || fixed
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatalf("evolve: %v", err)
				}
			}
			if fixed {
				seen.Fixed++
			} else {
				seen.Free++
			}
			lastFree = !fixed
			version += len(out)
		}
		seen.LastFree = seen.LastFree || lastFree
	}
	return seen
}

// CheckFixed compares what WalkFixed saw with want (key → fixed): every
// key of want was seen and always answered as want says, every key seen
// is in want, a setup and a game's last move were always fixed, and some
// moves could be taken back and some could not.
func CheckFixed(t *testing.T, seen FixedSeen, want map[string]bool) {
	t.Helper()
	for k, fixed := range want {
		t.Run(k, func(t *testing.T) {
			got := seen.ByKey[k]
			if len(got) == 0 {
				t.Fatalf("no %s event in the walk", k)
			}
			if got[!fixed] > 0 {
				t.Errorf("%s: Fixed answered %v %d times of %d, want always %v", k, !fixed, got[!fixed], got[true]+got[false], fixed)
			}
		})
	}
	for k := range seen.ByKey {
		if _, ok := want[k]; !ok {
			t.Errorf("the walk saw %s, which the table does not list", k)
		}
	}
	if seen.Setup {
		t.Error("a setup could be taken back")
	}
	if seen.LastFree {
		t.Error("a game's last move could be taken back (the end fixes the game)")
	}
	if seen.Free == 0 || seen.Fixed == 0 {
		t.Errorf("moves that could be taken back: %d, that could not: %d; want some of each", seen.Free, seen.Fixed)
	}
}

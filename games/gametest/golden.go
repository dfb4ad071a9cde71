package gametest

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// update rewrites the golden files of GoldenBoards instead of comparing
// them: go test ./games/<id> -run Golden -update.
var update = flag.Bool("update", false, "rewrite the golden boards in testdata/board/")

// Golden describes a game played through the engine from a fixed seed, its
// boards told (games.Board.Tell) at several points and compared with the
// files of testdata/board.
type Golden struct {
	// Engine is the game.
	Engine games.Engine
	// Players are the players' names, in joining order.
	Players []string
	// Options are the game's options (nil for defaults).
	Options games.Options
	// Seed keys the game's draws and the test's choice of moves.
	Seed byte
	// Dir is the folder of the files under testdata/board ("" for
	// testdata/board itself), for a second game of the same package.
	Dir string
	// Middle are the moves played before the "middle" point, as a share
	// of the whole game in percent (0: 50).
	Middle int
	// Pick, when set, chooses the move of a pending seat instead of a
	// random legal one: return "" to let the random pick stand.
	Pick func(s games.State, p games.Pending, legal []string) string
}

// point is a named moment of a golden game: every seat's view then, the
// spectator's first (Evolve may change a state in place, so a state is not
// kept).
type point struct {
	name  string
	views []json.RawMessage
}

// GoldenBoards plays g's game (a random legal move of a random pending seat
// at each step, from g.Seed), then tells the board of every seat and of the
// spectator at its start, its middle and its end, and compares each with
// testdata/board/<point>-<seat>.txt (seat0, seat1, …, spectator). With
// -update it writes the files instead. It returns the texts by file name,
// for the caller's own checks.
func GoldenBoards(t *testing.T, g Golden) map[string]string {
	t.Helper()
	points := playGolden(t, g)
	eng := g.Engine
	out := map[string]string{}
	for _, p := range points {
		for seat := games.Spectator; seat < games.Seat(len(g.Players)); seat++ {
			for _, lang := range games.Languages() {
				name := fmt.Sprintf("%s-seat%d", p.name, seat)
				if seat == games.Spectator {
					name = p.name + "-spectator"
				}
				if lang != games.English {
					name += "." + lang
				}
				name += ".txt"
				text := tell(t, eng.Words().In(lang), eng, p.views[seat+1], seat)
				out[name] = text
				path := filepath.Join("testdata", "board", g.Dir, name)
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path) //nolint:gosec // G304: a file of the test's own testdata/board
				if errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s is missing (write it with: go test -run Golden -update); got:\n%s", path, text)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if string(want) != text {
					t.Errorf("the board differs from %s (go test -run Golden -update); got:\n%s\nwant:\n%s", path, text, want)
				}
			}
		}
	}
	return out
}

// tell is the board of seat's view told in the game's words, one line
// each, ending in a newline.
func tell(t *testing.T, words games.Words, eng games.Engine, view json.RawMessage, seat games.Seat) string {
	t.Helper()
	b, err := eng.Board(view)
	if err != nil {
		t.Fatalf("board of seat %d: %v", seat, err)
	}
	if err := b.Check(words); err != nil {
		t.Fatalf("board of seat %d in %s: %v", seat, words.Lang(), err)
	}
	return strings.Join(b.Tell(words), "\n") + "\n"
}

// playGolden plays g's game to its end and returns its start, middle and
// end.
func playGolden(t *testing.T, g Golden) []point {
	t.Helper()
	eng := g.Engine
	var seed games.Seed
	seed[0], seed[1] = g.Seed, 0x60
	pick := seed.Rand(1 << 40)
	evs, err := eng.Setup(g.Options, g.Players, seed.Rand(0))
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	s, err := games.Fold(eng, eng.Info().Rules, evs)
	if err != nil {
		t.Fatalf("fold: %v", err)
	}
	version := len(evs)
	all := func(s games.State) []json.RawMessage {
		out := make([]json.RawMessage, 0, len(g.Players)+1)
		for seat := games.Spectator; seat < games.Seat(len(g.Players)); seat++ {
			v, err := eng.View(s, seat)
			if err != nil {
				t.Fatalf("view of seat %d: %v", seat, err)
			}
			out = append(out, v)
		}
		return out
	}
	states := [][]json.RawMessage{all(s)}
	for step := 0; ; step++ {
		pending := eng.Pending(s)
		if len(pending) == 0 {
			break
		}
		if step > 5000 {
			t.Fatalf("the golden game did not end within %d moves", step)
		}
		p := pending[pick.IntN(len(pending))]
		legal := eng.Legal(s, p.Seat)
		move := legal[pick.IntN(len(legal))]
		if g.Pick != nil {
			if m := g.Pick(s, p, legal); m != "" {
				move = m
			}
		}
		out, err := eng.Decide(s, p.Seat, move, seed.Rand(version))
		if err != nil {
			t.Fatalf("seat %d: %q: %v", p.Seat, move, err)
		}
		for _, e := range out {
			if s, err = eng.Evolve(s, e); err != nil {
				t.Fatalf("evolve: %v", err)
			}
		}
		version += len(out)
		states = append(states, all(s))
	}
	middle := g.Middle
	if middle == 0 {
		middle = 50
	}
	return []point{
		{"start", states[0]},
		{"middle", states[(len(states)-1)*middle/100]},
		{"end", states[len(states)-1]},
	}
}

// Package gametest holds the property checks every game's tests run: many
// seeded games played by random legal moves and timeout defaults, checking
// that each game ends, that Legal and Decide agree, that Choices covers Legal
// in at most games.MaxChoices lines, that Decide leaves the state alone, that
// Describe tells no more than Redact shows, that events round-trip through
// JSON and that a fold of the log reproduces the state. Game-specific invariants (conservation, hidden
// information) plug in through Config.Check.
package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Config describes a random-play property run.
type Config struct {
	// Engine is the game under test.
	Engine games.Engine
	// Games is how many seeded games to play.
	Games int
	// MaxMoves bounds one game; a game still running after it fails the test.
	MaxMoves int
	// Players returns the players of game i (names, in joining order).
	Players func(r *rand.Rand) []string
	// Options returns the options of game i (nil for defaults).
	Options func(r *rand.Rand) games.Options
	// DefaultRate is the chance that a pending seat times out and its default
	// move is played instead of a random legal move.
	DefaultRate float64
	// Candidates returns extra moves to try for seat (near misses, garbage):
	// each one that Legal does not list must be rejected with a *RuleError.
	Candidates func(s games.State, seat games.Seat, r *rand.Rand) []string
	// Check is called after every decision with the state after it and the
	// events it produced; it reports broken invariants with t.Errorf.
	Check func(t testing.TB, s games.State, evs []games.RawEvent)
	// Full, when true, tries every legal move of the acting seat at every step
	// (slower); otherwise a sample of up to 4 is tried.
	Full bool
	// Rules is the rules version the games are played under (0: the
	// engine's current version).
	Rules int
}

// Stats is what a run saw, for the caller's own assertions.
type Stats struct {
	Games, Moves, Defaults, Rejected int
}

// Run plays cfg.Games random games and fails t on the first broken property
// of each game.
func Run(t *testing.T, cfg Config) Stats {
	t.Helper()
	var st Stats
	for i := range cfg.Games {
		var seed games.Seed
		seed[0], seed[1], seed[2] = byte(i), byte(i>>8), byte(i>>16)
		if !playOne(t, cfg, seed, &st) {
			t.Fatalf("game %d (seed %s) failed; stopping", i, seed)
		}
		st.Games++
	}
	return st
}

func playOne(t *testing.T, cfg Config, seed games.Seed, st *Stats) bool {
	t.Helper()
	eng := cfg.Engine
	pick := seed.Rand(1 << 40) // the test's own choices, apart from the game's draws
	players := cfg.Players(pick)
	var opts games.Options
	if cfg.Options != nil {
		opts = cfg.Options(pick)
	}
	evs, err := eng.Setup(opts, players, seed.Rand(0))
	if err != nil {
		t.Errorf("setup %v %v: %v", players, opts, err)
		return false
	}
	log := slices.Clone(evs)
	rules := cfg.Rules
	if rules == 0 {
		rules = eng.Info().Rules
	}
	s, err := games.Fold(eng, rules, evs)
	if err != nil {
		t.Errorf("fold setup: %v", err)
		return false
	}
	if seated := eng.Players(s); len(seated) != len(players) || !sameNames(seated, players) {
		t.Errorf("Players after setup = %v, want a seating of %v", seated, players)
		return false
	}
	if cfg.Check != nil {
		cfg.Check(t, s, evs)
	}
	seats := len(players)
	for move := 0; ; move++ {
		pend := eng.Pending(s)
		res := eng.Result(s)
		if len(pend) == 0 {
			if !res.Finished {
				t.Errorf("nobody may act but the game is not finished after %d moves", move)
				return false
			}
			if !CheckBoards(t, eng, s, seats) {
				return false
			}
			break
		}
		if res.Finished {
			t.Errorf("game finished but %d pending entries remain", len(pend))
			return false
		}
		if move >= cfg.MaxMoves {
			t.Errorf("game did not end within %d moves", cfg.MaxMoves)
			return false
		}
		before := views(t, eng, s, seats)
		p := pend[pick.IntN(len(pend))]
		legal := eng.Legal(s, p.Seat)
		if len(legal) == 0 {
			t.Errorf("seat %d is pending (%s) but has no legal move", p.Seat, p.Kind)
			return false
		}
		rng := seed.Rand(len(log))
		if !checkLegal(t, cfg, s, p.Seat, legal, seed, len(log), pick) {
			return false
		}
		if !CheckChoices(t, eng, s, p.Seat) {
			return false
		}
		if cfg.Candidates != nil {
			for _, c := range cfg.Candidates(s, p.Seat, pick) {
				canon, err := eng.Canonical(s, c)
				if err == nil && slices.Contains(legal, canon) {
					continue
				}
				_, err = eng.Decide(s, p.Seat, c, seed.Rand(len(log)))
				if err == nil {
					t.Errorf("seat %d: %q is not among the legal moves %v but Decide accepted it", p.Seat, c, legal)
					return false
				}
				if _, ok := games.AsRuleError(err); !ok {
					t.Errorf("seat %d: %q rejected without a rule error: %v", p.Seat, c, err)
					return false
				}
				st.Rejected++
			}
		}
		choice := legal[pick.IntN(len(legal))]
		if pick.Float64() < cfg.DefaultRate {
			choice = p.Default
			st.Defaults++
		}
		out, err := eng.Decide(s, p.Seat, choice, rng)
		if err != nil {
			t.Errorf("seat %d: move %q (pending %s, default %q) rejected: %v", p.Seat, choice, p.Kind, p.Default, err)
			return false
		}
		if after := views(t, eng, s, seats); !slices.Equal(before, after) {
			t.Errorf("Decide of %q changed the state it was given", choice)
			return false
		}
		for _, e := range out {
			if !checkDescribe(t, eng, s, e, seats) {
				return false
			}
			if s, err = eng.Evolve(s, e); err != nil {
				t.Errorf("evolve %s: %v", e.Type, err)
				return false
			}
		}
		log = append(log, out...)
		st.Moves++
		// One seat's board (or the spectator's), in turn, at every fourth
		// move: a board costs about as much as a move. Every seat's at the
		// end.
		if move%4 == 3 && !CheckBoard(t, eng, s, games.Seat((move/4)%(seats+1)-1)) {
			return false
		}
		if cfg.Check != nil {
			cfg.Check(t, s, out)
		}
		if t.Failed() {
			return false
		}
	}
	// A fold of the whole log through JSON reproduces every view.
	var stored []games.RawEvent
	for _, e := range log {
		b, _ := json.Marshal(e)
		var back games.RawEvent
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("event round trip: %v", err)
			return false
		}
		stored = append(stored, back)
	}
	refold, err := games.Fold(eng, rules, stored)
	if err != nil {
		t.Errorf("refold: %v", err)
		return false
	}
	if a, b := views(t, eng, s, seats), views(t, eng, refold, seats); !slices.Equal(a, b) {
		t.Errorf("a fold of the stored log differs from the state built move by move")
		return false
	}
	return true
}

// checkLegal decides every (or a sample of) legal move of seat and requires
// each to be accepted.
func checkLegal(t *testing.T, cfg Config, s games.State, seat games.Seat, legal []string, seed games.Seed, version int, pick *rand.Rand) bool {
	t.Helper()
	try := legal
	if !cfg.Full && len(legal) > 4 {
		try = nil
		for range 4 {
			try = append(try, legal[pick.IntN(len(legal))])
		}
	}
	for _, m := range try {
		if _, err := cfg.Engine.Decide(s, seat, m, seed.Rand(version)); err != nil {
			t.Errorf("seat %d: legal move %q rejected: %v", seat, m, err)
			return false
		}
		canon, err := cfg.Engine.Canonical(s, m)
		if err != nil || canon != m {
			t.Errorf("legal move %q is not canonical: Format(Parse) = %q, %v", m, canon, err)
			return false
		}
	}
	return true
}

// checkDescribe redacts and describes e (which applies to s) for every seat
// and the spectator: each description is a sentence, and the same as the
// description of the seat's redacted event, so it cannot tell more than
// Redact shows.
func checkDescribe(t testing.TB, eng games.Engine, s games.State, e games.RawEvent, seats int) bool {
	t.Helper()
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		red, err := eng.Redact(s, e, seat)
		if err != nil {
			t.Errorf("redact %s for seat %d: %v", e.Type, seat, err)
			return false
		}
		fullPhrase, err := eng.Describe(s, e, seat)
		if err != nil {
			t.Errorf("describe %s for seat %d: %v", e.Type, seat, err)
			return false
		}
		redPhrase, err := eng.Describe(s, red, seat)
		if err != nil {
			t.Errorf("describe redacted %s for seat %d: %v", e.Type, seat, err)
			return false
		}
		for _, lang := range games.Languages() {
			full, fromRedacted := fullPhrase.In(lang), redPhrase.In(lang)
			if strings.HasPrefix(full, "[") {
				t.Errorf("describe %s for seat %d in %s: %s", e.Type, seat, lang, full)
				return false
			}
			if full != "" && !strings.HasSuffix(full, ".") && !strings.HasSuffix(full, "!") && !strings.HasSuffix(full, "?") {
				t.Errorf("describe %s for seat %d in %s = %q: not a sentence", e.Type, seat, lang, full)
				return false
			}
			if full != fromRedacted {
				t.Errorf("seat %d: Describe(%s) in %s = %q but Describe of its redacted event = %q: the description tells more than Redact shows", seat, e.Type, lang, full, fromRedacted)
				return false
			}
		}
	}
	return true
}

// CheckChoices checks seat's compact list of legal moves against Legal: at
// most games.MaxChoices lines, the same on a second call, each exact line and
// each expanded range legal and, unless a line has a blank to fill in
// ("<card>"), every legal move covered.
func CheckChoices(t testing.TB, eng games.Engine, s games.State, seat games.Seat) bool {
	t.Helper()
	legal := eng.Legal(s, seat)
	choices := eng.Choices(s, seat)
	if len(choices) > games.MaxChoices {
		t.Errorf("seat %d: %d choices, more than %d: %q", seat, len(choices), games.MaxChoices, choices)
		return false
	}
	if len(legal) > 0 && len(choices) == 0 {
		t.Errorf("seat %d has %d legal moves but no choices", seat, len(legal))
		return false
	}
	if again := eng.Choices(s, seat); !slices.Equal(choices, again) {
		t.Errorf("seat %d: Choices is not deterministic: %q then %q", seat, choices, again)
		return false
	}
	isLegal := make(map[string]bool, len(legal))
	for _, m := range legal {
		isLegal[m] = true
	}
	covered := map[string]bool{}
	blanks := false
	for _, line := range choices {
		if strings.Contains(line, "<") {
			blanks = true
			continue
		}
		moves, err := ExpandChoice(line)
		if err != nil {
			t.Errorf("seat %d: choice %q: %v", seat, line, err)
			return false
		}
		for _, m := range moves {
			if !isLegal[m] {
				t.Errorf("seat %d: choice %q stands for %q, which is not among the legal moves %q", seat, line, m, legal)
				return false
			}
			covered[m] = true
		}
	}
	if !blanks && len(covered) != len(isLegal) {
		for _, m := range legal {
			if !covered[m] {
				t.Errorf("seat %d: legal move %q is in no choice of %q", seat, m, choices)
				return false
			}
		}
	}
	return true
}

// ExpandChoice returns the moves one choice line stands for
// (games.ExpandChoice).
func ExpandChoice(line string) ([]string, error) { return games.ExpandChoice(line) }

func views(t testing.TB, eng games.Engine, s games.State, seats int) []string {
	out := make([]string, 0, seats+1)
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		v, err := eng.View(s, seat)
		if err != nil {
			t.Errorf("view for seat %d: %v", seat, err)
		}
		out = append(out, string(v))
	}
	return out
}

// CheckBoards checks the board of every seat's view of s, and the
// spectator's, with CheckBoard.
func CheckBoards(t testing.TB, eng games.Engine, s games.State, seats int) bool {
	t.Helper()
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		if !CheckBoard(t, eng, s, seat) {
			return false
		}
	}
	return true
}

// CheckBoard builds the board of seat's view of s and checks that it says
// it is seat's, names only seated players and that the game's catalog says
// every text of it with exactly its arguments (games.Board.Check). A game
// that draws no board passes.
func CheckBoard(t testing.TB, eng games.Engine, s games.State, seat games.Seat) bool {
	t.Helper()
	words := eng.Words()
	view, err := eng.View(s, seat)
	if err != nil {
		t.Errorf("view for seat %d: %v", seat, err)
		return false
	}
	b, err := eng.Board(view)
	if errors.Is(err, games.ErrNoBoard) {
		return true
	}
	if err != nil {
		t.Errorf("the board of seat %d: %v", seat, err)
		return false
	}
	for _, lang := range games.Languages() {
		if err := b.Check(words.In(lang)); err != nil {
			t.Errorf("the board of seat %d in %s: %v\nview: %s", seat, lang, err, view)
			return false
		}
	}
	if b.Viewer != seat {
		t.Errorf("the board of seat %d says it is seat %d's", seat, b.Viewer)
		return false
	}
	return true
}

// Contains reports whether the JSON text holds needle as a string value or
// key; a convenience for leak checks.
func Contains(doc json.RawMessage, needle string) bool {
	q, _ := json.Marshal(needle)
	return bytes.Contains(doc, q)
}

func sameNames(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

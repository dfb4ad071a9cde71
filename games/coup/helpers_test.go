package coup

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// game is a rigged game for scenario tests: its setup event is built by hand
// (a chosen deal) and folded; moves go through Parse and Decide.
type game struct {
	t      *testing.T
	s      *State
	log    []Event
	before []*State // the state before each event of log
	r      *rand.Rand
}

// Seats of the scenarios.
const (
	ana = 0
	bob = 1
	cal = 2
	dee = 3
)

func fullOptions(opts games.Options) games.Options {
	out := games.Options{}
	for _, spec := range (Rules{}).Info().Options {
		out[spec.Name] = spec.Default
		if v, ok := opts[spec.Name]; ok {
			out[spec.Name] = v
		}
	}
	return out
}

// newGame seats Ana, Bob, Cal, Dee (or fewer: len(hands)) with the given
// hands and coins (nil: 2 each).
func newGame(t *testing.T, opts games.Options, hands [][]Char, coins []int) *game {
	t.Helper()
	names := []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}[:len(hands)]
	if coins == nil {
		coins = make([]int, len(hands))
		for i := range coins {
			coins[i] = 2
		}
	}
	e := Event{Type: evSetup, Players: names, Options: fullOptions(opts), Coins: coins, Hands: hands}
	g := &game{t: t, s: (Rules{}).Initial(RulesVersion), r: rand.New(rand.NewPCG(1, 2))}
	g.apply([]Event{e})
	return g
}

func (g *game) apply(evs []Event) {
	for _, e := range evs {
		g.before = append(g.before, g.s.clone())
		g.s = (Rules{}).Evolve(g.s, e)
		g.log = append(g.log, e)
	}
}

// do plays a move that must be legal and returns its events.
func (g *game) do(seat int, text string) []Event {
	g.t.Helper()
	m, err := (Rules{}).Parse(g.s, text)
	if err != nil {
		g.t.Fatalf("%s: parse %q: %v", g.s.name(seat), text, err)
	}
	legal := (Rules{}).Legal(g.s, games.Seat(seat))
	evs, err := (Rules{}).Decide(g.s, games.Seat(seat), m, g.r)
	if err != nil {
		g.t.Fatalf("%s: %q rejected: %v (stage %s, legal %v)", g.s.name(seat), text, err, g.s.Stage, legal)
	}
	if f := (Rules{}).Format(g.s, m); !slices.Contains(legal, f) {
		g.t.Fatalf("%s: %q accepted but not in Legal %v", g.s.name(seat), f, legal)
	}
	g.apply(evs)
	return evs
}

// reject plays a move that must be illegal under rule.
func (g *game) reject(seat int, text, rule string) {
	g.t.Helper()
	m, err := (Rules{}).Parse(g.s, text)
	if err == nil {
		_, err = (Rules{}).Decide(g.s, games.Seat(seat), m, g.r)
	}
	re, ok := games.AsRuleError(err)
	if !ok {
		g.t.Fatalf("%s: %q accepted, want a %s rule error", g.s.name(seat), text, rule)
	}
	if re.Rule != rule {
		g.t.Fatalf("%s: %q rejected by %s (%s), want %s", g.s.name(seat), text, re.Rule, re.Reason.String(), rule)
	}
	if re.Reason.String() == "" {
		g.t.Fatalf("rule error without a reason")
	}
}

// allAllow answers allow for every pending responder of the open window.
func (g *game) allAllow() {
	g.t.Helper()
	for _, p := range (Rules{}).Pending(g.s) {
		if p.Default != "allow" {
			g.t.Fatalf("pending %v is not a window", p)
		}
		g.do(int(p.Seat), "allow")
	}
}

// pendingSeats lists the seats pending with kind.
func (g *game) pendingSeats(kind string) []int {
	var out []int
	for _, p := range (Rules{}).Pending(g.s) {
		if p.Kind == kind {
			out = append(out, int(p.Seat))
		}
	}
	return out
}

func (g *game) wantPending(kind string, seats ...int) {
	g.t.Helper()
	got := g.pendingSeats(kind)
	if !slices.Equal(got, seats) || len(Rules{}.Pending(g.s)) != len(seats) {
		g.t.Fatalf("pending %v, want %s for %v", (Rules{}).Pending(g.s), kind, seats)
	}
}

func (g *game) defaultOf(seat int) string {
	g.t.Helper()
	for _, p := range (Rules{}).Pending(g.s) {
		if int(p.Seat) == seat {
			return p.Default
		}
	}
	g.t.Fatalf("%s is not pending: %v", g.s.name(seat), (Rules{}).Pending(g.s))
	return ""
}

func (g *game) coins(seat, want int) {
	g.t.Helper()
	if got := g.s.Players[seat].Coins; got != want {
		g.t.Fatalf("%s has %d coins, want %d", g.s.name(seat), got, want)
	}
}

func (g *game) influence(seat, want int) {
	g.t.Helper()
	if got := len(g.s.Players[seat].Hidden); got != want {
		g.t.Fatalf("%s has %d influence, want %d", g.s.name(seat), got, want)
	}
}

func (g *game) courtSize() int {
	n := 0
	for _, c := range g.s.Court {
		n += c
	}
	return n
}

// rigLoss turns seat's card c face up directly (to start a scenario with a
// player at one influence).
func (g *game) rigLoss(seat int, c Char) {
	p := &g.s.Players[seat]
	p.Hidden = removeOne(p.Hidden, c)
	p.Lost = append(p.Lost, c)
	p.Out = len(p.Hidden) == 0
}

// refold checks that a fold of the logged events through JSON gives the
// same state (views) as the one built move by move. Rigged games are skipped.
func (g *game) refold() {
	g.t.Helper()
	eng := New()
	var raw []games.RawEvent
	for _, e := range g.log {
		b, err := json.Marshal(e)
		if err != nil {
			g.t.Fatal(err)
		}
		raw = append(raw, games.RawEvent{Type: e.Type, Data: b})
	}
	s, err := games.Fold(eng, RulesVersion, raw)
	if err != nil {
		g.t.Fatal(err)
	}
	for seat := games.Spectator; seat < games.Seat(len(g.s.Players)); seat++ {
		if a, b := (Rules{}).View(g.s, seat), (Rules{}).View(s.(*State), seat); !reflect.DeepEqual(a, b) {
			g.t.Fatalf("refold differs for seat %d", seat)
		}
	}
}

func hasType(evs []Event, typ string) bool {
	return slices.ContainsFunc(evs, func(e Event) bool { return e.Type == typ })
}

func h(cs ...Char) []Char { return cs }

// at returns the state before e, the latest logged event equal to e.
func (g *game) at(e Event) *State {
	g.t.Helper()
	for i, logged := range slices.Backward(g.log) {
		if reflect.DeepEqual(logged, e) {
			return g.before[i]
		}
	}
	g.t.Fatalf("event %+v is not in the log", e)
	return nil
}

// redact is seat's copy of the logged event e, redacted against the state
// before it.
func (g *game) redact(e Event, seat games.Seat) Event {
	g.t.Helper()
	return (Rules{}).Redact(g.at(e), e, seat)
}

package kramercoup

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// tl reads a tile for tests.
func tl(t testing.TB, text string) Tile {
	t.Helper()
	var x Tile
	if err := x.UnmarshalText([]byte(text)); err != nil {
		t.Fatalf("tile %q: %v", text, err)
	}
	return x
}

// tls reads several tiles ("blue 7", "b8").
func tls(t testing.TB, texts ...string) []Tile {
	t.Helper()
	out := make([]Tile, len(texts))
	for i, s := range texts {
		out[i] = tl(t, s)
	}
	slices.Sort(out)
	return out
}

// table is a rigged game: players A, B, C … seated in that order, a chosen
// deal, then moves decided and folded one by one.
type table struct {
	t   *testing.T
	s   *State
	log []Event
	v   int // stream version, for the generator
}

// newTable seats len(hands) players in order and deals them the given hands
// (the rest of the tiles form the pool), by folding the setup events.
func newTable(t *testing.T, order string, hands ...[]Tile) *table {
	t.Helper()
	names := make([]string, len(hands))
	counts := make([]int, len(hands))
	pool := TileCount
	for i := range hands {
		names[i] = string(rune('A' + i))
		counts[i] = len(hands[i])
		pool -= len(hands[i])
	}
	if order == "" {
		order = DiscardFirst
	}
	evs := []Event{
		{Type: EvSeated, Players: names, Options: games.Options{OptExchangeOrder: order}},
		{Type: EvDealt, Hands: hands, Counts: counts, PoolSize: pool},
	}
	tb := &table{t: t, s: Rules{}.Initial(RulesVersion)}
	for _, e := range evs {
		tb.s = Rules{}.Evolve(tb.s, e)
	}
	tb.log = evs
	return tb
}

// board rigs tiles from the pool onto the board (as if placed earlier).
func (tb *table) board(tiles ...Tile) {
	tb.t.Helper()
	for _, x := range tiles {
		if !slices.Contains(tb.s.Pool, x) {
			tb.t.Fatalf("rig: %s is not in the pool", x)
		}
		tb.s.Pool = removeTiles(tb.s.Pool, []Tile{x})
		tb.s.Board[x] = true
		tb.s.Placed++
	}
}

// row rigs cells from..to of colour c onto the board.
func (tb *table) row(c, from, to int) {
	tb.t.Helper()
	for k := from; k <= to; k++ {
		tb.board(NewTile(c, k))
	}
}

// play decides move for seat and folds the events; it fails the test on error.
func (tb *table) play(seat int, move string) []Event {
	tb.t.Helper()
	m, err := Rules{}.Parse(tb.s, move)
	if err != nil {
		tb.t.Fatalf("parse %q: %v", move, err)
	}
	evs, err := Rules{}.Decide(tb.s, games.Seat(seat), m, games.Seed{7}.Rand(tb.v))
	if err != nil {
		tb.t.Fatalf("seat %d %q: %v", seat, move, err)
	}
	tb.apply(evs)
	return evs
}

// apply folds events.
func (tb *table) apply(evs []Event) {
	for _, e := range evs {
		tb.s = Rules{}.Evolve(tb.s, e)
	}
	tb.log = append(tb.log, evs...)
	tb.v += len(evs)
}

// reject requires move by seat to fail with rule and returns the reason given.
func (tb *table) reject(seat int, move, rule string) string {
	tb.t.Helper()
	_, err := New().Decide(tb.s, games.Seat(seat), move, games.Seed{7}.Rand(tb.v))
	re, ok := games.AsRuleError(err)
	if !ok {
		tb.t.Fatalf("seat %d %q: want a %s rule error, got %v", seat, move, rule, err)
	}
	if re.Rule != rule {
		tb.t.Fatalf("seat %d %q: rule %s (%s), want %s", seat, move, re.Rule, re.Reason.String(), rule)
	}
	if re.Reason.String() == "" {
		tb.t.Fatalf("seat %d %q: no reason given", seat, move)
	}
	return re.Reason.String()
}

// pending returns the one pending entry (fails if there is not exactly one).
func (tb *table) pending() games.Pending {
	tb.t.Helper()
	p := Rules{}.Pending(tb.s)
	if len(p) != 1 {
		tb.t.Fatalf("pending %v, want one entry", p)
	}
	return p[0]
}

// expect requires seat to be pending with kind.
func (tb *table) expect(seat int, kind string) {
	tb.t.Helper()
	p := tb.pending()
	if int(p.Seat) != seat || p.Kind != kind {
		tb.t.Fatalf("pending seat %d %s, want seat %d %s (phase %s lap %d)", p.Seat, p.Kind, seat, kind, tb.s.Phase, tb.s.Lap)
	}
}

// buyNothing lets every buyer of the phase buy nothing.
func (tb *table) buyNothing() {
	tb.t.Helper()
	for tb.s.Phase == PhaseBuy {
		tb.play(tb.s.Turn, "buy nothing")
	}
}

// rig moves cash from seat to the bank (or back, negative) to set its cash.
func (tb *table) cash(seat, amount int) {
	tb.s.Bank += tb.s.Cash[seat] - amount
	tb.s.Cash[seat] = amount
}

// tokens rigs seat's tokens (from the supply).
func (tb *table) tokens(seat int, byColour [Colours]int) {
	for c, k := range byColour {
		tb.s.Supply[c] += tb.s.Tokens[seat][c] - k
		tb.s.Tokens[seat][c] = k
	}
}

// gameOver returns the log's game_over event.
func (tb *table) gameOver() Event {
	tb.t.Helper()
	for _, e := range tb.log {
		if e.Type == EvGameOver {
			return e
		}
	}
	tb.t.Fatalf("no game_over event")
	return Event{}
}

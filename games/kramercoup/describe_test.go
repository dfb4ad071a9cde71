package kramercoup

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// step decides move for seat like play, and also returns the state before
// each of its events (for Redact and Describe).
func (tb *table) step(seat int, move string) ([]*State, []Event) {
	tb.t.Helper()
	m, err := Rules{}.Parse(tb.s, move)
	if err != nil {
		tb.t.Fatalf("parse %q: %v", move, err)
	}
	evs, err := Rules{}.Decide(tb.s, games.Seat(seat), m, games.Seed{7}.Rand(tb.v))
	if err != nil {
		tb.t.Fatalf("seat %d %q: %v", seat, move, err)
	}
	befores := make([]*State, len(evs))
	for i, e := range evs {
		befores[i] = tb.s.clone()
		tb.apply([]Event{e})
	}
	return befores, evs
}

// described is one event with the state before it.
type described struct {
	before *State
	e      Event
}

// TestDescribe: every event type described as the actor, another seat and
// the spectator sees it (section 5): a dealt hand is named to its owner only,
// the tiles of an exchange to the exchanger only; placed tiles, purchases,
// passes, resignations and the result are public.
func TestDescribe(t *testing.T) {
	// A 3-player game to the Coup: A buys, everybody places, A makes the Coup
	// with blue 10 (blue 1–9 rigged), B places a last tile, C passes.
	tb := newTable(t, "",
		tls(t, "yellow 1", "yellow 2", "blue 10"),
		tls(t, "red 3", "green 12", "blue 11"),
		tls(t, "orange 5", "blue 12", "green 1"))
	tb.row(blue, 1, 9)
	tb.row(yellow, 3, 5)
	ev := map[string]described{}
	ev["seated"] = described{Rules{}.Initial(RulesVersion), tb.log[0]}
	ev["dealt"] = described{Rules{}.Evolve(Rules{}.Initial(RulesVersion), tb.log[0]), tb.log[1]}
	one := func(name string, seat int, move string) {
		b, e := tb.step(seat, move)
		ev[name] = described{b[0], e[0]}
		if len(e) > 1 {
			ev[name+"+"] = described{b[1], e[1]}
		}
	}
	one("bought", 0, "buy 2 red 1 blue")
	one("bought nothing", 1, "buy nothing")
	tb.play(2, "buy nothing")
	one("placed chain", 0, "place yellow 2")
	one("placed single", 1, "place red 3")
	tb.play(2, "place orange 5")
	tb.play(0, "place yellow 1")
	tb.play(1, "place green 12")
	tb.play(2, "place blue 12")
	one("coup", 0, "place blue 10")
	one("last", 1, "place blue 11")
	one("passed", 2, "pass") // "passed+" is the game_over event

	// Exchanges (scenario 8's short pool, 4 players): A discards three tiles
	// and draws the whole pool; B keeps; then B leaves.
	sp := shortPool(t, "")
	b, e := sp.step(0, "discard red 3 green 12 blue 1")
	ev["exchanged"] = described{b[0], e[0]}
	b, e = sp.step(1, "keep")
	ev["kept"] = described{b[0], e[0]}
	out, err := Rules{}.Resign(sp.s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	ev["resigned"] = described{sp.s.clone(), out[0]}

	const spectator = games.Spectator
	cases := []struct {
		event string
		seat  games.Seat
		want  string
	}{
		{"seated", 1, "Seats were drawn; the order of play is A, you, C."},
		{"seated", spectator, "Seats were drawn; the order of play is A, B, C."},
		{"dealt", 0, "Each player was dealt 3 tiles, leaving 111 tiles in the pool. You got yellow 1, yellow 2 and blue 10."},
		{"dealt", 1, "Each player was dealt 3 tiles, leaving 111 tiles in the pool. You got red 3, blue 11 and green 12."},
		{"dealt", spectator, "Each player was dealt 3 tiles, leaving 111 tiles in the pool."},
		{"bought", 0, "You bought 2 red and 1 blue for 300."},
		{"bought", 1, "A bought 2 red and 1 blue for 300."},
		{"bought", spectator, "A bought 2 red and 1 blue for 300."},
		{"bought nothing", 1, "You bought nothing."},
		{"bought nothing", 2, "B bought nothing."},
		{"placed chain", 0, "You placed yellow 2, making a yellow chain of 4."},
		{"placed chain", spectator, "A placed yellow 2, making a yellow chain of 4."},
		{"placed single", 2, "B placed red 3."},
		{"coup", 0, "You placed blue 10, making a blue chain of 10: the Coup! The other players may each place one last tile."},
		{"coup", 1, "A placed blue 10, making a blue chain of 10: the Coup! The other players may each place one last tile."},
		{"last", 1, "You placed blue 11 as a last tile, making a blue chain of 12."},
		{"last", spectator, "B placed blue 11 as a last tile, making a blue chain of 12."},
		{"passed", 2, "You placed no last tile."},
		{"passed", 0, "C placed no last tile."},
		{"passed+", 0, "The game is over and every hand is shown. You won with a capital of 3200."},
		{"passed+", 2, "The game is over and every hand is shown. A won with a capital of 3200."},
		{"passed+", spectator, "The game is over and every hand is shown. A won with a capital of 3200."},
		{"exchanged", 0, "You discarded red 3, blue 1 and green 12 and drew red 3, blue 1, blue 11, green 2 and green 12."},
		{"exchanged", 1, "A discarded 3 tiles and drew 5 tiles."},
		{"exchanged", spectator, "A discarded 3 tiles and drew 5 tiles."},
		{"kept", 1, "You kept every tile and drew none."},
		{"kept", 3, "B kept every tile and drew none."},
		{"resigned", 1, "You left the game and put 4 tiles back into the pool unseen."},
		{"resigned", 0, "B left the game and put 4 tiles back into the pool unseen."},
		{"resigned", spectator, "B left the game and put 4 tiles back into the pool unseen."},
	}
	for _, c := range cases {
		d, ok := ev[c.event]
		if !ok {
			t.Fatalf("no %s event", c.event)
		}
		got := Rules{}.describeEN(d.before, d.e, c.seat)
		if got != c.want {
			t.Errorf("%s for seat %d:\n got %q\nwant %q", c.event, c.seat, got, c.want)
		}
		if red := (Rules{}).describeEN(d.before, Rules{}.Redact(d.before, d.e, c.seat), c.seat); red != got {
			t.Errorf("%s for seat %d: the redacted event reads %q", c.event, c.seat, red)
		}
	}

	// Hidden tiles never reach another seat's description (section 5).
	hidden := []struct {
		event string
		tiles []Tile
	}{
		{"dealt", tls(t, "yellow 1", "yellow 2", "blue 10")},
		{"exchanged", tls(t, "red 3", "blue 1", "green 12", "blue 11", "green 2")},
	}
	for _, h := range hidden {
		d := ev[h.event]
		for seat := spectator; seat < 3; seat++ {
			if seat == 0 {
				continue
			}
			text := Rules{}.describeEN(d.before, d.e, seat)
			found := tilesIn([]byte(text))
			for _, x := range h.tiles {
				if found[x] {
					t.Errorf("seat %d's description of %s names %s: %q", seat, h.event, x, text)
				}
			}
		}
	}
}

// TestKC34_ResignedSeatRereadsAsSpectator ([HOUSE] KC-34, section 5): a
// player who has resigned sees only what a spectator sees when re-reading the
// deal or their own exchange, until the game ends; then everything is public.
func TestKC34_ResignedSeatRereadsAsSpectator(t *testing.T) {
	tb := newTable(t, "", tls(t, "y1", "y2"), tls(t, "y3", "y4"), tls(t, "y5", "y6"))
	dealt := tb.log[1]
	seated := Rules{}.Evolve(Rules{}.Initial(RulesVersion), tb.log[0])
	for _, s := range []*State{seated, tb.s} {
		if got := (Rules{}).Redact(s, dealt, 1); !slices.Equal(got.Hands[1], tls(t, "y3", "y4")) {
			t.Errorf("seat 1 playing: dealt hand %v, want its own", got.Hands[1])
		}
	}
	out, err := Rules{}.Resign(tb.s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	got := Rules{}.Redact(tb.s, dealt, 1)
	if spec := (Rules{}).Redact(tb.s, dealt, games.Spectator); !reflect.DeepEqual(got, spec) {
		t.Errorf("resigned seat 1 re-reads the deal as %+v, the spectator as %+v", got, spec)
	}
	for q, h := range got.Hands {
		if len(h) != 0 || got.Counts[q] != 2 {
			t.Errorf("resigned seat 1 sees %v of seat %d's deal (count %d)", h, q, got.Counts[q])
		}
	}
	d := Rules{}.describeEN(tb.s, dealt, 1)
	if d != (Rules{}).describeEN(tb.s, dealt, games.Spectator) || strings.Contains(d, "yellow") {
		t.Errorf("resigned seat 1 reads the deal as %q", d)
	}
	// The end makes every hand public, to the resigned seat too.
	if out, err = (Rules{}).Resign(tb.s, 0, nil); err != nil {
		t.Fatal(err)
	}
	tb.apply(out)
	if !tb.s.finished() {
		t.Fatal("the game should be over")
	}
	got = Rules{}.Redact(tb.s, dealt, 1)
	if !slices.Equal(got.Hands[0], tls(t, "y1", "y2")) || !slices.Equal(got.Hands[2], tls(t, "y5", "y6")) {
		t.Errorf("after the end seat 1 sees the deal as %v", got.Hands)
	}

	// Their own exchange, re-read after leaving, shows counts only.
	sp := shortPool(t, "")
	_, evs := sp.step(0, "discard red 3 green 12 blue 1")
	if e := (Rules{}).Redact(sp.s, evs[0], 0); len(e.Discarded) != 3 {
		t.Fatalf("the exchanger sees %+v", e)
	}
	if out, err = (Rules{}).Resign(sp.s, 0, nil); err != nil {
		t.Fatal(err)
	}
	sp.apply(out)
	if e := (Rules{}).Redact(sp.s, evs[0], 0); e.Discarded != nil || e.Drawn != nil || e.NDiscarded != 3 || e.NDrawn != 5 {
		t.Errorf("after leaving, seat 0 re-reads its exchange as %+v", e)
	}
	if d := (Rules{}).describeEN(sp.s, evs[0], 0); d != "You discarded 3 tiles and drew 5 tiles." {
		t.Errorf("after leaving, seat 0 reads its exchange as %q", d)
	}
}

// checkResignedRereads: in s, every seat that has resigned re-reads the
// deal (dealt, a stored event) as the spectator does, until the end.
func checkResignedRereads(t testing.TB, eng games.Engine, s *State, log []games.RawEvent) {
	t.Helper()
	if s.finished() {
		return
	}
	i := slices.IndexFunc(log, func(e games.RawEvent) bool { return e.Type == EvDealt })
	if i < 0 {
		t.Fatal("no dealt event in the setup")
	}
	spec, err := eng.Redact(s, log[i], games.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	for q := range s.Players {
		if !s.Resigned[q] {
			continue
		}
		red, err := eng.Redact(s, log[i], games.Seat(q))
		if err != nil {
			t.Fatal(err)
		}
		if string(red.Data) != string(spec.Data) {
			t.Errorf("resigned seat %d re-reads the deal as %s", q, red.Data)
		}
	}
}

// TestChoices_WorstCases: the compact lists on the states with the most
// legal moves (a buy of up to 4 tokens in 6 colours: 210 moves; an exchange
// of 6 tiles, the most a real exchange holds (B − C), and of a rigged 12:
// 4096 moves): at most 20 lines, each legal or a documented blank, and every
// legal move covered by a line or of the blank's shape.
func TestChoices_WorstCases(t *testing.T) {
	full := newTable(t, "", tls(t, "y1"), tls(t, "y2"), tls(t, "y3"), tls(t, "y4"))

	short := newTable(t, "", tls(t, "y1"), tls(t, "y2"), tls(t, "y3"), tls(t, "y4"))
	short.cash(0, 300)
	short.tokens(1, [Colours]int{red: 18})

	poor := newTable(t, "", tls(t, "y1"), tls(t, "y2"))
	poor.cash(0, 100)

	ex6 := shortPool(t, "")

	// 2 players: place 6 of 12, then rig the exchanger's hand back to 12.
	var h0, h1 []Tile
	for k := 1; k <= 12; k++ {
		h0 = append(h0, NewTile(yellow, k))
		h1 = append(h1, NewTile(red, k))
	}
	two := newTable(t, "", h0, h1)
	two.buyNothing()
	place12 := two.s.clone()
	for two.s.Phase == PhasePlace {
		two.play(two.s.Turn, "place "+two.s.Hands[two.s.Turn][0].String())
	}
	two.expect(0, "exchange")
	rigged := slices.Clone(two.s.Pool[:6])
	two.s.Pool = removeTiles(two.s.Pool, rigged)
	two.s.Hands[0] = addTiles(two.s.Hands[0], rigged)

	last := newTable(t, "", tls(t, "blue 10", "y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8", "y9", "y10", "y11"),
		tls(t, "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"))
	last.row(blue, 1, 9)
	last.buyNothing()
	last.play(0, "place blue 10")
	last.expect(1, "last")

	colours := func(pre string) []string {
		var out []string
		for c := range Colours {
			out = append(out, pre+ColourName(c))
		}
		return out
	}
	buyAll := append(append([]string{"buy nothing"}, colours("buy 1 … 4 ")...), "buy <n> <colour> <n> <colour>")
	cases := []struct {
		name   string
		s      *State
		seat   games.Seat
		legal  int
		want   []string // nil: Legal itself
		blanky func(move string) bool
	}{
		{"buy 4 of 6 colours", full.s, 0, 210, buyAll, isMix},
		{"buy 3, red short", short.s, 0, 83, []string{"buy nothing", "buy 1 … 3 yellow", "buy 1 … 3 orange", "buy 1 … 2 red",
			"buy 1 … 3 violet", "buy 1 … 3 blue", "buy 1 … 3 green", "buy <n> <colour> <n> <colour>"}, isMix},
		{"buy 1", poor.s, 0, 7, nil, nil},
		{"exchange 6", ex6.s, 0, 64, []string{"keep", "discard yellow 10", "discard orange 10", "discard red 3",
			"discard violet 10", "discard blue 1", "discard green 12",
			"discard yellow 10 orange 10 red 3 violet 10 blue 1 green 12", "discard <tiles>"}, isPartialDiscard(6)},
		{"exchange 12 (rigged)", two.s, 0, 4096, nil, isPartialDiscard(12)},
		{"place 12", place12, 0, 12, nil, nil},
		{"last tile, 12 held", last.s, 1, 13, nil, nil},
	}
	eng := New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			legal := Rules{}.Legal(c.s, c.seat)
			got := Rules{}.Choices(c.s, c.seat)
			if len(legal) != c.legal {
				t.Errorf("%d legal moves, want %d", len(legal), c.legal)
			}
			switch {
			case c.want != nil && !slices.Equal(got, c.want):
				t.Errorf("choices\n got %q\nwant %q", got, c.want)
			case c.want == nil && c.blanky == nil && !slices.Equal(got, legal):
				t.Errorf("choices %q, want Legal %q", got, legal)
			}
			if len(got) > games.MaxChoices {
				t.Errorf("%d choices", len(got))
			}
			if !gametest.CheckChoices(t, eng, c.s, c.seat) {
				return
			}
			covered := map[string]bool{}
			for _, line := range got {
				if strings.Contains(line, "<") {
					continue
				}
				moves, err := gametest.ExpandChoice(line)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range moves {
					covered[m] = true
				}
			}
			for _, m := range legal {
				if !covered[m] && (c.blanky == nil || !c.blanky(m)) {
					t.Errorf("legal %q is neither a line nor of the blank's shape", m)
				}
			}
		})
	}
	if n := len(Rules{}.Choices(two.s, 0)); n != 15 {
		t.Errorf("a 12-tile exchange has %d choices, want 15", n)
	}
}

// isMix reports whether a buy names two colours or more (the blank "buy <n>
// <colour> <n> <colour>").
func isMix(move string) bool {
	return strings.HasPrefix(move, "buy ") && len(strings.Fields(move)) >= 5
}

// isPartialDiscard reports whether a discard names more than one tile and
// fewer than hand (the blank "discard <tiles>").
func isPartialDiscard(hand int) func(string) bool {
	return func(move string) bool {
		k := (len(strings.Fields(move)) - 1) / 2
		return strings.HasPrefix(move, "discard ") && k > 1 && k < hand
	}
}

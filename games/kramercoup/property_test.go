package kramercoup

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

var gameCount = flag.Int("gamecount", 1000, "number of random games in TestPropertyRandomGames")

// TestPropertyRandomGames plays thousands of seeded games by random legal
// moves and timeout defaults (gametest.Run) and checks, after every
// decision: conservation of tiles, tokens and cash; that no view, redacted
// event or description shows a seat a tile it may not see (section 5); that
// only the pending seat may act. gametest.Run itself checks Choices against
// Legal and Describe against Redact on every step.
func TestPropertyRandomGames(t *testing.T) {
	eng := New()
	var coups int
	var prev *State // the state before the decision being checked
	st := gametest.Run(t, gametest.Config{
		Engine:   eng,
		Games:    *gameCount,
		MaxMoves: 6000,
		Players: func(r *rand.Rand) []string {
			n := 2 + r.IntN(5)
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("P%c", 'a'+i)
			}
			return out
		},
		Options: func(r *rand.Rand) games.Options {
			if r.IntN(2) == 0 {
				return games.Options{OptExchangeOrder: DrawFirst}
			}
			return nil
		},
		DefaultRate: 0.2,
		Candidates:  candidates,
		Check: func(t testing.TB, gs games.State, evs []games.RawEvent) {
			s := gs.(*State)
			if len(evs) > 0 && evs[0].Type == EvSeated {
				prev = Rules{}.Initial(RulesVersion)
			}
			checkConservation(t, s)
			// Every seat after deals, exchanges, resignations and the end;
			// otherwise (buys, placements: public events) the spectator,
			// the seat that moved and the next one.
			var seats []games.Seat
			if len(evs) > 0 {
				if e, err := decodeEvent(evs[0]); err == nil && (e.Type == EvBought || e.Type == EvPlaced || e.Type == EvPassed) && len(evs) == 1 {
					seats = []games.Seat{games.Spectator, games.Seat(e.Seat), games.Seat((e.Seat + 1) % len(s.Players))}
				}
			}
			checkHidden(t, eng, prev, s, evs, seats)
			prev = s.clone()
			checkOthersRejected(t, eng, s)
			for _, e := range evs {
				if e.Type == EvGameOver && s.CoupMaker >= 0 {
					coups++
				}
			}
		},
	})
	t.Logf("games %d, moves %d, defaults %d, rejected near misses %d, coups %d", st.Games, st.Moves, st.Defaults, st.Rejected, coups)
	if coups != st.Games {
		t.Errorf("%d of %d games ended by a Coup", coups, st.Games)
	}
}

// candidates are near-miss and malformed moves for seat.
func candidates(gs games.State, seat games.Seat, r *rand.Rand) []string {
	s := gs.(*State)
	rt := func() Tile { return Tile(r.IntN(TileCount)) }
	out := []string{
		"buy nothing", "pass", "keep", "place nothing", "", "hello", "place red 21", "buy -1 red",
		"buy 1 pink", "discard", "place", "keep red 3", fmt.Sprintf("buy %d red", s.Limits.Buy+1),
		"place " + rt().String(), "discard " + rt().String() + " " + rt().String(),
	}
	var b []string
	for range 1 + r.IntN(s.Limits.Buy+1) {
		b = append(b, ColourName(r.IntN(Colours)))
	}
	out = append(out, "buy "+fmt.Sprint(b)[1:len(fmt.Sprint(b))-1])
	if h := s.Hands[int(seat)]; len(h) > 0 {
		t := h[r.IntN(len(h))]
		out = append(out, "discard "+t.String()+" "+t.String(), "place "+t.String(), "discard "+t.String()+" "+rt().String())
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:6]
}

// checkConservation: every tile is in exactly one place; 20 tokens per
// colour; cash plus the bank's takings equals the starting cash.
func checkConservation(t testing.TB, s *State) {
	t.Helper()
	var where [TileCount]int
	for i := range TileCount {
		if s.Board[i] {
			where[i]++
		}
	}
	for _, h := range s.Hands {
		for _, x := range h {
			where[x]++
		}
	}
	for _, x := range s.Pool {
		where[x]++
	}
	for i, k := range where {
		if k != 1 {
			t.Errorf("tile %s is in %d places", Tile(i), k)
		}
	}
	placed := 0
	for i := range TileCount {
		if s.Board[i] {
			placed++
		}
	}
	if placed != s.Placed {
		t.Errorf("board has %d tiles, counter says %d", placed, s.Placed)
	}
	for c := range Colours {
		k := s.Supply[c]
		for p := range s.Players {
			k += s.Tokens[p][c]
		}
		if k != TokensPerColour || s.Supply[c] < 0 {
			t.Errorf("%s tokens: %d in all (supply %d)", ColourName(c), k, s.Supply[c])
		}
	}
	cash := s.Bank
	for p := range s.Players {
		cash += s.Cash[p]
		if s.Cash[p] < 0 {
			t.Errorf("seat %d has negative cash %d", p, s.Cash[p])
		}
		if len(s.Hands[p]) > s.Limits.Hand {
			t.Errorf("seat %d holds %d tiles, more than B = %d", p, len(s.Hands[p]), s.Limits.Hand)
		}
	}
	if cash != len(s.Players)*s.Limits.Cash {
		t.Errorf("cash %d, want %d", cash, len(s.Players)*s.Limits.Cash)
	}
}

// hiddenFrom lists the tiles seat may not see in s (section 5).
func hiddenFrom(s *State, seat int) []Tile {
	if s.finished() {
		return nil
	}
	out := slices.Clone(s.Pool)
	for p, h := range s.Hands {
		if p != seat {
			out = append(out, h...)
		}
	}
	return out
}

// checkHidden: no view, redacted event or description of a seat (or a
// spectator) names a tile that seat may not see in s, the state after evs;
// one's own hand is in one's view; at the end every hand is in every view.
// prev is the state before evs (it is not modified): each event is redacted
// and described with the state before it, as the contract says.
func checkHidden(t testing.TB, eng games.Engine, prev, s *State, evs []games.RawEvent, seats []games.Seat) {
	t.Helper()
	if seats == nil {
		for seat := games.Spectator; seat < games.Seat(len(s.Players)); seat++ {
			seats = append(seats, seat)
		}
	}
	befores := make([]*State, len(evs))
	cur := prev.clone()
	for i, raw := range evs {
		befores[i] = cur.clone()
		var err error
		var next games.State
		if next, err = eng.Evolve(cur, raw); err != nil {
			t.Fatalf("evolve %s: %v", raw.Type, err)
		}
		cur = next.(*State)
	}
	for _, seat := range seats {
		p := int(seat)
		hidden := hiddenFrom(s, p)
		v, err := eng.View(s, seat)
		if err != nil {
			t.Fatalf("view: %v", err)
		}
		shown := tilesIn(v)
		for _, x := range hidden {
			if shown[x] {
				t.Errorf("seat %d's view shows hidden tile %s", p, x)
			}
		}
		for q, h := range s.Hands {
			if q == p || s.finished() {
				for _, x := range h {
					if !shown[x] {
						t.Errorf("seat %d's view lacks %s of seat %d's hand", p, x, q)
					}
				}
			}
		}
		for i, raw := range evs {
			red, err := eng.Redact(befores[i], raw, seat)
			if err != nil {
				t.Fatalf("redact: %v", err)
			}
			desc, err := eng.Describe(befores[i], raw, seat)
			if err != nil {
				t.Fatalf("describe: %v", err)
			}
			if desc.In(games.English) == "" {
				t.Errorf("seat %d: %s has no description", p, raw.Type)
			}
			var e Event
			if raw.Type == EvExchanged || raw.Type == EvDealt {
				if err := json.Unmarshal(red.Data, &e); err != nil {
					t.Fatalf("decode redacted: %v", err)
				}
			}
			var own []Tile // what this seat legitimately knows from the event
			if e.Type == EvExchanged && e.Seat == p {
				own = e.Discarded
			}
			inEvent := tilesIn(red.Data)
			for _, x := range hidden {
				if inEvent[x] && !slices.Contains(own, x) {
					t.Errorf("seat %d's copy of %s shows hidden tile %s", p, raw.Type, x)
				}
			}
			for _, lang := range games.Languages() {
				inDesc := tilesNamedIn(lang, desc.In(lang))
				for _, x := range hidden {
					if inDesc[x] && !slices.Contains(own, x) {
						t.Errorf("seat %d's description of %s in %s names hidden tile %s: %q", p, raw.Type, lang, x, desc.In(lang))
					}
				}
			}
			switch e.Type {
			case EvExchanged:
				if e.Seat != p && (len(e.Discarded) > 0 || len(e.Drawn) > 0) {
					t.Errorf("seat %d sees the tiles seat %d exchanged", p, e.Seat)
				}
			case EvDealt:
				for q, h := range e.Hands {
					if q != p && len(h) > 0 {
						t.Errorf("seat %d sees seat %d's dealt hand", p, q)
					}
				}
			}
		}
	}
}

// checkOthersRejected: only the pending seat has legal moves, and a move by
// any other seat is rejected with a rule error.
func checkOthersRejected(t testing.TB, eng games.Engine, s *State) {
	t.Helper()
	pend := eng.Pending(s)
	if len(pend) > 1 {
		t.Errorf("%d pending entries; one seat acts at a time", len(pend))
	}
	if len(pend) == 0 {
		return
	}
	for seat := games.Seat(0); seat < games.Seat(len(s.Players)); seat++ {
		if seat == pend[0].Seat {
			continue
		}
		if l := eng.Legal(s, seat); len(l) > 0 {
			t.Errorf("seat %d is not pending but has legal moves %v", seat, l)
		}
		_, err := eng.Decide(s, seat, pend[0].Default, games.Seed{}.Rand(0))
		if _, ok := games.AsRuleError(err); !ok {
			t.Errorf("seat %d moved out of turn: %v", seat, err)
		}
	}
}

// tilesIn is the set of tiles named in canonical notation ("blue 7") in
// doc, found in one pass: at each space, the word before it must be a colour
// name and the digits after it a number 1–20.
func tilesIn(doc []byte) *[TileCount]bool {
	var out [TileCount]bool
	names := colourNames()
	for i := 0; ; i++ {
		j := bytes.IndexByte(doc[i:], ' ')
		if j < 0 {
			return &out
		}
		i += j
		k, n := i+1, 0
		for k < len(doc) && doc[k] >= '0' && doc[k] <= '9' && n < 100 {
			n = n*10 + int(doc[k]-'0')
			k++
		}
		if n < 1 || n > Numbers {
			continue
		}
		for c, name := range names {
			if i >= len(name) && string(doc[i-len(name):i]) == name {
				out[NewTile(c, n)] = true
			}
		}
	}
}

// TestTilesIn: the leak detector finds tiles in JSON text.
func TestTilesIn(t *testing.T) {
	got := tilesIn([]byte(`{"a":"place blue 7","b":["red 20","green 21"],"c":"yellow 1"}`))
	for x := range TileCount {
		want := Tile(x) == NewTile(blue, 7) || Tile(x) == NewTile(red, 20) || Tile(x) == NewTile(yellow, 1)
		if got[x] != want {
			t.Errorf("tilesIn %s: %v", Tile(x), got[x])
		}
	}
}

// decodeEvent decodes a stored event.
func decodeEvent(raw games.RawEvent) (Event, error) {
	var e Event
	err := json.Unmarshal(raw.Data, &e)
	return e, err
}

package coupage

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// Rules versions: Info says 2, Initial keeps the version it is given, the
// engine refuses a version it does not know, and a seating keeps it.
func TestRulesVersions(t *testing.T) {
	r := NewRules()
	if v := r.Info().Rules; v != 2 {
		t.Fatalf("Info().Rules = %d, want 2", v)
	}
	eng := New()
	for _, v := range []int{1, 2} {
		s, err := eng.Initial(v)
		if err != nil {
			t.Fatalf("Initial(%d): %v", v, err)
		}
		evs, err := eng.Setup(nil, []string{"Ana", "Bob"}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if s, err = eng.Evolve(s, e); err != nil {
				t.Fatal(err)
			}
		}
		if got := s.(*State).Rules; got != v {
			t.Errorf("a game created under version %d keeps version %d after its setup", v, got)
		}
	}
	for _, v := range []int{0, 3} {
		if _, err := eng.Initial(v); err == nil {
			t.Errorf("Initial(%d) accepted", v)
		}
	}
}

// CP-19, CP-29 (issue 19): every way of adding Time reaches a barrel that
// lost a grape under rules version 2 (Time card CP-18, Time from stars
// CP-9, Vol de temps CP-30, the Rouge ability CP-32), while its bottling
// still waits for the repair; under version 1 each is refused as it was.
func TestCP19_CP29_TimeOnBarrelThatLostAGrape(t *testing.T) {
	// Ana's barrel 2 is a Rosé that lost its white grape (gar1 left, no
	// Time); Bob's barrel 1 holds a face-up Time card to steal.
	incomplete := barrelSetup{wine: "rose", grapes: []string{"gar1"}}
	bobBarrel := map[int]barrelSetup{1: {wine: "blanc", grapes: []string{"mac2", "par2"}, time: []string{"time"}}}
	cases := []struct {
		name string
		hand []string
		// more are Ana's other barrels (besides barrel 2).
		more map[int]barrelSetup
		// before are Ana's moves after her draw and before the move.
		before []string
		move   string
		// v1 is the rule version 1 names when it refuses the move.
		v1 string
	}{
		{name: "Time card (CP-18)", hand: []string{"time", "par1"}, move: "time 2", v1: "CP-29"},
		{name: "Time from stars (CP-9)", hand: []string{"xar3", "par1"}, move: "time 2 xar3", v1: "CP-29"},
		{name: "Vol de temps (CP-30)", hand: []string{"vol de temps", "par1"}, move: "vol de temps bob 1 time 2", v1: "CP-30"},
		{name: "Rouge ability (CP-32)", hand: []string{"xar2", "mac1", "par1"},
			more:   map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar2", "tre2"}, time: []string{"time", "time"}}},
			before: []string{"bottle 1 xar2"}, move: "age 2 mac1", v1: "CP-32"},
	}
	for _, c := range cases {
		build := func(t *testing.T, version int) *table {
			t.Helper()
			barrels := map[int]barrelSetup{2: incomplete}
			maps.Copy(barrels, c.more)
			tb := tableSetup{
				version: version,
				seats:   []seatSetup{{hand: c.hand, barrels: barrels}, {barrels: bobBarrel}},
				market:  [2]string{"ull3", "par3"},
				top:     []string{"tre1", "ull1", "gar3"},
			}.build(t)
			tb.do(ana, "draw")
			for _, m := range c.before {
				tb.do(ana, m)
			}
			return tb
		}
		t.Run(c.name+"/v2", func(t *testing.T) {
			tb := build(t, 0)
			tb.do(ana, c.move)
			b := tb.s.Barrels[ana][1]
			if len(b.Time) != 1 || tb.s.complete(b) {
				t.Fatalf("barrel 2 = %+v, want the incomplete Rosé with 1 Time", b)
			}
			tb.reject(ana, "bottle 2 par1", "CP-29")
			tb.do(ana, "repair 2 par1")
			if _, err := tb.s.ready(ana, 2, "CP-10"); err != nil {
				t.Errorf("repaired, barrel 2 is still not ready: %v", err)
			}
		})
		t.Run(c.name+"/v1", func(t *testing.T) {
			tb := build(t, rulesV1)
			tb.reject(ana, c.move, c.v1)
			tb.reject(ana, "bottle 2 par1", "CP-29")
			tb.do(ana, "repair 2 par1")
			if b := tb.s.Barrels[ana][1]; len(b.Time) != 0 {
				t.Errorf("barrel 2 received Time under version 1: %+v", b)
			}
		})
	}
}

// A game recorded under rules version 1, in which Time on a barrel that
// lost a grape was refused and play went on, folds under Initial(1) to the
// state it was played to, and every recorded move, decided again on the
// folded state, gives the same events; version 1 still refuses the Time,
// while the same position under version 2 accepts it.
func TestRulesV1_RecordedGameReplays(t *testing.T) {
	tb := scenario5(t, rulesV1)
	type step struct {
		seat games.Seat
		move string
		from int // index in the log of the move's first event
		evs  []Event
	}
	var steps []step
	play := func(seat games.Seat, move string) {
		from := len(tb.log)
		steps = append(steps, step{seat, move, from, tb.do(seat, move)})
	}
	play(ana, "draw")
	refusedAfter := len(tb.log)
	tb.reject(ana, "time 2", "CP-29") // refused: no event recorded
	play(ana, "repair 2 par1")
	play(ana, "time 2")
	play(bob, "draw")
	play(bob, "end")
	play(cleo, "end")
	play(ana, "draw")
	play(ana, "bottle 2 xar2")
	play(ana, "take market 1")

	// The stored log (JSON) folds under version 1 to the state as played.
	raw := make([]games.RawEvent, len(tb.log))
	for i, e := range tb.log {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		raw[i] = games.RawEvent{Type: e.EventType(), Data: b}
	}
	eng := New()
	folded, err := games.Fold(eng, rulesV1, raw)
	if err != nil {
		t.Fatal(err)
	}
	if folded.(*State).Rules != rulesV1 {
		t.Errorf("the fold keeps rules version %d, want 1", folded.(*State).Rules)
	}
	for seat := games.Spectator; seat <= cleo; seat++ {
		if !reflect.DeepEqual(tb.r.View(folded.(*State), seat), tb.r.View(tb.s, seat)) {
			t.Errorf("seat %d: the fold under version 1 differs from the game as played", seat)
		}
	}

	// Every move decided again on the fold of the log before it gives the
	// recorded events.
	prefix := func(version, n int) *State {
		s, err := games.Fold(eng, version, raw[:n])
		if err != nil {
			t.Fatal(err)
		}
		return s.(*State)
	}
	for _, st := range steps {
		s := prefix(rulesV1, st.from)
		m, err := tb.r.Parse(s, st.move)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := tb.r.Decide(s, st.seat, m, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("replay of %q: %v", st.move, err)
		}
		if !reflect.DeepEqual(evs, st.evs) {
			t.Errorf("replay of %q gives %+v, recorded %+v", st.move, evs, st.evs)
		}
	}

	// Where the Time was refused, version 1 still refuses it; version 2
	// would accept it.
	v1 := prefix(rulesV1, refusedAfter)
	m, err := tb.r.Parse(v1, "time 2")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tb.r.Decide(v1, ana, m, rand.New(rand.NewPCG(1, 2)))
	if re, ok := games.AsRuleError(err); !ok || re.Rule != "CP-29" {
		t.Errorf("version 1 replay of time 2: %v, want a CP-29 refusal", err)
	}
	if slices.Contains(tb.r.Legal(v1, ana), "time 2") {
		t.Errorf("version 1 lists time 2 on the barrel that lost a grape")
	}
	v2 := prefix(rulesV2, refusedAfter)
	if _, err := tb.r.Decide(v2, ana, m, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Errorf("version 2 refuses time 2 on the barrel that lost a grape: %v", err)
	}
}

// deadlockTable is a table of two players under rules version (0:
// current) where every grape card lies in a barrel, as its grape or face
// down as Time, but Ana's mac3 (unless sunk: then it lies under her
// barrel too): Ana's Rosé (ull1) and Bob's Rouge (gar1) hold one grape
// each, and both have empty barrels.
func deadlockTable(t *testing.T, version int, sunk bool) *table {
	t.Helper()
	a := NewRules().aids["house"]
	rest := a.grapesOf(a.Deck())
	for _, c := range []string{"ull1", "gar1", "mac3"} {
		i := slices.Index(rest, c)
		rest = slices.Delete(rest, i, i+1)
	}
	var hand, anaTime, bobTime []string
	if sunk {
		anaTime = append(anaTime, "mac3")
	} else {
		hand = append(hand, "mac3")
	}
	for i, c := range rest {
		if i%2 == 0 {
			anaTime = append(anaTime, c)
		} else {
			bobTime = append(bobTime, c)
		}
	}
	return tableSetup{
		version: version,
		players: []string{"Ana", "Bob"},
		seats: []seatSetup{
			{hand: hand, barrels: map[int]barrelSetup{1: {wine: "rose", grapes: []string{"ull1"}, time: anaTime}}},
			{barrels: map[int]barrelSetup{1: {wine: "rouge", grapes: []string{"gar1"}, time: bobTime}}},
		},
		market: [2]string{"time", "vin jeune"},
		top:    []string{"recolte", "time", "time"},
	}.build(t)
}

// CP-50 [HOUSE], rules version 2: once no barrel can ever be bottled again
// (every grape card is in a barrel, none complete, none with two grapes to
// evaporate), the game ends at the end of the turn without a winner.
// Version 1 games go on as they were played.
func TestCP50_Deadlock(t *testing.T) {
	tb := deadlockTable(t, 0, false)
	if tb.s.deadlocked() {
		t.Fatalf("deadlocked while Ana's mac3 can still repair her Rosé")
	}
	tb.do(ana, "draw")
	tb.do(ana, "time 1 mac3")
	if !tb.s.deadlocked() {
		t.Fatalf("not deadlocked once the last free grape is under a barrel")
	}
	steps := tb.play(ana, "end")
	res := tb.r.Result(tb.s)
	if !res.Finished || len(res.Winners) != 0 || len(tb.r.Pending(tb.s)) != 0 {
		t.Fatalf("result %+v, pending %+v: want the game over without a winner", res, tb.r.Pending(tb.s))
	}
	over := first(t, steps, evGameOver)
	for lang, want := range map[string]string{
		"en": "The game is over without a winner: no wine or cava can be finished any more.",
		"fr": "La partie est terminée sans gagnant : plus aucun vin ni cava ne peut être achevé.",
	} {
		if d := tb.r.Describe(over.before, over.e, bob).In(lang); d != want {
			t.Errorf("description in %s %q, want %q", lang, d, want)
		}
	}
	for lang, want := range map[string]string{
		"en": "no wine or cava can be finished any more: the game ends without a winner",
		"fr": "plus aucun vin ni cava ne peut être achevé : la partie se termine sans gagnant",
	} {
		if sum := res.Summary.In(lang); sum != want {
			t.Errorf("summary in %s %q, want %q", lang, sum, want)
		}
	}
	if has([]Event{steps[len(steps)-1].e}, evTurnStarted) {
		t.Errorf("a turn started after the deadlock")
	}

	tb = deadlockTable(t, rulesV1, true)
	if !tb.s.deadlocked() {
		t.Fatalf("rig: not deadlocked")
	}
	tb.do(ana, "end")
	if tb.s.Over || tb.s.Turn.Seat != bob {
		t.Errorf("a version 1 game ended by CP-50")
	}
}

// CP-51 [HOUSE], rules version 2: idleRounds rounds in a row without a
// barrel made, repaired or bottled end the game without a winner; making,
// repairing or bottling starts the count again. Version 1 games go on.
func TestCP51_IdleRounds(t *testing.T) {
	setup := func(version int) *table {
		tb := tableSetup{version: version, seats: []seatSetup{{hand: []string{"gar2", "tre1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
		tb.s.Idle = idleRounds*3 - 1 // three players
		return tb
	}
	tb := setup(0)
	tb.do(ana, "draw")
	tb.do(ana, "make rouge 1 gar2 tre1")
	tb.do(ana, "end")
	if tb.s.Over || tb.s.Idle != 1 {
		t.Fatalf("after a make: over %v, idle %d; want the game going on, idle 1", tb.s.Over, tb.s.Idle)
	}

	tb = setup(0)
	steps := tb.play(ana, "end")
	if res := tb.r.Result(tb.s); !res.Finished || len(res.Winners) != 0 {
		t.Fatalf("result %+v: want the game over without a winner after %d idle rounds", res, idleRounds)
	}
	over := first(t, steps, evGameOver)
	for lang, want := range map[string]string{
		"en": "The game is over without a winner: no barrel was made, repaired or bottled in 50 rounds.",
		"fr": "La partie est terminée sans gagnant : aucun tonneau n’a été lancé, réparé ni mis en bouteille en 50 tours de table.",
	} {
		if d := tb.r.Describe(over.before, over.e, ana).In(lang); d != want {
			t.Errorf("description in %s %q, want %q", lang, d, want)
		}
	}
	if sum, want := tb.r.Result(tb.s).Summary.In(games.English), "no barrel was made, repaired or bottled in 50 rounds: the game ends without a winner"; sum != want {
		t.Errorf("summary %q, want %q", sum, want)
	}

	tb = setup(rulesV1)
	tb.do(ana, "end")
	if tb.s.Over {
		t.Errorf("a version 1 game ended by CP-51")
	}
}

// recordedGame is testdata/v1-game.json: a game recorded by the engine as
// it was before rules version 2 (commit a666b8c), with its seed, its moves
// (refused ones with the rule that refused them), its events and its final
// state.
type recordedGame struct {
	Seed  string          `json:"seed"`
	State json.RawMessage `json:"state"`
	Moves []struct {
		Seat    games.Seat `json:"seat"`
		Move    string     `json:"move"`
		From    int        `json:"from"`
		Refused string     `json:"refused"`
	} `json:"moves"`
	Events []games.RawEvent `json:"events"`
}

// A game the version 1 engine recorded, in which Time on the barrel that
// lost a grape was refused (CP-29) and play went on to the end, folds under
// Initial(1) to the state it recorded, and every move decided again on the
// folded state under version 1 gives the recorded events or the recorded
// refusal. Under version 2 the same position accepts that Time.
func TestRulesV1_GameRecordedByTheV1Engine(t *testing.T) {
	raw, err := os.ReadFile("testdata/v1-game.json")
	if err != nil {
		t.Fatal(err)
	}
	var g recordedGame
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	seed, err := games.ParseSeed(g.Seed)
	if err != nil {
		t.Fatal(err)
	}
	eng := New()
	folded, err := games.Fold(eng, rulesV1, g.Events)
	if err != nil {
		t.Fatal(err)
	}
	// The same state, but for what this version added (the rules version
	// and the idle count of CP-51) and the English summary the state kept
	// (Result now says it in each language from the winners).
	var got, want map[string]any
	b, err := json.Marshal(folded)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(g.State, &want); err != nil {
		t.Fatal(err)
	}
	if got["rules"] != float64(rulesV1) {
		t.Errorf("the fold keeps rules version %v, want 1", got["rules"])
	}
	delete(got, "rules")
	delete(got, "idle")
	recorded, _ := want["Summary"].(string)
	delete(want, "Summary")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the fold under version 1 differs from the recorded state:\n got %v\nwant %v", got, want)
	}
	res := eng.Result(folded)
	if !res.Finished {
		t.Errorf("the recorded game is not over after the fold: %+v", res)
	}
	// Its last event recorded an English summary; the summary said from
	// the winners is the same words, and French too.
	if recorded == "" || res.Summary.In(games.English) != recorded {
		t.Errorf("the summary %q, recorded %q", res.Summary.In(games.English), recorded)
	}
	if fr, want := res.Summary.In("fr"), "Cleo gagne avec 2 vins et 1 cava mis en bouteille"; fr != want {
		t.Errorf("the summary in French %q, want %q", fr, want)
	}

	// Replay: each move decided on the state folded so far.
	s, err := eng.Initial(rulesV1)
	if err != nil {
		t.Fatal(err)
	}
	next := 0 // events folded so far
	refusedTime := -1
	for i, m := range g.Moves {
		for ; next < m.From; next++ {
			if s, err = eng.Evolve(s, g.Events[next]); err != nil {
				t.Fatal(err)
			}
		}
		out, err := eng.Decide(s, m.Seat, m.Move, seed.Rand(m.From))
		if m.Refused != "" {
			if re, ok := games.AsRuleError(err); !ok || re.Rule != m.Refused {
				t.Fatalf("move %d %q: %v, recorded refused by %s", i, m.Move, err, m.Refused)
			}
			if m.Move == "time 2" && m.Refused == "CP-29" {
				refusedTime = i
				v2, err := games.Fold(eng, rulesV2, g.Events[:m.From])
				if err != nil {
					t.Fatal(err)
				}
				if _, err := eng.Decide(v2, m.Seat, m.Move, seed.Rand(m.From)); err != nil {
					t.Errorf("version 2 refuses %q on the barrel that lost a grape: %v", m.Move, err)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("move %d %q: refused (%v), recorded accepted", i, m.Move, err)
		}
		end := len(g.Events)
		if i+1 < len(g.Moves) {
			end = g.Moves[i+1].From
		}
		if len(out) != end-m.From {
			t.Fatalf("move %d %q: %d events, recorded %d", i, m.Move, len(out), end-m.From)
		}
		for j, e := range out {
			var x, y Event
			if err := json.Unmarshal(e.Data, &x); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(g.Events[m.From+j].Data, &y); err != nil {
				t.Fatal(err)
			}
			y.Summary = "" // no longer recorded: checked through Result above
			if e.Type != g.Events[m.From+j].Type || !reflect.DeepEqual(x, y) {
				t.Fatalf("move %d %q, event %d: %+v, recorded %+v", i, m.Move, j, x, y)
			}
		}
	}
	if refusedTime < 0 {
		t.Errorf("the recorded game has no refused time 2 (CP-29)")
	}
}

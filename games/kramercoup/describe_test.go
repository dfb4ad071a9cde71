package kramercoup

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
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
		event  string
		seat   games.Seat
		en, fr string
	}{
		{"seated", 1, "Seats were drawn; the order of play is A, you, C.",
			"Les places ont été tirées au sort ; l’ordre de jeu est : A, vous, C."},
		{"seated", spectator, "Seats were drawn; the order of play is A, B, C.",
			"Les places ont été tirées au sort ; l’ordre de jeu est : A, B, C."},
		{"dealt", 0, "Each player was dealt 3 tiles, leaving 111 tiles in the pool. You got yellow 1, yellow 2 and blue 10.",
			"Chaque joueur a reçu 3 tuiles ; il reste 111 tuiles dans la pioche. Vous avez reçu les tuiles jaune 1, jaune 2 et bleu 10."},
		{"dealt", 1, "Each player was dealt 3 tiles, leaving 111 tiles in the pool. You got red 3, blue 11 and green 12.",
			"Chaque joueur a reçu 3 tuiles ; il reste 111 tuiles dans la pioche. Vous avez reçu les tuiles rouge 3, bleu 11 et vert 12."},
		{"dealt", spectator, "Each player was dealt 3 tiles, leaving 111 tiles in the pool.",
			"Chaque joueur a reçu 3 tuiles ; il reste 111 tuiles dans la pioche."},
		{"bought", 0, "You bought 2 red and 1 blue for 300.",
			"Vous avez acheté 2 jetons rouges et 1 jeton bleu pour 300."},
		{"bought", 1, "A bought 2 red and 1 blue for 300.",
			"A a acheté 2 jetons rouges et 1 jeton bleu pour 300."},
		{"bought", spectator, "A bought 2 red and 1 blue for 300.",
			"A a acheté 2 jetons rouges et 1 jeton bleu pour 300."},
		{"bought nothing", 1, "You bought nothing.", "Vous n’avez rien acheté."},
		{"bought nothing", 2, "B bought nothing.", "B n’a rien acheté."},
		{"placed chain", 0, "You placed yellow 2, making a yellow chain of 4.",
			"Vous avez posé la tuile jaune 2, formant une chaîne jaune de 4 tuiles."},
		{"placed chain", spectator, "A placed yellow 2, making a yellow chain of 4.",
			"A a posé la tuile jaune 2, formant une chaîne jaune de 4 tuiles."},
		{"placed single", 2, "B placed red 3.", "B a posé la tuile rouge 3."},
		{"coup", 0, "You placed blue 10, making a blue chain of 10: the Coup! The other players may each place one last tile.",
			"Vous avez posé la tuile bleu 10, formant une chaîne bleue de 10 tuiles : c’est le « Coup » ! Les autres joueurs peuvent encore poser chacun une dernière tuile."},
		{"coup", 1, "A placed blue 10, making a blue chain of 10: the Coup! The other players may each place one last tile.",
			"A a posé la tuile bleu 10, formant une chaîne bleue de 10 tuiles : c’est le « Coup » ! Les autres joueurs peuvent encore poser chacun une dernière tuile."},
		{"last", 1, "You placed blue 11 as a last tile, making a blue chain of 12.",
			"Vous avez posé une dernière tuile, bleu 11, formant une chaîne bleue de 12 tuiles."},
		{"last", spectator, "B placed blue 11 as a last tile, making a blue chain of 12.",
			"B a posé une dernière tuile, bleu 11, formant une chaîne bleue de 12 tuiles."},
		{"passed", 2, "You placed no last tile.", "Vous n’avez pas posé de dernière tuile."},
		{"passed", 0, "C placed no last tile.", "C n’a pas posé de dernière tuile."},
		{"passed+", 0, "The game is over and every hand is shown. You won with a capital of 3200.",
			"La partie est terminée et toutes les mains sont dévoilées. Vous avez gagné avec un capital de 3200."},
		{"passed+", 2, "The game is over and every hand is shown. A won with a capital of 3200.",
			"La partie est terminée et toutes les mains sont dévoilées. A a gagné avec un capital de 3200."},
		{"passed+", spectator, "The game is over and every hand is shown. A won with a capital of 3200.",
			"La partie est terminée et toutes les mains sont dévoilées. A a gagné avec un capital de 3200."},
		{"exchanged", 0, "You discarded red 3, blue 1 and green 12 and drew red 3, blue 1, blue 11, green 2 and green 12.",
			"Vous avez défaussé les tuiles rouge 3, bleu 1 et vert 12, puis pioché les tuiles rouge 3, bleu 1, bleu 11, vert 2 et vert 12."},
		{"exchanged", 1, "A discarded 3 tiles and drew 5 tiles.", "A a défaussé 3 tuiles, puis pioché 5 tuiles."},
		{"exchanged", spectator, "A discarded 3 tiles and drew 5 tiles.", "A a défaussé 3 tuiles, puis pioché 5 tuiles."},
		{"kept", 1, "You kept every tile and drew none.", "Vous avez gardé toutes vos tuiles et n’en avez pioché aucune."},
		{"kept", 3, "B kept every tile and drew none.", "B a gardé toutes ses tuiles et n’en a pioché aucune."},
		{"resigned", 1, "You left the game and put 4 tiles back into the pool unseen.",
			"Vous avez quitté la partie et remis 4 tuiles face cachée dans la pioche."},
		{"resigned", 0, "B left the game and put 4 tiles back into the pool unseen.",
			"B a quitté la partie et remis 4 tuiles face cachée dans la pioche."},
		{"resigned", spectator, "B left the game and put 4 tiles back into the pool unseen.",
			"B a quitté la partie et remis 4 tuiles face cachée dans la pioche."},
	}
	for _, c := range cases {
		d, ok := ev[c.event]
		if !ok {
			t.Fatalf("no %s event", c.event)
		}
		got := Rules{}.Describe(d.before, d.e, c.seat)
		red := Rules{}.Describe(d.before, Rules{}.Redact(d.before, d.e, c.seat), c.seat)
		for lang, want := range map[string]string{"en": c.en, "fr": c.fr} {
			if s := got.In(lang); s != want {
				t.Errorf("%s for seat %d in %s:\n got %q\nwant %q", c.event, c.seat, lang, s, want)
			}
			if err := words.In(lang).Check(got.Text); err != nil {
				t.Errorf("%s for seat %d in %s: %v", c.event, c.seat, lang, err)
			}
			if s := red.In(lang); s != got.In(lang) {
				t.Errorf("%s for seat %d in %s: the redacted event reads %q", c.event, c.seat, lang, s)
			}
		}
	}

	// Hidden tiles never reach another seat's description (section 5), in
	// any language.
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
			for _, lang := range games.Languages() {
				text := Rules{}.Describe(d.before, d.e, seat).In(lang)
				found := tilesNamedIn(lang, text)
				for _, x := range h.tiles {
					if found[x] {
						t.Errorf("seat %d's description of %s in %s names %s: %q", seat, h.event, lang, x, text)
					}
				}
			}
		}
	}
}

// TestDescribe_Variants: the sentences the game above does not reach: the
// draw-first seating, shared wins (with and without the reader), nobody
// winning, an exchange that keeps every tile and draws some, a resignation
// with an empty hand, the deal re-read after the end; in English and French.
func TestDescribe_Variants(t *testing.T) {
	s := Rules{}.Initial(RulesVersion)
	seated := Event{Type: EvSeated, Players: []string{"Ana", "Bob", "Cleo"}, Options: games.Options{OptExchangeOrder: DrawFirst}}
	s = Rules{}.Evolve(s, seated)
	over := s.clone()
	over.Phase = PhaseOver
	tile := tl(t, "green 4")
	cases := []struct {
		name   string
		s      *State
		e      Event
		seat   games.Seat
		en, fr string
	}{
		{"draw-first", Rules{}.Initial(RulesVersion), seated, 0,
			"Seats were drawn; the order of play is you, Bob, Cleo. Exchanged tiles go back into the pool after the draw (draw-first).",
			"Les places ont été tirées au sort ; l’ordre de jeu est : vous, Bob, Cleo. Les tuiles défaussées ne retournent dans la pioche qu’après le tirage (draw-first)."},
		{"shared", s, Event{Type: EvGameOver, Winners: []int{0, 2}, Capital: []int{3000, 2000, 3000}}, 1,
			"The game is over and every hand is shown. Ana and Cleo shared the win with a capital of 3000.",
			"La partie est terminée et toutes les mains sont dévoilées. Ana et Cleo ont partagé la victoire avec un capital de 3000."},
		{"shared by you first", s, Event{Type: EvGameOver, Winners: []int{0, 2}, Capital: []int{3000, 2000, 3000}}, 0,
			"The game is over and every hand is shown. You and Cleo shared the win with a capital of 3000.",
			"La partie est terminée et toutes les mains sont dévoilées. Vous et Cleo avez partagé la victoire avec un capital de 3000."},
		{"shared by you", s, Event{Type: EvGameOver, Winners: []int{0, 1, 2}, Capital: []int{3000, 3000, 3000}}, 2,
			"The game is over and every hand is shown. Ana, Bob and you shared the win with a capital of 3000.",
			"La partie est terminée et toutes les mains sont dévoilées. Ana, Bob et vous avez partagé la victoire avec un capital de 3000."},
		{"nobody", s, Event{Type: EvGameOver}, games.Spectator,
			"The game is over and every hand is shown; nobody won.",
			"La partie est terminée et toutes les mains sont dévoilées ; personne n’a gagné."},
		{"kept and drew", s, Event{Type: EvExchanged, Seat: 1, Drawn: []Tile{tile}, NDrawn: 1, PoolSize: 50}, 1,
			"You kept every tile and drew green 4.",
			"Vous avez gardé toutes vos tuiles et pioché la tuile vert 4."},
		{"kept and drew, seen by another", s, Event{Type: EvExchanged, Seat: 1, Drawn: []Tile{tile}, NDrawn: 1, PoolSize: 50}, 0,
			"Bob kept every tile and drew 1 tile.",
			"Bob a gardé toutes ses tuiles et pioché 1 tuile."},
		{"discarded one, drew none", s, Event{Type: EvExchanged, Seat: 1, Discarded: []Tile{tile}, NDiscarded: 1}, 2,
			"Bob discarded 1 tile and drew none.",
			"Bob a défaussé 1 tuile et n’en a pioché aucune."},
		{"left empty-handed", s, Event{Type: EvResigned, Seat: 2}, 2,
			"You left the game.", "Vous avez quitté la partie."},
		{"bought one", s, Event{Type: EvBought, Seat: 0, Tokens: []int{1, 0, 0, 0, 0, 3}, Cost: 400}, 1,
			"Ana bought 1 yellow and 3 green for 400.",
			"Ana a acheté 1 jeton jaune et 3 jetons verts pour 400."},
		{"deal re-read after the end", over, Event{Type: EvDealt, Hands: [][]Tile{{tile}, {tl(t, "orange 1")}, {tl(t, "violet 20")}}, Counts: []int{1, 1, 1}, PoolSize: 117}, 1,
			"Each player was dealt 1 tile, leaving 117 tiles in the pool. Ana got green 4; you got orange 1; Cleo got violet 20.",
			"Chaque joueur a reçu 1 tuile ; il reste 117 tuiles dans la pioche. Ana a reçu la tuile vert 4 ; vous avez reçu la tuile orange 1 ; Cleo a reçu la tuile violet 20."},
	}
	for _, c := range cases {
		got := Rules{}.Describe(c.s, c.e, c.seat)
		for lang, want := range map[string]string{"en": c.en, "fr": c.fr} {
			if s := got.In(lang); s != want {
				t.Errorf("%s in %s:\n got %q\nwant %q", c.name, lang, s, want)
			}
			if err := words.In(lang).Check(got.Text); err != nil {
				t.Errorf("%s in %s: %v", c.name, lang, err)
			}
		}
	}
}

// tileNamer finds tiles as the game's catalog writes them in one language
// ("blue 7", "bleu 7"): a colour's name, a space and a number, each a whole
// word.
type tileNamer struct {
	re      *regexp.Regexp
	colours map[string]int // a colour's name → its index
}

// tileNames are the tile finders by language, built once, never changed.
var tileNames = func() map[string]tileNamer {
	out := map[string]tileNamer{}
	for _, lang := range games.Languages() {
		n := tileNamer{colours: map[string]int{}}
		var names []string
		for c := range Colours {
			name := words.In(lang).Must(games.T("colour." + ColourName(c)))
			n.colours[name] = c
			names = append(names, regexp.QuoteMeta(name))
		}
		n.re = regexp.MustCompile(`\b(` + strings.Join(names, "|") + `) ([0-9]+)\b`)
		out[lang] = n
	}
	return out
}()

// tilesNamedIn is the set of tiles a text in lang names.
func tilesNamedIn(lang, text string) *[TileCount]bool {
	var out [TileCount]bool
	n := tileNames[lang]
	for _, m := range n.re.FindAllStringSubmatch(text, -1) {
		if k, err := strconv.Atoi(m[2]); err == nil && k >= 1 && k <= Numbers {
			out[NewTile(n.colours[m[1]], k)] = true
		}
	}
	return &out
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
	for _, lang := range games.Languages() {
		d := Rules{}.Describe(tb.s, dealt, 1).In(lang)
		if d != (Rules{}).Describe(tb.s, dealt, games.Spectator).In(lang) || strings.Contains(d, words.In(lang).Must(games.T("colour.yellow"))) {
			t.Errorf("resigned seat 1 reads the deal in %s as %q", lang, d)
		}
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
	if d := (Rules{}).Describe(sp.s, evs[0], 0); d.In("en") != "You discarded 3 tiles and drew 5 tiles." ||
		d.In("fr") != "Vous avez défaussé 3 tuiles, puis pioché 5 tuiles." {
		t.Errorf("after leaving, seat 0 reads its exchange as %q / %q", d.In("en"), d.In("fr"))
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

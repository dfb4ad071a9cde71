package kramercoup

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// TestWordsComplete: the game's catalog has every key in every language,
// each placing the same arguments as English does.
func TestWordsComplete(t *testing.T) {
	if err := (Rules{}).Words().Complete(); err != nil {
		t.Fatal(err)
	}
	if got := New().Words(); got != words {
		t.Errorf("the engine's catalog is not the package's")
	}
}

// TestFrenchMoves: moves written as French players write them read as the
// English canonical move (accents optional, case ignored, articles, "et",
// "tuile" and "jetons" skipped, the number before or after the colour).
func TestFrenchMoves(t *testing.T) {
	buy := &State{Phase: PhaseBuy}
	place := &State{Phase: PhasePlace}
	last := &State{Phase: PhaseLast}
	exchange := &State{Phase: PhaseExchange}
	cases := []struct {
		s    *State
		in   string
		want string // "" for a notation error
	}{
		{buy, "achète 2 rouge 1 bleu", "buy 2 red 1 blue"},
		{buy, "J’achète 2 jetons rouges et 1 jeton bleu", "buy 2 red 1 blue"},
		{buy, "j'achete 2 rouges, 1 bleu.", "buy 2 red 1 blue"},
		{buy, "ACHÈTE rouge bleu", "buy 1 red 1 blue"},
		{buy, "achète 4 verts", "buy 4 green"},
		{buy, "achète 2 j 1 o 1 violette", "buy 2 yellow 1 orange 1 violet"},
		{buy, "achat 3 jaunes", "buy 3 yellow"},
		{buy, "achète rien", "buy nothing"},
		{buy, "Je n’achète rien", "buy nothing"},
		{buy, "je n'achète aucun jeton", "buy nothing"},
		{buy, "achète 0", "buy nothing"},
		{buy, "Je passe", "buy nothing"},
		{buy, "passe mon tour", "buy nothing"},
		{buy, "pose rien", "place nothing"},
		{place, "pose bleu 7", "place blue 7"},
		{place, "Pose la tuile bleue 7", "place blue 7"},
		{place, "je pose le 7 bleu", "place blue 7"},
		{place, "pose j7", "place yellow 7"},
		{place, "pose jaune7", "place yellow 7"},
		{place, "joue vert 20", "place green 20"},
		{place, "je place le violet 12", "place violet 12"},
		{place, "pose b 7", "place blue 7"},
		{last, "je ne pose rien", "pass"},
		{last, "je ne pose aucune tuile", "pass"},
		{last, "pose rien", "pass"},
		{last, "passe", "pass"},
		{last, "Je passe !", "pass"},
		{last, "pose la tuile orange 3", "place orange 3"},
		{exchange, "défausse rouge 3 vert 12", "discard red 3 green 12"},
		{exchange, "defausse rouge 3 vert 12", "discard red 3 green 12"},
		{exchange, "je défausse le 12 vert et le 3 rouge", "discard red 3 green 12"},
		{exchange, "Défausse les tuiles rouge 3, bleu 1", "discard red 3 blue 1"},
		{exchange, "échange r3 g12", "discard red 3 green 12"},
		{exchange, "je remets mes tuiles jaune 1 et jaune 2", "discard yellow 1 yellow 2"},
		{exchange, "garde", "keep"},
		{exchange, "je garde tout", "keep"},
		{exchange, "Je garde mes tuiles", "keep"},
		{exchange, "je n’échange rien", "keep"},
		{exchange, "je n'echange rien", "keep"},
		{place, "pose rose 7", ""},
		{place, "pose bleu 21", ""},
		{place, "pose bleu 7 rouge 8", ""},
		{buy, "achète 2", ""},
		{buy, "vends 2 rouges", ""},
		{exchange, "défausse", ""},
		{exchange, "garde rouge 3", ""},
	}
	eng := New()
	for _, c := range cases {
		got, err := eng.Canonical(c.s, c.in)
		if c.want == "" {
			if re, ok := games.AsRuleError(err); !ok || re.Rule != games.NotationRule {
				t.Errorf("%q: want a notation error, got %q, %v", c.in, got, err)
			} else if fr := re.Reason.In("fr"); fr == re.Reason.In("en") || strings.HasPrefix(fr, "[") {
				t.Errorf("%q: the refusal in French is %q", c.in, fr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: canonical %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestNotationForms: every French form of a notation word is read as that
// word alone (no form is claimed by two words, none is an English word or
// alias of another meaning), its first form is how a move is written in
// French, and every word of the canonical notation has a French form.
func TestNotationForms(t *testing.T) {
	// Every word Parse reads in English, with the canonical word it means.
	english := map[string]string{"y": "yellow", "o": "orange", "r": "red", "v": "violet", "p": "violet", "purple": "violet",
		"b": "blue", "g": "green", "tiles": "tile", "tokens": "token"}
	var canonical []string
	for _, k := range words.Keys() {
		if w, ok := strings.CutPrefix(k, games.NotationPrefix); ok {
			canonical = append(canonical, w)
			english[w] = w
		}
	}
	// The words the moves of section 7 are made of.
	for _, w := range []string{"buy", "place", "pass", "discard", "keep", "nothing", "yellow", "orange", "red", "violet", "blue", "green"} {
		if !slices.Contains(canonical, w) {
			t.Errorf("the notation word %q has no notation.%s message", w, w)
		}
	}
	sameInFrench := []string{"orange", "violet"} // the French colour is the English word
	claimed := map[string]string{}
	fr := words.In("fr")
	for _, w := range canonical {
		forms, ok := words.Patterns("fr", games.NotationPrefix+w)
		if !ok || len(forms) != 1 {
			t.Fatalf("notation.%s has no French forms", w)
		}
		split := strings.Split(forms[0], "|")
		if got := fr.WriteMove(w); got != split[0] {
			t.Errorf("%q is written %q in French, want its first form %q", w, got, split[0])
		}
		if split[0] == w && !slices.Contains(sameInFrench, w) {
			t.Errorf("%q is written in English to a French player", w)
		}
		for _, form := range split {
			f := strings.Join(strings.Fields(games.FoldWord(form)), " ")
			if f == "" || f != games.FoldWord(strings.TrimSpace(form)) {
				t.Errorf("notation.%s: form %q is empty or badly spaced", w, form)
			}
			if other, ok := claimed[f]; ok && other != w {
				t.Errorf("the French form %q is both %q and %q", form, other, w)
			}
			claimed[f] = w
			if other, ok := english[f]; ok && other != w {
				t.Errorf("the French form %q of %q is the English word for %q", form, w, other)
			}
			if got := words.ReadMove(form); got != w {
				t.Errorf("the French form %q reads as %q, want %q", form, got, w)
			}
		}
	}
	// Reading is idempotent on canonical words: no form of one word is
	// another canonical word.
	for _, w := range canonical {
		if got := words.ReadMove(w); got != w {
			t.Errorf("the canonical word %q reads as %q", w, got)
		}
	}
}

// TestMovesWrittenInFrench, over states of random games (every phase): each
// legal move written in French (Words().In("fr").WriteMove) reads back
// (Canonical) as itself; each line of Choices written in French reads back
// as the line, and in a line with a range or a blank every notation word is
// written in French; the pending default too.
func TestMovesWrittenInFrench(t *testing.T) {
	eng := New()
	fr := eng.Words().In("fr")
	en := eng.Words().In("en")
	french := func(word string) bool {
		_, ok := words.Patterns("fr", games.NotationPrefix+word)
		return ok
	}
	checked := 0
	for i, s := range fuzzStates() {
		if s.Turn < 0 {
			continue
		}
		seat := games.Seat(s.Turn)
		lines := eng.Legal(s, seat)
		lines = append(lines, eng.Choices(s, seat)...)
		for _, p := range eng.Pending(s) {
			lines = append(lines, p.Default)
		}
		for _, line := range lines {
			if got := en.WriteMove(line); got != line {
				t.Errorf("state %d: %q written in English is %q", i, line, got)
			}
			written := fr.WriteMove(line)
			if strings.Contains(line, "…") || strings.Contains(line, "<") {
				in, out := strings.Fields(line), strings.Fields(written)
				for j, w := range in {
					if french(w) && out[j] == w && w != "orange" && w != "violet" {
						t.Errorf("state %d: %q in French is %q: %q is not translated", i, line, written, w)
					}
				}
				continue
			}
			back, err := eng.Canonical(s, written)
			if err != nil || back != line {
				t.Errorf("state %d (%s): %q written in French is %q, read back as %q, %v", i, s.Phase, line, written, back, err)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("only %d moves checked", checked)
	}
}

// TestRefusalsInFrench: a refusal is said in the player's language, with
// names, numbers and tiles in its words, the closest legal move written in
// French; the English is as it has always been.
func TestRefusalsInFrench(t *testing.T) {
	tb := newTable(t, "", tls(t, "yellow 1", "blue 10"), tls(t, "red 3", "green 12"))
	tb.cash(0, 250)
	cases := []struct {
		seat   int
		move   string
		rule   string
		en, fr string
	}{
		{1, "achète rien", "KC-8", "it is A's turn to buy (round 1)", "c’est à A d’acheter (manche 1)"},
		{0, "achète 3 rouges", "KC-9", "3 tokens cost 300 but you have 250 in cash",
			"3 jetons coûtent 300, mais vous n’avez que 250 en argent liquide (le coup permis le plus proche : « achète 2 rouge »)"},
		{0, "achète 5 verts", "KC-9", "with 2 players you may buy at most 4 tokens per buy phase, not 5",
			"à 2 joueurs, vous pouvez acheter au plus 4 jetons par phase d’achat, pas 5 (le coup permis le plus proche : « achète 2 vert »)"},
		{0, "pose bleu 10", "KC-9", "it is the buy phase: buy tokens (e.g. buy 2 red) or buy nothing",
			"c’est la phase d’achat : achetez des jetons (par exemple achète 2 rouge) ou rien (achète rien) (le coup permis le plus proche : « achète 2 bleu »)"}, //nolint:misspell // French
		{0, "achète 2 roses", games.NotationRule, "\"roses\" is not a colour (yellow, orange, red, violet, blue, green)",
			"« roses » n’est pas une couleur (jaune, orange, rouge, violet, bleu, vert) (le coup permis le plus proche : « achète 2 rouge »)"},
	}
	eng := New()
	for _, c := range cases {
		_, err := eng.Decide(tb.s, games.Seat(c.seat), c.move, games.Seed{}.Rand(0))
		err = eng.Suggest(tb.s, games.Seat(c.seat), c.move, err)
		re, ok := games.AsRuleError(err)
		if !ok || re.Rule != c.rule {
			t.Errorf("%q: %v, want a %s refusal", c.move, err, c.rule)
			continue
		}
		for _, lang := range games.Languages() {
			if err := words.In(lang).Check(re.Reason.Text); err != nil {
				t.Errorf("%q in %s: %v", c.move, lang, err)
			}
		}
		if got := re.Reason.In("en"); got != c.en {
			t.Errorf("%q in English:\n got %q\nwant %q", c.move, got, c.en)
		}
		if got := games.Explain(err, "fr"); got != c.fr {
			t.Errorf("%q in French:\n got %q\nwant %q", c.move, got, c.fr)
		}
	}

	// In the place phase: a tile the mover does not hold, a tile already on
	// the board, the example naming the mover's own tile.
	tb.cash(0, 3000)
	tb.buyNothing()
	tb.board(tl(t, "violet 5"))
	for _, c := range []struct {
		move, rule, en, fr string
	}{
		{"pose vert 12", "KC-10", "you do not hold green 12", "vous n’avez pas la tuile vert 12"},
		{"pose violet 5", "KC-1", "violet 5 is already on the board", "la tuile violet 5 est déjà sur le plan de jeu"},
		{"garde", "KC-10", "it is the place phase and placing is mandatory while you hold a tile: place one of your tiles (e.g. place yellow 1)",
			"c’est la phase de pose, et poser est obligatoire tant que vous avez une tuile : posez l’une de vos tuiles (par exemple pose jaune 1)"}, //nolint:misspell // French
	} {
		_, err := eng.Decide(tb.s, 0, c.move, games.Seed{}.Rand(0))
		re, ok := games.AsRuleError(err)
		if !ok {
			t.Errorf("%q: %v, want a %s refusal", c.move, err, c.rule)
			continue
		}
		if re.Rule != c.rule || re.Reason.In("en") != c.en || re.Reason.In("fr") != c.fr {
			t.Errorf("%q: %v (fr %q), want %s %q / %q", c.move, err, re.Reason.In("fr"), c.rule, c.en, c.fr)
		}
	}
}

// TestSummaries: the result's summary and the board's first lines in
// English (as results and records have always held them) and in French:
// the last tiles after a Coup, a win shared three ways.
func TestSummaries(t *testing.T) {
	last := newTable(t, "", tls(t, "blue 10", "y1"), tls(t, "r1", "r2"))
	last.row(blue, 1, 9)
	last.buyNothing()
	last.play(0, "place blue 10")
	last.expect(1, "last")

	tie := newTable(t, "", tls(t, "g20"), tls(t, "g18"), tls(t, "g16"))
	tie.s.Phase, tie.s.Turn = PhaseOver, -1 // every capital 3000, every cash 3000

	cases := []struct {
		name             string
		s                *State
		en, fr           string // the result's summary
		boardEN, boardFR string // a line of the board
	}{
		{"last tile", last.s, "Coup by A: B may place a last tile", "« Coup » fait par A : B peut poser une dernière tuile",
			"Coup by A: B may place a last tile.", "« Coup » fait par A : B peut poser une dernière tuile."},
		{"three-way tie", tie.s, "A and B and C share the win with a capital of 3000", "A, B et C se partagent la victoire avec un capital de 3000",
			"A, B and C share the win with a capital of 3000.", "A, B et C se partagent la victoire avec un capital de 3000."},
	}
	eng := New()
	for _, c := range cases {
		res := eng.Result(c.s)
		if got := res.Summary.In("en"); got != c.en {
			t.Errorf("%s: summary %q, want %q", c.name, got, c.en)
		}
		if got := res.Summary.In("fr"); got != c.fr {
			t.Errorf("%s: résumé %q, want %q", c.name, got, c.fr)
		}
		view, err := eng.View(c.s, games.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		var v View
		if err := json.Unmarshal(view, &v); err != nil || v.Summary.In("en") != c.en || v.Summary.In("fr") != c.fr {
			t.Errorf("%s: the view's summary %s (%v)", c.name, view, err)
		}
		b, err := eng.Board(view)
		if err != nil {
			t.Fatal(err)
		}
		for lang, want := range map[string]string{"en": c.boardEN, "fr": c.boardFR} {
			if lines := b.Tell(words.In(lang)); !slices.Contains(lines, want) {
				t.Errorf("%s: the board in %s has no line %q:\n%s", c.name, lang, want, strings.Join(lines, "\n"))
			}
		}
	}
}

package coupage

import (
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// The game's catalog has every key in every language, each placing the
// same arguments as English, and every option's words.
func TestWordsComplete(t *testing.T) {
	w := Rules{}.Words()
	if err := w.Complete(); err != nil {
		t.Fatal(err)
	}
	for _, lang := range games.Languages() {
		for _, o := range (Rules{}).Info().Options {
			if err := o.Check(w.In(lang)); err != nil {
				t.Errorf("%s: %v", lang, err)
			}
		}
	}
}

// keyLiteral is a string literal of the code that names a message of the
// catalog, or the start of one ("refusal.parse_", "state.").
var keyLiteral = regexp.MustCompile(`^(?:refusal|said|summary|card|form|payment|recipe|state|option|todo|notation)\.[^"]*$`)

// Every key the code names is in every language's message file; a literal
// the code completes ("refusal.parse_" + what) starts at least one key.
func TestEveryKeyTheCodeNamesIsInTheCatalog(t *testing.T) {
	named := gametest.KeysInSource(t, ".", keyLiteral)
	if len(named) < 50 {
		t.Fatalf("found %d keys in the code: the pattern is wrong", len(named))
	}
	keys := words.Keys()
	for _, k := range slices.Sorted(maps.Keys(named)) {
		if slices.Contains(keys, k) {
			for _, lang := range games.Languages() {
				if _, ok := words.Patterns(lang, k); !ok {
					t.Errorf("the code names %q, which is not in %s", k, lang)
				}
			}
			continue
		}
		if !slices.ContainsFunc(keys, func(key string) bool {
			return strings.HasPrefix(key, k) && (strings.HasSuffix(k, ".") || strings.HasSuffix(k, "_") || strings.HasPrefix(key[len(k):], "."))
		}) {
			t.Errorf("the code names %q, which is no message and starts none", k)
		}
	}
}

// A refusal gives its reason in the reader's language, with the card,
// player and barrel names placed as that language writes them.
func TestRefusalsInEachLanguage(t *testing.T) {
	cases := []struct {
		name  string
		setup tableSetup
		drawn bool
		seat  games.Seat
		move  string
		rule  string
		en    string
		fr    string
	}{
		{"not your turn", tableSetup{}, false, bob, "draw", "CP-15",
			"it is Ana's turn, not yours",
			"c’est au tour d’Ana, pas au vôtre"},
		{"not your turn, a consonant", tableSetup{active: bob}, false, cleo, "draw", "CP-15",
			"it is Bob's turn, not yours",
			"c’est au tour de Bob, pas au vôtre"},
		{"an action before the draw", tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}}, false, ana, "discard mac1", "CP-4",
			"first draw a card: draw (top of the deck) or draw market 1 or 2",
			"piochez d’abord une carte : « piocher » (le dessus de la pioche) ou « piocher marché 1 » ou « 2 »"},
		{"half a recipe", tableSetup{seats: []seatSetup{{hand: []string{"gar2"}}}}, true, ana, "élaborer rouge 1 Garnatxa 2", "CP-8",
			"all the grapes of a Rouge (2 red) are put on the barrel in one action, not 1 of them",
			"toutes les cartes Cépage d’un Rouge (2 cépages rouges) se posent en une seule action, pas 1 seulement"},
		{"not a recipe", tableSetup{seats: []seatSetup{{hand: []string{"gar2", "mac1"}}}}, true, ana, "make cava blanc 1 gar2 mac1", "CP-8",
			"Macabeu ★, Garnatxa ★★ is not a Cava blanc recipe (3 white of different varieties)",
			"Macabeu ★, Garnatxa ★★ : ce n’est pas la recette d’un Cava blanc (3 cépages blancs de variétés différentes)"},
		{"a card too many", tableSetup{seats: []seatSetup{{hand: []string{"mac2", "par1"}, barrels: map[int]barrelSetup{
			1: {wine: "blanc", grapes: []string{"xar1", "par2"}, time: []string{"time"}}}}}}, true, ana, "mettre en bouteille 1 mac2 par1", "CP-43",
			"Parellada ★ is not needed: the other cards already make 2★ of the 2★ required",
			"la carte Parellada ★ est de trop : les autres cartes font déjà 2★ des 2★ demandées"},
		{"too few stars", tableSetup{seats: []seatSetup{{hand: []string{"mac1"}, barrels: map[int]barrelSetup{
			1: {wine: "blanc", grapes: []string{"xar1", "par2"}}}}}}, true, ana, "temps 1 macabeu 1", "CP-9",
			"Time from stars needs at least 3★, and Macabeu ★ make only 1★",
			"une carte Temps payée en étoiles demande au moins 3★ ; les cartes proposées (Macabeu ★) n’en font que 1"},
		{"no Time card to discard", tableSetup{seats: []seatSetup{{hand: []string{"mac1"}}}}, true, ana, "défausser temps", "CP-20",
			"you hold no time to discard",
			"vous n’avez pas la carte Temps en main pour la défausser"},
		{"a Vin piqué on an empty barrel", tableSetup{seats: []seatSetup{{hand: []string{"vin pique"}}}}, true, ana, "vin piqué bob 2", "CP-24",
			"Bob's barrel 2 is empty: a Vin piqué goes on a barrel in production (CP-14)",
			"le tonneau 2 de Bob est vide : un Vin piqué se pose sur un tonneau en production (CP-14)"},
		{"the last grape", tableSetup{seats: []seatSetup{{hand: []string{"evaporation"}}, {}, {barrels: map[int]barrelSetup{
			3: {wine: "rose", grapes: []string{"ull1"}}}}}}, true, ana, "évaporation cleo 3 ull1", "CP-28",
			"Ull de llebre ★ is the last grape card of Cleo's barrel 3 and may not be removed",
			"la carte Ull de llebre ★ est le dernier cépage du tonneau 3 de Cleo et ne peut pas être retirée"},
		{"a barrel number out of range", tableSetup{}, true, ana, "élaborer rouge 9 gar2", games.NotationRule,
			`"make rouge 9 gar2": expected a barrel number 1 to 4`,
			"« élaborer rouge 9 gar2 » : il manque un numéro de tonneau de 1 à 4"},
		{"an unknown move", tableSetup{}, true, ana, "voler tout", games.NotationRule,
			`"voler tout": unknown move; moves are draw, make, repair, time, bottle, discard, a special's name, pick, take, age, recover or end`,
			"« voler tout » : coup inconnu ; les coups sont piocher, élaborer, réparer, temps, mettre en bouteille, défausser, le nom d’une carte Spéciale, choisir, prendre, vieillir, récupérer ou fin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.setup.market = [2]string{"ull3", "par3"}
			c.setup.top = []string{"ull2"}
			tb := c.setup.build(t)
			if c.drawn {
				tb.do(tb.s.Turn.Seat, "draw")
			}
			_, err := New().Decide(tb.s, c.seat, c.move, rand.New(rand.NewPCG(1, 2)))
			re, ok := games.AsRuleError(err)
			if !ok {
				t.Fatalf("%q: %v, want a rule error", c.move, err)
			}
			if re.Rule != c.rule {
				t.Errorf("%q refused by %s (%s), want %s", c.move, re.Rule, re.Reason, c.rule)
			}
			for lang, want := range map[string]string{"en": c.en, "fr": c.fr} {
				if err := words.In(lang).Check(re.Reason.Text); err != nil {
					t.Errorf("%s: %v", lang, err)
				}
				if got := re.Reason.In(lang); got != want {
					t.Errorf("in %s: %q, want %q", lang, got, want)
				}
			}
		})
	}
}

// A refusal suggests the closest legal move in the reader's words.
func TestRefusalSuggestsInFrench(t *testing.T) {
	tb := tableSetup{seats: []seatSetup{{hand: []string{"gar2", "tre1"}}}, market: [2]string{"ull3", "par3"}}.build(t)
	tb.do(ana, "draw")
	_, err := New().Decide(tb.s, ana, "élaborer rouge 7 garnatxa 2 trepat 1", rand.New(rand.NewPCG(1, 2)))
	err = New().Suggest(tb.s, ana, "élaborer rouge 7 garnatxa 2 trepat 1", err)
	fr := games.Explain(err, "fr")
	if want := "« élaborer rouge 7 garnatxa 2 trepat 1 » : il manque un numéro de tonneau de 1 à 4"; !strings.HasPrefix(fr, want) {
		t.Errorf("%q does not start with %q", fr, want)
	}
	if !strings.Contains(fr, "élaborer rouge 4 Garnatxa ★★ Trepat ★") {
		t.Errorf("%q suggests no move in French", fr)
	}
	if en := games.Explain(err, "en"); !strings.Contains(en, "make rouge 4 Garnatxa ★★ Trepat ★") || strings.Contains(en, "élaborer") {
		t.Errorf("%q: the English refusal is not in English", en)
	}
}

// A French player writes moves as French players say them (accents
// optional, case ignored); each reads as the English canonical move.
func TestFrenchMoves(t *testing.T) {
	tb := tableSetup{seats: []seatSetup{{}, {}, {}}, market: [2]string{"ull3", "par3"}}.build(t)
	tb.s.Harvest = &Harvest{Cards: []string{"time", "mac3", "vin pique"}, Order: []games.Seat{0, 1, 2}}
	eng := New()
	cases := []struct{ fr, want string }{
		{"piocher", "draw"},
		{"Je pioche.", "draw"},
		{"piocher dans la pioche", "draw"},
		{"pioche marché 2", "draw market 2"},
		{"piocher du marche 1", "draw market 1"},
		{"élaborer rouge 1 Garnatxa 2 Trepat 1", "make rouge 1 Garnatxa ★★ Trepat ★"},
		{"Elabore vin rouge 1 gar2 tre1", "make rouge 1 Garnatxa ★★ Trepat ★"},
		{"élaborer vin rosé 2 garnatxa ★ macabeu ★", "make rosé 2 Macabeu ★ Garnatxa ★"},
		{"élaborer cava blanc 3 mac1 xar2 par1", "make cava blanc 3 Macabeu ★ Xarel·lo ★★ Parellada ★"},
		{"réparer 2 xarel·lo 1", "repair 2 Xarel·lo ★"},
		{"REPARE 2 xar1", "repair 2 Xarel·lo ★"},
		{"temps 1", "time 1"},
		{"temps 1 macabeu 2 trepat 1", "time 1 Macabeu ★★ Trepat ★"},
		{"mettre en bouteille 1 parellada 2", "bottle 1 Parellada ★★"},
		{"Mets en bouteille 3 tre2 gar1", "bottle 3 Garnatxa ★ Trepat ★★"},
		{"embouteiller 3 tre2 gar1", "bottle 3 Garnatxa ★ Trepat ★★"},
		{"défausser Vin piqué", "discard Vin piqué"},
		{"defausse carte temps", "discard time"},
		{"défausser temps", "discard time"},
		{"vin jeune 2", "vin jeune 2"},
		{"vol de carte bob", "vol de carte bob"},
		{"vin piqué cleo 4", "vin piqué cleo 4"},
		{"œnologue 3", "œnologue ana 3"},
		{"récolte", "récolte"},
		{"évaporation bob 1 garnatxa 2", "évaporation bob 1 Garnatxa ★★"},
		{"vol de temps bob 2 face cachée 1", "vol de temps bob 2 facedown 1"},
		{"Vol de temps bob 2 temps 1", "vol de temps bob 2 time 1"},
		{"vol de temps bob 2 cachee 1", "vol de temps bob 2 facedown 1"},
		{"choisir 2", "pick Macabeu ★★★"},
		{"je choisis vin piqué", "pick Vin piqué"},
		{"choisir temps", "pick time"},
		{"prendre marché 1", "take market 1"},
		{"prendre rien", "take nothing"},
		{"vieillir 2 vin pique", "age 2 Vin piqué"},
		{"vieillir rien", "age nothing"},
		{"récupérer face cachée xar2", "recover facedown Xarel·lo ★★"},
		{"recuperer temps Xarel·lo ★★", "recover time Xarel·lo ★★"},
		{"Fin.", "end"},
		{"fin du tour", "end"},
		{"je termine", "end"},
	}
	for _, c := range cases {
		got, err := eng.Canonical(tb.s, c.fr)
		if err != nil || got != c.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", c.fr, got, err, c.want)
		}
	}
}

// Every legal move and every line of choices of random positions, written
// in French, reads back as itself (a line with blanks, word for word);
// every word of a line is a word of the notation (so it is translated), a
// number, a card's or a wine's name or a player's.
func TestFrenchNotationRoundTrip(t *testing.T) {
	eng := New()
	fr := eng.Words().In("fr")
	moves, lines := 0, 0
	for g := range 6 {
		var seed games.Seed
		seed[0], seed[1] = byte(g), 0xf4
		pick := seed.Rand(1 << 40)
		players := []string{"Ana", "Bob", "Cléo", "Dan"}[:2+g%3]
		evs, err := eng.Setup(nil, players, seed.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		s, err := games.Fold(eng, eng.Info().Rules, evs)
		if err != nil {
			t.Fatal(err)
		}
		for step := range 200 {
			pend := eng.Pending(s)
			if len(pend) == 0 {
				break
			}
			p := pend[pick.IntN(len(pend))]
			legal := eng.Legal(s, p.Seat)
			for _, m := range legal {
				w := fr.WriteMove(m)
				if got, err := eng.Canonical(s, w); err != nil || got != m {
					t.Fatalf("legal %q written in French %q reads as %q, %v", m, w, got, err)
				}
				moves++
			}
			st := s.(*State)
			for _, line := range eng.Choices(s, p.Seat) {
				w := fr.WriteMove(line)
				if back := eng.Words().ReadMove(w); games.FoldWord(back) != games.FoldWord(line) {
					t.Errorf("choice %q written in French %q reads back as %q", line, w, back)
				}
				if !strings.Contains(line, "<") {
					if got, err := eng.Canonical(s, w); err != nil || got != line {
						t.Errorf("choice %q written in French %q reads as %q, %v", line, w, got, err)
					}
				}
				if word := untranslated(st, line); word != "" {
					t.Errorf("choice %q has %q, which is no word of the notation", line, word)
				}
				lines++
			}
			out, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(step+len(evs)))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range out {
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if moves < 1000 || lines < 300 {
		t.Fatalf("checked %d moves and %d lines: too few", moves, lines)
	}
}

// untranslated is the first word of a canonical line that is neither a
// word of the notation (one with a message "notation.<word>", or a word of
// one of several words), nor a number, nor a word of a card's name, nor a
// player as the notation writes one, nor a word of a wine's name (card and
// wine names are the game's, the same in every language): "" when there
// is none.
func untranslated(s *State, line string) string {
	known := map[string]bool{}
	for _, k := range words.Keys() {
		if w, ok := strings.CutPrefix(k, games.NotationPrefix); ok {
			for f := range strings.FieldsSeq(w) {
				known[f] = true
			}
		}
	}
	names := slices.Collect(maps.Values(s.aid.names))
	for _, w := range s.aid.Wines {
		names = append(names, s.aid.wineName(w.Code))
	}
	for _, n := range names {
		for f := range strings.FieldsSeq(n) {
			known[f] = true
		}
	}
	for seat := range s.Players {
		known[s.seatName(games.Seat(seat))] = true
	}
	for f := range strings.FieldsSeq(line) {
		if _, err := strconv.Atoi(f); err == nil || known[f] {
			continue
		}
		return f
	}
	return ""
}

// The words of the notation never collide: no form of any language stands
// for two words, and reading a move leaves the names of the cards and
// wines (and their English aliases) as Parse reads them.
func TestNotationFormsDoNotCollide(t *testing.T) {
	owner := map[string]string{}
	for _, k := range words.Keys() {
		word, ok := strings.CutPrefix(k, games.NotationPrefix)
		if !ok {
			continue
		}
		for _, lang := range games.Languages() {
			ps, ok := words.Patterns(lang, k)
			if !ok || len(ps) != 1 {
				t.Fatalf("%s: %s has %d forms", lang, k, len(ps))
			}
			for f := range strings.SplitSeq(ps[0], "|") {
				f = strings.Join(strings.Fields(games.FoldWord(f)), " ")
				if o, taken := owner[f]; taken && o != word {
					t.Errorf("%q stands for %q and %q", f, o, word)
				}
				owner[f] = word
			}
		}
	}
	a := NewRules().aids["house"]
	for _, idx := range []phrases{a.cardPhrases(), a.winePhrases()} {
		for _, ps := range idx {
			for _, p := range ps {
				name := strings.Join(p.words, " ")
				if got := normalize(words.ReadMove(name)); got != name {
					t.Errorf("reading %q gives %q: a word of the notation hides a name", name, got)
				}
			}
		}
	}
}

// The French rules page lists the French words of the notation as the
// catalog reads them, and both pages explain every blank of the choices
// in their language.
func TestRulesPagesListTheNotation(t *testing.T) {
	page := RulesPage("fr")
	row := regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| (.+) \\|$")
	listed := 0
	for _, m := range row.FindAllStringSubmatch(page, -1) {
		ps, ok := words.Patterns("fr", games.NotationPrefix+m[1])
		if !ok {
			continue
		}
		var forms []string
		for _, f := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[2], -1) {
			forms = append(forms, f[1])
		}
		if want := strings.Split(ps[0], "|"); !slices.Equal(forms, want) {
			t.Errorf("RULES.fr.md lists %q for %s, the catalog %q", forms, m[1], want)
		}
		listed++
	}
	if listed < 15 {
		t.Errorf("RULES.fr.md lists the French forms of %d words of the notation", listed)
	}
	for _, k := range words.Keys() {
		if !strings.HasPrefix(k, games.NotationPrefix+"<") {
			continue
		}
		for _, lang := range games.Languages() {
			ps, _ := words.Patterns(lang, k)
			first, _, _ := strings.Cut(ps[0], "|")
			if !strings.Contains(RulesPage(lang), "| `"+first+"` |") {
				t.Errorf("the %s rules page does not explain the blank %s", lang, first)
			}
		}
	}
}

// French writes "d’" for "de" before a name that begins with a vowel
// sound; English says "Ana's" either way.
func TestOfName(t *testing.T) {
	for _, c := range []struct{ name, en, fr string }{
		{"Ana", "Ana's", "d’Ana"},
		{"Bob", "Bob's", "de Bob"},
		{"Élodie", "Élodie's", "d’Élodie"},
		{"Œdipe", "Œdipe's", "d’Œdipe"},
		{"Yves", "Yves's", "d’Yves"},
		{"Yann", "Yann's", "de Yann"},
		{"Hugo", "Hugo's", "de Hugo"},
		{"42", "42's", "de 42"},
	} {
		for lang, want := range map[string]string{"en": c.en, "fr": c.fr} {
			if got := words.In(lang).Must(ofName(c.name)); got != want {
				t.Errorf("%s in %s: %q, want %q", c.name, lang, got, want)
			}
		}
	}
}

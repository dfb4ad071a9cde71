package coyote

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// Every key of the catalog is in every language, placing the same
// arguments as in English.
func TestWords_Complete(t *testing.T) {
	if err := (Rules{}).Words().Complete(); err != nil {
		t.Fatal(err)
	}
}

// Every refusal and list of moves the code names is in the catalog, and
// every refusal of the catalog is one the code can give.
func TestWords_RefusalKeysAreTheCodes(t *testing.T) {
	used := gametest.KeysInSource(t, ".", regexp.MustCompile(`^(refusal|moves)\.[a-z_]+$`))
	if len(used) < 20 {
		t.Fatalf("found %d refusal keys in the code: the pattern is wrong", len(used))
	}
	for k := range used {
		if _, ok := words.Patterns(games.English, k); !ok {
			t.Errorf("the code says %q, which the catalog does not have", k)
		}
	}
	shared := games.BoardWords().Keys()
	for _, k := range words.Keys() {
		if (strings.HasPrefix(k, "refusal.") || strings.HasPrefix(k, "moves.")) && !used[k] && !slices.Contains(shared, k) {
			t.Errorf("the catalog has %q, which the code never says", k)
		}
	}
}

// firstForm is how lang writes a notation word to a player.
func firstForm(t *testing.T, lang, word string) string {
	t.Helper()
	p, ok := words.Patterns(lang, games.NotationPrefix+word)
	if !ok {
		t.Fatalf("no notation word %q in %s", word, lang)
	}
	first, _, _ := strings.Cut(p[0], "|")
	return first
}

// notationWords are the canonical words the catalog names.
func notationWords() []string {
	var out []string
	for _, k := range words.Keys() {
		if w, ok := strings.CutPrefix(k, games.NotationPrefix); ok {
			out = append(out, w)
		}
	}
	return out
}

// The forms of the notation words, in every language, each stand for one
// word only (accents and case folded), and none is a number, a feather's
// face or another English word of the game's moves.
func TestNotation_FormsDoNotCollide(t *testing.T) {
	owner := map[string]string{}
	for _, lang := range games.Languages() {
		for _, w := range notationWords() {
			p, _ := words.Patterns(lang, games.NotationPrefix+w)
			for form := range strings.SplitSeq(p[0], "|") {
				f := strings.Join(strings.Fields(games.FoldWord(form)), " ")
				if f == "" {
					t.Errorf("%s: an empty form of %q", lang, w)
					continue
				}
				if other, taken := owner[f]; taken && other != w {
					t.Errorf("%s: %q is a form of %q and of %q", lang, form, other, w)
				}
				owner[f] = w
				if _, isFace := normalFace(f); isFace && f != w || isNumber(f) {
					t.Errorf("%s: %q, a form of %q, is a feather's face or a number", lang, form, w)
				}
			}
		}
	}
	// The English words Parse reads besides the canonical ones.
	for _, w := range []string{"call", "coyote!", "?", "max0", "max→0", "-max", "x2", "×2"} {
		if other, taken := owner[w]; taken {
			t.Errorf("%q is read as %q", w, other)
		}
	}
	if len(owner) < 30 {
		t.Errorf("only %d forms: %v", len(owner), owner)
	}
}

// A variant token's name on boards and in descriptions is the word a
// player writes to flip it.
func TestNotation_TokenNamesAreTheirMoveWords(t *testing.T) {
	for _, lang := range games.Languages() {
		for _, kind := range tokenKinds() {
			if name, form := words.In(lang).Must(games.T("variant."+kind)), firstForm(t, lang, kind); name != form {
				t.Errorf("%s: the %s token is called %q but written %q", lang, kind, name, form)
			}
		}
	}
}

// The refusals that show how to write a move show it in the reader's
// words: every notation word of the English text, in its first form.
func TestNotation_RefusalsShowMovesInTheirLanguage(t *testing.T) {
	fields := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" ,:«»", r) })
	}
	for _, key := range []string{"moves.basic", "moves.variant", "refusal.bid_form", "refusal.declare_form"} {
		en, _ := words.Patterns(games.English, key)
		var used []string
		for _, f := range fields(en[0]) {
			if slices.Contains(notationWords(), f) && !slices.Contains(used, f) {
				used = append(used, f)
			}
		}
		if len(used) == 0 {
			t.Fatalf("%s names no notation word: %q", key, en[0])
		}
		for _, lang := range games.Languages()[1:] {
			p, _ := words.Patterns(lang, key)
			said := fields(p[0])
			for _, w := range used {
				if form := firstForm(t, lang, w); !slices.Contains(said, form) {
					t.Errorf("%s in %s does not write %q as %q: %q", key, lang, w, form, p[0])
				}
				if form := firstForm(t, lang, w); form != w && slices.Contains(said, w) {
					t.Errorf("%s in %s says the English %q: %q", key, lang, w, p[0])
				}
			}
		}
	}
}

// French players write moves as they say them (rules section 7 and the
// French words of RULES.fr.md): each line is read as the English
// canonical move, accents optional and case ignored.
func TestNotation_FrenchMoves(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"})
	eng := New()
	for _, tc := range []struct{ fr, want string }{
		{"enchère 14", "bid 14"},
		{"Enchère 14", "bid 14"},
		{"ENCHERE 14", "bid 14"},
		{"enchérir 9", "bid 9"},
		{"J’enchéris 9", "bid 9"},
		{"j'annonce 14", "bid 14"},
		{"J’annonce 14.", "bid 14"},
		{"annonce 3", "bid 3"},
		{"je dis 20", "bid 20"},
		{"14", "bid 14"},
		{"coyote", "coyote"},
		{"Coyote !", "coyote"},
		{"COYOTE!", "coyote"},
		{"je dis coyote", "coyote"},
		{"je conteste", "coyote"},
		{"contester", "coyote"},
		{"révéler", "reveal"},
		{"Reveler", "reveal"},
		{"je découvre", "reveal"},
		{"inverser", "reverse"},
		{"j'inverse", "reverse"},
		{"J’inverse", "reverse"},
		{"sauter", "skip"},
		{"je passe", "skip"},
		{"Je saute.", "skip"},
		{"remplacer", "replace"},
		{"je remplace", "replace"},
		{"deviner 7", "declare 7"},
		{"Deviner NUIT", "declare night"},
		{"deviner nuit", "declare night"},
		{"je devine -5", "declare -5"},
		{"deviner −5", "declare -5"},
		{"devine +07", "declare 7"},
		{"deviner x2", "declare ×2"},
		{"deviner ×2", "declare ×2"},
		{"nommer max0", "declare max→0"},
		{"je nomme ?", "declare ?"},
		{"deviner -max", "declare -max"},
	} {
		got, err := eng.Canonical(tb.s, tc.fr)
		if err != nil || got != tc.want {
			t.Errorf("%q is read as %q (%v), want %q", tc.fr, got, err, tc.want)
		}
	}
}

// A French player's refused move is explained in French, quoting what
// they wrote in their words, with the closest legal move in French; an
// English player reads the same refusal in English.
func TestNotation_FrenchRefusals(t *testing.T) {
	eng := New()
	off := rig(t, 3, nil)
	on := rig(t, 3, games.Options{OptVariantTokens: "on"})
	on.play("Ana", "bid 12")
	for _, tc := range []struct {
		name     string
		s        State
		seat     games.Seat
		move     string
		rule     string
		fr, en   string
		suggests string
	}{
		{"a bid of 0", off.s, 0, "enchère 0", "CY-6",
			"une enchère est un nombre entier, au moins 1 (le coup permis le plus proche : « enchère 1 »)",
			"a bid is a whole number of at least 1 (the closest move you can make: “bid 1”)", "bid 1"},
		{"no bid to dispute", off.s, 0, "Coyote !", "CY-6",
			"il n’y a pas encore d’enchère à contester par « Coyote ! » : annoncez au moins 1 (le coup permis le plus proche : « enchère 1 »)",
			"there is no bid to call \"Coyote!\" against yet: bid at least 1 (the closest move you can make: “bid 1”)", "bid 1"},
		{"a bid too low", on.s, 1, "j'annonce 12", "CY-6",
			"il faut annoncer plus que l’enchère en cours, 12 (le coup permis le plus proche : « enchère 13 »)",
			"a bid must be higher than the current bid, 12 (the closest move you can make: “bid 13”)", "bid 13"},
		{"not a move, quoted in its words", on.s, 1, "révéler maintenant", games.NotationRule,
			"« révéler maintenant » n’est pas un coup de Coyote : envoyez enchère <n>, coyote, révéler, inverser, sauter, remplacer ou deviner <face> (le coup permis le plus proche : « révéler »)",
			"\"reveal maintenant\" is not a Coyote move: send bid <n>, coyote, reveal, reverse, skip, replace or declare <face> (the closest move you can make: “reveal”)", "reveal"},
		{"a face the deck lacks", on.s, 1, "deviner 11", "CY-19",
			"ces plumes n’ont pas de face « 11 » (faces : 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, -5, -10, ?, max→0, -max, ×2, nuit) (le coup permis le plus proche : « deviner 10 »)",
			"this deck has no feather \"11\" (faces: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, -5, -10, ?, max→0, -max, ×2, night) (the closest move you can make: “declare 10”)", "declare 10"},
		{"not a face", on.s, 1, "deviner lune", games.NotationRule,
			"« lune » n’est pas une face de plume : un nombre, ou ?, max→0, -max, ×2, nuit (le coup permis le plus proche : « deviner ? »)",
			"\"lune\" is not a feather face: a number, or ?, max→0, -max, ×2, night (the closest move you can make: “declare ?”)", "declare ?"},
		{"out of turn", on.s, 0, "enchère 20", "CY-15", "c’est à Bob de jouer", "it is Bob's turn", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := eng.Decide(tc.s, tc.seat, tc.move, rand.New(rand.NewPCG(1, 2)))
			err = eng.Suggest(tc.s, tc.seat, tc.move, err)
			re, ok := games.AsRuleError(err)
			if !ok || re.Rule != tc.rule {
				t.Fatalf("%q: %v, want a refusal citing %s", tc.move, err, tc.rule)
			}
			checkReason(t, re)
			if re.Suggest != tc.suggests {
				t.Errorf("suggests %q, want %q", re.Suggest, tc.suggests)
			}
			if got := games.Explain(err, "fr"); got != tc.fr {
				t.Errorf("in French:  %q\nwant       %q", got, tc.fr)
			}
			if got := games.Explain(err, games.English); got != tc.en {
				t.Errorf("in English: %q\nwant       %q", got, tc.en)
			}
		})
	}
}

// Over random states of random games: every legal move written in French
// is read back as itself, and so is every line of the choices (a line
// with a range or a blank is read back word for word, its notation words
// all in French).
func TestNotation_FrenchRoundTrip(t *testing.T) {
	eng := New()
	fr := words.In("fr")
	english := map[string]bool{}
	for _, w := range notationWords() {
		if firstForm(t, "fr", w) != w {
			english[w] = true
		}
	}
	checked := 0
	for g := range 12 {
		rng := rand.New(rand.NewPCG(uint64(g), 33))
		opts := games.Options{OptVariantTokens: []string{"on", "off"}[g%2], OptDeck: deckNames()[g/2%2]}
		players := fiveNames[:3+g%4]
		evs, err := eng.Setup(opts, players, rng)
		if err != nil {
			t.Fatal(err)
		}
		s, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			pending := eng.Pending(s)
			if len(pending) == 0 || step > 400 {
				break
			}
			seat := pending[0].Seat
			legal := eng.Legal(s, seat)
			// Every move but the bids in the middle of their range, which
			// are written alike.
			for i, m := range legal {
				if strings.HasPrefix(m, "bid ") && i > 8 && i < len(legal)-3 && i%17 != 0 {
					continue
				}
				written := fr.WriteMove(m)
				for f := range strings.FieldsSeq(written) {
					if english[f] {
						t.Fatalf("%q is written %q in French", m, written)
					}
				}
				back, err := eng.Canonical(s, written)
				if err != nil || back != m {
					t.Fatalf("%q, written %q in French, is read back as %q (%v)", m, written, back, err)
				}
				checked++
			}
			for _, line := range eng.Choices(s, seat) {
				written := fr.WriteMove(line)
				for f := range strings.FieldsSeq(written) {
					if english[f] {
						t.Fatalf("the choice %q is written %q in French", line, written)
					}
				}
				if back := words.ReadMove(written); back != line {
					t.Fatalf("the choice %q, written %q in French, is read back as %q", line, written, back)
				}
				if strings.Contains(line, "…") || strings.Contains(line, "<") {
					continue
				}
				if back, err := eng.Canonical(s, written); err != nil || back != line {
					t.Fatalf("the choice %q, written %q in French, is read back as %q (%v)", line, written, back, err)
				}
			}
			if !gametest.CheckChoices(t, eng, s, seat) {
				t.FailNow()
			}
			move := legal[rng.IntN(len(legal))]
			if low := slices.IndexFunc(legal, func(m string) bool { return strings.HasPrefix(m, "bid ") }); low >= 0 && rng.IntN(3) > 0 {
				n, _ := strconv.Atoi(strings.TrimPrefix(legal[low], "bid "))
				move = "bid " + strconv.Itoa(n+rng.IntN(4)) // bid as people do, so that rounds end
				if !slices.Contains(legal, move) {
					move = legal[low]
				}
			}
			out, err := eng.Decide(s, seat, fr.WriteMove(move), rng)
			if err != nil {
				t.Fatalf("%q in French: %v", fr.WriteMove(move), err)
			}
			for _, e := range out {
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d moves checked", checked)
	}
}

// The French rules page lists every French form of the notation (section
// 7, "Les mots français de la notation"), and its list of choices is the
// one a French player is shown.
func TestRulesPage_FrenchNotation(t *testing.T) {
	page := RulesPage("fr")
	if page == RulesPage(games.English) {
		t.Fatal("the French rules page is the English one")
	}
	for _, w := range notationWords() {
		p, _ := words.Patterns("fr", games.NotationPrefix+w)
		for form := range strings.SplitSeq(p[0], "|") {
			form = strings.ReplaceAll(form, "'", "’") // the page writes the apostrophe as French does
			if !strings.Contains(page, "`"+form+"`") {
				t.Errorf("RULES.fr.md does not list %q, a French form of %q", form, w)
			}
		}
	}
	tb := rig(t, 6, games.Options{OptVariantTokens: "on"})
	tb.play("Ana", "bid 12")
	var want strings.Builder
	for _, line := range (Rules{}).Choices(tb.s, tb.s.Turn) {
		want.WriteString(words.In("fr").WriteMove(line) + "\n")
	}
	if !strings.Contains(page, "```\n"+want.String()+"```\n") {
		t.Errorf("RULES.fr.md's list of choices is not the one a French player is shown:\n%s", want.String())
	}
}

// "Déclarer", which the French booklet uses for bids and for the declare
// token alike, is read as the token only where it is the English word with
// an accent ("déclare 5", RULES.fr.md): any other turn of it is refused,
// never taken for a bid or a token.
func TestNotation_Declarer(t *testing.T) {
	tb := rig(t, 4, games.Options{OptVariantTokens: "on"})
	eng := New()
	if got, err := eng.Canonical(tb.s, "déclare 5"); err != nil || got != "declare 5" {
		t.Errorf("déclare 5 is read as %q (%v)", got, err)
	}
	for _, move := range []string{"je déclare 5", "déclarer 5", "je declare 5"} {
		if got, err := eng.Canonical(tb.s, move); err == nil {
			t.Errorf("%q is read as %q", move, got)
		}
	}
}

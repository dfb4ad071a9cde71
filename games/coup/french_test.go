package coup

import (
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// ownWords is the game's own catalog, without the words all games share.
func ownWords(t *testing.T) *games.Catalog {
	t.Helper()
	sub, err := fs.Sub(wordFiles, "words")
	if err != nil {
		t.Fatal(err)
	}
	c, err := games.LoadCatalog(sub)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every key of the catalog is in every language and places the same
// arguments, and nothing is left in English: a French message that reads
// as its English one is a word both languages write alike.
func TestCatalogComplete(t *testing.T) {
	if err := (Rules{}).Words().Complete(); err != nil {
		t.Fatal(err)
	}
	alike := map[string]bool{
		"card.assassin": true, "card.plural.assassin": true, "cards.many": true,
		"notation.auto": true, "notation.faction": true, "option.factions": true, "said.factions.side": true,
		"said.then": true,
	}
	own := ownWords(t)
	for _, k := range own.Keys() {
		en, _ := own.Patterns("en", k)
		fr, _ := own.Patterns("fr", k)
		if slices.Equal(en, fr) != alike[k] {
			t.Errorf("%s: English %q, French %q (words alike in both languages: %v)", k, en, fr, alike[k])
		}
	}
	// Every option says its words in every language.
	for _, lang := range games.Languages() {
		for _, o := range (Rules{}).Info().Options {
			if err := o.Check(words.In(lang)); err != nil {
				t.Errorf("%s: %v", lang, err)
			}
		}
	}
}

// The notation's forms, folded as a move is read, name one word each: two
// words share a form only when the game reads them as one move (an alias).
func TestNotationFormsDoNotCollide(t *testing.T) {
	alias := map[string]string{
		"pass": "allow", "lose": "reveal", "foreign": "aid", "foreign-aid": "aid", "autoallow": "auto-allow",
		"jack": "duke", "ace": "assassin", "king": "captain", "two": "ambassador", "queen": "contessa",
	}
	same := func(w string) string {
		if a, ok := alias[w]; ok {
			return a
		}
		return w
	}
	own := ownWords(t)
	byForm := map[string]map[string]bool{}
	for _, lang := range games.Languages() {
		for _, k := range own.Keys() {
			word, ok := strings.CutPrefix(k, games.NotationPrefix)
			if !ok {
				continue
			}
			patterns, ok := own.Patterns(lang, k)
			if !ok || len(patterns) != 1 {
				t.Fatalf("%s in %s: %q", k, lang, patterns)
			}
			for form := range strings.SplitSeq(patterns[0], "|") {
				f := strings.Join(strings.Fields(games.FoldWord(form)), " ")
				if f == "" {
					t.Errorf("%s in %s has an empty form", k, lang)
					continue
				}
				if byForm[f] == nil {
					byForm[f] = map[string]bool{}
				}
				byForm[f][same(word)] = true
			}
		}
	}
	for f, ws := range byForm {
		if len(ws) > 1 {
			t.Errorf("the form %q is read as %v", f, slices.Sorted(maps.Keys(ws)))
		}
	}
}

// French players write moves as they say them, accents optional, case
// ignored, with the articles they would put: each is read as the English
// canonical move.
func TestFrenchMoves(t *testing.T) {
	g := newGame(t, nil, [][]Char{h(Duke, Captain), h(Assassin, Contessa), h(Captain, Ambassador), h(Duke, Contessa), h(Assassin, Ambassador)}, nil)
	g.s.Players[4].Name = "Zoé Ann"
	eng := New()
	for _, tc := range []struct{ in, canon string }{
		{"revenu", "income"},
		{"  Revenu. ", "income"},
		{"je prends le revenu", "income"},
		{"aide étrangère", "foreign aid"},
		{"Aide Etrangere", "foreign aid"},
		{"l’aide étrangère", "foreign aid"},
		{"je demande l'aide étrangère", "foreign aid"},
		{"aide", "foreign aid"},
		{"aide-étrangère", "foreign aid"},
		{"taxe", "tax"},
		{"je prends la taxe", "tax"},
		{"échanger", "exchange"},
		{"echange", "exchange"},
		{"voler Bob", "steal Bob"},
		{"je vole bob", "steal Bob"},
		{"assassiner 3", "assassinate Dee"},
		{"j’assassine Cal", "assassinate Cal"}, //nolint:misspell // French
		{"examiner cal", "examine Cal"},
		{"interroger Bob", "examine Bob"},
		{"coup d’État Bob", "coup Bob"},
		{"Coup d'état bob", "coup Bob"},
		{"coup detat 1", "coup Bob"},
		{"coup d’État 2 duc", "coup Cal duke"},
		{"coup d'État Bob le Duc", "coup Bob duke"},
		{"coup d’État zoe ann dame", "coup Zoé Ann contessa"},
		{"défection", "defect"},
		{"faire défection", "defect"},
		{"contester", "challenge"},
		{"Je conteste !", "challenge"},
		{"bloquer comtesse", "block contessa"},
		{"je bloque avec la Comtesse", "block contessa"},
		{"bloquer roi", "block captain"},
		{"contrer l’Ambassadeur", "block ambassador"},
		{"bloquer le duc", "block duke"},
		{"bloquer l'inquisiteur", "block inquisitor"},
		{"bloquer deux", "block ambassador"},
		{"passer", "allow"},
		{"je passe", "allow"},
		{"Je laisse passer.", "allow"},
		{"j'accepte", "allow"},
		{"révéler duc", "reveal duke"},
		{"je révèle le Duc", "reveal duke"},
		{"retourner la comtesse", "reveal contessa"},
		{"je perds l’assassin", "reveal assassin"},
		{"perdre as", "reveal assassin"},
		{"garder duc comtesse", "keep duke contessa"},
		{"je garde la comtesse le duc", "keep duke contessa"},
		{"garder dame valet", "keep duke contessa"},
		{"garder l’inquisiteur", "keep inquisitor"},
		{"montrer capitaine", "show captain"},
		{"je montre le capitaine", "show captain"},
		{"rendre", "return"},
		{"je rends", "return"},
		{"faire changer", "change"},
		{"changer", "change"},
		{"faction visible", "faction up"},
		{"faction face cachée", "faction down"},
		{"faction cachee", "faction down"},
		{"auto-passer contester oui", "auto-allow challenge on"},
		{"auto-passer bloquer non", "auto-allow block off"},
		{"auto-passer contester-blocage oui", "auto-allow block-challenge on"},
		{"Auto-Passer TOUT oui", "auto-allow all on"},
		{"auto passer tout non", "auto-allow all off"},
		{"autopasser contestation activé", "auto-allow challenge on"},
		{"bloquer duke", "block duke"},
	} {
		got, err := eng.Canonical(g.s, tc.in)
		if err != nil || got != tc.canon {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tc.in, got, err, tc.canon)
		}
	}
}

// A refusal says why in the reader's language, with the words of the
// notation as a French player writes them, and suggests the closest legal
// move in those words.
func TestRefusalsInFrench(t *testing.T) {
	eng := New()
	std := func(t *testing.T) *game { return newGame(t, nil, deal4(), nil) }
	tests := []struct {
		name   string
		build  func(t *testing.T) *game
		seat   int
		move   string
		rule   string
		en, fr string
	}{
		{"not your turn", std, bob, "revenu", "TC-4", "it is Ana's turn, not yours", "c’est à Ana de jouer, pas à vous"},
		{"no argument", std, ana, "revenu 3", games.NotationRule, `"income" takes no argument`, "« revenu » s’écrit seul"},
		{"cost", std, ana, "coup d’État Bob", "TC-30", "Coup costs 7 coins and you have 2 coins", "le coup d’État coûte 7 pièces et vous avez 2 pièces"},
		{"block without character", std, ana, "bloquer", games.NotationRule, "write block <character>, e.g. block duke",
			"écrivez « bloquer <personnage> », par exemple « bloquer duc »"}, //nolint:misspell // French
		{"not a character", std, ana, "bloquer joker", games.NotationRule,
			`"joker" is not a character (duke, assassin, captain, ambassador, contessa, inquisitor)`,
			"« joker » n’est pas un personnage (duc, assassin, capitaine, ambassadeur, comtesse, inquisiteur)"},
		{"no player", std, ana, "voler personne", games.NotationRule, `there is no player "personne"`, "il n’y a pas de joueur « personne »"},
		{"not a move", std, ana, "bonjour", games.NotationRule, `"bonjour" is not a Coup move`, "« bonjour » n’est pas un coup du jeu Coup"},
		{"auto-allow", std, ana, "auto-passer", games.NotationRule, "write auto-allow <challenge|block|block-challenge|all> on|off",
			"écrivez « auto-passer <contester|bloquer|contester-blocage|tout> oui|non »"},
		{"faction", std, ana, "faction", games.NotationRule, "write faction up or faction down", "écrivez « faction visible » ou « faction cachée »"},
		{"not a claim", func(t *testing.T) *game { g := std(t); g.do(ana, "foreign aid"); return g }, bob, "contester", "TC-12",
			"Foreign Aid is not a claim and cannot be challenged", "on ne conteste que l’annonce d’un personnage, et l’aide étrangère n’en est pas une"},
		{"your turn", func(t *testing.T) *game { g := std(t); g.do(ana, "income"); return g }, bob, "bloquer duc", "TC-4",
			"it is your turn: take an action; there is nothing to challenge or block",
			"c’est à vous de jouer : jouez une action ; il n’y a rien à contester ni à bloquer"},
		{"block too early", func(t *testing.T) *game { g := std(t); g.do(ana, "steal bob"); return g }, bob, "bloquer capitaine", "TC-13",
			"the challenge of the action is settled before anyone may block; wait for the block window",
			"la contestation de l’action se règle avant tout blocage ; attendez la fenêtre de blocage"},
		{"only the target blocks", func(t *testing.T) *game { g := std(t); g.do(ana, "steal bob"); g.allAllow(); return g }, cal, "bloquer capitaine", "TC-14",
			"only the target, Bob, may block Steal", "seule la cible, Bob, peut bloquer le vol"},
		{"blocked only by", func(t *testing.T) *game { g := std(t); g.do(ana, "steal bob"); g.allAllow(); return g }, bob, "bloquer duc", "TC-14",
			"Steal is blocked only by Captain or Ambassador, not Duke", "le vol ne se bloque qu’avec la carte Capitaine ou Ambassadeur, pas avec la carte Duc"},
		{"waiting", func(t *testing.T) *game { g := std(t); g.do(ana, "tax"); return g }, bob, "garder duc", "TC-10",
			"there is no exchange of yours to choose cards for; the challenge window of Ana's action is open",
			"vous n’avez pas d’échange en cours où choisir des cartes ; la fenêtre de contestation de l’action jouée par Ana est ouverte"},
		{"keep count", func(t *testing.T) *game { g := std(t); g.do(ana, "exchange"); g.allAllow(); return g }, ana, "garder duc", "TC-10",
			"keep exactly 2 card(s), as many as your unrevealed cards", "gardez exactement 2 cartes, autant que vos cartes face cachée"},
		{"answered", func(t *testing.T) *game { g := std(t); g.do(ana, "tax"); g.do(bob, "allow"); return g }, bob, "passer", "TC-31",
			"you have already answered allow in this window; answers are final",
			"vous avez déjà répondu « passer » dans cette fenêtre ; les réponses sont définitives"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.build(t)
			_, err := eng.Decide(g.s, games.Seat(tc.seat), tc.move, g.r)
			err = eng.Suggest(g.s, games.Seat(tc.seat), tc.move, err)
			re, ok := games.AsRuleError(err)
			if !ok {
				t.Fatalf("%q: %v, want a %s refusal", tc.move, err, tc.rule)
			}
			if re.Rule != tc.rule {
				t.Errorf("%q: rule %s, want %s", tc.move, re.Rule, tc.rule)
			}
			for lang, want := range map[string]string{"en": tc.en, "fr": tc.fr} {
				if err := words.In(lang).Check(re.Reason.Text); err != nil {
					t.Errorf("%s: %v", lang, err)
				}
				if got := re.Reason.In(lang); got != want {
					t.Errorf("%q in %s: %q, want %q", tc.move, lang, got, want)
				}
				// The closest legal move is written in the reader's words.
				suggest := words.In(lang).WriteMove(re.Suggest)
				if re.Suggest == "" || re.Suggestion(lang) != suggest || !strings.Contains(games.Explain(err, lang), "« "+suggest+" »") && !strings.Contains(games.Explain(err, lang), "“"+suggest+"”") {
					t.Errorf("%q in %s: suggestion %q, explained %q", tc.move, lang, re.Suggest, games.Explain(err, lang))
				}
			}
		})
	}
}

// In random states of random games, every legal move of every pending seat
// written in French is read back as itself, and so is every line of its
// choices; a line with a blank to fill in ("<player>") has no word left in
// English: each of its words is a word of the notation, a number or a
// player's name.
func TestFrenchWritingReadsBack(t *testing.T) {
	eng := New()
	fr := words.In("fr")
	moves, lines := 0, 0
	for game := range 25 {
		var seed games.Seed
		seed[0], seed[1], seed[2] = byte(game), byte(game>>8), 0xf4
		pick := seed.Rand(1 << 40)
		players := randomPlayers(pick)
		evs, err := eng.Setup(randomOptions(pick), players, seed.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		s, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		nameWords := map[string]bool{}
		for _, p := range players {
			for w := range strings.FieldsSeq(p) {
				nameWords[w] = true
			}
		}
		for step := 0; ; step++ {
			pending := eng.Pending(s)
			if len(pending) == 0 || step > 2000 {
				break
			}
			for _, p := range pending {
				for _, m := range eng.Legal(s, p.Seat) {
					moves++
					written := fr.WriteMove(m)
					if back, err := eng.Canonical(s, written); err != nil || back != m {
						t.Fatalf("game %d: %q written in French is %q, read back %q, %v", game, m, written, back, err)
					}
				}
				for _, line := range eng.Choices(s, p.Seat) {
					lines++
					written := fr.WriteMove(line)
					if !strings.Contains(line, "<") && !strings.Contains(line, "…") {
						want, err := eng.Canonical(s, line)
						if back, err2 := eng.Canonical(s, written); err != nil || err2 != nil || back != want {
							t.Fatalf("game %d: the choice %q written in French is %q, read back %q (%v, %v)", game, line, written, back, err, err2)
						}
						continue
					}
					for w := range strings.SplitSeq(line, " ") {
						_, isWord := words.Patterns("fr", games.NotationPrefix+w)
						_, numErr := strconv.Atoi(w)
						if !isWord && numErr != nil && w != "…" && !nameWords[w] {
							t.Fatalf("game %d: the choice %q has %q, which French does not write (%q)", game, line, w, written)
						}
					}
					if written == line {
						t.Fatalf("game %d: the choice %q is written alike in French", game, line)
					}
				}
			}
			p := pending[pick.IntN(len(pending))]
			legal := eng.Legal(s, p.Seat)
			out, err := eng.Decide(s, p.Seat, fr.WriteMove(legal[pick.IntN(len(legal))]), seed.Rand(step+len(evs)))
			if err != nil {
				t.Fatalf("game %d: %v", game, err)
			}
			for _, e := range out {
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if moves == 0 || lines == 0 {
		t.Fatal("no move was tried")
	}
	t.Logf("%d legal moves and %d lines of choices read back from French", moves, lines)
}

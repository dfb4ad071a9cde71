package couillon

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// The catalog has every key in every language, each pattern placing the
// arguments the English one places.
func TestWords_Complete(t *testing.T) {
	if err := (Rules{}).Words().Complete(); err != nil {
		t.Fatal(err)
	}
	if got := (Rules{}).Words().Languages(); !slices.Equal(got, games.Languages()) {
		t.Fatalf("the catalog speaks %v, want %v", got, games.Languages())
	}
}

// No French message is left in English: a French pattern that is the
// English one word for word holds no English word (codes, symbols, names
// and numbers only), apart from the few words French shares.
func TestWords_FrenchIsNotEnglish(t *testing.T) {
	shared := map[string]bool{"Capot": true, "point": true, "points": true} // the same words in both
	word := regexp.MustCompile(`\p{L}{2,}`)
	c := (Rules{}).Words()
	for _, key := range c.Keys() {
		en, _ := c.Patterns(games.English, key)
		fr, ok := c.Patterns("fr", key)
		if !ok {
			t.Errorf("no French for %q", key)
			continue
		}
		if !slices.Equal(en, fr) {
			continue
		}
		for _, p := range fr {
			for _, w := range word.FindAllString(p, -1) {
				if !shared[w] {
					t.Errorf("%q is English in French: %q", key, p)
				}
			}
		}
	}
}

// refusal is a move refused with its rule and its reason in each language.
type refusal struct {
	name   string
	err    func(t *testing.T) error
	rule   string
	en, fr string
}

// decideErr is the error of seat's move m in s.
func decideErr(s State, seat games.Seat, m Move) error {
	_, err := Rules{}.Decide(s, seat, m, rng())
	return err
}

// moveErr is the error of seat's move text (read by Parse) in s.
func moveErr(t *testing.T, s State, seat games.Seat, text string) error {
	t.Helper()
	m, err := Rules{}.Parse(s, text)
	if err != nil {
		return err
	}
	return decideErr(s, seat, m)
}

// Every refusal says why in words of the catalog, in English as before and
// in French, with the rule it breaks; its arguments are names, numbers and
// texts of the catalog (a card as the reader's board prints it: D♠).
func TestRefusals_EveryLanguage(t *testing.T) {
	hands, stock := deal2()
	trump := func(t *testing.T) State { return rig(t, nil, hands, stock) } // Ben (seat 1) speaks on ♠
	led := func(t *testing.T, version int, opts games.Options) State {     // ♠ trump, Ben led Q♦, Cleo to play 10♦ K♦ A♠ 9♣
		s, _ := run(t, followRigAt(t, version, opts), "qd")
		return s
	}
	void := func(t *testing.T) State { // ♠ trump, Ben led 9♦, Cleo holds no ♦ but K♠
		s := rig(t, nil, [4]string{"10d jd qd kd", "9d 9h 10h ac", "ks jc qc kc", "qs as 9c 10c"}, "9s jh qh kh ah 10s js ad")
		s, _ = run(t, s, "accept", "9d")
		return s
	}
	over := func(t *testing.T) State {
		s, _ := record(t, trump(t), "accept")
		evs, err := Rules{}.Resign(s, 2, rng())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			s = Rules{}.Evolve(s, e)
		}
		return s
	}
	for _, tc := range []refusal{
		{"setup, 3 players", func(t *testing.T) error {
			_, err := Rules{}.Setup(nil, []string{"Ana", "Ben", "Cleo"}, rng())
			return err
		}, "CO-1", "Couillon is for exactly 4 players in two teams, not 3", "le Couillon se joue à 4, en deux équipes de 2, pas à 3"},
		{"an unknown option value", func(t *testing.T) error {
			_, err := parseSettings(games.Options{"lines": "9"})
			return err
		}, "options", `option lines must be one of 5, 7, not "9"`, "l’option lines vaut l’une de ces valeurs : 5, 7, et non « 9 »"},
		{"before the deal", func(t *testing.T) error { return moveErr(t, Rules{}.Initial(RulesVersion), 1, "accept") },
			"CO-3", "the deal is not ready", "la donne n’est pas prête"},
		{"after the end", func(t *testing.T) error { return moveErr(t, over(t), 1, "accept") },
			"CO-14", "the match is over", "la partie est terminée"},
		{"not seated", func(t *testing.T) error { return moveErr(t, trump(t), 4, "accept") },
			"CO-1", "only the four seated players may move", "seuls les quatre joueurs de la table peuvent jouer"},
		{"no kind of move", func(t *testing.T) error { return decideErr(trump(t), 1, Move{}) },
			games.NotationRule, "not a move: write accept, pass or play <card>", "ce n’est pas un coup : écrivez jouer, passer ou jouer <carte>"},
		{"empty", func(t *testing.T) error { return moveErr(t, trump(t), 1, " ") },
			games.NotationRule, "empty move: write accept, pass or play <card> (e.g. play kh)", "coup vide : écrivez jouer, passer ou jouer <carte> (par exemple jouer R♥)"}, //nolint:misspell // French
		{"not a move", func(t *testing.T) error { return moveErr(t, trump(t), 1, "fold\x00") },
			games.NotationRule,
			`"fold\x00" is not a move: write accept, pass or play <card>, where a card is a rank (a k q j 10 9) and a suit (c d h s, ♣ ♦ ♥ ♠), e.g. play kh, play 10d or king of hearts`,
			`« fold\x00 » n’est pas un coup : écrivez jouer, passer ou jouer <carte>, où une carte est une valeur (as, roi, dame, valet, dix, neuf ou A R D V 10 9) et une couleur (trèfle, carreau, cœur, pique ou ♣ ♦ ♥ ♠), par exemple jouer R♥, jouer 10♦ ou roi de cœur`}, //nolint:misspell // French
		{"a card before trump", func(t *testing.T) error { return moveErr(t, trump(t), 1, "kd") },
			"CO-4", "trump is not made yet: Ben must accept or pass the proposed spades", "l’atout n’est pas encore choisi : Ben doit jouer ou passer sur pique, la couleur proposée"},
		{"speaking out of turn", func(t *testing.T) error { return moveErr(t, trump(t), 2, "accept") },
			"CO-4", "it is Ben's turn to accept or pass, not yours", "c’est à Ben de parler (jouer ou passer), pas à vous"},
		{"accepting during play", func(t *testing.T) error { return moveErr(t, led(t, RulesVersion, nil), 2, "accept") },
			"CO-4", "trump is already made (spades); play a card", "l’atout est déjà choisi (pique) : jouez une carte"},
		{"playing out of turn", func(t *testing.T) error { return moveErr(t, led(t, RulesVersion, nil), 3, "ad") },
			"CO-1", "it is Cleo's turn to play, not yours", "c’est à Cleo de jouer, pas à vous"},
		{"no such card", func(t *testing.T) error { return decideErr(led(t, RulesVersion, nil), 2, Move{Kind: Play, Card: 30}) },
			"CO-2", "there is no such card", "cette carte n’existe pas"},
		{"a card not held", func(t *testing.T) error { return moveErr(t, led(t, RulesVersion, nil), 2, "qs") },
			"CO-18", "you do not hold Q♠", "vous n’avez pas D♠ en main"},
		{"follow suit", func(t *testing.T) error { return moveErr(t, led(t, RulesVersion, nil), 2, "9c") },
			"CO-7", "diamonds were led and you hold diamonds: you must follow suit", "la couleur demandée est carreau et vous en avez : vous devez fournir à la couleur"},
		{"beat", func(t *testing.T) error { return moveErr(t, led(t, RulesVersion, nil), 2, "10d") },
			"CO-7", "you can beat the Q♦: you must play a higher ♦", "vous pouvez battre D♦ : vous devez jouer un ♦ plus fort"},
		{"beat, rules 1", func(t *testing.T) error { return moveErr(t, led(t, 1, nil), 2, "10d") },
			"CO-7", "the trick is not trumped and you can beat the Q♦: you must play a higher ♦", "la levée n’est pas coupée et vous pouvez battre D♦ : vous devez jouer un ♦ plus fort"},
		{"beat a trumped trick", func(t *testing.T) error { return moveErr(t, trumpedRig(t, RulesVersion), 0, "10d") },
			"CO-7", "you can beat the Q♦: you must play a higher ♦, even on a trumped trick", "vous pouvez battre D♦ : vous devez jouer un ♦ plus fort, même sur une levée coupée"},
		{"gerver: follow or trump", func(t *testing.T) error {
			return moveErr(t, led(t, RulesVersion, games.Options{"following": "gerver"}), 2, "9c")
		}, "CO-7", "diamonds were led and you hold diamonds: play diamonds or a trump (spades)", "la couleur demandée est carreau et vous en avez : jouez du carreau ou de l’atout (pique)"},
		{"must trump", func(t *testing.T) error { return moveErr(t, void(t), 2, "jc") },
			"CO-7", "you hold no diamonds but you hold trumps: you must trump (spades)", "vous n’avez pas de carreau mais vous avez de l’atout : vous devez couper (pique)"},
		{"overtrump", func(t *testing.T) error {
			s, _ := run(t, void(t), "ks")
			return moveErr(t, s, 3, "qs")
		}, "CO-7", "you can beat the K♠: you must play a higher trump", "vous pouvez battre R♠ : vous devez surcouper"},
		{"trumps led", func(t *testing.T) error {
			s := rig(t, nil, [4]string{"10d jd qd kd", "9s 9h 10h ac", "ks jc qc kc", "qs as 9c 10c"}, "9d 10s qh kh ah jh js ad")
			s, _ = run(t, s, "pass", "pass", "pass", "pass", "pass", "accept", "9s")
			return moveErr(t, s, 2, "jc")
		}, "CO-7", "trumps (spades) were led and you hold trumps: you must play a trump", "l’atout (pique) est demandé et vous en avez : vous devez jouer atout"},
		{"resign before the seating", func(t *testing.T) error {
			_, err := Rules{}.Resign(Rules{}.Initial(RulesVersion), 1, rng())
			return err
		}, "CO-17", "the match has not started", "la partie n’a pas commencé"},
		{"resign, not seated", func(t *testing.T) error {
			_, err := Rules{}.Resign(trump(t), games.Spectator, rng())
			return err
		}, "CO-32", "only a seated player can resign", "seul un joueur de la table peut abandonner"},
		{"resign after the end", func(t *testing.T) error {
			_, err := Rules{}.Resign(over(t), 1, rng())
			return err
		}, "CO-14", "the match is over", "la partie est terminée"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re, ok := games.AsRuleError(tc.err(t))
			if !ok {
				t.Fatalf("want a rule error, got %v", tc.err(t))
			}
			if re.Rule != tc.rule {
				t.Errorf("rule %s, want %s", re.Rule, tc.rule)
			}
			for lang, want := range map[string]string{games.English: tc.en, "fr": tc.fr} {
				if err := re.Reason.Words.In(lang).Check(re.Reason.Text); err != nil {
					t.Errorf("in %s: %v", lang, err)
				}
				if got := re.Reason.In(lang); got != want {
					t.Errorf("in %s: %q\n        want %q", lang, got, want)
				}
			}
		})
	}
}

// Through the engine, a move written in French and refused is explained in
// French, with the closest legal move written in French; in English for an
// English reader.
func TestRefusal_FrenchMoveExplainedInFrench(t *testing.T) {
	s, _ := run(t, followRig(t, nil), "qd") // Cleo holds 10♦ K♦ A♠ 9♣ and must play K♦
	_, err := New().Decide(s, 2, "jouer le dix de carreau", rng())
	err = New().Suggest(s, 2, "jouer le dix de carreau", err)
	re, ok := games.AsRuleError(err)
	if !ok || re.Rule != "CO-7" {
		t.Fatalf("want a CO-7 refusal, got %v", err)
	}
	for lang, want := range map[string]string{
		games.English: "you can beat the Q♦: you must play a higher ♦ (the closest move you can make: “play K♦”)",
		"fr":          "vous pouvez battre D♦ : vous devez jouer un ♦ plus fort (le coup permis le plus proche : « jouer R♦ »)",
	} {
		if got := games.Explain(err, lang); got != want {
			t.Errorf("in %s: %q\n        want %q", lang, got, want)
		}
	}
}

// The result's summary is a phrase of the catalog, in English as before and
// in French.
func TestSummary_EveryLanguage(t *testing.T) {
	hands, stock := deal2()
	lost, _ := run(t, rig(t, nil, hands, stock), append([]string{"pass", "accept"}, deal2Play()...)...)
	th, tst := tieDeal()
	tie, _ := run(t, rig(t, nil, th, tst), append([]string{"accept"}, tieDealPlay()...)...)
	won, _ := run(t, rigScore(t, nil, hands, stock, []int{3, 1}, 0), append([]string{"accept"}, deal2Play()...)...)
	resigned, _ := record(t, rig(t, nil, hands, stock), "accept")
	evs, err := Rules{}.Resign(resigned, 2, rng())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		resigned = Rules{}.Evolve(resigned, e)
	}
	for _, tc := range []struct {
		name   string
		s      State
		en, fr string
	}{
		{"a deal lost by the declarers", lost, "deal 2; lines still to erase: A 6, B 4", "donne 2 ; lignes restant à effacer : A 6, B 4"},
		{"after a tie", tie, "deal 2; lines still to erase: A 5, B 5; tie bonus 1", "donne 2 ; lignes restant à effacer : A 5, B 5 ; bonus d’égalité 1"},
		{"won", won, "Team B (Ben & Dan) wins; lines still to erase A 3, B 0", "L’équipe B (Ben et Dan) gagne ; lignes restant à effacer : A 3, B 0"},
		{"resigned", resigned, "Team B (Ben & Dan) wins (Cleo resigned); lines still to erase A 5, B 5", "L’équipe B (Ben et Dan) gagne (Cleo a abandonné) ; lignes restant à effacer : A 5, B 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := Rules{}.Result(tc.s).Summary
			for lang, want := range map[string]string{games.English: tc.en, "fr": tc.fr} {
				if err := words.In(lang).Check(sum.Text); err != nil {
					t.Errorf("in %s: %v", lang, err)
				}
				if got := sum.In(lang); got != want {
					t.Errorf("in %s: %q\n        want %q", lang, got, want)
				}
			}
		})
	}
}

// French moves, as French players write them, are read as the English
// canonical move: the words of fr.toml's notation (the text's « jouer » and
// « passer », the cards' names), articles, accents optional, case ignored.
func TestNotation_French(t *testing.T) {
	eng := New()
	s := Rules{}.Initial(RulesVersion)
	for _, tc := range []struct{ in, want string }{
		{"jouer", "accept"}, {"Jouer", "accept"}, {"je joue", "accept"}, {"Je prends", "accept"},
		{"prendre", "accept"}, {"j’accepte", "accept"}, {"J'accepte", "accept"}, {"accepter", "accept"},
		{"passer", "pass"}, {"Je passe", "pass"}, {"passe.", "pass"}, {"PASSE", "pass"},
		{"jouer R♥", "play K♥"}, {"joue R♥", "play K♥"}, {"je joue R♥", "play K♥"}, {"R♥", "play K♥"}, {"r♥️", "play K♥"},
		{"roi de cœur", "play K♥"}, {"roi de coeur", "play K♥"}, {"Roi de Cœur.", "play K♥"}, {"ROI DE COEUR", "play K♥"},
		{"joue le roi de cœur", "play K♥"}, {"je joue la dame de pique", "play Q♠"}, {"jouer l’as de trèfle", "play A♣"},
		{"l'as de carreau", "play A♦"}, {"valet de trèfle", "play J♣"}, {"Valet de Trefle", "play J♣"}, {"V♣", "play J♣"},
		{"D♠", "play Q♠"}, {"dame de pique", "play Q♠"}, {"reine de pique", "play Q♠"}, {"as de cœur", "play A♥"},
		{"A♥", "play A♥"}, {"dix de carreau", "play 10♦"}, {"10 de carreau", "play 10♦"}, {"10♦", "play 10♦"},
		{"neuf de cœur", "play 9♥"}, {"9 de trèfle", "play 9♣"}, {"jouer roi cœur", "play K♥"}, {"R de pique", "play K♠"},
		{"roi de trèfles", "play K♣"}, {"jouer V♦", "play J♦"}, {"jouer d♡", "play Q♥"},
	} {
		got, err := eng.Canonical(s, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q reads as %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
	// A French letter with an English suit code is not a card: "dc" would
	// read as dame de cœur to one player and as nothing to another.
	for _, bad := range []string{"rc", "dk", "vp", "jouer rt"} {
		if got, err := eng.Canonical(s, bad); err == nil {
			t.Errorf("%q reads as %q", bad, got)
		}
	}
}

// The forms of the notation do not collide: no form names two words (but
// « jouer », the text's word for accepting, which with a card plays it as
// English "play" does), every form read in a move gives that word's move,
// and a French form that the notation would read on its own (an English
// code, a card's English name) means the same there. English moves read
// as they did: "as" is the ace of spades, "ac" the ace of clubs.
func TestNotation_FormsDoNotCollide(t *testing.T) {
	eng := New()
	s := Rules{}.Initial(RulesVersion)
	c := (Rules{}).Words()
	owner := map[string]string{} // folded form → the notation word it is a form of
	for _, lang := range c.Languages() {
		for _, key := range c.Keys() {
			word, ok := strings.CutPrefix(key, games.NotationPrefix)
			if !ok {
				continue
			}
			forms, _ := c.Patterns(lang, key)
			for f := range strings.SplitSeq(forms[0], "|") {
				folded := games.FoldWord(f)
				other, taken := owner[folded]
				jouer := folded == "jouer" && other == "accept" && word == "play" // the text's word for both
				if taken && other != word && !jouer {
					t.Errorf("%s form %q of %q is a form of %q too", lang, f, word, other)
				}
				if !taken {
					owner[folded] = word
				}
				// The form in a move, alone and after a verb, is the word's move.
				var tries map[string]string
				switch word {
				case "accept", "pass":
					tries = map[string]string{f: word}
				case "play":
					tries = map[string]string{f: "accept", f + " K♥": "play K♥", f + " roi de cœur": "play K♥"}
				default:
					tries = map[string]string{f: "play " + word, "play " + f: "play " + word, "jouer " + f: "play " + word}
				}
				for in, want := range tries {
					if got, err := eng.Canonical(s, in); err != nil || got != want {
						t.Errorf("%s: %q reads as %q (%v), want %q", lang, in, got, err, want)
					}
				}
				// Read without the catalog, the form means the same or nothing.
				if m, err := parseMove(f); err == nil {
					want := "play " + word
					switch word {
					case "accept", "pass":
						want = word
					case "play":
						want = "accept"
					}
					if got := formatMove(m); got != want {
						t.Errorf("%s form %q of %q reads as %q without the catalog", lang, f, word, got)
					}
				}
			}
		}
	}
	for _, card := range Pack() {
		want := formatMove(Move{Kind: Play, Card: card})
		for _, in := range []string{card.Code(), "play " + card.Code(), card.Rank().Name() + " of " + card.Suit().Name(), card.String()} {
			if got, err := eng.Canonical(s, in); err != nil || got != want {
				t.Errorf("%q reads as %q (%v), want %q", in, got, err, want)
			}
		}
	}
}

// Property: in random states, every legal move (and every choice line:
// Choices is Legal) written in French reads back, through the engine, as
// the move itself, has no English notation word left, and is accepted.
func TestNotation_FrenchRoundTrip(t *testing.T) {
	eng := New()
	fr := eng.Words().In("fr")
	english := regexp.MustCompile(`\b(play|accept|pass)\b|[KQJ][♣♦♥♠]`)
	moves := 0
	for g := range 30 {
		var seed games.Seed
		seed[0], seed[1] = byte(g), 0xf4
		evs, err := eng.Setup(nil, []string{"Ana", "Ben", "Cleo", "Dan"}, seed.Rand(0))
		if err != nil {
			t.Fatal(err)
		}
		s, err := games.Fold(eng, RulesVersion, evs)
		if err != nil {
			t.Fatal(err)
		}
		pick := seed.Rand(1 << 40)
		for step := range 400 {
			pend := eng.Pending(s)
			if len(pend) == 0 {
				break
			}
			seat := pend[0].Seat
			legal := eng.Legal(s, seat)
			for _, m := range append(slices.Clone(legal), eng.Choices(s, seat)...) {
				written := fr.WriteMove(m)
				if english.MatchString(written) {
					t.Fatalf("%q is written %q in French", m, written)
				}
				if back, err := eng.Canonical(s, written); err != nil || back != m {
					t.Fatalf("%q, written %q, reads back as %q (%v)", m, written, back, err)
				}
				moves++
			}
			m := legal[pick.IntN(len(legal))]
			out, err := eng.Decide(s, seat, fr.WriteMove(m), seed.Rand(step+1))
			if err != nil {
				t.Fatalf("%q written in French is refused: %v", fr.WriteMove(m), err)
			}
			for _, e := range out {
				if s, err = eng.Evolve(s, e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if moves < 1000 {
		t.Fatalf("only %d moves checked", moves)
	}
}

// RULES.fr.md lists every French word of the notation that fr.toml reads.
func TestRulesFr_ListsTheNotation(t *testing.T) {
	page, err := os.ReadFile("RULES.fr.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"accept", "pass", "play"} {
		forms, _ := (Rules{}).Words().Patterns("fr", games.NotationPrefix+word)
		for f := range strings.SplitSeq(forms[0], "|") {
			if !strings.Contains(string(page), "`"+f+"`") {
				t.Errorf("RULES.fr.md does not list `%s` (%s)", f, word)
			}
		}
	}
}

// A line that is no move is quoted back in the reader's words: the
// French words it was read with stay French.
func TestRefusalQuotesTheLineInTheReadersWords(t *testing.T) {
	s, _ := run(t, followRig(t, nil), "qd")
	_, err := New().Canonical(s, "jouer 7 de cœur")
	if err == nil {
		t.Fatal("\"jouer 7 de cœur\" (no 7 in the deck) read as a move")
	}
	if fr := games.Explain(err, "fr"); strings.Contains(fr, "accept") {
		t.Errorf("the French refusal quotes English words: %q", fr)
	}
}

package play_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
	"github.com/courrier-games/courrier/play"
)

// play's catalog has every key in every language, each placing the same
// arguments as English.
func TestPlaysCatalogIsComplete(t *testing.T) {
	if err := play.Words().Complete(); err != nil {
		t.Fatal(err)
	}
}

// catalogKey is a key of play's own words as the code names them.
var catalogKey = regexp.MustCompile(`^(refusal|change|stale|summary|name|duration|address|what)\.[a-z_]+$`)

// Every key play's code says is in its catalog, in every language, and
// every refusal and sentence of the catalog is said somewhere: no refusal
// is left in English only, none is dead.
func TestEveryKeyPlaySaysIsInItsCatalog(t *testing.T) {
	used := gametest.KeysInSource(t, ".", catalogKey)
	if len(used) < 50 {
		t.Fatalf("only %d keys found in play's code: the scan is broken", len(used))
	}
	for k := range used {
		for _, lang := range games.Languages() {
			if _, ok := play.Words().Patterns(lang, k); !ok {
				t.Errorf("play's code says %q, which its %s catalog lacks", k, lang)
			}
		}
	}
	shared := games.BoardWords().Keys()
	for _, k := range play.Words().Keys() {
		if catalogKey.MatchString(k) && !used[k] && !slices.Contains(shared, k) {
			t.Errorf("the catalog has %q, which play's code never says", k)
		}
	}
}

// englishFragments are the runs of three words or more of every English
// pattern of play's catalog and the words all games share: what a French
// sentence must not contain (a pattern left untranslated, wholly or in
// part, included), in lower case with one space between words.
func englishFragments() []string {
	return gametest.OneLanguage(play.Words(), games.English).Foreign("fr")
}

// noEnglish fails when said, a French text, holds a sentence of an English
// pattern.
func noEnglish(t *testing.T, what, said string, fragments []string) {
	t.Helper()
	lower := strings.Join(strings.Fields(strings.ToLower(said)), " ")
	for _, f := range fragments {
		if strings.Contains(lower, f) {
			t.Errorf("%s: the French %q says %q in English", what, said, f)
		}
	}
}

// Every refusal and sentence of play's catalog is said in French with no
// English sentence of the English catalog in it.
func TestEveryRefusalHasFrenchWords(t *testing.T) {
	fragments := englishFragments()
	for k, said := range gametest.SayEveryKey(t, play.Words(), "fr", catalogKey) {
		noEnglish(t, k, said, fragments)
	}
}

// Each refusal of play's intents, met through the real service, is said
// in French by games.Explain, with the same code, and in English by
// Error(); what the game's own events did is told in French too.
func TestIntentRefusalsInFrench(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	fragments := englishFragments()
	id, tbl, bySeat := startGame(t, svc, "coup", 3)
	mover := tbl.Pending[0].Seat
	other := (mover + 1) % 3
	stranger := play.Actor{User: "u-stranger", Channel: play.ChannelAPI}
	open, err := svc.Create(ctx, bySeat[0], "coyote", nil, "P0")
	if err != nil {
		t.Fatal(err)
	}
	v := tbl.Version
	legal := tbl.Engine.Legal(tbl.State, mover)

	cases := []struct {
		name   string
		run    func() error
		code   string // "" for an error that is no *play.Error
		french string // what the French explanation holds
	}{
		{"join a started game", func() error { _, err := svc.Join(ctx, stranger, id, "Zed"); return err }, play.CodeConflict, "a déjà commencé"},
		{"a name starting with a digit", func() error { _, err := svc.Join(ctx, stranger, open.GameID, "2pac"); return err }, play.CodeInvalid, "commence par une lettre"},
		{"a name taken", func() error { _, err := svc.Join(ctx, stranger, open.GameID, "p0"); return err }, play.CodeConflict, "quelqu’un joue déjà sous le nom « p0 »"},
		{"a move by a stranger", func() error { _, err := svc.Move(ctx, stranger, id, v, legal[:1]); return err }, play.CodeForbidden, "vous ne jouez pas dans la partie " + id},
		{"no move", func() error { _, err := svc.Move(ctx, bySeat[mover], id, v, nil); return err }, play.CodeInvalid, "il n’y a pas de coup"},
		{"a number beyond the list", func() error { _, err := svc.Move(ctx, bySeat[mover], id, v, []string{"99"}); return err }, play.CodeInvalid, "« 99 » choisit le coup 99"},
		{"an absence too short", func() error { _, err := svc.AwayFor(ctx, bySeat[mover], id, 30*time.Minute); return err }, play.CodeInvalid, "une absence dure au moins une heure"},
		{"back without being away", func() error { _, err := svc.BackNow(ctx, bySeat[other], id); return err }, play.CodeConflict, "vous n’avez déclaré aucune absence"},
		{"a dispute of a version to come", func() error { _, err := svc.DisputeMove(ctx, bySeat[other], id, 99, "pourquoi"); return err }, play.CodeInvalid, "n’a pas de version 99 à contester"},
		{"a claim while others play", func() error { _, err := svc.Claim(ctx, bySeat[other], id); return err }, play.CodeConflict, "encore en jeu : P"},
		{"a ruling without a referee", func() error { _, err := svc.RuleDispute(ctx, bySeat[0], id, 1, "upheld", "oui"); return err }, play.CodeConflict, "n’a pas d’arbitre"}, //nolint:misspell // French
		{"an unknown game", func() error { _, err := svc.Move(ctx, bySeat[mover], "nosuchgame", 1, legal[:1]); return err }, play.CodeNotFound, "il n’y a pas de partie « nosuchgame »"},
		{"a game of no kind", func() error {
			_, err := svc.CreateGame(ctx, bySeat[0], play.GameRequest{Kind: "chess", Name: "Ana"})
			return err
		}, play.CodeInvalid, "il n’y a pas de jeu « chess » ici"},
		{"a bad invitee", func() error {
			_, err := svc.CreateGame(ctx, bySeat[0], play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"not an address"}})
			return err
		}, play.CodeInvalid, "l’adresse d’un invité : « not an address » n’est pas une adresse électronique"},
		{"a bad deadline", func() error {
			_, err := svc.CreateGame(ctx, bySeat[0], play.GameRequest{Kind: "coup", Name: "Ana", Deadlines: map[string]string{"turn": "bientôt"}})
			return err
		}, play.CodeInvalid, "l’échéance « turn » : « bientôt » n’est pas une durée"},
		{"a day that is no weekday", func() error { _, err := play.ParseWeekdays([]string{"someday"}); return err }, play.CodeInvalid, "n’est pas un jour de la semaine"},
		{"an absence written wrongly", func() error {
			_, err := svc.Write(ctx, bySeat[other], play.Text{GameID: id, Seat: games.Spectator, Expected: v, Lines: []string{"absent toujours"}})
			return err
		}, play.CodeInvalid, "dites combien de temps durera votre absence, comme 3j ou 36h (« toujours » n’est pas une durée"},
		{"a text without its version", func() error {
			_, err := svc.Write(ctx, bySeat[mover], play.Text{GameID: id, Seat: games.Spectator, Expected: play.NoVersion, Lines: legal[:1]})
			return err
		}, play.CodeInvalid, "dites quelle version de la partie vous avez vue"},
		{"a stale move", func() error { _, err := svc.Move(ctx, bySeat[mover], id, v+5, legal[:1]); return err }, "", "votre coup a été joué contre la version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("no refusal")
			}
			if tc.code != "" {
				pe, ok := errors.AsType[*play.Error](err)
				if !ok || pe.Code != tc.code {
					t.Fatalf("%v is not a *play.Error of code %s", err, tc.code)
				}
			}
			fr, en := games.Explain(err, "fr"), games.Explain(err, "en")
			if !strings.Contains(fr, tc.french) {
				t.Errorf("in French: %q, want it to hold %q", fr, tc.french)
			}
			if en != err.Error() || en == fr {
				t.Errorf("in English: %q, Error() %q, French %q", en, err.Error(), fr)
			}
			noEnglish(t, tc.name, fr, fragments)
		})
	}
}

// What the game's own events did is told to each reader in their
// language: the same history says "The game started." and "La partie a
// commencé.".
func TestHistoryInEachLanguage(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coyote", 3)
	seat := tbl.Pending[0].Seat
	if _, err := svc.AwayFor(ctx, bySeat[(seat+1)%3], id, 72*time.Hour); err != nil {
		t.Fatal(err)
	}
	hist, err := svc.History(ctx, id, bySeat[seat].User, 0)
	if err != nil {
		t.Fatal(err)
	}
	var en, fr []string
	for _, c := range hist {
		en, fr = append(en, c.Text.In("en")), append(fr, c.Text.In("fr"))
	}
	for _, want := range []string{"La partie a été créée.", "P1 a rejoint la partie.", "La partie a commencé."} {
		if !slices.Contains(fr, want) {
			t.Errorf("the French history %q lacks %q", fr, want)
		}
	}
	for _, want := range []string{"The game was created.", "P1 joined.", "The game started."} {
		if !slices.Contains(en, want) {
			t.Errorf("the English history %q lacks %q", en, want)
		}
	}
	away := regexp.MustCompile(`^P\d s’absente jusqu’au (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ [a-zéû]+ à \d\d h \d\d UTC ; ses échéances attendent\.$`) //nolint:misspell // French
	if last := fr[len(fr)-1]; !away.MatchString(last) {
		t.Errorf("the absence in French: %q", last)
	}
	if last := en[len(en)-1]; !strings.Contains(last, "is away until") || !strings.HasSuffix(last, "UTC; their deadlines wait.") {
		t.Errorf("the absence in English: %q", last)
	}
}

// Write tells the language a text was written in when its words say it,
// and a language verb runs nothing: the door sets the language.
func TestWriteTellsTheLanguageOfTheText(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	seat := tbl.Pending[0].Seat
	other := bySeat[1-seat]
	cases := []struct {
		name  string
		lines []string
		lang  string
		verb  string
	}{
		{"a language verb in French", []string{"langue français"}, "fr", play.VerbLanguage},
		{"a language verb in English", []string{"language fr"}, "en", play.VerbLanguage},
		{"away in French", []string{"absent 2j"}, "fr", play.VerbAway},
		{"back in French", []string{"retour"}, "fr", play.VerbBack},
		{"away in English", []string{"away 2d"}, "en", play.VerbAway},
		{"a number says nothing", []string{"1"}, "", ""},
	}
	version := tbl.Version
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			who := other
			if tc.verb == "" {
				who = bySeat[seat]
			}
			w, err := svc.Write(ctx, who, play.Text{GameID: id, Seat: games.Spectator, Expected: version, Lines: tc.lines})
			if err != nil {
				t.Fatal(err)
			}
			if w.Lang != tc.lang || w.Reply.Verb != tc.verb {
				t.Fatalf("Write(%q) = lang %q verb %q, want %q %q", tc.lines, w.Lang, w.Reply.Verb, tc.lang, tc.verb)
			}
			if tc.verb == play.VerbLanguage && (w.Reply.Language != "fr" || w.Version != 0) {
				t.Fatalf("a language verb ran something or chose %q: %+v", w.Reply.Language, w)
			}
			version = max(version, w.Version)
		})
	}
}

// No form of a reply verb is a word of a game's notation in any language:
// "contester" is a move of Coup and Coyote, so it is no verb, and a game
// that takes a new word is caught here.
func TestReplyVerbsAreNoMoveWords(t *testing.T) {
	verbs := play.ReplyVerbs()
	if verbs["litige"] != play.VerbDispute || verbs["abandon"] != play.VerbResign || verbs["away"] != play.VerbAway {
		t.Fatalf("the verbs are not read from play's catalog: %v", verbs)
	}
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, err := reg.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		w := eng.Words()
		for _, lang := range w.Languages() {
			for _, k := range w.Keys() {
				if !strings.HasPrefix(k, games.NotationPrefix) {
					continue
				}
				pats, _ := w.Patterns(lang, k)
				for _, p := range pats {
					for form := range strings.SplitSeq(p, "|") {
						if verb, ok := verbs[play.FoldReply(form)]; ok {
							t.Errorf("%s's %s notation form %q is the reply verb %s", id, lang, form, verb)
						}
					}
				}
			}
		}
	}
}

// A StaleError and a refused later line say themselves in each language.
func TestStaleAndLineErrorsExplainThemselves(t *testing.T) {
	line := &play.MoveError{Line: 2, Text: "bid 3", Err: play.Words().Illegal("end", "refusal.ended_before_line")}
	cases := []struct {
		name   string
		err    error
		en, fr string
	}{
		{"moved on", &play.StaleError{Expected: 4, Current: 6, YourTurn: true},
			"the game moved on: your move was made against version 4, the game is now at version 6; look at what changed and send your move again if it still stands",
			"la partie a avancé : votre coup a été joué contre la version 4, elle en est maintenant à la version 6 ; regardez ce qui a changé et renvoyez votre coup s’il tient toujours"},
		{"not your turn", &play.StaleError{Expected: 4, Current: 6, Waiting: []string{"Ana", "Bob", "Cleo"}},
			"it is not your turn: the game waits for Ana, Bob and Cleo (your move was made against version 4, the game is now at version 6); you will be prompted when it is your turn",
			"ce n’est pas à vous de jouer : la partie attend Ana, Bob et Cleo (votre coup a été joué contre la version 4, la partie en est maintenant à la version 6) ; on vous préviendra quand ce sera votre tour"},
		{"ended", &play.StaleError{Expected: 4, Current: 6, Ended: true},
			"the game is over: your move was made against version 4, and the game ended at version 6",
			"la partie est finie : votre coup a été joué contre la version 4, et la partie s’est terminée à la version 6"},
		{"ahead", &play.StaleError{Expected: 9, Current: 6},
			"your move was made against version 9, but the game is only at version 6: look at the game and send your move against the version you see",
			"votre coup a été joué contre la version 9, mais la partie n’en est qu’à la version 6 : regardez la partie et renvoyez votre coup contre la version que vous voyez"},
		{"a later line", line, "line 2 (bid 3): the game ended before this line", "ligne 2 (bid 3) : la partie s’est terminée avant cette ligne"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := games.Explain(tc.err, "en"); got != tc.en {
				t.Errorf("English: %q\nwant %q", got, tc.en)
			}
			if got := games.Explain(tc.err, "fr"); got != tc.fr {
				t.Errorf("French: %q\nwant %q", got, tc.fr)
			}
		})
	}
	if se := (&play.StaleError{Expected: 4, Current: 6}); se.Error() != games.Explain(se, "en") {
		t.Errorf("Error() %q is not the English explanation", se.Error())
	}
}

// Weekdays and durations are read in English and in French.
func TestWeekdaysAndDurationsInFrench(t *testing.T) {
	days, err := play.ParseWeekdays([]string{"lun", "Mercredi", "ven", "sat"})
	if err != nil || !slices.Equal(days, []time.Weekday{time.Monday, time.Wednesday, time.Friday, time.Saturday}) {
		t.Fatalf("ParseWeekdays = %v, %v", days, err)
	}
	for in, want := range map[string]time.Duration{"3j": 72 * time.Hour, "2 jours": 48 * time.Hour, "1j 12h": 36 * time.Hour, "36 heures": 36 * time.Hour, "1 jour": 24 * time.Hour, "2 days": 48 * time.Hour} {
		if got, err := play.ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

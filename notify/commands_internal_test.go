package notify

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify/words"
	"github.com/courrier-games/courrier/play"
)

// The lobby's commands are read in every language courrier speaks, accents
// optional and case ignored, the longest form first; a form only one
// language writes tells the command's language.
func TestMailCommandsInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // among these words
		word string
		n    int
		lang string
	}{
		{"new coyote with ana@example.org", lobbyVerbs, "new", 1, "en"},
		{"create coup with ana@example.org", lobbyVerbs, "new", 1, "en"},
		{"nouvelle partie coyote avec ana@example.org", lobbyVerbs, "new", 2, "fr"},
		{"Nouvelle partie de coupage avec bob@example.org", lobbyVerbs, "new", 3, "fr"},
		{"CRÉER une partie coyote", lobbyVerbs, "new", 3, "fr"},
		{"creer coyote", lobbyVerbs, "new", 1, "fr"},
		{"games", lobbyVerbs, "games", 1, "en"},
		{"mes parties", lobbyVerbs, "games", 2, "fr"},
		{"Mes Parties.", lobbyVerbs, "games", 2, "fr"},
		{"help", lobbyVerbs, "help", 1, "en"},
		{"Aide !", lobbyVerbs, "help", 2, "fr"}, // the mark is read with the word
		{"aide", lobbyVerbs, "help", 1, "fr"},
		{"abandonner k7m2p9q4rs", lobbyVerbs, "resign", 1, "fr"},
		{"resign k7m2p9q4rs", lobbyVerbs, "resign", 1, "en"},
		{"rappels non", lobbyVerbs, "reminders", 1, "fr"},
		{"reminders off", lobbyVerbs, "reminders", 1, "en"},
		{"langue fr", lobbyVerbs, "", 0, ""}, // play's reply verb, read before the lobby's (languageVerb)
		{"join Ana", []string{"join"}, "join", 1, "en"},
		{"rejoindre Zoé", []string{"join"}, "join", 1, "fr"},
		{"je rejoins Zoé", []string{"join"}, "join", 2, "fr"},
		{"sous le nom de Zoé", []string{"as"}, "as", 4, "fr"},
		{"as Zoé", []string{"as"}, "as", 1, "en"},
		{"fenetre 1j", []string{"turn", "window"}, "window", 1, "fr"},
		{"play chess", lobbyVerbs, "", 0, ""},
		{"partie", lobbyVerbs, "", 0, ""},
	} {
		word, n, lang := commands.read(strings.Fields(tc.line), tc.want...)
		if word != tc.word || n != tc.n || lang != tc.lang {
			t.Errorf("%q: %q, %d words, language %q; want %q, %d, %q", tc.line, word, n, lang, tc.word, tc.n, tc.lang)
		}
	}
	if got := days("lun,mar, mer jeu,ven"); !slices.Equal(got, []string{"lun", "mar", "mer", "jeu", "ven"}) {
		t.Errorf("French days split as %q", got)
	}
	// play reads each day and duration in every language: notify passes
	// them on as written.
	if got, err := play.ParseWeekdays(days("lun,Samedi,dimanche")); err != nil || len(got) != 3 {
		t.Errorf("French days: %v, %v", got, err)
	}
	for in, want := range map[string]time.Duration{"3j": 72 * time.Hour, "1j12h": 36 * time.Hour, "3d": 72 * time.Hour, "36h": 36 * time.Hour} {
		if got, err := play.ParseDuration(in); err != nil || got != want {
			t.Errorf("duration %q read as %v, %v; want %v", in, got, err, want)
		}
	}
}

// "langue fr", "language English", "langue français": the language verb
// is play's, read by play's parser; it names a language by its code or its
// name in any language, and tells the language it was written in.
func TestLanguageVerb(t *testing.T) {
	for _, tc := range []struct {
		line          string
		ok            bool
		lang, written string
		refused       bool
	}{
		{"langue fr", true, "fr", "fr", false},
		{"Langue français", true, "fr", "fr", false},
		{"langue francais", true, "fr", "fr", false},
		{"language French", true, "fr", "en", false},
		{"language en", true, "en", "en", false},
		{"langue anglais", true, "en", "fr", false},
		{"language English.", true, "en", "en", false},
		{"langue en-GB", true, "en", "fr", false},
		{"langue klingon", true, "", "fr", true},
		{"langue", true, "", "fr", true},
		{"bid 5", false, "", "", false},
		{"absent 3j", false, "", "", false},
	} {
		ok, lang, written, err := languageVerb([]string{tc.line})
		if ok != tc.ok || lang != tc.lang || written != tc.written || (err != nil) != tc.refused {
			t.Errorf("%q: %v %q %q %v, want %v %q %q refused %v", tc.line, ok, lang, written, err, tc.ok, tc.lang, tc.written, tc.refused)
		}
		if pe, isPlay := errors.AsType[*play.Error](err); err != nil && (!isPlay || !strings.Contains(games.Explain(pe, "fr"), "langue")) {
			t.Errorf("%q: refused with %v, not play's French refusal", tc.line, err)
		}
	}
}

// A line is filled without a French mark set apart at its start: a
// colon, a semicolon, a closing quote stay with the word before them, an
// opening quote with the word after it.
func TestFillKeepsFrenchMarksWithTheirWords(t *testing.T) {
	s := strings.Repeat("mot ", 15) + "« Répondez au-dessus de cette ligne » : écrivez ; vous ?"
	for l := range strings.SplitSeq(msgWrap(s), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if first := f[0]; first == ":" || first == ";" || first == "?" || first == "»" || f[len(f)-1] == "«" {
			t.Errorf("a line starts or ends with a lone mark: %q\n%s", l, msgWrap(s))
		}
	}
	for in, want := range map[string][]string{
		"Classement : « Ana » !":                                                      {"Classement :", "« Ana » !"},
		"répondez par « away 3d », « back » ;":                                        {"répondez", "par", "« away 3d »,", "« back » ;"},
		"« une citation bien trop longue pour tenir en une seule ligne de commande »": {"« une", "citation", "bien", "trop", "longue", "pour", "tenir", "en", "une", "seule", "ligne", "de", "commande »"},
		"bid 5: \"away 3d\"":                                                          {"bid", "5:", "\"away", "3d\""},
	} {
		if got := msgAtoms(in); !slices.Equal(got, want) {
			t.Errorf("atoms of %q: %q, want %q", in, got, want)
		}
	}
}

// quotedRe finds what a pattern quotes, in English or French quotes.
var quotedRe = regexp.MustCompile(`(?s)«\s*(.+?)\s*»|"([^"]+)"`)

// Every command a mail suggests is one courrier reads, in the mail's
// language: the reply verbs of its examples, of the refusal of moves sent
// where none go and of every quotation in notify's catalog are play's
// (play.ParseReply reads each, written in that language or in words every
// language shares), and the lobby's commands notify's own table reads.
func TestSuggestedCommandsAreRead(t *testing.T) {
	placeholders := strings.NewReplacer("<version>", "12", "<motif>", "la donne", "<why>", "the deal", "{0}", "12", "{1}", "12", "{2}", "12")
	verbForms := play.ReplyVerbs()
	for _, lang := range games.Languages() {
		sp := speakerIn(lang)
		verbs := []struct{ said, verb string }{
			{sp.t("example.dispute", 12), play.VerbDispute},
			{sp.t("example.away"), play.VerbAway},
			{sp.t("example.back"), play.VerbBack},
			{sp.t("example.claim"), play.VerbClaim},
			{sp.t("example.resign"), play.VerbResign},
			{sp.verb(play.VerbLanguage) + " " + lang, play.VerbLanguage},
		}
		for _, v := range []string{play.VerbDispute, play.VerbAway, play.VerbBack, play.VerbClaim, play.VerbResign} {
			said := sp.verb(v)
			switch v {
			case play.VerbDispute:
				said += " 12 " + sp.t("dispute.ruling_why")
			case play.VerbAway:
				said += " 3" + sp.command("days_unit")
			}
			if !strings.Contains(noMoveHere(lang), sp.q(sp.verb(v))) {
				t.Errorf("%s: the refusal of moves where none go does not name %q: %s", lang, sp.verb(v), noMoveHere(lang))
			}
			verbs = append(verbs, struct{ said, verb string }{said, v})
		}
		// Every quotation of notify's catalog in lang that starts with a
		// reply verb's word, in any language.
		for _, key := range words.Own().Keys() {
			pats, _ := words.Own().Patterns(lang, key)
			for _, p := range pats {
				for _, m := range quotedRe.FindAllStringSubmatch(p, -1) {
					q := strings.Join(strings.Fields(placeholders.Replace(m[1]+m[2])), " ")
					fields := strings.Fields(play.FoldReply(q))
					for n := len(fields); n > 0; n-- {
						if v, ok := verbForms[strings.Join(fields[:n], " ")]; ok {
							verbs = append(verbs, struct{ said, verb string }{q, v})
							break
						}
					}
				}
			}
		}
		for _, v := range verbs {
			r, ok, err := play.ParseReply([]string{v.said})
			if !ok || err != nil || r.Verb != v.verb || (r.Lang != lang && r.Lang != "") {
				t.Errorf("a %s mail suggests %q: play reads it as %q (%v, %v) written in %q, want %q in %s", lang, v.said, r.Verb, ok, err, r.Lang, v.verb, lang)
			}
		}
		// The lobby's commands, read by notify's table in lang.
		for _, c := range []struct {
			said string
			want []string
			word string
		}{
			{sp.t("example.help"), lobbyVerbs, "help"},
			{sp.t("new.example"), lobbyVerbs, "new"},
			{sp.t("new.example_of", "coup"), lobbyVerbs, "new"},
			{sp.t("resign.example"), lobbyVerbs, "resign"},
			{sp.t("reminders.off_example"), lobbyVerbs, "reminders"},
			{sp.t("reminders.on_example"), lobbyVerbs, "reminders"},
			{sp.t("example.join", "Zoé"), []string{"join"}, "join"},
			{sp.t("example.join_word"), []string{"join"}, "join"},
			{sp.t("new.weekdays_example"), []string{"weekdays"}, "weekdays"},
		} {
			word, n, written := commands.read(strings.Fields(c.said), c.want...)
			if word != c.word || n == 0 || (written != lang && written != "") {
				t.Errorf("a %s mail suggests %q: notify reads %q written in %q, want %q in %s", lang, c.said, word, written, c.word, lang)
			}
		}
		if list := strings.Fields(sp.t("new.weekdays_example")); len(list) != 2 {
			t.Errorf("%s: the weekdays' example is %q", lang, list)
		} else if d, err := play.ParseWeekdays(days(list[1])); err != nil || len(d) != 5 {
			t.Errorf("%s: play reads the weekdays' example %q as %v, %v", lang, list[1], d, err)
		}
	}
}

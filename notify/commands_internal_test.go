package notify

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
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

package notify

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/courrier-games/courrier/games"
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
		{"langue fr", lobbyVerbs, "language", 1, "fr"},
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
	if got := commands.days("lun,mar,mer,jeu,ven"); !slices.Equal(got, []string{"mon", "tue", "wed", "thu", "fri"}) {
		t.Errorf("French days read as %q", got)
	}
	if got := commands.days("mon,Samedi,dimanche,xyz"); !slices.Equal(got, []string{"mon", "sat", "sun", "xyz"}) {
		t.Errorf("mixed days read as %q", got)
	}
	for in, want := range map[string]string{"3j": "3d", "1j12h": "1d12h", "3d": "3d", "36h": "36h", "jour": "jour"} {
		if got := commands.duration(in); got != want {
			t.Errorf("duration %q read as %q, want %q", in, got, want)
		}
	}
}

// "langue fr", "language English", "langue français": the language
// command names a language by its code or its name in any language.
func TestLanguageCommand(t *testing.T) {
	for _, tc := range []struct {
		line  string
		ok    bool
		lang  string
		named string
	}{
		{"langue fr", true, "fr", "fr"},
		{"Langue français", true, "fr", "français"},
		{"langue francais", true, "fr", "francais"},
		{"language French", true, "fr", "French"},
		{"language en", true, "en", "en"},
		{"langue anglais", true, "en", "anglais"},
		{"language English.", true, "en", "English."},
		{"langue en-GB", true, "en", "en-GB"},
		{"langue klingon", true, "", "klingon"},
		{"langue", true, "", ""},
		{"bid 5", false, "", ""},
		{"language of the game is nice here", false, "", ""},
	} {
		ok, lang, named := languageCommand([]string{tc.line})
		if ok != tc.ok || lang != tc.lang || named != tc.named {
			t.Errorf("%q: %v %q %q, want %v %q %q", tc.line, ok, lang, named, tc.ok, tc.lang, tc.named)
		}
	}
}

// A reply's moves tell their language by the game's notation words that
// only one language writes; numbers and shared words tell nothing.
func TestMoveLanguage(t *testing.T) {
	cat, err := games.LoadCatalog(fstest.MapFS{
		"en.toml": {Data: []byte(`"notation.bid" = "bid"` + "\n" + `"notation.coyote" = "coyote"` + "\n" + `"notation.jack" = "jack of clubs"`)},
		"fr.toml": {Data: []byte(`"notation.bid" = "enchère|enchérir"` + "\n" + `"notation.coyote" = "coyote"` + "\n" + `"notation.jack" = "valet de trèfle"`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"enchère 5"}, "fr"},
		{[]string{"Enchere 5"}, "fr"},
		{[]string{"bid 5"}, "en"},
		{[]string{"coyote"}, ""},
		{[]string{"2"}, ""},
		{[]string{"coyote !", "valet de trèfle"}, "fr"},
		{[]string{"play the jack of clubs"}, "en"},
	} {
		if got := moveLanguage(cat, tc.lines); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.lines, got, tc.want)
		}
	}
	if got := moveLanguage(nil, []string{"bid 5"}); got != "" {
		t.Errorf("no catalog: %q", got)
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

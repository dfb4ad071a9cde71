package games_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/courrier-games/courrier/games"
)

// twoLanguages is a catalog in English and French with a plural message and
// the words of a notation.
func twoLanguages(t *testing.T) *games.Catalog {
	t.Helper()
	c, err := games.LoadCatalog(fstest.MapFS{
		"en.toml": {Data: []byte(`"coins" = { one = "{0} coin", other = "{0} coins" }
"bid" = "{0} bids {1}"
"notation.bid" = "bid"
"notation.pass" = "pass"
"notation.aid" = "aid"
"notation.coyote" = "coyote"
`)},
		"fr.toml": {Data: []byte(`"coins" = { one = "{0} pièce", other = "{0} pièces" }
"bid" = "{0} annonce {1}"
"notation.bid" = "enchère|encheris"
"notation.pass" = "passe|je passe|passer"
"notation.aid" = "aide étrangère|l’aide étrangère"
"notation.coyote" = "coyote"
`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.With(games.BoardWords())
}

// Plurals follow each language's CLDR rules: French says "0 pièce" and
// "1 pièce" where English says "0 coins" and "1 coin".
func TestCatalogPluralsByLanguage(t *testing.T) {
	c := twoLanguages(t)
	for _, tt := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "0 coins"}, {"en", 1, "1 coin"}, {"en", 2, "2 coins"},
		{"fr", 0, "0 pièce"}, {"fr", 1, "1 pièce"}, {"fr", 2, "2 pièces"}, {"fr", 1000000, "1000000 pièces"},
	} {
		if got, err := c.In(tt.lang).Say(games.T("coins", tt.n)); err != nil || got != tt.want {
			t.Errorf("%s coins %d = %q, %v; want %q", tt.lang, tt.n, got, err, tt.want)
		}
	}
	if got := c.In("fr").Must(games.T("bid", "Ana", 5)); got != "Ana annonce 5" {
		t.Errorf("fr bid = %q", got)
	}
	if got := c.In("de").Lang(); got != "en" {
		t.Errorf("a language the catalog lacks speaks %q, want English", got)
	}
}

// A move is read in the words of any language, accents optional and case
// ignored, the longest form first; names and numbers are kept. It is
// written back in the reader's words.
func TestNotationReadsAndWritesMoves(t *testing.T) {
	c := twoLanguages(t)
	for in, want := range map[string]string{
		"enchère 5":          "bid 5",
		"ENCHERE 5":          "bid 5",
		"Je passe.":          "pass",
		"passer":             "pass",
		"aide etrangere":     "aid",
		"l'aide étrangère":   "aid",
		"l’aide étrangère":   "aid",
		"Aide Étrangère!":    "aid",
		"bid 7":              "bid 7",
		"enchère Zoé":        "bid Zoé",
		"encheris 12, merci": "bid 12 merci",
		"je mange une pomme": "je mange une pomme",
	} {
		if got := c.ReadMove(in); got != want {
			t.Errorf("ReadMove(%q) = %q, want %q", in, got, want)
		}
	}
	if got := c.In("fr").WriteMove("bid 13 … 120"); got != "enchère 13 … 120" {
		t.Errorf("WriteMove fr = %q", got)
	}
	if got := c.In("en").WriteMove("pass"); got != "pass" {
		t.Errorf("WriteMove en = %q", got)
	}
	// A word of the notation, said in a sentence, is its written form.
	for lang, want := range map[string]string{"en": "pass", "fr": "passe"} {
		if got, err := c.In(lang).Say(games.T("notation.pass")); err != nil || got != want {
			t.Errorf("notation.pass in %s = %q, %v; want %q", lang, got, err, want)
		}
	}
}

// The language of a move is the one its notation words are of: a word
// both languages write alike, a number or a name says nothing, and words
// of two languages mixed say nothing either.
func TestLanguageOfAMove(t *testing.T) {
	c := twoLanguages(t)
	for in, want := range map[string]string{
		"enchère 5":          "fr",
		"Je passe.":          "fr",
		"aide etrangere":     "fr",
		"bid 5":              "en",
		"pass":               "en",
		"coyote":             "",
		"coyote enchère 3":   "fr",
		"3":                  "",
		"Zoé":                "",
		"bid 5 je passe":     "",
		"":                   "",
		"je mange une pomme": "",
	} {
		if got := c.LanguageOf(in); got != want {
			t.Errorf("LanguageOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// Complete finds a key a language lacks and a translation that places
// other arguments than English.
func TestCatalogCompleteFindsGaps(t *testing.T) {
	c, err := games.LoadCatalog(fstest.MapFS{
		"en.toml": {Data: []byte(`"a" = "{0} and {1}"` + "\n" + `"b" = "bee"` + "\n")},
		"fr.toml": {Data: []byte(`"a" = "{0} et"` + "\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Complete()
	if err == nil || !strings.Contains(err.Error(), `fr: no message "b"`) || !strings.Contains(err.Error(), `fr "a" places`) {
		t.Errorf("Complete = %v", err)
	}
	if err := twoLanguages(t).Complete(); err != nil {
		t.Errorf("a complete catalog: %v", err)
	}
	if _, err := games.LoadCatalog(fstest.MapFS{"xx.toml": {Data: []byte(`"a" = "b"`)}}); err == nil {
		t.Error("a message file of no language loaded")
	}
	// Until the gap is filled, a key only English has is said in English
	// (a page still shows), and a key no language has is an error.
	fr := c.In("fr")
	if got, err := fr.Say(games.T("b")); err != nil || got != "bee" {
		t.Errorf("a key only English has, in French: %q, %v", got, err)
	}
	if got, err := fr.Say(games.T("a", "x", "y")); err != nil || got != "x et" {
		t.Errorf("a key French has: %q, %v", got, err)
	}
	if _, err := fr.Say(games.T("nowhere")); err == nil {
		t.Error("a key no language has was said")
	}
}

// Foreign finds the runs of three words or more of a catalog's patterns in
// other languages than the reader's: split at arguments, markup and the
// forms of a notation word, trimmed of punctuation, lowered and spaced
// once, every plural form, and not those the same key's pattern in the
// reader's language holds too (a run another key holds is still foreign).
func TestCatalogForeign(t *testing.T) {
	c, err := games.LoadCatalog(fstest.MapFS{
		"en.toml": {Data: []byte(`"bid" = "{0} bids {1} and wins the pot"
"turn" = "<b>Your turn</b> to bid again"
"notation.pass" = "pass"
"over" = "(The game is OVER.)"
"title" = "Kramer's Coup 1975"
"low" = "the bid is low"
"see" = "see {0}"
"coins" = { one = "{0} coin in the pot", other = "{0} coins in the pot" }
"only" = "said in English only"
"spaced" = "many   spaces  here\n now"
"short" = "two words"
`)},
		"fr.toml": {Data: []byte(`"bid" = "{0} annonce {1} et rafle le pot"
"turn" = "<b>À vous</b> d’enchérir encore une fois"
"notation.pass" = "passe|je passe mon tour"
"over" = "(La partie est FINIE.)"
"title" = "<i>Kramer's Coup 1975</i>, la partie"
"low" = "trop bas"
"see" = "voir : the bid is low, {0}"
"coins" = { one = "{0} pièce au pot", other = "{0} pièces au pot" }
"spaced" = "beaucoup d’espaces ici"
"short" = "deux mots"
`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	english := []string{"and wins the pot", "coin in the pot", "coins in the pot", "many spaces here now",
		"said in english only", "the bid is low", "the game is over", "to bid again"}
	french := []string{"beaucoup d’espaces ici", "d’enchérir encore une fois", "et rafle le pot", "je passe mon tour",
		"la partie est finie", "pièce au pot", "pièces au pot", "voir : the bid is low"}
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"fr", english},
		{"en", french},
		// A language the catalog lacks holds nothing: every run is foreign,
		// "kramer's coup 1975" (which both languages write) too.
		{"nl", slices.Sorted(slices.Values(slices.Concat(english, french, []string{"kramer's coup 1975"})))},
	} {
		if got := c.Foreign(tt.lang); !slices.Equal(got, tt.want) {
			t.Errorf("Foreign(%q) =\n%q\nwant\n%q", tt.lang, got, tt.want)
		}
	}
}

// Languages are chosen from a setting or a browser's Accept-Language.
func TestLanguageChoice(t *testing.T) {
	for in, want := range map[string]string{"fr": "fr", "FR": "fr", "fr-BE": "fr", "en-GB": "en", "de": "", "": "", "français": "", "und": "", "root": ""} {
		if got, _ := games.Language(in); got != want {
			t.Errorf("Language(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"fr-CH, fr;q=0.9, en;q=0.8": "fr", "en-US,en;q=0.5": "en", "de-DE": "", "nl, fr;q=0.3": "fr", "": ""} {
		if got, _ := games.AcceptLanguage(in); got != want {
			t.Errorf("AcceptLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}

// Dates are written the way each language writes them.
func TestWhenIsWrittenPerLanguage(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 28, 18, 0, 0, 0, time.UTC).In(paris)
	if got := games.BoardWords().In("fr").When(at); got != "samedi 28 novembre à 19 h 00" {
		t.Errorf("fr = %q", got)
	}
	if got := games.BoardWords().In("en").When(at); got != "Saturday 28 November at 19:00" {
		t.Errorf("en = %q", got)
	}
	first := time.Date(2026, 11, 1, 8, 5, 0, 0, paris)
	if got := games.BoardWords().In("fr").When(first); got != "dimanche 1er novembre à 8 h 05" {
		t.Errorf("fr, the first of the month = %q", got)
	}
	if got := games.BoardWords().In("en").When(first); got != "Sunday 1 November at 8:05" {
		t.Errorf("en, the first of the month = %q", got)
	}
}

// A phrase says itself in each language, survives JSON in every language,
// and a refusal explains itself in the reader's language with the closest
// legal move in their words.
func TestPhraseAndExplain(t *testing.T) {
	c := twoLanguages(t)
	p := c.Phrase("coins", 3)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back games.Phrase
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.In("fr") != "3 pièces" || back.In("en") != "3 coins" {
		t.Errorf("phrase from %s = %q / %q", b, back.In("fr"), back.In("en"))
	}
	re := &games.RuleError{Rule: "X-1", Reason: c.Phrase("bid", "Ana", 2), Suggest: "pass", Notation: c}
	err2 := errors.Join(errors.New("context"), re)
	if got := games.Explain(err2, "fr"); got != "Ana annonce 2 (le coup permis le plus proche : « passe »)" {
		t.Errorf("Explain fr = %q", got)
	}
	if got := re.Error(); got != "X-1: Ana bids 2" {
		t.Errorf("Error = %q", got)
	}
}

// Reading folds case, accents, the typographic apostrophe and œ.
func TestFoldWord(t *testing.T) {
	for in, want := range map[string]string{
		"Enchère": "enchere", "coup d’État": "coup d'etat", "Cœur": "coeur", "ŒUF": "oeuf",
		"PASS": "pass", "Zoé": "zoe", "×2": "×2", "": "",
	} {
		if got := games.FoldWord(in); got != want {
			t.Errorf("FoldWord(%q) = %q, want %q", in, got, want)
		}
	}
}

// The closest legal move is the nearest in words, then in numbers.
func TestSuggestIsNearestInWordsThenNumbers(t *testing.T) {
	eng := games.Adapt(bidder{})
	var s games.State = 31
	err := eng.Suggest(s, 0, "enchere 1", games.BoardWords().Illegal("X-1", "refusal.seed"))
	re, ok := games.AsRuleError(err)
	if !ok || re.Suggest != "bid 32" {
		t.Errorf("suggests %q, want bid 32", re.Suggest)
	}
	err = eng.Suggest(s, 0, "pas", games.BoardWords().Illegal("X-1", "refusal.seed"))
	if re, _ := games.AsRuleError(err); re.Suggest != "pass" {
		t.Errorf("suggests %q, want pass", re.Suggest)
	}
}

// bidder is a game whose legal moves are bids above its state and pass.
type bidder struct{}

type bidEvent struct{}

func (bidEvent) EventType() string { return "bid" }

func (bidder) Info() games.Info                                               { return games.Info{ID: "bidder", MinSeats: 1, MaxSeats: 2, Rules: 1} }
func (bidder) Initial(int) int                                                { return 0 }
func (bidder) Setup(games.Options, []string, *rand.Rand) ([]bidEvent, error)  { return nil, nil }
func (bidder) Decide(int, games.Seat, string, *rand.Rand) ([]bidEvent, error) { return nil, nil }
func (bidder) Resign(int, games.Seat, *rand.Rand) ([]bidEvent, error)         { return nil, nil }
func (bidder) Evolve(s int, _ bidEvent) int                                   { return s }
func (bidder) Pending(int) []games.Pending                                    { return nil }
func (bidder) Legal(s int, _ games.Seat) []string {
	out := []string{"pass"}
	for b := s + 1; b <= s+60; b++ {
		out = append(out, fmt.Sprintf("bid %d", b))
	}
	return out
}
func (bidder) Choices(int, games.Seat) []string                { return nil }
func (bidder) View(s int, _ games.Seat) any                    { return s }
func (bidder) Redact(_ int, e bidEvent, _ games.Seat) bidEvent { return e }
func (bidder) Describe(int, bidEvent, games.Seat) games.Phrase { return games.Phrase{} }
func (bidder) Parse(_ int, text string) (string, error)        { return text, nil }
func (bidder) Format(_ int, m string) string                   { return m }
func (bidder) Result(int) games.Result                         { return games.Result{} }
func (bidder) Players(int) []string                            { return nil }

package web

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

var (
	// templateKey is a key a template says: {{t "game.move_h"}}, (th "…" …).
	templateKey = regexp.MustCompile(`[({]{1,2}-? ?th? "([a-z0-9_.]+)"`)
	// codeKey is a key the Go code says: v.say("game.seat", …).
	codeKey = regexp.MustCompile(`say\("([a-z0-9_.]*[a-z0-9_])"`)
	// keyLike is a string of the Go code that may be a key it says later
	// ({auth.ErrLinkUsed, "signin.link_used"}).
	keyLike = regexp.MustCompile(`^[a-z]+(?:\.[a-z0-9_]+)+$`)
	// word is a word of a pattern: letters, not an argument or a sign.
	word = regexp.MustCompile(`\pL`)
)

// dynamicKeys are the prefixes of keys the code builds from a value (a
// mail kind, a status, a channel): each is checked by its own test.
var dynamicKeys = []string{"mail.kind.", "error.status.", "audit.channel."}

// Web's catalog has every key in every language with the same arguments;
// every key a page or the code says is in it, and every key of it is said
// somewhere; no French pattern of three words or more is left in English;
// each kind of mail, status and channel the code names a key for has one.
func TestWebCatalogIsComplete(t *testing.T) {
	if err := Words().Complete(); err != nil {
		t.Fatalf("web's catalog is not complete:\n%v", err)
	}
	used := map[string]string{}                         // key → the file saying it
	mentioned := gametest.KeysInSource(t, ".", keyLike) // strings of the code that look like keys
	files, err := filepath.Glob("templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob("templates/pages/*.html")
	code, _ := filepath.Glob("*.go")
	for _, f := range slices.Concat(files, pages, code) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f) //nolint:gosec // G304: the package's own files
		if err != nil {
			t.Fatal(err)
		}
		re := templateKey
		if strings.HasSuffix(f, ".go") {
			re = codeKey
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = f
		}
	}
	if len(used) < 150 {
		t.Fatalf("only %d keys found in the pages and the code: the scan is broken", len(used))
	}
	for key, file := range used {
		for _, lang := range games.Languages() {
			if _, ok := Words().Patterns(lang, key); !ok {
				t.Errorf("%s says %q, which the %s catalog lacks", file, key, lang)
			}
		}
	}
	for _, key := range Words().Keys() {
		dynamic := slices.ContainsFunc(dynamicKeys, func(p string) bool { return strings.HasPrefix(key, p) })
		if _, ok := used[key]; !ok && !dynamic && !mentioned[key] {
			t.Errorf("the catalog's %q is said nowhere", key)
		}
		en, _ := Words().Patterns(games.English, key)
		fr, _ := Words().Patterns("fr", key)
		for _, p := range en {
			if words(p) >= 3 && slices.Contains(fr, p) {
				t.Errorf("%q is in English in the French catalog: %q", key, p)
			}
		}
	}
	for _, k := range auth.MailKinds() {
		for _, part := range []string{"label", "about"} {
			if _, ok := Words().Patterns(games.English, "mail.kind."+k.ID+"."+part); !ok {
				t.Errorf("mail kind %s has no %s", k.ID, part)
			}
		}
	}
	for _, ch := range []string{"api", "email", "web", "cli", "timeout default"} {
		if _, ok := Words().Patterns(games.English, "audit.channel."+strings.ReplaceAll(ch, " ", "_")); !ok {
			t.Errorf("channel %q has no words", ch)
		}
	}
}

// Dates are said in the page's language, in the player's time zone; lists
// of names and the numbers of players follow the language's rules.
func TestWordsOfAVisit(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 11, 28, 18, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		lang string
		loc  *time.Location
		want string
	}{
		{"fr", paris, "vendredi 28 novembre à 19 h 00"},
		{"en", paris, "Friday 28 November at 19:00"},
		{"fr", auckland, "samedi 29 novembre à 7 h 00"},
		{"en", nil, "Friday 28 November at 18:00"},
	} {
		if got := (visit{Lang: tt.lang}).when(at, tt.loc); got != tt.want {
			t.Errorf("%s in %v: %q, want %q", tt.lang, tt.loc, got, tt.want)
		}
	}
	for _, tt := range []struct {
		lang     string
		min, max int
		names    []string
		seats    string
		list     string
	}{
		{"en", 4, 4, []string{"Ana", "Bob", "Cleo"}, "4 players", "Ana, Bob and Cleo"},
		{"fr", 4, 4, []string{"Ana", "Bob", "Cleo"}, "4 joueurs", "Ana, Bob et Cleo"},
		{"en", 1, 1, []string{"Ana"}, "1 player", "Ana"},
		{"fr", 1, 1, []string{"Ana", "Bob"}, "1 joueur", "Ana et Bob"},
		{"fr", 3, 6, nil, "de 3 à 6 joueurs", ""},
		{"en", 2, 6, nil, "2 to 6 players", ""},
	} {
		v := visit{Lang: tt.lang}
		if got := v.seats(tt.min, tt.max); got != tt.seats {
			t.Errorf("%s seats %d–%d: %q, want %q", tt.lang, tt.min, tt.max, got, tt.seats)
		}
		if got := v.list(tt.names); got != tt.list {
			t.Errorf("%s list %v: %q, want %q", tt.lang, tt.names, got, tt.list)
		}
	}
	if got := (visit{Lang: "fr"}).weekdays(); len(got) != 7 || got[0] != (optionValue{Value: "mon", Label: "lundi"}) || got[6] != (optionValue{Value: "sun", Label: "dimanche"}) {
		t.Errorf("the French weekdays: %v", got)
	}
}

// Rule ids are anchors of the rules page; headings are anchored by their
// words, accents folded.
func TestRulesAnchors(t *testing.T) {
	blocks := markdown("## Mise en œuvre : les Règles\n\n- **CY-6** [TEXT] On your turn\n  you bid.\n- **CY-6** again\n- plain\n1. **KC-12a** numbered\n")
	if blocks[0].ID != "mise-en-oeuvre--les-regles" { // games.FoldWord folds œ to oe
		t.Errorf("the heading's anchor: %q", blocks[0].ID)
	}
	var ids []string
	for _, it := range blocks[1].Items {
		ids = append(ids, it.ID)
	}
	if want := []string{"CY-6", "", "", "KC-12a"}; !slices.Equal(ids, want) || blocks[1].Items[0].Text != "CY-6 [TEXT] On your turn you bid." {
		t.Errorf("the items: %+v, want ids %v", blocks[1].Items, want)
	}
}

// Only a path of this site is a place to send a browser back to.
func TestLocalPath(t *testing.T) {
	for to, want := range map[string]bool{
		"/games/x?version=3": true, "/": true, "": false, "//evil.example/": false,
		`/\evil.example`: false, "https://evil.example/": false, "/a\r\nSet-Cookie: x": false,
	} {
		if localPath(to) != want {
			t.Errorf("localPath(%q) = %v", to, !want)
		}
	}
}

// words counts the words of a pattern (not its arguments or signs).
func words(pattern string) int {
	n := 0
	for f := range strings.FieldsSeq(pattern) {
		if word.MatchString(f) && !strings.HasPrefix(f, "{") {
			n++
		}
	}
	return n
}

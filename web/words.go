package web

import (
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

// The pages speak the reader's language. Every word of every page and
// form is a key of web's catalog (words/en.toml, words/fr.toml, go-i18n's
// format, read by games.LoadCatalog: CLDR plurals, arguments placed by
// number); templates say a key with {{t "game.move_h"}}, or, for the few
// patterns that carry markup around their arguments, {{th …}}, which
// escapes the arguments. A game's own words (its board, options, what
// happened, refusals) are said in the same language from the game's
// catalog. The page's language is the signed-in player's setting, else
// the one the visitor chose with the switch at the foot of every page (a
// cookie), else the browser's Accept-Language, else English.

//go:embed words/*.toml
var wordFiles embed.FS

// pageWords is web's catalog, read once at start and never changed.
var pageWords = func() *games.Catalog {
	sub, err := fs.Sub(wordFiles, "words")
	if err != nil {
		panic(err)
	}
	return games.MustLoadCatalog(sub)
}()

// Words is web's catalog: the words of its pages and forms, in every
// language courrier speaks.
func Words() *games.Catalog { return pageWords }

// langCookie holds the language a visitor chose with the switch.
const langCookie = "courrier_lang"

// pageLanguage is the language of a page for u (zero when nobody is
// signed in): their setting, else the language the visitor chose (the
// cookie), else the one noted on their account at their first visit,
// else the browser's Accept-Language, else English.
func (h *Handler) pageLanguage(r *http.Request, u auth.User) string {
	return auth.ChooseLanguage(u.Language, cmp.Or(h.chosenLanguage(r), u.NotedLanguage), r.Header.Get("Accept-Language"))
}

// chosenLanguage is the language the visitor chose with the switch, or "".
func (h *Handler) chosenLanguage(r *http.Request) string {
	c, err := r.Cookie(h.cookieName(langCookie))
	if err != nil {
		return ""
	}
	if l, ok := games.Language(c.Value); ok {
		return l
	}
	return ""
}

// firstLanguage is the language to note on an account that has none when
// its owner signs in: the one they chose on the pages, else their
// browser's; "" when neither says one.
func (h *Handler) firstLanguage(r *http.Request) string {
	if l := h.chosenLanguage(r); l != "" {
		return l
	}
	if l, ok := games.AcceptLanguage(r.Header.Get("Accept-Language")); ok {
		return l
	}
	return ""
}

// say writes key with args in the visit's language.
func (v visit) say(key string, args ...any) string {
	return pageWords.In(v.Lang).Must(games.T(key, args...))
}

// when writes t as a person reads it in the visit's language, in loc:
// "Friday 28 November at 19:00", "vendredi 28 novembre à 19 h 00".
func (v visit) when(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	if loc == nil {
		loc = time.UTC
	}
	return games.BoardWords().In(v.Lang).When(t.In(loc))
}

// list writes names as a list in the visit's language: "Ana, Bob and
// Cleo", "Ana, Bob et Cleo".
func (v visit) list(names []string) string {
	if len(names) == 0 {
		return ""
	}
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return games.BoardWords().In(v.Lang).Must(games.List(items...))
}

// languageChoice is one language of the switch and of the settings form,
// named in its own words.
type languageChoice struct {
	Tag, Name string
	Current   bool
}

// languageChoices are the languages courrier speaks, lang marked current.
func languageChoices(lang string) []languageChoice {
	var out []languageChoice
	for _, l := range games.Languages() {
		out = append(out, languageChoice{Tag: l, Name: languageName(l), Current: l == lang})
	}
	return out
}

// languageName is a language's name in its own words ("Français").
func languageName(lang string) string {
	return games.BoardWords().In(lang).Must(games.T("language.name"))
}

// templateWords are the template functions that say web's words in lang:
// t says a key as text; th says a key whose pattern holds markup (a
// <strong>, a <code>, a link), each argument escaped.
func templateWords(lang string) template.FuncMap {
	words := pageWords.In(lang)
	return template.FuncMap{
		"t": func(key string, args ...any) string {
			return words.Must(games.T(key, templateArgs(args, false)...))
		},
		"th": func(key string, args ...any) template.HTML {
			return template.HTML(words.Must(games.T(key, templateArgs(args, true)...))) //nolint:gosec // G203: the pattern is our catalog's, every argument is escaped
		},
	}
}

// templateArgs are a template's arguments as a Text takes them: ints and
// strings (escaped for HTML when escape is set), anything else written
// as a string.
func templateArgs(args []any, escape bool) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int:
			out[i] = v
		case string:
			out[i] = v
		case fmt.Stringer:
			out[i] = v.String()
		default:
			out[i] = fmt.Sprint(v)
		}
		if s, ok := out[i].(string); ok && escape {
			out[i] = template.HTMLEscapeString(s)
		}
	}
	return out
}

// statusTitle is the title of an error page of status.
func (v visit) statusTitle(status int) string {
	if _, ok := pageWords.Patterns(games.English, fmt.Sprintf("error.status.%d", status)); ok {
		return v.say(fmt.Sprintf("error.status.%d", status))
	}
	return http.StatusText(status)
}

// localPath reports whether to is a path of this site to send a browser
// back to ("/games/x?version=3"), not another site's address.
func localPath(to string) bool {
	return strings.HasPrefix(to, "/") && !strings.HasPrefix(to, "//") && !strings.HasPrefix(to, `/\`) && !strings.ContainsAny(to, "\r\n")
}

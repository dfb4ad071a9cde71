package notify

import (
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify/words"
	"github.com/courrier-games/courrier/play"
)

// A speaker says notify's words (package notify/words) in one language:
// the templates' functions, and the sentences the Go code writes into a
// mail's data (a notice's paragraphs, a refusal's reason). Every word a
// person reads in a mail comes from it.
type speaker struct {
	w games.Words
}

// speakerIn is the speaker of lang (English for a language courrier does
// not speak).
func speakerIn(lang string) speaker { return speaker{w: words.Catalog().In(mailLang(lang))} }

// lang is the language sp speaks.
func (sp speaker) lang() string { return sp.w.Lang() }

// t says key with args (strings, ints, games.Text, games.Phrase).
func (sp speaker) t(key string, args ...any) string { return sp.w.Must(games.T(key, args...)) }

// q quotes s as sp's language does: "s", « s ».
func (sp speaker) q(s string) string { return sp.t("mail.quoted", s) }

// command is how sp's language writes a mail command's word: the first
// form of "command.<word>" ("nouvelle partie").
func (sp speaker) command(word string) string {
	f, _, _ := strings.Cut(sp.t(commandPrefix+word), "|")
	return f
}

// verb is how sp's language writes one of play's reply verbs (play.Verb…):
// the first form of play's catalog's "verb.<verb>" ("absent", "langue"),
// a word play's parser reads.
func (sp speaker) verb(v string) string {
	if p, ok := play.Words().Patterns(sp.lang(), "verb."+v); ok && len(p) > 0 {
		f, _, _ := strings.Cut(p[0], "|")
		return f
	}
	return v
}

// when says t in sp's language in loc (UTC when nil), with the zone:
// "Friday 28 November at 19:00 CET", "vendredi 28 novembre à 19 h 00 (CET)".
func (sp speaker) when(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return sp.t("date.zoned", sp.w.When(t), t.Format("MST"))
}

// clock says the time of day of t in UTC: "15:04 UTC", "15 h 04 UTC".
func (sp speaker) clock(t time.Time) string { return sp.t("date.utc_clock", sp.w.Clock(t.UTC())) }

// ordinal says n as an ordinal, by CLDR's ordinal rules of sp's language:
// "3rd", "3e".
func (sp speaker) ordinal(n int) string {
	form := "other"
	switch plural.Ordinal.MatchPlural(language.Make(sp.lang()), n, 0, 0, 0, 0) {
	case plural.Zero:
		form = "zero"
	case plural.One:
		form = "one"
	case plural.Two:
		form = "two"
	case plural.Few:
		form = "few"
	case plural.Many:
		form = "many"
	}
	if s, err := sp.w.Say(games.T("ordinal."+form, n)); err == nil {
		return s
	}
	return sp.t("ordinal.other", n)
}

// list says items as a list: "Ana, Bob and Cleo", "Ana, Bob et Cleo".
func (sp speaker) list(items []string) string {
	args := make([]any, len(items))
	for i, it := range items {
		args[i] = it
	}
	return sp.w.Must(games.List(args...))
}

// msgTag starts every subject.
const msgTag = "[courrier]"

// prefix starts a game's subjects: "[courrier] Coyote abc123:".
func (sp speaker) prefix(g GameRef) string {
	var parts []string
	if n := msgGameNameOrKind(g); n != "" {
		parts = append(parts, n)
	}
	if g.ID != "" {
		parts = append(parts, g.ID)
	}
	if len(parts) == 0 {
		return msgTag
	}
	return msgTag + " " + sp.t("game.subject", strings.Join(parts, " "))
}

// subject is a subject with msgTag in front: "[courrier] your games".
func (sp speaker) subject(key string, args ...any) string {
	return msgTag + " " + sp.t(key, args...)
}

// tagged puts msgTag in front of a subject that lacks it.
func (sp speaker) tagged(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		return msgTag + " " + sp.t("mail.a_message")
	case strings.HasPrefix(s, msgTag):
		return s
	}
	return msgTag + " " + s
}

func msgGameNameOrKind(g GameRef) string {
	if g.Name != "" {
		return g.Name
	}
	return g.Kind
}

// gameName is the game's display name, else "the game".
func (sp speaker) gameName(g GameRef) string {
	if n := msgGameNameOrKind(g); n != "" {
		return n
	}
	return sp.t("game.the")
}

// game names a game in a sentence: "Coyote (game abc123)", "la partie
// abc123 de Coyote".
func (sp speaker) game(g GameRef) string {
	n := msgGameNameOrKind(g)
	switch {
	case n != "" && g.ID != "":
		return sp.t("game.title", n, g.ID)
	case g.ID != "":
		return sp.t("game.id", g.ID)
	case n != "":
		return sp.t("game.named", n)
	}
	return sp.t("game.the")
}

// hello greets a player.
func (sp speaker) hello(name string) string {
	if name = strings.TrimSpace(name); name == "" {
		return sp.t("mail.hello_nobody")
	}
	return sp.t("mail.hello", name)
}

// seedPromise says a game's seed commitment: published from the start,
// checked against the seed the game-over mail reveals.
func (sp speaker) seedPromise(commitment string) string {
	return sp.t("mail.seed_promise", commitment)
}

// because is a refusal's reason, with its rule: "Bid more than 3 (rule
// CY-4)."
func (sp speaker) because(problem, rule string) string {
	s := msgSentence(problem)
	if rule == "" {
		return s
	}
	return sp.t("refusal.rule", strings.TrimSuffix(s, "."), rule)
}

// markerWords are the reply marker's words, without its "#".
func (sp speaker) markerWords() string {
	return strings.Trim(sp.t(words.MarkerKey), "# ")
}

// textFuncs are the functions of the text templates, saying sp's words.
func (sp speaker) textFuncs() map[string]any {
	return map[string]any{
		// t says a key with its arguments; ts is the same (the HTML
		// templates tell their text apart from their markup).
		"t":           sp.t,
		"ts":          sp.t,
		"q":           sp.q,
		"code":        sp.q,
		"word":        func(s string) string { return s },
		"hash":        func(s string) string { return s },
		"markerWords": sp.markerWords,
		"prefix":      sp.prefix,
		"seedPromise": sp.seedPromise,
		"game":        sp.game,
		"gameName":    sp.gameName,
		"hello":       sp.hello,
		"wrap":        msgWrap,
		"said":        msgSaid,
		"bullets":     msgBullets,
		"numbered":    msgNumbered,
		"indent":      msgIndent,
		"join":        strings.Join,
		"short":       msgShort,
		"sentence":    msgSentence,
		"capital":     msgCapital,
		"because":     sp.because,
		"tagged":      sp.tagged,
		"untagged":    func(s string) string { return strings.TrimSpace(strings.TrimPrefix(sp.tagged(s), msgTag)) },
	}
}

// htmlFuncs are the functions of the HTML templates: those of the text
// templates, but t says a key as HTML (its words escaped, an argument
// that is already HTML, such as code's, kept), code and word show a
// command as code, hash a long hex string as code that may break
// anywhere, and q quotes with typographic quotes.
func (sp speaker) htmlFuncs() map[string]any {
	f := sp.textFuncs()
	f["t"] = sp.html
	f["code"] = func(v any) htmltemplate.HTML { return "<code>" + msgHTML(v) + "</code>" }
	f["word"] = f["code"]
	f["hash"] = func(v any) htmltemplate.HTML {
		return `<code style="word-break:break-all;">` + msgHTML(v) + "</code>"
	}
	f["q"] = func(s string) string { return sp.t("mail.quoted_html", s) }
	// cid is the URL of an inline picture (Mail.Inline) by its
	// Content-ID, for an <img src>.
	f["cid"] = func(id string) htmltemplate.URL { return htmltemplate.URL("cid:" + url.PathEscape(id)) } //nolint:gosec // G203: a Content-ID checked by msgValidID
	return f
}

// html says key with args as HTML: the pattern's words and the string
// arguments escaped, an htmltemplate.HTML argument kept as it is.
func (sp speaker) html(key string, args ...any) htmltemplate.HTML {
	said := make([]any, len(args))
	marks := map[string]string{}
	for i, a := range args {
		if n, ok := a.(int); ok {
			said[i] = n // a number chooses a plural form
			continue
		}
		mark := "\ue000" + strconv.Itoa(i) + "\ue001"
		said[i], marks[mark] = mark, string(msgHTML(a))
	}
	out := htmltemplate.HTMLEscapeString(sp.t(key, said...))
	for mark, v := range marks {
		out = strings.ReplaceAll(out, mark, v)
	}
	return htmltemplate.HTML(out) //nolint:gosec // G203: every word escaped above
}

// msgHTML is v as HTML: kept when it is HTML already, escaped otherwise.
func msgHTML(v any) htmltemplate.HTML {
	switch x := v.(type) {
	case htmltemplate.HTML:
		return x
	case string:
		return htmltemplate.HTML(htmltemplate.HTMLEscapeString(x)) //nolint:gosec // G203: escaped
	}
	return htmltemplate.HTML(htmltemplate.HTMLEscapeString(fmt.Sprint(v))) //nolint:gosec // G203: escaped
}

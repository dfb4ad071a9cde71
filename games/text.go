package games

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// The words courrier says: a Text is a message key with its arguments, a
// Catalog a package's messages in every language it speaks, read from one
// message file per language (go-i18n's format, in TOML), and Words a
// catalog in one language. go-i18n matches languages and chooses plural
// forms by CLDR's rules; a pattern places its arguments by number ({0},
// {1}), so that a translation may reorder them.

// Text is a word, phrase or sentence: a key of a catalog and the arguments
// its pattern places. An argument is a string (a player's name, a code
// shown as it is), an int (a count, a number), a Text (a word of the
// catalog, such as a card's name) or a [Phrase] (words of another
// catalog, said in the same language). A Text with no key is its one argument
// as it is: see [Plain].
type Text struct {
	Key  string `json:"key,omitempty"`
	Args []any  `json:"args,omitempty"`
}

// T returns the text of key with args.
func T(key string, args ...any) Text { return Text{Key: key, Args: args} }

// Plain returns a text that is v as it is (a player's name, a number): no
// catalog translates it.
func Plain(v any) Text { return Text{Args: []any{v}} }

// IsZero reports whether t says nothing (no key and no argument).
func (t Text) IsZero() bool { return t.Key == "" && len(t.Args) == 0 }

// English is the language every catalog speaks and the one said when
// nothing chooses another.
const English = "en"

// Languages are the languages courrier speaks, English first: every
// catalog has a message file for each (a test checks it). Adding one is
// adding its message files and its tag here.
func Languages() []string { return []string{English, "fr"} }

// Language returns the language of Languages that tag (a setting, a
// command's word, "fr-BE") names, and whether it names one.
func Language(tag string) (string, bool) {
	t, err := language.Parse(strings.TrimSpace(tag))
	if err != nil {
		return "", false
	}
	base, conf := t.Base()
	if conf != language.Exact { // "und", "root": no language named
		return "", false
	}
	for _, l := range Languages() {
		if base.String() == l {
			return l, true
		}
	}
	return "", false
}

// AcceptLanguage chooses the language of Languages that an HTTP
// Accept-Language header prefers, and whether it prefers one.
func AcceptLanguage(header string) (string, bool) {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return "", false
	}
	supported := make([]language.Tag, 0, len(Languages()))
	for _, l := range Languages() {
		supported = append(supported, language.Make(l))
	}
	_, i, conf := language.NewMatcher(supported).Match(tags...)
	if conf == language.No {
		return "", false
	}
	return Languages()[i], true
}

// Catalog is a package's messages in every language it speaks. Build one
// with [LoadCatalog] from the package's message files, layer catalogs
// with [Catalog.With], and say its texts in one language with
// [Catalog.In]. A catalog is never changed once built.
type Catalog struct {
	// messages by language, then by key.
	messages map[string]map[string]*i18n.Message
	bundle   *i18n.Bundle
	// localizers by language, made once with the bundle.
	localizers map[string]*i18n.Localizer
	notation   notation
}

// LoadCatalog reads a catalog from fsys: one message file per language,
// "<language>.toml" at its root ("en.toml", "fr.toml"), in go-i18n's
// format: "key" = "pattern", or "key" = { one = "…", other = "…" } for
// a message whose words depend on its first number (CLDR's plural
// categories of the language: one, few, many, other…).
func LoadCatalog(fsys fs.FS) (*Catalog, error) {
	files, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("games: catalog: %w", err)
	}
	if len(files) == 0 {
		return nil, errors.New("games: catalog: no message file")
	}
	c := &Catalog{messages: map[string]map[string]*i18n.Message{}}
	for _, f := range files {
		lang := strings.TrimSuffix(path.Base(f), ".toml")
		if l, ok := Language(lang); !ok || l != lang {
			return nil, fmt.Errorf("games: catalog: %s names no language courrier speaks", f)
		}
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("games: catalog: %w", err)
		}
		msgs, err := i18n.ParseMessageBytes(raw, toml.Unmarshal)
		if err != nil {
			return nil, fmt.Errorf("games: catalog %s: %w", f, err)
		}
		byKey := map[string]*i18n.Message{}
		for _, m := range msgs {
			byKey[m.ID] = m
		}
		c.messages[lang] = byKey
	}
	if _, ok := c.messages[English]; !ok {
		return nil, errors.New("games: catalog: no English message file (en.toml)")
	}
	return c.built(), nil
}

// MustLoadCatalog is LoadCatalog for message files embedded in the
// program, which its tests read: it panics on an error.
func MustLoadCatalog(fsys fs.FS) *Catalog {
	c, err := LoadCatalog(fsys)
	if err != nil {
		panic(err)
	}
	return c
}

// CatalogOf builds a catalog of one language from patterns by key, a
// plural message as key+".one", key+".other" (and the language's other
// categories), over the words all boards share: for tests and small
// tools.
func CatalogOf(lang string, patterns map[string]string) *Catalog {
	byKey := map[string]*i18n.Message{}
	for k, p := range patterns {
		key, form := k, "other"
		for _, f := range []string{"zero", "one", "two", "few", "many", "other"} {
			if base, ok := strings.CutSuffix(k, "."+f); ok {
				key, form = base, f
			}
		}
		m := byKey[key]
		if m == nil {
			m = &i18n.Message{ID: key}
			byKey[key] = m
		}
		switch form {
		case "zero":
			m.Zero = p
		case "one":
			m.One = p
		case "two":
			m.Two = p
		case "few":
			m.Few = p
		case "many":
			m.Many = p
		default:
			m.Other = p
		}
	}
	return (&Catalog{messages: map[string]map[string]*i18n.Message{lang: byKey}}).built().With(boardWords)
}

// built makes c's bundle from its messages.
func (c *Catalog) built() *Catalog {
	c.bundle = i18n.NewBundle(language.English)
	for lang, msgs := range c.messages {
		tag := language.Make(lang)
		for _, k := range slices.Sorted(maps.Keys(msgs)) {
			c.bundle.MustAddMessages(tag, everyForm(msgs[k]))
		}
	}
	c.localizers = map[string]*i18n.Localizer{}
	for lang := range c.messages {
		c.localizers[lang] = i18n.NewLocalizer(c.bundle, lang)
	}
	c.notation = c.readTable()
	return c
}

// With returns a catalog holding c's messages and those of more: a key c
// lacks is looked up in more, in order. A game's words are its own over
// the words all boards share.
func (c *Catalog) With(more ...*Catalog) *Catalog {
	out := &Catalog{messages: map[string]map[string]*i18n.Message{}}
	all := append([]*Catalog{c}, more...)
	for _, cat := range slices.Backward(all) {
		for lang, msgs := range cat.messages {
			if out.messages[lang] == nil {
				out.messages[lang] = map[string]*i18n.Message{}
			}
			maps.Copy(out.messages[lang], msgs)
		}
	}
	return out.built()
}

// Languages are the languages c has a message file for, English first.
func (c *Catalog) Languages() []string {
	var out []string
	for _, l := range Languages() {
		if _, ok := c.messages[l]; ok {
			out = append(out, l)
		}
	}
	return out
}

// Keys are the keys of c's English messages, sorted.
func (c *Catalog) Keys() []string { return slices.Sorted(maps.Keys(c.messages[English])) }

// Patterns are every form of key's message in lang (one pattern, or one
// per plural category), and whether lang has the key.
func (c *Catalog) Patterns(lang, key string) ([]string, bool) {
	m, ok := c.messages[lang][key]
	if !ok {
		return nil, false
	}
	var out []string
	for _, p := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out, true
}

// Complete tells whether every language of Languages has every key of c,
// each placing the same arguments as English does: what a test of each
// package that owns words checks.
func (c *Catalog) Complete() error {
	var errs []error
	keys := map[string]bool{}
	for _, msgs := range c.messages {
		for k := range msgs {
			keys[k] = true
		}
	}
	for _, lang := range Languages() {
		if _, ok := c.messages[lang]; !ok {
			errs = append(errs, fmt.Errorf("no message file for %s", lang))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			m, ok := c.messages[lang][k]
			if !ok {
				errs = append(errs, fmt.Errorf("%s: no message %q", lang, k))
				continue
			}
			en, ok := c.messages[English][k]
			if !ok {
				errs = append(errs, fmt.Errorf("%s has %q, English does not", lang, k))
				continue
			}
			want, err := placed(en.Other)
			if err != nil {
				errs = append(errs, fmt.Errorf("en %q: %w", k, err))
				continue
			}
			got, err := placed(m.Other)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s %q: %w", lang, k, err))
				continue
			}
			if !maps.Equal(want, got) {
				errs = append(errs, fmt.Errorf("%s %q places %v, English places %v", lang, k, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))))
			}
		}
	}
	return errors.Join(errs...)
}

// foreignBreak is what parts a pattern into runs of words: an argument, a
// piece of markup, or the "|" between the forms of a notation word.
var foreignBreak = regexp.MustCompile(`\{\d+\}|<[^>]*>|\|`)

// foreignTrim is the punctuation trimmed off each end of a run.
const foreignTrim = " .,;:!?()«»“”\"'"

// Foreign are the sentences of c that a text in lang (the reader's
// language) must not hold: each run of three words or more of a pattern of
// c in another language, between the pattern's arguments, its markup and
// the forms of a notation word, and trimmed of the punctuation at its ends,
// that no pattern of the same key in lang holds too (a name both
// languages write alike is no foreign sentence). Every key and every
// plural form counts, the words of moves included. Each run is in lower
// case with one space between words, so look for them in a text lowered
// and spaced alike; they come sorted, each once. A key lang lacks holds
// nothing: all its runs in other languages are foreign.
func (c *Catalog) Foreign(lang string) []string {
	keys := map[string]bool{}
	for _, msgs := range c.messages {
		for k := range msgs {
			keys[k] = true
		}
	}
	var out []string
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		mine, _ := c.Patterns(lang, key)
		for i, m := range mine {
			mine[i] = foreignSpaced(foreignBreak.ReplaceAllStringFunc(m, func(b string) string {
				if strings.HasPrefix(b, "<") {
					return " " // markup is no word: the reader reads round it
				}
				return b
			}))
		}
		for _, other := range c.Languages() {
			if other == lang {
				continue
			}
			theirs, _ := c.Patterns(other, key)
			for _, p := range theirs {
				for _, run := range foreignBreak.Split(p, -1) {
					run = foreignSpaced(strings.Trim(run, foreignTrim))
					if len(strings.Fields(run)) < 3 || slices.ContainsFunc(mine, func(m string) bool { return strings.Contains(m, run) }) {
						continue
					}
					out = append(out, run)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// foreignSpaced is s in lower case with one space between words.
func foreignSpaced(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// In returns c's words in lang (a language of Languages; English for
// any other).
func (c *Catalog) In(lang string) Words {
	if _, ok := c.messages[lang]; !ok {
		lang = English
	}
	return Words{c: c, lang: lang, loc: c.localizers[lang]}
}

// Phrase returns the text of key with args, said by c.
func (c *Catalog) Phrase(key string, args ...any) Phrase {
	return Phrase{Text: T(key, args...), Words: c}
}

// Illegal returns a *RuleError for rule whose reason is c's message key
// with args.
func (c *Catalog) Illegal(rule, key string, args ...any) error {
	return &RuleError{Rule: rule, Reason: c.Phrase(key, args...)}
}

// Unparsable returns a *RuleError for text that is not a move of the game,
// its reason c's message key with args.
func (c *Catalog) Unparsable(key string, args ...any) error {
	return c.Illegal(NotationRule, key, args...)
}

// Words is a catalog in one language: it says texts.
type Words struct {
	c    *Catalog
	lang string
	loc  *i18n.Localizer
}

// Lang is the language w speaks.
func (w Words) Lang() string { return w.lang }

// Catalog is the catalog w says from.
func (w Words) Catalog() *Catalog { return w.c }

// Say writes t in w's language. It fails when the key is in no message
// file or a pattern places an argument t does not have.
func (w Words) Say(t Text) (string, error) {
	if t.Key == "" {
		if len(t.Args) != 1 {
			return "", fmt.Errorf("games: a plain text has one argument, not %d", len(t.Args))
		}
		return w.arg(t.Args[0])
	}
	if w.c == nil {
		return "", fmt.Errorf("games: no catalog says %q", t.Key)
	}
	m, ok := w.c.messages[w.lang][t.Key]
	if !ok {
		m, ok = w.c.messages[English][t.Key]
	}
	if !ok {
		return "", fmt.Errorf("games: no message %q", t.Key)
	}
	args := make([]string, len(t.Args))
	count := -1
	for i, a := range t.Args {
		s, err := w.arg(a)
		if err != nil {
			return "", fmt.Errorf("games: %q argument %d: %w", t.Key, i, err)
		}
		args[i] = s
		if n, ok := a.(int); ok && count < 0 {
			count = n
		}
	}
	var s string
	var err error
	if plural(m) {
		// go-i18n chooses the form by the language's CLDR rules.
		if count < 0 {
			return "", fmt.Errorf("games: %q has plural forms but no int argument", t.Key)
		}
		s, err = w.loc.Localize(&i18n.LocalizeConfig{MessageID: t.Key, TemplateData: args, TemplateParser: positional{}, PluralCount: count})
	} else {
		// One form: its pattern is placed directly (the same as go-i18n
		// would, without its lookups, on every word of every board).
		s, err = pattern(m.Other).Execute(args)
	}
	if _, notHere := errors.AsType[*i18n.MessageNotFoundErr](err); notHere {
		err = nil // a key only English has: go-i18n said it in English
	}
	if err != nil {
		return "", fmt.Errorf("games: %q in %s: %w", t.Key, w.lang, err)
	}
	if strings.HasPrefix(t.Key, NotationPrefix) {
		// A word of the notation is said as it is written (its first
		// form), as in a refusal's "write faction up or faction down".
		s, _, _ = strings.Cut(s, "|")
	}
	return s, nil
}

// everyForm is m with each plural form it leaves out said as its "other"
// form (a French "many" for a million, when a translation writes only
// "one" and "other").
func everyForm(m *i18n.Message) *i18n.Message {
	if !plural(m) {
		return m
	}
	out := *m
	for _, f := range []*string{&out.Zero, &out.One, &out.Two, &out.Few, &out.Many} {
		if *f == "" {
			*f = out.Other
		}
	}
	return &out
}

// plural reports whether m has plural forms.
func plural(m *i18n.Message) bool {
	return m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
}

// Must is Say for text a test has checked: an error is written in place
// of the words, so that a page still shows.
func (w Words) Must(t Text) string {
	s, err := w.Say(t)
	if err != nil {
		return "[" + err.Error() + "]"
	}
	return s
}

func (w Words) arg(a any) (string, error) {
	switch v := a.(type) {
	case string:
		return v, nil
	case int:
		return strconv.Itoa(v), nil
	case Text:
		return w.Say(v)
	case Phrase:
		return v.In(w.lang), nil
	}
	return "", fmt.Errorf("games: an argument of type %T (strings, ints, texts and phrases only)", a)
}

// Check tells whether w says t exactly: its key is in w's language (not
// only in English), every argument is a string, an int or a Text w says,
// and each form of the key's pattern places every argument it is given
// and no other (a plural form other than "other" may leave out the
// number it stands for).
func (w Words) Check(t Text) error {
	if t.Key == "" && len(t.Args) != 1 {
		return fmt.Errorf("games: a plain text has one argument, not %d", len(t.Args))
	}
	for i, a := range t.Args {
		switch v := a.(type) {
		case string, int, Phrase:
		case Text:
			if err := w.Check(v); err != nil {
				return fmt.Errorf("%q argument %d: %w", t.Key, i, err)
			}
		default:
			return fmt.Errorf("games: %q argument %d is a %T (strings, ints and texts only)", t.Key, i, a)
		}
	}
	if t.Key == "" {
		return nil
	}
	if w.c == nil {
		return fmt.Errorf("games: no catalog says %q", t.Key)
	}
	m, ok := w.c.messages[w.lang][t.Key]
	if !ok {
		return fmt.Errorf("games: no message %q in %s", t.Key, w.lang)
	}
	forms := map[string]bool{m.Other: true}
	for _, p := range []string{m.Zero, m.One, m.Two, m.Few, m.Many} {
		if p != "" {
			forms[p] = forms[p] || false
		}
	}
	for p, all := range forms {
		used, err := placed(p)
		if err != nil {
			return fmt.Errorf("games: %q: %w", t.Key, err)
		}
		for i := range used {
			if i >= len(t.Args) {
				return fmt.Errorf("games: %q places {%d} but has %d arguments", t.Key, i, len(t.Args))
			}
		}
		for i := range t.Args {
			if all && !used[i] {
				return fmt.Errorf("games: %q has argument %d (%v) that %q does not place", t.Key, i, t.Args[i], p)
			}
		}
	}
	if _, err := w.Say(t); err != nil {
		return err
	}
	return nil
}

// positional is go-i18n's template parser for courrier's patterns: {i}
// places argument i (the template data is the arguments, said).
type positional struct{}

// Cacheable implements i18ntemplate.Parser: parsing is cheap.
func (positional) Cacheable() bool { return false }

// Parse implements i18ntemplate.Parser.
func (positional) Parse(src, _, _ string) (i18ntemplate.ParsedTemplate, error) {
	if _, err := placed(src); err != nil {
		return nil, err
	}
	return pattern(src), nil
}

// pattern is a parsed pattern.
type pattern string

// Execute places the arguments (a []string) in the pattern.
func (p pattern) Execute(data any) (string, error) {
	args, _ := data.([]string)
	src := string(p)
	var b strings.Builder
	for {
		open := strings.IndexByte(src, '{')
		if open < 0 {
			b.WriteString(src)
			return b.String(), nil
		}
		end := strings.IndexByte(src[open:], '}')
		i, err := strconv.Atoi(src[open+1 : open+end])
		if err != nil || i >= len(args) {
			return "", fmt.Errorf("games: %q places {%s} but has %d arguments", string(p), src[open+1:open+end], len(args))
		}
		b.WriteString(src[:open])
		b.WriteString(args[i])
		src = src[open+end+1:]
	}
}

// placed lists the argument numbers a pattern places.
func placed(pattern string) (map[int]bool, error) {
	used := map[int]bool{}
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			return used, nil
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			return nil, errors.New("an unclosed { in its pattern")
		}
		i, err := strconv.Atoi(pattern[open+1 : open+end])
		if err != nil || i < 0 {
			return nil, fmt.Errorf("{%s} is not an argument number", pattern[open+1:open+end])
		}
		used[i] = true
		pattern = pattern[open+end+1:]
	}
}

// ToDo says in words what a pending entry of kind asks of its seat ("bid
// higher or call Coyote"): the game's message "todo.<kind>", or, for a kind
// the catalog does not name, the kind itself with spaces for its
// underscores and hyphens.
func ToDo(words Words, kind string) string {
	if s, err := words.Say(T("todo." + kind)); err == nil {
		return s
	}
	return strings.NewReplacer("_", " ", "-", " ").Replace(kind)
}

// List is items (names, numbers or texts) as a list in words: "Ana, Bob
// and Cleo".
func List(items ...any) Text {
	switch len(items) {
	case 0:
		return T("board.nothing")
	case 1:
		if t, ok := items[0].(Text); ok {
			return t
		}
		return Plain(items[0])
	}
	last := T("board.and", items[len(items)-2], items[len(items)-1])
	for i := len(items) - 3; i >= 0; i-- {
		last = T("board.comma", items[i], last)
	}
	return last
}

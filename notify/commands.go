package notify

import (
	"maps"
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify/words"
)

// The words of the mail commands are notify's catalog's "command.<word>"
// keys: in en.toml "command.new" = "new|create", in fr.toml "command.new" =
// "nouvelle partie|nouvelle|créer…". The forms are separated by "|" (the
// first is how mails write the command); every form of every language is
// read, accents optional and case ignored, the longest form that matches
// first ("nouvelle partie" before "nouvelle"). A form that only one
// language has tells the language the command was written in (decision 5:
// a sender without a language setting is answered in it, and their account
// notes it).

// commandPrefix is the key prefix of the commands' words.
const commandPrefix = "command."

// commandForm is what a form of a command's words reads as.
type commandForm struct {
	word  string   // the command's word: the key without its prefix, "new", "day.mon"
	langs []string // the languages that write it so
}

// commandTable is every form of every command word, folded, with what it
// reads as.
type commandTable struct {
	forms   map[string][]commandForm
	longest int // the most words in a form
}

// commands is the table of notify's catalog, built once from the embedded
// message files and never changed.
var commands = buildCommands(words.Own())

// buildCommands reads every "command.*" key of cat in every language.
func buildCommands(cat *games.Catalog) commandTable {
	t := commandTable{forms: map[string][]commandForm{}}
	for _, key := range cat.Keys() {
		word, ok := strings.CutPrefix(key, commandPrefix)
		if !ok {
			continue
		}
		for _, lang := range cat.Languages() {
			patterns, ok := cat.Patterns(lang, key)
			if !ok || len(patterns) == 0 {
				continue
			}
			for form := range strings.SplitSeq(patterns[0], "|") {
				f := foldCommand(form)
				if f == "" {
					continue
				}
				t.longest = max(t.longest, len(strings.Fields(f)))
				i := slices.IndexFunc(t.forms[f], func(c commandForm) bool { return c.word == word })
				if i < 0 {
					t.forms[f] = append(t.forms[f], commandForm{word: word})
					i = len(t.forms[f]) - 1
				}
				if !slices.Contains(t.forms[f][i].langs, lang) {
					t.forms[f][i].langs = append(t.forms[f][i].langs, lang)
				}
			}
		}
	}
	return t
}

// foldCommand is a command's words as they are compared: folded
// (games.FoldWord), the marks around words dropped, one space between.
func foldCommand(s string) string {
	fields := strings.Fields(games.FoldWord(s))
	for i, f := range fields {
		fields[i] = strings.Trim(f, ",;:.!?\"«»“”")
	}
	return strings.Join(strings.Fields(strings.Join(fields, " ")), " ")
}

// read reads the command word that fields start with, among want (any
// word when want is empty): the word, how many fields its form took (0:
// none matched), and the language only that form is written in ("" when
// several languages write it so).
func (t commandTable) read(fields []string, want ...string) (word string, n int, lang string) {
	for n := min(t.longest, len(fields)); n > 0; n-- {
		for _, c := range t.forms[foldCommand(strings.Join(fields[:n], " "))] {
			if len(want) > 0 && !slices.Contains(want, c.word) {
				continue
			}
			if len(c.langs) == 1 {
				lang = c.langs[0]
			}
			return c.word, n, lang
		}
	}
	return "", 0, ""
}

// days writes the days a game's creator listed ("lun,mar", "mon,tue") as
// play reads them (mon … sun); a word that is no day is kept for play to
// refuse.
func (t commandTable) days(list string) []string {
	var out []string
	for d := range strings.FieldsFuncSeq(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		if w, n, _ := t.read([]string{d}, dayWords()...); n == 1 {
			d = strings.TrimPrefix(w, "day.")
		}
		out = append(out, d)
	}
	return out
}

// dayWords are the command words of the days of the week.
func dayWords() []string {
	return []string{"day.mon", "day.tue", "day.wed", "day.thu", "day.fri", "day.sat", "day.sun"}
}

// duration writes a duration as play reads it: "3j" (a French "jours") is
// "3d", in whichever language's unit of days ("command.days_unit").
func (t commandTable) duration(s string) string {
	folded := games.FoldWord(s)
	for _, lang := range words.Own().Languages() {
		p, ok := words.Own().Patterns(lang, commandPrefix+"days_unit")
		if !ok || len(p) == 0 || p[0] == "d" {
			continue
		}
		unit := p[0]
		if i := strings.Index(folded, unit); i > 0 && folded[i-1] >= '0' && folded[i-1] <= '9' {
			return folded[:i] + "d" + folded[i+len(unit):]
		}
	}
	return s
}

// readLanguage reads the language a "language" command names: a tag of
// games.Languages ("fr", "en-GB") or a language's name in any language
// ("français", "French", "anglais").
func readLanguage(s string) (string, bool) {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ".!«»\"“”"))
	if s == "" {
		return "", false
	}
	folded := foldCommand(s)
	cat := words.Catalog()
	for _, l := range games.Languages() {
		for _, in := range cat.Languages() {
			if p, ok := cat.Patterns(in, "language."+l); ok && len(p) > 0 && foldCommand(p[0]) == folded {
				return l, true
			}
		}
		if p, ok := games.BoardWords().Patterns(l, "language.name"); ok && len(p) > 0 && foldCommand(p[0]) == folded {
			return l, true
		}
	}
	return games.Language(s)
}

// languageCommand reads a language command ("langue fr", "language
// English") on the first of lines: whether it is one, the language it asks
// for ("" when it names none courrier speaks), and what it named.
//
// play's reply parser will read this verb too (decision 3: the doors carry
// it out through api/auth); until it does, the mail door reads it here, in
// the lobby and in replies to a game's mail alike.
func languageCommand(lines []string) (ok bool, lang, named string) {
	if len(lines) == 0 {
		return false, "", ""
	}
	fields := strings.Fields(lines[0])
	word, n, _ := commands.read(fields, "language")
	if word == "" || len(fields)-n > 2 {
		return false, "", ""
	}
	named = strings.Join(fields[n:], " ")
	lang, _ = readLanguage(named)
	return true, lang, named
}

// moveLanguage is the language a reply's moves were written in, by the
// game's notation words (cat): the language of the first word, or run of
// words, that only one language writes so ("enchère" is French, "bid"
// English); "" when none does (numbers, names, words every language shares).
func moveLanguage(cat *games.Catalog, lines []string) string {
	if cat == nil {
		return ""
	}
	forms := map[string]map[string]bool{}
	longest := 0
	for _, key := range cat.Keys() {
		if !strings.HasPrefix(key, games.NotationPrefix) {
			continue
		}
		for _, lang := range cat.Languages() {
			p, ok := cat.Patterns(lang, key)
			if !ok || len(p) == 0 {
				continue
			}
			for form := range strings.SplitSeq(p[len(p)-1], "|") {
				f := foldCommand(form)
				if f == "" {
					continue
				}
				if forms[f] == nil {
					forms[f] = map[string]bool{}
				}
				forms[f][lang] = true
				longest = max(longest, len(strings.Fields(f)))
			}
		}
	}
	for _, line := range lines {
		fields := strings.Fields(foldCommand(line))
		for i := range fields {
			for n := min(longest, len(fields)-i); n > 0; n-- {
				langs := forms[strings.Join(fields[i:i+n], " ")]
				if len(langs) == 1 {
					return slices.Collect(maps.Keys(langs))[0]
				}
				if len(langs) > 1 {
					break
				}
			}
		}
	}
	return ""
}

package notify

import (
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify/words"
	"github.com/courrier-games/courrier/play"
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

// days splits the days a game's creator listed ("lun,mar", "mon tue"):
// play reads each (play.ParseWeekdays), in every language.
func days(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' })
}

// languageVerb reads a language verb on the first of lines ("langue fr",
// "language English"): play's reply verb play.VerbLanguage, read by play's
// parser (play.ParseReply) as every door reads it. ok tells whether the
// line is one; lang is the language it chooses, one of games.Languages;
// written is the language the verb itself was written in, when its word
// tells ("langue" is French); err is play's refusal (a *play.Error) when
// it names no language courrier speaks, or none. The door only carries the
// choice out (api/auth's Users.SetLanguage).
func languageVerb(lines []string) (ok bool, lang, written string, err error) {
	r, isVerb, err := play.ParseReply(lines)
	if !isVerb || r.Verb != play.VerbLanguage {
		return false, "", "", nil
	}
	return true, r.Language, r.Lang, err
}

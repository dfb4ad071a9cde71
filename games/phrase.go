package games

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"
)

//go:embed words/*.toml
var wordFiles embed.FS

// boardWords is the catalog of words every game shares, read once from the
// package's message files; it is never changed.
var boardWords = func() *Catalog {
	sub, err := fs.Sub(wordFiles, "words")
	if err != nil {
		panic(err)
	}
	return MustLoadCatalog(sub)
}()

// BoardWords are the words of boards that every game shares (a game's
// catalog need not repeat them), the names of the languages and the words
// of dates. The doors use them to tell a board.
func BoardWords() *Catalog { return boardWords }

// GameCatalog reads a game's catalog from its message files (see
// [LoadCatalog]) over the words every game shares; it panics on an error,
// for files embedded in the program that its tests read.
func GameCatalog(fsys fs.FS, dir string) *Catalog {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return MustLoadCatalog(sub).With(boardWords)
}

// Phrase is a text with the catalog that says it: what a package hands to
// a door that will say it in its reader's language (a refusal, what a move
// did). A phrase read back from JSON has its words in each language
// instead.
type Phrase struct {
	Text  Text
	Words *Catalog
	// said is the phrase in each language, for a phrase read from JSON.
	said map[string]string
}

// Said returns a phrase that says s in every language: a name, a code, a
// line of a move as it was sent.
func Said(s string) Phrase { return Phrase{Text: Plain(s)} }

// IsZero reports whether p says nothing.
func (p Phrase) IsZero() bool { return p.Text.IsZero() && len(p.said) == 0 }

// In says p in lang; the zero phrase says "".
func (p Phrase) In(lang string) string {
	if p.IsZero() {
		return ""
	}
	if p.said != nil {
		if s, ok := p.said[lang]; ok {
			return s
		}
		return p.said[English]
	}
	if p.Words == nil {
		return Words{lang: lang}.Must(p.Text)
	}
	return p.Words.In(lang).Must(p.Text)
}

// String says p in English.
func (p Phrase) String() string { return p.In(English) }

// MarshalJSON writes p in every language: {"en": "…", "fr": "…"}.
func (p Phrase) MarshalJSON() ([]byte, error) {
	out := map[string]string{}
	for _, l := range Languages() {
		out[l] = p.In(l)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote (or one string, said in every
// language).
func (p *Phrase) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*p = Said(s)
		return nil
	}
	var said map[string]string
	if err := json.Unmarshal(b, &said); err != nil {
		return fmt.Errorf("games: a phrase: %w", err)
	}
	*p = Phrase{said: said}
	return nil
}

// Explainer is an error that can say itself in a person's language.
type Explainer interface {
	error
	Explain(lang string) string
}

// Explain says err in lang: the words of the first error of its chain
// that can say itself ([Explainer]), else its English message.
func Explain(err error, lang string) string {
	if e, ok := errors.AsType[Explainer](err); ok {
		return e.Explain(lang)
	}
	return err.Error()
}

// Date says the day of t in w's language, in t's location: "Friday 28
// November", "vendredi 28 novembre", "dimanche 1er novembre" (the day of
// the month is a plural message: French writes its first day 1er).
func (w Words) Date(t time.Time) string {
	return w.Must(T("date.day", T("date.weekday."+strconv.Itoa(int(t.Weekday()))), T("date.day_of_month", t.Day()), T("date.month."+strconv.Itoa(int(t.Month())))))
}

// Clock says the time of day of t in w's language, on 24 hours: "9:05",
// "19:00", "9 h 05".
func (w Words) Clock(t time.Time) string {
	return w.Must(T("date.clock", strconv.Itoa(t.Hour()), fmt.Sprintf("%02d", t.Minute())))
}

// When says the day and time of t in w's language, in t's location:
// "Friday 28 November at 19:00", "vendredi 28 novembre à 19 h 00".
func (w Words) When(t time.Time) string {
	return w.Must(T("date.at", w.Date(t), w.Clock(t)))
}

// RulesPage is a game's rules page in lang from its embedded pages:
// RULES.<lang>.md, else RULES.md (English).
func RulesPage(pages fs.FS, lang string) string {
	if lang != English {
		if b, err := fs.ReadFile(pages, "RULES."+lang+".md"); err == nil {
			return string(b)
		}
	}
	b, err := fs.ReadFile(pages, "RULES.md")
	if err != nil {
		return ""
	}
	return string(b)
}

// Written is a move line in the game's canonical words, as a phrase that
// writes it in each language's words ([Words.WriteMove]): a refusal
// quotes the line a player sent in the reader's words.
func (c *Catalog) Written(line string) Phrase {
	said := make(map[string]string, len(Languages()))
	for _, lang := range Languages() {
		said[lang] = c.In(lang).WriteMove(line)
	}
	return Phrase{Text: Plain(line), said: said}
}

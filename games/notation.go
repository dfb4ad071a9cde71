package games

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The words of a game's notation in each language. A game's catalog names
// each word of its canonical notation under "notation.<word>": in en.toml
// "notation.pass" = "pass", in fr.toml "notation.pass" = "passe|je passe|passer".
// The forms are separated by "|"; the first is how the word is written
// to a player of that language (prompts, choices), and every form of
// every language is read as the word, accents optional and case ignored,
// so that "enchère 5", "Je passe" and "bid 5" are all moves. A form may
// be several words ("aide étrangère", "valet de trèfle"): the longest
// form that matches is read.

// NotationPrefix is the key prefix of the words of a game's notation.
const NotationPrefix = "notation."

// notation is a catalog's reading table: each form, folded and split into
// words, with the canonical word it stands for.
type notation struct {
	forms   map[string]string   // folded form → canonical word
	langs   map[string][]string // folded form → the languages that have it
	longest int                 // the most words in a form
}

// readTable builds c's reading table from every language's forms.
func (c *Catalog) readTable() notation {
	n := notation{forms: map[string]string{}, langs: map[string][]string{}}
	for _, lang := range Languages() {
		for _, key := range slices.Sorted(maps.Keys(c.messages[lang])) {
			word, ok := strings.CutPrefix(key, NotationPrefix)
			if !ok {
				continue
			}
			for form := range strings.SplitSeq(c.messages[lang][key].Other, "|") {
				f := strings.Join(strings.Fields(FoldWord(form)), " ")
				if f == "" {
					continue
				}
				if _, taken := n.forms[f]; !taken {
					n.forms[f] = word
				}
				if !slices.Contains(n.langs[f], lang) {
					n.langs[f] = append(n.langs[f], lang)
				}
				n.longest = max(n.longest, len(strings.Fields(f)))
			}
		}
	}
	return n
}

// ReadMove writes a move, in the notation words of any language c speaks,
// in the game's canonical words: each word or run of words that is a form
// of a notation word becomes that word; everything else (names, numbers,
// codes) is kept as written. A trailing full stop or exclamation mark is
// dropped.
func (c *Catalog) ReadMove(text string) string {
	if c == nil || c.notation.longest == 0 {
		return text
	}
	fields := strings.Fields(strings.TrimRight(strings.TrimSpace(text), ".!"))
	folded := make([]string, len(fields))
	for i, f := range fields {
		fields[i] = strings.TrimRight(f, ",;:")
		folded[i] = FoldWord(fields[i])
	}
	var out []string
	for i := 0; i < len(fields); {
		matched := 0
		for n := min(c.notation.longest, len(fields)-i); n > 0; n-- {
			if word, ok := c.notation.forms[strings.Join(folded[i:i+n], " ")]; ok {
				out = append(out, word)
				matched = n
				break
			}
		}
		if matched == 0 {
			out = append(out, fields[i])
			matched = 1
		}
		i += matched
	}
	return strings.Join(out, " ")
}

// LanguageOf is the language a move is written in, when its notation
// words say it: the one language that every word of the move found in only
// one language belongs to ("enchère 5" is French, "bid 5" English); ""
// when no word is of one language only ("coyote", "3") or words of two
// languages are mixed.
func (c *Catalog) LanguageOf(text string) string {
	if c == nil || c.notation.longest == 0 {
		return ""
	}
	fields := strings.Fields(strings.TrimRight(strings.TrimSpace(text), ".!"))
	folded := make([]string, len(fields))
	for i, f := range fields {
		folded[i] = FoldWord(strings.TrimRight(f, ",;:"))
	}
	lang := ""
	for i := 0; i < len(folded); {
		matched := 1
		for n := min(c.notation.longest, len(folded)-i); n > 0; n-- {
			form := strings.Join(folded[i:i+n], " ")
			if _, ok := c.notation.forms[form]; !ok {
				continue
			}
			matched = n
			if langs := c.notation.langs[form]; len(langs) == 1 {
				if lang != "" && lang != langs[0] {
					return ""
				}
				lang = langs[0]
			}
			break
		}
		i += matched
	}
	return lang
}

// WriteMove writes a move or a line of choices, in the game's canonical
// words, in w's language: each word the catalog names is written in its
// first form; the rest is kept.
func (w Words) WriteMove(line string) string {
	if w.c == nil {
		return line
	}
	fields := strings.Split(line, " ")
	for i, f := range fields {
		m, ok := w.c.messages[w.lang][NotationPrefix+f]
		if !ok {
			continue
		}
		form, _, _ := strings.Cut(m.Other, "|")
		fields[i] = form
	}
	return strings.Join(fields, " ")
}

// FoldWord is s as it is compared when read: lower case, accents removed,
// the typographic apostrophe read as the straight one, œ as oe
// ("Enchère" → "enchere", "coup d’État" → "coup d'etat", "cœur" → "coeur").
//
// It is called for every word of every move read and every legal move a
// refusal is compared with, so it allocates little: plain ASCII is only
// lower-cased, and other text is decomposed, stripped of its marks and
// composed again without a transform chain's buffers.
func FoldWord(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '’':
			b.WriteByte('\'')
		case r == 'œ' || r == 'Œ':
			b.WriteString("oe")
		default:
			b.WriteRune(r)
		}
	}
	return strings.ToLower(norm.NFC.String(b.String()))
}

// isASCII reports whether s has only ASCII characters.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

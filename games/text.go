package games

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
)

// The words of boards: a Text is a message key with its arguments, a
// Catalog a package's English patterns by key (see the comment on boards in
// board.go).

// Text is a word, phrase or sentence of a board: a key of the game's
// catalog and the arguments its pattern places. An argument is a string
// (a player's name, a code shown as it is), an int (a count, a number) or
// a Text (a word of the catalog, such as a card's name). A Text with no
// key is its one argument as it is: see [Plain].
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

// Catalog maps the message keys of one package to their English patterns.
// A pattern is a word, a phrase or a sentence without its full stop.
// A pattern places argument i where it says {i}: "{0} coins". A key whose
// words depend on a number has plural forms instead of one pattern, key+".one"
// and key+".other" (CLDR's categories), chosen by its first int argument:
// "coins.one": "{0} coin", "coins.other": "{0} coins".
type Catalog map[string]string

// Merge returns one catalog holding the keys of all of cs (a later
// catalog's key wins): a game's boards' words and its options' words, kept
// in separate files, are one catalog.
func Merge(cs ...Catalog) Catalog {
	out := Catalog{}
	for _, c := range cs {
		maps.Copy(out, c)
	}
	return out
}

// Plural forms, appended to a key: [Catalog].
const (
	PluralOne   = ".one"
	PluralOther = ".other"
)

// BoardWords are the words of boards that every game shares; a game's
// catalog need not repeat them. The doors use them to tell a board.
var BoardWords = Catalog{
	"board.you":       "(you)",
	"board.turn":      "turn",
	"board.out":       "out",
	"board.face_down": "a face-down card",
	"board.known":     "face down: {0}",
	"board.empty":     "empty",
	"board.spent":     "{0} (lost)",
	"board.labelled":  "{0}: {1}",
	"board.scores":    "Standings",
	"board.turn_of":   "Whose turn: {0}",
	// board.turn_of_tag is the turn with what acting means: "Whose turn:
	// Bob, to bid".
	"board.turn_of_tag": "Whose turn: {0}, {1}",
	// board.tagged is a name with words about it: "Ana (you, out)", "Dan
	// (2 coyote tokens)".
	"board.tagged":  "{0} ({1})",
	"board.you_tag": "you",
	// board.to is what acting means, from a game's todo words: "to take an
	// action".
	"board.to": "to {0}",
	// board.score is one line of the standings: "Dan, 2 coyote tokens".
	"board.score":      "{0}, {1}",
	"board.commas":     "{0}, {1}",
	"board.semicolons": "{0}; {1}",
	"board.and":        "{0} and {1}",
	"board.comma":      "{0}, {1}",
	"board.nothing":    "nothing",
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

// Say writes t in c's words (falling back on [BoardWords]). It fails when a key
// is in neither catalog or a pattern places an argument t does not have.
func (c Catalog) Say(t Text) (string, error) {
	if t.Key == "" {
		if len(t.Args) != 1 {
			return "", fmt.Errorf("games: a plain text has one argument, not %d", len(t.Args))
		}
		return c.arg(t.Args[0])
	}
	pattern, err := c.pattern(t)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			b.WriteString(pattern)
			return b.String(), nil
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			return "", fmt.Errorf("games: %q: an unclosed { in its pattern", t.Key)
		}
		i, err := strconv.Atoi(pattern[open+1 : open+end])
		if err != nil || i < 0 || i >= len(t.Args) {
			return "", fmt.Errorf("games: %q places {%s} but has %d arguments", t.Key, pattern[open+1:open+end], len(t.Args))
		}
		s, err := c.arg(t.Args[i])
		if err != nil {
			return "", fmt.Errorf("games: %q argument %d: %w", t.Key, i, err)
		}
		b.WriteString(pattern[:open])
		b.WriteString(s)
		pattern = pattern[open+end+1:]
	}
}

// Must is Say for text a test has checked: an error is written in place
// of the words, so that a page still shows.
func (c Catalog) Must(t Text) string {
	s, err := c.Say(t)
	if err != nil {
		return "[" + err.Error() + "]"
	}
	return s
}

// pattern finds t's pattern, choosing a plural form by its first int
// argument (English: one for 1, other otherwise).
func (c Catalog) pattern(t Text) (string, error) {
	for _, cat := range []Catalog{c, BoardWords} {
		if p, ok := cat[t.Key]; ok {
			return p, nil
		}
		if _, ok := cat[t.Key+PluralOther]; ok {
			n, found := 0, false
			for _, a := range t.Args {
				if v, ok := a.(int); ok {
					n, found = v, true
					break
				}
			}
			if !found {
				return "", fmt.Errorf("games: %q has plural forms but no int argument", t.Key)
			}
			if p, ok := cat[t.Key+PluralOne]; ok && n == 1 {
				return p, nil
			}
			return cat[t.Key+PluralOther], nil
		}
	}
	return "", fmt.Errorf("games: no message %q", t.Key)
}

func (c Catalog) arg(a any) (string, error) {
	switch v := a.(type) {
	case string:
		return v, nil
	case int:
		return strconv.Itoa(v), nil
	case Text:
		return c.Say(v)
	}
	return "", fmt.Errorf("games: an argument of type %T (strings, ints and texts only)", a)
}

// Check tells whether c says t exactly: its key (or its plural forms) is in
// c or [BoardWords], every argument is a string, an int or a Text c says, and each
// pattern of the key places every argument it is given and no other (the
// singular form may leave out the number it stands for).
func (c Catalog) Check(t Text) error {
	if t.Key == "" {
		if len(t.Args) != 1 {
			return fmt.Errorf("games: a plain text has one argument, not %d", len(t.Args))
		}
	}
	for i, a := range t.Args {
		switch v := a.(type) {
		case string, int:
		case Text:
			if err := c.Check(v); err != nil {
				return fmt.Errorf("%q argument %d: %w", t.Key, i, err)
			}
		default:
			return fmt.Errorf("games: %q argument %d is a %T (strings, ints and texts only)", t.Key, i, a)
		}
	}
	if t.Key == "" {
		return nil
	}
	forms := map[string]bool{}
	for _, cat := range []Catalog{c, BoardWords} {
		if p, ok := cat[t.Key]; ok {
			forms[p] = true
			break
		}
		if p, ok := cat[t.Key+PluralOther]; ok {
			forms[p] = true
			if one, ok := cat[t.Key+PluralOne]; ok {
				forms[one] = false // may leave out its number
			}
			break
		}
	}
	if len(forms) == 0 {
		return fmt.Errorf("games: no message %q", t.Key)
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
	if _, err := c.Say(t); err != nil {
		return err
	}
	return nil
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
func ToDo(words Catalog, kind string) string {
	if s, err := words.Say(T("todo." + kind)); err == nil {
		return s
	}
	return strings.NewReplacer("_", " ", "-", " ").Replace(kind)
}

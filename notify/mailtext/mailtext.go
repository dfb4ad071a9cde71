// Package mailtext holds the line filling the mails share (Fill). A mail
// tells a game's table through the game's own board (games.Board.Tell),
// never as a dump of the seat's view.
package mailtext

import (
	"strings"
	"unicode/utf8"
)

// lineWidth is the line length Fill aims at; a single word longer than
// that (a hash, a URL) stays whole.
const lineWidth = 72

// Fill lays atoms out in lines of about lineWidth (72) characters: the first
// line starts with first, the others with cont; punct (say ",") follows
// every atom but the last, and a space separates them.
func Fill(first, cont string, atoms []string, punct string) []string {
	var lines []string
	var cur strings.Builder
	cur.WriteString(first)
	width, empty := utf8.RuneCountInString(first), true
	for i, a := range atoms {
		if i < len(atoms)-1 {
			a += punct
		}
		n := utf8.RuneCountInString(a)
		if !empty && width+1+n > lineWidth {
			lines = append(lines, cur.String())
			cur.Reset()
			cur.WriteString(cont)
			width, empty = utf8.RuneCountInString(cont), true
		}
		if !empty {
			cur.WriteByte(' ')
			width++
		}
		cur.WriteString(a)
		width += n
		empty = false
	}
	return append(lines, strings.TrimRight(cur.String(), " "))
}

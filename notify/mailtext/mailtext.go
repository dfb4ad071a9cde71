// Package mailtext writes the text of a seat's view for a mail: the JSON
// view laid out as "key: value" lines wrapped at about 72 characters (View),
// and the line filling the mails share (Fill). A prompt tells the table
// through the game's own Board.Tell; View serves a game without a board.
package mailtext

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineWidth is the line length View aims at; a single word longer than
// that (a hash, a URL) stays whole.
const lineWidth = 72

// View renders a seat's view, arbitrary JSON, as plain text for a mail:
// one "key: value" line per field, in the JSON's own order, keys made
// readable ("pile_size" becomes "pile size"), nested objects indented two
// spaces, arrays of scalars on one line joined by ", ", arrays of objects as
// "- " items with their fields on one line ("name: Ana, coyotes: 1"), and
// empty, false and null fields left out. Long lines are wrapped at about 72
// characters. A view that is not JSON is returned as it is, trimmed.
func View(view json.RawMessage) string {
	n, err := parse(view)
	if err != nil {
		return strings.TrimSpace(string(view))
	}
	var lines []string
	switch {
	case n.isEmpty():
	case n.kind == jsonObject:
		lines = objectLines(n, "")
	case n.kind == jsonArray:
		lines = arrayLines(n, "", "")
	default:
		lines = Fill("", "", strings.Fields(n.scalar()), "")
	}
	return strings.Join(lines, "\n")
}

// jsonKind is the JSON type of a node.
type jsonKind int

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// node is one decoded JSON value; objects keep their keys in order.
type node struct {
	kind  jsonKind
	text  string // a number's text, a string
	truth bool
	keys  []string // an object's keys
	elems []*node  // an object's values, an array's elements
}

// parse decodes one JSON value, keeping the order of object keys.
func parse(raw []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the view")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: jsonNull}, nil
	case bool:
		return &node{kind: jsonBool, truth: t}, nil
	case json.Number:
		return &node{kind: jsonNumber, text: t.String()}, nil
	case string:
		return &node{kind: jsonString, text: t}, nil
	case json.Delim:
		n := &node{kind: jsonArray}
		if t == '{' {
			n.kind = jsonObject
		}
		for dec.More() {
			if n.kind == jsonObject {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := key.(string)
				if !ok {
					return nil, errors.New("an object key that is not a string")
				}
				n.keys = append(n.keys, k)
			}
			e, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	}
	return nil, errors.New("an unexpected JSON token")
}

// isEmpty reports whether a field holding n is left out: null, false, a
// blank string, an empty array, an object with no field to show.
func (n *node) isEmpty() bool {
	switch n.kind {
	case jsonNull:
		return true
	case jsonBool:
		return !n.truth
	case jsonString:
		return strings.TrimSpace(n.text) == ""
	case jsonArray:
		return len(n.elems) == 0
	case jsonObject:
		return !slices.ContainsFunc(n.elems, func(e *node) bool { return !e.isEmpty() })
	}
	return false
}

// scalar is the text of a scalar; inside an array, where position counts,
// null and a blank string show as "-" and false as "no".
func (n *node) scalar() string {
	switch n.kind {
	case jsonBool:
		if n.truth {
			return "yes"
		}
		return "no"
	case jsonNumber:
		return n.text
	case jsonString:
		if s := strings.Join(strings.Fields(n.text), " "); s != "" {
			return s
		}
	}
	return "-"
}

func (n *node) isScalar() bool { return n.kind != jsonArray && n.kind != jsonObject }

// allScalars reports whether an array holds only scalars.
func (n *node) allScalars() bool {
	return !slices.ContainsFunc(n.elems, func(e *node) bool { return !e.isScalar() })
}

// objectLines renders an object's fields at indent, one or more lines each.
func objectLines(n *node, indent string) []string {
	var lines []string
	for i, k := range n.keys {
		v := n.elems[i]
		if v.isEmpty() {
			continue
		}
		key := readableKey(k)
		switch {
		case v.kind == jsonObject:
			lines = append(lines, indent+key+":")
			lines = append(lines, objectLines(v, indent+"  ")...)
		case v.kind == jsonArray:
			lines = append(lines, arrayLines(v, indent, key+": ")...)
		case v.kind == jsonString && strings.Contains(strings.TrimSpace(v.text), "\n"):
			lines = append(lines, indent+key+":")
			for l := range strings.SplitSeq(strings.TrimSpace(v.text), "\n") {
				lines = append(lines, Fill(indent+"  ", indent+"  ", strings.Fields(l), "")...)
			}
		default:
			lines = append(lines, Fill(indent+key+": ", indent+"  ", strings.Fields(v.scalar()), "")...)
		}
	}
	return lines
}

// arrayLines renders an array at indent after label ("key: ", or "" at the
// top): scalars on the label's line, anything else as "- " items below it.
func arrayLines(n *node, indent, label string) []string {
	if n.allScalars() {
		items := make([]string, len(n.elems))
		for i, e := range n.elems {
			items[i] = e.scalar()
		}
		return Fill(indent+label, indent+"  ", items, ",")
	}
	var lines []string
	if label != "" {
		lines = append(lines, indent+strings.TrimSuffix(label, " "))
		indent += "  "
	}
	for _, e := range n.elems {
		lines = append(lines, Fill(indent+"- ", indent+"  ", itemAtoms(e), ",")...)
	}
	return lines
}

// itemAtoms are the comma-separated pieces of one "- " item.
func itemAtoms(n *node) []string {
	var atoms []string
	switch n.kind {
	case jsonObject:
		atoms = fieldAtoms(n)
	case jsonArray:
		for _, e := range n.elems {
			atoms = append(atoms, compact(e))
		}
	default:
		atoms = []string{n.scalar()}
	}
	if len(atoms) == 0 {
		return []string{"(empty)"}
	}
	return atoms
}

// fieldAtoms are an object's non-empty fields as "key: value" pieces.
func fieldAtoms(n *node) []string {
	var atoms []string
	for i, k := range n.keys {
		if v := n.elems[i]; !v.isEmpty() {
			atoms = append(atoms, readableKey(k)+": "+compact(v))
		}
	}
	return atoms
}

// compact renders a value on one line: an object of one field as that
// field's value ({"value": 5} is "5"), of more as "(a: 1, b: 2)", an array
// as "[1, 2]".
func compact(n *node) string {
	switch n.kind {
	case jsonObject:
		atoms := fieldAtoms(n)
		if len(atoms) == 1 {
			for i, v := range n.elems {
				if !v.isEmpty() && v.isScalar() {
					return compact(n.elems[i])
				}
			}
		}
		return "(" + strings.Join(atoms, ", ") + ")"
	case jsonArray:
		items := make([]string, len(n.elems))
		for i, e := range n.elems {
			items[i] = compact(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	return n.scalar()
}

// readableKey makes a JSON key readable: "pile_size", "pile-size" and
// "pileSize" all become "pile size".
func readableKey(k string) string {
	var b strings.Builder
	rs := []rune(k)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-':
			b.WriteByte(' ')
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	if h := strings.Join(strings.Fields(b.String()), " "); h != "" {
		return h
	}
	return k
}

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

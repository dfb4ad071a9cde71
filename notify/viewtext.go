package notify

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

// viewWidth is the line length ViewText aims at; a single word longer than
// that (a hash, a URL) stays whole.
const viewWidth = 72

// ViewText renders a seat's view, arbitrary JSON, as plain text for a mail:
// one "key: value" line per field, in the JSON's own order, keys made
// readable ("pile_size" becomes "pile size"), nested objects indented two
// spaces, arrays of scalars on one line joined by ", ", arrays of objects as
// "- " items with their fields on one line ("name: Ana, coyotes: 1"), and
// empty, false and null fields left out. Long lines are wrapped at about 72
// characters. A view that is not JSON is returned as it is, trimmed.
func ViewText(view json.RawMessage) string {
	n, err := viewParse(view)
	if err != nil {
		return strings.TrimSpace(string(view))
	}
	var lines []string
	switch {
	case n.isEmpty():
	case n.kind == viewObject:
		lines = viewObjectLines(n, "")
	case n.kind == viewArray:
		lines = viewArrayLines(n, "", "")
	default:
		lines = viewFill("", "", strings.Fields(n.scalar()), "")
	}
	return strings.Join(lines, "\n")
}

// viewKind is the JSON type of a viewNode.
type viewKind int

const (
	viewNull viewKind = iota
	viewBool
	viewNumber
	viewString
	viewArray
	viewObject
)

// viewNode is one decoded JSON value; objects keep their keys in order.
type viewNode struct {
	kind  viewKind
	text  string // a number's text, a string
	truth bool
	keys  []string    // an object's keys
	elems []*viewNode // an object's values, an array's elements
}

// viewParse decodes one JSON value, keeping the order of object keys.
func viewParse(raw []byte) (*viewNode, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := viewParseNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the view")
	}
	return n, nil
}

func viewParseNode(dec *json.Decoder) (*viewNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &viewNode{kind: viewNull}, nil
	case bool:
		return &viewNode{kind: viewBool, truth: t}, nil
	case json.Number:
		return &viewNode{kind: viewNumber, text: t.String()}, nil
	case string:
		return &viewNode{kind: viewString, text: t}, nil
	case json.Delim:
		n := &viewNode{kind: viewArray}
		if t == '{' {
			n.kind = viewObject
		}
		for dec.More() {
			if n.kind == viewObject {
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
			e, err := viewParseNode(dec)
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
func (n *viewNode) isEmpty() bool {
	switch n.kind {
	case viewNull:
		return true
	case viewBool:
		return !n.truth
	case viewString:
		return strings.TrimSpace(n.text) == ""
	case viewArray:
		return len(n.elems) == 0
	case viewObject:
		return !slices.ContainsFunc(n.elems, func(e *viewNode) bool { return !e.isEmpty() })
	}
	return false
}

// scalar is the text of a scalar; inside an array, where position counts,
// null and a blank string show as "-" and false as "no".
func (n *viewNode) scalar() string {
	switch n.kind {
	case viewBool:
		if n.truth {
			return "yes"
		}
		return "no"
	case viewNumber:
		return n.text
	case viewString:
		if s := strings.Join(strings.Fields(n.text), " "); s != "" {
			return s
		}
	}
	return "-"
}

func (n *viewNode) isScalar() bool { return n.kind != viewArray && n.kind != viewObject }

// allScalars reports whether an array holds only scalars.
func (n *viewNode) allScalars() bool {
	return !slices.ContainsFunc(n.elems, func(e *viewNode) bool { return !e.isScalar() })
}

// viewObjectLines renders an object's fields at indent, one or more lines each.
func viewObjectLines(n *viewNode, indent string) []string {
	var lines []string
	for i, k := range n.keys {
		v := n.elems[i]
		if v.isEmpty() {
			continue
		}
		key := viewKey(k)
		switch {
		case v.kind == viewObject:
			lines = append(lines, indent+key+":")
			lines = append(lines, viewObjectLines(v, indent+"  ")...)
		case v.kind == viewArray:
			lines = append(lines, viewArrayLines(v, indent, key+": ")...)
		case v.kind == viewString && strings.Contains(strings.TrimSpace(v.text), "\n"):
			lines = append(lines, indent+key+":")
			for l := range strings.SplitSeq(strings.TrimSpace(v.text), "\n") {
				lines = append(lines, viewFill(indent+"  ", indent+"  ", strings.Fields(l), "")...)
			}
		default:
			lines = append(lines, viewFill(indent+key+": ", indent+"  ", strings.Fields(v.scalar()), "")...)
		}
	}
	return lines
}

// viewArrayLines renders an array at indent after label ("key: ", or "" at the
// top): scalars on the label's line, anything else as "- " items below it.
func viewArrayLines(n *viewNode, indent, label string) []string {
	if n.allScalars() {
		items := make([]string, len(n.elems))
		for i, e := range n.elems {
			items[i] = e.scalar()
		}
		return viewFill(indent+label, indent+"  ", items, ",")
	}
	var lines []string
	if label != "" {
		lines = append(lines, indent+strings.TrimSuffix(label, " "))
		indent += "  "
	}
	for _, e := range n.elems {
		lines = append(lines, viewFill(indent+"- ", indent+"  ", viewItemAtoms(e), ",")...)
	}
	return lines
}

// viewItemAtoms are the comma-separated pieces of one "- " item.
func viewItemAtoms(n *viewNode) []string {
	var atoms []string
	switch n.kind {
	case viewObject:
		atoms = viewFieldAtoms(n)
	case viewArray:
		for _, e := range n.elems {
			atoms = append(atoms, viewCompact(e))
		}
	default:
		atoms = []string{n.scalar()}
	}
	if len(atoms) == 0 {
		return []string{"(empty)"}
	}
	return atoms
}

// viewFieldAtoms are an object's non-empty fields as "key: value" pieces.
func viewFieldAtoms(n *viewNode) []string {
	var atoms []string
	for i, k := range n.keys {
		if v := n.elems[i]; !v.isEmpty() {
			atoms = append(atoms, viewKey(k)+": "+viewCompact(v))
		}
	}
	return atoms
}

// viewCompact renders a value on one line: an object of one field as that
// field's value ({"value": 5} is "5"), of more as "(a: 1, b: 2)", an array
// as "[1, 2]".
func viewCompact(n *viewNode) string {
	switch n.kind {
	case viewObject:
		atoms := viewFieldAtoms(n)
		if len(atoms) == 1 {
			for i, v := range n.elems {
				if !v.isEmpty() && v.isScalar() {
					return viewCompact(n.elems[i])
				}
			}
		}
		return "(" + strings.Join(atoms, ", ") + ")"
	case viewArray:
		items := make([]string, len(n.elems))
		for i, e := range n.elems {
			items[i] = viewCompact(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	return n.scalar()
}

// viewKey makes a JSON key readable: "pile_size", "pile-size" and
// "pileSize" all become "pile size".
func viewKey(k string) string {
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

// viewFill lays atoms out in lines of about viewWidth characters: the first
// line starts with first, the others with cont; punct (say ",") follows
// every atom but the last, and a space separates them.
func viewFill(first, cont string, atoms []string, punct string) []string {
	var lines []string
	var cur strings.Builder
	cur.WriteString(first)
	width, empty := utf8.RuneCountInString(first), true
	for i, a := range atoms {
		if i < len(atoms)-1 {
			a += punct
		}
		n := utf8.RuneCountInString(a)
		if !empty && width+1+n > viewWidth {
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

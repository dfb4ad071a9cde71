// Package draw draws any game's board (a [games.Board]) as a picture: the
// web shows it as SVG and mail as a PNG, both painted from one layout so
// they show the same thing. It knows no game: cards, counters, piles,
// the seats' places, tables of numbers, whose turn and the scores are drawn
// the same way for every game, in the words of the game's catalog.
//
// A drawing shows only what the board holds, and a board holds only what
// its seat may see: a card face down that the viewer does not know is
// drawn as a back.
//
// The text rendering is golang.org/x/image's (its font and opentype
// packages); the Go fonts are embedded. The PNG's shapes are rasterised by
// this package's own painter, made for a drawing's boxes, lines and flat
// rows (png.go), and its rows deflated by klauspost/compress's zlib, so
// that a mail's picture costs a few milliseconds. A [Painter] keeps what
// one picture makes that the next can use (compressors, buffers, glyph
// masks); a picture's bytes never depend on what it painted before, only
// (by microseconds, a glyph's first rasterising) the time it takes.
package draw

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/image/font"

	"github.com/courrier-games/courrier/games"
)

// Options shape a drawing.
type Options struct {
	// Width is the drawing's width in pixels; zero: DefaultWidth. The
	// height follows from the board. A narrow width (360) lays the seats
	// out one under another for a phone.
	Width int
}

// DefaultWidth is the width of a drawing when Options give none: what a
// mail program shows without scaling.
const DefaultWidth = 600

// Drawing is a board laid out: shapes in pixels, painted by [Drawing.SVG]
// and [Drawing.PNG].
type Drawing struct {
	// Width and Height are the drawing's size in pixels.
	Width, Height int
	shapes        []shape
}

// Sizes and colours of the layout, in pixels.
const (
	pad       = 12.0 // around the drawing and inside a seat's place
	gap       = 8.0  // between cards, chips, places
	titleSize = 16.0
	textSize  = 14.0
	smallSize = 12.0
	cardSize  = 16.0 // the words on a card
	cardH     = 54.0
	cardMinW  = 40.0
	rowH      = 24.0 // a table's row
	areaMinW  = 250.0
	tokenR    = 5.0

	ink      = "#1c1c1c"
	muted    = "#5a6270"
	lineCol  = "#c8ccd4"
	paper    = "#ffffff"
	chipFill = "#eef1f5"
	turnFill = "#fff4cc"
	turnLine = "#c99700"
	youLine  = "#1f5fbf"
	outFill  = "#eeeeee"
	backFill = "#2c4a7a"
	backLine = "#9db3d8"
	spentCol = "#8a8a8a"
	markFill = "#dfe7f5"
)

// palette maps a drawing hint's colour name to its ink and its tint.
var palette = map[string][2]string{
	"red":    {"#b00020", "#fdeaee"},
	"green":  {"#1d6b2f", "#e4f3e7"},
	"blue":   {"#1f5fbf", "#e5eefb"},
	"yellow": {"#7a5c00", "#fff3c4"},
	"orange": {"#b35900", "#fdeedd"},
	"violet": {"#6a2d9c", "#f1e7f9"},
	"purple": {"#6a2d9c", "#f1e7f9"},
	"pink":   {"#a3245f", "#fbe8f1"},
	"brown":  {"#7a4a1e", "#f4e9dd"},
	"black":  {"#1c1c1c", "#ececec"},
	"grey":   {"#555555", "#ececec"},
	"gray":   {"#555555", "#ececec"},
	"white":  {"#444444", "#ffffff"},
}

// colours returns the ink and tint of a hint, black on white for none.
func colours(hint string) (string, string) {
	if c, ok := palette[strings.ToLower(hint)]; ok {
		return c[0], c[1]
	}
	return ink, paper
}

// Draw lays b out, its words said in words (the game's catalog in the
// reader's language).
func Draw(b games.Board, words games.Words, opt Options) (*Drawing, error) {
	width := opt.Width
	if width <= 0 {
		width = DefaultWidth
	}
	f, err := newFaces(font.HintingNone)
	if err != nil {
		return nil, err
	}
	defer f.close()
	l := &layout{f: f, b: b}
	var sayErr error
	l.say = func(t games.Text) string {
		if t.IsZero() {
			return ""
		}
		s, err := words.Say(t)
		if err != nil && sayErr == nil {
			sayErr = fmt.Errorf("draw: %w", err)
		}
		return s
	}
	w := float64(width)
	y := l.board(pad, pad, w-2*pad)
	if sayErr != nil {
		return nil, sayErr
	}
	d := &Drawing{Width: width, Height: int(math.Ceil(y + pad)), shapes: l.out}
	d.shapes = slices.Insert(d.shapes, 0, shape{kind: rect, w: w, h: float64(d.Height), fill: paper})
	return d, nil
}

// layout places shapes top to bottom; each method takes its top-left corner
// and width and returns the y below what it placed.
type layout struct {
	f   *faces
	b   games.Board
	say func(games.Text) string
	out []shape
}

func (l *layout) add(s shape) int {
	if s.kind == text {
		s.w = l.f.width(s.str, s.size, s.bold)
	}
	l.out = append(l.out, s)
	return len(l.out) - 1
}

// words places s wrapped to width w, each line's baseline a line below the
// last; it returns the y below the last line.
func (l *layout) words(x, y, w float64, s string, size float64, bold bool, colour string) float64 {
	for _, line := range l.wrap(s, w, size, bold) {
		l.add(shape{kind: text, x: x, y: y + size, str: line, size: size, bold: bold, fill: colour})
		y += size * 1.35
	}
	return y
}

// wrap cuts s into lines no wider than w where it can (a word wider than w
// stands alone).
func (l *layout) wrap(s string, w, size float64, bold bool) []string {
	var lines []string
	cur := ""
	for word := range strings.FieldsSeq(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && l.f.width(try, size, bold) > w {
			lines = append(lines, cur)
			try = word
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// item is a box a flow places: its size and how to paint it at x, y.
type item struct {
	w, h  float64
	paint func(x, y float64)
}

// flow places items left to right, wrapping at width w.
func (l *layout) flow(x, y, w float64, items []item) float64 {
	cx, rowH := x, 0.0
	for _, it := range items {
		if cx > x && cx+it.w > x+w {
			cx, y, rowH = x, y+rowH+gap, 0
		}
		it.paint(cx, y)
		cx += it.w + gap
		rowH = max(rowH, it.h)
	}
	return y + rowH
}

// board lays out the whole board.
func (l *layout) board(x, y, w float64) float64 {
	b := l.b
	if len(b.Turn) > 0 {
		names := make([]any, len(b.Turn))
		for i, s := range b.Turn {
			names[i] = b.Name(s)
		}
		lines := l.wrap(l.say(games.T("board.turn_of", games.List(names...))), w-2*gap, textSize, true)
		h := float64(len(lines))*textSize*1.35 + gap
		l.add(shape{kind: rect, x: x, y: y, w: w, h: h, r: 6, fill: turnFill, stroke: turnLine, strokeW: 1})
		for i, line := range lines {
			l.add(shape{kind: text, x: x + gap, y: y + gap/2 + textSize + float64(i)*textSize*1.35 - 2, str: line, size: textSize, bold: true, fill: ink})
		}
		y += h + gap*1.5
	}
	for i, s := range b.Sections {
		if i > 0 {
			l.add(shape{kind: line, x: x, y: y, w: w, stroke: lineCol, strokeW: 1})
			y += gap * 1.5
		}
		y = l.section(x, y, w, s)
	}
	if len(b.Scores) > 0 {
		l.add(shape{kind: line, x: x, y: y, w: w, stroke: lineCol, strokeW: 1})
		y = l.words(x, y+gap, w, l.say(games.T("board.scores")), titleSize, true, ink) + 2
		items := make([]item, len(b.Scores))
		for i, s := range b.Scores {
			name := l.say(s.Name)
			if name == "" {
				names := make([]any, len(s.Seats))
				for j, seat := range s.Seats {
					names[j] = b.Name(seat)
				}
				name = l.say(games.List(names...))
			}
			items[i] = l.chip(l.say(games.T("board.labelled", name, s.Text)), "", 0, i == 0)
		}
		y = l.flow(x, y, w, items)
	}
	return y
}

// section lays out one section of the board.
func (l *layout) section(x, y, w float64, s games.Section) float64 {
	if t := l.say(s.Title); t != "" {
		y = l.words(x, y, w, t, titleSize, true, ink) + 2
	}
	if len(s.Counters) > 0 {
		y = l.flow(x, y, w, l.counters(s.Counters)) + gap
	}
	y = l.notes(x, y, w, s.Notes)
	for _, p := range s.Piles {
		y = l.pile(x, y, w, p)
	}
	if len(s.Areas) > 0 {
		y = l.areas(x, y, w, s.Areas)
	}
	if s.Table != nil {
		y = l.table(x, y, w, *s.Table)
	}
	return y
}

// notes places lines of words, the emphasised ones bold on a highlight.
func (l *layout) notes(x, y, w float64, ns []games.Note) float64 {
	for _, n := range ns {
		s := l.say(n.Text)
		if !n.Emphasis {
			y = l.words(x, y, w, s, textSize, false, ink) + 2
			continue
		}
		bg := l.add(shape{kind: rect, x: x, y: y, w: w, r: 4, fill: turnFill})
		end := l.words(x+gap/2, y+3, w-gap, s, textSize, true, ink)
		l.out[bg].h = end - y + 2
		y = end + gap/2
	}
	return y
}

// counters are the chips of numbers, with Value tokens drawn for a
// counter that names one (up to a dozen).
func (l *layout) counters(cs []games.Counter) []item {
	items := make([]item, len(cs))
	for i, c := range cs {
		tokens := 0
		if c.Token != "" && c.Value > 0 && c.Value <= 12 {
			tokens = c.Value
		}
		items[i] = l.chip(l.say(c.Text), c.Token, tokens, false)
	}
	return items
}

// chip is a rounded label with tokens before its words; bold for the
// first of the standings.
func (l *layout) chip(s, token string, tokens int, bold bool) item {
	tw := l.f.width(s, smallSize+1, bold)
	lead := 0.0
	if tokens > 0 {
		lead = float64(tokens)*(2*tokenR+2) + 4
	}
	h := 22.0
	return item{w: tw + lead + 16, h: h, paint: func(x, y float64) {
		l.add(shape{kind: rect, x: x, y: y, w: tw + lead + 16, h: h, r: h / 2, fill: chipFill})
		fill, stroke := tokenColours(token)
		for i := range tokens {
			l.add(shape{kind: circle, x: x + 8 + tokenR + float64(i)*(2*tokenR+2), y: y + h/2, r: tokenR, fill: fill, stroke: stroke, strokeW: 1})
		}
		l.add(shape{kind: text, x: x + 8 + lead, y: y + h/2 + (smallSize+1)*0.35, str: s, size: smallSize + 1, bold: bold, fill: ink})
	}}
}

// tokenColours colours a kind of token: gold by default, a colour when
// the token names one.
func tokenColours(token string) (fill, stroke string) {
	if c, ok := palette[strings.ToLower(token)]; ok {
		return c[1], c[0]
	}
	return "#f2c230", "#8a6d00"
}

// pile places a pile's label and its cards.
func (l *layout) pile(x, y, w float64, p games.Pile) float64 {
	label, empty := l.say(p.Label), l.say(p.Empty)
	switch {
	case len(p.Cards) == 0 && label == "" && empty == "":
		return y
	case len(p.Cards) == 0 && empty != "" && label != "":
		return l.words(x, y, w, l.say(games.T("board.labelled", label, empty)), smallSize+1, false, muted) + gap/2
	case len(p.Cards) == 0:
		return l.words(x, y, w, label+empty, smallSize+1, false, muted) + gap/2
	}
	if label != "" {
		y = l.words(x, y, w, label, smallSize+1, false, muted) + 2
	}
	items := make([]item, len(p.Cards))
	for i, c := range p.Cards {
		items[i] = l.card(c, w)
	}
	return l.flow(x, y, w, items) + gap
}

// card is a card as an item: face up in its colour, a back when face down
// (its name on it when the viewer knows it), greyed and crossed when spent.
func (l *layout) card(c games.Card, maxW float64) item {
	s := l.say(c.Short)
	if s == "" {
		s = l.say(c.Name)
	}
	if c.Face == games.Down && c.Name.IsZero() {
		s = ""
	}
	size := cardSize
	tw := l.f.width(s, size, true)
	for size > 9 && tw+14 > maxW {
		size--
		tw = l.f.width(s, size, true)
	}
	w := max(cardMinW, tw+14)
	return item{w: w, h: cardH, paint: func(x, y float64) {
		tx, ty := x+w/2, y+cardH/2+size*0.35
		switch c.Face {
		case games.Down:
			l.add(shape{kind: rect, x: x, y: y, w: w, h: cardH, r: 5, fill: backFill, stroke: ink, strokeW: 1})
			l.add(shape{kind: rect, x: x + 4, y: y + 4, w: w - 8, h: cardH - 8, r: 3, stroke: backLine, strokeW: 1})
			if s == "" {
				l.add(shape{kind: circle, x: tx, y: y + cardH/2, r: 6, fill: backLine})
				return
			}
			l.add(shape{kind: text, x: tx, y: ty, str: s, size: size, bold: true, fill: paper, middle: true})
		case games.Spent:
			l.add(shape{kind: rect, x: x, y: y, w: w, h: cardH, r: 5, fill: outFill, stroke: spentCol, strokeW: 1})
			l.add(shape{kind: text, x: tx, y: ty, str: s, size: size, bold: true, fill: spentCol, middle: true})
			l.add(shape{kind: line, x: x + 4, y: y + 4, w: w - 8, h: cardH - 8, stroke: "#b07070", strokeW: 1.5})
		default:
			fg, bg := colours(c.Colour)
			l.add(shape{kind: rect, x: x, y: y, w: w, h: cardH, r: 5, fill: bg, stroke: fg, strokeW: 1.5})
			l.add(shape{kind: text, x: tx, y: ty, str: s, size: size, bold: true, fill: fg, middle: true})
		}
	}}
}

// areas places the seats' places in a grid, as many columns as fit.
func (l *layout) areas(x, y, w float64, as []games.Area) float64 {
	cols := max(1, min(len(as), int((w+gap)/(areaMinW+gap))))
	cw := (w - float64(cols-1)*gap) / float64(cols)
	for start := 0; start < len(as); start += cols {
		row := as[start:min(start+cols, len(as))]
		boxes := make([]int, len(row))
		bottom := y
		for i, a := range row {
			ax := x + float64(i)*(cw+gap)
			boxes[i] = l.add(shape{kind: rect, x: ax, y: y, w: cw, r: 8, fill: "#fafbfc", stroke: lineCol, strokeW: 1})
			bottom = max(bottom, l.area(ax+pad, y+pad*0.75, cw-2*pad, a, boxes[i]))
		}
		for _, i := range boxes {
			l.out[i].h = bottom - y + pad*0.5
		}
		y = bottom + pad*0.5 + gap
	}
	return y
}

// area lays out one seat's place inside the box l.out[box], which it
// marks: the viewer's in blue, the acting seats' highlighted, the seats out
// greyed.
func (l *layout) area(x, y, w float64, a games.Area, box int) float64 {
	b := l.b
	you, turn := a.Seat == b.Viewer, slices.Contains(b.Turn, a.Seat)
	switch {
	case a.Out:
		l.out[box].fill = outFill
	case turn:
		l.out[box].fill, l.out[box].stroke, l.out[box].strokeW = turnFill, turnLine, 2
	}
	if you {
		l.out[box].stroke, l.out[box].strokeW = youLine, 2.5
	}
	head := b.Name(a.Seat)
	if t := l.say(a.Title); t != "" {
		head = t
	}
	if you {
		head += " " + l.say(games.T("board.you"))
	}
	colour := ink
	if a.Out {
		colour = muted
	}
	var tags []item
	if turn {
		tag := l.say(games.T("board.turn"))
		if !b.TurnTag.IsZero() {
			tag = l.say(b.TurnTag)
		}
		tags = append(tags, l.tag(tag, turnLine, paper))
	}
	if a.Out {
		tags = append(tags, l.tag(l.say(games.T("board.out")), muted, paper))
	}
	headW := l.f.width(head, textSize+1, true)
	tagW := 0.0
	for _, t := range tags {
		tagW += t.w + gap
	}
	if headW+tagW <= w {
		l.add(shape{kind: text, x: x, y: y + textSize + 1, str: head, size: textSize + 1, bold: true, fill: colour})
		l.flow(x+headW+gap, y+1, w-headW-gap, tags)
		y += (textSize + 1) * 1.4
	} else {
		y = l.words(x, y, w, head, textSize+1, true, colour)
		if len(tags) > 0 {
			y = l.flow(x, y, w, tags) + 4
		}
	}
	y += 2
	if len(a.Counters) > 0 {
		y = l.flow(x, y, w, l.counters(a.Counters)) + gap
	}
	for _, p := range a.Piles {
		y = l.pile(x, y, w, p)
	}
	return l.notes(x, y, w, a.Notes)
}

// tag is a small filled label ("turn", "out").
func (l *layout) tag(s, fill, colour string) item {
	tw := l.f.width(s, smallSize, true)
	return item{w: tw + 12, h: 18, paint: func(x, y float64) {
		l.add(shape{kind: rect, x: x, y: y, w: tw + 12, h: 18, r: 9, fill: fill})
		l.add(shape{kind: text, x: x + 6, y: y + 13, str: s, size: smallSize, bold: true, fill: colour})
	}}
}

// table places a grid: its caption, its head row, then its rows; the
// columns that do not fit the width go to a further band that repeats the
// rows' heads.
func (l *layout) table(x, y, w float64, t games.Table) float64 {
	if c := l.say(t.Caption); c != "" {
		y = l.words(x, y, w, c, textSize, true, ink) + 2
	}
	cols := len(t.Head)
	for _, r := range t.Rows {
		cols = max(cols, 1+len(r.Cells))
	}
	if cols == 0 {
		return y
	}
	cell := func(row, col int) (string, bool) { // row -1: the head
		if row < 0 {
			if col < len(t.Head) {
				return l.say(t.Head[col]), true
			}
			return "", true
		}
		r := t.Rows[row]
		if col == 0 {
			s := l.say(r.Head)
			if r.Seat != nil && *r.Seat == l.b.Viewer {
				s += " " + l.say(games.T("board.you"))
			}
			return s, r.Seat != nil && *r.Seat == l.b.Viewer
		}
		if col-1 < len(r.Cells) {
			return l.say(r.Cells[col-1].Text), r.Cells[col-1].Mark
		}
		return "", false
	}
	widths := make([]float64, cols)
	for c := range cols {
		for r := -1; r < len(t.Rows); r++ {
			s, bold := cell(r, c)
			widths[c] = max(widths[c], l.f.width(s, smallSize+1, bold)+12)
		}
		widths[c] = max(widths[c], 26)
	}
	if c0 := 10 + widths[0]; c0 > w/2 { // the heads' column takes at most half
		widths[0] = w / 2
	} else {
		widths[0] = c0 // room for the row's colour
	}
	for start := 1; start < cols || start == 1; {
		end, used := start, widths[0]
		for end < cols && (end == start || used+widths[end] <= w) {
			used += widths[end]
			end++
		}
		y = l.band(x, y, widths, start, end, cell, t)
		if end >= cols {
			break
		}
		start = end
		y += gap
	}
	return y + gap
}

// band places the columns [start, end) of a table with its heads' column.
func (l *layout) band(x, y float64, widths []float64, start, end int, cell func(row, col int) (string, bool), t games.Table) float64 {
	cols := append([]int{0}, make([]int, 0, end-start)...)
	for c := start; c < end; c++ {
		cols = append(cols, c)
	}
	total := 0.0
	for _, c := range cols {
		total += widths[c]
	}
	for r := -1; r < len(t.Rows); r++ {
		cx := x
		var fg, bg string
		you, turn := false, false
		if r >= 0 {
			fg, bg = colours(t.Rows[r].Colour)
			if s := t.Rows[r].Seat; s != nil {
				you, turn = *s == l.b.Viewer, slices.Contains(l.b.Turn, *s)
			}
		}
		if turn {
			l.add(shape{kind: rect, x: x, y: y, w: total, h: rowH, fill: turnFill})
		}
		for i, c := range cols {
			s, mark := cell(r, c)
			cw := widths[c]
			switch {
			case r < 0:
				l.add(shape{kind: text, x: cx + 6, y: y + rowH - 8, str: s, size: smallSize, bold: true, fill: muted})
			case i == 0:
				if t.Rows[r].Colour != "" {
					l.add(shape{kind: rect, x: cx, y: y + 3, w: 5, h: rowH - 6, r: 2, fill: fg})
				}
				colour := ink
				if you {
					colour = youLine
				}
				l.add(shape{kind: text, x: cx + 10, y: y + rowH - 8, str: s, size: smallSize + 1, bold: mark, fill: colour})
			default:
				if mark {
					fill := markFill
					if t.Rows[r].Colour != "" {
						fill = bg
					}
					l.add(shape{kind: rect, x: cx + 1, y: y + 1, w: cw - 2, h: rowH - 2, r: 3, fill: fill, stroke: fg, strokeW: 1})
				}
				if s != "" {
					l.add(shape{kind: text, x: cx + cw/2, y: y + rowH - 8, str: s, size: smallSize + 1, bold: mark, fill: fg, middle: true})
				}
			}
			cx += cw
		}
		y += rowH
		l.add(shape{kind: line, x: x, y: y, w: total, stroke: lineCol, strokeW: 1})
	}
	return y
}

package draw

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
)

// SVG is how a drawing's <svg> element is introduced into a page.
type SVG struct {
	// ID, Class: the element's id and class; empty for none.
	ID, Class string
	// LabelledBy is the id of the element whose words are the drawing's
	// text alternative (role="img"); Label is the alternative itself, used
	// when LabelledBy is empty. With neither, the drawing is aria-hidden:
	// the page says its words next to it.
	LabelledBy, Label string
}

// fontFamily names the Go font the layout measured, then close relatives.
const fontFamily = `'Go', 'Noto Sans', 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif`

// SVG paints d as an <svg> element, scaling to the width of its container
// (its viewBox is the drawing's size): a document of its own or a part of
// an HTML page.
func (d *Drawing) SVG(a SVG) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d"`, d.Width, d.Height, d.Width, d.Height)
	if a.ID != "" {
		fmt.Fprintf(&b, ` id="%s"`, html.EscapeString(a.ID))
	}
	if a.Class != "" {
		fmt.Fprintf(&b, ` class="%s"`, html.EscapeString(a.Class))
	}
	switch {
	case a.LabelledBy != "":
		fmt.Fprintf(&b, ` role="img" aria-labelledby="%s"`, html.EscapeString(a.LabelledBy))
	case a.Label != "":
		fmt.Fprintf(&b, ` role="img" aria-label="%s"`, html.EscapeString(a.Label))
	default:
		b.WriteString(` aria-hidden="true"`)
	}
	fmt.Fprintf(&b, ` font-family="%s">`+"\n", html.EscapeString(fontFamily))
	for _, s := range d.shapes {
		switch s.kind {
		case rect:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s"`, num(s.x), num(s.y), num(s.w), num(s.h))
			if s.r > 0 {
				fmt.Fprintf(&b, ` rx="%s"`, num(s.r))
			}
			paint(&b, s)
		case circle:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s"`, num(s.x), num(s.y), num(s.r))
			paint(&b, s)
		case line:
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"`, num(s.x), num(s.y), num(s.x+s.w), num(s.y+s.h))
			paint(&b, s)
		case text:
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" fill="%s"`, num(s.x), num(s.y), num(s.size), s.fill)
			if s.bold {
				b.WriteString(` font-weight="bold"`)
			}
			if s.middle {
				b.WriteString(` text-anchor="middle"`)
			}
			// The reader's font is rarely Go's: it is fitted to the
			// width the layout measured, so that no word leaves its card.
			fmt.Fprintf(&b, ` textLength="%s" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n", num(s.w), html.EscapeString(s.str))
		}
	}
	b.WriteString("</svg>")
	return b.Bytes()
}

// paint writes a shape's fill and stroke and closes its element.
func paint(b *bytes.Buffer, s shape) {
	fill := s.fill
	if fill == "" {
		fill = "none"
	}
	fmt.Fprintf(b, ` fill="%s"`, fill)
	if s.stroke != "" && s.strokeW > 0 {
		fmt.Fprintf(b, ` stroke="%s" stroke-width="%s"`, s.stroke, num(s.strokeW))
	}
	b.WriteString("/>\n")
}

// num writes a coordinate with at most two decimals.
func num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*100+0.5*sign(v)))/100, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

package draw

// The reference painter: the PNG's painter before it was made fast, kept
// for the tests to compare the fast one with.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// ReferenceImage paints d at scale pixels per drawing pixel as the PNG
// was first painted, with golang.org/x/image's vector rasteriser and
// font.Drawer on RGBA: what the fast painter must match.
func (d *Drawing) ReferenceImage(scale float64) (*image.RGBA, error) {
	if scale <= 0 {
		scale = 1
	}
	f, err := newFaces(font.HintingNone)
	if err != nil {
		return nil, err
	}
	defer f.close()
	w, h := int(math.Ceil(float64(d.Width)*scale)), int(math.Ceil(float64(d.Height)*scale))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	p := &refPainter{img: img, k: scale, ras: vector.NewRasterizer(w, h)}
	for _, s := range d.shapes {
		switch s.kind {
		case rect:
			sw := s.strokeW
			if s.fill != "" {
				p.fill(s.fill, s.x, s.y, s.w, s.h, func() { p.roundRect(s.x, s.y, s.w, s.h, s.r, false) })
			}
			if s.stroke != "" && s.strokeW > 0 {
				p.fill(s.stroke, s.x-sw, s.y-sw, s.w+2*sw, s.h+2*sw, func() {
					p.roundRect(s.x-sw/2, s.y-sw/2, s.w+sw, s.h+sw, s.r+sw/2, false)
					p.roundRect(s.x+sw/2, s.y+sw/2, s.w-sw, s.h-sw, max(0, s.r-sw/2), true)
				})
			}
		case circle:
			sw, r := s.strokeW, s.r
			if s.fill != "" {
				p.fill(s.fill, s.x-r, s.y-r, 2*r, 2*r, func() { p.roundRect(s.x-r, s.y-r, 2*r, 2*r, r, false) })
			}
			if s.stroke != "" && s.strokeW > 0 {
				p.fill(s.stroke, s.x-r-sw, s.y-r-sw, 2*(r+sw), 2*(r+sw), func() {
					p.roundRect(s.x-r-sw/2, s.y-r-sw/2, 2*r+sw, 2*r+sw, r+sw/2, false)
					p.roundRect(s.x-r+sw/2, s.y-r+sw/2, 2*r-sw, 2*r-sw, r-sw/2, true)
				})
			}
		case line:
			sw := s.strokeW
			p.fill(s.stroke, min(s.x, s.x+s.w)-sw, min(s.y, s.y+s.h)-sw, math.Abs(s.w)+2*sw, math.Abs(s.h)+2*sw, func() {
				p.segment(s.x, s.y, s.x+s.w, s.y+s.h, sw)
			})
		case text:
			face, err := f.face(s.size*scale, s.bold)
			if err != nil {
				return nil, err
			}
			x := s.x * scale
			if s.middle {
				x -= fix(font.MeasureString(face, s.str)) / 2
			}
			dr := font.Drawer{Dst: img, Src: image.NewUniform(hex(s.fill)), Face: face,
				Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(s.y * scale * 64)}}
			dr.DrawString(s.str)
		}
	}
	return img, nil
}

// refPainter fills paths on img at scale k.
type refPainter struct {
	img *image.RGBA
	k   float64
	ras *vector.Rasterizer
	off image.Point // the pixel the rasteriser's origin is on
}

// fill fills what path adds to the rasteriser with colour c, inside the
// box x, y, w, h (drawing units) that holds it: only that box is
// rasterised. A path drawn the other way round cuts a hole (a stroke is a
// ring).
func (p *refPainter) fill(c string, x, y, w, h float64, path func()) {
	box := image.Rect(int(math.Floor(x*p.k))-1, int(math.Floor(y*p.k))-1,
		int(math.Ceil((x+w)*p.k))+1, int(math.Ceil((y+h)*p.k))+1).Intersect(p.img.Bounds())
	if box.Empty() {
		return
	}
	p.off = box.Min
	p.ras.Reset(box.Dx(), box.Dy())
	path()
	p.ras.Draw(p.img, box, image.NewUniform(hex(c)), image.Point{})
}

func (p *refPainter) pt(x, y float64) (float32, float32) {
	return float32(x*p.k) - float32(p.off.X), float32(y*p.k) - float32(p.off.Y)
}

// roundRect adds a rectangle with corners of radius r, clockwise or
// (reverse) anticlockwise.
func (p *refPainter) roundRect(x, y, w, h, r float64, reverse bool) {
	if w <= 0 || h <= 0 {
		return
	}
	r = min(r, w/2, h/2)
	const k = 0.5523 // a quarter circle's control points
	// The outline clockwise: corners as (corner point, entry, exit).
	pts := [][2]float64{
		{x + r, y}, {x + w - r, y}, {x + w - r + r*k, y}, {x + w, y + r - r*k}, {x + w, y + r},
		{x + w, y + h - r}, {x + w, y + h - r + r*k}, {x + w - r + r*k, y + h}, {x + w - r, y + h},
		{x + r, y + h}, {x + r - r*k, y + h}, {x, y + h - r + r*k}, {x, y + h - r},
		{x, y + r}, {x, y + r - r*k}, {x + r - r*k, y}, {x + r, y},
	}
	if reverse {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	p.ras.MoveTo(p.pt(pts[0][0], pts[0][1]))
	// Each side is a line then a corner (three control points); reversed,
	// a corner then a line.
	for i := 1; i+3 < len(pts)+1; i += 4 {
		if !reverse {
			p.line(pts[i])
			p.cube(pts[i+1], pts[i+2], pts[i+3])
		} else {
			p.cube(pts[i], pts[i+1], pts[i+2])
			p.line(pts[i+3])
		}
	}
	p.ras.ClosePath()
}

func (p *refPainter) line(a [2]float64) { p.ras.LineTo(p.pt(a[0], a[1])) }

func (p *refPainter) cube(a, b, c [2]float64) {
	ax, ay := p.pt(a[0], a[1])
	bx, by := p.pt(b[0], b[1])
	cx, cy := p.pt(c[0], c[1])
	p.ras.CubeTo(ax, ay, bx, by, cx, cy)
}

// segment adds a line of width w from (x0, y0) to (x1, y1) as a thin
// quadrilateral.
func (p *refPainter) segment(x0, y0, x1, y1, w float64) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	ox, oy := -dy/n*w/2, dx/n*w/2
	p.ras.MoveTo(p.pt(x0+ox, y0+oy))
	p.ras.LineTo(p.pt(x1+ox, y1+oy))
	p.ras.LineTo(p.pt(x1-ox, y1-oy))
	p.ras.LineTo(p.pt(x0-ox, y0-oy))
	p.ras.ClosePath()
}

// hex parses "#rrggbb"; anything else is black.
func hex(s string) color.Color {
	if len(s) != 7 || s[0] != '#' {
		return color.Black
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.Black
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255} //nolint:gosec // G115: masked bytes
}

// Probe is what a drawing's shapes say of its picture at one place: the
// pixel At is exactly Colour (a fill, the background), or, for Text, some
// pixel of Box is nearly Colour (the text's ink).
type Probe struct {
	What   string
	At     image.Point
	Box    image.Rectangle
	Text   bool
	Colour color.RGBA
}

// Probes returns, for every filled shape of d that shows somewhere, a
// pixel well inside it that no later shape comes near, and for every text
// no later shape comes near, its box; at scale pixels per drawing pixel.
func (d *Drawing) Probes(scale float64) []Probe {
	var out []Probe
	for i, s := range d.shapes {
		switch {
		case s.kind == text:
			x0, y0, x1, y1 := bounds(s)
			if d.coveredLater(i, x0, y0, x1, y1) {
				continue
			}
			out = append(out, Probe{What: "text " + s.str, Text: true, Colour: rgbaRef(s.fill),
				Box: image.Rect(int(x0*scale), int(y0*scale), int(math.Ceil(x1*scale)), int(math.Ceil(y1*scale)))})
		case s.fill != "" && (s.kind == rect || s.kind == circle):
			// Inside by the stroke and the corners' radius, and a pixel.
			in := max(s.strokeW, s.r*0.3) + 2/scale
			x0, y0, x1, y1 := s.x+in, s.y+in, s.x+s.w-in, s.y+s.h-in
			if s.kind == circle {
				in = s.r*0.7 - s.strokeW - 2/scale
				x0, y0, x1, y1 = s.x-in, s.y-in, s.x+in, s.y+in
			}
			if x1 <= x0 || y1 <= y0 {
				continue
			}
		search:
			for _, fy := range []float64{0.5, 0.25, 0.75, 0, 1, 0.1, 0.9, 0.4, 0.6} {
				for _, fx := range []float64{0.5, 0.25, 0.75, 0, 1, 0.1, 0.9, 0.4, 0.6} {
					px, py := math.Floor((x0+fx*(x1-x0))*scale), math.Floor((y0+fy*(y1-y0))*scale)
					if px < x0*scale || py < y0*scale || px+1 > x1*scale || py+1 > y1*scale {
						continue
					}
					if d.coveredLater(i, px/scale, py/scale, (px+1)/scale, (py+1)/scale) {
						continue
					}
					out = append(out, Probe{What: fmt.Sprintf("shape %d's fill", i), At: image.Pt(int(px), int(py)), Colour: rgbaRef(s.fill)})
					break search
				}
			}
		}
	}
	return out
}

// bounds is the box a shape paints in, in drawing pixels, loosely.
func bounds(s shape) (x0, y0, x1, y1 float64) {
	sw := s.strokeW
	switch s.kind {
	case circle:
		return s.x - s.r - sw, s.y - s.r - sw, s.x + s.r + sw, s.y + s.r + sw
	case text:
		x := s.x
		if s.middle {
			x -= s.w / 2
		}
		return x - 1, s.y - s.size, x + s.w + 1, s.y + s.size*0.35
	default:
		return min(s.x, s.x+s.w) - sw, min(s.y, s.y+s.h) - sw, max(s.x, s.x+s.w) + sw, max(s.y, s.y+s.h) + sw
	}
}

// coveredLater reports whether a shape after the i-th comes within a
// pixel of the box.
func (d *Drawing) coveredLater(i int, x0, y0, x1, y1 float64) bool {
	for _, s := range d.shapes[i+1:] {
		a0, b0, a1, b1 := bounds(s)
		if a0-1 < x1 && x0 < a1+1 && b0-1 < y1 && y0 < b1+1 {
			return true
		}
	}
	return false
}

func rgbaRef(s string) color.RGBA {
	r, g, b, _ := hex(s).RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 255} //nolint:gosec // G115: 16-bit channels' high bytes
}

// NewPainterAtLevel returns a Painter whose compressor works at level (one
// of klauspost/compress/zlib's, not 0): for BenchmarkPNGLevel.
func NewPainterAtLevel(level int) *Painter {
	return &Painter{level: level}
}

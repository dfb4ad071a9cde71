package draw

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// PNG paints d at scale pixels per drawing pixel (2 for sharp text on a
// dense screen) and encodes it: the picture a mail's HTML part shows, as
// few mail programs show SVG. Shapes are filled by golang.org/x/image's
// anti-aliasing vector rasteriser, text drawn by its opentype faces.
func (d *Drawing) PNG(scale float64) ([]byte, error) {
	img, err := d.Image(scale)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&b, paletted(img)); err != nil {
		return nil, fmt.Errorf("draw: encode the PNG: %w", err)
	}
	return b.Bytes(), nil
}

// paletted turns img into a paletted image of its 256 commonest colours,
// for a PNG a third the size: a drawing has a few flat colours, and only
// the anti-aliased edges between them lose a little in the others, each
// mapped to its nearest.
func paletted(img *image.RGBA) *image.Paletted {
	// Runs of one colour are counted (and below, mapped) once.
	count := map[color.RGBA]int{}
	var run color.RGBA
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		c := color.RGBA{R: img.Pix[i], G: img.Pix[i+1], B: img.Pix[i+2], A: img.Pix[i+3]}
		if c != run {
			count[run] += n
			run, n = c, 0
		}
		n++
	}
	count[run] += n
	delete(count, color.RGBA{}) // the empty run before the first pixel, if counted
	all := make([]color.RGBA, 0, len(count))
	for c := range count {
		all = append(all, c)
	}
	slices.SortFunc(all, func(a, b color.RGBA) int {
		if n := cmp.Compare(count[b], count[a]); n != 0 {
			return n
		}
		return cmp.Compare(uint32(a.R)<<24|uint32(a.G)<<16|uint32(a.B)<<8|uint32(a.A), uint32(b.R)<<24|uint32(b.G)<<16|uint32(b.B)<<8|uint32(b.A))
	})
	pal := make(color.Palette, 0, 256)
	index := make(map[color.RGBA]uint8, len(all))
	for i, c := range all {
		if i < 256 {
			pal = append(pal, c)
			index[c] = uint8(i) //nolint:gosec // G115: i < 256
		}
	}
	out := image.NewPaletted(img.Bounds(), pal)
	last, k := color.RGBA{R: 1}, uint8(0)
	for i := 0; i+3 < len(img.Pix); i += 4 {
		c := color.RGBA{R: img.Pix[i], G: img.Pix[i+1], B: img.Pix[i+2], A: img.Pix[i+3]}
		if c != last {
			var ok bool
			if k, ok = index[c]; !ok {
				k = uint8(pal.Index(c)) //nolint:gosec // G115: a palette of at most 256
				index[c] = k
			}
			last = c
		}
		out.Pix[i/4] = k
	}
	return out
}

// Image paints d at scale pixels per drawing pixel.
func (d *Drawing) Image(scale float64) (*image.RGBA, error) {
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
	p := &painter{img: img, k: scale, ras: vector.NewRasterizer(w, h)}
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

// painter fills paths on img at scale k.
type painter struct {
	img *image.RGBA
	k   float64
	ras *vector.Rasterizer
	off image.Point // the pixel the rasteriser's origin is on
}

// fill fills what path adds to the rasteriser with colour c, inside the
// box x, y, w, h (drawing units) that holds it: only that box is
// rasterised. A path drawn the other way round cuts a hole (a stroke is a
// ring).
func (p *painter) fill(c string, x, y, w, h float64, path func()) {
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

func (p *painter) pt(x, y float64) (float32, float32) {
	return float32(x*p.k) - float32(p.off.X), float32(y*p.k) - float32(p.off.Y)
}

// roundRect adds a rectangle with corners of radius r, clockwise or
// (reverse) anticlockwise.
func (p *painter) roundRect(x, y, w, h, r float64, reverse bool) {
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

func (p *painter) line(a [2]float64) { p.ras.LineTo(p.pt(a[0], a[1])) }

func (p *painter) cube(a, b, c [2]float64) {
	ax, ay := p.pt(a[0], a[1])
	bx, by := p.pt(b[0], b[1])
	cx, cy := p.pt(c[0], c[1])
	p.ras.CubeTo(ax, ay, bx, by, cx, cy)
}

// segment adds a line of width w from (x0, y0) to (x1, y1) as a thin
// quadrilateral.
func (p *painter) segment(x0, y0, x1, y1, w float64) {
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

// MailScale is the scale of a mail's PNG: sharp on a dense screen, a few
// tens of kilobytes.
const MailScale = 1.5

package draw

import (
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// The PNG painter. A mail carries the board as a PNG, so painting it must
// keep pace with the moves: a few milliseconds and little memory per
// picture. It paints straight into palette indices (one byte a pixel), a
// band of rows at a time, and deflates each band as it is done (with
// klauspost/compress's zlib, whose compressor a [Painter] keeps for its
// next pictures), so that the whole picture is never held at four bytes a
// pixel.
//
// Shapes are filled by a scanline painter made for them: each pixel row's
// coverage is the exact horizontal coverage of the shape's span in that row
// (sampled on sub-rows where the outline curves or slants), and rows where
// the outline runs straight down repeat the row above without computing it
// again, so a large rectangle costs little more than copying its colour.
// Text is drawn from golang.org/x/image's opentype faces, each glyph's mask
// rasterised once per sub-pixel position and kept by the Painter for every
// picture.
//
// The palette holds the drawing's own colours first, then the blends an
// anti-aliased edge or glyph makes of a colour over another, at one of
// coverLevels coverages; past maxColours a blend takes its nearest.

const (
	// coverLevels is how many steps of coverage an edge has: finer than
	// the eye tells apart on a 1.5-scale picture, coarse enough for the
	// blends of a drawing's few colours to fit in a palette.
	coverLevels = 16
	// subRows is how many sub-rows at most sample a pixel row where an
	// outline curves or slants.
	subRows = 16
	// subRowsPerPixel is how many sub-rows a pixel row has for each
	// pixel the outline moves across it.
	subRowsPerPixel = 8
	// bandRows is how many rows are painted before they are deflated.
	bandRows = 64
	// glyphSteps is how many sub-pixel positions a glyph is rasterised at,
	// across and down (a quarter pixel: its placement moves by at most an
	// eighth of a pixel).
	glyphSteps = 4
)

// pngHead is the most a PNG of ours holds before its deflated rows: the
// signature, IHDR, PLTE of 256 colours, and IDAT's length and type.
const pngHead = 8 + (12 + 13) + (12 + 3*256) + 8

// encodePNG makes a PNG of w×h palette indices of 8 bits from buf: pngHead
// bytes of room, then the rows (each after its filter byte) deflated. It
// returns buf grown, and where in it the PNG starts.
func encodePNG(w, h int, pal []color.RGBA, buf []byte) ([]byte, int) {
	idat := buf[pngHead:]
	head := make([]byte, 0, pngHead)
	head = append(head, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w)) //nolint:gosec // G115: a picture's width
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h)) //nolint:gosec // G115: a picture's height
	ihdr[8], ihdr[9] = 8, 3                         // 8 bits, paletted; deflate, filters of PNG, no interlace
	head = chunk(head, "IHDR", ihdr[:])
	var room [3 * 256]byte
	plte := room[:0]
	for _, c := range pal {
		plte = append(plte, c.R, c.G, c.B)
	}
	head = chunk(head, "PLTE", plte)
	head = binary.BigEndian.AppendUint32(head, uint32(len(idat))) //nolint:gosec // G115: far below 2 GB
	head = append(head, "IDAT"...)
	start := pngHead - len(head)
	copy(buf[start:], head)
	crc := crc32.Update(crc32.ChecksumIEEE([]byte("IDAT")), crc32.IEEETable, idat)
	buf = binary.BigEndian.AppendUint32(buf, crc)
	buf = chunk(buf, "IEND", nil)
	return buf, start
}

// chunk appends a PNG chunk to b: its length, type, data and CRC.
func chunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data))) //nolint:gosec // G115: a chunk is far below 2 GB
	b = append(b, typ...)
	b = append(b, data...)
	crc := crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, data)
	return binary.BigEndian.AppendUint32(b, crc)
}

// painter paints one drawing at a time, at one scale: a [Painter]'s
// scratch, kept for its next pictures.
type painter struct {
	w, h   int
	k      float64
	faces  *faces
	pal    inks
	shapes []painted
	pieces []piece // the pieces of shapes
	// The PNG: its rows' compressor, the band of rows it takes next, and
	// the PNG it writes.
	zw   *zlib.Writer
	band []byte
	out  byteWriter
	// The band being painted: rows y0 to y1, each its filter byte then w
	// palette indices.
	y0, y1 int
	pix    []byte
	// Scratch of fill.
	bends        []bend
	items, prior []span
	runs         []run
	// The glyph masks this picture used, and every picture's.
	glyphs map[glyphKey]*glyph
	shared *glyphCache
}

// painted is a shape ready to paint: its pieces in pixels and its inks.
type painted struct {
	top, bottom int // the rows it touches
	fill        []piece
	stroke      []piece
	fillInk     uint8
	strokeInk   uint8
	// background: it fills the whole picture with the palette's first
	// colour, as the band starts.
	background bool
	// Text only.
	text  *shape
	face  font.Face
	fkey  faceKey
	start fixed.Point26_6
}

// start prepares d's shapes for painting at scale (1 when not positive).
func (p *painter) start(d *Drawing, scale float64) error {
	if scale <= 0 {
		scale = 1
	}
	p.w, p.h = int(math.Ceil(float64(d.Width)*scale)), int(math.Ceil(float64(d.Height)*scale))
	p.k = scale
	p.pal.reset()
	clear(p.glyphs)
	// What no shape covers is paper, the first colour: a band starts so.
	p.pal.colour(rgba(paper))
	p.shapes = slices.Grow(p.shapes[:0], len(d.shapes))
	// Room for every shape's pieces (two at most to stroke, one to fill),
	// so that those kept stay where they are.
	p.pieces = slices.Grow(p.pieces[:0], 3*len(d.shapes))
	for i := range d.shapes {
		s := &d.shapes[i]
		ps, err := p.prepare(s)
		if err != nil {
			return err
		}
		if i == 0 && s.kind == rect && s.stroke == "" && s.r == 0 && s.x <= 0 && s.y <= 0 &&
			s.w*scale >= float64(p.w) && s.h*scale >= float64(p.h) && ps.fillInk == 0 {
			ps.background = true
		}
		if ps.bottom > ps.top {
			p.shapes = append(p.shapes, ps)
		}
	}
	return nil
}

// prepare turns s into pixels: the pieces it fills and strokes, or the
// face and place of its text.
func (p *painter) prepare(s *shape) (painted, error) {
	k := p.k
	var ps painted
	switch s.kind {
	case rect:
		sw := s.strokeW
		if s.fill != "" {
			ps.fill = p.keep(p.box(s.x, s.y, s.w, s.h, s.r, 1))
		}
		if s.stroke != "" && sw > 0 {
			ps.stroke = p.keep(p.box(s.x-sw/2, s.y-sw/2, s.w+sw, s.h+sw, s.r+sw/2, 1),
				p.box(s.x+sw/2, s.y+sw/2, s.w-sw, s.h-sw, max(0, s.r-sw/2), -1))
		}
	case circle:
		sw, r := s.strokeW, s.r
		if s.fill != "" {
			ps.fill = p.keep(p.box(s.x-r, s.y-r, 2*r, 2*r, r, 1))
		}
		if s.stroke != "" && sw > 0 {
			ps.stroke = p.keep(p.box(s.x-r-sw/2, s.y-r-sw/2, 2*r+sw, 2*r+sw, r+sw/2, 1),
				p.box(s.x-r+sw/2, s.y-r+sw/2, 2*r-sw, 2*r-sw, r-sw/2, -1))
		}
	case line:
		sw := s.strokeW
		switch {
		case s.h == 0:
			ps.stroke = p.keep(p.box(min(s.x, s.x+s.w), s.y-sw/2, math.Abs(s.w), sw, 0, 1))
		case s.w == 0:
			ps.stroke = p.keep(p.box(s.x-sw/2, min(s.y, s.y+s.h), sw, math.Abs(s.h), 0, 1))
		default:
			ps.stroke = p.keep(p.segment(s.x, s.y, s.x+s.w, s.y+s.h, sw))
		}
	case text:
		face, err := p.faces.face(s.size*k, s.bold)
		if err != nil {
			return ps, err
		}
		x := s.x * k
		if s.middle {
			x -= fix(font.MeasureString(face, s.str)) / 2
		}
		m := face.Metrics()
		ps.text, ps.face, ps.fkey = s, face, faceKey{s.size * k, s.bold}
		ps.start = fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(s.y * k * 64)}
		// Accents and the like may pass the face's ascent and descent.
		margin := int(math.Ceil(s.size * k / 2))
		ps.top = max(0, (ps.start.Y-m.Ascent).Floor()-margin)
		ps.bottom = min(p.h, (ps.start.Y+m.Descent).Ceil()+margin)
		ps.fillInk = p.pal.colour(rgba(s.fill))
		return ps, nil
	}
	if len(ps.fill) > 0 {
		ps.fillInk = p.pal.colour(rgba(s.fill))
	}
	if len(ps.stroke) > 0 {
		ps.strokeInk = p.pal.colour(rgba(s.stroke))
	}
	ps.top, ps.bottom = p.h, 0
	for _, pcs := range [][]piece{ps.fill, ps.stroke} {
		for _, pc := range pcs {
			if pc.sign > 0 {
				ps.top = min(ps.top, max(0, int(math.Floor(pc.y0))))
				ps.bottom = max(ps.bottom, min(p.h, int(math.Ceil(pc.y1))))
			}
		}
	}
	return ps, nil
}

// keep adds pcs to the pieces of the picture's shapes and returns them
// there.
func (p *painter) keep(pcs ...piece) []piece {
	start := len(p.pieces)
	p.pieces = append(p.pieces, pcs...)
	return p.pieces[start:len(p.pieces):len(p.pieces)]
}

// box is the piece of a rectangle of the drawing (x, y, w, h) with corners
// of radius r, in pixels; sign -1 cuts it out of what the others fill.
func (p *painter) box(x, y, w, h, r float64, sign float32) piece {
	k := p.k
	if w <= 0 || h <= 0 {
		return piece{}
	}
	r = max(0, min(r, w/2, h/2))
	return piece{x0: x * k, y0: y * k, x1: (x + w) * k, y1: (y + h) * k, r: r * k, sign: sign}
}

// segment is the piece of a line of width w from (x0, y0) to (x1, y1), a
// thin quadrilateral, in pixels.
func (p *painter) segment(x0, y0, x1, y1, w float64) piece {
	k := p.k
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 {
		return piece{}
	}
	ox, oy := -dy/n*w/2, dx/n*w/2
	pc := piece{quad: true, sign: 1, q: [4][2]float64{
		{(x0 + ox) * k, (y0 + oy) * k}, {(x1 + ox) * k, (y1 + oy) * k},
		{(x1 - ox) * k, (y1 - oy) * k}, {(x0 - ox) * k, (y0 - oy) * k},
	}}
	pc.x0, pc.y0, pc.x1, pc.y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, v := range pc.q {
		pc.x0, pc.x1 = min(pc.x0, v[0]), max(pc.x1, v[0])
		pc.y0, pc.y1 = min(pc.y0, v[1]), max(pc.y1, v[1])
	}
	return pc
}

// paint paints the rows y0 to y1 into pix, each row its filter byte (0)
// then its palette indices.
func (p *painter) paint(pix []byte, y0, y1 int) {
	p.pix, p.y0, p.y1 = pix, y0, y1
	clear(pix) // the filter bytes (0: none) and paper (the first colour)
	for i := range p.shapes {
		s := &p.shapes[i]
		if s.bottom <= y0 || s.top >= y1 || s.background {
			continue
		}
		if s.text != nil {
			p.text(s)
			continue
		}
		if len(s.fill) > 0 {
			p.fill(s.fillInk, s.fill)
		}
		if len(s.stroke) > 0 {
			p.fill(s.strokeInk, s.stroke)
		}
	}
}

// piece is a region a shape fills: a box with rounded corners (a disc when
// r is half its sides), or a convex quadrilateral q; in pixels. Its sign is
// +1 when it adds to the shape, -1 when it cuts a hole.
type piece struct {
	x0, y0, x1, y1, r float64 // the box, or the quadrilateral's bounds
	quad              bool
	q                 [4][2]float64
	sign              float32
}

// straight reports whether the piece's span is the same all down the rows
// ya to yb.
func (pc *piece) straight(ya, yb float64) bool {
	return !pc.quad && ya >= pc.y0+pc.r && yb <= pc.y1-pc.r
}

// across returns where the piece begins and ends along the row at y.
func (pc *piece) across(y float64) (float64, float64) {
	if pc.quad {
		l, r := math.Inf(1), math.Inf(-1)
		for i, a := range pc.q {
			b := pc.q[(i+1)%len(pc.q)]
			if a[1] == b[1] || y < min(a[1], b[1]) || y > max(a[1], b[1]) {
				continue
			}
			x := a[0] + (y-a[1])*(b[0]-a[0])/(b[1]-a[1])
			l, r = min(l, x), max(r, x)
		}
		return l, r
	}
	var dy float64
	switch {
	case y < pc.y0+pc.r:
		dy = pc.y0 + pc.r - y
	case y > pc.y1-pc.r:
		dy = y - (pc.y1 - pc.r)
	default:
		return pc.x0, pc.x1
	}
	dx := pc.r - math.Sqrt(max(0, pc.r*pc.r-dy*dy))
	return pc.x0 + dx, pc.x1 - dx
}

// span is part of a pixel row a piece covers: from l to r across, weighted
// by the height of the row it covers (negative: a hole).
type span struct {
	l, r   float64
	weight float32
}

// run is a stretch of n pixels of a row from x, covered at level (out of
// coverLevels).
type run struct {
	x, n  int
	level int
}

// fill paints the pieces' union, less their holes, with ink in the band.
func (p *painter) fill(ink uint8, pieces []piece) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pc := range pieces {
		if pc.sign > 0 {
			minX, minY, maxX, maxY = min(minX, pc.x0), min(minY, pc.y0), max(maxX, pc.x1), max(maxY, pc.y1)
		}
	}
	if math.IsInf(minX, 0) {
		return
	}
	x0, x1 := max(0, int(math.Floor(minX))), min(p.w, int(math.Ceil(maxX)))
	y0, y1 := max(p.y0, int(math.Floor(minY))), min(p.y1, int(math.Ceil(maxY)))
	if x0 >= x1 || y0 >= y1 {
		return
	}
	mix := p.pal.mixes(ink)
	fresh := true
	for y := y0; y < y1; y++ {
		items := p.items[:0]
		fy := float64(y)
		for i := range pieces {
			pc := &pieces[i]
			ya, yb := max(fy, pc.y0), min(fy+1, pc.y1)
			if ya >= yb || pc.sign == 0 {
				continue
			}
			if pc.straight(ya, yb) {
				l, r := pc.across((ya + yb) / 2)
				items = append(items, span{l, r, float32(yb-ya) * pc.sign})
				continue
			}
			// As many sub-rows as the outline moves across, in eighths
			// of a pixel.
			la, ra := pc.across(ya)
			lb, rb := pc.across(yb)
			n := subRows // also where an end is not found (a corner's tip)
			if moves := max(math.Abs(la-lb), math.Abs(ra-rb)); moves < subRows/subRowsPerPixel {
				n = max(1, int(math.Ceil(moves*subRowsPerPixel)))
			}
			h := (yb - ya) / float64(n)
			// The sub-rows in the order their left ends go right: cover
			// sorts the ends, and sorts them fastest so.
			for k := range n {
				i := k
				if la > lb {
					i = n - 1 - k
				}
				sa := ya + float64(i)*h
				if l, r := pc.across(sa + h/2); l < r {
					items = append(items, span{l, r, float32(h) * pc.sign})
				}
			}
		}
		p.items = items
		if fresh || !slices.Equal(items, p.prior) {
			p.cover(items, x0, x1-x0)
			p.prior = append(p.prior[:0], items...)
			fresh = false
		}
		row := p.pix[(y-p.y0)*(p.w+1)+1+x0 : (y-p.y0+1)*(p.w+1)]
		for _, r := range p.runs {
			seg := row[r.x : r.x+r.n]
			if r.level == coverLevels {
				fillBytes(seg, ink)
				continue
			}
			// Along an edge the colour under often stays one.
			lastUnder, last := seg[0], p.pal.mix(mix, seg[0], ink, r.level)
			for i, under := range seg {
				if under != lastUnder {
					lastUnder, last = under, p.pal.mix(mix, under, ink, r.level)
				}
				seg[i] = last
			}
		}
	}
}

// cover turns a row's spans into runs of coverage of the n pixels from x0.
// The coverage from the left edge to x, F(x), is piecewise linear, bending
// where a span begins or ends; a pixel's coverage is F's rise across it, so
// pixels between two bends share their coverage, the slope there.
func (p *painter) cover(items []span, x0, n int) {
	// The left ends in the order of the spans, then the right ends in the
	// reverse order: sorted already but where sub-rows of different pieces
	// interleave, so a plain insertion sort is quick.
	bends := p.bends[:0]
	for _, it := range items {
		if a, b := max(0, it.l-float64(x0)), min(float64(n), it.r-float64(x0)); a < b {
			bends = append(bends, bend{a, float64(it.weight)})
		}
	}
	for _, it := range slices.Backward(items) {
		if a, b := max(0, it.l-float64(x0)), min(float64(n), it.r-float64(x0)); a < b {
			bends = append(bends, bend{b, -float64(it.weight)})
		}
	}
	for i := 1; i < len(bends); i++ {
		v, j := bends[i], i
		for ; j > 0 && bends[j-1].x > v.x; j-- {
			bends[j] = bends[j-1]
		}
		bends[j] = v
	}
	p.bends = bends
	p.runs = p.runs[:0]
	if len(bends) == 0 {
		return
	}
	pos, f, slope := bends[0].x, 0.0, 0.0 // F(pos) = f, rising by slope
	px := int(pos)
	fpx := 0.0 // F at pixel px's left edge
	for _, bd := range bends {
		if bx := int(bd.x); bx > px {
			// Pixel px ends before this bend; those up to bx share the slope.
			end := f + slope*(float64(px+1)-pos)
			p.addRun(px, 1, end-fpx)
			if bx > px+1 {
				p.addRun(px+1, bx-px-1, slope)
			}
			px, fpx = bx, f+slope*(float64(bx)-pos)
		}
		f += slope * (bd.x - pos)
		pos = bd.x
		slope += bd.dw
	}
	if px < n {
		p.addRun(px, 1, f-fpx)
	}
}

// bend is where a row's coverage changes slope, by dw.
type bend struct{ x, dw float64 }

// addRun adds n pixels from x covered by c, merging runs of one level.
func (p *painter) addRun(x, n int, c float64) {
	level := max(0, min(coverLevels, int(c*coverLevels+0.5)))
	if level == 0 || n <= 0 {
		return
	}
	if last := len(p.runs) - 1; last >= 0 && p.runs[last].level == level && p.runs[last].x+p.runs[last].n == x {
		p.runs[last].n += n
		return
	}
	p.runs = append(p.runs, run{x: x, n: n, level: level})
}

// fillBytes sets every byte of b to v.
func fillBytes(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// glyphKey names a glyph's mask: its face, rune and sub-pixel position.
type glyphKey struct {
	face   faceKey
	r      rune
	fx, fy fixed.Int26_6
}

// glyph is a glyph's mask, placed relative to the whole pixel its dot is in.
type glyph struct {
	ok      bool
	bounds  image.Rectangle
	mask    []byte // coverage levels (of coverLevels), bounds.Dx() a row
	advance fixed.Int26_6
}

// text draws a text shape's glyphs in the band, as font.Drawer does.
func (p *painter) text(s *painted) {
	dot := s.start
	prev := rune(-1)
	for _, r := range s.text.str {
		if prev >= 0 {
			dot.X += s.face.Kern(prev, r)
		}
		g := p.glyph(s, dot, r)
		if !g.ok {
			continue
		}
		p.mask(g, image.Point{X: dot.X.Floor(), Y: dot.Y.Floor()}, s.fillInk)
		dot.X += g.advance
		prev = r
	}
}

// glyph returns r's mask at dot, rasterising it at the nearest of
// glyphSteps sub-pixel positions the first time.
func (p *painter) glyph(s *painted, dot fixed.Point26_6, r rune) *glyph {
	const step = 64 / glyphSteps
	fx, fy := (dot.X&63+step/2)/step*step, (dot.Y&63+step/2)/step*step
	key := glyphKey{face: s.fkey, r: r, fx: fx, fy: fy}
	if g, ok := p.glyphs[key]; ok {
		return g
	}
	g := p.shared.get(key)
	if g == nil {
		g = p.shared.add(key, rasterise(s.face, key))
	}
	p.glyphs[key] = g
	return g
}

// rasterise makes the mask of key's glyph from face (key's face).
func rasterise(face font.Face, key glyphKey) *glyph {
	g := &glyph{}
	dr, mask, mp, advance, ok := face.Glyph(fixed.Point26_6{X: key.fx, Y: key.fy}, key.r)
	if !ok {
		return g
	}
	g.ok, g.bounds, g.advance = true, dr, advance
	g.mask = make([]byte, dr.Dx()*dr.Dy())
	alpha, isAlpha := mask.(*image.Alpha)
	for y := range dr.Dy() {
		for x := range dr.Dx() {
			var al uint32
			if isAlpha {
				al = uint32(alpha.Pix[alpha.PixOffset(mp.X+x, mp.Y+y)])
			} else {
				_, _, _, al = mask.At(mp.X+x, mp.Y+y).RGBA()
				al >>= 8
			}
			g.mask[y*dr.Dx()+x] = uint8((al*coverLevels + 127) / 255) //nolint:gosec // G115: at most coverLevels
		}
	}
	return g
}

// mask blends ink into the band through g's mask placed at the whole pixel
// at.
func (p *painter) mask(g *glyph, at image.Point, ink uint8) {
	b := g.bounds.Add(at).Intersect(image.Rect(0, p.y0, p.w, p.y1))
	if b.Empty() {
		return
	}
	mix := p.pal.mixes(ink)
	gw := g.bounds.Dx()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := g.mask[(y-at.Y-g.bounds.Min.Y)*gw+(b.Min.X-at.X-g.bounds.Min.X):]
		row := p.pix[(y-p.y0)*(p.w+1)+1+b.Min.X : (y-p.y0)*(p.w+1)+1+b.Max.X]
		for i, under := range row {
			switch level := int(src[i]); level {
			case 0:
			case coverLevels:
				row[i] = ink
			default:
				row[i] = p.pal.mix(mix, under, ink, level)
			}
		}
	}
}

// inks is a picture's palette: its colours, then the blends of one over
// another its edges make.
type inks struct {
	rgb   []color.RGBA
	index map[color.RGBA]uint8
	// blends[ink][under*coverLevels+level] is 1 + the index of ink at
	// level over the colour under; 0: not yet known.
	blends [maxColours][]uint8
}

// maxColours is how many colours a palette holds: one short of PNG's 256,
// so that 1 + an index is a byte.
const maxColours = 255

func newInks() inks {
	return inks{rgb: make([]color.RGBA, 0, maxColours), index: make(map[color.RGBA]uint8, maxColours)}
}

// reset empties the palette for another picture, keeping its tables.
func (pl *inks) reset() {
	pl.rgb = pl.rgb[:0]
	clear(pl.index)
	for _, b := range pl.blends {
		clear(b)
	}
}

// colour returns c's index, adding it while there is room; past
// maxColours, the nearest's.
func (pl *inks) colour(c color.RGBA) uint8 {
	if i, ok := pl.index[c]; ok {
		return i
	}
	if len(pl.rgb) < maxColours {
		i := uint8(len(pl.rgb)) //nolint:gosec // G115: fewer than maxColours
		pl.rgb = append(pl.rgb, c)
		pl.index[c] = i
		return i
	}
	best, bestD := 0, math.MaxInt
	for i, q := range pl.rgb {
		dr, dg, db := int(q.R)-int(c.R), int(q.G)-int(c.G), int(q.B)-int(c.B)
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	pl.index[c] = uint8(best) //nolint:gosec // G115: an index of at most 256 colours
	return uint8(best)        //nolint:gosec // G115: as above
}

// mixes returns ink's table of blends.
func (pl *inks) mixes(ink uint8) []uint8 {
	if pl.blends[ink] == nil {
		pl.blends[ink] = make([]uint8, maxColours*coverLevels)
	}
	return pl.blends[ink]
}

// mix returns the index of ink at level over the colour under, from ink's
// table of blends.
func (pl *inks) mix(blends []uint8, under, ink uint8, level int) uint8 {
	if v := blends[int(under)*coverLevels+level]; v != 0 {
		return v - 1
	}
	return pl.blend(blends, under, ink, level)
}

// blend works out and remembers the index of ink at level over the colour
// under.
func (pl *inks) blend(blends []uint8, under, ink uint8, level int) uint8 {
	u, c := pl.rgb[under], pl.rgb[ink]
	m := func(a, b uint8) uint8 {
		return uint8((int(a)*(coverLevels-level) + int(b)*level + coverLevels/2) / coverLevels) //nolint:gosec // G115: a mean of bytes
	}
	i := pl.colour(color.RGBA{R: m(u.R, c.R), G: m(u.G, c.G), B: m(u.B, c.B), A: 255})
	blends[int(under)*coverLevels+level] = i + 1
	return i
}

// rgba parses "#rrggbb"; anything else is black.
func rgba(s string) color.RGBA {
	if len(s) != 7 || s[0] != '#' {
		return color.RGBA{A: 255}
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.RGBA{A: 255}
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255} //nolint:gosec // G115: masked bytes
}

// MailScale is the scale of a mail's PNG: sharp on a dense screen, a few
// tens of kilobytes.
const MailScale = 1.5

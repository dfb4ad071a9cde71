package draw

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"sync"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/font"
)

// pngLevel is the level the PNG's rows are deflated at: klauspost/compress's
// fastest, which makes PNGs within a few percent of its levels 2 and 3 in
// less time (BenchmarkPNGLevel measures them; Huffman coding alone makes
// them 5-7 times larger).
const pngLevel = zlib.BestSpeed

// The bounds of what a Painter keeps between pictures.
const (
	// maxIdlePainters is how many painters' scratch (each about half a
	// megabyte, most of it the compressor's tables and window) a Painter
	// keeps for the next pictures: as many as mail workers paint at once.
	maxIdlePainters = 8
	// maxGlyphBytes bounds the glyph masks a Painter keeps (a mail's
	// picture draws a few hundred, a few hundred bytes each): past it, they
	// are all dropped and made again as needed.
	maxGlyphBytes = 4 << 20
	// glyphOverhead is about what a kept mask costs besides its bytes.
	glyphOverhead = 128
	// maxKeptBuffer is the largest band or PNG buffer a painter keeps for
	// the next picture: a huge picture's are let go.
	maxKeptBuffer = 4 << 20
	// maxKeptShapes is the most shapes a painter keeps room for.
	maxKeptShapes = 8 << 10
	// maxKeptFaces is how many font faces a painter keeps; past it, they
	// are dropped and made again as needed.
	maxKeptFaces = 32
)

// Painter paints drawings as PNGs ([Painter.PNG]) and keeps, for the next
// pictures, what one makes that others can use: its compressors, band and
// output buffers, font faces, and the glyph masks it rasterises (keyed by
// face, rune and sub-pixel position, so a picture's pixels do not depend on
// which pictures came before). A mail service holds one for all its
// pictures. It is safe for concurrent use: each picture being painted has
// scratch of its own, taken from (and given back to) the Painter's idle
// ones. The zero value is ready to use.
type Painter struct {
	glyphs glyphCache
	mu     sync.Mutex
	idle   []*painter
	// level is the compressor's level; 0: pngLevel.
	level int
}

// NewPainter returns a Painter with nothing kept yet.
func NewPainter() *Painter {
	return &Painter{}
}

// PNG paints d at scale pixels per drawing pixel (1 when not positive; 2 for
// sharp text on a dense screen) and encodes it as a paletted PNG: the
// picture a mail's HTML part shows, as few mail programs show SVG. The
// bytes are the caller's.
func (pt *Painter) PNG(d *Drawing, scale float64) ([]byte, error) {
	p, err := pt.get()
	if err != nil {
		return nil, err
	}
	defer pt.put(p)
	if err := p.start(d, scale); err != nil {
		return nil, err
	}
	if p.zw == nil {
		level := pt.level
		if level == 0 {
			level = pngLevel
		}
		if p.zw, err = zlib.NewWriterLevel(&p.out, level); err != nil {
			return nil, fmt.Errorf("draw: the PNG's compressor: %w", err)
		}
	}
	// The PNG is written in one buffer: the deflated rows after room for
	// what comes before them, known once the palette is.
	p.out.b = append(p.out.b[:0], make([]byte, pngHead)...)
	p.zw.Reset(&p.out)
	rowLen := p.w + 1
	p.band = slices.Grow(p.band[:0], min(bandRows, p.h)*rowLen)
	for y := 0; y < p.h; y += bandRows {
		rows := min(bandRows, p.h-y)
		band := p.band[:rows*rowLen]
		p.paint(band, y, y+rows)
		if _, err := p.zw.Write(band); err != nil {
			return nil, fmt.Errorf("draw: deflating the PNG's rows: %w", err)
		}
	}
	if err := p.zw.Close(); err != nil {
		return nil, fmt.Errorf("draw: deflating the PNG's rows: %w", err)
	}
	var start int
	p.out.b, start = encodePNG(p.w, p.h, p.pal.rgb, p.out.b)
	return slices.Clone(p.out.b[start:]), nil
}

// Image paints d at scale pixels per drawing pixel: the picture
// [Painter.PNG] encodes.
func (pt *Painter) Image(d *Drawing, scale float64) (*image.Paletted, error) {
	p, err := pt.get()
	if err != nil {
		return nil, err
	}
	defer pt.put(p)
	if err := p.start(d, scale); err != nil {
		return nil, err
	}
	// Each row starts with the PNG's filter byte, as PNG deflates them.
	pix := make([]byte, p.h*(p.w+1))
	p.paint(pix, 0, p.h)
	pal := make(color.Palette, len(p.pal.rgb))
	for i, c := range p.pal.rgb {
		pal[i] = c
	}
	if p.h == 0 || p.w == 0 {
		return image.NewPaletted(image.Rect(0, 0, p.w, p.h), pal), nil
	}
	return &image.Paletted{Pix: pix[1:], Stride: p.w + 1, Rect: image.Rect(0, 0, p.w, p.h), Palette: pal}, nil
}

// PNG paints d as [Painter.PNG] does, with a painter of its own: for a
// picture now and then (a mail service holds a [Painter] instead).
func (d *Drawing) PNG(scale float64) ([]byte, error) {
	return NewPainter().PNG(d, scale)
}

// Image paints d as [Painter.Image] does, with a painter of its own.
func (d *Drawing) Image(scale float64) (*image.Paletted, error) {
	return NewPainter().Image(d, scale)
}

// get takes an idle painter, or makes one.
func (pt *Painter) get() (*painter, error) {
	pt.mu.Lock()
	if n := len(pt.idle); n > 0 {
		p := pt.idle[n-1]
		pt.idle[n-1] = nil
		pt.idle = pt.idle[:n-1]
		pt.mu.Unlock()
		return p, nil
	}
	pt.mu.Unlock()
	f, err := newFaces(font.HintingNone)
	if err != nil {
		return nil, err
	}
	return &painter{faces: f, pal: newInks(), glyphs: map[glyphKey]*glyph{}, shared: &pt.glyphs}, nil
}

// put gives p back to be idle, letting go of what the next picture should
// not keep: the drawing, and buffers or faces past their bounds.
func (pt *Painter) put(p *painter) {
	clear(p.shapes) // nothing of the drawing is kept
	p.shapes = p.shapes[:0]
	if cap(p.shapes) > maxKeptShapes {
		p.shapes, p.pieces = nil, nil
	}
	clear(p.glyphs)
	p.pix = nil
	if cap(p.band) > maxKeptBuffer {
		p.band = nil
	}
	if cap(p.out.b) > maxKeptBuffer {
		p.out.b = nil
	}
	if len(p.faces.cache) > maxKeptFaces {
		p.faces.close()
		clear(p.faces.cache)
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if len(pt.idle) < maxIdlePainters {
		pt.idle = append(pt.idle, p)
	}
}

// glyphCache holds glyph masks for every picture a Painter paints. A mask
// is not changed once added, so it is read without a lock once found.
type glyphCache struct {
	mu     sync.RWMutex
	masks  map[glyphKey]*glyph
	nbytes int
}

// get returns the mask of key, or nil.
func (c *glyphCache) get(key glyphKey) *glyph {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.masks[key]
}

// add keeps g as key's mask and returns the mask kept: g, or the one
// another picture added first. Past maxGlyphBytes, every mask kept is
// dropped first.
func (c *glyphCache) add(key glyphKey, g *glyph) *glyph {
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.masks[key]; ok {
		return kept
	}
	size := len(g.mask) + glyphOverhead
	if c.masks == nil || c.nbytes+size > maxGlyphBytes {
		c.masks, c.nbytes = map[glyphKey]*glyph{}, 0
	}
	c.masks[key] = g
	c.nbytes += size
	return g
}

// byteWriter appends what is written to b.
type byteWriter struct{ b []byte }

// Write appends p to w.b.
func (w *byteWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

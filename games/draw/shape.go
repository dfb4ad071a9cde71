package draw

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// A drawing is a list of shapes in pixels, top-left origin: the layout
// (draw.go) makes it once and both painters (svg.go, png.go) paint exactly
// it, so the web's SVG and the mail's PNG are the same picture.

// kind is what a shape is.
type kind int

const (
	rect   kind = iota // a rectangle, rounded by r, filled and/or stroked
	circle             // a disc of radius r centred on x, y
	line               // a segment from x, y to x+w, y+h
	text               // a line of text, its baseline at y, its advance w
)

// shape is one thing painted. Colours are "#rrggbb"; empty: none.
type shape struct {
	kind          kind
	x, y, w, h, r float64
	fill, stroke  string
	strokeW       float64
	// Text only.
	str    string
	size   float64
	bold   bool
	middle bool // anchored at its middle rather than its start
}

// The fonts: Go Regular and Go Bold, whose glyphs include the card suits
// (♠♣♥♦) and Latin accents, parsed once. The SVG names Go first, falls
// back on the reader's sans-serif and fits each text to the width Go's
// metrics gave it (textLength).
var (
	fontsOnce  sync.Once
	fontsErr   error
	fontByBold [2]*sfnt.Font
)

func fonts() ([2]*sfnt.Font, error) {
	fontsOnce.Do(func() {
		for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
			f, err := opentype.Parse(ttf)
			if err != nil {
				fontsErr = fmt.Errorf("draw: the Go font: %w", err)
				return
			}
			fontByBold[i] = f
		}
	})
	return fontByBold, fontsErr
}

// faces makes font faces by size and weight for one layout or painting
// (an opentype face is not safe for concurrent use, so each call has its
// own).
type faces struct {
	fonts   [2]*sfnt.Font
	hinting font.Hinting
	cache   map[faceKey]font.Face
}

type faceKey struct {
	size float64
	bold bool
}

func newFaces(hinting font.Hinting) (*faces, error) {
	f, err := fonts()
	if err != nil {
		return nil, err
	}
	return &faces{fonts: f, hinting: hinting, cache: map[faceKey]font.Face{}}, nil
}

func (f *faces) face(size float64, bold bool) (font.Face, error) {
	k := faceKey{size, bold}
	if face, ok := f.cache[k]; ok {
		return face, nil
	}
	i := 0
	if bold {
		i = 1
	}
	face, err := opentype.NewFace(f.fonts[i], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: f.hinting})
	if err != nil {
		return nil, fmt.Errorf("draw: a %.1f px face: %w", size, err)
	}
	f.cache[k] = face
	return face, nil
}

// width is the advance of s in pixels.
func (f *faces) width(s string, size float64, bold bool) float64 {
	face, err := f.face(size, bold)
	if err != nil {
		return float64(len(s)) * size * 0.6
	}
	return fix(font.MeasureString(face, s))
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }

func (f *faces) close() {
	for _, face := range f.cache {
		_ = face.Close()
	}
}

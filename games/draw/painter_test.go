package draw

import (
	"testing"

	"golang.org/x/image/math/fixed"
)

// A Painter's glyph masks stay within maxGlyphBytes however many glyphs its
// pictures draw, the one added last is kept, and a mask added twice (two
// pictures rasterising it at once) is kept once, the first.
func TestGlyphCacheIsBounded(t *testing.T) {
	var c glyphCache
	const maskBytes = 1 << 10
	n := 3 * maxGlyphBytes / maskBytes
	for i := range n {
		key := glyphKey{face: faceKey{size: 12}, r: rune(i), fx: fixed.Int26_6(i % glyphSteps)}
		g := &glyph{ok: true, mask: make([]byte, maskBytes)}
		if kept := c.add(key, g); kept != g {
			t.Fatalf("glyph %d: add kept another mask", i)
		}
		if c.nbytes > maxGlyphBytes {
			t.Fatalf("after %d glyphs, %d bytes kept: more than %d", i+1, c.nbytes, maxGlyphBytes)
		}
		if c.get(key) != g {
			t.Fatalf("glyph %d: not kept", i)
		}
		if again := c.add(key, &glyph{}); again != g {
			t.Fatalf("glyph %d added again: the second mask kept", i)
		}
	}
	if len(c.masks) == n {
		t.Errorf("all %d masks kept (%d bytes)", n, n*maskBytes)
	}
}

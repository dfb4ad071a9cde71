package draw_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zlib"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/draw"
)

var update = flag.Bool("update", false, "rewrite the golden drawings in testdata")

// midGame plays a game of id by random legal moves from a fixed seed, moves
// moves in (fewer if it ends), and returns the board of seat's view.
func midGame(tb testing.TB, id string, moves int, seat games.Seat) (games.Board, games.Words) {
	tb.Helper()
	eng, err := catalog.Registry().Get(id)
	if err != nil {
		tb.Fatal(err)
	}
	players := []string{"Ana", "Bob", "Cléo", "Dan", "Eve", "Fay"}[:max(eng.Info().MinSeats, min(4, eng.Info().MaxSeats))]
	var seed games.Seed
	seed[0] = 7
	evs, err := eng.Setup(nil, players, seed.Rand(0))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := games.Fold(eng, eng.Info().Rules, evs)
	if err != nil {
		tb.Fatal(err)
	}
	pick := seed.Rand(1 << 40)
	for step := range moves {
		pending := eng.Pending(s)
		if len(pending) == 0 {
			break
		}
		p := pending[pick.IntN(len(pending))]
		legal := eng.Legal(s, p.Seat)
		out, err := eng.Decide(s, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(step+1))
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range out {
			if s, err = eng.Evolve(s, e); err != nil {
				tb.Fatal(err)
			}
		}
	}
	view, err := eng.View(s, seat)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := eng.Board(view)
	if err != nil {
		tb.Fatal(err)
	}
	return b, eng.Words().In(games.English)
}

// Each game's board at mid-game, from seat 0's view, draws to the SVG in
// testdata (go test -update rewrites them after a deliberate change), a
// well-formed SVG naming every player and printing every card the viewer
// sees; its PNG decodes at the drawing's size times the scale, so both are
// painted from the one layout.
func TestGolden(t *testing.T) {
	for _, id := range catalog.Registry().IDs() {
		t.Run(id, func(t *testing.T) {
			b, words := midGame(t, id, 14, 0)
			for _, width := range []int{draw.DefaultWidth, 360} {
				d, err := draw.Draw(b, words, draw.Options{Width: width})
				if err != nil {
					t.Fatal(err)
				}
				svg := d.SVG(draw.SVG{Label: "the table"})
				golden := filepath.Join("testdata", id+"-"+itoa(width)+".svg")
				if *update {
					if err := os.WriteFile(golden, svg, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden) //nolint:gosec // G304: a file of testdata
				if err != nil {
					t.Fatalf("%v (go test -update writes it)", err)
				}
				if !bytes.Equal(svg, want) {
					t.Errorf("%s differs from the drawing (go test -update rewrites it after a deliberate change)", golden)
				}
				words := svgWords(t, svg)
				for _, name := range b.Players {
					if !strings.Contains(words, name) {
						t.Errorf("width %d: the drawing does not name %s", width, name)
					}
				}
				for _, c := range cards(b) {
					short := c.Short
					if short.IsZero() {
						short = c.Name
					}
					if c.Face == games.Down && c.Name.IsZero() {
						continue
					}
					if s := words2(t, words, short, wordsOf(id)); s != "" {
						t.Errorf("width %d: the card %q is not printed", width, s)
					}
				}
				for _, scale := range []float64{1, 2} {
					data, err := d.PNG(scale)
					if err != nil {
						t.Fatal(err)
					}
					img, err := png.Decode(bytes.NewReader(data))
					if err != nil {
						t.Fatal(err)
					}
					if got := img.Bounds().Size(); got.X != int(float64(d.Width)*scale) || got.Y != int(float64(d.Height)*scale) {
						t.Errorf("width %d: the PNG at scale %v is %v, the drawing %dx%d", width, scale, got, d.Width, d.Height)
					}
				}
			}
		})
	}
}

// Each game's PNG 30 moves in, from seat 1, wide and narrow, at scales 1,
// the mail's and 2, is the drawing: it is the drawing's size times the
// scale; inside every filled shape that nothing later covers it is exactly
// the shape's colour (the first shape being the background); every text
// nothing covers puts down its ink; and it differs from the reference
// painter (golang.org/x/image's vector rasteriser and font.Drawer, the
// PNG's first painter) only along anti-aliased edges. The probes are
// checked on the reference too, so they say what the drawing holds.
func TestPNGPaintsTheDrawing(t *testing.T) {
	for _, id := range catalog.Registry().IDs() {
		t.Run(id, func(t *testing.T) {
			b, words := midGame(t, id, 30, 1)
			for _, width := range []int{draw.DefaultWidth, 360} {
				d, err := draw.Draw(b, words, draw.Options{Width: width})
				if err != nil {
					t.Fatal(err)
				}
				for _, scale := range []float64{1, draw.MailScale, 2} {
					data, err := d.PNG(scale)
					if err != nil {
						t.Fatal(err)
					}
					img, err := png.Decode(bytes.NewReader(data))
					if err != nil {
						t.Fatal(err)
					}
					if _, ok := img.(*image.Paletted); !ok {
						t.Errorf("width %d scale %v: the PNG is a %T, not paletted", width, scale, img)
					}
					wantW, wantH := int(math.Ceil(float64(d.Width)*scale)), int(math.Ceil(float64(d.Height)*scale))
					if got := img.Bounds(); got != image.Rect(0, 0, wantW, wantH) {
						t.Fatalf("width %d: the PNG at scale %v is %v, want %dx%d", width, scale, got, wantW, wantH)
					}
					ref, err := d.ReferenceImage(scale)
					if err != nil {
						t.Fatal(err)
					}
					probes := d.Probes(scale)
					if len(probes) < 10 {
						t.Fatalf("width %d scale %v: only %d probes", width, scale, len(probes))
					}
					for _, p := range probes {
						for _, pic := range []struct {
							name string
							img  image.Image
						}{{"PNG", img}, {"reference", ref}} {
							if msg := probe(pic.img, p); msg != "" {
								t.Errorf("width %d scale %v: the %s's %s: %s", width, scale, pic.name, p.What, msg)
							}
						}
					}
					far, total := 0, 0
					for y := range wantH {
						for x := range wantW {
							d := distance(img.At(x, y), ref.At(x, y))
							total += d
							if d > 48 {
								far++
							}
						}
					}
					n := wantW * wantH
					t.Logf("width %d scale %v: %d probes; %d bytes; %.3f%% of pixels off by more than 48; mean difference %.3f", width, scale, len(probes), len(data), 100*float64(far)/float64(n), float64(total)/float64(n))
					// Anti-aliasing differs a little (16 levels of coverage,
					// glyphs placed to a quarter pixel): a pixel in 250 is
					// far off, 1.5 in 255 on average, where a shape a pixel
					// out or a missing stroke is some times more.
					if far*1000 > n*4 {
						t.Errorf("width %d scale %v: %d of %d pixels differ from the reference by more than 48", width, scale, far, n)
					}
					if total*2 > n*3 {
						t.Errorf("width %d scale %v: the pixels differ from the reference by %.2f on average", width, scale, float64(total)/float64(n))
					}
				}
			}
		})
	}
}

// One Painter painting every game's pictures (boards of both seats, both
// widths, three scales) from several goroutines at once paints each one's
// bytes exactly as a painter of its own does: what a picture leaves for the
// next (compressor, buffers, palette tables, faces, glyph masks) changes
// nothing, and nothing is shared unguarded (run it with -race).
func TestPainterSharedPaintsAsOneOff(t *testing.T) {
	type picture struct {
		name  string
		d     *draw.Drawing
		scale float64
		want  []byte
	}
	var pictures []picture
	for _, id := range catalog.Registry().IDs() {
		for _, seat := range []games.Seat{0, 1} {
			b, words := midGame(t, id, 20, seat)
			for _, width := range []int{draw.DefaultWidth, 360} {
				d, err := draw.Draw(b, words, draw.Options{Width: width})
				if err != nil {
					t.Fatal(err)
				}
				for _, scale := range []float64{1, draw.MailScale, 2} {
					want, err := d.PNG(scale)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("%s seat %d %s scale %v", id, seat, itoa(width), scale)
					pictures = append(pictures, picture{name, d, scale, want})
				}
			}
		}
	}
	painter := draw.NewPainter()
	const workers, rounds = 4, 2
	errs := make(chan error, workers*rounds*len(pictures))
	var wg sync.WaitGroup
	for w := range uint64(workers) {
		wg.Go(func() {
			// Each worker its own order, so that pictures meet others'
			// leftovers and glyph masks.
			for r := range uint64(rounds) {
				for _, i := range rand.New(rand.NewPCG(w, r)).Perm(len(pictures)) {
					pic := pictures[i]
					got, err := painter.PNG(pic.d, pic.scale)
					switch {
					case err != nil:
						errs <- fmt.Errorf("%s: %w", pic.name, err)
					case !bytes.Equal(got, pic.want):
						errs <- fmt.Errorf("%s: %d bytes shared, %d one-off, not the same", pic.name, len(got), len(pic.want))
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// probe returns what is wrong with img at p, or "".
func probe(img image.Image, p draw.Probe) string {
	if !p.Text {
		if d := distance(img.At(p.At.X, p.At.Y), p.Colour); d != 0 {
			return fmt.Sprintf("%v is %v, not %v", p.At, img.At(p.At.X, p.At.Y), p.Colour)
		}
		return ""
	}
	best := 1 << 30
	for y := p.Box.Min.Y; y < p.Box.Max.Y; y++ {
		for x := p.Box.Min.X; x < p.Box.Max.X; x++ {
			best = min(best, distance(img.At(x, y), p.Colour))
		}
	}
	if best > 64 {
		return fmt.Sprintf("no pixel of %v is near %v (at best %d off)", p.Box, p.Colour, best)
	}
	return ""
}

// distance is the largest difference of a channel of a and b, 0-255.
func distance(a, b color.Color) int {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) int { return abs(int(x>>8) - int(y>>8)) }
	return max(d(ar, br), d(ag, bg), d(ab, bb))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// wordsOf is the catalog of game id.
func wordsOf(id string) games.Words {
	eng, _ := catalog.Registry().Get(id)
	return eng.Words().In(games.English)
}

// words2 returns the words of t when words does not hold them, else "".
func words2(t *testing.T, words string, text games.Text, cat games.Words) string {
	t.Helper()
	s := cat.Must(text)
	if strings.Contains(words, s) {
		return ""
	}
	return s
}

// cards lists every card of b.
func cards(b games.Board) []games.Card {
	var out []games.Card
	for _, s := range b.Sections {
		for _, p := range s.Piles {
			out = append(out, p.Cards...)
		}
		for _, a := range s.Areas {
			for _, p := range a.Piles {
				out = append(out, p.Cards...)
			}
		}
	}
	return out
}

// svgWords parses svg as XML (failing the test when it is not) and returns
// its texts' words, one text a line.
func svgWords(t *testing.T, svg []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		if c, ok := tok.(xml.CharData); ok {
			out.Write(c)
			out.WriteByte(' ')
		}
	}
	return out.String()
}

func itoa(n int) string {
	if n == draw.DefaultWidth {
		return "wide"
	}
	return "narrow"
}

// A mail's picture: laying out a mid-game board and painting its PNG at
// the mail's scale with a Painter used for every picture, as the mail
// service does, per game; png-bytes is the PNG's size. Every prompt mail
// carries one, so it must keep pace with the moves (issue 34): a few
// milliseconds and well under 2 MB allocated a picture.
func BenchmarkPNG(b *testing.B) {
	painter := draw.NewPainter()
	for _, id := range catalog.Registry().IDs() {
		b.Run(id, func(b *testing.B) {
			board, words := midGame(b, id, 14, 0)
			warmUp(b, painter, board, words)
			size := 0
			b.ReportAllocs()
			for b.Loop() {
				d, err := draw.Draw(board, words, draw.Options{})
				if err != nil {
					b.Fatal(err)
				}
				data, err := painter.PNG(d, draw.MailScale)
				if err != nil {
					b.Fatal(err)
				}
				size = len(data)
			}
			b.ReportMetric(float64(size), "png-bytes")
		})
	}
}

// A picture now and then: as BenchmarkPNG, but each with a painter of its
// own ([draw.Drawing.PNG]), its compressor and glyph masks made anew.
func BenchmarkPNGOneOff(b *testing.B) {
	for _, id := range catalog.Registry().IDs() {
		b.Run(id, func(b *testing.B) {
			board, words := midGame(b, id, 14, 0)
			d, err := draw.Draw(board, words, draw.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.PNG(draw.MailScale); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The compressor's levels compared: painting a mid-game board's PNG (laid
// out once) with a Painter reused at each of klauspost/compress's fast
// levels and Huffman coding alone, per game; png-bytes is the PNG's size.
func BenchmarkPNGLevel(b *testing.B) {
	levels := []struct {
		name  string
		level int
	}{{"1", 1}, {"2", 2}, {"3", 3}, {"huffman", zlib.HuffmanOnly}}
	for _, id := range catalog.Registry().IDs() {
		board, words := midGame(b, id, 14, 0)
		d, err := draw.Draw(board, words, draw.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range levels {
			b.Run(id+"/level="+l.name, func(b *testing.B) {
				painter := draw.NewPainterAtLevel(l.level)
				warmUp(b, painter, board, words)
				size := 0
				b.ReportAllocs()
				for b.Loop() {
					data, err := painter.PNG(d, draw.MailScale)
					if err != nil {
						b.Fatal(err)
					}
					size = len(data)
				}
				b.ReportMetric(float64(size), "png-bytes")
			})
		}
	}
}

// warmUp paints board once with painter, so that a benchmark measures what
// the next pictures cost.
func warmUp(b *testing.B, painter *draw.Painter, board games.Board, words games.Words) {
	b.Helper()
	d, err := draw.Draw(board, words, draw.Options{})
	if err == nil {
		_, err = painter.PNG(d, draw.MailScale)
	}
	if err != nil {
		b.Fatal(err)
	}
}

// A page's picture: laying out a mid-game board and writing its SVG, per
// game (the web does it twice a page, wide and narrow).
func BenchmarkSVG(b *testing.B) {
	for _, id := range catalog.Registry().IDs() {
		b.Run(id, func(b *testing.B) {
			board, words := midGame(b, id, 14, 0)
			b.ReportAllocs()
			for b.Loop() {
				d, err := draw.Draw(board, words, draw.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if len(d.SVG(draw.SVG{})) == 0 {
					b.Fatal("no SVG")
				}
			}
		})
	}
}

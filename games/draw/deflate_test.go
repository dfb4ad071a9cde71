package draw

import (
	"bytes"
	"compress/zlib"
	"io"
	"math/rand/v2"
	"testing"
)

// The rows' zlib stream inflates (checksum and all, by compress/zlib) to
// the rows written: rows of runs of every length around deflate's copy
// lengths (3, 258, 259-261, 516), repeats of the row above whole and in
// part, noise, and rows too long for a copy from the row above.
func TestRowDeflaterInflates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomByte := func(below uint) byte {
		return byte(rng.UintN(below)) //nolint:gosec // G115: below 256
	}
	row := func(n int, kind int, prev []byte) []byte {
		r := make([]byte, n)
		switch kind {
		case 0: // one colour
			fillBytes(r, randomByte(256))
		case 1: // noise
			for i := range r {
				r[i] = randomByte(256)
			}
		case 2: // runs of random lengths
			for i := 0; i < n; {
				l := min(n-i, []int{1, 2, 3, 4, 257, 258, 259, 260, 261, 516, rng.IntN(40)}[rng.IntN(11)])
				fillBytes(r[i:i+l], randomByte(4))
				i += max(l, 1)
			}
		case 3: // the row above, a few bytes changed
			copy(r, prev)
			for range 1 + rng.IntN(5) {
				r[rng.IntN(n)] = randomByte(256) //nolint:gosec // G115: below 256
			}
		default: // the row above
			copy(r, prev)
		}
		r[0] = 0 // the filter byte
		return r
	}
	for _, n := range []int{1, 2, 3, 9, 259, 901, 2000, maxDistance + 1} {
		var want []byte
		z := newRowDeflater(nil, n)
		prev := make([]byte, n)
		for range 60 {
			r := row(n, rng.IntN(5), prev)
			z.row(r)
			want = append(want, r...)
			prev = r
		}
		zr, err := zlib.NewReader(bytes.NewReader(z.close()))
		if err != nil {
			t.Fatalf("rows of %d: %v", n, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("rows of %d: %v", n, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("rows of %d: inflated to %d bytes unlike the %d written", n, len(got), len(want))
		}
	}
}

// A block's Huffman codes are complete prefix codes within deflate's
// limits even for frequencies that would make a deeper tree (Fibonacci
// numbers: a tree as deep as the symbols are many).
func TestHuffmanCodesWithinTheLimit(t *testing.T) {
	for _, limit := range []int{7, 15} {
		freq := make([]uint32, 30)
		a, b := uint32(1), uint32(1)
		for i := range freq {
			freq[i] = a
			a, b = b, a+b
		}
		lens, codes := make([]uint8, len(freq)), make([]uint16, len(freq))
		var h huffman
		h.build(freq, lens, codes, limit)
		kraft := 0.0
		for s, l := range lens {
			if l == 0 || int(l) > limit {
				t.Fatalf("limit %d: symbol %d has a code of %d bits", limit, s, l)
			}
			kraft += 1 / float64(uint(1)<<l)
		}
		if kraft != 1 {
			t.Errorf("limit %d: the code is not complete (Kraft sum %v)", limit, kraft)
		}
		seen := map[[2]uint16]bool{}
		for s, l := range lens {
			k := [2]uint16{codes[s], uint16(l)}
			if seen[k] {
				t.Errorf("limit %d: two symbols share the code %b", limit, codes[s])
			}
			seen[k] = true
		}
	}
}

package draw

import (
	"encoding/binary"
	"math/bits"
)

// rowDeflater writes a PNG's rows as a zlib stream (RFC 1950, 1951) made
// for drawings, in a fraction of compress/flate's time and memory: a
// drawing's rows are mostly runs of one colour or repeats of the row above,
// so each stretch of a row is coded as the longest of a copy of the row
// above, a repeat of the byte before, or else a literal byte, in one block
// of deflate's fixed Huffman codes. Each row holds its filter byte, and
// the rows all have one length.
type rowDeflater struct {
	out   []byte
	bits  uint64 // bits not yet in out, the first in the lowest
	nbits uint
	// The Adler-32 checksum so far, and of the row before alone: its sum
	// and the sum of its bytes each weighted by how many bytes from it to
	// the end of the row.
	s1, s2         uint64
	prevS1, prevS2 uint64
	prev           []byte // the row before, once there is one
	// The distance code and its extra bits of a copy from the row above.
	rowCode, rowExtra, rowExtraBits uint
	// The fixed Huffman codes of the literal and length symbols, their
	// bits reversed as deflate writes them, and lengths.
	codes   [288]uint16
	lengths [288]uint8
}

// maxDistance is the farthest back deflate copies from.
const maxDistance = 32768

// adlerMod is Adler-32's modulus.
const adlerMod = 65521

func newRowDeflater(out []byte, rowLen int) *rowDeflater {
	z := &rowDeflater{out: out, s1: 1}
	if rowLen <= maxDistance {
		z.prev = make([]byte, 0, rowLen)
		z.rowCode, z.rowExtra, z.rowExtraBits = distanceCode(rowLen)
	}
	for v := range uint(288) {
		var c, n uint
		switch {
		case v < 144:
			c, n = 0x30+v, 8
		case v < 256:
			c, n = 0x190+v-144, 9
		case v < 280:
			c, n = v-256, 7
		default:
			c, n = 0xc0+v-280, 8
		}
		z.codes[v] = bits.Reverse16(uint16(c)) >> (16 - n) //nolint:gosec // G115: codes of at most 9 bits
		z.lengths[v] = uint8(n)                            //nolint:gosec // G115: at most 9
	}
	// zlib's header: deflate with a 32 KB window, no dictionary, the
	// fastest level; then the final block's header, fixed codes.
	z.out = append(z.out, 0x78, 0x01)
	z.put(1|1<<1, 3)
	return z
}

// row writes a row.
func (z *rowDeflater) row(cur []byte) {
	n := len(cur)
	above := z.prev != nil && len(z.prev) == n
	if above && n >= 3 && commonPrefix(cur, z.prev) == n {
		// The row again: its checksum's sums are the row before's.
		z.checksum(z.prevS1, z.prevS2, n)
		z.copies(n, n)
		return
	}
	// The row's sums: the row before's and the differences where it is
	// not copied from the row before, or, with no row before, its own.
	var s1, s2 int64
	if !above {
		for i, b := range cur {
			s1 += int64(b)
			s2 += int64(n-i) * int64(b)
		}
	}
	var before byte // the byte before cur[i], when there is one
	hasBefore := above
	if above {
		before = z.prev[n-1]
	}
	for i := 0; i < n; {
		c := cur[i]
		best, dist := 0, 0
		if above && i+3 <= n && c == z.prev[i] && cur[i+1] == z.prev[i+1] && cur[i+2] == z.prev[i+2] {
			best, dist = 3+commonPrefix(cur[i+3:], z.prev[i+3:]), n
		}
		if hasBefore && i+3 <= n && c == before && cur[i+1] == before && cur[i+2] == before {
			if l := 3 + runOf(cur[i+3:], before); l > best {
				best, dist = l, 1
			}
		}
		if best == 0 {
			z.literal(uint(c))
			if above {
				d := int64(c) - int64(z.prev[i])
				s1 += d
				s2 += int64(n-i) * d
			}
			before, hasBefore = c, true
			i++
			continue
		}
		z.copies(best, dist)
		if above && dist == 1 {
			for j := i; j < i+best; j++ {
				d := int64(before) - int64(z.prev[j])
				s1 += d
				s2 += int64(n-j) * d
			}
		}
		i += best
		before = cur[i-1]
	}
	if above {
		s1 += int64(z.prevS1) //nolint:gosec // G115: sums of a row's bytes
		s2 += int64(z.prevS2) //nolint:gosec // G115: as above
	}
	z.checksum(uint64(s1), uint64(s2), n)       //nolint:gosec // G115: sums of bytes, not negative
	z.prevS1, z.prevS2 = uint64(s1), uint64(s2) //nolint:gosec // G115: as above
	if z.prev != nil {
		z.prev = append(z.prev[:0], cur...)
	}
}

// checksum adds to the Adler-32 checksum n bytes of sum s1 and weighted
// sum s2.
func (z *rowDeflater) checksum(s1, s2 uint64, n int) {
	z.s2 = (z.s2 + uint64(n)*z.s1 + s2) % adlerMod //nolint:gosec // G115: n > 0
	z.s1 = (z.s1 + s1) % adlerMod
}

// close ends the block and the stream, and returns it.
func (z *rowDeflater) close() []byte {
	z.literal(256) // end of block
	for z.nbits > 0 {
		z.out = append(z.out, byte(z.bits))
		z.bits >>= 8
		z.nbits = max(8, z.nbits) - 8
	}
	return binary.BigEndian.AppendUint32(z.out, uint32(z.s2<<16|z.s1)) //nolint:gosec // G115: two sums below 65521
}

// put writes the n lowest bits of v.
func (z *rowDeflater) put(v uint64, n uint) {
	z.bits |= v << z.nbits
	z.nbits += n
	if z.nbits >= 32 {
		z.out = binary.LittleEndian.AppendUint32(z.out, uint32(z.bits)) //nolint:gosec // G115: the low 32 bits
		z.bits >>= 32
		z.nbits -= 32
	}
}

// code writes a Huffman code of n bits, its first bit the highest.
func (z *rowDeflater) code(c, n uint) {
	z.put(uint64(bits.Reverse16(uint16(c))>>(16-n)), n) //nolint:gosec // G115: codes of at most 9 bits
}

// literal writes a literal or length symbol (0-287) in the fixed codes.
func (z *rowDeflater) literal(v uint) {
	z.put(uint64(z.codes[v]), uint(z.lengths[v]))
}

// copies writes copies of n bytes from dist back, in lengths deflate has
// (3 to 258).
func (z *rowDeflater) copies(n, dist int) {
	for n > 0 {
		l := min(n, 258)
		if r := n - l; r > 0 && r < 3 {
			l = n - 3
		}
		n -= l
		sym, extra, extraBits := lengthCode(l)
		z.literal(sym)
		z.put(uint64(extra), extraBits)
		if dist == 1 {
			z.code(0, 5)
			continue
		}
		z.code(z.rowCode, 5)
		z.put(uint64(z.rowExtra), z.rowExtraBits)
	}
}

// lengthCode returns the symbol of a copy's length l (3-258) and its extra
// bits.
func lengthCode(l int) (sym, extra, extraBits uint) {
	if l == 258 {
		return 285, 0, 0
	}
	if l < 11 {
		return uint(257 + l - 3), 0, 0 //nolint:gosec // G115: 3 <= l < 11
	}
	// From 11 on, each group of four symbols doubles the span of lengths.
	v := uint(l - 3)                  //nolint:gosec // G115: l >= 11
	extraBits = uint(bits.Len(v)) - 3 // 8-15: 1 bit, 16-31: 2, ...
	group := v >> extraBits           // 4-7
	sym = 265 + 4*(extraBits-1) + group - 4
	return sym, v & (1<<extraBits - 1), extraBits
}

// distanceCode returns the code of a copy's distance d (1-32768) and its
// extra bits.
func distanceCode(d int) (code, extra, extraBits uint) {
	if d <= 4 {
		return uint(d - 1), 0, 0 //nolint:gosec // G115: 1 <= d <= 4
	}
	v := uint(d - 1)                  //nolint:gosec // G115: d > 4
	extraBits = uint(bits.Len(v)) - 2 // 4-7: 1 bit, 8-15: 2, ...
	half := v >> extraBits            // 2 or 3
	code = 2*extraBits + half
	return code, v & (1<<extraBits - 1), extraBits
}

// commonPrefix is how many bytes a and b begin with alike.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// runOf is how many bytes a begins with that are v.
func runOf(a []byte, v byte) int {
	vv := uint64(v) * 0x0101010101010101
	i := 0
	for ; i+8 <= len(a); i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ vv; x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < len(a) && a[i] == v; i++ {
	}
	return i
}

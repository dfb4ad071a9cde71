package draw

import (
	"bytes"
	"encoding/binary"
	"hash"
	"hash/adler32"
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
	out   *bytes.Buffer
	bits  uint64 // bits not yet written, the first in the lowest
	nbits uint
	sum   hash.Hash32
	prev  []byte // the row before, once there is one
	// The distance code and its extra bits of a copy from the row above.
	rowCode, rowExtra, rowExtraBits uint
}

// maxDistance is the farthest back deflate copies from.
const maxDistance = 32768

func newRowDeflater(out *bytes.Buffer, rowLen int) *rowDeflater {
	z := &rowDeflater{out: out, sum: adler32.New()}
	if rowLen <= maxDistance {
		z.prev = make([]byte, 0, rowLen)
		z.rowCode, z.rowExtra, z.rowExtraBits = distanceCode(rowLen)
	}
	// zlib's header: deflate with a 32 KB window, no dictionary, the
	// fastest level; then the final block's header, fixed codes.
	out.WriteString("\x78\x01")
	z.put(1|1<<1, 3)
	return z
}

// row writes a row.
func (z *rowDeflater) row(cur []byte) {
	_, _ = z.sum.Write(cur) // a hash does not fail
	above := z.prev != nil && len(z.prev) == len(cur)
	for i := 0; i < len(cur); {
		n, dist := 0, 0
		if above {
			if l := commonPrefix(cur[i:], z.prev[i:]); l >= 3 {
				n, dist = l, len(cur)
			}
		}
		switch {
		case i > 0:
			if l := runOf(cur[i:], cur[i-1]); l > n {
				n, dist = l, 1
			}
		case above:
			if l := runOf(cur, z.prev[len(z.prev)-1]); l > n {
				n, dist = l, 1
			}
		}
		if n < 3 {
			z.literal(uint(cur[i]))
			i++
			continue
		}
		z.copies(n, dist)
		i += n
	}
	if z.prev != nil {
		z.prev = append(z.prev[:0], cur...)
	}
}

// close ends the block and the stream.
func (z *rowDeflater) close() {
	z.put(0, 7) // end of block: code 256, seven zero bits
	for z.nbits > 0 {
		z.out.WriteByte(byte(z.bits))
		z.bits >>= 8
		z.nbits = max(8, z.nbits) - 8
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], z.sum.Sum32())
	z.out.Write(sum[:])
}

// put writes the n lowest bits of v.
func (z *rowDeflater) put(v uint64, n uint) {
	z.bits |= v << z.nbits
	z.nbits += n
	if z.nbits >= 32 {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], uint32(z.bits)) //nolint:gosec // G115: the low 32 bits
		z.out.Write(b[:])
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
	switch {
	case v < 144:
		z.code(0x30+v, 8)
	case v < 256:
		z.code(0x190+v-144, 9)
	case v < 280:
		z.code(v-256, 7)
	default:
		z.code(0xc0+v-280, 8)
	}
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

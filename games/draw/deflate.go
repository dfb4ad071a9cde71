package draw

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// rowDeflater writes a PNG's rows as a zlib stream (RFC 1950, 1951) made
// for drawings, in a fraction of compress/flate's time and memory: a
// drawing's rows are mostly runs of one colour or repeats of the row above,
// so each stretch of a row is coded as the longest of a copy of the row
// above, a repeat of the byte before, or else a literal byte; every
// blockTokens or so, the block's codes are written in Huffman codes made
// for it. Each row holds its filter byte, and the rows all have one length.
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
	// The block's tokens so far: a literal byte, or a copy: its length's
	// symbol (257-285), its extra bits << 9 and their count << 14, and
	// rowToken for a copy from the row above (else from the byte before).
	tokens []uint32
	huff   huffman
}

// rowToken marks a copy from the row above.
const rowToken = 1 << 31

// blockTokens is about how many tokens a block holds: enough that its
// codes' description is paid back, few enough that they follow the picture.
const blockTokens = 4 << 10

// maxDistance is the farthest back deflate copies from.
const maxDistance = 32768

// adlerMod is Adler-32's modulus.
const adlerMod = 65521

func newRowDeflater(out []byte, rowLen int) *rowDeflater {
	z := &rowDeflater{out: out, s1: 1, tokens: make([]uint32, 0, blockTokens+rowLen+1)}
	if rowLen <= maxDistance {
		z.prev = make([]byte, 0, rowLen)
		z.rowCode, z.rowExtra, z.rowExtraBits = distanceCode(rowLen)
	}
	// zlib's header: deflate with a 32 KB window, no dictionary, the
	// fastest level.
	z.out = append(z.out, 0x78, 0x01)
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
	if len(z.tokens) >= blockTokens {
		z.block(false)
	}
}

// checksum adds to the Adler-32 checksum n bytes of sum s1 and weighted
// sum s2.
func (z *rowDeflater) checksum(s1, s2 uint64, n int) {
	z.s2 = (z.s2 + uint64(n)*z.s1 + s2) % adlerMod //nolint:gosec // G115: n > 0
	z.s1 = (z.s1 + s1) % adlerMod
}

// close ends the last block and the stream, and returns it.
func (z *rowDeflater) close() []byte {
	z.block(true)
	for z.nbits > 0 {
		z.out = append(z.out, byte(z.bits)) //nolint:gosec // G115: the low byte
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

// literal adds a literal byte to the block.
func (z *rowDeflater) literal(v uint) {
	z.tokens = append(z.tokens, uint32(v)) //nolint:gosec // G115: a byte
}

// copies adds copies of n bytes from dist back (1, or the row above) to
// the block, in lengths deflate has (3 to 258).
func (z *rowDeflater) copies(n, dist int) {
	row := uint32(0)
	if dist != 1 {
		row = rowToken
	}
	for n > 0 {
		l := min(n, 258)
		if r := n - l; r > 0 && r < 3 {
			l = n - 3
		}
		n -= l
		sym, extra, extraBits := lengthCode(l)
		z.tokens = append(z.tokens, row|uint32(sym|extra<<9|extraBits<<14)) //nolint:gosec // G115: 9, 5 and 3 bits
	}
}

// block writes the tokens so far as a block of deflate with Huffman codes
// made for them (RFC 1951, 3.2.7).
func (z *rowDeflater) block(final bool) {
	h := &z.huff
	clear(h.litFreq[:])
	clear(h.distFreq[:])
	for _, t := range z.tokens {
		h.litFreq[t&511]++
		if t&511 > 256 {
			if t&rowToken == 0 {
				h.distFreq[0]++
			} else {
				h.distFreq[z.rowCode]++
			}
		}
	}
	h.litFreq[256]++ // the end of the block
	// Two codes at least in each alphabet, for a complete code.
	for i := 0; countUsed(h.litFreq[:]) < 2; i++ {
		h.litFreq[i]++
	}
	for i := 0; countUsed(h.distFreq[:]) < 2; i++ {
		h.distFreq[i]++
	}
	h.build(h.litFreq[:], h.litLen[:], h.litCode[:], 15)
	h.build(h.distFreq[:], h.distLen[:], h.distCode[:], 15)
	nlit, ndist := used(h.litLen[:], 257), used(h.distLen[:], 1)

	// The two alphabets' code lengths, run-length coded with the code
	// length alphabet: 16 repeats the last 3-6 times, 17 zero 3-10 times,
	// 18 zero 11-138 times.
	lens := append(append(h.lens[:0], h.litLen[:nlit]...), h.distLen[:ndist]...)
	rl := h.rl[:0] // symbol | extra << 8
	for i := 0; i < len(lens); {
		v, n := lens[i], 1
		for i+n < len(lens) && lens[i+n] == v {
			n++
		}
		i += n
		if v == 0 {
			for n >= 11 {
				k := min(n, 138)
				rl = append(rl, 18|uint16(k-11)<<8) //nolint:gosec // G115: k <= 138
				n -= k
			}
			if n >= 3 {
				rl = append(rl, 17|uint16(n-3)<<8) //nolint:gosec // G115: n <= 10
				n = 0
			}
		} else {
			rl = append(rl, uint16(v))
			n--
			for n >= 3 {
				k := min(n, 6)
				rl = append(rl, 16|uint16(k-3)<<8) //nolint:gosec // G115: k <= 6
				n -= k
			}
		}
		for range n {
			rl = append(rl, uint16(v))
		}
	}
	h.rl = rl
	clear(h.clFreq[:])
	for _, c := range rl {
		h.clFreq[c&31]++
	}
	for i := 0; countUsed(h.clFreq[:]) < 2; i++ {
		h.clFreq[i]++
	}
	h.build(h.clFreq[:], h.clLen[:], h.clCode[:], 7)
	order := [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	ncl := 19
	for ncl > 4 && h.clLen[order[ncl-1]] == 0 {
		ncl--
	}

	last := uint64(0)
	if final {
		last = 1
	}
	z.put(last|2<<1, 3)        // the block's header: dynamic codes
	z.put(uint64(nlit-257), 5) //nolint:gosec // G115: 257 <= nlit <= 286
	z.put(uint64(ndist-1), 5)  //nolint:gosec // G115: 1 <= ndist <= 30
	z.put(uint64(ncl-4), 4)    //nolint:gosec // G115: 4 <= ncl <= 19
	for _, s := range order[:ncl] {
		z.put(uint64(h.clLen[s]), 3)
	}
	for _, c := range rl {
		s := c & 31
		z.put(uint64(h.clCode[s]), uint(h.clLen[s]))
		switch s {
		case 16:
			z.put(uint64(c>>8), 2)
		case 17:
			z.put(uint64(c>>8), 3)
		case 18:
			z.put(uint64(c>>8), 7)
		}
	}
	// A copy's codes, with their extra bits, each at once.
	byteBefore := uint64(h.distCode[0])
	byteBeforeBits := uint(h.distLen[0])
	rowAbove := uint64(h.distCode[z.rowCode]) | uint64(z.rowExtra)<<h.distLen[z.rowCode]
	rowAboveBits := uint(h.distLen[z.rowCode]) + z.rowExtraBits
	for _, t := range z.tokens {
		sym := t & 511
		if sym < 256 {
			z.put(uint64(h.litCode[sym]), uint(h.litLen[sym]))
			continue
		}
		n := uint(h.litLen[sym])
		z.put(uint64(h.litCode[sym])|uint64(t>>9&31)<<n, n+uint(t>>14&7))
		if t&rowToken == 0 {
			z.put(byteBefore, byteBeforeBits)
			continue
		}
		z.put(rowAbove, rowAboveBits)
	}
	z.put(uint64(h.litCode[256]), uint(h.litLen[256]))
	z.tokens = z.tokens[:0]
}

// countUsed is how many of freq are not zero.
func countUsed(freq []uint32) int {
	n := 0
	for _, f := range freq {
		if f != 0 {
			n++
		}
	}
	return n
}

// used is how many of lens to write: up to the last not zero, at least
// least.
func used(lens []uint8, least int) int {
	n := len(lens)
	for n > least && lens[n-1] == 0 {
		n--
	}
	return n
}

// huffman is the scratch of a block's codes.
type huffman struct {
	litFreq  [286]uint32
	litLen   [286]uint8
	litCode  [286]uint16
	distFreq [30]uint32
	distLen  [30]uint8
	distCode [30]uint16
	clFreq   [19]uint32
	clLen    [19]uint8
	clCode   [19]uint16
	lens     []uint8
	rl       []uint16
	// Building a code.
	nodes []huffNode
	order []uint64
	depth []uint8
}

// huffNode is a leaf (a symbol) or an inner node of a Huffman tree.
type huffNode struct {
	freq   uint64
	parent int
}

// build makes a canonical Huffman code for freq, of at most limit bits a
// code: lens and codes (bit-reversed, as deflate writes them) of each
// symbol, 0 for a symbol not used. Past the limit, the frequencies are
// flattened and the code made again.
func (h *huffman) build(freq []uint32, lens []uint8, codes []uint16, limit int) {
	shift := uint(0)
	for h.lengths(freq, lens, shift) > limit {
		shift++
	}
	var count [16]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for s, l := range lens {
		if l == 0 {
			codes[s] = 0
			continue
		}
		codes[s] = bits.Reverse16(next[l]) >> (16 - l)
		next[l]++
	}
}

// lengths sets lens to the depths of a Huffman tree of freq (each shifted
// right by shift, then at least 1 where not zero) and returns the deepest.
func (h *huffman) lengths(freq []uint32, lens []uint8, shift uint) int {
	nodes := h.nodes[:0]
	order := h.order[:0] // a leaf's frequency << 16 | its node
	for s, f := range freq {
		lens[s] = 0
		if f != 0 {
			f := max(1, uint64(f)>>shift)
			order = append(order, f<<16|uint64(len(nodes)))
			nodes = append(nodes, huffNode{freq: f, parent: -1})
		}
	}
	leaves := len(nodes)
	slices.Sort(order)
	// Two queues: the leaves by frequency, and the inner nodes as made
	// (their frequencies rise).
	li, ii := 0, leaves
	pick := func() int {
		if li < len(order) && (ii >= len(nodes) || order[li]>>16 <= nodes[ii].freq) {
			li++
			return int(order[li-1] & 0xffff)
		}
		ii++
		return ii - 1
	}
	for range leaves - 1 {
		a, b := pick(), pick()
		nodes = append(nodes, huffNode{freq: nodes[a].freq + nodes[b].freq, parent: -1})
		nodes[a].parent, nodes[b].parent = len(nodes)-1, len(nodes)-1
	}
	// Depths from the root down: a node's parent comes after it.
	depth := slices.Grow(h.depth[:0], len(nodes))[:len(nodes)]
	h.depth = depth
	depth[len(depth)-1] = 0
	deepest := 0
	for i := len(nodes) - 2; i >= 0; i-- {
		depth[i] = depth[nodes[i].parent] + 1
	}
	k := 0
	for s, f := range freq {
		if f != 0 {
			lens[s] = depth[k]
			deepest = max(deepest, int(depth[k]))
			k++
		}
	}
	h.nodes, h.order = nodes, order
	return deepest
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

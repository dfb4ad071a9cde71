package games

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	mrand "math/rand/v2"
)

// Seed is a game's secret: the key of every random draw. Its sha256 is
// published when the game is created; the seed itself at the end.
type Seed [32]byte

// NewSeed draws a fresh seed from the operating system.
func NewSeed() Seed {
	var s Seed
	_, _ = rand.Read(s[:]) // crypto/rand.Read never returns an error (Go 1.24+); it crashes the program instead
	return s
}

// Commitment is the hex sha256 of the seed, published in the creation event.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// String is the hex form of the seed (for the reveal at game end).
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// ParseSeed reads the hex form written by String.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(s) {
		return s, boardWords.Unparsable("refusal.seed")
	}
	copy(s[:], b)
	return s, nil
}

// ShuffleAlgorithm names the drawing algorithm of this file, recorded in
// every game's creation event: the generator of [Seed.Rand], the integers of
// [IntN] and the permutation of [Shuffle]. RANDOM.md in this directory
// specifies it and random_test.go pins it with golden vectors.
const ShuffleAlgorithm = "chacha8-lemire-fy/1"

// Rand returns the generator for the decision taken at stream version
// version (the version the stream had before the decision's events): the
// ChaCha8Rand generator (C2SP chacha8rand, as math/rand/v2 implements it)
// keyed by sha256(seed ‖ version as 8 big-endian bytes). Anyone holding the
// seed can recompute every draw. Engines draw from it only through [IntN] and
// [Shuffle], never through math/rand's own helpers, whose algorithms are not
// promised to stay the same.
func (s Seed) Rand(version int) *mrand.Rand {
	var buf [40]byte
	copy(buf[:32], s[:])
	binary.BigEndian.PutUint64(buf[32:], uint64(version)) //nolint:gosec // G115: a stream version is never negative
	return mrand.New(mrand.NewChaCha8(sha256.Sum256(buf[:])))
}

// IntN returns an integer in [0, n) drawn from r's 64-bit outputs by
// Lemire's nearly divisionless method (see RANDOM.md): a power of two takes
// the low bits of one output; otherwise x·n's high word is the draw, with
// outputs whose low word falls under 2⁶⁴ mod n rejected. It panics if n ≤ 0,
// as a programming error.
func IntN(r *mrand.Rand, n int) int {
	if n <= 0 {
		panic("games.IntN: n must be positive")
	}
	u := uint64(n)
	if u&(u-1) == 0 {
		return int(r.Uint64() & (u - 1)) //nolint:gosec // G115: the result is below n, an int
	}
	hi, lo := bits.Mul64(r.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), u)
		}
	}
	return int(hi) //nolint:gosec // G115: the result is below n, an int
}

// Shuffle returns a shuffled copy of items: Fisher–Yates from the last
// position down, swapping position i with IntN(r, i+1).
func Shuffle[T any](r *mrand.Rand, items []T) []T {
	out := append([]T(nil), items...)
	for i := len(out) - 1; i > 0; i-- {
		j := IntN(r, i+1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

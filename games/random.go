package games

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	mrand "math/rand/v2"
)

// Seed is a game's secret: the key of every random draw. Its sha256 is
// published when the game is created; the seed itself at the end.
type Seed [32]byte

// NewSeed draws a fresh seed from the operating system.
func NewSeed() Seed {
	var s Seed
	_, _ = rand.Read(s[:]) // crypto/rand.Read never fails on supported platforms
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
		return s, Unparsable("a seed is 64 hexadecimal digits")
	}
	copy(s[:], b)
	return s, nil
}

// Rand returns the generator for the decision taken at stream version
// version (the version the stream had before the decision's events): ChaCha8
// keyed by sha256(seed ‖ version as 8 big-endian bytes). Anyone holding the
// seed can recompute every draw.
func (s Seed) Rand(version int) *mrand.Rand {
	var buf [40]byte
	copy(buf[:32], s[:])
	binary.BigEndian.PutUint64(buf[32:], uint64(version))
	return mrand.New(mrand.NewChaCha8(sha256.Sum256(buf[:])))
}

// Shuffle returns a shuffled copy of items drawn from r.
func Shuffle[T any](r *mrand.Rand, items []T) []T {
	out := append([]T(nil), items...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

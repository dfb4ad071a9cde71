package games_test

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// goldenSeed is the seed of the golden vectors: bytes 0, 1, …, 31.
func goldenSeed() games.Seed {
	var s games.Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// TestShuffleGoldenVectors pins the drawing algorithm of RANDOM.md: a change
// to the generator, to IntN or to Shuffle changes these permutations, and a
// recorded game could no longer be re-run from its seed.
func TestShuffleGoldenVectors(t *testing.T) {
	tests := []struct {
		version int
		n       int
		want    []int
	}{
		{version: 0, n: 10, want: []int{2, 7, 0, 9, 8, 4, 3, 5, 1, 6}},
		{version: 1, n: 10, want: []int{8, 7, 2, 1, 9, 5, 3, 6, 4, 0}},
		{version: 7, n: 52, want: []int{30, 21, 15, 32, 9, 16, 28, 40, 36, 6, 3, 51, 1, 11, 45, 20, 38, 49, 17, 33, 7, 48, 43, 25, 29, 34, 12, 41, 26, 2, 23, 22, 10, 24, 50, 14, 19, 31, 0, 37, 4, 18, 39, 47, 42, 35, 44, 13, 5, 27, 8, 46}},
		{version: 1000, n: 5, want: []int{0, 4, 3, 2, 1}},
	}
	for _, tt := range tests {
		items := make([]int, tt.n)
		for i := range items {
			items[i] = i
		}
		got := games.Shuffle(goldenSeed().Rand(tt.version), items)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Shuffle(seed 00…1f, version %d, %d items) = %v, want %v", tt.version, tt.n, got, tt.want)
		}
	}
}

// TestIntNGoldenVectors pins IntN for bounds that take each branch: a power
// of two, a small bound, and one near 2⁶³ where rejection is likely.
func TestIntNGoldenVectors(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{n: 64, want: []int{36, 13, 54, 53, 60, 60, 46, 60}},
		{n: 6, want: []int{3, 3, 4, 0, 4, 5, 3, 4}},
		{n: 1<<62 + 12345, want: []int{3045101671061686000, 3302101572184703828, 178004234581488073, 3578704381465374442, 2875474806885611132, 2676795104147040363, 2108701415930210542, 1974069536835839699}},
	}
	for _, tt := range tests {
		r := goldenSeed().Rand(42)
		got := make([]int, 8)
		for i := range got {
			got[i] = games.IntN(r, tt.n)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("IntN(seed 00…1f at 42, %d) ×8 = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// TestIntNIsUniformEnough draws many small integers and checks every value
// comes up about equally often: a gross bias (a modulo slip) fails.
func TestIntNIsUniformEnough(t *testing.T) {
	r := goldenSeed().Rand(9)
	const n, draws = 7, 70000
	var counts [n]int
	for range draws {
		counts[games.IntN(r, n)]++
	}
	for v, c := range counts {
		if c < draws/n*9/10 || c > draws/n*11/10 {
			t.Errorf("value %d drawn %d times of %d, want about %d", v, c, draws, draws/n)
		}
	}
}

// TestSameDrawsAsGoToday checks that the pinned algorithm draws what
// math/rand/v2 drew when games were first recorded without an algorithm name,
// so those games re-run from their seed as well. Should a later Go change its
// helpers, this test is the one to delete: the golden vectors stay.
func TestSameDrawsAsGoToday(t *testing.T) {
	for version := range 50 {
		items := make([]int, 3+version)
		for i := range items {
			items[i] = i
		}
		want := slices.Clone(items)
		r := goldenSeed().Rand(version)
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		if got := games.Shuffle(goldenSeed().Rand(version), items); !slices.Equal(got, want) {
			t.Fatalf("version %d: Shuffle = %v, math/rand/v2 = %v", version, got, want)
		}
	}
}

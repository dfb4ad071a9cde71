package couillon

import (
	"testing"

	"github.com/courrier-games/courrier/games/gametest"
)

// The board told in words (games.Board.Tell) of every seat and of the
// spectator, at the start, the middle and the end of a game played from a
// fixed seed, is the text of testdata/board (go test -run Golden -update
// rewrites it).
func TestGoldenBoards(t *testing.T) {
	gametest.GoldenBoards(t, gametest.Golden{Engine: New(), Players: []string{"Ana", "Bob", "Cleo", "Dan"}, Seed: 1})
}

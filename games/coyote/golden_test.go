package coyote

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// The board told in words (games.Board.Tell) of every seat and of the
// spectator, at the start, the middle and the end of a game played from a
// fixed seed, is the text of testdata/board (go test -run Golden -update
// rewrites it). Players bid as people do, a little above the bid, and call
// Coyote once it is high; a second game has the variant tokens.
func TestGoldenBoards(t *testing.T) {
	for _, c := range []struct {
		dir  string
		opts games.Options
	}{
		{"", nil},
		{"variant", games.Options{OptVariantTokens: "on"}},
	} {
		t.Run("tokens "+c.dir, func(t *testing.T) {
			gametest.GoldenBoards(t, gametest.Golden{Engine: New(), Players: []string{"Ana", "Bob", "Cleo", "Dan"}, Options: c.opts,
				Seed: 1, Dir: c.dir, Pick: likeAPerson})
		})
	}
}

// likeAPerson bids 1 to 4 above the lowest bid, calls Coyote once the
// lowest bid is over 20 and flips a token now and then.
func likeAPerson(_ games.State, _ games.Pending, legal []string) string {
	low := -1
	for _, m := range legal {
		if n, ok := strings.CutPrefix(m, "bid "); ok {
			low, _ = strconv.Atoi(n)
			break
		}
	}
	switch {
	case low < 0 || low > 20 && slices.Contains(legal, "coyote"):
		return "coyote"
	case len(legal)%7 == 0 && !strings.HasPrefix(legal[0], "bid ") && legal[0] != "coyote":
		return legal[0]
	}
	return "bid " + strconv.Itoa(low+len(legal)%4)
}

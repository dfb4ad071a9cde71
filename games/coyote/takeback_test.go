package coyote

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// TestFixed walks random games and checks which events fix the game (no
// take-back reaches at or before them) against the house rule's table.
func TestFixed(t *testing.T) {
	seen := gametest.WalkFixed(t, New(), []string{"Ana", "Bob", "Cy"}, nil, 6, nil)
	gametest.CheckFixed(t, seen, map[string]bool{
		EvSetup: true, EvShuffle: true, EvDeal: true, EvBid: false, EvCall: true, EvTurn: true,
		EvCount: true, EvCoyote: true, EvRoundEnd: true, EvGameOver: true,
	})
	_ = games.Spectator
}

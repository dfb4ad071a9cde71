package couillon

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// TestFixed walks random games and checks which events fix the game (no
// take-back reaches at or before them) against the house rule's table.
func TestFixed(t *testing.T) {
	seen := gametest.WalkFixed(t, New(), []string{"Ana", "Bob", "Cy", "Dee"}, nil, 4, nil)
	gametest.CheckFixed(t, seen, map[string]bool{
		EvSeated: true, EvDealt: true, EvTurned: true, EvAccepted: false, EvPassed: false,
		EvTrump: false, EvPlayed: true, EvTrick: false, EvScored: false, EvOver: true,
	})
	_ = games.Spectator
}

package coup

import (
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// TestFixed walks random games and checks which events fix the game (no
// take-back reaches at or before them) against the house rule's table.
func TestFixed(t *testing.T) {
	seen := gametest.WalkFixed(t, New(), []string{"Ana", "Bob", "Cy"}, nil, 12, nil)
	gametest.CheckFixed(t, seen, map[string]bool{
		evSetup: true, evAutoAllow: false, evAction: false, evAllow: false, evChallenge: false, evBlock: false,
		evRevealed: true, evLost: true, evReplaced: true, evResolved: false, evExchDrawn: true,
		evExchanged: true, evEnded: true,
	})
	_ = games.Spectator
}

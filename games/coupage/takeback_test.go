package coupage

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/gametest"
)

// TestFixed walks random games and checks which events fix the game (no
// take-back reaches at or before them) against the house rule's table.
func TestFixed(t *testing.T) {
	key := func(e games.RawEvent) string {
		if e.Type == evDrew && strings.Contains(string(e.Data), `"n":`) {
			return "drew cards"
		}
		return e.Type
	}
	seen := gametest.WalkFixed(t, New(), []string{"Ana", "Bob", "Cy"}, nil, 6, key)
	gametest.CheckFixed(t, seen, map[string]bool{
		evSeated: true, evShuffled: true, "drew cards": true, evMarket: true,
		evTook: false, evMade: false, evAged: false, evBottled: false, evDiscarded: false,
		evTurnEnded: false, evTurnStarted: false, evGameOver: true, evPlayed: false, evStole: true,
		evSpoilMoved: false, evSpoilGone: false, evPicked: true, evTimeStolen: false, evRepaired: false,
		evAbility: false, evRevealed: true, evDeclined: false, evEvaporated: false, evSpoiled: false,
		evCleared: false,
	})
}

package coupage

import (
	"encoding/json"
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
		var ev Event
		if err := json.Unmarshal(e.Data, &ev); err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Type == evAged && ev.FaceDown && len(ev.Paid) == 0:
			return "aged face down"
		case e.Type == evBottled && len(ev.Paid) == 0:
			return "bottled paying nothing"
		case e.Type == evDiscarded && ev.Reason != "special" && ev.Reason != "harvest":
			return "discarded from the hand"
		}
		return e.Type
	}
	seen := gametest.WalkFixed(t, New(), []string{"Ana", "Bob", "Cy"}, nil, 6, key)
	gametest.CheckFixed(t, seen, map[string]bool{
		evSeated: true, evShuffled: true, "drew cards": true, evMarket: true,
		evTook: false, evMade: true, evAged: true, "aged face down": false, evBottled: true, "bottled paying nothing": false,
		evDiscarded: false, "discarded from the hand": true,
		evTurnEnded: false, evTurnStarted: false, evGameOver: true, evPlayed: true, evStole: true,
		evSpoilMoved: false, evSpoilGone: false, evPicked: true, evTimeStolen: false, evRepaired: true,
		evAbility: false, evRevealed: true, evDeclined: false, evEvaporated: false, evSpoiled: false,
		evCleared: false,
	})
}

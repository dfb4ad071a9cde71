// Package catalog lists every game courrier plays.
package catalog

import (
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/couillon"
	"github.com/courrier-games/courrier/games/coup"
	"github.com/courrier-games/courrier/games/coupage"
	"github.com/courrier-games/courrier/games/coyote"
	"github.com/courrier-games/courrier/games/kramercoup"
)

// Registry returns a registry of every game.
func Registry() *games.Registry {
	return games.NewRegistry(
		couillon.New(),
		coup.New(),
		coupage.New(),
		coyote.New(),
		kramercoup.New(),
	)
}

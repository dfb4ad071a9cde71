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

// RulesPage returns the rules page (Markdown) of game id in lang: the same
// games/<id>/RULES.<lang>.md (RULES.md for English) the repository holds,
// for the API's catalog and the web pages.
func RulesPage(id, lang string) (string, error) {
	switch id {
	case "couillon":
		return couillon.RulesPage(lang), nil
	case "coup":
		return coup.RulesPage(lang), nil
	case "coupage":
		return coupage.RulesPage(lang), nil
	case "coyote":
		return coyote.RulesPage(lang), nil
	case "kramercoup":
		return kramercoup.RulesPage(lang), nil
	}
	return "", games.BoardWords().Illegal("game", "refusal.no_game", id)
}

// Package catalog lists every game courrier plays.
package catalog

import (
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/couillon"
	"github.com/courrier-games/courrier/games/coup"
	"github.com/courrier-games/courrier/games/coupage"
	"github.com/courrier-games/courrier/games/coyote"
	"github.com/courrier-games/courrier/games/kramercoup"
	"net/url"
	"regexp"
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

// ruleID is a rule id of a rules page: a game's prefix, a number and an
// optional letter (CY-6, TC-25b). Other rule names of refusals
// ("notation", "options", "end") have no place on a page.
var ruleID = regexp.MustCompile(`^(?:TC|KC|CP|CO|CY)-[0-9]+[a-z]?$`)

// RulesPath is the path of game id's rules page in lang, at rule when rule
// is a rule id of the page ("/rules/coyote?lang=fr#CY-6"): every door links
// a game's rules, and a refusal its rule, through it.
func RulesPath(id, lang, rule string) string {
	u := "/rules/" + url.PathEscape(id) + "?lang=" + url.QueryEscape(lang)
	if ruleID.MatchString(rule) {
		u += "#" + rule
	}
	return u
}

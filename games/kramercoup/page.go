package kramercoup

import (
	"embed"

	"github.com/courrier-games/courrier/games"
)

// pages are the game's rules pages: RULES.md in English, RULES.<language>.md
// in each other language, with the same rule ids.
//
//go:embed RULES*.md
var pages embed.FS

// RulesPage returns this game's rules page (Markdown) in lang, as the API's
// catalog and the web pages serve it; English when there is none in lang.
func RulesPage(lang string) string { return games.RulesPage(pages, lang) }

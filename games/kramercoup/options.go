package kramercoup

import "github.com/courrier-games/courrier/games"

// options are the game's options (section 4 of the rules file) with their
// words.
func options() []games.OptionSpec {
	return []games.OptionSpec{{
		Name: OptExchangeOrder, Values: []string{DiscardFirst, DrawFirst},
		Default: DiscardFirst, Rules: "KC-11",
		Label: games.T("option.exchange_order"), Description: games.T("option.exchange_order.help"),
		ValueLabels: []games.Text{games.T("option.exchange_order.discard-first"), games.T("option.exchange_order.draw-first")},
	}}
}

// optionWords is the English of the game's options (the new-game form and
// the API's catalog show them).
var optionWords = games.Catalog{
	"option.exchange_order":               "Exchange",
	"option.exchange_order.help":          "Whether the tiles a player puts back can be drawn again in the same exchange.",
	"option.exchange_order.discard-first": "put back, then draw (they may come back)",
	"option.exchange_order.draw-first":    "draw, then put back",
}

// allWords is every word of the game: its boards' and its options'.
var allWords = games.Merge(words, optionWords)

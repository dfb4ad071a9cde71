package coyote

import "github.com/courrier-games/courrier/games"

// options are Coyote's options (rules section 4) with their words.
func options() []games.OptionSpec {
	return []games.OptionSpec{
		{Name: OptDeck, Values: deckNames(), Default: DeckFeathers30, Rules: "CY-2, CY-3",
			Label: games.T("option.deck"), Description: games.T("option.deck.help"),
			ValueLabels: []games.Text{games.T("option.deck.feathers-30"), games.T("option.deck.first-edition-36")}},
		{Name: OptElimination, Values: []string{"3", "4", "5"}, Default: "3", Rules: "CY-10",
			Label: games.T("option.elimination"), Description: games.T("option.elimination.help"),
			ValueLabels: []games.Text{games.T("option.tokens", 3), games.T("option.tokens", 4), games.T("option.tokens", 5)}},
		{Name: OptVariantTokens, Values: []string{"off", "on"}, Default: "off", Rules: "CY-12, CY-19",
			Label: games.T("option.variant_tokens"), Description: games.T("option.variant_tokens.help")},
	}
}

// optionWords is the English of Coyote's options (the new-game form and the
// API's catalog show them).
var optionWords = games.Catalog{ //nolint:gosec // G101: a game's words ("pass", "tokens"), no credentials
	"option.deck":                  "Feathers",
	"option.deck.help":             "Which feathers are shuffled into the pile.",
	"option.deck.feathers-30":      "30 feathers (the current edition)",
	"option.deck.first-edition-36": "36 feathers (the first edition)",
	"option.elimination":           "Out after",
	"option.elimination.help":      "How many coyote tokens put a player out; 4 or 5 only in a game of 3 or 4 players.",
	"option.tokens.one":            "{0} coyote token",
	"option.tokens.other":          "{0} coyote tokens",
	"option.variant_tokens":        "Variant tokens",
	"option.variant_tokens.help":   "The advanced variant: 8 tokens (reveal, reverse, skip, replace, declare) players may use on their turn.",
}

// allWords is every word of Coyote: its boards' and its options'.
var allWords = games.Merge(words, optionWords)

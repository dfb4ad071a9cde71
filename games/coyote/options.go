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

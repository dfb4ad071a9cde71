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

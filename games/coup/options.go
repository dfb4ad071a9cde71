package coup

import "github.com/courrier-games/courrier/games"

// options are Coup's options (section 4 of the rules file) with their
// words.
func options() []games.OptionSpec {
	onOff := []string{"off", "on"}
	return []games.OptionSpec{
		{Name: "two_player_setup", Values: []string{"official", "standard"}, Default: "official", Rules: "TC-2",
			Label: games.T("option.two_player_setup"), Description: games.T("option.two_player_setup.help"),
			ValueLabels: []games.Text{games.T("option.two_player_setup.official"), games.T("option.two_player_setup.standard")}},
		{Name: "inquisitor", Values: onOff, Default: "off", Rules: "TC-26",
			Label: games.T("option.inquisitor"), Description: games.T("option.inquisitor.help")},
		{Name: "factions", Values: onOff, Default: "off", Rules: "TC-27",
			Label: games.T("option.factions"), Description: games.T("option.factions.help")},
		{Name: "selective_coup", Values: onOff, Default: "off", Rules: "TC-28",
			Label: games.T("option.selective_coup"), Description: games.T("option.selective_coup.help")},
		{Name: "blocking_contessa", Values: onOff, Default: "off", Rules: "TC-29",
			Label: games.T("option.blocking_contessa"), Description: games.T("option.blocking_contessa.help")},
		{Name: "failed_claim_cost", Values: []string{"refund", "spent"}, Default: "refund", Rules: "TC-17",
			Label: games.T("option.failed_claim_cost"), Description: games.T("option.failed_claim_cost.help"),
			ValueLabels: []games.Text{games.T("option.failed_claim_cost.refund"), games.T("option.failed_claim_cost.spent")}},
	}
}

// optionWords is the English of Coup's options (the new-game form and the
// API's catalog show them).
var optionWords = games.Catalog{
	"option.two_player_setup":          "Two-player setup",
	"option.two_player_setup.help":     "How a game of two players is dealt; a game of more players ignores it.",
	"option.two_player_setup.official": "the official sets, 1 coin for the starting player",
	"option.two_player_setup.standard": "dealt as for more players",
	"option.inquisitor":                "Inquisitor",
	"option.inquisitor.help":           "The Inquisitor takes the place of the Ambassador: it exchanges one card and may examine another player's card.",
	"option.factions":                  "Factions",
	"option.factions.help":             "Each player belongs to a faction and may not target their own; Defect changes sides.",
	"option.selective_coup":            "Selective coup",
	"option.selective_coup.help":       "A Coup names a character; the target loses that card if they hold it.",
	"option.blocking_contessa":         "Contessa blocks Tax",
	"option.blocking_contessa.help":    "The Contessa may also block a Duke's Tax.",
	"option.failed_claim_cost":         "An assassination lost to a challenge",
	"option.failed_claim_cost.help":    "Whether the assassin gets the 3 coins back when their claim is challenged and fails.",
	"option.failed_claim_cost.refund":  "the coins are given back",
	"option.failed_claim_cost.spent":   "the coins stay paid, as in the published text",
}

// allWords is every word of Coup: its boards' and its options'.
var allWords = games.Merge(words, optionWords)

package couillon

import "github.com/courrier-games/courrier/games"

// optionSpecs are Couillon's options (section 4 of the rules file) with
// their words.
func optionSpecs() []games.OptionSpec {
	return []games.OptionSpec{
		{Name: "following", Values: []string{"ardennes", "gerver"}, Default: "ardennes", Rules: "CO-7",
			Label: games.T("option.following"), Description: games.T("option.following.help"),
			ValueLabels: []games.Text{games.T("option.following.ardennes"), games.T("option.following.gerver")}},
		{Name: "all_pass", Values: []string{"next-card", "gerver"}, Default: "next-card", Rules: "CO-5",
			Label: games.T("option.all_pass"), Description: games.T("option.all_pass.help"),
			ValueLabels: []games.Text{games.T("option.all_pass.next-card"), games.T("option.all_pass.gerver")}},
		{Name: "leader", Values: []string{"left-of-dealer", "declarer"}, Default: "left-of-dealer", Rules: "CO-6",
			Label: games.T("option.leader"), Description: games.T("option.leader.help"),
			ValueLabels: []games.Text{games.T("option.leader.left-of-dealer"), games.T("option.leader.declarer")}},
		{Name: "deal_rule", Values: []string{"compare", "threshold20"}, Default: "compare", Rules: "CO-9",
			Label: games.T("option.deal_rule"), Description: games.T("option.deal_rule.help"),
			ValueLabels: []games.Text{games.T("option.deal_rule.compare"), games.T("option.deal_rule.threshold20")}},
		{Name: "lines", Values: []string{"5", "7"}, Default: "5", Rules: "CO-10",
			Label: games.T("option.lines"), Description: games.T("option.lines.help"),
			ValueLabels: []games.Text{games.T("option.lines.n", 5), games.T("option.lines.n", 7)}},
		{Name: "capot", Values: []string{"off", "on"}, Default: "off", Rules: "CO-16",
			Label: games.T("option.capot"), Description: games.T("option.capot.help")},
	}
}

// optionWords is the English of Couillon's options (the new-game form and
// the API's catalog show them).
var optionWords = games.Catalog{ //nolint:gosec // G101: a game's words ("pass", "tokens"), no credentials
	"option.following":             "Following",
	"option.following.help":        "What a player must play to a trick.",
	"option.following.ardennes":    "strict: follow suit, beat the highest card, trump",
	"option.following.gerver":      "follow suit or trump",
	"option.all_pass":              "When all four pass",
	"option.all_pass.help":         "What happens when nobody accepts the turned card's suit as trump.",
	"option.all_pass.next-card":    "turn the next stock card",
	"option.all_pass.gerver":       "the bottom card makes trump, with no declarers",
	"option.leader":                "First lead",
	"option.leader.help":           "Who leads the first trick of a deal.",
	"option.leader.left-of-dealer": "the player on the dealer's left",
	"option.leader.declarer":       "the player who accepted trump",
	"option.deal_rule":             "Winning a deal",
	"option.deal_rule.help":        "How the team that wins a deal is found.",
	"option.deal_rule.compare":     "more card points than the other team",
	"option.deal_rule.threshold20": "the declarers need more than 20 points",
	"option.lines":                 "Lines",
	"option.lines.help":            "The deals a team must win (lines on its score) to win the game.",
	"option.lines.n.one":           "{0} line",
	"option.lines.n.other":         "{0} lines",
	"option.capot":                 "Capot",
	"option.capot.help":            "A team that takes all 4 tricks and wins the deal rubs out an extra line.",
}

// allWords is every word of Couillon: its boards' and its options'.
var allWords = games.Merge(words, optionWords)

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

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

package coupage

import "github.com/courrier-games/courrier/games"

// options are Coupage's options (section 4 of the rules file) with their
// words.
func options() []games.OptionSpec {
	return []games.OptionSpec{
		{Name: "wine_abilities", Values: []string{"on", "off"}, Default: "on", Rules: "CP-7, CP-31–CP-34",
			Label: games.T("option.wine_abilities"), Description: games.T("option.wine_abilities.help")},
		{Name: "aid_tables", Values: []string{"house"}, Default: "house", Rules: "Tables G, W, S",
			Label: games.T("option.aid_tables"), Description: games.T("option.aid_tables.help"),
			ValueLabels: []games.Text{games.T("option.aid_tables.house")}},
	}
}

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

// optionWords is the English of Coupage's options (the new-game form and
// the API's catalog show them).
var optionWords = games.Catalog{
	"option.wine_abilities":      "Wine abilities",
	"option.wine_abilities.help": "Each wine grants its ability at the moment it is bottled; off: bottling grants none.",
	"option.aid_tables":          "Aid tables",
	"option.aid_tables.help":     "The data set of the grape, wine and sale tables (G, W and S).",
	"option.aid_tables.house":    "courrier's tables",
}

// allWords is every word of Coupage: its boards' and its options'.
var allWords = games.Merge(words, optionWords)

package catalog_test

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
)

// Every option of every game has a label, a one-line description and, when
// it labels its values, one label per value, all said by the game's own
// catalog; the words are for people (no snake_case name, no two options
// with one label).
func TestEveryOptionHasItsWords(t *testing.T) {
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, _ := reg.Get(id)
		words := eng.Words().In(games.English)
		labels := map[string]string{}
		for _, o := range eng.Info().Options {
			if err := o.Check(words); err != nil {
				t.Errorf("%s: %v", id, err)
				continue
			}
			label, help := words.Must(o.Label), words.Must(o.Description)
			if strings.Contains(label, "_") || strings.Contains(help, "\n") || !strings.HasSuffix(help, ".") || len(help) > 140 {
				t.Errorf("%s option %s: label %q, description %q: a label in words, a description of one line (a sentence under 140 characters)", id, o.Name, label, help)
			}
			if other, ok := labels[label]; ok {
				t.Errorf("%s: options %s and %s are both labelled %q", id, other, o.Name, label)
			}
			labels[label] = o.Name
		}
	}
}

// OptionSpec.Check refuses an option without its words, one with a label
// missing from the catalog and one whose value labels do not match its
// values.
func TestOptionSpecCheck(t *testing.T) {
	words := games.CatalogOf("en", map[string]string{"l": "Speed", "d": "How fast it goes.", "v.fast": "fast"})
	tests := []struct {
		name string
		spec games.OptionSpec
		ok   bool
	}{
		{"complete", games.OptionSpec{Name: "speed", Values: []string{"fast"}, Label: games.T("l"), Description: games.T("d"), ValueLabels: []games.Text{games.T("v.fast")}}, true},
		{"no value labels", games.OptionSpec{Name: "speed", Values: []string{"fast"}, Label: games.T("l"), Description: games.T("d")}, true},
		{"no label", games.OptionSpec{Name: "speed", Description: games.T("d")}, false},
		{"no description", games.OptionSpec{Name: "speed", Label: games.T("l")}, false},
		{"unknown key", games.OptionSpec{Name: "speed", Label: games.T("nope"), Description: games.T("d")}, false},
		{"value labels short", games.OptionSpec{Name: "speed", Values: []string{"fast", "slow"}, Label: games.T("l"), Description: games.T("d"), ValueLabels: []games.Text{games.T("v.fast")}}, false},
	}
	for _, tt := range tests {
		if err := tt.spec.Check(words.In("en")); (err == nil) != tt.ok {
			t.Errorf("%s: Check = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

// Every value of every option has words for a person in every language:
// its label, or a switch's on and off ("oui", "non"); none is shown raw.
func TestEveryOptionValueHasItsWords(t *testing.T) {
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, _ := reg.Get(id)
		for _, o := range eng.Info().Options {
			if o.Values == nil {
				continue
			}
			if !o.Labelled() {
				t.Errorf("%s option %s: a value without words", id, o.Name)
				continue
			}
			for _, lang := range games.Languages() {
				for i, v := range o.Values {
					said, err := eng.Words().In(lang).Say(o.ValueLabel(i))
					if err != nil || lang != games.English && said == v && (v == "on" || v == "off") {
						t.Errorf("%s option %s value %s in %s: %q, %v", id, o.Name, v, lang, said, err)
					}
				}
			}
		}
	}
}

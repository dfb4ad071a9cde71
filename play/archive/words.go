package archive

import (
	"embed"
	"encoding/json"

	"github.com/courrier-games/courrier/games"
)

// archive has its own catalog rather than play's: play imports archive, so
// archive cannot import play. What a person reads of an audit (what was
// checked, each problem) and a referee's decision are phrases of it, said
// by the doors in their reader's language. The files written for operators
// and archives (WriteAuditReport's report, WriteRecord's record) and the
// errors of the command line's verify and receipts are English, and keep
// their format.

//go:embed words/*.toml
var wordFiles embed.FS

// words is archive's catalog, in every language, over the words all games
// share; read once, never changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is archive's catalog, for the doors' catalog checks.
func Words() *games.Catalog { return words }

// explained is err as a phrase: its own words in each language when it can
// say itself (a rule's refusal), else its English message in every one.
func explained(err error) games.Phrase {
	return saidEach(func(lang string) string { return games.Explain(err, lang) }, err.Error())
}

// saidEach is the phrase that says say(lang) in each language (fallback in
// every one if it cannot be made).
func saidEach(say func(lang string) string, fallback string) games.Phrase {
	said := map[string]string{}
	for _, l := range games.Languages() {
		said[l] = say(l)
	}
	var p games.Phrase
	b, err := json.Marshal(said)
	if err == nil {
		err = json.Unmarshal(b, &p) // a phrase read back holds its words in each language
	}
	if err != nil {
		return games.Said(fallback)
	}
	return p
}

// moveSaid is a move line as the game's players write it in each language
// ("bid 5", "enchère 5"), words the game's catalog does not name as
// recorded.
func moveSaid(g Game, line string) games.Phrase {
	if g.Engine == nil {
		return games.Said(line)
	}
	c := g.Engine.Words()
	return saidEach(func(lang string) string { return c.In(lang).WriteMove(line) }, line)
}

// Said is the referee's decision in words: "upheld", "rejected" (a
// decision the catalog does not name is said as recorded).
func (r Ruling) Said() games.Phrase {
	switch r.Decision {
	case "upheld", "rejected":
		return words.Phrase("ruling." + r.Decision)
	}
	return games.Said(r.Decision)
}

package coupage

import _ "embed" // the rules page is embedded

//go:embed RULES.md
var rulesPage string

// RulesPage returns this game's rules page (RULES.md, Markdown), as the API's
// catalog and the web pages serve it.
func RulesPage() string { return rulesPage }

package auth

import (
	"embed"

	"github.com/courrier-games/courrier/games"
)

//go:embed words/*.toml
var wordFiles embed.FS

// words is api/auth's catalog (refusals, the kinds of mail), over the
// words all games share; read once, never changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is api/auth's catalog, for catalog checks.
func Words() *games.Catalog { return words }

// Problem is a refusal a person can act on (a bad name, time zone,
// language, address or token name), in words of api/auth's catalog:
// Explain says it in a language (see games.Explainer, games.Explain), and
// errors.Is matches its reason (ErrBadName…).
type Problem struct {
	Reason error // nil when no sentinel names it
	Said   games.Phrase
}

// problem returns a *Problem for reason whose words are key with args.
func problem(reason error, key string, args ...any) *Problem {
	return &Problem{Reason: reason, Said: words.Phrase(key, args...)}
}

// Error implements error, in English: "bad display name: a name needs at
// least one letter".
func (p *Problem) Error() string {
	if p.Reason == nil {
		return p.Said.In(games.English)
	}
	return p.Reason.Error() + ": " + p.Said.In(games.English)
}

// Explain says the problem in lang.
func (p *Problem) Explain(lang string) string { return p.Said.In(lang) }

// Unwrap returns the reason.
func (p *Problem) Unwrap() error { return p.Reason }

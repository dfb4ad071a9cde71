package games

import (
	"errors"
)

// RuleError is an illegal move or setup: it names the rule it breaks and says
// in plain words why. It never carries information the mover may not see.
type RuleError struct {
	Rule string // rule id, e.g. "CY-6"; "notation" for a move that does not parse
	// Reason is why, in words of the game's catalog: "a bid must be higher
	// than the current bid 12" (see [Catalog.Illegal]).
	Reason Phrase
	// Suggest is the legal move closest to the refused one, in canonical
	// notation, when the mover has legal moves ([Engine.Suggest] fills it,
	// called by the command side for a person's refused move); Notation is
	// the game's catalog that writes it in a language.
	Suggest  string
	Notation *Catalog
}

// Error implements error, in English.
func (e *RuleError) Error() string { return e.Rule + ": " + e.Reason.In(English) }

// Explain says why in lang (see [Explainer]), with the closest legal
// move written in lang's words when there is one.
func (e *RuleError) Explain(lang string) string {
	reason := e.Reason.In(lang)
	if e.Suggest == "" || e.Notation == nil {
		return reason
	}
	return boardWords.In(lang).Must(T("refusal.suggest", reason, e.Notation.In(lang).WriteMove(e.Suggest)))
}

// Suggestion is the closest legal move written in lang's words, or "".
func (e *RuleError) Suggestion(lang string) string {
	if e.Suggest == "" || e.Notation == nil {
		return ""
	}
	return e.Notation.In(lang).WriteMove(e.Suggest)
}

// NotationRule is the rule id of moves that do not parse.
const NotationRule = "notation"

// AsRuleError reports whether err is (or wraps) a *RuleError and returns it.
func AsRuleError(err error) (*RuleError, bool) {
	return errors.AsType[*RuleError](err)
}

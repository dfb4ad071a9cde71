package games

import (
	"errors"
	"fmt"
)

// RuleError is an illegal move or setup: it names the rule it breaks and says
// in plain words why. It never carries information the mover may not see.
type RuleError struct {
	Rule   string // rule id, e.g. "CY-6"; "notation" for a move that does not parse
	Reason string // plain words, e.g. "a bid must be higher than the current bid 12"
}

// Error implements error.
func (e *RuleError) Error() string { return e.Rule + ": " + e.Reason }

// Illegal returns a *RuleError for rule with a formatted reason.
func Illegal(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// NotationRule is the rule id of moves that do not parse.
const NotationRule = "notation"

// Unparsable returns a *RuleError for text that is not a move of the game.
func Unparsable(format string, args ...any) error {
	return Illegal(NotationRule, format, args...)
}

// AsRuleError reports whether err is (or wraps) a *RuleError and returns it.
func AsRuleError(err error) (*RuleError, bool) {
	return errors.AsType[*RuleError](err)
}

package play

import (
	"encoding/json"
	"fmt"

	"github.com/courrier-games/courrier/games"
)

// Error codes of refusals that are not rule errors; stable for the API.
const (
	CodeNotFound  = "not_found" // no such game
	CodeForbidden = "forbidden" // the actor may not do this in this game
	CodeInvalid   = "invalid"   // malformed input (a name, an option)
	CodeConflict  = "conflict"  // the game is not in a state that allows it
)

// Error is a refusal a person can read: a stable Code and a message in
// words of play's catalog, said in the reader's language by Explain (and
// games.Explain). Nothing was written.
type Error struct {
	Code    string
	Message games.Phrase
	Err     error // what caused it, when something did (for errors.Is)
}

// Error implements error, in English.
func (e *Error) Error() string { return e.Message.In(games.English) }

// Explain says the refusal in lang (see games.Explainer).
func (e *Error) Explain(lang string) string { return e.Message.In(lang) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// refuse returns a *Error of code whose message is key of play's catalog
// with args.
func refuse(code, key string, args ...any) error {
	return &Error{Code: code, Message: words.Phrase(key, args...)}
}

// StaleError is a player's move sent against a version the game has left:
// the game moved on. Changes are what happened since, as the player's seat
// may see it. When the game no longer waits for the player (YourTurn is
// false), it says whose turn it is instead (Waiting), or that the game is
// over (Ended): sending the move again would not help.
type StaleError struct {
	GameID   string
	Expected int
	Current  int
	Changes  []Change
	// YourTurn is set when the player's seat has a pending entry at Current.
	YourTurn bool
	// Ended is set when the game is over.
	Ended bool
	// Waiting names the players the game waits for at Current, as anyone
	// may see them.
	Waiting []string
}

// Error implements error: the same words through every door, in English.
func (e *StaleError) Error() string { return e.Explain(games.English) }

// Explain says why the move is stale in lang (see games.Explainer).
func (e *StaleError) Explain(lang string) string { return e.phrase().In(lang) }

// phrase is what Explain says.
func (e *StaleError) phrase() games.Phrase {
	switch {
	case e.Expected > e.Current:
		return words.Phrase("stale.ahead", e.Expected, e.Current)
	case e.Ended:
		return words.Phrase("stale.ended", e.Expected, e.Current)
	case !e.YourTurn && len(e.Waiting) > 0:
		return words.Phrase("stale.waiting", sayList(e.Waiting), e.Expected, e.Current)
	}
	return words.Phrase("stale.moved_on", e.Expected, e.Current)
}

// sayList is names as a sentence lists them, in any language: "Ana",
// "Ana and Bob", "Ana, Bob and Cleo" ("Ana et Bob").
func sayList(names []string) games.Text {
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return games.List(items...)
}

// MoveError is the refusal of one line of a several-line move.
type MoveError struct {
	Line int    // 1-based line of the move text
	Text string // the line as sent
	Err  error  // a *games.RuleError
}

// Error implements error.
func (e *MoveError) Error() string {
	return fmt.Sprintf("line %d %q: %v", e.Line, e.Text, e.Err)
}

// Explain says the refusal in lang: "line N (text): reason" (see
// games.Explainer).
func (e *MoveError) Explain(lang string) string {
	return words.In(lang).Must(games.T("refusal.line", e.Line, e.Text, games.Explain(e.Err, lang)))
}

// Unwrap gives access to the rule error.
func (e *MoveError) Unwrap() error { return e.Err }

// MarshalJSON writes the line, its text, and the rule and reason of the
// refusal.
func (e *MoveError) MarshalJSON() ([]byte, error) {
	out := struct {
		Line   int          `json:"line"`
		Text   string       `json:"text"`
		Rule   string       `json:"rule,omitempty"`
		Reason games.Phrase `json:"reason"`
	}{Line: e.Line, Text: e.Text, Reason: games.Said(e.Err.Error())}
	if re, ok := games.AsRuleError(e.Err); ok {
		out.Rule, out.Reason = re.Rule, re.Reason
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote (an idempotent replay returns
// the stored outcome).
func (e *MoveError) UnmarshalJSON(b []byte) error {
	var in struct {
		Line   int          `json:"line"`
		Text   string       `json:"text"`
		Rule   string       `json:"rule"`
		Reason games.Phrase `json:"reason"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*e = MoveError{Line: in.Line, Text: in.Text, Err: &games.RuleError{Rule: in.Rule, Reason: in.Reason}}
	return nil
}

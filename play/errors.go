package play

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Error codes of refusals that are not rule errors; stable for the API.
const (
	CodeNotFound  = "not_found" // no such game
	CodeForbidden = "forbidden" // the actor may not do this in this game
	CodeInvalid   = "invalid"   // malformed input (a name, an option)
	CodeConflict  = "conflict"  // the game is not in a state that allows it
)

// Error is a refusal a person can read: a stable Code and a message. Nothing
// was written.
type Error struct {
	Code    string
	Message string
	Err     error // what caused it, when something did (for errors.Is)
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func refuse(code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
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

// Error implements error: the same words through every door.
func (e *StaleError) Error() string {
	switch {
	case e.Expected > e.Current:
		return fmt.Sprintf("your move was made against version %d, but the game is only at version %d: "+
			"look at the game and send your move against the version you see", e.Expected, e.Current)
	case e.Ended:
		return fmt.Sprintf("the game is over: your move was made against version %d, and the game ended at version %d", e.Expected, e.Current)
	case !e.YourTurn && len(e.Waiting) > 0:
		return fmt.Sprintf("it is not your turn: the game waits for %s (your move was made against version %d, the game is now at version %d); "+
			"you will be prompted when it is your turn", sayList(e.Waiting), e.Expected, e.Current)
	}
	return fmt.Sprintf("the game moved on: your move was made against version %d, the game is now at version %d; "+
		"look at what changed and send your move again if it still stands", e.Expected, e.Current)
}

// sayList joins names as a sentence does: "Ana", "Ana and Bob", "Ana, Bob
// and Cleo".
func sayList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
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

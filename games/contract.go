package games

import (
	"math/rand/v2"
)

// Seat identifies a place at the table: 0..n-1 in turn order. Spectator is
// anyone who is not seated (onlookers, referees, the public feed).
type Seat int

// Spectator is the seat of an onlooker: it sees public information only.
const Spectator Seat = -1

// Options are a game's chosen options by name, e.g. {"deck": "feathers-30"}.
// Values are the notation of the rules file's options table.
type Options map[string]string

// OptionSpec describes one option of a game: its name, the values it admits
// (nil means any value the game validates itself), its default and the rule
// ids it changes.
type OptionSpec struct {
	Name    string   `json:"name"`
	Values  []string `json:"values,omitempty"`
	Default string   `json:"default"`
	Rules   string   `json:"rules,omitempty"`
}

// Info is the static description of a game.
type Info struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	MinSeats int          `json:"min_seats"`
	MaxSeats int          `json:"max_seats"`
	Options  []OptionSpec `json:"options"`
}

// Pending says who may act now and in what capacity. A game returns one entry
// when a single seat must act, or one entry per eligible seat when a window is
// open (Coup's challenge and block windows); entries of one window share Kind.
type Pending struct {
	// Seat is the seat that may act.
	Seat Seat `json:"seat"`
	// Kind names the decision point ("turn", "challenge", "block", …); deadlines
	// are configured per kind.
	Kind string `json:"kind"`
	// Rule is the rules-file id of the asynchronous-play row (e.g. "CY-30").
	Rule string `json:"rule"`
	// Default is the move, in notation, applied for this seat at the deadline.
	Default string `json:"default"`
}

// Result is the outcome of a game so far.
type Result struct {
	Finished bool   `json:"finished"`
	Winners  []Seat `json:"winners,omitempty"`
	// Scores holds a score per seat when the game keeps one (nil otherwise).
	Scores []int `json:"scores,omitempty"`
	// Summary is one line a person can read: "Ana wins", "Team A 3–1".
	Summary string `json:"summary,omitempty"`
}

// Event is what each game's event type must provide: a stable type name
// (e.g. "bid", "round_dealt") used as the stored event type. The value must
// round-trip through encoding/json.
type Event interface {
	EventType() string
}

// Rules is the contract of one game with its concrete types: S the state, M a
// move and E an event. All functions are pure and deterministic.
//
// Ownership: Evolve may modify and return the state it is given (the caller
// owns it); Decide, Pending, Legal, View and Result must not modify the state.
type Rules[S any, M any, E Event] interface {
	// Info describes the game.
	Info() Info
	// Initial returns the state before any event.
	Initial() S
	// Setup validates the options (already completed with defaults) and the
	// player names (in joining order) and returns the first events: seating,
	// shuffles and the deal. An invalid combination is a *RuleError.
	Setup(opts Options, players []string, r *rand.Rand) ([]E, error)
	// Decide returns the events a move by seat produces, or a *RuleError that
	// names the rule the move breaks. Automatic consequences (a count, the next
	// deal) are part of the returned events.
	Decide(s S, seat Seat, m M, r *rand.Rand) ([]E, error)
	// Resign returns the events of seat leaving the game; the game decides what
	// that means for the others (a [HOUSE] rule on each rules page).
	Resign(s S, seat Seat, r *rand.Rand) ([]E, error)
	// Evolve applies one event. It never fails and never draws randomness.
	Evolve(s S, e E) S
	// Pending lists who may act now; empty when the game is over.
	Pending(s S) []Pending
	// Legal lists the moves seat may make now, in canonical notation.
	Legal(s S, seat Seat) []string
	// View is what seat may see of the state (JSON-encodable).
	View(s S, seat Seat) any
	// Redact is seat's version of an event: hidden parts removed.
	Redact(e E, seat Seat) E
	// Parse reads one move in the game's notation; player names are resolved
	// against the state. A malformed move is a *RuleError.
	Parse(s S, text string) (M, error)
	// Format writes a move in canonical notation; Parse(Format(m)) == m.
	Format(s S, m M) string
	// Result tells whether the game is over, and who won.
	Result(s S) Result
	// Players returns the player names by seat (index = seat), as seated by
	// Setup's events; nil before seating.
	Players(s S) []string
}

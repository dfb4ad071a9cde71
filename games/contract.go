package games

import (
	"fmt"
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
// (nil means any value the game validates itself), its default, the rule
// ids it changes, and its words for a person.
type OptionSpec struct {
	Name    string   `json:"name"`
	Values  []string `json:"values,omitempty"`
	Default string   `json:"default"`
	Rules   string   `json:"rules,omitempty"`
	// Label names the option for a person ("When all four pass") and
	// Description says in one line what it changes: texts of the game's
	// catalog (Engine.Words), as a board's are, so that another language
	// is one more catalog. Every option has both.
	Label       Text `json:"label,omitzero"`
	Description Text `json:"description,omitzero"`
	// ValueLabels name the values for a person, one per value of Values in
	// its order ("turn the next stock card"); nil: the values as written.
	ValueLabels []Text `json:"value_labels,omitempty"`
}

// Info is the static description of a game.
type Info struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	MinSeats int          `json:"min_seats"`
	MaxSeats int          `json:"max_seats"`
	Options  []OptionSpec `json:"options"`
	// Rules is the version of the rules this code decides by, counted from
	// 1. Each game records the version it was created under and is folded
	// and decided under it for ever (see Rules.Initial); a rules change that
	// would decide or fold a recorded game differently is a new version.
	Rules int `json:"rules_version"`
	// Teams, when above 0, is the number of fixed teams: seat s plays for
	// team s % Teams (Couillon: 2). Ratings then meet each player with
	// each opponent, never a teammate.
	Teams int `json:"teams,omitempty"`
}

// Pending says who may act now and in what capacity. A game returns one entry
// when a single seat must act, or one entry per eligible seat when a window is
// open (Coup's challenge and block windows); entries of one window share Kind.
//
// An entry's identity is its seat, its kind and Since, the stream version at
// which it opened: deadlines hang on it, and a move is stale only when the
// mover's own entry changed since the version they saw. Engines leave Since
// at zero; the command side, which knows versions, fills it.
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
	// Since is the stream version at which this entry opened (filled by the
	// command side; see the type's comment).
	Since int `json:"since"`
}

// PendingID is the stable identity of a pending entry.
type PendingID struct {
	Seat  Seat   `json:"seat"`
	Kind  string `json:"kind"`
	Since int    `json:"since"`
}

// ID returns the entry's identity.
func (p Pending) ID() PendingID { return PendingID{Seat: p.Seat, Kind: p.Kind, Since: p.Since} }

// String writes the identity as "seat 2 challenge since 8", for logs and errors.
func (id PendingID) String() string {
	return fmt.Sprintf("seat %d %s since %d", id.Seat, id.Kind, id.Since)
}

// MaxChoices bounds a compact list of legal moves (Rules.Choices): a numbered
// list a person can read in an email.
const MaxChoices = 20

// Result is the outcome of a game so far.
type Result struct {
	Finished bool   `json:"finished"`
	Winners  []Seat `json:"winners,omitempty"`
	// Scores holds a score per seat when the game keeps one (nil otherwise).
	Scores []int `json:"scores,omitempty"`
	// Summary is one line a person can read, in words of the game's
	// catalog: "Ana wins", "Team A 3–1".
	Summary Phrase `json:"summary,omitzero"`
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
// owns it); Decide, Pending, Legal, Choices, View, Redact, Describe and
// Result must not modify the state.
//
// Randomness: Setup, Decide and Resign draw only through [IntN] and
// [Shuffle] on the generator they are given (RANDOM.md).
type Rules[S any, M any, E Event] interface {
	// Info describes the game.
	Info() Info
	// Initial returns the state before any event of a game created under
	// rules version rules (1 ≤ rules ≤ Info().Rules). The state keeps the
	// version; Decide and Evolve follow the rules of that version.
	Initial(rules int) S
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
	// Choices is Legal in compact form for a numbered prompt: at most
	// MaxChoices lines, deterministic for a state (so that a reply "3" means
	// one move). Each line is a legal move in canonical notation, or a
	// pattern standing for several: one integer range written "A … B" (with
	// the ellipsis character, spaces around it) stands for the same line with
	// each integer from A to B in its place ("bid 13 … 120"); a word in angle
	// brackets ("<card>") is a blank the player fills in, explained by the
	// rules page. Together the lines cover every legal move.
	Choices(s S, seat Seat) []string
	// View is what seat may see of the state (JSON-encodable).
	View(s S, seat Seat) any
	// Redact is seat's version of event e, which applies to state s (the
	// state before e): the parts seat may not see are removed.
	Redact(s S, e E, seat Seat) E
	// Describe says in one or two sentences of the game's catalog what
	// event e (which applies to state s, the state before it) did, as seat
	// may know it: "Bob bid 14." / "You drew the 7 of hearts." / "Ana drew
	// a card." It never tells more than Redact(s, e, seat) shows, in any
	// language, uses the players' names ("You" for seat itself) and ends
	// with a full stop. An event that does nothing a person would notice
	// may return the zero Phrase.
	Describe(s S, e E, seat Seat) Phrase
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

// TakeBacks is the optional part of [Rules] that lets players take a move
// back by consent (issue 36). Fixed reports whether event e, which applies
// to state s (the state before it), fixes the game: it reveals hidden
// information to some seat, draws at random, or ends the game, so that
// nothing at or before it may be taken back. Each game writes its rule as a
// [HOUSE] rule on its rules page.
//
// Fixed must depend only on what every seat saw of e (its type and its
// public fields), never on a hidden card: a refusal that named a fixed
// event would otherwise tell the table something about the hidden cards.
// A game that does not implement TakeBacks fixes every event (no take-back
// is possible in it).
type TakeBacks[S any, E Event] interface {
	Fixed(s S, e E) bool
	// TakeBackRule is the id of the game's take-back rule ("TC-41"),
	// which a refused take-back names.
	TakeBackRule() string
}

// Check tells whether o has its words for a person: a label and a
// description words says exactly, and a label for each value or none.
func (o OptionSpec) Check(words Words) error {
	if o.Label.IsZero() || o.Description.IsZero() {
		return fmt.Errorf("games: option %s has no label or no description", o.Name)
	}
	if o.ValueLabels != nil && len(o.ValueLabels) != len(o.Values) {
		return fmt.Errorf("games: option %s has %d values and %d value labels", o.Name, len(o.Values), len(o.ValueLabels))
	}
	for _, t := range append([]Text{o.Label, o.Description}, o.ValueLabels...) {
		if err := words.Check(t); err != nil {
			return fmt.Errorf("option %s: %w", o.Name, err)
		}
	}
	return nil
}

// ValueLabel is the words of o's value i for a person: its label, else, for
// a switch written "on" or "off", the words all games share for it ("oui",
// "non" in French), else the value as it is written.
func (o OptionSpec) ValueLabel(i int) Text {
	switch {
	case i < len(o.ValueLabels):
		return o.ValueLabels[i]
	case i >= len(o.Values):
		return Text{}
	case o.Values[i] == "on" || o.Values[i] == "off":
		return T("option.value." + o.Values[i])
	}
	return Plain(o.Values[i])
}

// Labelled reports whether every value of o has words for a person (a
// label, or a switch's on and off).
func (o OptionSpec) Labelled() bool {
	for i := range o.Values {
		if o.ValueLabel(i).Key == "" {
			return false
		}
	}
	return true
}

package games

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// State is a game's state behind the type-erased [Engine]; only the engine
// that made it can use it.
type State any

// RawEvent is a game event as stored: its type name and its JSON data.
type RawEvent struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// Engine is a game behind a type-erased face: moves are text in the game's
// notation, events are JSON. It is what the registry holds and what the
// command side, projections, API and email use.
type Engine interface {
	// Info describes the game.
	Info() Info
	// Options completes opts with the defaults of Info and rejects unknown
	// option names and values (a *RuleError).
	Options(opts Options) (Options, error)
	// Initial returns the state before any event of a game created under
	// rules version rules; a version this code does not know is an error.
	Initial(rules int) (State, error)
	// Setup returns the first events of a game for these players.
	Setup(opts Options, players []string, r *rand.Rand) ([]RawEvent, error)
	// Evolve applies one stored event. It fails only when the event does not
	// decode: a corrupt log, never a rule matter. Evolve may modify s.
	Evolve(s State, e RawEvent) (State, error)
	// Decide parses one move line and decides it for seat.
	Decide(s State, seat Seat, move string, r *rand.Rand) ([]RawEvent, error)
	// Resign returns the events of seat leaving the game.
	Resign(s State, seat Seat, r *rand.Rand) ([]RawEvent, error)
	// Suggest returns err, a refusal of seat's move, with the legal move
	// closest to it (RuleError.Suggest); any other error as it is.
	Suggest(s State, seat Seat, move string, err error) error
	// Canonical parses a move and writes it back in canonical notation.
	Canonical(s State, move string) (string, error)
	// Pending lists who may act now.
	Pending(s State) []Pending
	// Legal lists seat's legal moves in canonical notation.
	Legal(s State, seat Seat) []string
	// Choices lists seat's legal moves in compact form for a numbered
	// prompt (see Rules.Choices).
	Choices(s State, seat Seat) []string
	// View is seat's view as JSON.
	View(s State, seat Seat) (json.RawMessage, error)
	// Redact is seat's version of a stored event that applies to s.
	Redact(s State, e RawEvent, seat Seat) (RawEvent, error)
	// Describe says in words of the game's catalog what a stored event
	// that applies to s did, as seat may know it.
	Describe(s State, e RawEvent, seat Seat) (Phrase, error)
	// Result tells whether the game is over and who won.
	Result(s State) Result
	// Players returns the player names by seat.
	Players(s State) []string
	// Board lays out the table from a seat's view (the JSON View made for
	// it) and nothing else; ErrNoBoard for a game that draws none.
	Board(view json.RawMessage) (Board, error)
	// Fixed reports whether a stored event that applies to s fixes the
	// game, so that no take-back may reach at or before it (see
	// [TakeBacks]); every event of a game without that hook is fixed. It
	// fails only when the event does not decode.
	Fixed(s State, e RawEvent) (bool, error)
	// TakeBackRule is the id of the game's take-back rule; "" for a game
	// without take-backs.
	TakeBackRule() string
	// Words is the game's catalog (over [BoardWords]): every key its
	// boards, options, refusals and descriptions use, in every language.
	Words() *Catalog
}

// Adapt turns a game's concrete rules into an [Engine]. E must be a concrete
// type that round-trips through encoding/json (for example one struct with
// optional fields per event type).
func Adapt[S any, M any, E Event](r Rules[S, M, E]) Engine {
	return adapter[S, M, E]{rules: r}
}

type adapter[S any, M any, E Event] struct {
	rules Rules[S, M, E]
}

func (a adapter[S, M, E]) Info() Info { return a.rules.Info() }

func (a adapter[S, M, E]) Initial(rules int) (State, error) {
	info := a.rules.Info()
	if rules < 1 || rules > info.Rules {
		return nil, fmt.Errorf("%s: the game was created under rules version %d, and this courrier knows versions 1 to %d: upgrade courrier to play or replay it", info.Name, rules, info.Rules)
	}
	return a.rules.Initial(rules), nil
}

func (a adapter[S, M, E]) Options(opts Options) (Options, error) {
	info := a.rules.Info()
	out := Options{}
	for name, value := range opts {
		i := slices.IndexFunc(info.Options, func(o OptionSpec) bool { return o.Name == name })
		if i < 0 {
			names := make([]string, len(info.Options))
			for j, o := range info.Options {
				names[j] = o.Name
			}
			return nil, boardWords.Illegal("options", "refusal.no_option", info.Name, name, strings.Join(names, ", "))
		}
		spec := info.Options[i]
		value = strings.ToLower(strings.TrimSpace(value))
		if spec.Values != nil && !slices.Contains(spec.Values, value) {
			return nil, boardWords.Illegal("options", "refusal.option_value", name, strings.Join(spec.Values, ", "), value)
		}
		out[name] = value
	}
	for _, spec := range info.Options {
		if _, ok := out[spec.Name]; !ok {
			out[spec.Name] = spec.Default
		}
	}
	return out, nil
}

func (a adapter[S, M, E]) Setup(opts Options, players []string, r *rand.Rand) ([]RawEvent, error) {
	info := a.rules.Info()
	if len(players) < info.MinSeats || len(players) > info.MaxSeats {
		return nil, boardWords.Illegal("players", "refusal.players", len(players), info.Name, info.MinSeats, info.MaxSeats)
	}
	opts, err := a.Options(opts)
	if err != nil {
		return nil, err
	}
	evs, err := a.rules.Setup(opts, players, r)
	if err != nil {
		return nil, err
	}
	return encode(evs)
}

func (a adapter[S, M, E]) state(s State) S {
	st, ok := s.(S)
	if !ok {
		panic(fmt.Sprintf("games: %s engine given a state of type %T", a.rules.Info().ID, s))
	}
	return st
}

func (a adapter[S, M, E]) Evolve(s State, raw RawEvent) (State, error) {
	e, err := decode[E](raw)
	if err != nil {
		return s, err
	}
	return a.rules.Evolve(a.state(s), e), nil
}

func (a adapter[S, M, E]) Fixed(s State, raw RawEvent) (bool, error) {
	tb, ok := a.rules.(TakeBacks[S, E])
	if !ok {
		return true, nil
	}
	e, err := decode[E](raw)
	if err != nil {
		return true, err
	}
	return tb.Fixed(a.state(s), e), nil
}

func (a adapter[S, M, E]) TakeBackRule() string {
	if tb, ok := a.rules.(TakeBacks[S, E]); ok {
		return tb.TakeBackRule()
	}
	return ""
}

func (a adapter[S, M, E]) Decide(s State, seat Seat, move string, r *rand.Rand) ([]RawEvent, error) {
	st := a.state(s)
	m, err := a.rules.Parse(st, a.Words().ReadMove(move))
	if err != nil {
		return nil, err
	}
	evs, err := a.rules.Decide(st, seat, m, r)
	if err != nil {
		return nil, err
	}
	return encode(evs)
}

// Suggest adds to a refusal of move the legal move of seat closest to it
// (a person's refused move: looking through every legal move costs more
// than deciding, so Decide leaves it to the command side).
func (a adapter[S, M, E]) Suggest(s State, seat Seat, move string, err error) error {
	re, ok := AsRuleError(err)
	if !ok {
		return err
	}
	st := a.state(s)
	out := *re
	out.Notation = a.Words()
	out.Suggest = closest(FoldWord(out.Notation.ReadMove(move)), a.rules.Legal(st, seat))
	return &out
}

// maxSuggestFrom bounds the legal moves a refusal looks through for the
// closest one.
const maxSuggestFrom = 2000

// closest is the legal move nearest to move by edit distance ("" when
// there is none, or too many to look through).
func closest(move string, legal []string) string {
	if len(legal) == 0 || len(legal) > maxSuggestFrom {
		return ""
	}
	shape, numbers := numberShape(move)
	best, bestD, bestN := "", -1, 0
	for _, l := range legal {
		// Words first (the move's shape, its numbers left out), then how
		// far its numbers are: "bid 1" against a bid of 31 is nearest to
		// "bid 32", not to "bid 41".
		lShape, lNumbers := numberShape(FoldWord(l))
		d, n := editDistance(shape, lShape), numberDistance(numbers, lNumbers)
		if bestD < 0 || d < bestD || d == bestD && n < bestN {
			best, bestD, bestN = l, d, n
		}
	}
	return best
}

// numberShape is a move with each number written # and its numbers.
func numberShape(move string) (string, []int) {
	fields := strings.Fields(move)
	var numbers []int
	for i, f := range fields {
		if n, err := strconv.Atoi(f); err == nil {
			numbers = append(numbers, n)
			fields[i] = "#"
		}
	}
	return strings.Join(fields, " "), numbers
}

// numberDistance is how far two moves' numbers are, in order (a number
// one of them lacks counts as far).
func numberDistance(a, b []int) int {
	const far = 1 << 20
	d := 0
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) {
			d += far
			continue
		}
		d += min(far, max(a[i]-b[i], b[i]-a[i]))
	}
	return d
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func (a adapter[S, M, E]) Resign(s State, seat Seat, r *rand.Rand) ([]RawEvent, error) {
	evs, err := a.rules.Resign(a.state(s), seat, r)
	if err != nil {
		return nil, err
	}
	return encode(evs)
}

func (a adapter[S, M, E]) Canonical(s State, move string) (string, error) {
	st := a.state(s)
	m, err := a.rules.Parse(st, a.Words().ReadMove(move))
	if err != nil {
		return "", err
	}
	return a.rules.Format(st, m), nil
}

func (a adapter[S, M, E]) Pending(s State) []Pending { return a.rules.Pending(a.state(s)) }

func (a adapter[S, M, E]) Legal(s State, seat Seat) []string {
	return a.rules.Legal(a.state(s), seat)
}

func (a adapter[S, M, E]) Choices(s State, seat Seat) []string {
	return a.rules.Choices(a.state(s), seat)
}

func (a adapter[S, M, E]) View(s State, seat Seat) (json.RawMessage, error) {
	b, err := json.Marshal(a.rules.View(a.state(s), seat))
	if err != nil {
		return nil, fmt.Errorf("encode %s view: %w", a.rules.Info().ID, err)
	}
	return b, nil
}

func (a adapter[S, M, E]) Redact(s State, raw RawEvent, seat Seat) (RawEvent, error) {
	e, err := decode[E](raw)
	if err != nil {
		return RawEvent{}, err
	}
	out, err := encode([]E{a.rules.Redact(a.state(s), e, seat)})
	if err != nil {
		return RawEvent{}, err
	}
	return out[0], nil
}

func (a adapter[S, M, E]) Describe(s State, raw RawEvent, seat Seat) (Phrase, error) {
	e, err := decode[E](raw)
	if err != nil {
		return Phrase{}, err
	}
	return a.rules.Describe(a.state(s), e, seat), nil
}

func (a adapter[S, M, E]) Result(s State) Result { return a.rules.Result(a.state(s)) }

func (a adapter[S, M, E]) Players(s State) []string { return a.rules.Players(a.state(s)) }

func (a adapter[S, M, E]) Board(view json.RawMessage) (Board, error) {
	b, ok := a.rules.(Boards)
	if !ok {
		return Board{}, ErrNoBoard
	}
	board, err := b.Board(view)
	if err != nil {
		return Board{}, fmt.Errorf("the %s board: %w", a.rules.Info().ID, err)
	}
	return board, nil
}

func (a adapter[S, M, E]) Words() *Catalog {
	if b, ok := a.rules.(Boards); ok {
		return b.Words()
	}
	return boardWords
}

func encode[E Event](evs []E) ([]RawEvent, error) {
	out := make([]RawEvent, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encode event %s: %w", e.EventType(), err)
		}
		out[i] = RawEvent{Type: e.EventType(), Data: b}
	}
	return out, nil
}

func decode[E Event](raw RawEvent) (E, error) {
	var e E
	if err := json.Unmarshal(raw.Data, &e); err != nil {
		return e, fmt.Errorf("decode event %s: %w", raw.Type, err)
	}
	if e.EventType() != raw.Type {
		return e, fmt.Errorf("decode event: stored type %q but data says %q", raw.Type, e.EventType())
	}
	return e, nil
}

// Fold applies events in order to the engine's initial state under rules
// version rules.
func Fold(eng Engine, rules int, evs []RawEvent) (State, error) {
	s, err := eng.Initial(rules)
	if err != nil {
		return nil, err
	}
	for i, e := range evs {
		if s, err = eng.Evolve(s, e); err != nil {
			return nil, fmt.Errorf("fold event %d: %w", i+1, err)
		}
	}
	return s, nil
}

package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/courrier-games/courrier/games"
)

// Twin wraps an engine so that the game it plays is another world that the
// player named observer cannot tell from the one the engine alone would
// play: every event the engine emits (setup, moves, resignations) that
// hides something from the observer's seat has one hidden value replaced,
// or two hidden values swapped, whenever that changes nothing the
// observer's seat is shown (its redaction and description of each event,
// and after it its view, legal moves, numbered choices, everyone's pending
// entries, the players and the result). A server that serves the observer
// one byte differently in the two worlds tells them apart, so it leaks.
//
// One Twin plays one game at a time (it keeps that game's events to fold
// candidates from); pick chooses among the candidates.
type Twin struct {
	games.Engine
	observer string

	mu      sync.Mutex
	pick    *rand.Rand
	history []games.RawEvent
	last    int // how many events the last emission appended
	changed int
	errs    []string
}

// NewTwin wraps eng for a game in which observer is a player's name.
func NewTwin(eng games.Engine, observer string, pick *rand.Rand) *Twin {
	return &Twin{Engine: eng, observer: observer, pick: pick}
}

// Changed is how many emitted events the twin altered so far: a test
// checks that the two worlds really differ.
func (w *Twin) Changed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// Errors lists what went wrong keeping the twin's history in step with
// the game (none in a sound test).
func (w *Twin) Errors() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.errs)
}

// Setup implements games.Engine: the twin of the engine's setup.
func (w *Twin) Setup(opts games.Options, players []string, r *rand.Rand) ([]games.RawEvent, error) {
	evs, err := w.Engine.Setup(opts, players, r)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.history = nil
	out := w.twin(evs)
	w.history = slices.Clone(out)
	w.last = len(out)
	return out, nil
}

// Decide implements games.Engine: the twin of the engine's decision.
func (w *Twin) Decide(s games.State, seat games.Seat, move string, r *rand.Rand) ([]games.RawEvent, error) {
	evs, err := w.Engine.Decide(s, seat, move, r)
	if err != nil {
		return nil, err
	}
	return w.emit(s, evs), nil
}

// Resign implements games.Engine: the twin of the engine's resignation.
func (w *Twin) Resign(s games.State, seat games.Seat, r *rand.Rand) ([]games.RawEvent, error) {
	evs, err := w.Engine.Resign(s, seat, r)
	if err != nil {
		return nil, err
	}
	return w.emit(s, evs), nil
}

// emit twins evs, decided on s, after bringing the history in step with s:
// an emission that was not committed (a command retried) is dropped.
func (w *Twin) emit(s games.State, evs []games.RawEvent) []games.RawEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.matches(w.history, s) {
		prev := w.history[:len(w.history)-w.last]
		if !w.matches(prev, s) {
			w.errs = append(w.errs, fmt.Sprintf("the twin's %d events are not the game's state", len(w.history)))
			return evs
		}
		w.history = slices.Clone(prev)
	}
	out := w.twin(evs)
	w.history = append(w.history, out...)
	w.last = len(out)
	return out
}

// matches reports whether folding history gives a state that shows every
// seat what s shows it.
func (w *Twin) matches(history []games.RawEvent, s games.State) bool {
	st, err := w.fold(history)
	if err != nil {
		return false
	}
	return w.shows(st, s, -1) == ""
}

func (w *Twin) fold(history []games.RawEvent) (games.State, error) {
	st, err := w.Initial(w.Info().Rules)
	if err != nil {
		return nil, err
	}
	for _, e := range history {
		if st, err = w.Evolve(st, e); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// observerSeat is the observer's seat in st (games.Spectator before the
// setup).
func (w *Twin) observerSeat(st games.State) games.Seat {
	if i := slices.Index(w.Players(st), w.observer); i >= 0 {
		return games.Seat(i)
	}
	return games.Spectator
}

// shows compares what a and b show seat (every seat when seat < 0): ""
// when nothing differs, else what does.
func (w *Twin) shows(a, b games.State, seat games.Seat) string {
	if !slices.Equal(w.Players(a), w.Players(b)) {
		return "players"
	}
	if fmt.Sprint(w.Pending(a)) != fmt.Sprint(w.Pending(b)) {
		return "pending"
	}
	if fmt.Sprint(w.Result(a)) != fmt.Sprint(w.Result(b)) {
		return "result"
	}
	seats := []games.Seat{seat}
	if seat < 0 {
		seats = nil
		for i := range w.Players(a) {
			seats = append(seats, games.Seat(i))
		}
	}
	for _, st := range seats {
		va, errA := w.View(a, st)
		vb, errB := w.View(b, st)
		if errA != nil || errB != nil || !bytes.Equal(va, vb) {
			return fmt.Sprintf("view of seat %d", st)
		}
		if !slices.Equal(w.Legal(a, st), w.Legal(b, st)) || !slices.Equal(w.Choices(a, st), w.Choices(b, st)) {
			return fmt.Sprintf("moves of seat %d", st)
		}
	}
	return ""
}

// twin returns evs, emitted after w.history, with each event that hides
// something from the observer altered where the observer cannot tell.
func (w *Twin) twin(evs []games.RawEvent) []games.RawEvent {
	out := slices.Clone(evs)
	for i := range out {
		if alt, ok := w.alter(out, i); ok {
			out[i] = alt
			w.changed++
		}
	}
	return out
}

// maxCandidates bounds the alterations tried per event.
const maxCandidates = 60

// alter looks for an alteration of evs[i] that the observer cannot tell
// from it, given w.history and evs[:i] before it and evs[i+1:] after.
func (w *Twin) alter(evs []games.RawEvent, i int) (games.RawEvent, bool) {
	base := append(slices.Clone(w.history), evs[:i]...)
	st, err := w.fold(base)
	if err != nil {
		return evs[i], false
	}
	after, err := w.fold(append(slices.Clone(base), evs[i:]...))
	if err != nil {
		return evs[i], false
	}
	seat := w.observerSeat(after)
	if seat == games.Spectator {
		return evs[i], false
	}
	red, err := w.Redact(st, evs[i], seat)
	if err != nil {
		return evs[i], false
	}
	full, err1 := leaves(evs[i].Data)
	shown, err2 := leaves(red.Data)
	if err1 != nil || err2 != nil {
		return evs[i], false
	}
	var hidden []string
	for p, v := range full {
		if sv, ok := shown[p]; !ok || sv != v {
			hidden = append(hidden, p)
		}
	}
	if len(hidden) == 0 {
		return evs[i], false
	}
	sort.Strings(hidden)
	domain := map[string][]string{}
	for _, e := range append(slices.Clone(base), evs...) {
		ls, err := leaves(e.Data)
		if err != nil {
			continue
		}
		for p, v := range ls {
			sh := shape(p)
			if !slices.Contains(domain[sh], v) {
				domain[sh] = append(domain[sh], v)
			}
		}
	}
	type change struct{ p, q, v string } // q != "": swap p and q
	var cands []change
	for k, p := range hidden {
		for _, v := range domain[shape(p)] {
			if v != full[p] && sameKind(v, full[p]) {
				cands = append(cands, change{p: p, v: v})
			}
		}
		for _, q := range hidden[k+1:] {
			if full[p] != full[q] && sameKind(full[p], full[q]) {
				cands = append(cands, change{p: p, q: q})
			}
		}
	}
	w.pick.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
	for _, c := range cands[:min(len(cands), maxCandidates)] {
		set := map[string]string{c.p: c.v}
		if c.q != "" {
			set = map[string]string{c.p: full[c.q], c.q: full[c.p]}
		}
		data, err := rewrite(evs[i].Data, set)
		if err != nil {
			continue
		}
		alt := games.RawEvent{Type: evs[i].Type, Data: data}
		if w.indistinguishable(base, evs, i, alt, seat) {
			return alt, true
		}
	}
	return evs[i], false
}

// indistinguishable reports whether playing alt instead of evs[i] (and the
// rest of evs after it) shows seat exactly what evs shows it.
func (w *Twin) indistinguishable(base, evs []games.RawEvent, i int, alt games.RawEvent, seat games.Seat) (ok bool) {
	defer func() {
		if recover() != nil { // an alteration the engine cannot fold
			ok = false
		}
	}()
	a, errA := w.fold(base)
	b, errB := w.fold(base)
	if errA != nil || errB != nil {
		return false
	}
	for k := i; k < len(evs); k++ {
		ea, eb := evs[k], evs[k]
		if k == i {
			eb = alt
		}
		ra, err1 := w.Redact(a, ea, seat)
		rb, err2 := w.Redact(b, eb, seat)
		if err1 != nil || err2 != nil || ra.Type != rb.Type || !sameJSON(ra.Data, rb.Data) {
			return false
		}
		da, err1 := w.Describe(a, ea, seat)
		db, err2 := w.Describe(b, eb, seat)
		if err1 != nil || err2 != nil || !samePhrase(da, db) {
			return false
		}
		var err error
		if a, err = w.Evolve(a, ea); err != nil {
			return false
		}
		if b, err = w.Evolve(b, eb); err != nil {
			return false
		}
		if w.shows(a, b, seat) != "" {
			return false
		}
	}
	return true
}

// leaves flattens a JSON document into its scalar leaves by path
// ("a.b[2].c"), each value in its JSON text.
func leaves(doc json.RawMessage) (map[string]string, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(p+"."+k, c)
			}
		case []any:
			for k, c := range x {
				walk(p+"["+strconv.Itoa(k)+"]", c)
			}
		default:
			b, _ := json.Marshal(x) // a decoded scalar always encodes
			out[p] = string(b)
		}
	}
	walk("", v)
	return out, nil
}

// shape is a leaf's path with its indices dropped: the leaves of one
// shape hold values of one kind (cards of a hand, seats of a list).
func shape(p string) string {
	var b strings.Builder
	skip := false
	for _, r := range p {
		switch {
		case r == '[':
			skip = true
			b.WriteString("[]")
		case r == ']':
			skip = false
		case !skip:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sameKind reports whether two JSON scalars are of one kind.
func sameKind(a, b string) bool {
	kind := func(s string) byte {
		switch {
		case s == "null":
			return 'n'
		case s == "true" || s == "false":
			return 'b'
		case strings.HasPrefix(s, `"`):
			return 's'
		default:
			return '0'
		}
	}
	return kind(a) == kind(b)
}

// rewrite sets the leaves named in set (path → JSON value) in doc.
func rewrite(doc json.RawMessage, set map[string]string) (json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var walk func(p string, v any) any
	walk = func(p string, v any) any {
		if nv, ok := set[p]; ok {
			var x any
			dd := json.NewDecoder(strings.NewReader(nv))
			dd.UseNumber()
			if err := dd.Decode(&x); err == nil {
				return x
			}
		}
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				x[k] = walk(p+"."+k, c)
			}
		case []any:
			for k, c := range x {
				x[k] = walk(p+"["+strconv.Itoa(k)+"]", c)
			}
		}
		return v
	}
	return json.Marshal(walk("", v))
}

// sameJSON reports whether two JSON documents hold the same value.
func sameJSON(a, b json.RawMessage) bool {
	canon := func(doc json.RawMessage) ([]byte, error) {
		d := json.NewDecoder(bytes.NewReader(doc))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	ca, err1 := canon(a)
	cb, err2 := canon(b)
	if err1 != nil || err2 != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca, cb)
}

// samePhrase reports whether a and b say the same in every language.
func samePhrase(a, b games.Phrase) bool {
	for _, l := range games.Languages() {
		if a.In(l) != b.In(l) {
			return false
		}
	}
	return true
}

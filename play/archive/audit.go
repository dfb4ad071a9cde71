package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// An audit re-derives a game from its log: it checks the seed against the
// commitment published at creation, re-runs the setup and every move, timeout
// default and resignation from its recorded text with the generator of its
// version, compares what that produces with the recorded events, folds the
// stream, and checks the result the end recorded. The same walk checks a game
// from the database (play.Archive.AuditGame, which also verifies the hash
// chain) and from an exported record with no database (VerifyRecord).

// AuditReport is the outcome of an audit: whether the game passed, the first
// bad version when not, every problem found, and each move with who made it,
// when, through which channel and what the mover could see.
type AuditReport struct {
	Game       string        `json:"game"`
	Kind       string        `json:"kind"`
	Players    []string      `json:"players"`
	Commitment string        `json:"seed_sha256"`
	Seed       string        `json:"seed,omitempty"` // revealed at the end
	Version    int           `json:"version"`
	Ended      bool          `json:"ended"`
	Result     *games.Result `json:"result,omitempty"`
	Passed     bool          `json:"passed"`
	// FirstBad is the first version a problem was found at (0: none).
	FirstBad int `json:"first_bad,omitempty"`
	// Checked says what the audit checked; Unchecked what it could not
	// (phrases of archive's catalog, said in the reader's language).
	Checked   []games.Phrase `json:"checked"`
	Unchecked []games.Phrase `json:"unchecked,omitempty"`
	Problems  []AuditProblem `json:"problems"`
	Moves     []AuditedMove  `json:"moves"`
	Disputes  []Dispute      `json:"disputes"`
	// TakeBacks lists the take-back requests, their answers and outcomes.
	TakeBacks []TakeBack `json:"takebacks"`
}

// AuditProblem is one discrepancy: the version it is at and what is wrong
// (a phrase of archive's catalog).
type AuditProblem struct {
	Version int          `json:"version"`
	What    games.Phrase `json:"what"`
}

// AuditedMove is one decision recorded in the log: a player's move line, a
// resignation or the default played at a deadline, with the versions of the
// events it produced.
type AuditedMove struct {
	From    int       `json:"from"` // first event version it produced
	To      int       `json:"to"`   // last event version it produced
	Seat    int       `json:"seat"`
	Player  string    `json:"player"`
	At      time.Time `json:"at"`
	Channel string    `json:"channel"` // api, email, cli, or "timeout default"
	// RequestID is the API request that made it; MessageID and MailAuth
	// the mail that carried it and its authentication result (DKIM, SPF).
	RequestID string `json:"request_id,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	MailAuth  string `json:"mail_auth,omitempty"`
	Move      string `json:"move"`
	// Saw is the mover's view of the game when the move was decided.
	Saw json.RawMessage `json:"saw,omitempty"`
	// Said is what the move did, in plain words, as anyone at the table
	// learnt it.
	Said []games.Phrase `json:"said"`
	OK   bool           `json:"ok"`
}

// MailContext is what the log keeps outside its hashed meta about the mail
// that carried a command: its Message-ID and authentication result.
type MailContext struct {
	MessageID string
	MailAuth  string
}

// AuditInput is a game's log and what else an audit may use.
type AuditInput struct {
	GameID   string
	Recorded []events.Recorded
	// Seed is the game's seed, when the auditor holds it (the operator, or
	// anyone after the end, when the Ended event reveals it). Without it the
	// random outcomes cannot be re-run and only legality is checked.
	Seed *games.Seed
	// Mail holds the mail context of commands by their first version.
	Mail map[int]MailContext
	// Chain says the hash chain was verified (by the caller, who holds the
	// stored content); ChainError is the break it found.
	Chain      bool
	ChainError *events.ChainError
	// SeedError says why the caller could not open the seed it holds.
	SeedError string
}

// Audit re-derives a game from its log, folding it with newFold; see the
// comment above. It never fails: a log it cannot fold is a problem at that
// version.
func Audit(newFold Folder, in AuditInput) *AuditReport {
	a := &auditor{in: in, f: newFold(in.GameID), cur: -1,
		rep: &AuditReport{Game: in.GameID, Problems: []AuditProblem{}, Moves: []AuditedMove{}, Disputes: []Dispute{}, TakeBacks: []TakeBack{}}}
	a.run()
	return a.rep
}

type auditor struct {
	in   AuditInput
	f    Fold
	rep  *AuditReport
	seed *games.Seed
	// cur is the index in rep.Moves of the decision being checked (-1:
	// none), whose events' sentences are collected as they are folded.
	cur int
	// mail is the mail context of the last command that had one, and the
	// request id of that command: its later move lines came in the same
	// mail.
	mail        MailContext
	mailRequest string
}

// fold folds one recorded event, noting what it did in the current
// decision's report line.
func (a *auditor) fold(e events.Recorded) error {
	g := a.f.Game()
	if a.cur >= 0 && g.State != nil && strings.HasPrefix(e.Type, g.Kind+".") {
		if c, err := a.f.Describe(e, games.Spectator); err == nil && !c.Text.IsZero() {
			a.rep.Moves[a.cur].Said = append(a.rep.Moves[a.cur].Said, c.Text)
		}
	}
	return a.f.Apply(e)
}

// problem notes a problem at version: archive's message key with args.
func (a *auditor) problem(version int, key string, args ...any) {
	a.problemSaid(version, words.Phrase(key, args...))
}

// problemSaid notes a problem at version, said by what.
func (a *auditor) problemSaid(version int, what games.Phrase) {
	a.rep.Problems = append(a.rep.Problems, AuditProblem{Version: version, What: what})
	if a.rep.FirstBad == 0 || version < a.rep.FirstBad {
		a.rep.FirstBad = version
	}
}

// problemError is an error of a step that says itself as a problem.
type problemError struct{ what games.Phrase }

func (e *problemError) Error() string { return e.what.In(games.English) }

// foldProblem says the error err of a step as a problem: its own phrase,
// or "the log cannot be folded here" with err's words.
func foldProblem(err error) games.Phrase {
	if pe, ok := errors.AsType[*problemError](err); ok {
		return pe.what
	}
	return words.Phrase("problem.fold", explained(err))
}

func (a *auditor) run() {
	rec := a.in.Recorded
	rep := a.rep
	if a.in.Chain {
		rep.Checked = append(rep.Checked, words.Phrase("checked.chain"))
		if ce := a.in.ChainError; ce != nil {
			// events.VerifyStream breaks a chain at a missing version or at
			// an event whose content or predecessor was altered.
			key := "problem.chain_altered"
			if !slices.ContainsFunc(rec, func(e events.Recorded) bool { return e.Version == ce.Version }) {
				key = "problem.chain_missing"
			}
			a.problem(ce.Version, key)
		}
	} else {
		rep.Unchecked = append(rep.Unchecked, words.Phrase("unchecked.chain"))
	}
	a.seed = a.in.Seed
	if a.seed == nil {
		a.seed = revealedSeed(rec)
	}
	if a.seed != nil {
		rep.Checked = append(rep.Checked, words.Phrase("checked.seed"), words.Phrase("checked.random"))
	} else {
		why := games.T("unchecked.seed_secret")
		if a.in.SeedError != "" {
			why = games.T("unchecked.seed_unopened", a.in.SeedError)
		}
		rep.Unchecked = append(rep.Unchecked, words.Phrase("unchecked.random", why))
	}
	rep.Checked = append(rep.Checked, words.Phrase("checked.moves"), words.Phrase("checked.fold"), words.Phrase("checked.result"))
	for i := 0; i < len(rec); {
		e := rec[i]
		if e.Version != i+1 {
			a.problem(i+1, "problem.missing_version", i+1, e.Version)
			break
		}
		n, err := a.step(rec[i:])
		if err != nil {
			a.problemSaid(e.Version, foldProblem(err))
			break
		}
		i += n
	}
	g := a.f.Game()
	rep.Kind, rep.Commitment, rep.Version, rep.Ended = g.Kind, g.Commitment, g.Version, g.Ended
	if g.Started {
		rep.Players = g.Engine.Players(g.State)
	}
	if g.Ended && a.seed != nil {
		rep.Seed = a.seed.String()
	}
	if g.Result != nil {
		r := *g.Result
		rep.Result = &r
	}
	if ds := a.f.Disputes(); ds != nil {
		rep.Disputes = ds
	}
	if tbs := a.f.TakeBacks(); tbs != nil {
		rep.TakeBacks = tbs
	}
	slices.SortFunc(rep.Problems, func(x, y AuditProblem) int { return x.Version - y.Version })
	rep.Passed = len(rep.Problems) == 0
}

// step checks the decision that begins at rec[0] and folds its events; it
// returns how many events it consumed.
func (a *auditor) step(rec []events.Recorded) (int, error) {
	e := rec[0]
	meta := decodeMeta(e.Meta)
	switch kind := a.f.Game().Kind; {
	case e.Type == TypeCreated:
		if err := a.fold(e); err != nil {
			return 0, err
		}
		if g := a.f.Game(); a.seed != nil && a.seed.Commitment() != g.Commitment {
			a.problem(e.Version, "problem.seed_commitment", a.seed.Commitment(), g.Commitment)
		}
		return 1, nil
	case e.Type == TypeStarted:
		if err := a.fold(e); err != nil {
			return 0, err
		}
		g := a.f.Game()
		n := countGameEvents(g.Kind, rec[1:], func(m events.Meta) bool { return m.Move == "" && m.Seat == nil })
		if a.seed == nil {
			return 1 + n, a.applyAll(rec[1 : 1+n])
		}
		want, err := g.Engine.Setup(g.Options, a.f.Joined(), a.seed.Rand(g.Version))
		if err != nil {
			return 0, &problemError{what: words.Phrase("problem.setup", explained(err))}
		}
		return 1 + a.compare(rec[1:], want, "", nil, games.T("what.setup")), nil
	case e.Type == TypeResigned:
		if err := a.fold(e); err != nil {
			return 0, err
		}
		var r resigned
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return 0, fmt.Errorf("decode %s: %w", e.Type, err)
		}
		mv := a.move(e, r.Seat, "resign", meta)
		var want []games.RawEvent
		if a.seed != nil {
			var err error
			g := a.f.Game()
			if want, err = g.Engine.Resign(g.State, r.Seat, a.seed.Rand(g.Version)); err != nil {
				a.problem(e.Version, "problem.resign_refused", int(r.Seat), explained(err))
			}
		}
		seatNo := int(r.Seat)
		n := a.compareOrApply(rec[1:], want, "resign", &seatNo, games.T("what.resignation"))
		a.finishMove(mv, e.Version+n)
		return 1 + n, nil
	case e.Type == TypeEnded:
		a.checkEnd(e)
		return 1, a.fold(e)
	case strings.HasPrefix(e.Type, kind+".") && kind != "":
		return a.gameMove(rec, meta)
	default:
		if g := a.f.Game(); e.Type == TypeTimedOut && g.Started {
			var to timedOut
			if err := json.Unmarshal(e.Data, &to); err == nil {
				id := games.PendingID{Seat: to.Seat, Kind: to.Kind, Since: to.Since}
				if !slices.ContainsFunc(g.Pending, func(p games.Pending) bool { return p.ID() == id }) {
					a.problem(e.Version, "problem.deadline_not_pending", int(to.Seat), to.Kind, to.Since)
				}
			}
		}
		return 1, a.fold(e)
	}
}

// gameMove checks one move line (a player's, or a default at a deadline):
// the seat had something to decide, the line is legal, and deciding it with
// the generator of its version produces exactly the recorded events.
func (a *auditor) gameMove(rec []events.Recorded, meta events.Meta) (int, error) {
	g, e := a.f.Game(), rec[0]
	if meta.Seat == nil || meta.Move == "" {
		a.problem(e.Version, "problem.no_move", e.Type)
		return 1, a.fold(e)
	}
	seat := games.Seat(*meta.Seat)
	mv := a.move(e, seat, meta.Move, meta)
	cur := &a.rep.Moves[mv]
	if !slices.ContainsFunc(g.Pending, func(p games.Pending) bool { return p.Seat == seat }) {
		a.problem(e.Version, "problem.nothing_to_decide", int(seat), moveSaid(g, meta.Move))
	}
	if meta.Channel == ChannelSystem {
		cur.Channel = "timeout default"
		if !slices.ContainsFunc(g.Pending, func(p games.Pending) bool { return p.Seat == seat && p.Default == meta.Move }) {
			a.problem(e.Version, "problem.not_default", moveSaid(g, meta.Move), int(seat))
		}
	}
	var want []games.RawEvent
	r := games.Seed{}.Rand(g.Version) // legality only, when the seed is secret
	if a.seed != nil {
		r = a.seed.Rand(g.Version)
	}
	want, err := g.Engine.Decide(g.State, seat, meta.Move, r)
	if err != nil {
		a.problem(e.Version, "problem.illegal", int(seat), moveSaid(g, meta.Move), explained(err))
		want = nil
	}
	if a.seed == nil {
		want = nil
	}
	n := a.compareOrApply(rec, want, meta.Move, meta.Seat, games.T("what.move", int(seat), moveSaid(g, meta.Move)))
	if n == 0 {
		a.problem(e.Version, "problem.no_event", int(seat), moveSaid(g, meta.Move), e.Type)
		if err := a.fold(e); err != nil {
			return 0, err
		}
		n = 1
	}
	a.finishMove(mv, e.Version+n-1)
	return n, nil
}

// compareOrApply compares the recorded events from rec[0] with want when
// known, else applies the recorded events of the same move.
func (a *auditor) compareOrApply(rec []events.Recorded, want []games.RawEvent, move string, seat *int, what games.Text) int {
	if want != nil {
		return a.compare(rec, want, move, seat, what)
	}
	n := countGameEvents(a.f.Game().Kind, rec, func(m events.Meta) bool { return m.Move == move && sameSeat(m.Seat, seat) })
	if err := a.applyAll(rec[:n]); err != nil {
		a.problemSaid(rec[0].Version, foldProblem(err))
	}
	return n
}

// compare checks that rec begins with want (the game's own events, with the
// given move text and seat in their meta) and folds the recorded events. It
// returns how many it consumed: len(want), or fewer when the log has fewer.
// What says what is compared (archive's text).
func (a *auditor) compare(rec []events.Recorded, want []games.RawEvent, move string, seat *int, what games.Text) int {
	kind := a.f.Game().Kind
	n := 0
	for i, w := range want {
		if i >= len(rec) {
			a.problem(a.f.Game().Version+1, "problem.log_ends", what, len(want), i)
			break
		}
		got := rec[i]
		typ := kind + "." + w.Type
		m := decodeMeta(got.Meta)
		switch {
		case got.Type != typ:
			a.problem(got.Version, "problem.other_type", what, typ, got.Type)
		case !jsonSame(got.Data, w.Data):
			a.problem(got.Version, "problem.other_data", what, typ)
		case m.Move != move || !sameSeat(m.Seat, seat):
			a.problem(got.Version, "problem.other_meta", got.Type, what)
		}
		if err := a.fold(got); err != nil {
			a.problemSaid(got.Version, foldProblem(err))
			return n + 1
		}
		n++
	}
	return n
}

func (a *auditor) applyAll(rec []events.Recorded) error {
	for _, e := range rec {
		if err := a.fold(e); err != nil {
			return fmt.Errorf("version %d: %w", e.Version, err)
		}
	}
	return nil
}

// move starts the report line of a decision that begins at event e.
func (a *auditor) move(e events.Recorded, seat games.Seat, text string, meta events.Meta) int {
	g := a.f.Game()
	mv := &AuditedMove{From: e.Version, Seat: int(seat), Player: g.nameOf(seat), At: e.RecordedAt,
		Channel: meta.Channel, RequestID: meta.RequestID, Move: text}
	if mc, ok := a.in.Mail[e.Version]; ok {
		mv.MessageID, mv.MailAuth = mc.MessageID, mc.MailAuth
		a.mail, a.mailRequest = mc, meta.RequestID
	} else if meta.RequestID != "" && meta.RequestID == a.mailRequest {
		// A later line of the same mail (its context is kept once, at the
		// command's first event).
		mv.MessageID, mv.MailAuth = a.mail.MessageID, a.mail.MailAuth
	}
	if g.State != nil {
		if v, err := g.Engine.View(g.State, seat); err == nil {
			mv.Saw = v
		}
	}
	mv.OK = true
	a.rep.Moves = append(a.rep.Moves, *mv)
	a.cur = len(a.rep.Moves) - 1
	return a.cur
}

// finishMove completes the report line of the decision whose last event is
// version to: what it did, and whether any problem fell in its range.
func (a *auditor) finishMove(i, to int) {
	mv := &a.rep.Moves[i]
	mv.To = max(to, mv.From)
	for _, p := range a.rep.Problems {
		if p.Version >= mv.From && p.Version <= mv.To {
			mv.OK = false
		}
	}
	a.cur = -1
}

// checkEnd checks the Ended event: its seed against the commitment and the
// auditor's seed, and its result against the rules' (or a claim's
// conditions).
func (a *auditor) checkEnd(e events.Recorded) {
	g := a.f.Game()
	var en ended
	if err := json.Unmarshal(e.Data, &en); err != nil {
		a.problem(e.Version, "problem.end_unreadable", err.Error())
		return
	}
	sd, err := games.ParseSeed(en.Seed)
	switch {
	case err != nil:
		a.problem(e.Version, "problem.revealed_not_seed", err.Error())
	case sd.Commitment() != g.Commitment:
		a.problem(e.Version, "problem.revealed_not_committed")
	case a.seed != nil && *a.seed != sd:
		a.problem(e.Version, "problem.revealed_not_games")
	}
	if !g.Started {
		a.problem(e.Version, "problem.ended_unstarted")
		return
	}
	res := g.Engine.Result(g.State)
	if res.Finished {
		if !reflect.DeepEqual(normalResult(res), normalResult(en.Result)) {
			a.problem(e.Version, "problem.result", en.Result.Summary, res.Summary)
		}
		return
	}
	// Not over by the rules: a claim by the last player still in.
	if len(en.Result.Winners) != 1 {
		a.problem(e.Version, "problem.end_not_claim")
		return
	}
	winner := en.Result.Winners[0]
	for seat := range len(g.players()) {
		s := games.Seat(seat)
		if s != winner && !slices.Contains(g.Resigned, s) && !slices.Contains(g.Abandoned, s) {
			a.problem(e.Version, "problem.claim", int(winner), int(s))
			return
		}
	}
}

func normalResult(r games.Result) games.Result {
	if len(r.Winners) == 0 {
		r.Winners = nil
	}
	if len(r.Scores) == 0 {
		r.Scores = nil
	}
	// A summary is compared in English: an event recorded before courrier
	// spoke French holds it in English only.
	r.Summary = games.Said(r.Summary.In(games.English))
	return r
}

// countGameEvents counts the game events of kind at the start of rec whose
// meta satisfies ok.
func countGameEvents(kind string, rec []events.Recorded, ok func(events.Meta) bool) int {
	n := 0
	for _, e := range rec {
		if !strings.HasPrefix(e.Type, kind+".") || !ok(decodeMeta(e.Meta)) {
			break
		}
		n++
	}
	return n
}

func sameSeat(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// jsonSame reports whether two JSON texts hold the same value (stored
// events come back from jsonb with their keys reordered).
func jsonSame(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// WriteAuditReport writes a report for people: a verdict line, then each
// move with who made it, when, through which channel and what it did, the
// disputes, and every problem. The report is a file for operators and
// archives (courrier audit, courrier verify): it is written in English, its
// format unchanged; a person reads the report in their language on the web
// or in the API's audit body, which say rep's phrases.
func WriteAuditReport(out io.Writer, rep *AuditReport) error {
	w := &strings.Builder{}
	verdict := "PASSED"
	if !rep.Passed {
		verdict = fmt.Sprintf("FAILED at version %d", rep.FirstBad)
	}
	fmt.Fprintf(w, "Audit of game %s (%s), %d events: %s\n", rep.Game, rep.Kind, rep.Version, verdict)
	fmt.Fprintf(w, "Players: %s\n", strings.Join(rep.Players, ", "))
	fmt.Fprintf(w, "Seed commitment: %s\n", rep.Commitment)
	if rep.Seed != "" {
		fmt.Fprintf(w, "Seed: %s\n", rep.Seed)
	}
	if rep.Result != nil {
		fmt.Fprintf(w, "Result: %s\n", rep.Result.Summary)
	}
	fmt.Fprintf(w, "Checked: %s\n", strings.Join(english(rep.Checked), "; "))
	if len(rep.Unchecked) > 0 {
		fmt.Fprintf(w, "Not checked: %s\n", strings.Join(english(rep.Unchecked), "; "))
	}
	fmt.Fprintln(w, "\nMoves:")
	for _, m := range rep.Moves {
		via := m.Channel
		switch {
		case m.MessageID != "":
			// A mail is known by its Message-ID and what checked its sender.
			via += " <" + m.MessageID + ">"
			if m.MailAuth != "" {
				via += " (" + strings.Join(strings.Fields(m.MailAuth), " ") + ")"
			}
		case m.RequestID != "":
			via += " request " + m.RequestID
		}
		mark := "ok"
		if !m.OK {
			mark = "BAD"
		}
		versions := fmt.Sprint(m.From)
		if m.To > m.From {
			versions = fmt.Sprintf("%d-%d", m.From, m.To)
		}
		fmt.Fprintf(w, "  %-7s %s  %s (seat %d) %q via %s  [%s]\n", versions, m.At.UTC().Format(time.RFC3339), m.Player, m.Seat, m.Move, via, mark)
		for _, said := range m.Said {
			if s := said.In(games.English); s != "" {
				fmt.Fprintf(w, "          %s\n", s)
			}
		}
		if len(m.Saw) > 0 {
			fmt.Fprintf(w, "          saw: %s\n", m.Saw)
		}
	}
	if len(rep.Disputes) > 0 {
		fmt.Fprintln(w, "\nDisputes:")
		for _, d := range rep.Disputes {
			fmt.Fprintf(w, "  version %d flagged at version %d by %s: %s\n", d.Move, d.Version, d.By, d.Reason)
			if d.Ruling != nil {
				fmt.Fprintf(w, "    ruling at version %d (%s): %s\n", d.Ruling.Version, d.Ruling.Decision, d.Ruling.Text)
			} else {
				fmt.Fprintln(w, "    no ruling yet")
			}
		}
	}
	if len(rep.TakeBacks) > 0 {
		fmt.Fprintln(w, "\nTake-backs:")
		for _, tb := range rep.TakeBacks {
			fmt.Fprintf(w, "  version %d: %s (seat %d) asks to go back to version %d\n", tb.Version, tb.By, tb.Seat, tb.To)
			for _, an := range tb.Answers {
				word := "refuses"
				if an.Agree {
					word = "agrees"
				}
				fmt.Fprintf(w, "    version %d: %s (seat %d) %s\n", an.Version, an.By, an.Seat, word)
			}
			if tb.Outcome == "" {
				fmt.Fprintln(w, "    open")
			} else {
				fmt.Fprintf(w, "    version %d: %s\n", tb.Closed, tb.Outcome)
			}
		}
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintln(w, "\nProblems:")
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  version %d: %s\n", p.Version, p.What.In(games.English))
		}
	}
	_, err := io.WriteString(out, w.String())
	return err
}

// english says phrases in English: the report file's words.
func english(phrases []games.Phrase) []string {
	out := make([]string, len(phrases))
	for i, p := range phrases {
		out[i] = p.In(games.English)
	}
	return out
}

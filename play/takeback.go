package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/play/archive"
)

// Take-backs by consent (issue 36, item 2). The player who made the last
// move asks to take it back; every other seated player agrees or refuses
// (silence until the deadline refuses); when all agree the game goes on
// from the version before that move. Nothing is rewritten: the request, the
// answers and the take-back are events of the game's stream, and the fold
// re-folds the game's rules state to that version at game.taken_back.
//
// A move may be taken back only while no event since the version before it
// is fixed (games.TakeBacks: a card revealed, a random draw, the end), as
// each game's [HOUSE] rule says; the game's Fixed reads only what every seat
// saw, so a refusal tells nothing of the hidden cards.
//
// While a request is open the game goes on: any move (by anyone, a default
// at a deadline or a resignation included) closes it as overtaken, so the
// take-back never undoes more than the asker's own last move.
const (
	TypeTakeBackAsked    = "game.takeback_asked"
	TypeTakeBackAnswered = "game.takeback_answered"
	TypeTakeBackClosed   = "game.takeback_closed"
	TypeTakenBack        = "game.taken_back"
)

// Outcomes of a take-back request that closed without the take-back.
const (
	TakeBackRefused   = "refused"   // a player refused
	TakeBackExpired   = "expired"   // silence until the deadline
	TakeBackWithdrawn = "withdrawn" // the asker withdrew it
	TakeBackOvertaken = "overtaken" // a move was played meanwhile
	TakeBackEnded     = "ended"     // the game ended meanwhile (a claim)
	// TakeBackTaken is the outcome of a request every other player agreed
	// to (game.taken_back), as the audit lists it.
	TakeBackTaken = "taken_back"
)

// DefaultTakeBackTime is how long the other players have to answer a
// take-back request in a game without deadlines; a game with deadlines
// gives them its turn deadline.
const DefaultTakeBackTime = 24 * time.Hour

// TakeBackAsked is the data of a request: seat asks to go back to version
// To (the version before its last move), answers due by Deadline, of the
// seats Asks (the others still in play, as the decision found them; absent
// in requests recorded before it was: then every other seat that had not
// resigned).
type TakeBackAsked struct {
	Seat     games.Seat   `json:"seat"`
	To       int          `json:"to"`
	Deadline time.Time    `json:"deadline"`
	Asks     []games.Seat `json:"asks"`
}

// TakeBackAnswered is the data of seat's answer to the open request.
type TakeBackAnswered struct {
	Seat  games.Seat `json:"seat"`
	Agree bool       `json:"agree"`
}

// TakeBackClosed is the data of the request of version Asked closing
// without a take-back, for Outcome (TakeBackRefused, …).
type TakeBackClosed struct {
	Asked   int    `json:"asked"`
	Outcome string `json:"outcome"`
}

// TakenBack is the data of the take-back the request of version Asked won:
// the game goes on from version To.
type TakenBack struct {
	Asked int `json:"asked"`
	To    int `json:"to"`
}

// TakeBack is an open take-back request as folded.
type TakeBack struct {
	// Version is the version of the request's event: its identity.
	Version int `json:"version"`
	// Seat asked; By is its player's name.
	Seat games.Seat `json:"seat"`
	By   string     `json:"by"`
	// To is the version the game would go back to.
	To int `json:"to"`
	// Deadline is when silence refuses.
	Deadline time.Time `json:"deadline"`
	// Agreed lists the seats that agreed so far; Waiting those whose
	// answer the request still needs.
	Agreed  []games.Seat `json:"agreed"`
	Waiting []games.Seat `json:"waiting"`
}

// clone is a copy of tb that the table's later folds leave alone.
func (tb *TakeBack) clone() *TakeBack {
	if tb == nil {
		return nil
	}
	c := *tb
	c.Agreed, c.Waiting = slices.Clone(tb.Agreed), slices.Clone(tb.Waiting)
	return &c
}

// rulesEvent is one of the game's own events as the table keeps them, to
// re-fold the rules state at a take-back.
type rulesEvent struct {
	version int
	raw     games.RawEvent
}

// moveMark is the last move a player made (set: there is one that may be
// taken back): its seat, the version before its first event, the version
// of its last event and the transaction that recorded it (the command's
// identity: the events of one command share it, two commands never do).
type moveMark struct {
	set  bool
	seat games.Seat
	from int
	last int
	tx   uint64
}

// noMove is the mark of no move that may be taken back.
var noMove = moveMark{}

// markMove notes a game event made by by at version, recorded by
// transaction tx: the events of one command make one move, so that two
// moves in a row by one seat (even with the same text) are two moves, and
// a take-back undoes the last only.
func (t *Table) markMove(by eventActor, tx uint64, version int) {
	if by.seat == games.Spectator || by.system {
		t.lastMove = noMove
		return
	}
	m := t.lastMove
	if m.set && m.seat == by.seat && m.last == version-1 && m.tx == tx {
		t.lastMove.last = version
		return
	}
	t.lastMove = moveMark{set: true, seat: by.seat, from: version - 1, last: version, tx: tx}
}

// applyTakeBack folds a take-back event recorded at version.
func (t *Table) applyTakeBack(typ string, data []byte, version int, at time.Time) error {
	switch typ {
	case TypeTakeBackAsked:
		var a TakeBackAsked
		if err := json.Unmarshal(data, &a); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		tb := &TakeBack{Version: version, Seat: a.Seat, By: t.nameOf(a.Seat), To: a.To, Deadline: a.Deadline.UTC()}
		if a.Asks != nil {
			tb.Waiting = slices.Clone(a.Asks)
		} else {
			for seat := range games.Seat(t.seatCount()) {
				if seat != a.Seat && !slices.Contains(t.Resigned, seat) {
					tb.Waiting = append(tb.Waiting, seat)
				}
			}
		}
		t.TakeBack = tb
		t.TakeBacks = append(t.TakeBacks, archive.TakeBack{Version: version, Seat: a.Seat, By: tb.By, To: a.To, At: at,
			Answers: []archive.TakeBackAnswer{}})
	case TypeTakeBackAnswered:
		var a TakeBackAnswered
		if err := json.Unmarshal(data, &a); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		if tb := t.TakeBack; tb != nil {
			tb.Waiting = slices.DeleteFunc(tb.Waiting, func(s games.Seat) bool { return s == a.Seat })
			if a.Agree {
				tb.Agreed = append(tb.Agreed, a.Seat)
			}
		}
		if n := len(t.TakeBacks); n > 0 {
			t.TakeBacks[n-1].Answers = append(t.TakeBacks[n-1].Answers,
				archive.TakeBackAnswer{Version: version, Seat: a.Seat, By: t.nameOf(a.Seat), Agree: a.Agree})
		}
	case TypeTakeBackClosed:
		var cl TakeBackClosed
		if err := json.Unmarshal(data, &cl); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		t.TakeBack = nil
		t.closeTakeBack(cl.Outcome, version)
	case TypeTakenBack:
		var tb TakenBack
		if err := json.Unmarshal(data, &tb); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		if err := t.refold(tb.To); err != nil {
			return err
		}
		t.TakeBack, t.lastMove = nil, noMove
		t.closeTakeBack(TakeBackTaken, version)
		// Every entry opens anew at the take-back: new identities, new
		// deadlines, new prompts.
		t.Pending = nil
	}
	return nil
}

// closeTakeBack notes the outcome of the last take-back request.
func (t *Table) closeTakeBack(outcome string, version int) {
	if n := len(t.TakeBacks); n > 0 && t.TakeBacks[n-1].Outcome == "" {
		t.TakeBacks[n-1].Outcome, t.TakeBacks[n-1].Closed = outcome, version
	}
}

// refold folds the game's rules state again from its start up to version
// to, dropping the rules events after it.
func (t *Table) refold(to int) error {
	st, err := t.Engine.Initial(t.Rules)
	if err != nil {
		return err
	}
	n := 0
	for _, e := range t.rulesLog {
		if e.version > to {
			break
		}
		if st, err = t.Engine.Evolve(st, e.raw); err != nil {
			return fmt.Errorf("re-fold to version %d: %w", to, err)
		}
		n++
	}
	t.State, t.rulesLog = st, t.rulesLog[:n:n]
	return nil
}

// fixedSince is the version of the first rules event after version from
// that fixes the game (0 for none), asked of the engine on the state before
// each event.
func (t *Table) fixedSince(from int) (int, error) {
	st, err := t.Engine.Initial(t.Rules)
	if err != nil {
		return 0, err
	}
	for _, e := range t.rulesLog {
		if e.version > from {
			fixed, err := t.Engine.Fixed(st, e.raw)
			if err != nil {
				return 0, err
			}
			if fixed {
				return e.version, nil
			}
		}
		if st, err = t.Engine.Evolve(st, e.raw); err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// askable lists the seats a take-back request by asker, made at at, asks
// to answer: the other seats still in play. A seat that resigned, that the
// game's public board shows out of the game (Area.Out: eliminated, as a
// Coup player with no influence left), or whose player is away at at is
// not asked: its silence would refuse for a player who cannot answer. The
// board read is the spectator's, so who is asked tells nothing hidden.
func (t *Table) askable(asker games.Seat, at time.Time) ([]games.Seat, error) {
	out := map[games.Seat]bool{}
	if t.Engine != nil && t.State != nil {
		view, err := t.Engine.View(t.State, games.Spectator)
		if err != nil {
			return nil, fmt.Errorf("the public view of game %s: %w", t.ID, err)
		}
		board, err := t.Engine.Board(view)
		if err != nil {
			return nil, fmt.Errorf("the public board of game %s: %w", t.ID, err)
		}
		for _, sec := range board.Sections {
			for _, a := range sec.Areas {
				out[a.Seat] = out[a.Seat] || a.Out
			}
		}
	}
	var seats []games.Seat
	for seat := range games.Seat(t.seatCount()) {
		if seat == asker || slices.Contains(t.Resigned, seat) || out[seat] {
			continue
		}
		if _, away := t.awayUntil(seat, at); away {
			continue
		}
		seats = append(seats, seat)
	}
	return seats, nil
}

// takeBackTime is how long the others have to answer a request.
func (t *Table) takeBackTime() time.Duration {
	if d, ok := t.Deadlines["turn"]; ok && d > 0 {
		return d
	}
	return DefaultTakeBackTime
}

// RequestTakeBack asks, for the player user of a running game, to take
// back their last move; expected is the version of the game they saw
// (AnyVersion: as it is now). It is refused when someone else moved last,
// when a request is open, when an event since the move fixed the game
// (naming the game's take-back rule), or when the game is over.
func (s *Service) RequestTakeBack(ctx context.Context, actor Actor, gameID string, expected int) (Outcome, error) {
	if expected < AnyVersion {
		return Outcome{}, refuse(CodeInvalid, "refusal.bad_expected", expected)
	}
	return s.exec(ctx, actor, takeBackRequest(gameID, expected), takeBackCmd(actor, expected))
}

// takeBackRequest is the request of a take-back.
func takeBackRequest(gameID string, expected int) request {
	return request{gameID: gameID, retry: true, hash: commandHash(VerbTakeBack, gameID, strconv.Itoa(expected))}
}

// answerRequest is the request of an answer to a take-back; named is the
// version the answer names (a request's, or the version of the mail or page
// it answers).
func answerRequest(gameID string, named int, agree bool) request {
	return request{gameID: gameID, retry: true, hash: commandHash("takeback-answer", gameID, strconv.Itoa(named), strconv.FormatBool(agree))}
}

// takeBackCmd is the decision of RequestTakeBack.
func takeBackCmd(actor Actor, expected int) command {
	return func(c *cmdCtx) error {
		t := c.table
		if expected < AnyVersion {
			return refuse(CodeInvalid, "refusal.bad_expected", expected)
		}
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		rule := t.Engine.TakeBackRule()
		if rule == "" {
			return refuse(CodeConflict, "refusal.takeback_game", t.Engine.Info().Name)
		}
		if t.Result().Finished {
			return refuse(CodeConflict, "refusal.over", t.ID)
		}
		if t.TakeBack != nil {
			return refuse(CodeConflict, "refusal.takeback_open", t.TakeBack.By, t.TakeBack.Version)
		}
		m := t.lastMove
		if !m.set || m.seat != seat {
			return refuse(CodeConflict, "refusal.takeback_not_last", t.ID)
		}
		if expected != AnyVersion && (expected < m.last || expected > t.Version) {
			return refuse(CodeConflict, "refusal.takeback_stale", expected, t.Version)
		}
		// One request per move: an answer is not asked for twice.
		if n := len(t.TakeBacks); n > 0 && t.TakeBacks[n-1].Version > m.last {
			return refuse(CodeConflict, "refusal.takeback_again", t.TakeBacks[n-1].Version, t.TakeBacks[n-1].Outcome)
		}
		v, err := t.fixedSince(m.from)
		if err != nil {
			return err
		}
		if v > 0 {
			return words.Illegal(rule, "refusal.takeback_fixed", v, rule)
		}
		asks, err := t.askable(seat, c.now)
		if err != nil {
			return err
		}
		c.takeback = true
		if err := c.stage(TypeTakeBackAsked, TakeBackAsked{Seat: seat, To: m.from, Deadline: c.now.Add(t.takeBackTime()).UTC(),
			Asks: append([]games.Seat{}, asks...)}, ""); err != nil {
			return err
		}
		if tb := t.TakeBack; tb != nil && len(tb.Waiting) == 0 {
			// Nobody else is still in play to answer: every one of them
			// agrees, as none is there to refuse.
			return c.stage(TypeTakenBack, TakenBack{Asked: tb.Version, To: tb.To}, "")
		}
		return nil
	}
}

// AnswerTakeBack records user's answer to the open take-back request of a
// game, the one recorded at version asked (0: whichever is open): when the
// last of the others agrees the move is taken back; one refusal closes the
// request. The asker's refusal withdraws it.
func (s *Service) AnswerTakeBack(ctx context.Context, actor Actor, gameID string, asked int, agree bool) (Outcome, error) {
	if asked < 0 {
		return Outcome{}, refuse(CodeInvalid, "refusal.bad_expected", asked)
	}
	return s.exec(ctx, actor, answerRequest(gameID, asked, agree), answerCmd(actor, agree, answerNames{asked: asked, seen: AnyVersion}))
}

// answerNames is what an answer says of the request it answers: the
// request's version (asked, from the API's URL or the page's button; 0: it
// does not say), or the version of the game its writer saw (seen, from a
// mail's reply address or the page's box; AnyVersion: it does not say).
// An answer naming an older request than the open one is refused: a stale
// "agree" must not answer a request its writer never saw.
type answerNames struct {
	asked int
	seen  int
}

// check refuses an answer that names an older request than tb.
func (n answerNames) check(tb *TakeBack) error {
	switch {
	case n.asked != 0 && n.asked != tb.Version:
		return refuse(CodeConflict, "refusal.takeback_gone", n.asked, tb.Version)
	case n.asked == 0 && n.seen != AnyVersion && n.seen < tb.Version:
		return refuse(CodeConflict, "refusal.takeback_gone", n.seen, tb.Version)
	}
	return nil
}

// TakeBackOf returns the open take-back request of a game (nil: none), for
// one of its players or its referee.
func (s *Service) TakeBackOf(ctx context.Context, gameID, user string) (*TakeBack, error) {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if _, ok := t.ViewerOf(user); !ok || !t.Started {
		return nil, refuse(CodeForbidden, "refusal.not_player", t.ID)
	}
	return t.TakeBack.clone(), nil
}

// answerCmd is the decision of AnswerTakeBack; named says which request
// the answer is for.
func answerCmd(actor Actor, agree bool, named answerNames) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		tb := t.TakeBack
		if tb == nil {
			return refuse(CodeNotFound, "refusal.takeback_none", t.ID)
		}
		if err := named.check(tb); err != nil {
			return err
		}
		c.takeback = true
		if seat == tb.Seat {
			if agree {
				return refuse(CodeConflict, "refusal.takeback_own", tb.Version)
			}
			return c.stage(TypeTakeBackClosed, TakeBackClosed{Asked: tb.Version, Outcome: TakeBackWithdrawn}, "")
		}
		if !slices.Contains(tb.Waiting, seat) {
			if n := len(t.TakeBacks); n > 0 && slices.ContainsFunc(t.TakeBacks[n-1].Answers, func(a archive.TakeBackAnswer) bool { return a.Seat == seat }) {
				return refuse(CodeConflict, "refusal.takeback_answered", tb.Version)
			}
			return refuse(CodeConflict, "refusal.takeback_not_asked", tb.Version)
		}
		asked := tb.Version
		if err := c.stage(TypeTakeBackAnswered, TakeBackAnswered{Seat: seat, Agree: agree}, ""); err != nil {
			return err
		}
		switch {
		case !agree:
			return c.stage(TypeTakeBackClosed, TakeBackClosed{Asked: asked, Outcome: TakeBackRefused}, "")
		case len(tb.Waiting) == 0:
			return c.stage(TypeTakenBack, TakenBack{Asked: asked, To: tb.To}, "")
		}
		return nil
	}
}

// ExpireTakeBack closes the take-back request recorded at version asked,
// if it is still open, as expired: silence refuses. The deadline machinery
// calls it at the request's deadline (TakeBackWorker). It does nothing when
// that request is no longer open (Outcome.Version == Outcome.From).
func (s *Service) ExpireTakeBack(ctx context.Context, gameID string, asked int, causation string) (Outcome, error) {
	actor := Actor{Channel: ChannelSystem, Causation: causation}
	req := request{gameID: gameID, retry: true}
	return s.exec(ctx, actor, req, func(c *cmdCtx) error {
		t := c.table
		if t.TakeBack == nil || t.TakeBack.Version != asked {
			return nil
		}
		c.takeback = true
		return c.stage(TypeTakeBackClosed, TakeBackClosed{Asked: asked, Outcome: TakeBackExpired}, "")
	})
}

// TakeBackWorker closes a take-back request at its deadline (a River
// worker of jobs.TakeBackDeadline): a request answered or closed by then
// writes nothing; a timer that comes early waits for the deadline.
type TakeBackWorker struct {
	river.WorkerDefaults[jobs.TakeBackDeadline]
	svc *Service
	now func() time.Time
}

// NewTakeBackWorker returns the worker of svc's take-back deadlines; now is
// the clock.
func NewTakeBackWorker(svc *Service, now func() time.Time) *TakeBackWorker {
	return &TakeBackWorker{svc: svc, now: now}
}

// Work implements river.Worker.
func (w *TakeBackWorker) Work(ctx context.Context, job *river.Job[jobs.TakeBackDeadline]) error {
	a := job.Args
	t, err := w.svc.Load(ctx, a.GameID)
	if err != nil {
		return fmt.Errorf("take-back deadline of game %s: %w", a.GameID, err)
	}
	tb := t.TakeBack
	if tb == nil || tb.Version != a.Asked {
		return nil
	}
	if wait := tb.Deadline.Sub(w.now()); wait > 0 {
		return river.JobSnooze(wait)
	}
	if _, err := w.svc.ExpireTakeBack(ctx, a.GameID, a.Asked, fmt.Sprintf("takeback-deadline:%d", job.ID)); err != nil {
		return fmt.Errorf("close the take-back request of version %d in game %s: %w", a.Asked, a.GameID, err)
	}
	return nil
}

// takeBackJobs lists the jobs of a command that staged take-back events:
// the deadline of a new request; a notice to every other seat of a new
// request, and to every seat of its outcome, naming the event that closed
// it (not the command's last event: a default move at a deadline may
// follow it).
func takeBackJobs(c *cmdCtx) []river.InsertManyParams {
	t := c.table
	var out []river.InsertManyParams
	first := t.Version - len(c.staged) + 1 // the version of the first staged event
	for i, e := range c.staged {
		switch e.Type {
		case TypeTakeBackAsked:
			tb := t.TakeBack
			if tb == nil {
				continue
			}
			out = append(out, river.InsertManyParams{
				Args: jobs.TakeBackDeadline{GameID: t.ID, Asked: tb.Version, Due: tb.Deadline.UnixMilli()},
				InsertOpts: &river.InsertOpts{
					Queue: jobs.QueueDefault, ScheduledAt: tb.Deadline,
					UniqueOpts: river.UniqueOpts{ByArgs: true},
				},
			})
			for _, seat := range tb.Waiting {
				out = append(out, river.InsertManyParams{Args: jobs.TakeBackNotice{GameID: t.ID, Version: tb.Version, Seat: int(seat)}})
			}
		case TypeTakeBackClosed, TypeTakenBack:
			if e.Type == TypeTakeBackClosed && (c.moved || c.reveal) {
				continue // overtaken by a move or the end: their own mails tell
			}
			for seat := range t.seatCount() {
				out = append(out, river.InsertManyParams{Args: jobs.TakeBackNotice{GameID: t.ID, Version: first + i, Seat: seat}})
			}
		}
	}
	return out
}

// takeBackOutcome is the outcome of the take-back request the staged
// events close ("" for none).
func takeBackOutcome(staged []events.Event) (string, error) {
	for _, e := range staged {
		switch e.Type {
		case TypeTakenBack:
			return TakeBackTaken, nil
		case TypeTakeBackClosed:
			var cl TakeBackClosed
			if err := json.Unmarshal(e.Data, &cl); err != nil {
				return "", fmt.Errorf("decode %s: %w", e.Type, err)
			}
			return cl.Outcome, nil
		}
	}
	return "", nil
}

// overtake closes the open take-back request, if any, before a move is
// played: the game went on.
func (c *cmdCtx) overtake() error {
	tb := c.table.TakeBack
	if tb == nil {
		return nil
	}
	c.takeback = true
	saved := c.seat
	c.seat = nil
	defer func() { c.seat = saved }()
	return c.stage(TypeTakeBackClosed, TakeBackClosed{Asked: tb.Version, Outcome: TakeBackOvertaken}, "")
}

// endTakeBack closes the open take-back request, if any, before the game's
// end is staged: the audit never shows a request open in a finished game.
func (c *cmdCtx) endTakeBack() error {
	tb := c.table.TakeBack
	if tb == nil {
		return nil
	}
	c.takeback = true
	saved := c.seat
	c.seat = nil
	defer func() { c.seat = saved }()
	return c.stage(TypeTakeBackClosed, TakeBackClosed{Asked: tb.Version, Outcome: TakeBackEnded}, "")
}

// takeBackText says what a take-back event is, in plain words, as viewer
// learns it (every part of it is public).
func (t *Table) takeBackText(typ string, data []byte, viewer games.Seat) (games.Phrase, error) {
	switch typ {
	case TypeTakeBackAsked:
		var a TakeBackAsked
		if err := json.Unmarshal(data, &a); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		if a.Seat == viewer && viewer != games.Spectator {
			return words.Phrase("change.you_takeback_asked", a.To), nil
		}
		return words.Phrase("change.takeback_asked", t.nameText(a.Seat), a.To), nil
	case TypeTakeBackAnswered:
		var a TakeBackAnswered
		if err := json.Unmarshal(data, &a); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		you := a.Seat == viewer && viewer != games.Spectator
		switch {
		case a.Agree && you:
			return words.Phrase("change.takeback_agreed_by_you"), nil
		case a.Agree:
			return words.Phrase("change.takeback_agreed_by", t.nameText(a.Seat)), nil
		case you:
			return words.Phrase("change.takeback_refused_by_you"), nil
		}
		return words.Phrase("change.takeback_refused_by", t.nameText(a.Seat)), nil
	case TypeTakeBackClosed:
		var cl TakeBackClosed
		if err := json.Unmarshal(data, &cl); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		switch cl.Outcome {
		case TakeBackRefused:
			return words.Phrase("change.takeback_refused"), nil
		case TakeBackExpired:
			return words.Phrase("change.takeback_expired"), nil
		case TakeBackWithdrawn:
			return words.Phrase("change.takeback_withdrawn"), nil
		case TakeBackOvertaken:
			return words.Phrase("change.takeback_overtaken"), nil
		case TakeBackEnded:
			return words.Phrase("change.takeback_ended"), nil
		}
		return words.Phrase("change.takeback_closed", cl.Outcome), nil
	default:
		var tb TakenBack
		if err := json.Unmarshal(data, &tb); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		return words.Phrase("change.taken_back", tb.To), nil
	}
}

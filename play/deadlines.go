package play

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
)

// The default deadlines of a new game: a decision one seat makes (a turn, an
// answer to a challenge) and a window every eligible seat may answer (a
// Coup challenge or block window).
const (
	DefaultTurnDeadline   = 72 * time.Hour
	DefaultWindowDeadline = 24 * time.Hour
	// MaxDeadline bounds any deadline a game is created with.
	MaxDeadline = 60 * 24 * time.Hour
	// LastReminder is how long before a deadline the last reminder goes
	// out (the first goes at half the time allowed).
	LastReminder = 6 * time.Hour
)

// Deadlines is the time a game allows per kind of pending entry: "turn"
// for any decision one seat makes alone, "window" for the entries of a
// window, or a kind of the game ("challenge") for that kind alone. A game
// keeps the deadlines it was created with for ever (they are in its first
// event).
type Deadlines map[string]time.Duration

// withDefaults returns d with the turn and window defaults filled in, and
// checks every value.
func (d Deadlines) withDefaults() (Deadlines, error) {
	out := Deadlines{"turn": DefaultTurnDeadline, "window": DefaultWindowDeadline}
	for k, v := range d {
		if v < time.Minute || v > MaxDeadline {
			return nil, refuse(CodeInvalid, "refusal.deadline_range", k, durationText(v), int(MaxDeadline/(24*time.Hour)))
		}
		out[k] = v
	}
	return out, nil
}

// encode writes deadlines as the first event keeps them ("72h0m0s").
func (d Deadlines) encode() map[string]string {
	if len(d) == 0 {
		return nil
	}
	out := make(map[string]string, len(d))
	for k, v := range d {
		out[k] = v.String()
	}
	return out
}

// decodeDeadlines reads them back; a game created before deadlines existed
// has none (and no timers).
func decodeDeadlines(m map[string]string) (Deadlines, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(Deadlines, len(m))
	for k, v := range m {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("deadline %s: %w", k, err)
		}
		out[k] = d
	}
	return out, nil
}

// deadlinesText is deadlines in a stable order, for a command's hash.
func deadlinesText(d Deadlines) string {
	keys := slices.Sorted(maps.Keys(d))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%v;", k, d[k])
	}
	return b.String()
}

// allowed is the time the game gives entry p of its current pending list.
func (t *Table) allowed(p games.Pending) time.Duration {
	if d, ok := t.Deadlines[p.Kind]; ok {
		return d
	}
	window := 0
	for _, q := range t.Pending {
		if q.Kind == p.Kind && q.Since == p.Since {
			window++
		}
	}
	if window > 1 {
		return t.Deadlines["window"]
	}
	return t.Deadlines["turn"]
}

// Deadline is when pending entry p of the table times out: the time its
// opening event was recorded plus what the game allows for its kind. A game
// without deadlines has none.
func (t *Table) Deadline(p games.Pending) (time.Time, bool) {
	if len(t.Deadlines) == 0 {
		return time.Time{}, false
	}
	opened, ok := t.opened[p.Since]
	if !ok {
		return time.Time{}, false
	}
	if slices.Contains(t.Abandoned, p.Seat) {
		return opened, true // an abandoned seat plays its defaults at once
	}
	return t.pausedIn(p.Seat, opened, addOn(opened, t.allowed(p), t.Weekdays)), true
}

// trackOpenings remembers when each current pending entry opened: at is
// the time of the event being applied, which opened the entries whose
// Since is its version.
func (t *Table) trackOpenings(at time.Time) {
	opened := make(map[int]time.Time, len(t.Pending))
	for _, p := range t.Pending {
		if p.Since == t.Version {
			opened[p.Since] = at
		} else if o, ok := t.opened[p.Since]; ok {
			opened[p.Since] = o
		}
	}
	t.opened = opened
}

// timerJobs lists a timer for each pending entry the command opened, and
// for the entries of a seat whose absence it began or ended, due at its
// deadline; River keeps one job per entry and deadline (unique by its
// arguments).
func timerJobs(c *cmdCtx, before []games.Pending) []river.InsertManyParams {
	t := c.table
	var out []river.InsertManyParams
	for _, p := range t.Pending {
		retimed := c.retimed != nil && *c.retimed == p.Seat
		if !retimed && slices.ContainsFunc(before, func(b games.Pending) bool { return b.ID() == p.ID() }) {
			continue
		}
		at, ok := t.Deadline(p)
		if !ok {
			continue
		}
		out = append(out, river.InsertManyParams{
			Args: jobs.Deadline{GameID: t.ID, Seat: int(p.Seat), Entry: p.Kind, Since: p.Since, Due: at.UnixMilli()},
			InsertOpts: &river.InsertOpts{
				Queue: jobs.QueueDefault, ScheduledAt: at,
				UniqueOpts: river.UniqueOpts{ByArgs: true},
			},
		})
		if retimed {
			continue // its reminders were set when it opened
		}
		for label, when := range reminderTimes(t.opened[p.Since], at) {
			out = append(out, river.InsertManyParams{
				Args: jobs.Reminder{GameID: t.ID, Seat: int(p.Seat), Entry: p.Kind, Since: p.Since, Label: label},
				InsertOpts: &river.InsertOpts{
					Queue: jobs.QueueMail, Priority: jobs.PriorityLater, ScheduledAt: when,
					UniqueOpts: river.UniqueOpts{ByArgs: true},
				},
			})
		}
	}
	return out
}

// reminderTimes are when the reminders of an entry open from opened to
// deadline go out: at half the time, and LastReminder before the deadline;
// only the half when the two would be within an hour of each other, none
// for a decision of less than an hour.
func reminderTimes(opened, deadline time.Time) map[string]time.Time {
	allowed := deadline.Sub(opened)
	if allowed < time.Hour {
		return nil
	}
	out := map[string]time.Time{"half": opened.Add(allowed / 2)}
	if last := deadline.Add(-LastReminder); last.Sub(out["half"]) >= time.Hour {
		out["last"] = last
	}
	return out
}

// DeadlineWorker applies the default move of a pending entry at its
// deadline (a River worker of jobs.Deadline). A timer whose entry is no
// longer pending writes nothing; one that comes early (a clock ahead of the
// database's) waits for the deadline.
type DeadlineWorker struct {
	river.WorkerDefaults[jobs.Deadline]
	svc *Service
	now func() time.Time
}

// NewDeadlineWorker returns the worker of svc's timers; now is the clock.
func NewDeadlineWorker(svc *Service, now func() time.Time) *DeadlineWorker {
	return &DeadlineWorker{svc: svc, now: now}
}

// Work implements river.Worker.
func (w *DeadlineWorker) Work(ctx context.Context, job *river.Job[jobs.Deadline]) error {
	a := job.Args
	id := games.PendingID{Seat: games.Seat(a.Seat), Kind: a.Entry, Since: a.Since}
	t, err := w.svc.Load(ctx, a.GameID)
	if err != nil {
		return fmt.Errorf("deadline of game %s: %w", a.GameID, err)
	}
	p, ok := t.entry(id)
	if !ok || t.Ended {
		return nil // answered, or the game moved on
	}
	if at, ok := t.Deadline(p); ok {
		if wait := at.Sub(w.now()); wait > 0 {
			return river.JobSnooze(wait)
		}
	}
	if _, err := w.svc.Timeout(ctx, a.GameID, id, fmt.Sprintf("deadline:%d", job.ID)); err != nil {
		return fmt.Errorf("apply the default at the deadline of %s in game %s: %w", id, a.GameID, err)
	}
	return nil
}

// weekdayNames are the days as a game's creator writes them, by their
// first three letters, in English and in French.
var weekdayNames = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
	"dim": time.Sunday, "lun": time.Monday, "mar": time.Tuesday, "mer": time.Wednesday,
	"jeu": time.Thursday, "ven": time.Friday, "sam": time.Saturday,
}

// ParseWeekdays reads the days on which deadlines run ("mon" … "sun",
// "lun" … "dim", or full English or French names, accents optional); none
// means every day.
func ParseWeekdays(names []string) ([]time.Weekday, error) {
	var out []time.Weekday
	for _, n := range names {
		key := games.FoldWord(strings.TrimSpace(n))
		if len(key) > 3 {
			key = key[:3]
		}
		d, ok := weekdayNames[key]
		if !ok {
			return nil, refuse(CodeInvalid, "refusal.weekday", n)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out, nil
}

// addOn is start plus d of time that runs only on the given weekdays (UTC;
// every day when none).
func addOn(start time.Time, d time.Duration, days []time.Weekday) time.Time {
	if len(days) == 0 || len(days) == 7 {
		return start.Add(d)
	}
	t := start.UTC()
	for d > 0 {
		midnight := time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
		if slices.Contains(days, t.Weekday()) {
			step := min(d, midnight.Sub(t))
			t, d = t.Add(step), d-step
			continue
		}
		t = midnight
	}
	return t
}

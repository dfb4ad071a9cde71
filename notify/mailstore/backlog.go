package mailstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/jobs"
)

// Waiting is the mail waiting to be sent at one priority of the mail
// queue: its jobs that could run now but have not started (available, or
// scheduled or to be retried with their time come), and the age of the
// oldest of them.
type Waiting struct {
	Priority int    // River's priority (jobs.PriorityWaiting, …)
	Name     string // its short name (jobs.PriorityName): "waiting", "game", "later"
	Count    int
	// Oldest is how long the oldest of them has waited: since it was due
	// (queued, or its scheduled time for a reminder), or since its first
	// failed attempt for one being retried; 0 when none waits.
	Oldest time.Duration
}

// backlogSQL counts the mail queue's jobs that wait now, by priority. A
// reminder scheduled for later does not wait yet; a running job no longer
// does. The age is measured on the database's clock, as the times are.
const backlogSQL = `select priority, count(*),
		coalesce(extract(epoch from now() - min(least(scheduled_at, coalesce((errors[1]->>'at')::timestamptz, scheduled_at)))), 0)
	from river_job
	where queue = $1 and (state = 'available' or (state in ('scheduled', 'retryable') and scheduled_at <= now()))
	group by priority`

// MailBacklog returns the mail waiting to be sent, one Waiting for each of
// the mail priorities (jobs.MailPriorities, zero when none waits) and for
// any other priority some job of the mail queue has, first worked first:
// what the mail log and /metrics show of the backlog (decision 9).
func (s *Store) MailBacklog(ctx context.Context) ([]Waiting, error) {
	rows, err := s.pool.Query(ctx, backlogSQL, jobs.QueueMail)
	if err != nil {
		return nil, fmt.Errorf("read the mail backlog: %w", err)
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Waiting, error) {
		var w Waiting
		var seconds float64
		err := r.Scan(&w.Priority, &w.Count, &seconds)
		w.Oldest = time.Duration(seconds * float64(time.Second))
		return w, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the mail backlog: %w", err)
	}
	out := make([]Waiting, 0, len(jobs.MailPriorities()))
	for _, p := range jobs.MailPriorities() {
		out = append(out, Waiting{Priority: p})
	}
	for _, f := range found {
		if i := slices.IndexFunc(out, func(w Waiting) bool { return w.Priority == f.Priority }); i >= 0 {
			out[i] = f
		} else {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b Waiting) int { return a.Priority - b.Priority })
	for i := range out {
		out[i].Name = jobs.PriorityName(out[i].Priority)
	}
	return out, nil
}

// BacklogLine writes a backlog on one line, first worked first, with the
// oldest's age where some mail waits: "waiting 0, game 42 (oldest 1m5s),
// later 3 (oldest 12s)".
func BacklogLine(list []Waiting) string {
	parts := make([]string, 0, len(list))
	for _, w := range list {
		p := fmt.Sprintf("%s %d", w.Name, w.Count)
		if w.Count > 0 {
			p += fmt.Sprintf(" (oldest %s)", w.Oldest.Round(time.Second))
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

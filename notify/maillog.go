package notify

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// LoggedMail is one mail courrier sent or tried to send, as the mail log
// holds it (never its text: that may hold a sign-in link).
type LoggedMail struct {
	MessageID string
	Kind      string
	Recipient string
	Subject   string
	CreatedAt time.Time
	SentAt    *time.Time
	FailedAt  *time.Time
	Attempts  int
	LastError string
	Skipped   string // why a mail begun was not sent after all
	// JobEnded is set when the job that was sending the mail ended without
	// delivering it (discarded after its last attempt, or by River's
	// rescuer): the state it ended in, or "gone" once River cleaned it up.
	JobEnded string
}

// Status says where the mail stands: "sent", "failed" (for good: refused,
// or its job ended without delivering it), "skipped" (no longer applied
// when it could be sent) or "trying" (not delivered yet; it will be tried
// again).
func (m LoggedMail) Status() string {
	switch {
	case m.SentAt != nil:
		return "sent"
	case m.FailedAt != nil || m.JobEnded != "":
		return "failed"
	case m.Skipped != "":
		return "skipped"
	}
	return "trying"
}

// abandoned is true of a mail_log row (m) whose job (j, left joined) ended
// without delivering it.
const abandoned = `(m.sent_at is null and m.failed_at is null and m.skipped is null and m.job_id is not null
	and (j.id is null or j.state in ('discarded', 'cancelled', 'completed')))`

// MailLogFilter chooses the mails MailLog lists.
type MailLogFilter struct {
	To     string // one recipient ("": all)
	Failed bool   // only the mails that failed for good
	Limit  int    // at most this many, newest first (0: 100)
}

// MailLog lists the outgoing mail log, newest first.
func MailLog(ctx context.Context, pool *pgxpool.Pool, f MailLogFilter) ([]LoggedMail, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := pool.Query(ctx, `select m.message_id, m.kind, m.recipient, m.subject, m.created_at, m.sent_at, m.failed_at, m.attempts,
			coalesce(m.last_error, ''), coalesce(m.skipped, ''), case when `+abandoned+` then coalesce(j.state::text, 'gone') else '' end
		from mail_log m left join river_job j on j.id = m.job_id
		where ($1 = '' or lower(m.recipient) = lower($1)) and (not $2 or m.failed_at is not null or `+abandoned+`)
		order by m.created_at desc, m.message_id limit $3`, f.To, f.Failed, f.Limit)
	if err != nil {
		return nil, fmt.Errorf("read the mail log: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (LoggedMail, error) {
		var m LoggedMail
		err := r.Scan(&m.MessageID, &m.Kind, &m.Recipient, &m.Subject, &m.CreatedAt, &m.SentAt, &m.FailedAt, &m.Attempts, &m.LastError, &m.Skipped, &m.JobEnded)
		if m.JobEnded != "" {
			why := fmt.Sprintf("its delivery job ended (%s) without delivering it", m.JobEnded)
			if m.LastError != "" {
				why += "; last error: " + m.LastError
			}
			m.LastError = why
		}
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the mail log: %w", err)
	}
	return list, nil
}

// FailedMailCount is how many mails failed for good.
func FailedMailCount(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var n int
	if err := pool.QueryRow(ctx, `select count(*) from mail_log m left join river_job j on j.id = m.job_id
		where m.failed_at is not null or `+abandoned).Scan(&n); err != nil {
		return 0, fmt.Errorf("count failed mail: %w", err)
	}
	return n, nil
}

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
}

// Status says where the mail stands: "sent", "failed" (for good),
// "skipped" (no longer applied when it could be sent) or "trying" (not
// delivered yet; it will be tried again).
func (m LoggedMail) Status() string {
	switch {
	case m.SentAt != nil:
		return "sent"
	case m.FailedAt != nil:
		return "failed"
	case m.Skipped != "":
		return "skipped"
	}
	return "trying"
}

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
	rows, err := pool.Query(ctx, `select message_id, kind, recipient, subject, created_at, sent_at, failed_at, attempts, coalesce(last_error, ''), coalesce(skipped, '')
		from mail_log where ($1 = '' or lower(recipient) = lower($1)) and (not $2 or failed_at is not null)
		order by created_at desc, message_id limit $3`, f.To, f.Failed, f.Limit)
	if err != nil {
		return nil, fmt.Errorf("read the mail log: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (LoggedMail, error) {
		var m LoggedMail
		err := r.Scan(&m.MessageID, &m.Kind, &m.Recipient, &m.Subject, &m.CreatedAt, &m.SentAt, &m.FailedAt, &m.Attempts, &m.LastError, &m.Skipped)
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
	if err := pool.QueryRow(ctx, `select count(*) from mail_log where failed_at is not null`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count failed mail: %w", err)
	}
	return n, nil
}

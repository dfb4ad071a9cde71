package mailstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Attempt is one attempt at sending a mail, as the mail log records it.
type Attempt struct {
	MessageID string
	Kind      string
	GameID    string // "" for none
	UserID    string // "" for none
	Recipient string
	Subject   string
	JobID     int64 // the River job sending it; 0 for none
}

// Sent reports whether mail messageID is logged as sent.
func (s *Store) Sent(ctx context.Context, messageID string) (bool, error) {
	var sentAt *time.Time
	err := s.pool.QueryRow(ctx, `select sent_at from mail_log where message_id = $1`, messageID).Scan(&sentAt)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("read the mail log: %w", err)
	}
	return sentAt != nil, nil
}

// BeginAttempt logs an attempt at sending a mail: the first adds its line,
// the next ones count their attempts (and keep the first job's id when a
// later attempt has none).
func (s *Store) BeginAttempt(ctx context.Context, a Attempt) error {
	if _, err := s.pool.Exec(ctx, `insert into mail_log (message_id, kind, game_id, user_id, recipient, subject, attempts, job_id)
		values ($1, $2, nullif($3, ''), nullif($4, ''), $5, $6, 1, nullif($7, 0))
		on conflict (message_id) do update set attempts = mail_log.attempts + 1, job_id = coalesce(excluded.job_id, mail_log.job_id)`,
		a.MessageID, a.Kind, a.GameID, a.UserID, a.Recipient, a.Subject, a.JobID); err != nil {
		return fmt.Errorf("log mail %s: %w", a.MessageID, err)
	}
	return nil
}

// AttemptFailed records the error of the last attempt at mail messageID;
// it may be tried again.
func (s *Store) AttemptFailed(ctx context.Context, messageID, lastError string) error {
	if _, err := s.pool.Exec(ctx, `update mail_log set last_error = $2 where message_id = $1`, messageID, lastError); err != nil {
		return fmt.Errorf("log the error of mail %s: %w", messageID, err)
	}
	return nil
}

// MarkSent records that the relay took mail messageID.
func (s *Store) MarkSent(ctx context.Context, messageID string) error {
	if _, err := s.pool.Exec(ctx, `update mail_log set sent_at = now(), last_error = null, failed_at = null, skipped = null where message_id = $1`, messageID); err != nil {
		return fmt.Errorf("log mail %s as sent: %w", messageID, err)
	}
	return nil
}

// MarkFailed records that mail messageID failed for good, and why.
func (s *Store) MarkFailed(ctx context.Context, messageID, why string) error {
	if _, err := s.pool.Exec(ctx, `update mail_log set failed_at = now(), last_error = $2 where message_id = $1`, messageID, why); err != nil {
		return fmt.Errorf("log mail %s as failed: %w", messageID, err)
	}
	return nil
}

// MarkSkipped records that mail messageID, whose sending had begun, is not
// sent after all, and why. An attempt cut off by a crash left no error:
// the relay may have taken that mail before the crash, and the log says
// so. A mail never begun, or sent, is left as it is.
func (s *Store) MarkSkipped(ctx context.Context, messageID, why string) error {
	if _, err := s.pool.Exec(ctx, `update mail_log set skipped = $2 || case when last_error is null
		then ' (an attempt was cut off by a crash: the relay may have taken it)' else '' end
		where message_id = $1 and sent_at is null`, messageID, why); err != nil {
		return fmt.Errorf("log mail %s as skipped: %w", messageID, err)
	}
	return nil
}

// Recipient returns the account mail messageID went to: "" when the mail
// is not logged or went to no account.
func (s *Store) Recipient(ctx context.Context, messageID string) (string, error) {
	var user *string
	err := s.pool.QueryRow(ctx, `select user_id from mail_log where message_id = $1`, messageID).Scan(&user)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && user == nil) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the recipient of mail %s: %w", messageID, err)
	}
	return *user, nil
}

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
func (s *Store) MailLog(ctx context.Context, f MailLogFilter) ([]LoggedMail, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := s.pool.Query(ctx, `select m.message_id, m.kind, m.recipient, m.subject, m.created_at, m.sent_at, m.failed_at, m.attempts,
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
func (s *Store) FailedMailCount(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `select count(*) from mail_log m left join river_job j on j.id = m.job_id
		where m.failed_at is not null or `+abandoned).Scan(&n); err != nil {
		return 0, fmt.Errorf("count failed mail: %w", err)
	}
	return n, nil
}

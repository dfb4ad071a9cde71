package mailstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// DevMail is one message of the dev mailbox.
type DevMail struct {
	ID        int64     `json:"id"`
	MessageID string    `json:"message_id"`
	From      string    `json:"from"`
	To        []string  `json:"to"`
	Subject   string    `json:"subject"`
	CreatedAt time.Time `json:"created_at"`
	Raw       []byte    `json:"-"`
}

// ErrNoMail is returned for a dev mailbox message that does not exist.
var ErrNoMail = errors.New("no such message in the dev mailbox")

// AddDevMail stores m (its ID and CreatedAt are the store's) in the dev
// mailbox.
func (s *Store) AddDevMail(ctx context.Context, m DevMail) error {
	_, err := s.pool.Exec(ctx, `insert into dev_mail (message_id, mail_from, rcpt, subject, raw) values ($1, $2, $3, $4, $5)`,
		m.MessageID, m.From, m.To, m.Subject, m.Raw)
	if err != nil {
		return fmt.Errorf("store mail in the dev mailbox: %w", err)
	}
	return nil
}

// DevMails returns the dev mailbox's newest messages first, at most limit,
// to (when not empty) only, without their raw bytes.
func (s *Store) DevMails(ctx context.Context, to string, limit int) ([]DevMail, error) {
	return s.DevMailPage(ctx, to, 0, 0, limit)
}

// DevMailPage returns a page of the dev mailbox, newest first, at most
// limit messages to (when not empty) only, without their raw bytes: those
// just older than message before, or, when after is set, just newer than
// message after; both zero: the newest. Pages hang on message ids, so new
// mail does not move them.
func (s *Store) DevMailPage(ctx context.Context, to string, before, after int64, limit int) ([]DevMail, error) {
	order := "desc"
	if after > 0 {
		order = "asc"
	}
	rows, err := s.pool.Query(ctx, `select id, message_id, mail_from, rcpt, subject, created_at from dev_mail
		where ($1 = '' or lower($1) = any(select lower(r) from unnest(rcpt) r))
		and ($2 = 0 or id < $2) and ($3 = 0 or id > $3)
		order by id `+order+` limit $4`, to, before, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list the dev mailbox: %w", err)
	}
	defer rows.Close()
	var out []DevMail
	for rows.Next() {
		var m DevMail
		if err := rows.Scan(&m.ID, &m.MessageID, &m.From, &m.To, &m.Subject, &m.CreatedAt); err != nil {
			return nil, fmt.Errorf("list the dev mailbox: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list the dev mailbox: %w", err)
	}
	if after > 0 {
		slices.Reverse(out)
	}
	return out, nil
}

// DevMail returns one message of the dev mailbox with its raw bytes;
// ErrNoMail when there is none.
func (s *Store) DevMail(ctx context.Context, id int64) (DevMail, error) {
	m := DevMail{ID: id}
	err := s.pool.QueryRow(ctx, `select message_id, mail_from, rcpt, subject, created_at, raw from dev_mail where id = $1`, id).
		Scan(&m.MessageID, &m.From, &m.To, &m.Subject, &m.CreatedAt, &m.Raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("message %d: %w", id, ErrNoMail)
	}
	if err != nil {
		return m, fmt.Errorf("read message %d of the dev mailbox: %w", id, err)
	}
	return m, nil
}

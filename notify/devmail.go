package notify

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DevMailbox is the transport used when no relay is configured: mail is
// stored in PostgreSQL (dev_mail) and shown by `courrier mail list|show`,
// GET /dev/mail and its JSON twin.
type DevMailbox struct {
	pool *pgxpool.Pool
}

// NewDevMailbox returns the dev mailbox on pool.
func NewDevMailbox(pool *pgxpool.Pool) *DevMailbox { return &DevMailbox{pool: pool} }

// Send stores the message.
func (d *DevMailbox) Send(ctx context.Context, from string, to []string, msg []byte) error {
	hdr := headerOf(msg)
	_, err := d.pool.Exec(ctx, `insert into dev_mail (message_id, mail_from, rcpt, subject, raw) values ($1, $2, $3, $4, $5)`,
		strings.Trim(hdr.Get("Message-Id"), "<>"), from, to, decodedSubject(hdr.Get("Subject")), msg)
	if err != nil {
		return fmt.Errorf("store mail in the dev mailbox: %w", err)
	}
	return nil
}

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

// List returns the newest messages first, at most limit, to (when not
// empty) only.
func (d *DevMailbox) List(ctx context.Context, to string, limit int) ([]DevMail, error) {
	rows, err := d.pool.Query(ctx, `select id, message_id, mail_from, rcpt, subject, created_at from dev_mail
		where $1 = '' or lower($1) = any(select lower(r) from unnest(rcpt) r)
		order by id desc limit $2`, to, limit)
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
	return out, rows.Err()
}

// Get returns one message with its raw bytes.
func (d *DevMailbox) Get(ctx context.Context, id int64) (DevMail, error) {
	m := DevMail{ID: id}
	err := d.pool.QueryRow(ctx, `select message_id, mail_from, rcpt, subject, created_at, raw from dev_mail where id = $1`, id).
		Scan(&m.MessageID, &m.From, &m.To, &m.Subject, &m.CreatedAt, &m.Raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("message %d: %w", id, ErrNoMail)
	}
	if err != nil {
		return m, fmt.Errorf("read message %d of the dev mailbox: %w", id, err)
	}
	return m, nil
}

// headerOf reads a message's header (what it can of it).
func headerOf(msg []byte) textproto.MIMEHeader {
	hdr, _ := readHeader(msg)
	return hdr
}

package mailstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/jobs"
)

// Inbound is a mail received, as the inbound queue holds it.
type Inbound struct {
	ID         int64
	Rcpt       string // the reply or service address it was processed for
	MailFrom   string // the envelope sender ("" for <>)
	Raw        []byte
	MessageID  string
	RemoteAddr string // "" when unknown
	Processed  bool   // processed already: nothing more to do
}

// StoreInbound stores a mail received and queues its processing
// (jobs.Inbound) in one transaction. The same Message-ID to the same
// address again is accepted and stored once: stored is false then.
func (s *Store) StoreInbound(ctx context.Context, ins JobInserter, m Inbound) (stored bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var rowID int64
		err := tx.QueryRow(ctx, `insert into inbound_mail (message_id, rcpt, mail_from, remote_addr, raw)
			values ($1, $2, $3, nullif($4, ''), $5) on conflict (message_id, rcpt) do nothing returning id`,
			m.MessageID, m.Rcpt, m.MailFrom, m.RemoteAddr, m.Raw).Scan(&rowID)
		if errors.Is(err, pgx.ErrNoRows) {
			// The same mail again: accepted, processed once, and accepted
			// only once the first copy is on the standbys (events.Durable).
			return events.Durable(ctx, tx)
		}
		if err != nil {
			return fmt.Errorf("store inbound mail: %w", err)
		}
		if _, err := ins.InsertTx(ctx, tx, jobs.Inbound{ID: rowID}, nil); err != nil {
			return fmt.Errorf("queue inbound mail: %w", err)
		}
		stored = true
		return nil
	})
	return stored, err
}

// Inbound reads inbound mail id; ErrNotFound when there is none.
func (s *Store) Inbound(ctx context.Context, id int64) (Inbound, error) {
	m := Inbound{ID: id}
	var processedAt *time.Time
	err := s.pool.QueryRow(ctx, `select rcpt, mail_from, raw, message_id, processed_at, coalesce(remote_addr, '') from inbound_mail where id = $1`, id).
		Scan(&m.Rcpt, &m.MailFrom, &m.Raw, &m.MessageID, &processedAt, &m.RemoteAddr)
	if errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("inbound mail %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return m, fmt.Errorf("read inbound mail %d: %w", id, err)
	}
	m.Processed = processedAt != nil
	return m, nil
}

// Processed is how inbound mail was processed: its outcome, who sent it,
// the game it was about, and the answers to queue.
type Processed struct {
	Outcome string
	Sender  string // "" when unknown
	GameID  string // "" for none
	Answers []river.JobArgs
}

// FinishInbound records how inbound mail id was processed and queues its
// answers, in one transaction, once: a mail already processed changes
// nothing (done is false), so that a retried job answers once.
func (s *Store) FinishInbound(ctx context.Context, ins JobInserter, id int64, p Processed) (done bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `update inbound_mail set processed_at = now(), outcome = $2, sender = nullif($3, ''), game_id = nullif($4, '')
			where id = $1 and processed_at is null`, id, p.Outcome, p.Sender, p.GameID)
		if err != nil {
			return fmt.Errorf("record inbound mail %d: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		for _, a := range p.Answers {
			if _, err := ins.InsertTx(ctx, tx, a, nil); err != nil {
				return fmt.Errorf("queue the answer to inbound mail %d: %w", id, err)
			}
		}
		done = true
		return nil
	})
	return done, err
}

// Sender returns who sent inbound mail id ("" when unknown) and its
// Message-ID.
func (s *Store) Sender(ctx context.Context, id int64) (sender, messageID string, err error) {
	err = s.pool.QueryRow(ctx, `select coalesce(sender, ''), message_id from inbound_mail where id = $1`, id).Scan(&sender, &messageID)
	if err != nil {
		return "", "", fmt.Errorf("read inbound mail %d: %w", id, err)
	}
	return sender, messageID, nil
}

// OverLimit begins the outcome of a mail set aside because its sender
// was over a limit; OverLimitTold, of the one that told them so. Such
// mail counts against no limit.
const (
	OverLimit     = "over limit: "
	OverLimitTold = "over limit, told: "
)

// RecentFrom counts the mails processed from sender received within the
// last hour, but those set aside over a limit (OverLimit, OverLimitTold).
// When there are at least limit, until is when there will be fewer (the
// limit-th newest leaves the hour).
func (s *Store) RecentFrom(ctx context.Context, sender string, limit int) (n int, until time.Time, err error) {
	if err := s.pool.QueryRow(ctx, `select count(*), coalesce((select received_at from inbound_mail
			where lower(sender) = lower($1) and received_at > now() - interval '1 hour' and coalesce(outcome, '') not like 'over limit%'
			order by received_at desc offset $2 limit 1), now()) + interval '1 hour'
		from inbound_mail where lower(sender) = lower($1) and received_at > now() - interval '1 hour'
		and coalesce(outcome, '') not like 'over limit%'`, sender, max(limit-1, 0)).Scan(&n, &until); err != nil {
		return 0, time.Time{}, fmt.Errorf("count recent mail: %w", err)
	}
	return n, until, nil
}

// RecentRefusals counts the mails from sender about game gameID ("" for
// none) refused within the last hour; until is when the oldest of them
// leaves the hour (an hour from now when there is none).
func (s *Store) RecentRefusals(ctx context.Context, sender, gameID string) (n int, until time.Time, err error) {
	if err := s.pool.QueryRow(ctx, `select count(*), coalesce(min(processed_at), now()) + interval '1 hour'
		from inbound_mail where lower(sender) = lower($1)
		and coalesce(game_id, '') = $2 and outcome like 'refused: %' and processed_at > now() - interval '1 hour'`,
		sender, gameID).Scan(&n, &until); err != nil {
		return 0, time.Time{}, fmt.Errorf("count recent refusals: %w", err)
	}
	return n, until, nil
}

// RecentlyTold counts the mails from sender processed within the last hour
// whose outcome begins with OverLimitTold and then what.
func (s *Store) RecentlyTold(ctx context.Context, sender, what string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `select count(*) from inbound_mail where lower(sender) = lower($1)
		and starts_with(outcome, $2) and processed_at > now() - interval '1 hour'`, sender, OverLimitTold+what).Scan(&n); err != nil {
		return 0, fmt.Errorf("count recent limit answers: %w", err)
	}
	return n, nil
}

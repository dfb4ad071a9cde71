package mailstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/jobs"
)

// KeepPending keeps the command of inbound mail inboundID waiting, until
// expires, for user to confirm their address, and returns its id. The same
// mail kept again returns the id it was kept under.
func (s *Store) KeepPending(ctx context.Context, user string, inboundID int64, expires time.Time) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `with kept as (
			insert into pending_commands (user_id, inbound_id, expires_at) values ($1, $2, $3)
			on conflict (inbound_id) do nothing
			returning id
		)
		select id from kept union all select id from pending_commands where inbound_id = $2
		limit 1`, user, inboundID, expires).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("keep the command of inbound mail %d: %w", inboundID, err)
	}
	return id, nil
}

// ErrPendingExpired says a pending command's time has passed (or it is
// gone: they are kept a week at most).
var ErrPendingExpired = errors.New("mailstore: the pending command has expired")

// ErrPendingOther says a pending command is another user's.
var ErrPendingOther = errors.New("mailstore: the pending command is another user's")

// ConfirmPending confirms, at now, the address of the user whose pending
// command is id (when user is not "", it must be theirs: else
// ErrPendingOther) and queues again every command of theirs still waiting,
// each by storing its mail again to a local address of mailDomain that
// routes it to the lobby (its answers get Message-IDs of their own). It
// returns how many it queued; a command already run runs no more. The
// account's confirmation and the commands it releases commit together,
// in one transaction (which also drops pending commands older than a
// week).
func (s *Store) ConfirmPending(ctx context.Context, ins JobInserter, id int64, user string, now time.Time, mailDomain string) (int, error) {
	ran := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var owner string
		var expires time.Time
		var done *time.Time
		err := tx.QueryRow(ctx, `select user_id, expires_at, done_at from pending_commands where id = $1 for update`, id).
			Scan(&owner, &expires, &done)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrPendingExpired // kept a week at most
		}
		if err != nil {
			return fmt.Errorf("read pending command %d: %w", id, err)
		}
		if user != "" && user != owner {
			return ErrPendingOther
		}
		if done == nil && !expires.After(now) {
			return ErrPendingExpired
		}
		if _, err := tx.Exec(ctx, `update users set confirmed_at = coalesce(confirmed_at, now()) where id = $1`, owner); err != nil {
			return fmt.Errorf("confirm account %s: %w", owner, err)
		}
		rows, err := tx.Query(ctx, `update pending_commands p set done_at = now(), outcome = 'confirmed'
			where user_id = $1 and done_at is null and expires_at > $2
			returning inbound_id`, owner, now)
		if err != nil {
			return fmt.Errorf("run the pending commands of %s: %w", owner, err)
		}
		inbound, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return fmt.Errorf("run the pending commands of %s: %w", owner, err)
		}
		for _, in := range inbound {
			var again int64
			if err := tx.QueryRow(ctx, `insert into inbound_mail (message_id, rcpt, mail_from, remote_addr, raw)
				select message_id, 'confirmed-' || id || '@' || $2, mail_from, remote_addr, raw from inbound_mail where id = $1
				returning id`, in, mailDomain).Scan(&again); err != nil {
				return fmt.Errorf("read inbound mail %d again: %w", in, err)
			}
			if _, err := ins.InsertTx(ctx, tx, jobs.Inbound{ID: again}, nil); err != nil {
				return fmt.Errorf("queue inbound mail %d again: %w", in, err)
			}
			ran++
		}
		if _, err := tx.Exec(ctx, `delete from pending_commands where expires_at < $1`, now.Add(-7*24*time.Hour)); err != nil {
			return fmt.Errorf("drop old pending commands: %w", err)
		}
		return nil
	})
	return ran, err
}

// FirstContact is the verdict on a first-contact mail: Allowed, or the
// counts that spent a budget.
type FirstContact struct {
	Allowed   bool
	ToAddress int // first-contact mails to the address in the last 24 hours
	InHour    int // first-contact mails to anyone in the last hour
}

// AllowFirstContact counts mail messageID against the first-contact
// budgets at now: at most perAddress such mails to address a day and
// perHour to all together. A mail counted already is allowed again (a
// retried mail is counted once). The budgets are read and spent under one
// lock, in one transaction, which also drops records older than two days.
func (s *Store) AllowFirstContact(ctx context.Context, messageID, address string, now time.Time, perAddress, perHour int) (FirstContact, error) {
	var v FirstContact
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		v = FirstContact{}
		if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock(hashtext('courrier first contact'))`); err != nil {
			return fmt.Errorf("lock the first-contact budget: %w", err)
		}
		var seen bool
		if err := tx.QueryRow(ctx, `select exists (select 1 from first_contact_mail where message_id = $1)`, messageID).Scan(&seen); err != nil {
			return fmt.Errorf("read the first-contact budget: %w", err)
		}
		if seen {
			v.Allowed = true
			return nil
		}
		if err := tx.QueryRow(ctx, `select
				count(*) filter (where lower(recipient) = lower($1) and sent_at > $2),
				count(*) filter (where sent_at > $3)
			from first_contact_mail where sent_at > $2`, address, now.Add(-24*time.Hour), now.Add(-time.Hour)).Scan(&v.ToAddress, &v.InHour); err != nil {
			return fmt.Errorf("read the first-contact budget: %w", err)
		}
		if v.ToAddress >= perAddress || v.InHour >= perHour {
			return nil
		}
		if _, err := tx.Exec(ctx, `insert into first_contact_mail (message_id, recipient, sent_at) values ($1, $2, $3)`, messageID, address, now); err != nil {
			return fmt.Errorf("count first-contact mail: %w", err)
		}
		v.Allowed = true
		if _, err := tx.Exec(ctx, `delete from first_contact_mail where sent_at < $1`, now.Add(-48*time.Hour)); err != nil {
			return fmt.Errorf("drop old first-contact records: %w", err)
		}
		return nil
	})
	return v, err
}

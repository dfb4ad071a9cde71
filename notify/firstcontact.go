package notify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify/incoming"
	"github.com/courrier-games/courrier/play"
)

// A mail command that makes courrier write to anyone but its sender (a new
// game with invitees) acts only for a sender who proved their address: an
// account that used a sign-in link, answered a confirmation, or replied to
// a mail of courrier's, or whose mail carries a DMARC pass that a trusted
// relay vouched for. Otherwise the command waits in pending_commands and
// the sender gets one confirmation request; confirming (a reply, or the
// link's button) re-reads the waiting mail as if it had just arrived.
// Mail to addresses not confirmed is bounded per address and per hour
// (allowFirstContact), so forged senders cannot make courrier mail
// strangers.

// errConfirmExpired says a confirmation came after its command's time.
var errConfirmExpired = errors.New("this confirmation has expired: the command it was for waited a day; send it again")

// errConfirmOther says a confirmation was answered from another address.
var errConfirmOther = errors.New("this confirmation is for another address: answer it from the address it was sent to")

// mayWriteToOthers reports whether user may make courrier write to other
// people, confirming them when their mail carries a DMARC pass that a
// trusted relay vouched for.
func (s *Service) mayWriteToOthers(ctx context.Context, user auth.User, id identity) (bool, error) {
	if user.ConfirmedAt != nil {
		return true, nil
	}
	if !id.vouched {
		return false, nil
	}
	if err := s.users.Confirm(ctx, user.ID); err != nil {
		return false, err
	}
	return true, nil
}

// askConfirmation keeps the command of inbound mail inboundID waiting for
// user to confirm their address, and answers with a confirmation request
// (sent within the first-contact budgets).
func (s *Service) askConfirmation(ctx context.Context, h handled, inboundID int64, user auth.User, what string) (handled, error) {
	var id int64
	expires := s.cfg.Now().Add(s.cfg.ConfirmTTL)
	err := s.pool.QueryRow(ctx, `with kept as (
			insert into pending_commands (user_id, inbound_id, expires_at) values ($1, $2, $3)
			on conflict (inbound_id) do nothing
			returning id
		)
		select id from kept union all select id from pending_commands where inbound_id = $2
		limit 1`, user.ID, inboundID, expires).Scan(&id)
	if err != nil {
		return h, fmt.Errorf("keep the command of inbound mail %d: %w", inboundID, err)
	}
	tok := s.cfg.Signer.Sign(Token{Kind: TokenConfirm, Game: strconv.FormatInt(id, 36), Seat: -1, Expires: expires})
	h, err = s.notice(h, fmt.Sprintf("waits for %s to confirm their address (pending command %d)", user.Email, id), "", NoticeData{
		Subject: "[courrier] confirm your address to " + what,
		Paragraphs: []string{
			fmt.Sprintf("courrier received a mail from %s asking to %s. courrier writes to other people only for someone who has shown that this address is theirs.", user.Email, what),
			"To confirm, reply to this mail (anything will do), or open this link and press the button: " + s.cfg.BaseURL + "/c/" + tok,
			fmt.Sprintf("Your command then runs at once. It waits until %s; after that, send it again.", expires.UTC().Format("Monday 2 January, 15:04 UTC")),
			"If you did not write to courrier, ignore this mail: nothing will be done, and you will not hear from courrier again because of it.",
		},
	})
	if err != nil {
		return h, err
	}
	h.answers[len(h.answers)-1].ReplyTo = "c+" + tok + "@" + s.cfg.MailDomain
	return h, nil
}

// confirmPending confirms the address of the user whose pending command
// is id (when user is not "", it must be theirs) and runs every command of
// theirs still waiting, each by reading its mail again. It returns how many
// it ran; a command already run runs no more.
func (s *Service) confirmPending(ctx context.Context, ins JobInserter, id int64, user string) (int, error) {
	ran := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var owner string
		var expires time.Time
		var done *time.Time
		err := tx.QueryRow(ctx, `select user_id, expires_at, done_at from pending_commands where id = $1 for update`, id).
			Scan(&owner, &expires, &done)
		if errors.Is(err, pgx.ErrNoRows) {
			return errConfirmExpired // kept a week at most
		}
		if err != nil {
			return fmt.Errorf("read pending command %d: %w", id, err)
		}
		if user != "" && user != owner {
			return errConfirmOther
		}
		if done == nil && !expires.After(s.cfg.Now()) {
			return errConfirmExpired
		}
		if _, err := tx.Exec(ctx, `update users set confirmed_at = coalesce(confirmed_at, now()) where id = $1`, owner); err != nil {
			return fmt.Errorf("confirm account %s: %w", owner, err)
		}
		rows, err := tx.Query(ctx, `update pending_commands p set done_at = now(), outcome = 'confirmed'
			where user_id = $1 and done_at is null and expires_at > $2
			returning inbound_id`, owner, s.cfg.Now())
		if err != nil {
			return fmt.Errorf("run the pending commands of %s: %w", owner, err)
		}
		inbound, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return fmt.Errorf("run the pending commands of %s: %w", owner, err)
		}
		for _, in := range inbound {
			// The mail is read again as received, to a local address that
			// routes it to the lobby: its answers get Message-IDs of their own.
			var again int64
			if err := tx.QueryRow(ctx, `insert into inbound_mail (message_id, rcpt, mail_from, remote_addr, raw)
				select message_id, 'confirmed-' || id || '@' || $2, mail_from, remote_addr, raw from inbound_mail where id = $1
				returning id`, in, s.cfg.MailDomain).Scan(&again); err != nil {
				return fmt.Errorf("read inbound mail %d again: %w", in, err)
			}
			if _, err := ins.InsertTx(ctx, tx, jobs.Inbound{ID: again}, nil); err != nil {
				return fmt.Errorf("queue inbound mail %d again: %w", in, err)
			}
			ran++
		}
		_, err = tx.Exec(ctx, `delete from pending_commands where expires_at < $1`, s.cfg.Now().Add(-7*24*time.Hour))
		return err
	})
	return ran, err
}

// confirmReply handles a reply to a confirmation request.
func (s *Service) confirmReply(ctx context.Context, h handled, in incoming.Message, tok Token, user auth.User) (handled, error) {
	id, err := strconv.ParseInt(tok.Game, 36, 64)
	if err != nil || user.ID == "" {
		return s.refuse(ctx, h, in, play.Brief{}, nil, "this reply address is not one courrier gave out", "")
	}
	ins := river.ClientFromContext[pgx.Tx](ctx)
	n, err := s.confirmPending(ctx, ins, id, user.ID)
	switch {
	case errors.Is(err, errConfirmExpired), errors.Is(err, errConfirmOther):
		return s.refuse(ctx, h, in, play.Brief{}, nil, err.Error(), "")
	case err != nil:
		return h, err
	}
	h.outcome = fmt.Sprintf("%s confirmed their address; %d waiting command(s) run again", user.Email, n)
	return h, nil
}

// allowFirstContact decides whether mail messageID may go to address,
// whose owner has not confirmed it: at most FirstContactPerAddress such
// mails to one address a day and FirstContactPerHour to all together, and
// none to an address whose owner turned all mail off. A retried mail is
// counted once.
func (s *Service) allowFirstContact(ctx context.Context, address, userID, messageID string) (bool, string, error) {
	if userID != "" {
		on, err := s.wants(ctx, userID, "", "")
		if err != nil {
			return false, "", err
		}
		if !on {
			return false, "the address's owner turned all mail off, or it bounced", nil
		}
	}
	allowed, why := false, ""
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock(hashtext('courrier first contact'))`); err != nil {
			return fmt.Errorf("lock the first-contact budget: %w", err)
		}
		var seen bool
		if err := tx.QueryRow(ctx, `select exists (select 1 from first_contact_mail where message_id = $1)`, messageID).Scan(&seen); err != nil {
			return fmt.Errorf("read the first-contact budget: %w", err)
		}
		if seen {
			allowed = true
			return nil
		}
		now := s.cfg.Now()
		var toAddress, inHour int
		if err := tx.QueryRow(ctx, `select
				count(*) filter (where lower(recipient) = lower($1) and sent_at > $2),
				count(*) filter (where sent_at > $3)
			from first_contact_mail where sent_at > $2`, address, now.Add(-24*time.Hour), now.Add(-time.Hour)).Scan(&toAddress, &inHour); err != nil {
			return fmt.Errorf("read the first-contact budget: %w", err)
		}
		switch {
		case toAddress >= s.cfg.FirstContactPerAddress:
			why = fmt.Sprintf("%s already got %d mail from courrier today without having confirmed it", address, toAddress)
			return nil
		case inHour >= s.cfg.FirstContactPerHour:
			why = fmt.Sprintf("the hour's budget of mail to unconfirmed addresses (%d) is spent", s.cfg.FirstContactPerHour)
			return nil
		}
		if _, err := tx.Exec(ctx, `insert into first_contact_mail (message_id, recipient, sent_at) values ($1, $2, $3)`, messageID, address, now); err != nil {
			return fmt.Errorf("count first-contact mail: %w", err)
		}
		allowed = true
		_, err := tx.Exec(ctx, `delete from first_contact_mail where sent_at < $1`, now.Add(-48*time.Hour))
		return err
	})
	return allowed, why, err
}

package notify

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/notify/incoming"
	"github.com/courrier-games/courrier/notify/mailstore"
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

// errConfirmExpired says a confirmation came after its command's time
// (notify's catalog says it as "confirm.expired").
var errConfirmExpired = errors.New("this confirmation has expired: the command it was for waited a day; send it again")

// errConfirmOther says a confirmation was answered from another address
// ("confirm.other").
var errConfirmOther = errors.New("this confirmation is for another address: answer it from the address it was sent to")

// confirmKey is the catalog's key of a confirmation's refusal.
func confirmKey(err error) string {
	if errors.Is(err, errConfirmExpired) {
		return "confirm.expired"
	}
	return "confirm.other"
}

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
// (sent within the first-contact budgets). what says what the command asks,
// in the sender's language.
func (s *Service) askConfirmation(ctx context.Context, h handled, inboundID int64, user auth.User, what string) (handled, error) {
	expires := s.cfg.Now().Add(s.cfg.ConfirmTTL)
	id, err := s.store.KeepPending(ctx, user.ID, inboundID, expires)
	if err != nil {
		return h, err
	}
	tok := s.cfg.Signer.Sign(Token{Kind: TokenConfirm, Game: strconv.FormatInt(id, 36), Seat: -1, Expires: expires})
	sp := h.speaker()
	h, err = s.notice(h, fmt.Sprintf("waits for %s to confirm their address (pending command %d)", user.Email, id), "", NoticeData{
		Subject: sp.subject("confirm.subject", what),
		Paragraphs: []string{
			sp.t("confirm.received", user.Email, what),
			sp.t("confirm.how", s.cfg.BaseURL+"/c/"+tok),
			sp.t("confirm.waits", sp.when(expires, user.Location())),
			sp.t("confirm.ignore"),
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
	n, err := s.store.ConfirmPending(ctx, ins, id, user, s.cfg.Now(), s.cfg.MailDomain)
	switch {
	case errors.Is(err, mailstore.ErrPendingExpired):
		return 0, errConfirmExpired
	case errors.Is(err, mailstore.ErrPendingOther):
		return 0, errConfirmOther
	}
	return n, err
}

// confirmReply handles a reply to a confirmation request.
func (s *Service) confirmReply(ctx context.Context, h handled, in incoming.Message, tok Token, user auth.User) (handled, error) {
	id, err := strconv.ParseInt(tok.Game, 36, 64)
	if err != nil || user.ID == "" {
		return s.refuse(ctx, h, in, play.Brief{}, nil, sayKey("refusal.not_given"), "")
	}
	n, err := s.confirmPending(ctx, mailstore.InserterFrom(ctx), id, user.ID)
	switch {
	case errors.Is(err, errConfirmExpired), errors.Is(err, errConfirmOther):
		return s.refuse(ctx, h, in, play.Brief{}, nil, sayKey(confirmKey(err)), "")
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
	v, err := s.store.AllowFirstContact(ctx, messageID, address, s.cfg.Now(), s.cfg.FirstContactPerAddress, s.cfg.FirstContactPerHour)
	switch {
	case err != nil:
		return false, "", err
	case v.Allowed:
		return true, "", nil
	case v.ToAddress >= s.cfg.FirstContactPerAddress:
		return false, fmt.Sprintf("%s already got %d mail from courrier today without having confirmed it", address, v.ToAddress), nil
	}
	return false, fmt.Sprintf("the hour's budget of mail to unconfirmed addresses (%d) is spent", s.cfg.FirstContactPerHour), nil
}

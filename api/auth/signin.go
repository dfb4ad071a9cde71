package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
)

// ErrBadAddress is the reason of a sign-in request for something that is
// not an email address.
var ErrBadAddress = errors.New("not an email address")

// Refusal is a sign-in refused for a reason the person can act on. Message
// is written for them, in English, and is the same whatever the door (API,
// pages); Said is the same words in every language (Explain). Reason is
// one of ErrBadAddress, ErrBadName, ErrTooManyLinks, ErrLinkUsed,
// ErrLinkExpired, ErrLinkUnknown or ErrNoUser, which a door matches with
// errors.Is to choose its status. Nothing was written.
type Refusal struct {
	Reason  error
	Message string
	Said    games.Phrase
}

// refuse returns the *Refusal of reason whose words are key of api/auth's
// catalog.
func refuse(reason error, key string) *Refusal {
	return refusalOf(reason, words.Phrase(key))
}

// refusalOf returns the *Refusal of reason whose words are said.
func refusalOf(reason error, said games.Phrase) *Refusal {
	return &Refusal{Reason: reason, Message: said.In(games.English), Said: said}
}

// Error implements error: the message.
func (r *Refusal) Error() string { return r.Message }

// Explain says the refusal in lang (see games.Explainer).
func (r *Refusal) Explain(lang string) string {
	if r.Said.IsZero() {
		return r.Message
	}
	return r.Said.In(lang)
}

// Unwrap returns the reason.
func (r *Refusal) Unwrap() error { return r.Reason }

// The words of the refusals, one per reason: keys of api/auth's catalog.
const (
	msgTooManyLinks = "refusal.too_many_links"
	msgLinkUsed     = "refusal.link_used"
	msgLinkExpired  = "refusal.link_expired"
	msgLinkUnknown  = "refusal.link_unknown"
	msgNoUser       = "refusal.no_user"
)

// QueueLinkMail queues, in tx, the mail that carries sign-in link linkID to
// account userID (a River job, jobs.Login), so that the link exists exactly
// when its mail is on its way, in lang when the account has no language.
type QueueLinkMail func(ctx context.Context, tx pgx.Tx, linkID int64, userID, lang string) error

// SignIn is signing in by a mailed link, the one implementation every door
// calls: Request mails a link, Confirm turns a link into a session.
type SignIn struct {
	users    *Users
	links    *Links
	sessions *Sessions
	key      []byte
	queue    QueueLinkMail
}

// NewSignIn returns sign-in over users, links and sessions (one database):
// key (at least 32 bytes, kept outside the database) derives each link's
// secret (LinkSecret), and queue queues the mail of each link in the
// transaction that makes it.
func NewSignIn(users *Users, links *Links, sessions *Sessions, key []byte, queue QueueLinkMail) (*SignIn, error) {
	if users == nil || links == nil || sessions == nil || queue == nil {
		return nil, errors.New("sign-in: it needs users, links, sessions and a mail queue")
	}
	if err := checkLinkKey(key); err != nil {
		return nil, fmt.Errorf("sign-in: %w", err)
	}
	return &SignIn{users: users, links: links, sessions: sessions, key: key, queue: queue}, nil
}

// Request mails a sign-in link to email and returns the address as
// normalized (NormalizeEmail). In one transaction it makes the address's
// account if there is none, gives it name if it has no name yet (a blank
// name is none), makes the link and queues its mail: if any step fails,
// nothing is written. The answer is the same whether or not the address
// had an account, so it tells nobody who plays. Refusals are *Refusal:
// ErrBadAddress, ErrBadName, ErrTooManyLinks (past MaxLinksPerHour links
// in the last hour).
//
// lang is the language of the page or request that asked: the mail is
// written in it when the account has no language yet (a first contact).
// It is not noted on the account: anyone may ask a link for any address.
func (s *SignIn) Request(ctx context.Context, email, name, lang string) (string, error) {
	addr, err := NormalizeEmail(email)
	if err != nil {
		return "", refusalOf(ErrBadAddress, saidOf(err))
	}
	if strings.TrimSpace(name) == "" {
		name = ""
	} else if name, err = CheckName(name); err != nil {
		return "", refusalOf(ErrBadName, saidOf(err))
	}
	err = pgx.BeginFunc(ctx, s.links.pool, func(tx pgx.Tx) error {
		user, err := ensure(ctx, tx, addr)
		if err != nil {
			return err
		}
		if name != "" && user.Name == "" {
			if _, err := tx.Exec(ctx, `update users set name = $2 where id = $1 and name is null`, user.ID, name); err != nil {
				return fmt.Errorf("set the name of account %s: %w", user.ID, err)
			}
		}
		id, err := s.links.issue(ctx, tx, s.key, user.ID)
		if err != nil {
			return err
		}
		if err := s.queue(ctx, tx, id, user.ID, lang); err != nil {
			return fmt.Errorf("queue the sign-in mail: %w", err)
		}
		return nil
	})
	if errors.Is(err, ErrTooManyLinks) {
		return "", refuse(ErrTooManyLinks, msgTooManyLinks)
	}
	if err != nil {
		return "", fmt.Errorf("mail a sign-in link: %w", err)
	}
	return addr, nil
}

// Confirmed is a sign-in link used: the account and its new session, with
// the session's token (the web's cookie, the API's bearer token).
type Confirmed struct {
	User    User
	Session Session
	Token   string
}

// Confirm uses the sign-in link whose secret the person brought (once),
// confirms the account's address and opens a session. Refusals are
// *Refusal: ErrLinkUsed, ErrLinkExpired, ErrLinkUnknown, ErrNoUser (the
// account was erased).
func (s *SignIn) Confirm(ctx context.Context, secret string) (Confirmed, error) {
	userID, err := s.links.Consume(ctx, secret)
	if err != nil {
		if r := linkRefusal(err); r != nil {
			return Confirmed{}, r
		}
		return Confirmed{}, fmt.Errorf("sign in: %w", err)
	}
	u, err := s.users.ByID(ctx, userID)
	if errors.Is(err, ErrNoUser) || (err == nil && u.Email == "") {
		return Confirmed{}, refuse(ErrNoUser, msgNoUser)
	}
	if err != nil {
		return Confirmed{}, fmt.Errorf("sign in: %w", err)
	}
	sess, tok, err := s.sessions.Open(ctx, userID)
	if errors.Is(err, ErrNoUser) {
		return Confirmed{}, refuse(ErrNoUser, msgNoUser)
	}
	if err != nil {
		return Confirmed{}, fmt.Errorf("sign in: %w", err)
	}
	return Confirmed{User: u, Session: sess, Token: tok}, nil
}

// saidOf is the words of err: a *Problem's, else err's English.
func saidOf(err error) games.Phrase {
	if p, ok := errors.AsType[*Problem](err); ok {
		return p.Said
	}
	return games.Said(err.Error())
}

// linkRefusal is the refusal of a link Consume refused, nil for any other
// error.
func linkRefusal(err error) *Refusal {
	for _, r := range []struct {
		reason error
		msg    string
	}{
		{ErrLinkUsed, msgLinkUsed},
		{ErrLinkExpired, msgLinkExpired},
		{ErrLinkUnknown, msgLinkUnknown},
		{ErrNoUser, msgNoUser},
	} {
		if errors.Is(err, r.reason) {
			return refuse(r.reason, r.msg)
		}
	}
	return nil
}

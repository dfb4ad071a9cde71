package auth_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// signInWorld is sign-in on a database of its own, with a River client that
// only inserts (the jobs the links' mails are).
type signInWorld struct {
	pool     *pgxpool.Pool
	clk      *fakeClock
	users    *auth.Users
	sessions *auth.Sessions
	signIn   *auth.SignIn
	// fail, when set, makes the mail queue fail after inserting its job.
	fail error
	// queued are the links queued, in order (link id, user id).
	queued []queuedLink
}

type queuedLink struct {
	link int64
	user string
}

func newSignInWorld(t *testing.T) *signInWorld {
	t.Helper()
	w := &signInWorld{pool: pgtest.New(t), clk: &fakeClock{t: time.Now()}}
	client, err := river.NewClient(riverpgxv5.New(w.pool), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, w.clk.Now, keyA)
	if err != nil {
		t.Fatal(err)
	}
	w.users, w.sessions = auth.NewUsers(w.pool), auth.NewSessions(w.pool, tokens, w.clk.Now)
	insert := jobs.QueueLogin(client)
	queue := func(ctx context.Context, tx pgx.Tx, linkID int64, userID, lang string) error {
		if err := insert(ctx, tx, linkID, userID, lang); err != nil {
			return err
		}
		if w.fail != nil {
			return w.fail
		}
		w.queued = append(w.queued, queuedLink{linkID, userID})
		return nil
	}
	if _, err := auth.NewSignIn(w.users, auth.NewLinks(w.pool, w.clk.Now), w.sessions, linkKey[:31], queue); err == nil {
		t.Fatal("sign-in was made with a 31-byte link key")
	}
	if w.signIn, err = auth.NewSignIn(w.users, auth.NewLinks(w.pool, w.clk.Now), w.sessions, linkKey, queue); err != nil {
		t.Fatal(err)
	}
	return w
}

// count is the number of rows a query counts.
func (w *signInWorld) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := w.pool.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// request asks for a link and returns its secret, as the mail worker
// derives it.
func (w *signInWorld) request(t *testing.T, email string) string {
	t.Helper()
	if _, err := w.signIn.Request(t.Context(), email, "", ""); err != nil {
		t.Fatalf("request a link for %s: %v", email, err)
	}
	return auth.LinkSecret(linkKey, w.queued[len(w.queued)-1].link)
}

// Requesting a sign-in link makes the account if needed, names it if it
// has no name yet, and makes the link and its mail's job in one
// transaction, or refuses in words the person can act on.
func TestSignInRequest(t *testing.T) {
	w := newSignInWorld(t)
	ctx := t.Context()
	named, err := w.users.Ensure(ctx, "named@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.SetName(ctx, named.ID, "Zoé"); err != nil {
		t.Fatal(err)
	}
	for i := range auth.MaxLinksPerHour {
		if _, err := w.signIn.Request(ctx, "busy@example.org", "", ""); err != nil {
			t.Fatalf("link %d of the hour: %v", i+1, err)
		}
	}
	for _, tc := range []struct {
		name, email, given string
		fail               error
		reason             error  // nil: sent
		message            string // a part of the refusal's message
		addr, wantName     string // the address answered, the account's name after
		links              int    // the account's links after
	}{
		{name: "a new address, named", email: " Ana@Example.ORG ", given: "  Ana  Lima ", addr: "Ana@example.org", wantName: "Ana Lima", links: 1},
		{name: "the same in another case, named again", email: "ana@example.org", given: "Other", addr: "ana@example.org", wantName: "Ana Lima", links: 2},
		{name: "an account named already", email: "named@example.org", given: "Someone", addr: "named@example.org", wantName: "Zoé", links: 1},
		{name: "a blank name is none", email: "bob@example.org", given: "   ", addr: "bob@example.org", links: 1},
		{name: "not an address", email: "Ana <ana@example.org>", reason: auth.ErrBadAddress, message: "is not an email address"},
		{name: "empty", email: "", reason: auth.ErrBadAddress, message: "is not an email address"},
		{name: "a bad name", email: "carl@example.org", given: "Carl\x07", reason: auth.ErrBadName, message: "cannot hold the character"},
		{name: "a name too long", email: "carl@example.org", given: strings.Repeat("c", auth.MaxNameLength+1), reason: auth.ErrBadName, message: "at most 40 characters"},
		{name: "too many links", email: "busy@example.org", reason: auth.ErrTooManyLinks, message: "too many sign-in links", links: auth.MaxLinksPerHour},
		{name: "the mail cannot be queued", email: "dora@example.org", given: "Dora", fail: errors.New("queue full")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.fail = tc.fail
			defer func() { w.fail = nil }()
			queued := len(w.queued)
			jobsBefore := w.count(t, `select count(*) from river_job where kind = 'mail.login'`)
			addr, err := w.signIn.Request(ctx, tc.email, tc.given, "")
			refusal, isRefusal := errors.AsType[*auth.Refusal](err)
			switch {
			case tc.fail != nil:
				if err == nil || !errors.Is(err, tc.fail) || isRefusal {
					t.Fatalf("a failing queue: %v, want its error (not a refusal)", err)
				}
			case tc.reason != nil:
				if !isRefusal || !errors.Is(err, tc.reason) || !strings.Contains(refusal.Message, tc.message) || refusal.Error() != refusal.Message {
					t.Fatalf("got %v (%T), want a refusal for %v saying %q", err, err, tc.reason, tc.message)
				}
			case err != nil || addr != tc.addr:
				t.Fatalf("got %q, %v; want %q", addr, err, tc.addr)
			}
			wantJobs := jobsBefore
			if tc.reason == nil && tc.fail == nil {
				wantJobs++
			}
			if n := w.count(t, `select count(*) from river_job where kind = 'mail.login'`); n != wantJobs {
				t.Errorf("%d sign-in mails queued, want %d", n, wantJobs)
			}
			u, err := w.users.ByEmail(ctx, strings.TrimSpace(tc.email))
			if tc.links == 0 {
				// Nothing was written: not even the account.
				if !errors.Is(err, auth.ErrNoUser) {
					t.Fatalf("the account of %q: %+v, %v; want none", tc.email, u, err)
				}
				if n := w.count(t, `select count(*) from login_links l join users u on u.id = l.user_id where lower(u.email) = lower($1)`, strings.TrimSpace(tc.email)); n != 0 {
					t.Fatalf("%d links left behind", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u.Name != tc.wantName {
				t.Errorf("name %q, want %q", u.Name, tc.wantName)
			}
			if n := w.count(t, `select count(*) from login_links where user_id = $1`, u.ID); n != tc.links {
				t.Errorf("%d links, want %d", n, tc.links)
			}
			if tc.reason == nil {
				if len(w.queued) != queued+1 || w.queued[queued].user != u.ID {
					t.Fatalf("queued %+v, want one link for %s", w.queued[queued:], u.ID)
				}
				var link int64
				if err := w.pool.QueryRow(ctx, `select (args->>'link_id')::bigint from river_job where kind = 'mail.login' order by id desc limit 1`).Scan(&link); err != nil || link != w.queued[queued].link {
					t.Fatalf("the job names link %d (%v), want %d", link, err, w.queued[queued].link)
				}
			}
		})
	}
	// An hour later the busy address may ask again.
	w.clk.Add(time.Hour + time.Second)
	if _, err := w.signIn.Request(ctx, "busy@example.org", "", ""); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// Confirming a link opens a session once; every refusal says why, in the
// same words whatever the door.
func TestSignInConfirm(t *testing.T) {
	w := newSignInWorld(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name    string
		secret  func(t *testing.T) string // the link brought
		reason  error                     // nil: signed in
		message string
	}{
		{name: "a fresh link", secret: func(t *testing.T) string { return w.request(t, "ana@example.org") }},
		{name: "in upper case, with spaces", secret: func(t *testing.T) string {
			return "  " + strings.ToUpper(w.request(t, "ana@example.org")) + "\n"
		}},
		{name: "used", reason: auth.ErrLinkUsed, message: "already used", secret: func(t *testing.T) string {
			s := w.request(t, "ana@example.org")
			if _, err := w.signIn.Confirm(ctx, s); err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{name: "expired", reason: auth.ErrLinkExpired, message: "has expired", secret: func(t *testing.T) string {
			s := w.request(t, "bob@example.org")
			w.clk.Add(auth.LinkTTL + time.Second)
			return s
		}},
		{name: "unknown", reason: auth.ErrLinkUnknown, message: "not a sign-in link of ours", secret: func(*testing.T) string {
			return auth.LinkSecret([]byte(strings.Repeat("x", 32)), 1)
		}},
		{name: "empty", reason: auth.ErrLinkUnknown, message: "not a sign-in link of ours", secret: func(*testing.T) string { return " " }},
		{name: "an erased account's link", reason: auth.ErrLinkUnknown, message: "not a sign-in link of ours", secret: func(t *testing.T) string {
			s := w.request(t, "carl@example.org")
			u, _ := w.users.ByEmail(ctx, "carl@example.org")
			if err := w.users.Erase(ctx, u.ID); err != nil { // its links go with it
				t.Fatal(err)
			}
			return s
		}},
		{name: "erased while its link was on its way", reason: auth.ErrNoUser, message: "no longer exists", secret: func(t *testing.T) string {
			s := w.request(t, "dora@example.org")
			if _, err := w.pool.Exec(ctx, `update users set email = null, erased_at = now() where lower(email) = 'dora@example.org'`); err != nil {
				t.Fatal(err)
			}
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secret := tc.secret(t)
			sessions := w.count(t, `select count(*) from sessions`)
			c, err := w.signIn.Confirm(ctx, secret)
			if tc.reason != nil {
				refusal, ok := errors.AsType[*auth.Refusal](err)
				if !ok || !errors.Is(err, tc.reason) || !strings.Contains(refusal.Message, tc.message) {
					t.Fatalf("got %v (%T), want a refusal for %v saying %q", err, err, tc.reason, tc.message)
				}
				if n := w.count(t, `select count(*) from sessions`); n != sessions {
					t.Fatalf("a refused link opened a session")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.User.Email != "ana@example.org" || c.User.ID != c.Session.User || c.Token == "" {
				t.Fatalf("confirmed %+v", c)
			}
			sess, err := w.sessions.Verify(ctx, c.Token)
			if err != nil || sess.ID != c.Session.ID {
				t.Fatalf("the session's token: %+v, %v", sess, err)
			}
			if n := w.count(t, `select count(*) from users where id = $1 and confirmed_at is not null`, c.User.ID); n != 1 {
				t.Fatal("using a link did not confirm the address")
			}
		})
	}
}

package notify_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify"
)

// newGameMail is a mail command creating a coyote game with invitees.
func newGameMail(from string, invitees ...string) string {
	return fmt.Sprintf("From: %s\nTo: play@%s\nSubject: new game\nMessage-ID: <%s>\n\nnew coyote with %s\n",
		from, domain, newMessageID(), strings.Join(invitees, " "))
}

var confirmLinkRe = regexp.MustCompile(`http://courrier\.test(/c/[a-z0-9.-]+)`)

// A sender who never proved their address cannot make courrier write to
// anyone else: their "new game with" gets them one confirmation request and
// nothing more; confirming by reply runs it, and the invitations name the
// inviter's address; a second command the same day gets no second request.
func TestForgedSenderMailsNobodyElse(t *testing.T) {
	w := newWorld(t, 21)
	sender, t1, t2 := "forged1@victim.example", "target1a@example.com", "target1b@example.com"
	w.mustSend(sender, "play@"+domain, newGameMail(sender, t1, t2))
	ask := w.waitKind(sender, "notice", 1)
	if !strings.Contains(ask.Text, "confirm") || !strings.HasPrefix(ask.ReplyTo, "c+") || !confirmLinkRe.MatchString(ask.Text) {
		t.Fatalf("the confirmation request:\\nreply-to %s\\n%s", ask.ReplyTo, ask.Text)
	}
	w.inboundDone()
	w.quiet(t1, 0)
	w.quiet(t2, 0)
	if n := w.allEvents(); n != 0 {
		t.Fatalf("an unconfirmed command wrote %d events", n)
	}
	// A second command the same day: no second mail to that address.
	w.mustSend(sender, "play@"+domain, newGameMail(sender, "target1c@example.com", "target1e@example.com"))
	w.inboundDone()
	w.quiet(sender, 1)

	// The owner answers: both commands run, the invitations go out and
	// say who invites.
	w.mustSend(sender, ask.ReplyTo, reply(sender, ask, "yes, it is me", "gmail"))
	for _, to := range []string{t1, t2, "target1c@example.com"} {
		inv := w.waitKind(to, "invitation", 1)
		if !strings.Contains(strings.Join(strings.Fields(inv.Text), " "), "("+sender+") invites you") {
			t.Fatalf("the invitation does not name the inviter's address:\\n%s", inv.Text)
		}
	}
	created := w.waitFor(sender, "two game-created notices", func(ms []message) bool {
		n := 0
		for _, m := range ofKind(ms, "notice") {
			if strings.Contains(m.Subject, "game created") {
				n++
			}
		}
		return n == 2
	})
	if len(created) < 3 {
		t.Fatalf("the sender got %d mails", len(created))
	}
	// The owner's later commands run at once.
	w.mustSend(sender, "play@"+domain, newGameMail(sender, "target1d@example.com", "target1f@example.com"))
	w.waitKind("target1d@example.com", "invitation", 1)
}

// The confirmation link shows a button (a GET changes nothing); pressing it
// confirms the address and runs the command; a forged link does nothing.
func TestConfirmationLink(t *testing.T) {
	w := newWorld(t, 22)
	sender, invitee := "linker@players.test", "friend@players.test"
	w.mustSend(sender, "play@"+domain, newGameMail(sender, invitee, "friend2@players.test"))
	ask := w.waitKind(sender, "notice", 1)
	m := confirmLinkRe.FindStringSubmatch(strings.Join(strings.Fields(ask.Text), ""))
	if m == nil {
		t.Fatalf("no confirmation link:\\n%s", ask.Text)
	}
	h := w.mail.Handler(w.jobs)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, m[1], nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<form method="post"`) {
		t.Fatalf("GET %s: %d\\n%s", m[1], rec.Code, rec.Body)
	}
	w.quiet(invitee, 0)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodPost, m[1]+"x", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("a forged link: %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodPost, m[1], nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "confirmed") {
		t.Fatalf("POST %s: %d\\n%s", m[1], rec.Code, rec.Body)
	}
	w.waitKind(invitee, "invitation", 1)
	u, err := w.users.ByEmail(t.Context(), sender)
	if err != nil || u.ConfirmedAt == nil {
		t.Fatalf("the sender is not confirmed: %+v, %v", u, err)
	}
}

// A burst of forged commands, each from another address, makes courrier
// send at most the hour's budget of confirmation requests, and nothing to
// anyone they name.
func TestForgedBurstStaysWithinTheBudget(t *testing.T) {
	const budget, burst = 25, 1000
	w := newWorld(t, 23, func(c *notify.Config) {
		c.FirstContactPerHour = budget
		c.RepliesPerHour = burst
	})
	var wg sync.WaitGroup
	errs := make(chan error, burst)
	sem := make(chan struct{}, 8)
	for i := range burst {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			from := fmt.Sprintf("forged%d@victim.example", i)
			if err := w.send(from, "play@"+domain, newGameMail(from, fmt.Sprintf("target%d@example.com", i))); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("sending the burst: %v", err)
	}
	deadline := time.Now().Add(90 * time.Second)
	for w.pendingInbound() > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := w.pendingInbound(); n > 0 {
		t.Fatalf("%d forged mails still unprocessed after 90 s", n)
	}
	w.mailQueueDone()
	requests, others := 0, 0
	for _, m := range w.relay.all() {
		switch {
		case strings.HasPrefix(m.To[0], "forged"):
			requests++
		default:
			others++
		}
	}
	if requests > budget || requests == 0 {
		t.Fatalf("%d confirmation requests for a budget of %d", requests, budget)
	}
	if others > 0 {
		t.Fatalf("%d mails went to addresses the forged commands named", others)
	}
	if n := w.allEvents(); n != 0 {
		t.Fatalf("the forged commands wrote %d events", n)
	}
	t.Logf("%d forged commands: %d confirmation requests (budget %d), no other mail, no game", burst, requests, budget)
}

// An invitation's one-click unsubscribe means "never invite me again": a
// later invitation to that address is not sent.
func TestNeverInviteMeAgain(t *testing.T) {
	w := newWorld(t, 24)
	w.confirmed("host@players.test")
	w.mustSend("host@players.test", "play@"+domain, newGameMail("host@players.test", "shy@players.test", "eager@players.test"))
	inv := w.waitKind("shy@players.test", "invitation", 1)
	raw := string(inv.Raw)
	_, link, found := strings.Cut(raw, "List-Unsubscribe: <")
	if !found {
		t.Fatalf("the invitation has no List-Unsubscribe:\\n%s", raw)
	}
	link, _, _ = strings.Cut(link, ">")
	path := strings.TrimPrefix(link, "http://courrier.test")
	h := w.mail.Handler(w.jobs)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
	if !strings.Contains(rec.Body.String(), "no more invitations") {
		t.Fatalf("GET %s: %d\\n%s", path, rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, strings.NewReader("List-Unsubscribe=One-Click"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST %s: %d", path, rec.Code)
	}
	// A later game by mail that names them is refused, saying why.
	w.confirmed("other@players.test")
	w.mustSend("other@players.test", "play@"+domain, newGameMail("other@players.test", "shy@players.test", "keen@players.test"))
	refused := w.waitKind("other@players.test", "notice", 1)
	if !strings.Contains(refused.Subject, "no game was created") || !strings.Contains(refused.Text, "shy@players.test") {
		t.Fatalf("inviting someone who refuses invitations: %q\n%s", refused.Subject, refused.Text)
	}
	// Every door refuses it alike (play does), and a game without them
	// goes on.
	if err := w.createByAPI(t, "other@players.test", "shy@players.test", "keen@players.test"); err == nil ||
		!strings.Contains(err.Error(), "shy@players.test asked courrier to send them no invitations") {
		t.Fatalf("inviting someone who refuses invitations over the API: %v", err)
	}
	w.inviteByAPI(t, "other@players.test", "keen@players.test", "eager@players.test")
	w.waitKind("keen@players.test", "invitation", 1)
	w.mailQueueDone()
	if got := ofKind(w.mailTo("shy@players.test"), "invitation"); len(got) != 1 {
		t.Fatalf("shy@ got %d invitations after asking for none", len(got))
	}
}

// allEvents counts the events of every stream.
func (w *world) allEvents() int {
	w.t.Helper()
	var n int
	if err := w.pool.QueryRow(context.Background(), `select count(*) from events`).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// pendingInbound counts the stored inbound mail not yet processed.
func (w *world) pendingInbound() int {
	w.t.Helper()
	var n int
	if err := w.pool.QueryRow(context.Background(), `select count(*) from inbound_mail where processed_at is null`).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// mailQueueDone waits until no mail job is waiting or running.
func (w *world) mailQueueDone() {
	w.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		if err := w.pool.QueryRow(context.Background(), `select count(*) from river_job where queue = 'mail' and state in ('available', 'running', 'retryable', 'pending')`).Scan(&n); err != nil {
			w.t.Fatal(err)
		}
		if n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatal("mail jobs still queued after 60 s")
}

// A DMARC pass in the trusted relay's Authentication-Results confirms the
// sender, but only when that relay handed the mail over itself: the same
// header from a connection that is not trusted is anyone's to write.
func TestDMARCPassFromTheTrustedRelayConfirms(t *testing.T) {
	none, err := notify.ParseTrustedRelays("none")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		trusted  *notify.TrustedRelays // nil: this machine, where the test sends from
		confirms bool
	}{
		{"through the trusted relay", nil, true},
		{"from a connection not trusted", none, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 25, func(c *notify.Config) { c.Inbound.Trusted = tc.trusted })
			sender := "dana@players.test"
			raw := "Authentication-Results: " + domain + "; dmarc=pass header.from=players.test; spf=pass smtp.mailfrom=players.test\n" +
				newGameMail(sender, "ed@players.test", "flo@players.test")
			w.mustSend(sender, "play@"+domain, raw)
			first := w.waitKind(sender, "notice", 1)
			if got := strings.Contains(first.Subject, "game created"); got != tc.confirms {
				t.Fatalf("the first mail of a DMARC-vouched sender got %q; want a game created: %v", first.Subject, tc.confirms)
			}
			u, err := w.users.ByEmail(t.Context(), sender)
			if err != nil || (u.ConfirmedAt != nil) != tc.confirms {
				t.Fatalf("confirmed %v (%v), want %v", u.ConfirmedAt, err, tc.confirms)
			}
		})
	}
}

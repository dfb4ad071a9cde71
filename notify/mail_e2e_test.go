package notify_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// startByMail creates a Coyote game among addrs by mail and returns the
// first prompt and who got it.
func startByMail(t *testing.T, w *world, addrs []string) (string, message) {
	t.Helper()
	w.confirmed(addrs[0])
	w.mustSend(addrs[0], "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: hi\nMessage-ID: <%s>\n\nnew coyote with %s\n",
		addrs[0], domain, newMessageID(), strings.Join(addrs[1:], " ")))
	for _, a := range addrs[1:] {
		inv := w.waitKind(a, "invitation", 1)
		w.mustSend(a, inv.ReplyTo, reply(a, inv, "join "+nameOf(a), "gmail"))
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, a := range addrs {
			if p := ofKind(w.mailTo(a), "prompt"); len(p) > 0 {
				// A prompt says by when, as a date a person reads: a turn
				// lasts 72 hours by default.
				want := "Please move by " + time.Now().Add(72*time.Hour).UTC().Format("Monday 2 January")
				if !strings.Contains(strings.Join(strings.Fields(p[0].Text), " "), want) {
					t.Fatalf("the first prompt does not say %q:\n%s", want, p[0].Text)
				}
				return a, p[0]
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no first prompt")
	return "", message{}
}

// quiet asserts that address gets no new mail within a while.
func (w *world) quiet(address string, had int) {
	w.t.Helper()
	time.Sleep(700 * time.Millisecond)
	if got := w.mailTo(address); len(got) != had {
		w.t.Fatalf("%s got %d new mails (%s), want none", address, len(got)-had, got[len(got)-1].Subject)
	}
}

func TestBadRepliesChangeNothing(t *testing.T) {
	w := newWorld(t, 2)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	events := w.countEvents(game)

	t.Run("a reply from another address is refused and says nothing of the game", func(t *testing.T) {
		stranger := "mallory@elsewhere.test"
		w.mustSend(stranger, prompt.ReplyTo, reply(stranger, prompt, "1", "gmail"))
		w.inboundDone()
		ref := w.waitKind(stranger, "refusal", 1)
		if !strings.Contains(ref.Text, "another player") {
			t.Errorf("refusal to a stranger:\n%s", ref.Text)
		}
		if strings.Contains(ref.Text, "feather") || strings.Contains(ref.Text, nameOf(who)) {
			t.Errorf("the refusal to a stranger tells of the game:\n%s", ref.Text)
		}
		if n := w.countEvents(game); n != events {
			t.Fatalf("%d events written", n-events)
		}
	})

	t.Run("an out-of-office reply is ignored, unanswered", func(t *testing.T) {
		had := len(w.mailTo(who))
		raw := fmt.Sprintf("From: %s\nTo: %s\nSubject: Automatic reply: %s\nAuto-Submitted: auto-replied\nMessage-ID: <%s>\n\nI am away until Monday.\n",
			who, prompt.ReplyTo, prompt.Subject, newMessageID())
		w.mustSend(who, prompt.ReplyTo, raw)
		if out := w.inboundDone(); !strings.HasPrefix(out, "ignored") {
			t.Fatalf("outcome %q", out)
		}
		w.quiet(who, had)
		if n := w.countEvents(game); n != events {
			t.Fatalf("%d events written", n-events)
		}
	})

	t.Run("an unparsable move is refused with the rule and the moves", func(t *testing.T) {
		w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "fly to the moon", "gmail"))
		w.inboundDone()
		ref := w.waitKind(who, "refusal", 1)
		if !strings.Contains(ref.Text, "fly to the moon") || len(numbered(ref.Text)) == 0 || ref.ReplyTo == "" {
			t.Errorf("refusal:\n%s", ref.Text)
		}
		if n := w.countEvents(game); n != events {
			t.Fatalf("%d events written", n-events)
		}
	})

	t.Run("the same reply delivered twice is one move and one receipt", func(t *testing.T) {
		raw := reply(who, prompt, choose(t, nil, numbered(prompt.Text)), ">")
		w.mustSend(who, prompt.ReplyTo, raw)
		w.mustSend(who, prompt.ReplyTo, raw)
		w.inboundDone()
		w.waitKind(who, "receipt", 1)
		time.Sleep(500 * time.Millisecond)
		if got := len(ofKind(w.mailTo(who), "receipt")); got != 1 {
			t.Fatalf("%d receipts", got)
		}
		if n := w.countEvents(game); n != events+1 {
			t.Fatalf("%d events written, want 1", n-events)
		}
		events++
	})

	t.Run("a reply out of turn says whose turn it is and plays nothing", func(t *testing.T) {
		// The prompt's move was played: the same address answering it again
		// with another mail is out of turn, not "moved on".
		w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "1", "gmail"))
		w.inboundDone()
		// Refusals are at most one an hour per game: the unparsable move
		// above had one, so this one is recorded, not answered.
		var outcome string
		_ = w.pool.QueryRow(context.Background(), `select outcome from inbound_mail order by id desc limit 1`).Scan(&outcome)
		if !strings.Contains(outcome, "it is not your turn: the game waits for ") || strings.Contains(outcome, "moved on") {
			t.Fatalf("outcome %q, want: it is not your turn, and whose it is", outcome)
		}
		if n := w.countEvents(game); n != events {
			t.Fatalf("%d events written", n-events)
		}
	})

	t.Run("unknown and forged reply addresses are refused at RCPT", func(t *testing.T) {
		forged := strings.Replace(prompt.ReplyTo, ".", "x", 1)
		for _, rcpt := range []string{forged, "m+nonsense@" + domain, "root@" + domain, "play@other.test"} {
			err := w.send(who, rcpt, "Subject: x\n\n1\n")
			var te *textproto.Error
			if !errors.As(err, &te) || te.Code != 550 || !strings.Contains(te.Msg, "5.1.1") {
				t.Errorf("RCPT %s: %v, want 550 5.1.1", rcpt, err)
			}
		}
	})
}

func TestRelayDownThenUpDeliversEveryMailOnce(t *testing.T) {
	w := newWorld(t, 4)
	w.relay.setDown(true)
	ctx := context.Background()
	creator, err := w.users.Ensure(ctx, players[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.play.CreateGame(ctx, play.Actor{User: creator.ID, Channel: play.ChannelAPI}, play.GameRequest{Kind: "coyote", Name: "Ana", Invite: players[1:]}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // several failed attempts
	if n := len(w.relay.all()); n != 0 {
		t.Fatalf("%d mails went through a relay that is down", n)
	}
	var failing int
	_ = w.pool.QueryRow(ctx, `select count(*) from mail_log where sent_at is null and last_error is not null`).Scan(&failing)
	if failing != 3 {
		t.Fatalf("%d mails recorded as failing, want 3", failing)
	}
	w.relay.setDown(false)
	for _, a := range players[1:] {
		w.waitKind(a, "invitation", 1)
	}
	time.Sleep(700 * time.Millisecond)
	seen := map[string]int{}
	for _, m := range w.relay.all() {
		seen[parse(m).MessageID]++
	}
	if len(seen) != 3 {
		t.Fatalf("%d distinct mails delivered, want 3", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
}

// A mail the relay refuses for good (550) is tried once, recorded as
// failed with the relay's answer, and listed for the operator; the other
// mails of the same game are delivered.
func TestRelayRefusalIsRecordedAndNotRetried(t *testing.T) {
	w := newWorld(t, 6)
	w.relay.mu.Lock()
	w.relay.refuse = map[string]bool{players[1]: true}
	w.relay.mu.Unlock()
	ctx := context.Background()
	w.inviteByAPI(t, players[0], players[1:3]...)
	w.waitKind(players[2], "invitation", 1)
	var failed []mailstore.LoggedMail
	var err error
	for range 100 {
		if failed, err = mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{Failed: true}); err != nil {
			t.Fatal(err)
		}
		if len(failed) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(failed) != 1 || failed[0].Recipient != players[1] || failed[0].Status() != "failed" || failed[0].Attempts != 1 ||
		!strings.Contains(failed[0].LastError, "550") || !strings.Contains(failed[0].LastError, "refused by the relay") {
		t.Fatalf("the failed mails: %+v", failed)
	}
	time.Sleep(time.Second) // fastRetry would have retried it five times
	var attempts int
	var state string
	if err := w.pool.QueryRow(ctx, `select m.attempts, j.state from mail_log m, river_job j
		where m.message_id = $1 and j.kind = 'mail.invitation' and j.args->>'user' = (select id from users where email = $2)`,
		failed[0].MessageID, players[1]).Scan(&attempts, &state); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || state != "cancelled" {
		t.Fatalf("the refused mail: %d attempts, job %s; want 1 attempt, cancelled", attempts, state)
	}
	if n, err := mailstore.New(w.pool).FailedMailCount(ctx); err != nil || n != 1 {
		t.Fatalf("failed count %d, %v", n, err)
	}
	if all, _ := mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{To: players[2]}); len(all) != 1 || all[0].Status() != "sent" {
		t.Fatalf("the other player's invitation: %+v", all)
	}
	// The mailbox does not exist: courrier writes there no more until its
	// owner signs in or writes.
	var bounced bool
	if err := w.pool.QueryRow(ctx, `select bounced_at is not null from users where email = $1`, players[1]).Scan(&bounced); err != nil || !bounced {
		t.Fatalf("the bounced address is not marked: %v, %v", bounced, err)
	}
	w.relay.mu.Lock()
	w.relay.refuse = nil
	w.relay.mu.Unlock()
	w.inviteByAPI(t, players[2], players[1], players[3])
	w.waitKind(players[3], "invitation", 1)
	w.mailQueueDone()
	if got := ofKind(w.mailTo(players[1]), "invitation"); len(got) != 0 {
		t.Fatalf("the bounced address got %d invitations", len(got))
	}
	// Its owner writes: the mailbox works again.
	w.mustSend(players[1], "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: games\nMessage-ID: <%s>\n\ngames\n", players[1], domain, newMessageID()))
	w.waitKind(players[1], "notice", 1)
}

// The mail log knows the job that last tried each mail: a mail whose job
// ended without delivering it (discarded after its last attempt, or by
// River's rescuer, or cleaned up since) is listed as failed, with why, and
// not as "trying" for ever.
func TestMailWhoseJobEndedIsListedAsFailed(t *testing.T) {
	w := newWorld(t, 6)
	ctx := context.Background()
	w.inviteByAPI(t, players[0], players[1:3]...)
	w.waitKind(players[1], "invitation", 1)
	var id string
	var job int64
	if err := w.pool.QueryRow(ctx, `select m.message_id, m.job_id from mail_log m join river_job j on j.id = m.job_id
		where m.recipient = $1 and j.kind = 'mail.invitation'`, players[1]).Scan(&id, &job); err != nil {
		t.Fatalf("the invitation's mail log row names no job of its own: %v", err)
	}
	// Its delivery is not recorded (as after a crash just before), and its
	// job ends in each of these ways.
	if _, err := w.pool.Exec(ctx, `update mail_log set sent_at = null where message_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		jobSQL, status, says string
	}{
		{`update river_job set state = 'retryable', finalized_at = null, scheduled_at = now() + interval '1 hour' where id = $1`, "trying", ""},
		{`update river_job set state = 'discarded', finalized_at = now() where id = $1`, "failed", "its delivery job ended (discarded) without delivering it"},
		{`delete from river_job where id = $1`, "failed", "its delivery job ended (gone) without delivering it"},
	} {
		if _, err := w.pool.Exec(ctx, tc.jobSQL, job); err != nil {
			t.Fatal(err)
		}
		all, err := mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{To: players[1]})
		if err != nil {
			t.Fatal(err)
		}
		failed, _ := mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{Failed: true})
		n, _ := mailstore.New(w.pool).FailedMailCount(ctx)
		if len(all) != 1 || all[0].Status() != tc.status || !strings.Contains(all[0].LastError, tc.says) ||
			(len(failed) == 1) != (tc.status == "failed") || (n == 1) != (tc.status == "failed") {
			t.Errorf("%s: listed %+v (status %q), %d failed, count %d; want %s saying %q", tc.jobSQL, all, all[0].Status(), len(failed), n, tc.status, tc.says)
		}
	}
}

func TestUnsubscribeStopsTheGamesMail(t *testing.T) {
	w := newWorld(t, 5)
	who, prompt := startByMail(t, w, players[:3])
	raw := string(prompt.Raw)
	_, link, found := strings.Cut(raw, "List-Unsubscribe: <")
	if !found || !strings.Contains(raw, "List-Unsubscribe-Post: List-Unsubscribe=One-Click") {
		t.Fatalf("the prompt has no one-click List-Unsubscribe:\n%s", raw[:min(len(raw), 2000)])
	}
	link, _, _ = strings.Cut(link, ">")
	path := strings.TrimPrefix(link, "http://courrier.test")
	h := w.mail.Handler(w.jobs)
	// A GET (a mail scanner) changes nothing.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<form method=\"post\"") {
		t.Fatalf("GET %s: %d\n%s", path, rec.Code, rec.Body)
	}
	for range 2 { // idempotent
		rec = httptest.NewRecorder()
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("POST %s: %d", path, rec.Code)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodPost, path+"x", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("a forged link: %d", rec.Code)
	}
	// The player moves; the game goes on, and no mail of it reaches them.
	had := len(w.mailTo(who))
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, choose(t, nil, numbered(prompt.Text)), "gmail"))
	w.inboundDone()
	time.Sleep(700 * time.Millisecond)
	if got := w.mailTo(who); len(got) != had {
		t.Fatalf("after unsubscribing, %s got %q", who, got[len(got)-1].Subject)
	}
}

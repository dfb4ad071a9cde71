package notify_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify"
)

// briskClock is the service's clock in a brisk game: real time plus the
// few seconds each player takes to answer.
type briskClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *briskClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *briskClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off += d
}

// A whole Coupage game among four friends who answer every prompt within
// seconds, all by SMTP with the default limits: every mail is played (or
// joins, confirms, creates), and no limit is met. The whole game is sent
// within an hour of real time, so every mail counts against the hourly
// limits; the SMTP server's minute limits see the players' pace (a few
// seconds a mail, on the service's clock).
func TestBriskCoupageMeetsNoLimit(t *testing.T) {
	clock := &briskClock{}
	w := newWorld(t, 5, func(c *notify.Config) { c.Now = clock.now })
	w.onSend = func() { clock.advance(3 * time.Second) }
	addrs := players[:4]
	game, moves := playByMail(t, w, "coupage", addrs, 11)
	if game == "" {
		t.Fatal("the game-over mail names no game")
	}
	rows, err := w.pool.Query(context.Background(), `select lower(coalesce(sender, '')), coalesce(outcome, '') from inbound_mail order by id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	per := map[string]int{}
	for rows.Next() {
		var sender, outcome string
		if err := rows.Scan(&sender, &outcome); err != nil {
			t.Fatal(err)
		}
		per[sender]++
		if !strings.HasPrefix(outcome, "played ") && !strings.HasPrefix(outcome, "joined") &&
			!strings.Contains(outcome, "confirm") && !strings.HasPrefix(outcome, "created") {
			t.Errorf("a mail from %s was not played: %s", sender, outcome)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, a := range addrs {
		most = max(most, per[a])
		for _, m := range w.mailTo(a) {
			if m.Kind == "refusal" || strings.Contains(m.Subject, "read again") {
				t.Errorf("%s got a %s: %s\n%s", a, m.Kind, m.Subject, m.Text)
			}
		}
	}
	// The whole game is within an hour of real time: every mail counted
	// against the hourly limit. The pace kept up for an hour, on the
	// players' clock, must be within it too, with room to spare.
	took := time.Until(clock.now())
	hourly := float64(most) * float64(time.Hour) / float64(took)
	if hourly*1.2 > notify.DefaultMailsPerHour {
		t.Errorf("a player sent %d mails in %v, %.0f an hour at that pace: the hourly limit of %d leaves too little room", most, took, hourly, notify.DefaultMailsPerHour)
	}
	t.Logf("coupage game %s: %d replies; mails per player %v in %v on the players' clock (%.0f an hour)", game, moves, per, took.Round(time.Second), hourly)
}

// limitClock is a fixed time for the SMTP limits' answers.
var limitClock = time.Date(2026, 11, 26, 14, 4, 30, 200_000_000, time.UTC)

// Every limit answers once, in words: which limit, and until when.
func TestEveryLimitAnswers(t *testing.T) {
	none, err := notify.ParseTrustedRelays("none")
	if err != nil {
		t.Fatal(err)
	}
	reply := func(w *world, game string) string {
		return "m+" + w.signer.Sign(notify.Token{Kind: notify.TokenMove, Game: game, Seat: 0, Version: 3, Expires: time.Now().Add(time.Hour)}) + "@" + domain
	}
	for _, tc := range []struct {
		name   string
		limits notify.InboundLimits
		// run sends past the limit and returns the SMTP refusal's text.
		run  func(t *testing.T, w *world) string
		want []string
	}{
		{"connections a minute from one address", notify.InboundLimits{Trusted: none, ConnectionsPerMinute: 2}, func(t *testing.T, w *world) string {
			for i := range 3 {
				r := dialRaw(t, w.inbound)
				if code, msg := r.cmd("EHLO mx.players.test"); i == 2 {
					if code != 421 {
						t.Fatalf("connection 3 of 2 a minute: %d %s", code, msg)
					}
					return msg
				}
			}
			return ""
		}, []string{"courrier takes 2 connections a minute from one address, and had them from 127.0.0.1", "connect again from 14:05:31 UTC"}},
		{"mails a minute from one sender", notify.InboundLimits{MailsPerSender: 2}, func(t *testing.T, w *world) string {
			r := dialRaw(t, w.inbound)
			r.cmd("EHLO mx.players.test")
			for i := range 2 {
				r.cmd("MAIL FROM:<ana@players.test>")
				r.cmd("RCPT TO:<play@" + domain + ">")
				if code, msg := r.data(fmt.Sprintf("From: ana@players.test\r\nMessage-ID: <%s>\r\n\r\ngames\r\n", newMessageID())); code != 250 {
					t.Fatalf("mail %d: %d %s", i+1, code, msg)
				}
			}
			code, msg := r.cmd("MAIL FROM:<ana@players.test>")
			if code != 450 {
				t.Fatalf("mail 3 of 2 a minute: %d %s", code, msg)
			}
			return msg
		}, []string{"courrier takes 2 mails a minute from one sender, and had them from <ana@players.test>", "send again from 14:05:31 UTC"}},
		{"mails a minute to one reply address", notify.InboundLimits{MailsPerReplyAddress: 1}, func(t *testing.T, w *world) string {
			to := reply(w, "g1")
			r := dialRaw(t, w.inbound)
			r.cmd("EHLO mx.players.test")
			r.cmd("MAIL FROM:<ana@players.test>")
			r.cmd("RCPT TO:<" + to + ">")
			if code, msg := r.data(fmt.Sprintf("From: ana@players.test\r\nMessage-ID: <%s>\r\n\r\nbid 3\r\n", newMessageID())); code != 250 {
				t.Fatalf("mail 1: %d %s", code, msg)
			}
			r.cmd("MAIL FROM:<bob@players.test>")
			code, msg := r.cmd("RCPT TO:<" + to + ">")
			if code != 450 {
				t.Fatalf("mail 2 of 1 a minute: %d %s", code, msg)
			}
			return msg
		}, []string{"courrier takes 1 mail a minute at one reply address, and had them at this one", "send again from 14:05:31 UTC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 32, func(c *notify.Config) { c.Inbound, c.Now = tc.limits, func() time.Time { return limitClock } })
			msg := tc.run(t, w)
			for _, want := range tc.want {
				if !strings.Contains(msg, want) {
					t.Errorf("the answer %q does not say %q", msg, want)
				}
			}
		})
	}
}

// Past the hourly limit a sender is told once, by mail, until when their
// mail is set aside; a mail whose From may be forged is not answered.
func TestHourlyLimitIsToldOnce(t *testing.T) {
	w := newWorld(t, 33, func(c *notify.Config) { c.RepliesPerHour = 3 })
	ana := players[0]
	w.confirmed(ana)
	lobby := func(from, envelope string) {
		t.Helper()
		if err := w.send(envelope, "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: list\nMessage-ID: <%s>\n\ngames\n", from, domain, newMessageID())); err != nil {
			t.Fatal(err)
		}
		w.inboundDone()
	}
	for range 3 {
		lobby(ana, ana)
	}
	var first time.Time
	if err := w.pool.QueryRow(t.Context(), `select min(received_at) from inbound_mail`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	w.waitKind(ana, "notice", 3) // the games, listed three times
	had := len(w.mailTo(ana))
	lobby(ana, "bob@players.test") // From forged: over the limit, unanswered
	lobby(ana, ana)                // told
	lobby(ana, ana)                // told already
	told := w.waitFor(ana, "the limit's notice", func(ms []message) bool { return len(ms) > had })
	time.Sleep(500 * time.Millisecond)
	if got := w.mailTo(ana); len(got) != had+1 {
		t.Fatalf("%d mails past the limit, want 1:\n%s", len(got)-had, w.trace())
	}
	until := first.Add(time.Hour).UTC()
	if r := until.Truncate(time.Minute); !r.Equal(until) {
		until = r.Add(time.Minute)
	}
	m := told[had]
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, want := range []string{"You have sent 3 mails to courrier in the last hour", "mail from you is read again from " + clockUTC(until)} {
		if !strings.Contains(text, want) {
			t.Errorf("the notice does not say %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.Subject, "read again from "+clockUTC(until)) {
		t.Errorf("the notice's subject: %s", m.Subject)
	}
}

// Refusals about one game are answered up to the limit; the last says so,
// and until when; the mail after it is not answered.
func TestRefusalLimitIsTold(t *testing.T) {
	w := newWorld(t, 3, func(c *notify.Config) { c.RefusalsPerHour = 3 })
	who, prompt := startByMail(t, w, players[:3])
	for i := range 5 {
		w.mustSend(who, prompt.ReplyTo, reply(who, prompt, fmt.Sprintf("nonsense %d", i), "gmail"))
		w.inboundDone()
	}
	w.waitKind(who, "refusal", 3)
	time.Sleep(500 * time.Millisecond)
	refusals := ofKind(w.mailTo(who), "refusal")
	if len(refusals) != 3 {
		t.Fatalf("%d refusals for five bad replies within the hour, want 3", len(refusals))
	}
	var first time.Time
	if err := w.pool.QueryRow(t.Context(), `select min(processed_at) from inbound_mail where outcome like 'refused: %'`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	until := first.Add(time.Hour).UTC()
	if r := until.Truncate(time.Minute); !r.Equal(until) {
		until = r.Add(time.Minute)
	}
	for i, m := range refusals {
		text := strings.Join(strings.Fields(m.Text), " ")
		says := strings.Contains(text, "This is the 3rd mail of yours about this game that courrier could not play in the last hour") &&
			strings.Contains(text, "until "+clockUTC(until)+" it does not answer such mail")
		if says != (i == 2) {
			t.Errorf("refusal %d says the limit: %v\n%s", i+1, says, m.Text)
		}
	}
}

// clockUTC is a time of day as the mails say it in English: the hour
// without a leading zero ("9:05 UTC", "0:00 UTC").
func clockUTC(t time.Time) string {
	return fmt.Sprintf("%d:%02d UTC", t.UTC().Hour(), t.UTC().Minute())
}

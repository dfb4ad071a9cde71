package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify"
)

// A reminder repeats the prompt before the deadline, with the deadline and
// a reply address that plays; none goes out once the player acted, and a
// player who wrote "reminders off" gets none.
func TestRemindersBeforeTheDeadline(t *testing.T) {
	w := newWorld(t, 5)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	tbl, err := w.play.Load(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	p := tbl.Pending[0]
	remind := func(label string) {
		t.Helper()
		if _, err := w.jobs.Insert(context.Background(), jobs.Reminder{GameID: game, Seat: int(p.Seat), Entry: p.Kind, Since: p.Since, Label: label}, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The player reads times in Tokyo's time, written as games.Words.When
	// writes them, with the zone: "Sunday 29 November at 22:34 JST".
	u, err := w.users.ByEmail(context.Background(), who)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.SetTimeZone(context.Background(), u.ID, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	remind("half")
	r := w.waitKind(who, "reminder", 1)
	text := strings.Join(strings.Fields(r.Text), " ")
	deadline, _ := tbl.Deadline(p)
	if !strings.Contains(text, "A reminder: it is still your turn") || !strings.Contains(text, deadline.In(tokyo).Format("Monday 2 January")+" at "+strings.TrimPrefix(deadline.In(tokyo).Format("15:04 JST"), "0")) {
		t.Fatalf("the reminder does not say it is still their turn, and until when:\n%s", r.Text)
	}
	if !strings.Contains(strings.ToLower(r.Subject), "reminder") || r.ReplyTo == "" {
		t.Fatalf("reminder subject %q, reply-to %q", r.Subject, r.ReplyTo)
	}

	// "reminders off" by mail: no more reminders.
	w.mustSend(who, "play@"+domain, "From: "+who+"\nTo: play@"+domain+"\nSubject: x\nMessage-ID: <"+newMessageID()+">\n\nreminders off\n")
	if n := w.waitKind(who, "notice", 1); !strings.Contains(n.Text, "Reminders are now off") {
		t.Fatalf("the answer to reminders off:\n%s", n.Text)
	}
	remind("last")
	time.Sleep(500 * time.Millisecond) // the queue runs the reminder job meanwhile
	if got := ofKind(w.mailTo(who), "reminder"); len(got) != 1 {
		t.Fatalf("%d reminders after reminders off, want the first only", len(got))
	}
	// The player acts on the prompt: a later reminder of that entry is
	// not sent, reminders on or not.
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "1", "gmail"))
	w.inboundDone()
	// Reminders on again; the entry was answered: still nothing.
	w.mustSend(who, "play@"+domain, "From: "+who+"\nTo: play@"+domain+"\nSubject: x\nMessage-ID: <"+newMessageID()+">\n\nreminders on\n")
	w.waitKind(who, "notice", 2)
	remind("again")
	time.Sleep(500 * time.Millisecond)
	if got := ofKind(w.mailTo(who), "reminder"); len(got) != 1 {
		t.Fatalf("a reminder went out after the player acted (%d reminders)", len(got))
	}
}

// "away 2d" in a reply to a prompt pauses the player's deadlines in that
// game and the others are told; "back" ends it; a nonsense duration is
// refused and changes nothing.
func TestAwayAndBackByMail(t *testing.T) {
	w := newWorld(t, 6)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	before := w.countEvents(game)
	notices := len(ofKind(w.mailTo(who), "notice"))
	var others []string
	had := map[string]int{}
	for _, a := range addrs {
		if a != who {
			others = append(others, a)
			had[a] = len(ofKind(w.mailTo(a), "notice"))
		}
	}
	// The last of the others turned notices off: they are not told.
	quietOne := others[len(others)-1]
	u, err := w.users.ByEmail(context.Background(), quietOne)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.NewMailPreferences(w.pool, nil).Set(context.Background(), u.ID, "", notify.KindNotice, false); err != nil {
		t.Fatal(err)
	}
	told := func(what string, n int) {
		t.Helper()
		m := w.waitKind(others[0], "notice", had[others[0]]+n)
		if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), nameOf(who)+" "+what) || !strings.HasPrefix(m.ReplyTo, "g+") {
			t.Fatalf("the notice to %s does not say %q with a game reply address (%q):\n%s", others[0], nameOf(who)+" "+what, m.ReplyTo, m.Text)
		}
	}
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "away soon", "gmail"))
	w.inboundDone()
	if n := w.countEvents(game); n != before {
		t.Fatalf("away soon wrote %d events", n-before)
	}
	w.waitKind(who, "refusal", 1)
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "away 2d", "gmail"))
	w.inboundDone()
	if n := w.waitKind(who, "notice", notices+1); !strings.Contains(n.Text, "wait until") {
		t.Fatalf("the answer to away 2d:\n%s", n.Text)
	}
	hist, err := w.play.History(context.Background(), game, "", before)
	if err != nil || len(hist) != 1 || !strings.Contains(hist[0].Text.String(), "is away until") {
		t.Fatalf("after away 2d the game says %+v (%v)", hist, err)
	}
	told("is away until", 1)
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "back", "gmail"))
	w.inboundDone()
	if n := w.waitKind(who, "notice", notices+2); !strings.Contains(n.Text, "run again") {
		t.Fatalf("the answer to back:\n%s", n.Text)
	}
	told("is back", 2)
	// Once every absence notice was worked, the one who turned notices
	// off got none.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var left int
		if err := w.pool.QueryRow(context.Background(), `select count(*) from river_job where kind = 'mail.absence' and state not in ('completed', 'cancelled', 'discarded')`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d absence notices not worked after 20 s", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := len(ofKind(w.mailTo(quietOne), "notice")); got != had[quietOne] {
		t.Fatalf("%s turned notices off and got %d notices", quietOne, got-had[quietOne])
	}
}

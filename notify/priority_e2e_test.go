package notify_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/play"
)

// mailWorkers is the mail queue's workers in newWorld: a mail fetched
// with others is sent with them, in any order among them.
const mailWorkers = 4

// stopJobs stops the world's River client, as an outage would: the mail
// queued meanwhile waits.
func (w *world) stopJobs() {
	w.t.Helper()
	stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.jobs.Stop(stop); err != nil {
		w.t.Fatal(err)
	}
}

// startJobs starts the world's River client again and returns how many
// mails the relay had then.
func (w *world) startJobs() int {
	w.t.Helper()
	n := len(w.relay.all())
	if err := w.jobs.Start(context.Background()); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// sentFrom waits until every mail job due was worked (a mail sent, or
// skipped: an invitation to a seat taken meanwhile), and returns the
// mails the relay received after its first from, in the order received.
func (w *world) sentFrom(from int) []message {
	w.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for w.mailJobsWaiting() > 0 {
		if time.Now().After(deadline) {
			w.t.Fatalf("%d mail jobs still waiting after 60 s\n%s", w.mailJobsWaiting(), w.trace())
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.relay.mu.Lock()
	defer w.relay.mu.Unlock()
	return append([]message(nil), w.relay.parsed[from:]...)
}

// mailJobsWaiting counts the mail jobs that could run now.
func (w *world) mailJobsWaiting() int {
	w.t.Helper()
	var n int
	if err := w.pool.QueryRow(context.Background(), `select count(*) from river_job where queue = $1
		and state in ('available', 'retryable', 'running') and scheduled_at <= now()`, jobs.QueueMail).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// firstIndex is the index in ms of the first mail of kind to address
// ("" for any), -1 for none.
func firstIndex(ms []message, kind, address string) int {
	return slices.IndexFunc(ms, func(m message) bool {
		return m.Kind == kind && (address == "" || slices.Contains(m.To, address))
	})
}

// Decision 9 through the real River client and SMTP on loopback: mail
// queued while the queue was down goes out by priority once it is back.
// A sign-in link asked after a burst of 60 games' prompts is among the
// first mails the relay gets, and the games' prompts go before their
// invitations (lobby news). Then, with every reminder of those games due
// at once, the receipt of a move by mail goes before the reminders.
func TestMailGoesOutByPriority(t *testing.T) {
	loginKey := bytes.Repeat([]byte{4}, 32)
	w := newWorld(t, 41, func(c *notify.Config) { c.LoginKey = loginKey })
	ctx := context.Background()
	const burst = 60

	w.stopJobs()
	type game struct {
		id   string
		seat map[games.Seat]string // the user id of each seat
	}
	var played []game
	for i := range burst {
		a, b := fmt.Sprintf("a%02d@players.test", i), fmt.Sprintf("b%02d@players.test", i)
		ua, err := w.users.Ensure(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		out, err := w.play.CreateGame(ctx, play.Actor{User: ua.ID, Channel: play.ChannelAPI}, play.GameRequest{Kind: "coup", Name: "A", Invite: []string{b}})
		if err != nil {
			t.Fatal(err)
		}
		ub, err := w.users.ByEmail(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.play.Join(ctx, play.Actor{User: ub.ID, Channel: play.ChannelAPI}, out.GameID, "B"); err != nil {
			t.Fatal(err)
		}
		tbl, err := w.play.Load(ctx, out.GameID)
		if err != nil {
			t.Fatal(err)
		}
		played = append(played, game{id: out.GameID, seat: map[games.Seat]string{tbl.SeatOf(ua.ID): ua.ID, tbl.SeatOf(ub.ID): ub.ID}})
		// Lobby news: A also invites C to a game C has not joined yet.
		c := fmt.Sprintf("c%02d@players.test", i)
		if _, err := w.play.CreateGame(ctx, play.Actor{User: ua.ID, Channel: play.ChannelAPI}, play.GameRequest{Kind: "coup", Name: "A", Invite: []string{c}}); err != nil {
			t.Fatal(err)
		}
	}
	// Then someone asks for a sign-in link.
	zoe := "zoe@players.test"
	uz, err := w.users.Ensure(ctx, zoe)
	if err != nil {
		t.Fatal(err)
	}
	queueLogin := jobs.QueueLogin(w.jobs)
	if err := auth.NewLinks(w.pool, time.Now).Issue(ctx, loginKey, uz.ID, func(ctx context.Context, tx pgx.Tx, id int64) error {
		return queueLogin(ctx, tx, id, uz.ID, "")
	}); err != nil {
		t.Fatal(err)
	}
	sent := w.sentFrom(w.startJobs())
	login := firstIndex(sent, notify.KindLogin, zoe)
	if login < 0 || login >= 2*mailWorkers {
		t.Errorf("the sign-in link was mail %d of %d, want among the first %d (before the burst of prompts)", login+1, len(sent), 2*mailWorkers)
	}
	prompts, invitations := len(ofKind(sent, notify.KindPrompt)), 0
	if prompts < burst {
		t.Errorf("%d prompts sent, want at least one to each of the %d games", prompts, burst)
	}
	for i, m := range sent {
		if m.Kind != notify.KindInvitation {
			continue
		}
		invitations++
		// Only the last prompts fetched may be sent with the first
		// invitations.
		if i < prompts+1-2*mailWorkers {
			t.Errorf("the invitation to %s was mail %d, before %d prompts and the sign-in link were sent", m.To, i+1, prompts+1-2*mailWorkers)
		}
	}
	if invitations != burst {
		t.Errorf("%d invitations sent, want %d", invitations, burst)
	}

	// The queue is down again; meanwhile every reminder came due, and a
	// player of the first game moved by mail.
	w.stopJobs()
	tag, err := w.pool.Exec(ctx, `update river_job set state = 'available', scheduled_at = now() - interval '1 minute'
		where kind = 'mail.reminder' and state = 'scheduled'`)
	if err != nil {
		t.Fatal(err)
	}
	reminders := int(tag.RowsAffected())
	if reminders < burst {
		t.Fatalf("%d reminders queued, want at least one for each of the %d games", reminders, burst)
	}
	g := played[0]
	tbl, err := w.play.Load(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	p := tbl.Pending[0]
	mover := g.seat[p.Seat]
	// A move (not one of Coup's standing settings).
	legal := tbl.Engine.Legal(tbl.State, p.Seat)
	move := legal[slices.IndexFunc(legal, func(l string) bool { return !strings.HasPrefix(l, "auto-") })]
	if _, err := w.play.Move(ctx, play.Actor{User: mover, Channel: play.ChannelEmail}, g.id, tbl.Version, []string{move}); err != nil {
		t.Fatal(err)
	}
	moverMail, err := w.users.ByID(ctx, mover)
	if err != nil {
		t.Fatal(err)
	}
	sent = w.sentFrom(w.startJobs())
	receipt := firstIndex(sent, notify.KindReceipt, moverMail.Email)
	if receipt < 0 || receipt >= 2*mailWorkers {
		t.Errorf("the receipt of the move by mail was mail %d of %d, want among the first %d (before %d reminders)", receipt+1, len(sent), 2*mailWorkers, reminders)
	}
	if n := len(ofKind(sent, notify.KindReminder)); n == 0 {
		t.Error("no reminder was sent once the queue was back")
	}
}

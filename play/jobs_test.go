package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// mailService is a catalog service that inserts its mail jobs through an
// insert-only River client.
func mailService(t *testing.T) (*play.Service, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.New(t)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithJobs(client), play.WithSeedBox(testSeeds), play.WithAccounts(testAccounts{})), pool
}

// job is an inserted job's kind, arguments and when it is due.
type job struct {
	Kind        string
	Args        map[string]any
	ScheduledAt time.Time
}

// mailOf keeps the mail jobs sent at once (not the reminders).
func mailOf(js []job) []job {
	var out []job
	for _, j := range js {
		if strings.HasPrefix(j.Kind, "mail.") && j.Kind != "mail.reminder" {
			out = append(out, j)
		}
	}
	return out
}

// jobsOf returns the jobs inserted for a game, in order.
func jobsOf(t *testing.T, pool *pgxpool.Pool, game string) []job {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select kind, args, scheduled_at from river_job where args->>'game_id' = $1 order by id`, game)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (job, error) {
		var j job
		var raw []byte
		if err := r.Scan(&j.Kind, &raw, &j.ScheduledAt); err != nil {
			return j, err
		}
		return j, json.Unmarshal(raw, &j.Args)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func kinds(js []job) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = j.Kind
	}
	return out
}

// Invited people get an invitation each; the game starts by itself when the
// last one joins, and the first seat to act gets a prompt, all written in
// the transactions of the events that call for them.
func TestInvitationsAndAutoStartQueueTheirMail(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	out, err := svc.CreateGame(ctx, ana, play.GameRequest{Kind: "coyote", Name: "Ana", Invite: []string{"bob@players.test", "eve@players.test"}})
	if err != nil {
		t.Fatal(err)
	}
	id := out.GameID
	if got := kinds(jobsOf(t, pool, id)); !slices.Equal(got, []string{"mail.invitation", "mail.invitation"}) {
		t.Fatalf("after creating with two invitations, jobs %v", got)
	}
	if _, err := svc.Join(ctx, bob, id, "Bob"); err != nil {
		t.Fatal(err)
	}
	tbl, _ := svc.Load(ctx, id)
	if tbl.Started {
		t.Fatal("the game started before every invited player joined")
	}
	if _, err := svc.Join(ctx, eve, id, "Eve"); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Load(ctx, id)
	if !tbl.Started {
		t.Fatal("the game did not start when the last invited player joined")
	}
	js := jobsOf(t, pool, id)
	mail := mailOf(js)
	last := mail[len(mail)-1]
	if last.Kind != "mail.prompt" || int(last.Args["seat"].(float64)) != int(tbl.Pending[0].Seat) {
		t.Fatalf("after the start, last job %+v; want a prompt to seat %d", last, tbl.Pending[0].Seat)
	}
	// The entry that opened has its timer, due when the game's default
	// turn deadline has passed since the start was recorded.
	p := tbl.Pending[0]
	deadline, ok := tbl.Deadline(p)
	if !ok || !deadline.Equal(tbl.UpdatedAt.Add(play.DefaultTurnDeadline)) {
		t.Fatalf("the first turn's deadline is %v (%v), want the start + %v = %v", deadline, ok, play.DefaultTurnDeadline, tbl.UpdatedAt.Add(play.DefaultTurnDeadline))
	}
	timers := 0
	for _, j := range js {
		if j.Kind != "game.deadline" {
			continue
		}
		timers++
		if j.Args["entry"] != p.Kind || int(j.Args["seat"].(float64)) != int(p.Seat) || int(j.Args["since"].(float64)) != p.Since || !j.ScheduledAt.Equal(deadline) {
			t.Fatalf("timer %+v, want entry %s of seat %d since %d at %v", j, p.Kind, p.Seat, p.Since, deadline)
		}
	}
	if timers != 1 {
		t.Fatalf("%d timers for one pending entry", timers)
	}
	// Its reminders: at half the 72 hours, and 6 hours before the end.
	opened := tbl.UpdatedAt
	want := map[string]time.Time{"half": opened.Add(36 * time.Hour), "last": deadline.Add(-play.LastReminder)}
	for _, j := range js {
		if j.Kind != "mail.reminder" {
			continue
		}
		label, _ := j.Args["label"].(string)
		if at, ok := want[label]; !ok || !j.ScheduledAt.Equal(at) || int(j.Args["seat"].(float64)) != int(p.Seat) {
			t.Fatalf("reminder %+v; want one of %v", j, want)
		}
		delete(want, label)
	}
	if len(want) != 0 {
		t.Fatalf("missing reminders %v", want)
	}
	// Nothing is queued for a refused command.
	before := len(js)
	if _, err := svc.Move(ctx, ana, id, tbl.Version, []string{"nonsense"}); err == nil {
		t.Fatal("nonsense was played")
	}
	if n := len(jobsOf(t, pool, id)); n != before {
		t.Fatalf("a refused move queued %d jobs", n-before)
	}
}

// In a Coup challenge window every eligible seat gets one prompt; a move by
// mail gets a receipt with the head's hash; the end mails every seat.
func TestPromptsFollowPendingAndReceiptsFollowMailMoves(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 4)
	mover := tbl.Pending[0].Seat
	actor := bySeat[mover]
	actor.Channel = play.ChannelEmail
	from := len(jobsOf(t, pool, id))
	out, err := svc.Move(ctx, actor, id, tbl.Version, []string{"tax"})
	if err != nil {
		t.Fatal(err)
	}
	js := jobsOf(t, pool, id)[from:]
	var prompted []int
	receipts := 0
	for _, j := range js {
		switch j.Kind {
		case "mail.prompt":
			prompted = append(prompted, int(j.Args["seat"].(float64)))
		case "mail.receipt":
			receipts++
			if j.Args["head"] != out.Head || int(j.Args["version"].(float64)) != out.Version {
				t.Errorf("receipt %+v, want head %s at version %d", j.Args, out.Head, out.Version)
			}
		}
	}
	if len(prompted) != 3 || slices.Contains(prompted, int(mover)) {
		t.Fatalf("a tax claim in a 4-player game prompted seats %v; want the three others", prompted)
	}
	if receipts != 1 {
		t.Fatalf("%d receipts for one move by mail", receipts)
	}
}

// A number picks from the seat's numbered list; notation still works; a
// number out of the list is refused and plays nothing.
func TestANumberPicksFromTheList(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	seat := tbl.Pending[0].Seat
	choices := tbl.Engine.Choices(tbl.State, seat)
	n := slices.IndexFunc(choices, func(c string) bool { return !strings.ContainsAny(c, "…<") })
	if n < 0 {
		t.Fatalf("no plain move among %v", choices)
	}
	if _, err := svc.Move(ctx, bySeat[seat], id, tbl.Version, []string{"99"}); err == nil {
		t.Fatal("move 99 was played")
	} else if pe := (*play.Error)(nil); !errors.As(err, &pe) || pe.Code != play.CodeInvalid {
		t.Fatalf("move 99: %v, want an invalid-input refusal", err)
	}
	out, err := svc.Move(ctx, bySeat[seat], id, tbl.Version, []string{strconv.Itoa(n+1) + "."})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := svc.History(ctx, id, bySeat[seat].User, out.From)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) == 0 || hist[0].Meta.Move != choices[n] {
		t.Fatalf("reply %d. played %+v, want %q", n+1, hist, choices[n])
	}
}

// In Coyote "3" is also the notation of a bid; a bare number still picks
// from the numbered list, as every prompt says.
func TestABareNumberIsAlwaysTheListsNumber(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coyote", 3)
	first := tbl.Pending[0].Seat
	out, err := svc.Move(ctx, bySeat[first], id, tbl.Version, []string{"bid 1"})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seat := tbl.Pending[0].Seat
	choices := tbl.Engine.Choices(tbl.State, seat)
	if _, err := svc.Move(ctx, bySeat[seat], id, out.Version, []string{"1"}); err != nil {
		t.Fatalf("reply 1 with %v listed: %v", choices, err)
	}
	hist, err := svc.History(ctx, id, bySeat[seat].User, out.Version)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) == 0 || hist[0].Meta.Move != choices[0] {
		t.Fatalf("reply 1 played %+v, want %q", hist, choices[0])
	}
}

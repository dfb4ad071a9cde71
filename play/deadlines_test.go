package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/play"
)

// fakeClock is the game's time in a test: weeks pass in a call.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// dueTimers returns the game's timer jobs due at now that were not worked
// yet, as River would hand them to the worker, and marks them worked.
func dueTimers(t *testing.T, pool *pgxpool.Pool, game string, now time.Time) []*river.Job[jobs.Deadline] {
	t.Helper()
	rows, err := pool.Query(context.Background(), `update river_job set state = 'completed', finalized_at = $3
		where kind = 'game.deadline' and args->>'game_id' = $1 and scheduled_at <= $2 and state in ('available', 'scheduled')
		returning id, args`, game, now, now)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*river.Job[jobs.Deadline], error) {
		j := &river.Job[jobs.Deadline]{JobRow: &rivertype.JobRow{}}
		var raw []byte
		if err := r.Scan(&j.ID, &raw); err != nil {
			return nil, err
		}
		return j, json.Unmarshal(raw, &j.Args)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A game where one player never answers still ends: each time only that
// seat is waited for, the clock jumps past its deadline and its timer
// applies the default move, as a system command naming the timer. A timer
// that comes early waits; a timer of an entry answered meanwhile, or worked
// twice at once, writes nothing more.
func TestAGameWithASilentPlayerStillEnds(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, tbl, bySeat := startGame(t, svc, "coyote", 3)
	silent := tbl.Pending[0].Seat // the first to act never will
	r := rand.New(rand.NewPCG(7, 7))
	timeouts, early := 0, false
	for step := 0; ; step++ {
		if step > 2000 {
			t.Fatal("the game did not end")
		}
		tbl, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			break
		}
		var mover *games.Pending
		for i := range tbl.Pending {
			if tbl.Pending[i].Seat != silent {
				mover = &tbl.Pending[i]
				break
			}
		}
		if mover != nil {
			legal := tbl.Engine.Legal(tbl.State, mover.Seat)
			if _, err := svc.Move(ctx, bySeat[mover.Seat], id, tbl.Version, []string{legal[r.IntN(len(legal))]}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := tbl.Pending[0]
		deadline, ok := tbl.Deadline(p)
		if !ok {
			t.Fatalf("entry %v has no deadline", p.ID())
		}
		if !early {
			// A timer run a minute early (a clock behind the database's)
			// snoozes until the deadline and writes nothing.
			early = true
			clock.Set(deadline.Add(-time.Minute))
			err := worker.Work(ctx, &river.Job[jobs.Deadline]{JobRow: &rivertype.JobRow{ID: 1},
				Args: jobs.Deadline{GameID: id, Seat: int(p.Seat), Entry: p.Kind, Since: p.Since}})
			var snooze *rivertype.JobSnoozeError
			if !errors.As(err, &snooze) || snooze.Duration != time.Minute {
				t.Fatalf("an early timer: %v, want a snooze of a minute", err)
			}
		}
		clock.Set(deadline.Add(time.Second))
		due := dueTimers(t, pool, id, clock.Now())
		if len(due) == 0 {
			t.Fatalf("nothing is due at %v for entry %v (deadline %v)", clock.Now(), p.ID(), deadline)
		}
		before := tbl.Version
		// Two workers (two serve processes) on the same timer at once.
		var wg sync.WaitGroup
		for range 2 {
			for _, j := range due {
				wg.Go(func() {
					if err := worker.Work(ctx, j); err != nil {
						t.Errorf("timer %d: %v", j.ID, err)
					}
				})
			}
		}
		wg.Wait()
		after, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Version == before {
			t.Fatalf("the deadline of %v passed and nothing was played", p.ID())
		}
		if _, still := entryOf(after, p.ID()); still {
			t.Fatalf("entry %v is still pending after its default", p.ID())
		}
		hist, err := svc.History(ctx, id, "", before)
		if err != nil {
			t.Fatal(err)
		}
		if hist[0].Meta.Channel != play.ChannelSystem {
			t.Fatalf("the default was played through %q, want the system", hist[0].Meta.Channel)
		}
		timeouts++
		// The same timers again: their entries are gone, nothing is written.
		for _, j := range due {
			if err := worker.Work(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		if again, _ := svc.Load(ctx, id); again.Version != after.Version {
			t.Fatalf("a timer of an entry no longer pending wrote %d events", again.Version-after.Version)
		}
	}
	if timeouts == 0 {
		t.Fatal("the game ended without a timeout")
	}
	t.Logf("the silent seat's defaults were applied %d times; the game ended", timeouts)
}

func entryOf(t *play.Table, id games.PendingID) (games.Pending, bool) {
	for _, p := range t.Pending {
		if p.ID() == id {
			return p, true
		}
	}
	return games.Pending{}, false
}

// A game keeps the deadlines it was created with; a window's entries get
// the window's, and an absurd deadline is refused.
func TestDeadlinesByKind(t *testing.T) {
	ctx := context.Background()
	svc, _ := mailService(t)
	out, err := svc.CreateGame(ctx, ana, play.GameRequest{Kind: "coup", Name: "Ana",
		Deadlines: map[string]string{"turn": "2d", "block": "2h"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []play.Actor{bob, eve} {
		if _, err := svc.Join(ctx, u, out.GameID, u.User); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, ana, out.GameID); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Deadlines["window"] != play.DefaultWindowDeadline || tbl.Deadlines["turn"] != 48*time.Hour {
		t.Fatalf("deadlines %v", tbl.Deadlines)
	}
	for _, p := range tbl.Pending {
		d, _ := tbl.Deadline(p)
		want := 48 * time.Hour
		if len(tbl.Pending) > 1 {
			want = play.DefaultWindowDeadline
		}
		if got := d.Sub(tbl.UpdatedAt); got != want {
			t.Errorf("entry %v: %v after its opening, want %v", p.ID(), got, want)
		}
	}
	for _, bad := range []string{"1s", "59m", "400d", "61d", "soon"} {
		if _, err := svc.CreateGame(ctx, ana, play.GameRequest{Kind: "coup", Name: "Ana", Deadlines: map[string]string{"turn": bad}}); err == nil {
			t.Errorf("a deadline of %v was accepted", bad)
		}
	}
}

// An absence pauses the absent seat's deadlines and no one else's; back
// early, the rest of the pause is given up; absences are bounded per game;
// the others are told until when; a timer that comes during the absence
// waits, one at the new deadline applies the default.
func TestAbsencePausesDeadlines(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, tbl, bySeat := startGame(t, svc, "coyote", 3)
	p := tbl.Pending[0]
	first, _ := tbl.Deadline(p)
	away := bySeat[p.Seat]
	if _, err := svc.AwayFor(ctx, away, id, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	q, ok := entryOf(tbl, p.ID())
	if !ok {
		t.Fatal("declaring an absence changed the pending entry")
	}
	paused, _ := tbl.Deadline(q)
	if got := paused.Sub(first); got < 2*time.Hour-time.Second || got > 2*time.Hour+time.Second {
		t.Fatalf("a 2-hour absence moved the deadline by %v", got)
	}
	hist, err := svc.History(ctx, id, bySeat[(p.Seat+1)%3].User, tbl.Version-1)
	if err != nil || len(hist) != 1 || !strings.Contains(hist[0].Text.String(), "is away until") {
		t.Fatalf("the others are told %+v (%v)", hist, err)
	}
	if _, err := svc.AwayFor(ctx, away, id, time.Hour); err == nil {
		t.Fatal("a second absence while away was accepted")
	}
	// The timer of the old deadline comes: it waits for the new one.
	clock.Set(first.Add(time.Second))
	for _, j := range dueTimers(t, pool, id, clock.Now()) {
		var snooze *rivertype.JobSnoozeError
		if err := worker.Work(ctx, j); !errors.As(err, &snooze) {
			t.Fatalf("the old deadline's timer during an absence: %v, want it to wait", err)
		}
	}
	if _, err := svc.BackNow(ctx, away, id); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Load(ctx, id)
	q, _ = entryOf(tbl, p.ID())
	back, _ := tbl.Deadline(q)
	if !back.Before(paused) || back.Before(first) {
		t.Fatalf("back early: deadline %v, want between %v and %v", back, first, paused)
	}
	clock.Set(back.Add(time.Second))
	due := dueTimers(t, pool, id, clock.Now())
	if len(due) == 0 {
		t.Fatal("no timer for the deadline after the absence")
	}
	for _, j := range due {
		if err := worker.Work(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := svc.Load(ctx, id); func() bool { _, still := entryOf(after, p.ID()); return still }() {
		t.Fatal("the deadline after the absence passed and the default was not played")
	}
	// The bound: 14 days in all.
	if _, err := svc.AwayFor(ctx, bySeat[(p.Seat+1)%3], id, 15*24*time.Hour); err == nil {
		t.Fatal("an absence beyond the game's bound was accepted")
	}
}

// A seat that misses three deadlines in a row is abandoned: its decisions
// then take their defaults at once; when every other seat is abandoned or
// resigned, the last player may claim the game, and wins it.
func TestAbandonedSeatsAndClaims(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	silent := tbl.Pending[0].Seat
	active := 1 - silent
	if _, err := svc.Claim(ctx, bySeat[active], id); err == nil {
		t.Fatal("a claim while the other player still plays was accepted")
	}
	tbl = abandonSeat(t, svc, pool, id, bySeat, silent, clock, worker)
	// From now on its decisions are due when they open.
	for _, p := range tbl.Pending {
		if p.Seat == silent {
			if d, _ := tbl.Deadline(p); d.After(tbl.UpdatedAt) {
				t.Fatalf("an abandoned seat's decision is due at %v, after it opened at %v", d, tbl.UpdatedAt)
			}
		}
	}
	hist, err := svc.History(ctx, id, bySeat[active].User, 0)
	if err != nil {
		t.Fatal(err)
	}
	said := 0
	for _, c := range hist {
		if strings.Contains(c.Text.String(), "missed 3 deadlines in a row") {
			said++
		}
	}
	if said != 1 {
		t.Fatalf("the abandonment was told %d times", said)
	}
	if _, err := svc.Claim(ctx, bySeat[silent], id); err == nil {
		t.Fatal("the abandoned seat claimed the game")
	}
	if _, err := svc.Claim(ctx, bySeat[active], id); err != nil {
		t.Fatal(err)
	}
	tbl, err = svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if res := tbl.Result(); !tbl.Ended || !res.Finished || !slices.Equal(res.Winners, []games.Seat{active}) {
		t.Fatalf("after the claim: ended %v, result %+v", tbl.Ended, res)
	}
	g, _, err := tbl.Project()
	if err != nil || g.Result == nil || g.Status != "finished" {
		t.Fatalf("the claimed game's row: %+v (%v)", g, err)
	}
}

// passive is the quietest legal move: take income, allow, or the first.
func passive(legal []string) string {
	for _, want := range []string{"income", "allow"} {
		if slices.Contains(legal, want) {
			return want
		}
	}
	return legal[0]
}

// The creator hands an abandoned seat to a new player, who plays it from
// then on and sees nothing of what the seat saw before: their history
// before the takeover is the public one; the earlier player loses the seat.
func TestAReplacementSeesOnlyFromTheTakeover(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, _, bySeat := startGame(t, svc, "coup", 2)
	var creator play.Actor
	silent := games.Spectator
	for seat, a := range bySeat {
		if a.User == "u-p0" {
			creator = a
		} else {
			silent = seat
		}
	}
	newcomer := play.Actor{User: "u-newcomer", Channel: play.ChannelAPI}
	if _, err := svc.Replace(ctx, creator, id, silent, newcomer.User); err == nil {
		t.Fatal("a seat that was not abandoned was handed over")
	}
	abandonSeat(t, svc, pool, id, bySeat, silent, clock, worker)
	if _, err := svc.Replace(ctx, bySeat[silent], id, silent, newcomer.User); err == nil {
		t.Fatal("a player who did not create the game handed a seat over")
	}
	out, err := svc.Replace(ctx, creator, id, silent, newcomer.User)
	if err != nil {
		t.Fatal(err)
	}
	tbl, _ := svc.Load(ctx, id)
	if tbl.SeatOf(newcomer.User) != silent || tbl.SeatOf(bySeat[silent].User) != games.Spectator || slices.Contains(tbl.Abandoned, silent) {
		t.Fatalf("after the takeover: newcomer at %d, earlier player at %d, abandoned %v", tbl.SeatOf(newcomer.User), tbl.SeatOf(bySeat[silent].User), tbl.Abandoned)
	}
	mine, err := svc.History(ctx, id, newcomer.User, 0)
	if err != nil {
		t.Fatal(err)
	}
	public, err := svc.History(ctx, id, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range mine {
		if c.Version >= out.From+1 {
			break
		}
		if jsonText(t, c) != jsonText(t, public[i]) {
			t.Fatalf("before the takeover the newcomer reads version %d as\n%s\nbut the public reads\n%s", c.Version, jsonText(t, c), jsonText(t, public[i]))
		}
	}
	if v, err := svc.ViewFor(ctx, id, newcomer.User); err != nil || v.Seat != silent {
		t.Fatalf("the newcomer's view is seat %d (%v), want %d", v.Seat, err, silent)
	}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Two processes with their own job queue clients on one database: however
// many timers of one entry are due, its default is applied once.
func TestTwoSchedulersApplyATimeoutOnce(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	id, tbl, _ := startGame(t, svc, "coyote", 3)
	p := tbl.Pending[0]
	deadline, _ := tbl.Deadline(p)
	clock.Set(deadline.Add(time.Minute))
	var clients []*river.Client[pgx.Tx]
	for range 2 {
		workers := river.NewWorkers()
		river.AddWorker(workers, play.NewDeadlineWorker(svc, clock.Now))
		river.AddWorker(workers, play.NewTakeBackWorker(svc, clock.Now))
		c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
			Logger: quietLog(), Workers: workers, FetchPollInterval: 20 * time.Millisecond, FetchCooldown: 5 * time.Millisecond,
			Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}},
		})
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	// Several timers of the entry, due now (as after absences moved its
	// deadline back and forth).
	for due := range int64(6) {
		if _, err := clients[0].Insert(ctx, jobs.Deadline{GameID: id, Seat: int(p.Seat), Entry: p.Kind, Since: p.Since, Due: due + 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range clients {
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer func() {
			stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = c.Stop(stop)
		}()
	}
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		var left int
		if err := pool.QueryRow(ctx, `select count(*) from river_job where kind = 'game.deadline' and args->>'game_id' = $1
			and state not in ('completed', 'scheduled')`, id).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Since(start) > 15*time.Second {
			t.Fatalf("%d timers still not worked", left)
		}
	}
	var timedOut int
	if err := pool.QueryRow(ctx, `select count(*) from events where stream = $1 and type = $2`, play.Stream(id), play.TypeTimedOut).Scan(&timedOut); err != nil {
		t.Fatal(err)
	}
	if timedOut != 1 {
		t.Fatalf("the entry timed out %d times, want once", timedOut)
	}
}

// abandonSeat plays a game of two in which silent never answers, the
// other player making the quietest moves, until silent's seat is abandoned
// (three deadlines missed in a row), and returns the table then.
func abandonSeat(t *testing.T, svc *play.Service, pool *pgxpool.Pool, id string, bySeat map[games.Seat]play.Actor,
	silent games.Seat, clock *fakeClock, worker *play.DeadlineWorker) *play.Table {
	t.Helper()
	ctx := context.Background()
	active := 1 - silent
	for range 500 {
		tbl, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			t.Fatalf("the game ended (%s) before the silent seat was abandoned", tbl.Result().Summary)
		}
		if slices.Contains(tbl.Abandoned, silent) {
			return tbl
		}
		if slices.ContainsFunc(tbl.Pending, func(p games.Pending) bool { return p.Seat == active }) {
			if _, err := svc.Move(ctx, bySeat[active], id, tbl.Version, []string{passive(tbl.Engine.Legal(tbl.State, active))}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		deadline, _ := tbl.Deadline(tbl.Pending[0])
		clock.Set(deadline.Add(time.Second))
		for _, j := range dueTimers(t, pool, id, clock.Now()) {
			if err := worker.Work(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("the silent seat was never abandoned")
	return nil
}

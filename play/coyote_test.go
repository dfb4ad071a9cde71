package play_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/coyote"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// A complete Coyote game through the command path on a real PostgreSQL:
// four people join, the creator starts, every move is a player's command or
// a timeout's default, until someone wins. Then the log verifies, the
// projections rebuild to the same rows, and the revealed seed matches.
func TestCoyoteGameEndToEnd(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t, coyote.New())
	people := []play.Actor{
		{User: "ana@example.org", Channel: play.ChannelAPI},
		{User: "bob@example.org", Channel: play.ChannelEmail},
		{User: "cal@example.org", Channel: play.ChannelAPI},
		{User: "dee@example.org", Channel: play.ChannelEmail},
	}
	names := []string{"Ana", "Bob", "Cal", "Dee"}
	out, err := svc.Create(ctx, people[0], "coyote", games.Options{"variant_tokens": "on"}, names[0])
	if err != nil {
		t.Fatal(err)
	}
	id := out.GameID
	for i := 1; i < 4; i++ {
		if _, err := svc.Join(ctx, people[i], id, names[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, people[0], id); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	bySeat := map[games.Seat]play.Actor{}
	for _, a := range people {
		bySeat[tbl.SeatOf(a.User)] = a
	}
	if len(bySeat) != 4 {
		t.Fatalf("seats %v", bySeat)
	}
	pick := rand.New(rand.NewPCG(7, 11))
	moves, timeouts := 0, 0
	for !tbl.Ended {
		if moves+timeouts > 5000 {
			t.Fatal("the game did not end in 5000 commands")
		}
		pend := tbl.Engine.Pending(tbl.State)
		if len(pend) == 0 {
			t.Fatalf("nobody to act at version %d but the game is not over", tbl.Version)
		}
		if (moves+timeouts)%7 == 3 { // every seventh command is a deadline passing
			if _, err := svc.Timeout(ctx, id, tbl.Version, "test"); err != nil {
				t.Fatal(err)
			}
			timeouts++
		} else {
			p := pend[0]
			view, err := projections.GetView(ctx, pool, id, p.Seat)
			if err != nil {
				t.Fatal(err)
			}
			if view.Version != tbl.Version || len(view.Legal) == 0 {
				t.Fatalf("seat %d view at %d (game at %d), legal %v", p.Seat, view.Version, tbl.Version, view.Legal)
			}
			// Prefer calling over endless bidding so the game moves on.
			move := view.Legal[pick.IntN(len(view.Legal))]
			for _, m := range view.Legal {
				if m == "coyote" && pick.IntN(2) == 0 {
					move = m
				}
			}
			if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{move}); err != nil {
				t.Fatalf("seat %d %q at version %d: %v", p.Seat, move, tbl.Version, err)
			}
			moves++
		}
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	res := tbl.Engine.Result(tbl.State)
	g, err := projections.GetGame(ctx, pool, id)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished || len(res.Winners) != 1 || g.Status != projections.StatusFinished || g.Result == nil {
		t.Fatalf("result %+v, games row %+v", res, g)
	}
	if timeouts == 0 || moves < 10 {
		t.Fatalf("too short a game to mean much: %d moves, %d timeouts", moves, timeouts)
	}
	n, err := events.VerifyStream(ctx, pool, play.Stream(id))
	if err != nil || n != tbl.Version {
		t.Fatalf("verify: %d of %d, %v", n, tbl.Version, err)
	}
	inline, _ := projections.Dump(ctx, pool)
	if _, err := svc.RebuildProjections(ctx); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := projections.Dump(ctx, pool)
	if strings.Join(inline, "\n") != strings.Join(rebuilt, "\n") {
		t.Fatal("rebuilt projections differ from the inline ones")
	}
	t.Logf("coyote game %s: %d moves, %d timeouts, %d events, %s", id, moves, timeouts, tbl.Version, res.Summary)
}

package play_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// A complete game of every registered game through the command path on a
// real PostgreSQL: people join, the creator starts, every move is a player's
// command (by API or email) or a deadline's default, until the game ends.
// Then the log verifies, the projections rebuild to the same rows, and the
// game's result is in the games list.
func TestEveryGameEndToEnd(t *testing.T) {
	reg := catalog.Registry()
	for _, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, _ := reg.Get(kind)
			playWholeGame(t, eng, nil)
		})
	}
}

// TestCoyoteVariantEndToEnd plays Coyote with the variant tokens, whose
// two-line moves (a token, then a bid) go through one command.
func TestCoyoteVariantEndToEnd(t *testing.T) {
	eng, err := catalog.Registry().Get("coyote")
	if err != nil {
		t.Fatal(err)
	}
	playWholeGame(t, eng, games.Options{"variant_tokens": "on"})
}

func playWholeGame(t *testing.T, eng games.Engine, opts games.Options) {
	ctx := context.Background()
	svc, pool := newService(t, eng)
	info := eng.Info()
	kind := info.ID
	pick := rand.New(rand.NewPCG(7, uint64(len(kind))))
	n := info.MinSeats + pick.IntN(info.MaxSeats-info.MinSeats+1)
	var people []play.Actor
	for i := range n {
		ch := play.ChannelAPI
		if i%2 == 1 {
			ch = play.ChannelEmail
		}
		people = append(people, play.Actor{User: fmt.Sprintf("u-p%d", i), Channel: ch})
	}
	names := []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}
	out, err := svc.Create(ctx, people[0], kind, opts, names[0])
	if err != nil {
		t.Fatal(err)
	}
	id := out.GameID
	for i := 1; i < n; i++ {
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
	if len(bySeat) != n {
		t.Fatalf("seats %v", bySeat)
	}
	moves, timeouts, multi := 0, 0, 0
	for !tbl.Ended {
		if moves+timeouts > 5000 {
			t.Fatal("the game did not end in 5000 commands")
		}
		pend := tbl.Engine.Pending(tbl.State)
		if len(pend) == 0 {
			t.Fatalf("nobody to act at version %d but the game is not over", tbl.Version)
		}
		if (moves+timeouts)%7 == 3 { // every seventh command is a deadline passing
			if _, err := svc.Timeout(ctx, id, tbl.Pending[pick.IntN(len(tbl.Pending))].ID(), "test"); err != nil {
				t.Fatal(err)
			}
			timeouts++
		} else {
			p := pend[pick.IntN(len(pend))]
			view, err := projections.GetView(ctx, pool, id, p.Seat)
			if err != nil {
				t.Fatal(err)
			}
			if view.Version != tbl.Version || len(view.Legal) == 0 {
				t.Fatalf("seat %d view at %d (game at %d), legal %v", p.Seat, view.Version, tbl.Version, view.Legal)
			}
			move := view.Legal[pick.IntN(len(view.Legal))]
			if kind == "coyote" && pick.IntN(4) == 0 && strings.Contains(strings.Join(view.Legal, ","), "coyote") {
				move = "coyote" // call now and then, so rounds end
			}
			for _, m := range view.Legal {
				if (m == "reveal" || m == "reverse" || m == "replace") && pick.IntN(3) == 0 {
					move = m
				}
			}
			lines := []string{move}
			if kind == "coyote" && (move == "reveal" || move == "reverse" || move == "replace") {
				// A token and the bid after it, in one command (two lines).
				for _, m := range view.Legal {
					if strings.HasPrefix(m, "bid ") {
						lines = append(lines, m)
						multi++
						break
					}
				}
			}
			if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, lines); err != nil {
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
	// A game ends with its winners, or with none where its rules say so
	// (Coupage's CP-50 and CP-51 end a game that can no longer be won); the
	// games row shows the same result.
	if !res.Finished || res.Summary.IsZero() || g.Status != projections.StatusFinished || g.Result == nil ||
		g.Result.Summary.String() != res.Summary.String() || !slices.Equal(g.Result.Winners, res.Winners) {
		t.Fatalf("result %+v, games row %+v", res, g)
	}
	if len(res.Winners) == 0 && kind != "coupage" {
		t.Fatalf("%s ended without a winner: %+v", kind, res)
	}
	if opts["variant_tokens"] == "on" && multi == 0 {
		t.Fatal("no two-line move (token, then bid) was played")
	}
	if timeouts == 0 || moves < 5 {
		t.Fatalf("too short a game to mean much: %d moves, %d timeouts", moves, timeouts)
	}
	if n, err := events.VerifyStream(ctx, pool, play.Stream(id)); err != nil || n != tbl.Version {
		t.Fatalf("verify: %d of %d, %v", n, tbl.Version, err)
	}
	for seat := games.Spectator; seat < games.Seat(len(people)); seat++ {
		if _, err := svc.History(ctx, id, bySeat[seat].User, 0); err != nil {
			t.Fatalf("history of seat %d: %v", seat, err)
		}
	}
	inline, _ := projections.Dump(ctx, pool)
	if _, err := play.NewUpkeep(pool, svc.Registry(), nil).RebuildProjections(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := projections.Dump(ctx, pool)
	if strings.Join(inline, "\n") != strings.Join(rebuilt, "\n") {
		t.Fatal("rebuilt projections differ from the inline ones")
	}
	t.Logf("%s game %s with %d players: %d moves, %d timeouts, %d events, %s", kind, id, n, moves, timeouts, tbl.Version, res.Summary)
}

package play_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/coyote"
	"github.com/courrier-games/courrier/play"
)

// A several-line move is played line by line; a refused later line stops
// it there and the earlier lines stand.
func TestSeveralLinesStopAtTheFirstRefusedLine(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	mover := actorOf(tbl, pending(t, tbl).Seat)
	mover.IdempotencyKey = "two-lines"
	out, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1", "take 1", "take 2"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Version != tbl.Version+1 || out.Refused == nil || out.Refused.Line != 2 || !isRule(out.Refused, "P-1") {
		t.Fatalf("outcome %+v (refused %v)", out, out.Refused)
	}
	again, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1", "take 1", "take 2"})
	if err != nil || !again.Replay || again.Refused == nil || again.Refused.Line != 2 || !isRule(again.Refused, "P-1") {
		t.Fatalf("replay %+v, %v", again, err)
	}
}

// A call's outcome depends on feathers the caller cannot see. A second line
// must not let the caller learn that outcome without paying for it: the call
// is recorded whether or not the line after it is accepted.
func TestALaterLineCannotProbeAHiddenOutcome(t *testing.T) {
	ctx := context.Background()
	for seed := range 12 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			svc, pool := newService(t, coyote.New())
			people := []play.Actor{ana, bob, eve}
			out, err := svc.Create(ctx, ana, "coyote", nil, "Ana")
			if err != nil {
				t.Fatal(err)
			}
			id := out.GameID
			_, _ = svc.Join(ctx, bob, id, "Bob")
			_, _ = svc.Join(ctx, eve, id, "Eve")
			if _, err := svc.Start(ctx, ana, id); err != nil {
				t.Fatal(err)
			}
			tbl, _ := svc.Load(ctx, id)
			who := func(seat games.Seat) play.Actor {
				i := slices.IndexFunc(people, func(a play.Actor) bool { return tbl.SeatOf(a.User) == seat })
				return people[i]
			}
			first := tbl.Engine.Pending(tbl.State)[0].Seat
			if _, err := svc.Move(ctx, who(first), id, tbl.Version, []string{fmt.Sprintf("bid %d", 5+3*seed)}); err != nil {
				t.Fatal(err)
			}
			tbl, _ = svc.Load(ctx, id)
			caller := tbl.Engine.Pending(tbl.State)[0].Seat
			res, err := svc.Move(ctx, who(caller), id, tbl.Version, []string{"coyote", "bid 0"})
			if err != nil {
				t.Fatalf("the call with a second line was refused whole: %v", err)
			}
			if res.Refused == nil || res.Refused.Line != 2 {
				t.Fatalf("bid 0 was not refused: %+v", res)
			}
			recorded, _ := events.ReadStream(ctx, pool, play.Stream(id), tbl.Version)
			if len(recorded) == 0 || recorded[0].Type != "coyote.call" {
				t.Fatalf("the call was not recorded: %v", recorded)
			}
		})
	}
}

// Text as mail clients and phones send it is read as typed.
func TestMailTypographyIsUndone(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	mover := actorOf(tbl, pending(t, tbl).Seat)
	out, err := svc.Move(ctx, mover, id, tbl.Version, []string{"\u00a0take\u00a01\ufe0f\r\n"})
	if err != nil || out.Version != tbl.Version+1 {
		t.Fatalf("%+v, %v", out, err)
	}
}

package play_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// Nobody who may have seen more than a seat can ever hold one: the referee
// (named, or the creator holding no seat, who may replay the game with
// every card revealed) and a player whose seat was handed on are refused an
// abandoned seat, in words; someone fresh takes it.
func TestNobodyWhoSawMoreTakesASeat(t *testing.T) {
	tests := []struct {
		name    string
		referee string // named at creation; "" for the creator by default
		refused func(creator, former string) string
		want    string
	}{
		{name: "the creator without a seat is the referee by default", refused: func(creator, _ string) string { return creator }, want: "referee"},
		{name: "the named referee", referee: "u-ref", refused: func(_, _ string) string { return "u-ref" }, want: "referee"},
		{name: "a player whose seat was handed on", refused: func(_, former string) string { return former }, want: "handed to someone else"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			svc, pool := mailService(t)
			clock := &fakeClock{t: time.Now()}
			worker := play.NewDeadlineWorker(svc, clock.Now)
			creator := play.Actor{User: "u-creator", Channel: play.ChannelAPI}
			players := []play.Actor{{User: "u-ana", Channel: play.ChannelAPI}, {User: "u-bo", Channel: play.ChannelAPI}}
			g, err := svc.CreateGame(ctx, creator, play.NewGame{Kind: "coup", Invite: []string{"u-ana", "u-bo"}, Referee: tt.referee})
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range players {
				if _, err := svc.Join(ctx, p, g.GameID, []string{"Ana", "Bo"}[i]); err != nil {
					t.Fatal(err)
				}
			}
			tbl, err := svc.Load(ctx, g.GameID)
			if err != nil || !tbl.Started {
				t.Fatalf("the game did not start: %v", err)
			}
			bySeat := map[games.Seat]play.Actor{}
			for _, p := range players {
				bySeat[tbl.SeatOf(p.User)] = p
			}
			silent := tbl.SeatOf("u-bo")
			abandonSeat(t, svc, pool, g.GameID, bySeat, silent, clock, worker)
			former := ""
			if tt.want == "handed to someone else" {
				if _, err := svc.Replace(ctx, creator, g.GameID, silent, "u-first"); err != nil {
					t.Fatalf("handing the seat to a fresh player: %v", err)
				}
				former = "u-bo"
				abandonSeat(t, svc, pool, g.GameID, bySeat, silent, clock, worker)
			}
			before, err := svc.Load(ctx, g.GameID)
			if err != nil {
				t.Fatal(err)
			}
			who := tt.refused(creator.User, former)
			_, err = svc.Replace(ctx, creator, g.GameID, silent, who)
			if !isCode(err, play.CodeConflict) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("handing seat %d to %s: %v; want a conflict that says %q", silent, who, err, tt.want)
			}
			after, err := svc.Load(ctx, g.GameID)
			if err != nil || after.Version != before.Version {
				t.Fatalf("the refusal wrote: version %d → %d (%v)", before.Version, after.Version, err)
			}
			if _, err := svc.Replace(ctx, creator, g.GameID, silent, "u-fresh"); err != nil {
				t.Fatalf("handing the seat to someone fresh: %v", err)
			}
		})
	}
}

// A name a player could mistake for another player's in the same game is
// refused in words, and nothing is written.
func TestLookAlikeNamesAreRefused(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	g, err := svc.Create(ctx, play.Actor{User: "u-alma", Channel: play.ChannelAPI}, "coyote", nil, "Alma")
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"\u0410lma", "ALMA", "AIma"} {
		_, err := svc.Join(ctx, play.Actor{User: "u-mimic" + string(rune('a'+i)), Channel: play.ChannelAPI}, g.GameID, name)
		if !isCode(err, play.CodeConflict) || !strings.Contains(strings.ToLower(err.Error()), "alma") {
			t.Errorf("joining as %q beside Alma: %v; want a conflict naming Alma", name, err)
		}
	}
	if _, err := svc.Join(ctx, play.Actor{User: "u-alba", Channel: play.ChannelAPI}, g.GameID, "Alba"); err != nil {
		t.Fatalf("Alba beside Alma: %v", err)
	}
	tbl, err := svc.Load(ctx, g.GameID)
	if err != nil || len(tbl.Joined) != 2 {
		t.Fatalf("joined %d (%v); want Alma and Alba only", len(tbl.Joined), err)
	}
}

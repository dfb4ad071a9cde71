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
		{name: "the named referee", referee: "ref@players.test", refused: func(_, _ string) string { return "u-ref" }, want: "referee"},
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
			g, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coup", Invite: []string{"ana@players.test", "bo@players.test"}, Referee: tt.referee})
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

// A creator who played and whose seat was handed on saw that seat's cards:
// they do not become the game's referee, and may not replay it revealed.
func TestAReplacedCreatorIsNoReferee(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	creator := tbl.Creator
	if tbl.Referee() != "" {
		t.Fatalf("a game whose creator plays has referee %q", tbl.Referee())
	}
	silent := tbl.SeatOf(creator)
	abandonSeat(t, svc, pool, id, bySeat, silent, clock, worker)
	// The creator's own seat is handed on: only the creator may do it, so
	// the game's creator hands it over by an actor of the same user.
	if _, err := svc.Replace(ctx, play.Actor{User: creator, Channel: play.ChannelAPI}, id, silent, "u-heir"); err != nil {
		t.Fatalf("handing the creator's seat on: %v", err)
	}
	after, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Referee() != "" || after.FullReveal(creator) {
		t.Fatalf("the replaced creator is referee %q (full reveal %v)", after.Referee(), after.FullReveal(creator))
	}
	steps, err := archiveOf(svc, pool).Replay(ctx, id, creator, 0)
	if err == nil && len(steps) > 0 && steps[len(steps)-1].Reveal != nil {
		t.Fatal("the replaced creator replays the running game with every card revealed")
	}
}

// A move line is bounded: runs of spaces are collapsed, so the log keeps
// "bid 1" and not 60,000 spaces; a line longer than MaxMoveLine is refused
// and writes nothing.
func TestMoveLinesAreBounded(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	p := tbl.Pending[0].Seat
	legal := tbl.Engine.Legal(tbl.State, p)[0]
	padded := legal + strings.Repeat(" ", 60000)
	if strings.Contains(legal, " ") {
		padded = strings.Replace(legal, " ", strings.Repeat(" ", 60000), 1)
	}
	out, err := svc.Move(ctx, bySeat[p], id, tbl.Version, []string{"  " + padded + "  "})
	if err != nil {
		t.Fatalf("a move with spaces around it: %v", err)
	}
	var meta int
	if err := pool.QueryRow(ctx, `select max(octet_length(meta::text)) from events where stream = $1`, play.Stream(id)).Scan(&meta); err != nil {
		t.Fatal(err)
	}
	if meta > 512 {
		t.Fatalf("an event's meta holds %d bytes", meta)
	}
	tbl, err = svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	long := "income " + strings.Repeat("x", play.MaxMoveLine)
	_, err = svc.Move(ctx, bySeat[tbl.Pending[0].Seat], id, tbl.Version, []string{long})
	if !isCode(err, play.CodeInvalid) || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("a %d-character line: %v", len(long), err)
	}
	if after, _ := svc.Load(ctx, id); after.Version != out.Version {
		t.Fatalf("the refused line wrote: version %d → %d", out.Version, after.Version)
	}
}

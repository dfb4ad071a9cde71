package play_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
	"github.com/courrier-games/courrier/projections/glicko"
)

// catalogEngines are the five games, for a service that also knows pile.
func catalogEngines(t *testing.T) []games.Engine {
	t.Helper()
	var out []games.Engine
	for _, id := range catalog.Registry().IDs() {
		eng, err := catalog.Registry().Get(id)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, eng)
	}
	return out
}

// playPile plays a pile game of a (creator) and b to its end, each taking
// as many stones as they may; req sets the game's creation.
func playPile(ctx context.Context, svc *play.Service, a, b play.Actor, req play.GameRequest) (string, error) {
	req.Kind, req.Name = "pile", "A"+a.User
	out, err := svc.CreateGame(ctx, a, req)
	if err != nil {
		return "", err
	}
	if _, err := svc.Join(ctx, b, out.GameID, "B"+b.User); err != nil {
		return "", err
	}
	if _, err := svc.Start(ctx, a, out.GameID); err != nil {
		return "", err
	}
	for range 20 {
		tbl, err := svc.Load(ctx, out.GameID)
		if err != nil {
			return "", err
		}
		if tbl.Ended {
			return out.GameID, nil
		}
		p := tbl.Pending[0]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		mover := a
		if tbl.SeatOf(b.User) == p.Seat {
			mover = b
		}
		if _, err := svc.Move(ctx, mover, out.GameID, tbl.Version, []string{legal[len(legal)-1]}); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("pile game %s did not end", out.GameID)
}

// winnerOf is the user who won a finished pile game.
func winnerOf(t *testing.T, svc *play.Service, id string) (winner, loser string) {
	t.Helper()
	tbl, err := svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	res := tbl.Result()
	if !res.Finished || len(res.Winners) != 1 {
		t.Fatalf("game %s: %+v", id, res)
	}
	return tbl.UserAt(res.Winners[0]), tbl.UserAt(1 - res.Winners[0])
}

func ratingOf(t *testing.T, svc *play.Service, user, kind string) (projections.Rating, bool) {
	t.Helper()
	card, err := svc.Player(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range card.Ratings {
		if r.Kind == kind {
			return r, true
		}
	}
	return projections.Rating{}, false
}

func catchUp(t *testing.T, pool *pgxpool.Pool, svc *play.Service) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := play.NewStandings(pool, svc.Registry(), quietLog()).Settle(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestAFinishedGameMovesBothRatingsByGlicko2(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	id, err := playPile(ctx, svc, ana, bob, play.GameRequest{})
	if err != nil {
		t.Fatal(err)
	}
	winner, loser := winnerOf(t, svc, id)
	catchUp(t, pool, svc)
	want := map[string]glicko.Rating{
		winner: glicko.Update(glicko.New(), []glicko.Result{{Opponent: glicko.New(), Score: 1}}, glicko.Tau),
		loser:  glicko.Update(glicko.New(), []glicko.Result{{Opponent: glicko.New(), Score: 0}}, glicko.Tau),
	}
	for user, w := range want {
		got, ok := ratingOf(t, svc, user, "pile")
		if !ok || got.Rating != w || got.Games != 1 {
			t.Errorf("%s: %+v, want %+v after one game", user, got, w)
		}
	}
	if w, l := want[winner], want[loser]; w.Rating <= 1500 || l.Rating >= 1500 {
		t.Fatalf("the winner's %v, the loser's %v", w.Rating, l.Rating)
	}
	// A second catch-up finds nothing new: nothing moves twice.
	catchUp(t, pool, svc)
	if got, _ := ratingOf(t, svc, winner, "pile"); got.Games != 1 {
		t.Fatalf("after a second catch-up: %+v", got)
	}
}

func TestAnUnratedGameChangesNoRating(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	if _, err := playPile(ctx, svc, ana, bob, play.GameRequest{Unrated: true}); err != nil {
		t.Fatal(err)
	}
	catchUp(t, pool, svc)
	for _, u := range []string{ana.User, bob.User} {
		card, err := svc.Player(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if len(card.Ratings) != 0 {
			t.Errorf("%s has ratings after an unrated game: %+v", u, card.Ratings)
		}
		if card.Reliability.Finished != 1 {
			t.Errorf("%s: %d games finished, want 1 (an unrated game still counts as finished)", u, card.Reliability.Finished)
		}
	}
}

func TestReliabilityCountsTimeoutsAbandonsAndFinishedGames(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	id, tbl := startPile(t, svc)
	// The seat to play lets three deadlines pass: abandoned at the third.
	late := actorOf(tbl, tbl.Pending[0].Seat)
	other := ana
	if late.User == ana.User {
		other = bob
	}
	missed := 0
	for missed < 3 {
		p := tbl.Pending[0]
		if tbl.UserAt(p.Seat) == late.User {
			if _, err := svc.Timeout(ctx, id, p.ID(), "test"); err != nil {
				t.Fatal(err)
			}
			missed++
		} else if _, err := svc.Move(ctx, other, id, play.AnyVersion, []string{"take 1"}); err != nil {
			t.Fatal(err)
		}
		var err error
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			t.Fatal("the game ended before three deadlines passed")
		}
	}
	if _, err := svc.Resign(ctx, late, id); err != nil {
		t.Fatal(err)
	}
	catchUp(t, pool, svc)
	card, err := svc.Player(ctx, late.User)
	if err != nil {
		t.Fatal(err)
	}
	rel := card.Reliability
	// One decision of their own (the resignation), three deadlines missed.
	if rel.Finished != 1 || rel.Missed != 3 || rel.Abandoned != 1 || rel.Decisions != 1 || rel.Met == nil || *rel.Met != 25 {
		t.Fatalf("the late player's reliability: %+v (met %v), want 1 finished, 3 missed, 1 abandoned, 1 decision, 25%%", rel, rel.Met)
	}
	if card.Name == "" || strings.Contains(card.Name, "@") {
		t.Fatalf("card name %q", card.Name)
	}
	card, err = svc.Player(ctx, other.User)
	if err != nil {
		t.Fatal(err)
	}
	if rel := card.Reliability; rel.Missed != 0 || rel.Abandoned != 0 || rel.Decisions == 0 || rel.Met == nil || *rel.Met != 100 {
		t.Fatalf("the punctual player's reliability: %+v", rel)
	}
	if _, err := svc.Player(ctx, "u-nobody"); !isCode(err, play.CodeNotFound) {
		t.Fatalf("the card of a user who never played: %v", err)
	}
}

func TestReliabilityCountsTheLastTwelveMonths(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var now time.Time
	clock := func() time.Time { return now }
	svc := play.New(pool, games.NewRegistry(games.Adapt(pile{})), play.WithLogger(quietLog()), play.WithSeedBox(testSeeds),
		play.WithAccounts(testAccounts{}), play.WithClock(clock))
	now = time.Now()
	if _, err := playPile(ctx, svc, ana, bob, play.GameRequest{}); err != nil {
		t.Fatal(err)
	}
	catchUp(t, pool, svc)
	cases := []struct {
		name     string
		at       time.Time
		finished int
	}{
		{"today", time.Now(), 1},
		{"eleven months on", time.Now().AddDate(0, 11, 0), 1},
		{"thirteen months on", time.Now().AddDate(0, 13, 0), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now = tc.at
			card, err := svc.Player(ctx, ana.User)
			if err != nil {
				t.Fatal(err)
			}
			if card.Reliability.Finished != tc.finished {
				t.Fatalf("%d games finished, want %d", card.Reliability.Finished, tc.finished)
			}
			if _, ok := ratingOf(t, svc, ana.User, "pile"); !ok {
				t.Fatal("the rating went with the window: ratings do not expire")
			}
		})
	}
}

func TestAMinimumAtCreationRefusesAJoinNamingTheRule(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	// Bob lets a deadline pass once in a game with Ana, which he then loses.
	id, tbl := startPile(t, svc)
	for !tbl.Ended {
		p := tbl.Pending[0]
		var err error
		if tbl.UserAt(p.Seat) == bob.User {
			_, err = svc.Timeout(ctx, id, p.ID(), "test")
		} else {
			_, err = svc.Move(ctx, ana, id, play.AnyVersion, []string{"take 1"})
		}
		if err != nil {
			t.Fatal(err)
		}
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	catchUp(t, pool, svc)
	card, err := svc.Player(ctx, bob.User)
	if err != nil || card.Reliability.Met == nil || *card.Reliability.Met != 0 {
		t.Fatalf("Bob's card: %+v, %v", card, err)
	}
	cases := []struct {
		name     string
		req      play.GameRequest
		who      play.Actor
		refused  bool
		en, fr   string
		creation bool
	}{
		{name: "reliability", req: play.GameRequest{MinReliability: "90"}, who: bob, refused: true,
			en: "requires at least 90% of deadlines met over the last 12 months; you have met 0%",
			fr: "demande au moins 90 % de délais respectés sur les 12 derniers mois ; vous en avez respecté 0 %"},
		{name: "finished games", req: play.GameRequest{MinFinished: "2"}, who: bob, refused: true,
			en: "requires at least 2 finished games over the last 12 months; you have finished 1",
			fr: "demande au moins 2 parties terminées sur les 12 derniers mois ; vous en avez terminé 1"},
		{name: "a new player passes a reliability minimum", req: play.GameRequest{MinReliability: "90"}, who: eve},
		{name: "a new player has no finished game", req: play.GameRequest{MinFinished: "1"}, who: eve, refused: true,
			en: "requires at least 1 finished game over the last 12 months; you have finished 0",
			fr: "demande au moins 1 partie terminée sur les 12 derniers mois ; vous en avez terminé 0"},
		{name: "a player at the minimum joins", req: play.GameRequest{MinFinished: "1", MinReliability: "0"}, who: bob},
		{name: "not a percentage", req: play.GameRequest{MinReliability: "101"}, creation: true,
			en: `the minimum of deadlines met is a whole percentage from 0 to 100, not "101"`,
			fr: "le minimum de délais respectés est un pourcentage entier de 0 à 100, pas « 101 »"},
		{name: "not a number", req: play.GameRequest{MinFinished: "some"}, creation: true,
			en: `the minimum of finished games is a whole number from 0 to 1000, not "some"`,
			fr: "le minimum de parties terminées est un nombre entier de 0 à 1000, pas « some »"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Kind, req.Name = "pile", "Ana"
			out, err := svc.CreateGame(ctx, ana, req)
			if tc.creation {
				checkRefusal(t, err, play.CodeInvalid, tc.en, tc.fr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			before, _ := svc.Load(ctx, out.GameID)
			_, err = svc.Join(ctx, tc.who, out.GameID, "Joiner")
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			checkRefusal(t, err, play.CodeForbidden, tc.en, tc.fr)
			after, _ := svc.Load(ctx, out.GameID)
			if after.Version != before.Version {
				t.Fatalf("a refused join wrote: version %d → %d", before.Version, after.Version)
			}
		})
	}
}

// checkRefusal checks a refusal's code and its words in English and French.
func checkRefusal(t *testing.T, err error, code, en, fr string) {
	t.Helper()
	pe, ok := errors.AsType[*play.Error](err)
	if !ok || pe.Code != code {
		t.Fatalf("got %v, want a refusal %s", err, code)
	}
	if got := pe.Explain("en"); !strings.Contains(got, en) {
		t.Errorf("English: %q, want %q in it", got, en)
	}
	if got := pe.Explain("fr"); !strings.Contains(got, fr) {
		t.Errorf("French: %q, want %q in it", got, fr)
	}
}

// TestStandingsRebuiltFromTheLogEqualTheLiveOnes plays games concurrently
// between players who share them, and whole games of the catalog (several
// players, teams), while two consumers follow the feed; a rebuild from the
// log then writes exactly the same rows.
func TestStandingsRebuiltFromTheLogEqualTheLiveOnes(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t, catalogEngines(t)...)
	stop := make(chan struct{})
	var consumers sync.WaitGroup
	for i := range 2 {
		st := play.NewStandings(pool, svc.Registry(), quietLog())
		st.SetBatch(5 + i)
		consumers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := st.CatchUp(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	var playing sync.WaitGroup
	pairs := [][2]play.Actor{{ana, bob}, {bob, eve}, {eve, ana}, {ana, bob}, {bob, ana}, {eve, bob}}
	for _, p := range pairs {
		playing.Go(func() {
			if _, err := playPile(ctx, svc, p[0], p[1], play.GameRequest{}); err != nil {
				t.Error(err)
			}
		})
	}
	playing.Wait()
	for _, kind := range []string{"couillon", "kramercoup", "coup"} {
		playRecorded(t, svc, pool, kind, 3)
	}
	close(stop)
	consumers.Wait()
	catchUp(t, pool, svc)
	live, err := projections.Dump(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"pile", "couillon", "kramercoup", "coup"} {
		if !strings.Contains(strings.Join(live, "\n"), `"kind":"`+kind+`","rating"`) {
			t.Errorf("no rating of %s after its games", kind)
		}
	}
	if r, _ := ratingOf(t, svc, ana.User, "pile"); r.Games != 4 {
		t.Errorf("Ana's pile rating counts %d games, she played 4", r.Games)
	}
	// Couillon: partners meet the same opponents with the same result.
	var couillon []float64
	for i := range 4 {
		r, ok := ratingOf(t, svc, fmt.Sprintf("u-couillon-%d", i), "couillon")
		if !ok {
			t.Fatalf("couillon player %d has no rating", i)
		}
		couillon = append(couillon, r.Rating.Rating)
	}
	slices.Sort(couillon)
	if !(couillon[0] == couillon[1] && couillon[1] < 1500 && couillon[2] > 1500 && couillon[2] == couillon[3]) {
		t.Errorf("couillon ratings %v: want two equal losers and two equal winners", couillon)
	}
	if _, err := play.NewUpkeep(pool, svc.Registry(), nil).RebuildStandings(ctx); err != nil {
		t.Fatal(err)
	}
	same := func(what string) {
		t.Helper()
		rebuilt, err := projections.Dump(ctx, pool)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rebuilt, "\n") != strings.Join(live, "\n") {
			t.Fatalf("%s: the standings differ from the live ones:\nlive:\n%s\nrebuilt:\n%s", what, strings.Join(live, "\n"), strings.Join(rebuilt, "\n"))
		}
	}
	same("projections rebuild")
	for _, batch := range []int{1, 3, 1000} {
		st := play.NewStandings(pool, svc.Registry(), quietLog())
		st.SetBatch(batch)
		if _, err := st.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
		// What the feed held back during the replay (an older
		// transaction of the server's still running), as serve would.
		if err := st.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("a rebuild %d events at a time", batch))
	}
}

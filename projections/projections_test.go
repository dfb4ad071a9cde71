package projections_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/projections"
)

// A projection row is never replaced by an older one: a rebuild that read a
// game at version 5 cannot overwrite what a live command wrote at version 6.
func TestSaveNeverGoesBackInVersion(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	save := func(version int, view string) {
		t.Helper()
		g := projections.Game{ID: "g1", Kind: "coyote", Status: projections.StatusActive, Version: version,
			Players:   []projections.Player{{Name: "Ana", User: "u-ana", Seat: 0}},
			CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(int64(version), 0)}
		views := []projections.SeatView{{GameID: "g1", Seat: 0, Version: version, View: json.RawMessage(view), Legal: []string{"bid 2"}}}
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return projections.Save(ctx, tx, g, views) }); err != nil {
			t.Fatal(err)
		}
	}
	save(6, `{"at": 6}`)
	save(5, `{"at": 5}`)
	v, err := projections.GetView(ctx, pool, "g1", games.Seat(0))
	if err != nil {
		t.Fatal(err)
	}
	if v.Version != 6 || string(v.View) != `{"at": 6}` {
		t.Fatalf("after an older save: version %d view %s", v.Version, v.View)
	}
	save(6, `{"at": "6 again"}`) // the same version: a rebuild may repair it
	if v, _ = projections.GetView(ctx, pool, "g1", games.Seat(0)); string(v.View) != `{"at": "6 again"}` {
		t.Fatalf("a save at the same version did not repair the view: %s", v.View)
	}
	g, err := projections.GetGame(ctx, pool, "g1")
	if err != nil || g.Version != 6 {
		t.Fatalf("game row %+v, %v", g, err)
	}
	raw, err := json.Marshal(g)
	if err != nil || strings.Contains(string(raw), "u-ana") || strings.Contains(string(raw), `"user"`) {
		t.Fatalf("the served game row shows a user id: %s", raw)
	}
	var ids []string
	if err := pool.QueryRow(ctx, `select user_ids from games where id = 'g1'`).Scan(&ids); err != nil || len(ids) != 1 || ids[0] != "u-ana" {
		t.Fatalf("user ids kept apart: %v, %v", ids, err)
	}
}

// A seat view's row keeps only the choices when they stand for the legal
// list exactly (Coyote's bidder: "bid 5 … 250" instead of 246 bids), and
// every read gives the whole list back; a list the choices cannot say
// alone (a blank, or choices that do not cover it in order) is kept whole.
func TestLegalMovesAreStoredAsTheirChoices(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	bids := []string{"coyote!"}
	for n := 5; n <= 250; n++ {
		bids = append(bids, "bid "+strconv.Itoa(n))
	}
	cases := []struct {
		name          string
		legal, choice []string
		stored        int // legal moves in the row
	}{
		{"a range", bids, []string{"coyote!", "bid 5 … 250"}, 0},
		{"plain lines", []string{"income", "foreign aid"}, []string{"income", "foreign aid"}, 0},
		{"a blank", []string{"play K♥", "play 2♠"}, []string{"play <card>"}, 2},
		{"another order", []string{"b", "a"}, []string{"a", "b"}, 2},
		{"no move", nil, nil, 0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := "g" + strconv.Itoa(i)
			g := projections.Game{ID: id, Kind: "coyote", Status: projections.StatusActive, Version: 3,
				Players: []projections.Player{{Name: "Ana", User: "u-ana", Seat: 0}}}
			views := []projections.SeatView{{GameID: id, Seat: 0, Version: 3, View: json.RawMessage(`{}`), Legal: c.legal, Choices: c.choice}}
			if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return projections.Save(ctx, tx, g, views) }); err != nil {
				t.Fatal(err)
			}
			var stored int
			if err := pool.QueryRow(ctx, `select jsonb_array_length(legal) from seat_views where game_id = $1`, id).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if stored != c.stored {
				t.Errorf("the row keeps %d legal moves, want %d", stored, c.stored)
			}
			v, err := projections.GetView(ctx, pool, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, u, err := projections.GetGameForUser(ctx, pool, id, "u-ana")
			if err != nil {
				t.Fatal(err)
			}
			for _, got := range [][]string{v.Legal, u.Legal} {
				if len(got) != len(c.legal) || (len(got) > 0 && !slices.Equal(got, c.legal)) {
					t.Fatalf("read back %d legal moves %.60v, want %d %.60v", len(got), got, len(c.legal), c.legal)
				}
			}
		})
	}
}

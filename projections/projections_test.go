package projections_test

import (
	"context"
	"encoding/json"
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

package play_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// A seat view's row carries a legal list only where the seat's choices
// cannot say it alone (a blank to fill): over random games of every kind, a
// seat with no pending entry has none in its row (its few standing orders,
// Coup's auto-allow lines, are its choices), and what the views serve is
// still the engine's whole list.
func TestSeatRowsCarryNoLegalListTheChoicesSay(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := play.New(pool, catalog.Registry())
	pick := rand.New(rand.NewPCG(34, 3))
	for _, kind := range catalog.Registry().IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, err := catalog.Registry().Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			id, tbl, bySeat := startGame(t, svc, kind, eng.Info().MinSeats)
			for move := 0; move < 60 && len(tbl.Pending) > 0; move++ {
				rows, err := pool.Query(ctx, `select seat, jsonb_array_length(legal) from seat_views where game_id = $1 and seat >= 0`, id)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					var seat, stored int
					if err := rows.Scan(&seat, &stored); err != nil {
						t.Fatal(err)
					}
					pending := slices.ContainsFunc(tbl.Pending, func(p games.Pending) bool { return int(p.Seat) == seat })
					if !pending && stored > 0 {
						t.Errorf("move %d: seat %d has no pending entry but its row keeps %d legal moves", move, seat, stored)
					}
					v, err := svc.ViewFor(ctx, id, bySeat[games.Seat(seat)].User)
					if err != nil {
						t.Fatal(err)
					}
					if want := tbl.Engine.Legal(tbl.State, games.Seat(seat)); !slices.Equal(v.Legal, want) && len(want)+len(v.Legal) > 0 {
						t.Errorf("move %d: seat %d is served %d legal moves, the engine says %d", move, seat, len(v.Legal), len(want))
					}
				}
				rows.Close()
				p := tbl.Pending[pick.IntN(len(tbl.Pending))]
				legal := tbl.Engine.Legal(tbl.State, p.Seat)
				if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[pick.IntN(len(legal))]}); err != nil {
					t.Fatal(err)
				}
				if tbl, err = svc.Load(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

package play

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/projections"
)

// Upkeep is the operator's maintenance of the store: sealing seeds kept in
// clear by an older courrier, and rebuilding the projections from the log.
// Each walks every game and writes outside any game's command (no cache,
// no jobs, no wake), so it is kept off Service, which the doors hold: only
// the command line (`serve` at start, `projections rebuild`) makes one.
type Upkeep struct {
	pool  *pgxpool.Pool
	reg   *games.Registry
	seeds *SeedBox
}

// NewUpkeep returns the maintenance of the store on pool for the games in
// reg, sealing seeds with seeds (the Service's box; nil: a box of the
// process's own, for a rebuild, which seals nothing).
func NewUpkeep(pool *pgxpool.Pool, reg *games.Registry, seeds *SeedBox) *Upkeep {
	if seeds == nil {
		seeds = NewEphemeralSeedBox()
	}
	return &Upkeep{pool: pool, reg: reg, seeds: seeds}
}

// SealClearSeeds seals every seed still stored in clear (from before seeds
// were sealed) and returns how many it sealed. The service runs it at start.
func (u *Upkeep) SealClearSeeds(ctx context.Context) (int, error) {
	rows, err := u.pool.Query(ctx, `select game_id, seed from game_secrets where seed is not null`)
	if err != nil {
		return 0, fmt.Errorf("find seeds in clear: %w", err)
	}
	type clearSeed struct {
		id   string
		seed []byte
	}
	var found []clearSeed
	for rows.Next() {
		var c clearSeed
		if err := rows.Scan(&c.id, &c.seed); err != nil {
			rows.Close()
			return 0, fmt.Errorf("find seeds in clear: %w", err)
		}
		found = append(found, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("find seeds in clear: %w", err)
	}
	for i, c := range found {
		var seed games.Seed
		copy(seed[:], c.seed)
		sealed, kid := u.seeds.Seal(c.id, seed)
		if _, err := u.pool.Exec(ctx, `update game_secrets set seed = null, sealed = $2, key_id = $3 where game_id = $1 and seed is not null`,
			c.id, sealed, kid); err != nil {
			return i, fmt.Errorf("seal the seed of game %s: %w", c.id, err)
		}
	}
	return len(found), nil
}

// RebuildProjections recomputes every inline projection from the event log
// alone, one game per transaction, with every upsert guarded by version so
// that it never replaces a newer row written by a live command meanwhile. It
// returns the number of games rebuilt; progress, when not nil, is called
// after each.
func (u *Upkeep) RebuildProjections(ctx context.Context, progress func(done, total int)) (int, error) {
	streams, err := events.Streams(ctx, u.pool, "game-")
	if err != nil {
		return 0, fmt.Errorf("rebuild projections: %w", err)
	}
	for i, stream := range streams {
		err := pgx.BeginFunc(ctx, u.pool, func(tx pgx.Tx) error {
			recorded, err := events.ReadStream(ctx, tx, stream, 0)
			if err != nil {
				return err
			}
			t, err := fold(u.reg, strings.TrimPrefix(stream, "game-"), recorded)
			if err != nil {
				return err
			}
			g, views, err := t.Project()
			if err != nil {
				return err
			}
			return projections.Save(ctx, tx, g, views)
		})
		if err != nil {
			return i, fmt.Errorf("rebuild projections of %s: %w", stream, err)
		}
		if progress != nil {
			progress(i+1, len(streams))
		}
	}
	return len(streams), nil
}

// RebuildStandings recomputes the ratings and reliability from the log
// alone (Standings.Rebuild), then applies what the feed held back during
// the replay (Standings.Settle), and returns the number of events
// replayed.
func (u *Upkeep) RebuildStandings(ctx context.Context) (int, error) {
	st := NewStandings(u.pool, u.reg, nil)
	n, err := st.Rebuild(ctx)
	if err != nil {
		return n, err
	}
	return n, st.Settle(ctx)
}

package projections

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/projections/glicko"
)

// Standings are a player's figures across games: reliability and ratings.
// Their tables (ratings, reliability_days) are written by one consumer of
// the global feed (play's Standings), never inline.

// Rating is a player's Glicko-2 rating for one game title.
type Rating struct {
	Kind string `json:"kind"`
	glicko.Rating
	// Games counts the rated games that moved it.
	Games     int       `json:"games"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Reliability is a player's counts over a window.
type Reliability struct {
	Finished  int `json:"finished"`  // games ended with the player seated
	Decisions int `json:"decisions"` // moves the player sent themselves
	Missed    int `json:"missed"`    // deadlines passed without a move (timed out)
	Abandoned int `json:"abandoned"` // times their seat was marked abandoned
}

// ReliabilityDelta adds counts to a player's day.
type ReliabilityDelta struct {
	User string
	Day  time.Time // a UTC date
	Reliability
}

// QueueReliability queues on b the addition of each delta to its player's
// day.
func QueueReliability(b *pgx.Batch, deltas []ReliabilityDelta) {
	for _, d := range deltas {
		b.Queue(`insert into reliability_days (user_id, day, finished, decisions, missed, abandoned)
			values ($1, $2::date, $3, $4, $5, $6)
			on conflict (user_id, day) do update set finished = reliability_days.finished + excluded.finished,
				decisions = reliability_days.decisions + excluded.decisions,
				missed = reliability_days.missed + excluded.missed,
				abandoned = reliability_days.abandoned + excluded.abandoned`,
			d.User, d.Day.UTC().Format(time.DateOnly), d.Finished, d.Decisions, d.Missed, d.Abandoned)
	}
}

// RatingsOf reads the ratings of users for the game title kind; a user
// who has none is missing from the map.
func RatingsOf(ctx context.Context, q events.Querier, kind string, users []string) (map[string]Rating, error) {
	rows, err := q.Query(ctx, `select user_id, rating, rd, volatility, games, updated_at from ratings
		where kind = $1 and user_id = any($2)`, kind, users)
	if err != nil {
		return nil, fmt.Errorf("read ratings of %s: %w", kind, err)
	}
	defer rows.Close()
	out := map[string]Rating{}
	for rows.Next() {
		var user string
		r := Rating{Kind: kind}
		if err := rows.Scan(&user, &r.Rating.Rating, &r.Deviation, &r.Volatility, &r.Games, &r.UpdatedAt); err != nil {
			return nil, fmt.Errorf("read ratings of %s: %w", kind, err)
		}
		out[user] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read ratings of %s: %w", kind, err)
	}
	return out, nil
}

// QueueRatings queues on b the writing of users' ratings (user → rating).
func QueueRatings(b *pgx.Batch, ratings map[string]Rating) {
	for _, user := range slices.Sorted(maps.Keys(ratings)) {
		r := ratings[user]
		b.Queue(`insert into ratings (user_id, kind, rating, rd, volatility, games, updated_at)
			values ($1, $2, $3, $4, $5, $6, $7)
			on conflict (user_id, kind) do update set rating = excluded.rating, rd = excluded.rd,
				volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at`,
			user, r.Kind, r.Rating.Rating, r.Deviation, r.Volatility, r.Games, r.UpdatedAt)
	}
}

// ResetStandings empties the standings tables, for a rebuild.
func ResetStandings(ctx context.Context, q events.Querier) error {
	if _, err := q.Exec(ctx, `delete from ratings`); err != nil {
		return fmt.Errorf("reset ratings: %w", err)
	}
	if _, err := q.Exec(ctx, `delete from reliability_days`); err != nil {
		return fmt.Errorf("reset reliability: %w", err)
	}
	return nil
}

// PlayerStandings reads user's reliability summed over the days from since
// (a UTC date, inclusive) and their ratings, by title.
func PlayerStandings(ctx context.Context, q events.Querier, user string, since time.Time) (Reliability, []Rating, error) {
	var rel Reliability
	err := q.QueryRow(ctx, `select coalesce(sum(finished), 0), coalesce(sum(decisions), 0), coalesce(sum(missed), 0), coalesce(sum(abandoned), 0)
		from reliability_days where user_id = $1 and day >= $2::date`, user, since.UTC().Format(time.DateOnly)).
		Scan(&rel.Finished, &rel.Decisions, &rel.Missed, &rel.Abandoned)
	if err != nil {
		return rel, nil, fmt.Errorf("read the reliability of a player: %w", err)
	}
	rows, err := q.Query(ctx, `select kind, rating, rd, volatility, games, updated_at from ratings where user_id = $1 order by kind`, user)
	if err != nil {
		return rel, nil, fmt.Errorf("read the ratings of a player: %w", err)
	}
	defer rows.Close()
	var out []Rating
	for rows.Next() {
		var r Rating
		if err := rows.Scan(&r.Kind, &r.Rating.Rating, &r.Deviation, &r.Volatility, &r.Games, &r.UpdatedAt); err != nil {
			return rel, nil, fmt.Errorf("read the ratings of a player: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return rel, nil, fmt.Errorf("read the ratings of a player: %w", err)
	}
	return rel, out, nil
}

// PlayerName is the name user played under in their most recent game
// (ErrNotFound when they never took a place in one): the name other
// players know them by.
func PlayerName(ctx context.Context, q events.Querier, user string) (string, error) {
	var name string
	err := q.QueryRow(ctx, `select g.players->(array_position(g.user_ids, $1) - 1)->>'name' from games g
		where g.user_ids @> array[$1] order by g.updated_at desc, g.id limit 1`, user).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("player: %w", ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read a player's name: %w", err)
	}
	return name, nil
}

// UserIDsOf reads the users of the games ids, each in the order of its
// players (users[i] plays players[i]).
func UserIDsOf(ctx context.Context, q events.Querier, ids []string) (map[string][]string, error) {
	rows, err := q.Query(ctx, `select id, user_ids from games where id = any($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("read the players of games: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var id string
		var users []string
		if err := rows.Scan(&id, &users); err != nil {
			return nil, fmt.Errorf("read the players of games: %w", err)
		}
		out[id] = users
	}
	return out, rows.Err()
}

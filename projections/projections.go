// Package projections holds courrier's read models: one row per game for
// lists and inboxes, and one view per seat, written inline in the command's
// transaction and rebuilt from the event log by `courrier projections
// rebuild`. Reads are one indexed row.
package projections

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// Game statuses.
const (
	StatusOpen     = "open"     // created, taking players
	StatusActive   = "active"   // started
	StatusFinished = "finished" // over
)

// Player is a person at a game: the name the table knows them by, the user
// behind it, and the seat once the game has started (-1 before).
type Player struct {
	Name string `json:"name"`
	User string `json:"user"`
	Seat int    `json:"seat"`
}

// ToAct is the public part of a pending entry: who must act, in what
// capacity, under which rule. The default move is not in it: it can name a
// hidden card (the lowest tile in a hand), so only its seat may see it.
type ToAct struct {
	Seat games.Seat `json:"seat"`
	Kind string     `json:"kind"`
	Rule string     `json:"rule"`
}

// PublicToAct strips the pending entries down to what everyone may see.
func PublicToAct(pending []games.Pending) []ToAct {
	out := make([]ToAct, len(pending))
	for i, p := range pending {
		out[i] = ToAct{Seat: p.Seat, Kind: p.Kind, Rule: p.Rule}
	}
	return out
}

// Game is the list row of a game.
type Game struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind"`
	Status    string        `json:"status"`
	Options   games.Options `json:"options"`
	Players   []Player      `json:"players"`
	ToAct     []ToAct       `json:"to_act"`
	Result    *games.Result `json:"result,omitempty"`
	Version   int           `json:"version"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
}

// SeatView is what one seat (or games.Spectator) may see of a game at a
// version, with its legal moves.
type SeatView struct {
	GameID  string          `json:"game_id"`
	Seat    games.Seat      `json:"seat"`
	Version int             `json:"version"`
	View    json.RawMessage `json:"view"`
	Legal   []string        `json:"legal"`
}

// ErrNotFound is returned when a game or view does not exist.
var ErrNotFound = errors.New("not found")

// Save writes a game's row and its seat views (replacing the previous ones).
func Save(ctx context.Context, q events.Querier, g Game, views []SeatView) error {
	players, _ := json.Marshal(nonNil(g.Players))
	toAct, _ := json.Marshal(nonNil(g.ToAct))
	opts, _ := json.Marshal(g.Options)
	var result []byte
	if g.Result != nil {
		result, _ = json.Marshal(g.Result)
	}
	_, err := q.Exec(ctx, `insert into games (id, kind, status, options, players, to_act, result, version, created_at, updated_at)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		on conflict (id) do update set status = excluded.status, options = excluded.options,
			players = excluded.players, to_act = excluded.to_act, result = excluded.result,
			version = excluded.version, updated_at = excluded.updated_at`,
		g.ID, g.Kind, g.Status, opts, players, toAct, result, g.Version, g.CreatedAt, g.UpdatedAt)
	if err != nil {
		return fmt.Errorf("save game %s: %w", g.ID, err)
	}
	for _, v := range views {
		legal, _ := json.Marshal(nonNil(v.Legal))
		_, err := q.Exec(ctx, `insert into seat_views (game_id, seat, version, view, legal) values ($1, $2, $3, $4, $5)
			on conflict (game_id, seat) do update set version = excluded.version, view = excluded.view, legal = excluded.legal`,
			g.ID, int(v.Seat), v.Version, []byte(v.View), legal)
		if err != nil {
			return fmt.Errorf("save view of seat %d of game %s: %w", v.Seat, g.ID, err)
		}
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

const gameColumns = `id, kind, status, options, players, to_act, result, version, created_at, updated_at`

func scanGame(row pgx.Row) (Game, error) {
	var g Game
	var result []byte
	err := row.Scan(&g.ID, &g.Kind, &g.Status, &g.Options, &g.Players, &g.ToAct, &result, &g.Version, &g.CreatedAt, &g.UpdatedAt)
	if err != nil {
		return g, err
	}
	if result != nil {
		g.Result = new(games.Result)
		if err := json.Unmarshal(result, g.Result); err != nil {
			return g, fmt.Errorf("decode result: %w", err)
		}
	}
	return g, nil
}

// GetGame reads one game's row.
func GetGame(ctx context.Context, q events.Querier, id string) (Game, error) {
	g, err := scanGame(q.QueryRow(ctx, `select `+gameColumns+` from games where id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return g, fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("read game %s: %w", id, err)
	}
	return g, nil
}

// ListGames returns games, newest activity first, optionally of one status
// ("" for all), at most limit.
func ListGames(ctx context.Context, q events.Querier, status string, limit int) ([]Game, error) {
	rows, err := q.Query(ctx, `select `+gameColumns+` from games where $1 = '' or status = $1
		order by updated_at desc, id limit $2`, status, limit)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("list games: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// GetView reads seat's view of a game.
func GetView(ctx context.Context, q events.Querier, gameID string, seat games.Seat) (SeatView, error) {
	v := SeatView{GameID: gameID, Seat: seat}
	err := q.QueryRow(ctx, `select version, view, legal from seat_views where game_id = $1 and seat = $2`, gameID, int(seat)).
		Scan(&v.Version, &v.View, &v.Legal)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, fmt.Errorf("view of seat %d of game %s: %w", seat, gameID, ErrNotFound)
	}
	if err != nil {
		return v, fmt.Errorf("read view of seat %d of game %s: %w", seat, gameID, err)
	}
	return v, nil
}

// Dump returns every game row and seat view in a stable order, as JSON text:
// the test that compares a rebuild with the inline projections uses it.
func Dump(ctx context.Context, q events.Querier) ([]string, error) {
	rows, err := q.Query(ctx, `select row_to_json(g)::text from (select `+gameColumns+` from games order by id) g
		union all
		select row_to_json(v)::text from (select * from seat_views order by game_id, seat) v`)
	if err != nil {
		return nil, fmt.Errorf("dump projections: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("dump projections: %w", err)
	}
	slices.Sort(out)
	return out, nil
}

// Clear deletes every inline projection row, in the caller's transaction,
// before a rebuild.
func Clear(ctx context.Context, q events.Querier) error {
	if _, err := q.Exec(ctx, `delete from seat_views; delete from games`); err != nil {
		return fmt.Errorf("clear projections: %w", err)
	}
	return nil
}

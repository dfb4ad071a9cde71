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
// behind it, and the seat once the game has started (-1 before). The user
// id is never served or stored in the players list (the games row keeps the
// ids apart, for "my games"): other players know a player by name.
type Player struct {
	Name string `json:"name"`
	User string `json:"-"`
	Seat int    `json:"seat"`
}

// ToAct is the public part of a pending entry: who must act, in what
// capacity, under which rule. The default move is not in it: it can name a
// hidden card (the lowest tile in a hand), so only its seat may see it.
type ToAct struct {
	Seat games.Seat `json:"seat"`
	Kind string     `json:"kind"`
	Rule string     `json:"rule"`
	// Since is the version at which the entry opened: with Seat and Kind,
	// its identity.
	Since int `json:"since"`
	// Deadline is when the entry's default move applies (none in a game
	// created before deadlines existed).
	Deadline *time.Time `json:"deadline,omitempty"`
}

// PublicToAct strips the pending entries down to what everyone may see.
func PublicToAct(pending []games.Pending) []ToAct {
	out := make([]ToAct, len(pending))
	for i, p := range pending {
		out[i] = ToAct{Seat: p.Seat, Kind: p.Kind, Rule: p.Rule, Since: p.Since}
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
	// Invited are the users (opaque ids) invited who have not joined yet:
	// the game is in their list too. Never served.
	Invited []string `json:"-"`
}

// SeatView is what one seat (or games.Spectator) may see of a game at a
// version, with its legal moves in full and in the compact form of a
// numbered prompt.
type SeatView struct {
	GameID  string          `json:"game_id"`
	Seat    games.Seat      `json:"seat"`
	Version int             `json:"version"`
	View    json.RawMessage `json:"view"`
	Legal   []string        `json:"legal"`
	Choices []string        `json:"choices"`
}

// storedLegal is the legal list a seat view's row keeps: none when its
// choices stand for it exactly (a range "bid 5 … 250" instead of 246
// bids: Coyote's bidder's row shrinks from kilobytes to a line), the
// whole list otherwise. expandLegal gives it back on reading.
func storedLegal(v SeatView) []string {
	if moves, ok := games.ExpandChoices(v.Choices); ok && slices.Equal(moves, v.Legal) {
		return nil
	}
	return v.Legal
}

// expandLegal restores the legal list of a view read from its row when the
// row kept only the choices (storedLegal): a seat with choices always has
// legal moves.
func (v *SeatView) expandLegal() {
	if len(v.Legal) == 0 && len(v.Choices) > 0 {
		if moves, ok := games.ExpandChoices(v.Choices); ok {
			v.Legal = moves
		}
	}
}

// ErrNotFound is returned when a game or view does not exist.
var ErrNotFound = errors.New("not found")

// QueueSave queues on b the upsert of a game's row and of the given seat
// views (those that changed; the others keep their rows). Every upsert is
// guarded by version: a row is never replaced by an older one, so a rebuild
// can run beside live commands. A zero CreatedAt or UpdatedAt is the
// transaction's time, which is also the recording time of the events it
// appends.
func QueueSave(b *pgx.Batch, g Game, views []SeatView) error {
	players, err := json.Marshal(nonNil(g.Players))
	if err != nil {
		return fmt.Errorf("encode players of %s: %w", g.ID, err)
	}
	toAct, err := json.Marshal(nonNil(g.ToAct))
	if err != nil {
		return fmt.Errorf("encode pending entries of %s: %w", g.ID, err)
	}
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return fmt.Errorf("encode options of %s: %w", g.ID, err)
	}
	var result []byte
	if g.Result != nil {
		if result, err = json.Marshal(g.Result); err != nil {
			return fmt.Errorf("encode result of %s: %w", g.ID, err)
		}
	}
	users := make([]string, len(g.Players)) // in the order of players: users[i] plays players[i]
	for i, p := range g.Players {
		users[i] = p.User
	}
	invited := g.Invited
	if invited == nil {
		invited = []string{}
	}
	b.Queue(`insert into games (id, kind, status, options, players, to_act, result, version, created_at, updated_at, user_ids, invited)
		values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now()), coalesce($10, now()), $11, $12)
		on conflict (id) do update set status = excluded.status, options = excluded.options,
			players = excluded.players, to_act = excluded.to_act, result = excluded.result,
			version = excluded.version, updated_at = excluded.updated_at, user_ids = excluded.user_ids,
			invited = excluded.invited
		where games.version <= excluded.version`,
		g.ID, g.Kind, g.Status, opts, players, toAct, result, g.Version, nullTime(g.CreatedAt), nullTime(g.UpdatedAt), users, invited)
	if len(views) == 0 {
		return nil
	}
	seats := make([]int32, len(views))
	texts := make([]string, len(views))
	legals := make([]string, len(views))
	choices := make([]string, len(views))
	for i, v := range views {
		seats[i] = int32(v.Seat) //nolint:gosec // G115: a seat is -1 to a handful
		texts[i] = string(v.View)
		l, err := json.Marshal(nonNil(storedLegal(v)))
		if err != nil {
			return fmt.Errorf("encode legal moves of %s: %w", g.ID, err)
		}
		c, err := json.Marshal(nonNil(v.Choices))
		if err != nil {
			return fmt.Errorf("encode choices of %s: %w", g.ID, err)
		}
		legals[i], choices[i] = string(l), string(c)
	}
	b.Queue(`insert into seat_views (game_id, seat, version, view, legal, choices)
		select $1, s, $2, v::jsonb, l::jsonb, c::jsonb from unnest($3::int[], $4::text[], $5::text[], $6::text[]) as x(s, v, l, c)
		on conflict (game_id, seat) do update set version = excluded.version, view = excluded.view,
			legal = excluded.legal, choices = excluded.choices
		where seat_views.version <= excluded.version`,
		g.ID, g.Version, seats, texts, legals, choices)
	return nil
}

// Save writes a game's row and the given seat views in tx (see QueueSave).
func Save(ctx context.Context, tx pgx.Tx, g Game, views []SeatView) error {
	b := &pgx.Batch{}
	if err := QueueSave(b, g, views); err != nil {
		return err
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("save game %s: %w", g.ID, err)
	}
	return nil
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
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

// GetGameForUser reads a game's row and the view of the seat user plays in
// it (the spectator's for "", for a user without a seat, and before the
// start), in one query. Before the start there is no view: the SeatView
// has only its seat, -1.
func GetGameForUser(ctx context.Context, q events.Querier, gameID, user string) (Game, SeatView, error) {
	var g Game
	var result []byte
	v := SeatView{GameID: gameID}
	var version *int
	var seat int
	err := q.QueryRow(ctx, `select g.id, g.kind, g.status, g.options, g.players, g.to_act, g.result, g.version,
			g.created_at, g.updated_at, s.seat, v.version, v.view, v.legal, v.choices
		from games g
		cross join lateral (select coalesce(case when g.status <> 'open' and $2 <> ''
			then (g.players->(array_position(g.user_ids, $2) - 1)->>'seat')::int end, -1) as seat) s
		left join seat_views v on v.game_id = g.id and v.seat = s.seat
		where g.id = $1`, gameID, user).
		Scan(&g.ID, &g.Kind, &g.Status, &g.Options, &g.Players, &g.ToAct, &result, &g.Version,
			&g.CreatedAt, &g.UpdatedAt, &seat, &version, &v.View, &v.Legal, &v.Choices)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, v, fmt.Errorf("game %s: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return g, v, fmt.Errorf("read game %s for a user: %w", gameID, err)
	}
	if result != nil {
		g.Result = new(games.Result)
		if err := json.Unmarshal(result, g.Result); err != nil {
			return g, v, fmt.Errorf("decode result: %w", err)
		}
	}
	v.Seat = games.Seat(seat)
	v.Version = g.Version
	v.expandLegal()
	if version != nil {
		v.Version = *version
	}
	return g, v, nil
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

// GameOfUser is a game in a user's list, with the seat the user holds (-1
// before the start).
type GameOfUser struct {
	Game
	Seat int `json:"seat"`
}

// ListGamesOf lists the games user (an opaque id) plays or played in, or
// is invited to (at seat -1 until they join), most recently changed first.
func ListGamesOf(ctx context.Context, q events.Querier, user string, limit int) ([]GameOfUser, error) {
	rows, err := q.Query(ctx, `select `+gameColumns+`,
			coalesce((players->(array_position(user_ids, $1) - 1)->>'seat')::int, -1)
		from games where user_ids @> array[$1] or invited @> array[$1]
		order by updated_at desc, id limit $2`, user, limit)
	if err != nil {
		return nil, fmt.Errorf("list games of a user: %w", err)
	}
	defer rows.Close()
	var out []GameOfUser
	for rows.Next() {
		var g GameOfUser
		var result []byte
		if err := rows.Scan(&g.ID, &g.Kind, &g.Status, &g.Options, &g.Players, &g.ToAct, &result, &g.Version, &g.CreatedAt, &g.UpdatedAt, &g.Seat); err != nil {
			return nil, fmt.Errorf("list games of a user: %w", err)
		}
		if result != nil {
			g.Result = new(games.Result)
			if err := json.Unmarshal(result, g.Result); err != nil {
				return nil, fmt.Errorf("decode result: %w", err)
			}
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// GetView reads seat's view of a game at the game's current version.
func GetView(ctx context.Context, q events.Querier, gameID string, seat games.Seat) (SeatView, error) {
	v := SeatView{GameID: gameID, Seat: seat}
	err := q.QueryRow(ctx, `select g.version, v.view, v.legal, v.choices from seat_views v join games g on g.id = v.game_id
		where v.game_id = $1 and v.seat = $2`, gameID, int(seat)).
		Scan(&v.Version, &v.View, &v.Legal, &v.Choices)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, fmt.Errorf("view of seat %d of game %s: %w", seat, gameID, ErrNotFound)
	}
	if err != nil {
		return v, fmt.Errorf("read view of seat %d of game %s: %w", seat, gameID, err)
	}
	v.expandLegal()
	return v, nil
}

// GetViewOfUser reads the view of the seat user plays in a game (the
// spectator's for "", for a user without a seat, and before the start) in
// one query: the seat is found in the games row, where user_ids[i] plays
// players[i].
func GetViewOfUser(ctx context.Context, q events.Querier, gameID, user string) (SeatView, error) {
	v := SeatView{GameID: gameID}
	var seat int
	err := q.QueryRow(ctx, `
		with me as (
			select coalesce((select (g.players->(array_position(g.user_ids, $2) - 1)->>'seat')::int
				from games g where g.id = $1 and g.status <> 'open' and $2 <> ''), -1) as seat
		)
		select me.seat, g.version, v.view, v.legal, v.choices
		from me, seat_views v join games g on g.id = v.game_id
		where v.game_id = $1 and v.seat = me.seat`, gameID, user).
		Scan(&seat, &v.Version, &v.View, &v.Legal, &v.Choices)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, fmt.Errorf("view of game %s: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return v, fmt.Errorf("read a view of game %s: %w", gameID, err)
	}
	v.Seat = games.Seat(seat)
	v.expandLegal()
	return v, nil
}

// Dump returns every game row and seat view, and the standings (ratings,
// reliability), in a stable order, as JSON text:
// the test that compares a rebuild with the inline projections uses it.
func Dump(ctx context.Context, q events.Querier) ([]string, error) {
	rows, err := q.Query(ctx, `select row_to_json(g)::text from (select `+gameColumns+` from games order by id) g
		union all
		select row_to_json(v)::text from (select game_id, seat, view, legal, choices from seat_views order by game_id, seat) v`)
	if err != nil {
		return nil, fmt.Errorf("dump projections: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("dump projections: %w", err)
	}
	// The standings, when the schema has them (a database migrated to an
	// older version, in a migration's test, has not).
	var standings bool
	if err := q.QueryRow(ctx, `select to_regclass('ratings') is not null`).Scan(&standings); err != nil {
		return nil, fmt.Errorf("dump projections: %w", err)
	}
	if standings {
		rows, err := q.Query(ctx, `select row_to_json(r)::text from (select * from ratings order by user_id, kind) r
			union all
			select row_to_json(d)::text from (select * from reliability_days order by user_id, day) d`)
		if err != nil {
			return nil, fmt.Errorf("dump standings: %w", err)
		}
		more, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, fmt.Errorf("dump standings: %w", err)
		}
		out = append(out, more...)
	}
	slices.Sort(out)
	return out, nil
}

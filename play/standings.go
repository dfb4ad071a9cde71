package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/projections"
	"github.com/courrier-games/courrier/projections/glicko"
)

// Standings keeps the players' ratings and reliability (projections'
// ratings and reliability_days) from the log: one consumer of the global
// feed, which applies its events in the feed's (tx, position) order, batch
// by batch, each batch in one transaction that holds an advisory lock and
// saves the feed checkpoint "standings". A rebuild empties the tables and
// replays the feed from its start through the same code in the same order,
// so it writes exactly what the live consumer wrote: two games ending
// concurrently are rated in the order their ends have in the feed, live
// and rebuilt alike.
//
// What it counts, per player (the user holding the seat at that version):
//   - a decision: a command of the player's own in a game (one or more
//     move lines, or a resignation), counted once per command;
//   - a missed deadline: a game.timed_out event of the player's seat;
//   - an abandonment: a game.abandoned event of the player's seat;
//   - a finished game: a game.ended event with the player seated;
//
// each on the UTC day of its recording; and a rated game's end moves the
// Glicko-2 ratings of its players for its title (ratingResults).
type Standings struct {
	pool  *pgxpool.Pool
	reg   *games.Registry
	log   *slog.Logger
	batch int
}

// standingsConsumer names the standings' checkpoint in feed_checkpoints.
const standingsConsumer = "standings"

// standingsLock is the advisory lock key that lets one process at a time
// apply the feed to the standings ("ratings" in ASCII).
const standingsLock = 0x726174696e6773

// NewStandings returns the standings consumer on pool for the games in reg.
func NewStandings(pool *pgxpool.Pool, reg *games.Registry, log *slog.Logger) *Standings {
	if log == nil {
		log = slog.Default()
	}
	return &Standings{pool: pool, reg: reg, log: log, batch: 500}
}

// SetBatch sets how many events of the feed one transaction applies at
// most (default 500; a transaction's events are never split).
func (st *Standings) SetBatch(n int) { st.batch = max(n, 1) }

// CatchUp applies the feed after the checkpoint up to its current end and
// returns the number of events read. When another process holds the lock
// it returns at once with 0: that process is catching up.
func (st *Standings) CatchUp(ctx context.Context) (int, error) {
	total := 0
	for {
		n, locked, err := st.step(ctx)
		if err != nil {
			return total, err
		}
		total += n
		if !locked || n == 0 {
			return total, nil
		}
	}
}

// Settle catches up until every event committed before the call is
// applied: the feed holds an event back while any older transaction on the
// server still runs, so it polls (10 ms) until then, or ctx ends. Tests and
// the fault suite use it; serve follows the feed instead (Run).
func (st *Standings) Settle(ctx context.Context) error {
	var last *int64
	if err := st.pool.QueryRow(ctx, `select max(position) from events`).Scan(&last); err != nil {
		return fmt.Errorf("settle the standings: %w", err)
	}
	if last == nil {
		return nil
	}
	for {
		if _, err := st.CatchUp(ctx); err != nil {
			return err
		}
		cp, err := events.LoadCheckpoint(ctx, st.pool, standingsConsumer)
		if err != nil {
			return err
		}
		var behind bool
		err = st.pool.QueryRow(ctx, `select exists (select from events e where e.position <= $1
			and (e.tx, e.position) > ($2::text::xid8, $3))`, *last, strconv.FormatUint(cp.TX, 10), cp.Position).Scan(&behind)
		if err != nil {
			return fmt.Errorf("settle the standings: %w", err)
		}
		if !behind {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("settle the standings: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// step applies one batch in one transaction; locked is false when
// another process held the lock.
func (st *Standings) step(ctx context.Context) (n int, locked bool, err error) {
	err = pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `select pg_try_advisory_xact_lock($1)`, int64(standingsLock)).Scan(&locked); err != nil {
			return fmt.Errorf("lock the standings: %w", err)
		}
		if !locked {
			return nil
		}
		cp, err := events.LoadCheckpoint(ctx, tx, standingsConsumer)
		if err != nil {
			return err
		}
		n, err = st.applyBatch(ctx, tx, cp)
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("standings: %w", err)
	}
	return n, locked, nil
}

// Rebuild empties the standings and replays the feed into them, in one
// transaction (readers see the old standings until it commits; the live
// consumer waits), and returns the number of events read. The feed shows
// only what committed before every transaction still running on the
// server, this one included: what it held back the live consumer (or
// Settle) applies after, from the saved checkpoint, in the same order.
func (st *Standings) Rebuild(ctx context.Context) (int, error) {
	total := 0
	err := pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock($1)`, int64(standingsLock)); err != nil {
			return fmt.Errorf("lock the standings: %w", err)
		}
		if err := projections.ResetStandings(ctx, tx); err != nil {
			return err
		}
		cp := events.Checkpoint{}
		if err := events.SaveCheckpoint(ctx, tx, standingsConsumer, cp); err != nil {
			return err
		}
		for {
			n, err := st.applyBatch(ctx, tx, cp)
			if err != nil {
				return err
			}
			if n == 0 {
				return nil
			}
			total += n
			if cp, err = events.LoadCheckpoint(ctx, tx, standingsConsumer); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return total, fmt.Errorf("rebuild the standings: %w", err)
	}
	return total, nil
}

// Run catches up now, then at every tick of the process's feed watcher and
// at least every interval, until ctx ends. serve runs it.
func (st *Standings) Run(ctx context.Context, ticks <-chan events.Tick, interval time.Duration) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-ticks:
			if !ok {
				ticks = nil
			}
		case <-timer.C:
		}
		if _, err := st.CatchUp(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			st.log.WarnContext(ctx, "the standings could not catch up with the feed", "err", err)
		}
		timer.Reset(interval)
	}
}

// applyBatch reads the feed after cp and applies it, whole transactions
// only, and saves the new checkpoint; it returns the number of events
// applied (0 at the feed's end).
func (st *Standings) applyBatch(ctx context.Context, tx pgx.Tx, cp events.Checkpoint) (int, error) {
	limit := st.batch
	var recs []events.Recorded
	for {
		var err error
		if recs, _, err = events.ReadFeed(ctx, tx, cp, limit); err != nil {
			return 0, err
		}
		if len(recs) < limit {
			break
		}
		// A full batch may end inside a transaction: keep the transactions
		// it holds whole (a command counts once, whatever the batch size).
		last := recs[len(recs)-1].TX
		if k := slices.IndexFunc(recs, func(r events.Recorded) bool { return r.TX == last }); k > 0 {
			recs = recs[:k]
			break
		}
		limit *= 2
	}
	if len(recs) == 0 {
		return 0, nil
	}
	a := &standingsBatch{st: st, tx: tx, tables: map[string][]events.Recorded{},
		days: map[dayKey]projections.Reliability{}, ratings: map[string]map[string]projections.Rating{}, counted: map[string]bool{}}
	for _, e := range recs {
		if err := a.apply(ctx, e); err != nil {
			return 0, fmt.Errorf("%s version %d: %w", e.Stream, e.Version, err)
		}
	}
	b := &pgx.Batch{}
	deltas := make([]projections.ReliabilityDelta, 0, len(a.days))
	for k, r := range a.days {
		deltas = append(deltas, projections.ReliabilityDelta{User: k.user, Day: k.day, Reliability: r})
	}
	slices.SortFunc(deltas, func(x, y projections.ReliabilityDelta) int {
		if c := strings.Compare(x.User, y.User); c != 0 {
			return c
		}
		return x.Day.Compare(y.Day)
	})
	projections.QueueReliability(b, deltas)
	for _, kind := range slices.Sorted(maps.Keys(a.ratings)) {
		projections.QueueRatings(b, a.ratings[kind])
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return 0, fmt.Errorf("write the standings: %w", err)
		}
	}
	last := recs[len(recs)-1]
	if err := events.SaveCheckpoint(ctx, tx, standingsConsumer, events.Checkpoint{TX: last.TX, Position: last.Position}); err != nil {
		return 0, err
	}
	return len(recs), nil
}

type dayKey struct {
	user string
	day  time.Time
}

// standingsBatch is what one batch has applied so far, written at its end.
type standingsBatch struct {
	st *Standings
	tx pgx.Tx
	// tables holds the streams read in this batch.
	tables map[string][]events.Recorded
	days   map[dayKey]projections.Reliability
	// ratings holds the ratings read or moved in this batch, by title and
	// user.
	ratings map[string]map[string]projections.Rating
	// counted marks the commands already counted as decisions (stream, tx,
	// user).
	counted map[string]bool
}

func (a *standingsBatch) add(user string, at time.Time, f func(*projections.Reliability)) {
	if user == "" {
		return
	}
	at = at.UTC()
	k := dayKey{user: user, day: time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)}
	r := a.days[k]
	f(&r)
	a.days[k] = r
}

// apply counts one event of the feed.
func (a *standingsBatch) apply(ctx context.Context, e events.Recorded) error {
	if !strings.HasPrefix(e.Stream, "game-") {
		return nil
	}
	switch e.Type {
	case TypeTimedOut, TypeAbandoned:
		var s struct {
			Seat games.Seat `json:"seat"`
		}
		if err := json.Unmarshal(e.Data, &s); err != nil {
			return fmt.Errorf("decode %s: %w", e.Type, err)
		}
		t, err := a.tableAt(ctx, e)
		if err != nil {
			return err
		}
		a.add(t.UserAt(s.Seat), e.RecordedAt, func(r *projections.Reliability) {
			if e.Type == TypeTimedOut {
				r.Missed++
			} else {
				r.Abandoned++
			}
		})
	case TypeEnded:
		t, err := a.tableAt(ctx, e)
		if err != nil {
			return err
		}
		return a.ended(ctx, t, e.RecordedAt)
	default:
		if strings.HasPrefix(e.Type, "game.") {
			return nil
		}
		var m events.Meta
		if len(e.Meta) == 0 || json.Unmarshal(e.Meta, &m) != nil {
			return nil
		}
		if m.Actor == "" || m.Seat == nil || m.Move == "" || m.Channel == ChannelSystem {
			return nil
		}
		k := fmt.Sprintf("%s\x00%d\x00%s", e.Stream, e.TX, m.Actor)
		if a.counted[k] {
			return nil
		}
		a.counted[k] = true
		a.add(m.Actor, e.RecordedAt, func(r *projections.Reliability) { r.Decisions++ })
	}
	return nil
}

// tableAt folds e's game up to e.
func (a *standingsBatch) tableAt(ctx context.Context, e events.Recorded) (*Table, error) {
	recorded, ok := a.tables[e.Stream]
	if !ok || len(recorded) < e.Version {
		var err error
		if recorded, err = events.ReadStream(ctx, a.tx, e.Stream, 0); err != nil {
			return nil, err
		}
		a.tables[e.Stream] = recorded
	}
	if len(recorded) < e.Version || recorded[e.Version-1].Version != e.Version {
		return nil, fmt.Errorf("the stream does not hold version %d", e.Version)
	}
	return fold(a.st.reg, strings.TrimPrefix(e.Stream, "game-"), recorded[:e.Version])
}

// ended counts a finished game for every seated player and, when the game
// is rated, moves their ratings for its title.
func (a *standingsBatch) ended(ctx context.Context, t *Table, at time.Time) error {
	if !t.Started {
		return nil
	}
	n := t.seatCount()
	users := make([]string, n)
	for seat := range n {
		users[seat] = t.UserAt(games.Seat(seat))
		a.add(users[seat], at, func(r *projections.Reliability) { r.Finished++ })
	}
	if t.Unrated {
		return nil
	}
	results := ratingResults(t.Result(), n, t.Engine.Info().Teams)
	if len(results) == 0 {
		return nil
	}
	var need []string
	known := a.ratings[t.Kind]
	if known == nil {
		known = map[string]projections.Rating{}
		a.ratings[t.Kind] = known
	}
	for _, u := range users {
		if _, ok := known[u]; !ok && u != "" {
			need = append(need, u)
		}
	}
	if len(need) > 0 {
		stored, err := projections.RatingsOf(ctx, a.tx, t.Kind, need)
		if err != nil {
			return err
		}
		for _, u := range need {
			r, ok := stored[u]
			if !ok {
				r = projections.Rating{Kind: t.Kind, Rating: glicko.New()}
			}
			known[u] = r
		}
	}
	// One rating period per game: every player's results against the
	// ratings as they stood before it.
	before := make([]projections.Rating, n)
	for seat, u := range users {
		before[seat] = known[u]
	}
	for seat, u := range users {
		res := results[games.Seat(seat)]
		if u == "" || len(res) == 0 {
			continue
		}
		period := make([]glicko.Result, 0, len(res))
		for _, r := range res {
			if users[r.opponent] == "" {
				continue
			}
			period = append(period, glicko.Result{Opponent: before[r.opponent].Rating, Score: r.score})
		}
		if len(period) == 0 {
			continue
		}
		next := before[seat]
		next.Rating = glicko.Update(before[seat].Rating, period, glicko.Tau)
		next.Games++
		next.UpdatedAt = at
		known[u] = next
	}
	return nil
}

// pairResult is one seat's result against one opponent.
type pairResult struct {
	opponent games.Seat
	score    float64
}

// ratingResults turns a finished game's result into each seat's results
// against the others, for one rating period:
//   - teammates (seat s plays for team s % teams when teams > 0) are not
//     compared: each player meets each opponent with the team's result;
//   - a winner against a seat that did not win: a win and a loss;
//   - two winners (a shared win): a draw;
//   - two seats that did not win: by their scores when the game keeps a
//     score per seat (the higher wins, equal ones draw), else not compared.
//
// A game without winners and without scores rates nobody.
func ratingResults(res games.Result, seats, teams int) map[games.Seat][]pairResult {
	out := map[games.Seat][]pairResult{}
	if !res.Finished {
		return out
	}
	scored := len(res.Scores) == seats
	for i := range seats {
		for j := i + 1; j < seats; j++ {
			if teams > 0 && i%teams == j%teams {
				continue
			}
			si, sj := games.Seat(i), games.Seat(j)
			wi, wj := slices.Contains(res.Winners, si), slices.Contains(res.Winners, sj)
			var score float64
			switch {
			case wi && !wj:
				score = 1
			case wj && !wi:
				score = 0
			case wi && wj:
				score = 0.5
			case scored && res.Scores[i] > res.Scores[j]:
				score = 1
			case scored && res.Scores[i] < res.Scores[j]:
				score = 0
			case scored:
				score = 0.5
			default:
				continue
			}
			out[si] = append(out[si], pairResult{opponent: sj, score: score})
			out[sj] = append(out[sj], pairResult{opponent: si, score: 1 - score})
		}
	}
	return out
}

// Reliability is a player's reliability over the last 12 months.
type Reliability struct {
	projections.Reliability
	// Met is the percentage of deadlines met: the moves the player sent
	// themselves out of those plus the deadlines they missed (rounded
	// down); nil when nothing was due yet (a new player).
	Met *int `json:"met,omitempty"`
}

// reliabilityOf completes counts with their percentage.
func reliabilityOf(r projections.Reliability) Reliability {
	out := Reliability{Reliability: r}
	if due := r.Decisions + r.Missed; due > 0 {
		met := 100 * r.Decisions / due
		out.Met = &met
	}
	return out
}

// PlayerCard is what anyone may see of a player: the name they last played
// under, their reliability over the last 12 months and their ratings by
// title. Never their address.
type PlayerCard struct {
	ID          string
	Name        string
	Reliability Reliability
	Ratings     []projections.Rating
}

// windowStart is the first UTC day of the reliability window at now.
func windowStart(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year()-1, now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// Player returns the player card of the user id: a refusal with
// CodeNotFound for an id that never took a seat.
func (s *Service) Player(ctx context.Context, id string) (PlayerCard, error) {
	name, err := projections.PlayerName(ctx, s.pool, id)
	if errors.Is(err, projections.ErrNotFound) {
		return PlayerCard{}, refuse(CodeNotFound, "refusal.player_unknown", id)
	}
	if err != nil {
		return PlayerCard{}, err
	}
	rel, ratings, err := projections.PlayerStandings(ctx, s.pool, id, windowStart(s.now()))
	if err != nil {
		return PlayerCard{}, err
	}
	return PlayerCard{ID: id, Name: name, Reliability: reliabilityOf(rel), Ratings: ratings}, nil
}

// reliabilityIn reads user's reliability at now in q (a command's
// transaction).
func reliabilityIn(ctx context.Context, q events.Querier, user string, now time.Time) (Reliability, error) {
	rel, _, err := projections.PlayerStandings(ctx, q, user, windowStart(now))
	if err != nil {
		return Reliability{}, err
	}
	return reliabilityOf(rel), nil
}

// LobbyGame is an open game with each joined player's rating for its
// title (by player, nil for a player without one) and its user id, for a
// link to their card.
type LobbyGame struct {
	projections.Game
	Users   []string
	Ratings []*projections.Rating
}

// Lobby lists the open games one may join (at most limit, newest activity
// first) with their players' ratings for the game's title.
func (s *Service) Lobby(ctx context.Context, limit int) ([]LobbyGame, error) {
	list, err := s.Games(ctx, projections.StatusOpen, limit)
	if err != nil {
		return nil, err
	}
	return s.withRatings(ctx, list)
}

// withRatings adds to games their players' user ids and ratings.
func (s *Service) withRatings(ctx context.Context, list []projections.Game) ([]LobbyGame, error) {
	ids := make([]string, len(list))
	for i, g := range list {
		ids[i] = g.ID
	}
	users, err := projections.UserIDsOf(ctx, s.pool, ids)
	if err != nil {
		return nil, err
	}
	byKind := map[string][]string{}
	for _, g := range list {
		byKind[g.Kind] = append(byKind[g.Kind], users[g.ID]...)
	}
	ratings := map[string]map[string]projections.Rating{}
	for kind, us := range byKind {
		if ratings[kind], err = projections.RatingsOf(ctx, s.pool, kind, us); err != nil {
			return nil, err
		}
	}
	out := make([]LobbyGame, len(list))
	for i, g := range list {
		lg := LobbyGame{Game: g, Users: make([]string, len(g.Players)), Ratings: make([]*projections.Rating, len(g.Players))}
		us := users[g.ID]
		for j := range g.Players {
			if j >= len(us) {
				break
			}
			lg.Users[j] = us[j]
			if r, ok := ratings[g.Kind][us[j]]; ok {
				lg.Ratings[j] = &r
			}
		}
		out[i] = lg
	}
	return out, nil
}

// PlayerIDs returns the ids of a game's players, in the order of its
// players list (for links to their cards).
func (s *Service) PlayerIDs(ctx context.Context, gameID string) ([]string, error) {
	users, err := projections.UserIDsOf(ctx, s.pool, []string{gameID})
	if err != nil {
		return nil, err
	}
	return users[gameID], nil
}

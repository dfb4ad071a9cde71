package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// mirror follows one game in the benchmark's memory: it decides the same
// moves the service decides, with the same seed, so a client knows a legal
// move to send without reading anything back from the database.
type mirror struct {
	id      string
	eng     games.Engine
	state   games.State
	version int
	seed    games.Seed
	seats   map[games.Seat]play.Actor
	rng     *rand.Rand
}

// newMirror creates, fills and starts a game of kind for n players through
// the service and mirrors it.
func newMirror(tb testing.TB, svc *play.Service, pool *pgxpool.Pool, kind string, n int, salt uint64) *mirror {
	tb.Helper()
	ctx := context.Background()
	people := make([]play.Actor, n)
	for i := range people {
		people[i] = play.Actor{User: fmt.Sprintf("u-%d-%d", salt, i), Channel: play.ChannelAPI}
	}
	out, err := svc.Create(ctx, people[0], kind, nil, "P0")
	if err != nil {
		tb.Fatal(err)
	}
	for i := 1; i < n; i++ {
		if _, err := svc.Join(ctx, people[i], out.GameID, fmt.Sprintf("P%d", i)); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, people[0], out.GameID); err != nil {
		tb.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		tb.Fatal(err)
	}
	m := &mirror{id: out.GameID, eng: tbl.Engine, state: tbl.State, version: tbl.Version,
		seats: map[games.Seat]play.Actor{}, rng: rand.New(rand.NewPCG(salt, 7))}
	for _, a := range people {
		m.seats[tbl.SeatOf(a.User)] = a
	}
	var sealed []byte
	var kid string
	if err := pool.QueryRow(ctx, `select sealed, key_id from game_secrets where game_id = $1`, m.id).Scan(&sealed, &kid); err != nil {
		tb.Fatal(err)
	}
	if m.seed, err = benchSeeds.Open(m.id, kid, sealed); err != nil {
		tb.Fatal(err)
	}
	return m
}

// next picks a random pending seat and a random legal move of it; ok is
// false when the game is over.
func (m *mirror) next() (games.Seat, string, bool) {
	pend := m.eng.Pending(m.state)
	if len(pend) == 0 {
		return 0, "", false
	}
	p := pend[m.rng.IntN(len(pend))]
	legal := m.eng.Legal(m.state, p.Seat)
	return p.Seat, legal[m.rng.IntN(len(legal))], true
}

// play applies a move the service accepted; it returns the events, as the
// service stored them, with their meta.
func (m *mirror) play(tb testing.TB, seat games.Seat, move string) []events.Event {
	evs, err := m.eng.Decide(m.state, seat, move, m.seed.Rand(m.version))
	if err != nil {
		tb.Fatalf("mirror of %s: %q: %v", m.id, move, err)
	}
	seatNo := int(seat)
	out := make([]events.Event, 0, len(evs)+1)
	for _, e := range evs {
		if m.state, err = m.eng.Evolve(m.state, e); err != nil {
			tb.Fatal(err)
		}
		out = append(out, events.Event{Type: m.eng.Info().ID + "." + e.Type, Data: e.Data,
			Meta: events.Meta{Actor: m.seats[seat].User, Seat: &seatNo, Channel: play.ChannelAPI, Move: move}})
	}
	m.version += len(evs)
	if m.eng.Result(m.state).Finished {
		m.version++ // game.ended
	}
	return out
}

// fastForward plays random moves in memory and appends them straight to the
// log until the game reaches version target. A game that would end first is
// replayed with other random moves, up to 5 times; then the longest run,
// stopped 30 moves before its end, is taken (some games never last 1,000
// events: the benchmark reports how long its games were). The service's cache knows nothing of
// these events: its next command folds the game from the log.
func (m *mirror) fastForward(tb testing.TB, svc *play.Service, pool *pgxpool.Pool, target int) {
	tb.Helper()
	ctx := context.Background()
	type step struct {
		seat games.Seat
		move string
	}
	reset := func() {
		tbl, err := svc.Load(ctx, m.id)
		if err != nil {
			tb.Fatal(err)
		}
		m.state, m.version = tbl.State, tbl.Version
	}
	from := m.version
	var best []step
	for range 5 {
		reset()
		var steps []step
		finished := false
		for m.version < target {
			seat, move, ok := m.next()
			if !ok {
				break
			}
			m.play(tb, seat, move)
			steps = append(steps, step{seat, move})
			if m.eng.Result(m.state).Finished {
				// Stop well before the end, so that the benchmark has moves
				// left to make in the game.
				finished = true
				steps = steps[:max(0, len(steps)-30)]
				break
			}
		}
		if len(steps) > len(best) {
			best = steps
		}
		if !finished {
			break
		}
	}
	reset()
	var batch []events.Event
	for _, st := range best {
		batch = append(batch, m.play(tb, st.seat, st.move)...)
	}
	if len(batch) == 0 {
		return
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := events.Append(ctx, tx, play.Stream(m.id), from, batch)
		return err
	}); err != nil {
		tb.Fatal(err)
	}
}

// benchService is a service on a fresh database whose pool holds up to
// maxConns connections (pgxpool's default is the number of CPUs).
func benchService(tb testing.TB, maxConns int32) (*play.Service, *pgxpool.Pool) {
	tb.Helper()
	db := pgtest.Open(tb)
	// The scratch table of BenchmarkMoveParallel's ceiling, made by the
	// owner: the service role creates nothing.
	if _, err := db.Owner.Exec(context.Background(), `create table scratch_events (
		position bigint generated always as identity primary key, stream text not null, version int not null,
		type text not null, data jsonb not null, meta jsonb not null default '{}',
		tx xid8 not null default pg_current_xact_id(), recorded_at timestamptz not null default now(),
		hash bytea, unique (stream, version));
		grant select, insert on scratch_events to courrier_service`); err != nil {
		tb.Fatal(err)
	}
	cfg, err := events.PoolConfig(db.ServiceURL)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.MaxConns = maxConns
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeedBox(benchSeeds)), pool
}

// benchSeeds seals the benchmarks' seeds; the mirrors open them to decide
// as the service does.
var benchSeeds = play.NewEphemeralSeedBox()

// BenchmarkMove measures one player's move through the whole command path,
// for each game at its largest table, at mid-game and after about 1,000
// events: the cost must not grow with the length of the game (the command
// reads only the events after its cached table). Each iteration is one
// random legal move by a pending seat, over eight games in turn.
func BenchmarkMove(b *testing.B) {
	kinds := []struct {
		kind  string
		seats int
	}{{"coup", 6}, {"kramercoup", 6}, {"coupage", 4}, {"couillon", 4}, {"coyote", 6}}
	for _, k := range kinds {
		for _, at := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/%d", k.kind, at), func(b *testing.B) {
				svc, pool := benchService(b, 4)
				ctx := context.Background()
				var salt uint64
				fresh := func() *mirror {
					for {
						salt++
						m := newMirror(b, svc, pool, k.kind, k.seats, salt)
						m.fastForward(b, svc, pool, at)
						// One move to fold it into the cache, as a warm service has.
						seat, move, ok := m.next()
						if !ok {
							continue
						}
						if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{move}); err != nil {
							b.Fatal(err)
						}
						m.play(b, seat, move)
						if _, _, ok := m.next(); ok {
							return m
						}
					}
				}
				tables := make([]*mirror, 8)
				versions := 0
				for i := range tables {
					tables[i] = fresh()
					versions += tables[i].version
				}
				b.ResetTimer()
				for i := range b.N {
					m := tables[i%len(tables)]
					seat, move, ok := m.next()
					if !ok {
						b.StopTimer()
						tables[i%len(tables)] = fresh()
						m = tables[i%len(tables)]
						seat, move, _ = m.next()
						b.StartTimer()
					}
					if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{move}); err != nil {
						b.Fatalf("%s at %d: %q: %v", m.id, m.version, move, err)
					}
					m.play(b, seat, move)
				}
				b.ReportMetric(float64(versions)/float64(len(tables)), "events/game")
			})
		}
	}
}

// BenchmarkMoveParallel measures moves from 16 clients over 1,000 Coyote
// games against the ceiling of the same database: one-row transactions into
// a scratch table shaped like events (version from a subquery), from 16
// clients, in the same benchmark. It reports both rates and their ratio
// (goal ≥ 0.5), and the size of the log per event. COURRIER_BENCH_GAMES overrides the number of games.
func BenchmarkMoveParallel(b *testing.B) {
	const clients = 16
	ngames := 1000
	if v, err := strconv.Atoi(os.Getenv("COURRIER_BENCH_GAMES")); err == nil && v >= clients {
		ngames = v
	}
	ctx := context.Background()
	svc, pool := benchService(b, clients+4)
	mirrors := make([]*mirror, ngames)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range clients {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < ngames; i = int(next.Add(1)) - 1 {
				mirrors[i] = newMirror(b, svc, pool, "coyote", 3+i%4, uint64(i)+1) //nolint:gosec // G115: i is an index, never negative
			}
		})
	}
	wg.Wait()

	// The ceiling: plain one-row inserts, 16 clients, b.N rows.
	b.ResetTimer()
	start := time.Now()
	var done atomic.Int64
	for c := range clients {
		wg.Go(func() {
			stream := fmt.Sprintf("scratch-%d", c)
			for done.Add(1) <= int64(b.N) {
				if _, err := pool.Exec(ctx, `insert into scratch_events (stream, version, type, data, meta)
					select $1, coalesce(max(version), 0) + 1, 'coyote.bid', '{"type":"bid","seat":1,"bid":14}', '{"seat":1,"channel":"api"}'
					from scratch_events where stream = $1`, stream); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	inserts := float64(b.N) / time.Since(start).Seconds()

	// The moves: 16 clients, each over its own share of the games.
	start = time.Now()
	done.Store(0)
	for c := range clients {
		wg.Go(func() {
			mine := []*mirror{}
			for i := c; i < ngames; i += clients {
				mine = append(mine, mirrors[i])
			}
			for k := 0; done.Add(1) <= int64(b.N); k++ {
				m := mine[k%len(mine)]
				seat, move, ok := m.next()
				if !ok {
					continue
				}
				if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{move}); err != nil {
					b.Errorf("%s: %q: %v", m.id, move, err)
					return
				}
				m.play(b, seat, move)
			}
		})
	}
	wg.Wait()
	moves := float64(b.N) / time.Since(start).Seconds()
	b.ReportMetric(moves, "moves/s")
	b.ReportMetric(inserts, "inserts/s")
	b.ReportMetric(moves/inserts, "moves/insert")
	// The size of the log written by interleaved moves (one to a few events
	// per transaction, many games at once), beside BenchmarkRebuild's
	// fast-forwarded games.
	var count int
	var size int64
	if err := pool.QueryRow(ctx, `select count(*), pg_total_relation_size('event_log') + pg_total_relation_size('streams') from event_log`).Scan(&count, &size); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size)/float64(count), "bytes/event")
}

// BenchmarkRebuild measures `projections rebuild` over a log of at least
// 100,000 events (COURRIER_BENCH_REBUILD_EVENTS overrides it), in events per
// second, and reports the size of the event log with its indexes per event
// (event_log and the streams table that keys it).
func BenchmarkRebuild(b *testing.B) {
	want := 100_000
	if v, err := strconv.Atoi(os.Getenv("COURRIER_BENCH_REBUILD_EVENTS")); err == nil && v > 0 {
		want = v
	}
	ctx := context.Background()
	svc, pool := benchService(b, 4)
	total := 0
	for salt := uint64(1); total < want; salt++ {
		m := newMirror(b, svc, pool, "coyote", 6, salt)
		m.fastForward(b, svc, pool, 600)
		total += m.version
	}
	var count int
	var bytes int64
	if err := pool.QueryRow(ctx, `select count(*), pg_total_relation_size('event_log') + pg_total_relation_size('streams') from event_log`).Scan(&count, &bytes); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := play.NewUpkeep(pool, svc.Registry(), nil).RebuildProjections(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(bytes)/float64(count), "bytes/event")
	b.ReportMetric(float64(count), "events")
}

// BenchmarkFold5000 measures reading a 5,000-event stream from PostgreSQL
// and folding it into a table (the pending entries and their identities
// included): what a command pays for a game missing from its cache. No
// game of the five lasts that long, so the stream is a synthetic game of
// the test game pile.
func BenchmarkFold5000(b *testing.B) {
	ctx := context.Background()
	svc, pool := newServiceB(b)
	out, err := svc.Create(ctx, ana, "pile", nil, "Ana")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Join(ctx, bob, out.GameID, "Bob"); err != nil {
		b.Fatal(err)
	}
	// A synthetic long game: seat, a pile of 10,000 stones, then single takes.
	evs := []events.Event{{Type: play.TypeStarted, Data: json.RawMessage(`{}`)},
		{Type: "pile.seated", Data: json.RawMessage(`{"type":"seated","players":["Ana","Bob"],"seat":0}`)},
		{Type: "pile.dealt", Data: json.RawMessage(`{"type":"dealt","stones":10000,"secrets":[1,2],"seat":0}`)}}
	for len(evs) < 5000-3 { // created, joined, joined come first
		evs = append(evs, events.Event{Type: "pile.took", Data: json.RawMessage(`{"type":"took","seat":0,"take":1}`)})
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := events.Append(ctx, tx, play.Stream(out.GameID), 3, evs)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		tbl, err := svc.Load(ctx, out.GameID)
		if err != nil {
			b.Fatal(err)
		}
		if tbl.Version != 5000 {
			b.Fatalf("folded %d events, want 5000", tbl.Version)
		}
	}
}

// BenchmarkMoveAfterTakeBack measures a move through the whole command path
// in a Coyote game of six, at about 1,000 events, whose history holds a
// take-back (a bid asked back and agreed by the five others): the table the
// cache keeps was re-folded to the version before the bid, and the moves
// after it cost what any move costs (compare BenchmarkMove/coyote/1000).
func BenchmarkMoveAfterTakeBack(b *testing.B) {
	svc, pool := benchService(b, 4)
	ctx := context.Background()
	var salt uint64
	fresh := func() *mirror {
		for {
			salt++
			m := newMirror(b, svc, pool, "coyote", 6, salt)
			m.fastForward(b, svc, pool, 1000)
			pend := m.eng.Pending(m.state)
			if len(pend) == 0 {
				continue
			}
			seat, bid := pend[0].Seat, ""
			for _, mv := range m.eng.Legal(m.state, seat) {
				if len(mv) > 4 && mv[:4] == "bid " {
					bid = mv
					break
				}
			}
			if bid == "" {
				continue
			}
			if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{bid}); err != nil {
				b.Fatal(err)
			}
			asked, err := svc.RequestTakeBack(ctx, m.seats[seat], m.id, play.AnyVersion)
			if err != nil {
				b.Fatal(err)
			}
			var waiting []games.Seat // the seats still in play
			if asked.TakeBack != nil {
				waiting = asked.TakeBack.Waiting
			}
			for _, s := range waiting {
				if _, err := svc.AnswerTakeBack(ctx, m.seats[s], m.id, 0, true); err != nil {
					b.Fatal(err)
				}
			}
			tbl, err := svc.Load(ctx, m.id)
			if err != nil {
				b.Fatal(err)
			}
			m.state, m.version = tbl.State, tbl.Version
			if _, _, ok := m.next(); ok {
				return m
			}
		}
	}
	tables := make([]*mirror, 4)
	for i := range tables {
		tables[i] = fresh()
	}
	b.ResetTimer()
	for i := range b.N {
		m := tables[i%len(tables)]
		seat, move, ok := m.next()
		if !ok {
			b.StopTimer()
			tables[i%len(tables)] = fresh()
			m = tables[i%len(tables)]
			seat, move, _ = m.next()
			b.StartTimer()
		}
		if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{move}); err != nil {
			b.Fatalf("%s at %d: %q: %v", m.id, m.version, move, err)
		}
		m.play(b, seat, move)
	}
}

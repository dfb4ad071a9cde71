package play_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
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
	"github.com/courrier-games/courrier/play/archive"
)

// startGame creates a game of kind for n players (u-p0 … named P0 …),
// starts it and returns its id, the table and the actor of each seat.
func startGame(t *testing.T, svc *play.Service, kind string, n int) (string, *play.Table, map[games.Seat]play.Actor) {
	t.Helper()
	ctx := context.Background()
	people := make([]play.Actor, n)
	for i := range people {
		people[i] = play.Actor{User: fmt.Sprintf("u-p%d", i), Channel: play.ChannelAPI}
	}
	out, err := svc.Create(ctx, people[0], kind, nil, "P0")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < n; i++ {
		if _, err := svc.Join(ctx, people[i], out.GameID, fmt.Sprintf("P%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, people[0], out.GameID); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		t.Fatal(err)
	}
	bySeat := map[games.Seat]play.Actor{}
	for _, a := range people {
		bySeat[tbl.SeatOf(a.User)] = a
	}
	return out.GameID, tbl, bySeat
}

func catalogService(t *testing.T) (*play.Service, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.New(t)
	return play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeedBox(testSeeds), play.WithAccounts(testAccounts{})), pool
}

// testSeeds seals the seeds of the test services, so that archiveOf's
// archive opens them (a referee's or the operator's audit of a running
// game).
var testSeeds = play.NewEphemeralSeedBox()

// archiveOf is the archive beside svc on pool.
func archiveOf(svc *play.Service, pool *pgxpool.Pool) *play.Archive {
	return play.NewArchive(pool, svc.Registry(), testSeeds)
}

// In a four-player Coup challenge window, all three answers sent against
// the window's opening version are taken in turn: each seat's own entry did
// not change when another seat allowed.
func TestWindowAnswersAgainstTheOpeningVersionAreAllTaken(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 4)
	actor := tbl.Pending[0].Seat
	if _, err := svc.Move(ctx, bySeat[actor], id, tbl.Version, []string{"tax"}); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Load(ctx, id)
	opened := tbl.Version
	if len(tbl.Pending) != 3 {
		t.Fatalf("after a tax claim, pending %+v, want three challenge entries", tbl.Pending)
	}
	for _, p := range tbl.Pending {
		if p.Since != opened || p.Seat == actor {
			t.Fatalf("entry %+v: want it opened at %d for a seat other than %d", p, opened, actor)
		}
	}
	answered := 0
	for _, p := range tbl.Pending {
		out, err := svc.Move(ctx, bySeat[p.Seat], id, opened, []string{"allow"})
		if err != nil {
			t.Fatalf("answer %d of seat %d against version %d: %v", answered+1, p.Seat, opened, err)
		}
		if out.From < opened {
			t.Fatalf("outcome %+v", out)
		}
		answered++
	}
	after, _ := svc.Load(ctx, id)
	if len(after.Pending) != 1 || after.Pending[0].Seat == actor || after.Pending[0].Kind == "challenge" {
		t.Fatalf("after three allows the window should be closed and the next turn open: %+v", after.Pending)
	}
	// An answer against the old version now is stale: the seat's entry is a
	// new one (or gone).
	late := after.Pending[0].Seat
	var stale *play.StaleError
	if _, err := svc.Move(ctx, bySeat[late], id, opened, []string{"income"}); !errors.As(err, &stale) {
		t.Fatalf("a move against the window's version after it closed: %v, want stale", err)
	}
}

// Answers sent at the same moment against the window's version race on the
// append; the losers reload and are taken, not refused as stale.
func TestConcurrentWindowAnswersAreAllTaken(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 5)
	if _, err := svc.Move(ctx, bySeat[tbl.Pending[0].Seat], id, tbl.Version, []string{"tax"}); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Load(ctx, id)
	var wg sync.WaitGroup
	errs := make([]error, len(tbl.Pending))
	for i, p := range tbl.Pending {
		wg.Go(func() { _, errs[i] = svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{"allow"}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("answer %d: %v", i, err)
		}
	}
}

// A timeout names one entry and applies its default as the state has it
// when it fires; another entry of the window keeps its identity.
func TestTimeoutIsPerEntryAndRederivesItsDefault(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 4)
	if _, err := svc.Move(ctx, bySeat[tbl.Pending[0].Seat], id, tbl.Version, []string{"tax"}); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Load(ctx, id)
	first, second := tbl.Pending[0], tbl.Pending[1]
	out, err := svc.Timeout(ctx, id, first.ID(), "timer-a")
	if err != nil || out.Version == out.From {
		t.Fatalf("timeout of %s: %+v, %v", first.ID(), out, err)
	}
	after, _ := svc.Load(ctx, id)
	var kept bool
	for _, p := range after.Pending {
		if p.Seat == first.Seat {
			t.Fatalf("seat %d is still pending after its timeout: %+v", first.Seat, after.Pending)
		}
		if p.ID() == second.ID() {
			kept = true
		}
	}
	if !kept {
		t.Fatalf("seat %d's entry %s lost its identity when seat %d timed out: %+v", second.Seat, second.ID(), first.Seat, after.Pending)
	}
	// The same timer again: the entry is gone, nothing happens.
	if again, err := svc.Timeout(ctx, id, first.ID(), "timer-a"); err != nil || again.Version != again.From {
		t.Fatalf("a second firing: %+v, %v", again, err)
	}
	// An entry that never existed: nothing happens.
	ghost := games.PendingID{Seat: second.Seat, Kind: second.Kind, Since: second.Since - 1}
	if again, err := svc.Timeout(ctx, id, ghost, "timer-b"); err != nil || again.Version != again.From {
		t.Fatalf("a timer of an entry that is not pending: %+v, %v", again, err)
	}
	// The timeout decided with the state it found: its event's meta says
	// which seat and that it was the system.
	recorded, _ := events.ReadStream(ctx, pool, play.Stream(id), tbl.Version)
	if len(recorded) == 0 || !strings.Contains(string(recorded[0].Meta), `"channel": "system"`) || !strings.Contains(string(recorded[0].Meta), "timer-a") {
		t.Fatalf("timeout event meta %s", recorded[0].Meta)
	}
}

// Two services (two processes) on one database alternate moves on one game:
// each one's cached table goes stale at every move of the other, and
// neither ever decides on a stale state.
func TestTwoServicesAlternateOnOneGame(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	box := play.NewEphemeralSeedBox() // both processes hold the seed keys
	a := play.New(pool, catalog.Registry(), play.WithSeedBox(box))
	b := play.New(pool, catalog.Registry(), play.WithSeedBox(box))
	id, tbl, bySeat := startGame(t, a, "coyote", 3)
	svcs := []*play.Service{a, b}
	for i := 0; i < 60 && !tbl.Ended; i++ {
		p := tbl.Pending[0]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		move := legal[len(legal)/2]
		if i%5 == 4 {
			move = legal[0]
		}
		out, err := svcs[i%2].Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{move})
		if err != nil {
			t.Fatalf("move %d (%q by seat %d at %d) through service %d: %v", i, move, p.Seat, tbl.Version, i%2, err)
		}
		if out.From != tbl.Version {
			t.Fatalf("service %d decided from version %d, the game was at %d", i%2, out.From, tbl.Version)
		}
		if tbl, err = a.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
		// Every seat's served view and lists are the engine's now, whichever
		// process wrote which row last.
		for seat, actor := range bySeat {
			v, err := a.ViewFor(ctx, id, actor.User)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := tbl.Engine.View(tbl.State, seat)
			if !jsonEqualRaw(v.View, want) || (!tbl.Ended && !slices.Equal(v.Legal, tbl.Engine.Legal(tbl.State, seat))) {
				t.Fatalf("after move %d, seat %d is served %s %q; the log says %s %q", i, seat, v.View, v.Legal, want, tbl.Engine.Legal(tbl.State, seat))
			}
		}
	}
	if a.CachedGames() == 0 || b.CachedGames() == 0 {
		t.Fatalf("the caches were not used: %d and %d games", a.CachedGames(), b.CachedGames())
	}
	n, err := events.VerifyStream(ctx, pool, play.Stream(id))
	if err != nil || n != tbl.Version {
		t.Fatalf("verify: %d, %v", n, err)
	}
}

// The cache keeps at most its bound; with the cache off, the same game plays
// the same.
func TestCacheBoundAndCacheOff(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	on := play.New(pool, catalog.Registry(), play.WithCache(2), play.WithSeeds(fixedSeed))
	off := play.New(pool, catalog.Registry(), play.WithCache(0), play.WithSeeds(fixedSeed))
	var finals []string
	for _, svc := range []*play.Service{on, off} {
		var ids []string
		for range 4 {
			id, _, _ := startGame(t, svc, "coyote", 4)
			ids = append(ids, id)
		}
		if got := svc.CachedGames(); got > 2 {
			t.Fatalf("%d games cached, bound 2", got)
		}
		// The same moves on the last game.
		id := ids[len(ids)-1]
		tbl, _ := svc.Load(ctx, id)
		bySeat := map[games.Seat]play.Actor{}
		for i := range 4 {
			u := play.Actor{User: fmt.Sprintf("u-p%d", i), Channel: play.ChannelAPI}
			bySeat[tbl.SeatOf(u.User)] = u
		}
		for range 20 {
			if tbl.Ended {
				break
			}
			p := tbl.Pending[0]
			legal := tbl.Engine.Legal(tbl.State, p.Seat)
			if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[len(legal)-1]}); err != nil {
				t.Fatal(err)
			}
			tbl, _ = svc.Load(ctx, id)
		}
		v, err := svc.ViewFor(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		finals = append(finals, fmt.Sprintf("%d %s", tbl.Version, v.View))
	}
	if off.CachedGames() != 0 {
		t.Fatalf("the cache is off but holds %d games", off.CachedGames())
	}
	if finals[0] != finals[1] {
		t.Fatalf("with and without the cache the same moves differ:\n%s\n%s", finals[0], finals[1])
	}
}

func fixedSeed() games.Seed { return games.Seed{7} }

// Eight concurrent Creates with one idempotency key all return the first
// result: one game, no raw database error.
func TestConcurrentIdempotentCreatesReturnOneResult(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	actor := play.Actor{User: "u-key", Channel: play.ChannelAPI, IdempotencyKey: "create-1"}
	for round := range 3 {
		actor.IdempotencyKey = fmt.Sprintf("create-%d", round)
		outs := make([]play.Outcome, 8)
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range outs {
			wg.Go(func() { outs[i], errs[i] = svc.Create(ctx, actor, "coyote", nil, "Kim") })
		}
		wg.Wait()
		replays := 0
		for i := range outs {
			if errs[i] != nil {
				t.Fatalf("round %d create %d: %v", round, i, errs[i])
			}
			if outs[i].GameID != outs[0].GameID {
				t.Fatalf("round %d: two games made with one key: %s and %s", round, outs[0].GameID, outs[i].GameID)
			}
			if outs[i].Replay {
				replays++
			}
		}
		if replays != 7 {
			t.Fatalf("round %d: %d replays, want 7", round, replays)
		}
	}
	var games int
	if err := pool.QueryRow(ctx, `select count(*) from games`).Scan(&games); err != nil || games != 3 {
		t.Fatalf("%d games, %v; want 3", games, err)
	}
	// The same key for another command is refused in words, and writes nothing.
	actor.IdempotencyKey = "create-0"
	var pe *play.Error
	if _, err := svc.Create(ctx, actor, "coup", nil, "Kim"); !errors.As(err, &pe) || pe.Code != play.CodeConflict || !strings.Contains(pe.Error(), "another command") {
		t.Fatalf("the key of a coyote game reused for a coup game: %v", err)
	}
}

// Nothing personal enters the hashed log: events hold opaque ids; the
// remote address and mail headers go to event_context.
func TestNoAddressInTheLog(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	ana := play.Actor{User: "u-ana", Channel: play.ChannelEmail, RemoteAddr: "192.0.2.7",
		MessageID: "<m1@mail.example.org>", Sender: "ana@example.org", MailAuth: "dkim=pass header.d=example.org"}
	out, err := svc.Create(ctx, ana, "coyote", nil, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(ctx, `select count(*) from events where data::text like '%@%' or meta::text like '%@%' or meta::text like '%192.0.2.7%'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d events hold an address, %v", n, err)
	}
	var sender, remote string
	err = pool.QueryRow(ctx, `select c.sender, c.remote_addr from event_context c join events e using (position)
		where e.stream = $1 and e.version = 1`, play.Stream(out.GameID)).Scan(&sender, &remote)
	if err != nil || sender != "ana@example.org" || remote != "192.0.2.7" {
		t.Fatalf("event_context: %q %q, %v", sender, remote, err)
	}
}

// countingTracer counts the round trips of a connection: queries and
// batches.
type countingTracer struct{ n atomic.Int64 }

func (c *countingTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *countingTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *countingTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *countingTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *countingTracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// A move costs BEGIN, one read batch and one write batch, then COMMIT: four
// round trips, of which three before COMMIT.
func TestAMoveTakesThreeRoundTripsBeforeCommit(t *testing.T) {
	ctx := context.Background()
	_, url := pgtest.NewWithURL(t)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	tracer := &countingTracer{}
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	svc := play.New(pool, catalog.Registry())
	id, tbl, bySeat := startGame(t, svc, "coyote", 6)
	for i := range 6 {
		p := tbl.Pending[0]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		before := tracer.n.Load()
		if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[1]}); err != nil {
			t.Fatal(err)
		}
		// pgx sends BEGIN and COMMIT as queries: 2 + the two batches.
		if got := tracer.n.Load() - before; got > 4 {
			t.Fatalf("move %d took %d round trips, want at most 4 (BEGIN, read, write, COMMIT)", i, got)
		}
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
}

// Seeds are sealed at rest: the game_secrets table holds no seed in clear,
// a service without the key cannot open it, and a seed stored in clear by an
// older version is sealed at start.
func TestSeedsAreSealedAtRest(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Open(t)
	seed := games.Seed{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	box := play.NewEphemeralSeedBox()
	svc := play.New(db.Service, catalog.Registry(), play.WithSeeds(func() games.Seed { return seed }), play.WithSeedBox(box))
	id, _, bySeat := startGame(t, svc, "coyote", 3)
	var inClear, sealed []byte
	var kid string
	if err := db.Service.QueryRow(ctx, `select seed, sealed, key_id from game_secrets where game_id = $1`, id).Scan(&inClear, &sealed, &kid); err != nil {
		t.Fatal(err)
	}
	if inClear != nil || len(sealed) == 0 || kid == "" {
		t.Fatalf("game_secrets row: seed %x, sealed %x, key %q", inClear, sealed, kid)
	}
	if bytes.Contains(sealed, seed[:10]) || strings.Contains(string(sealed), seed.String()[:16]) {
		t.Fatalf("the sealed seed contains the seed: %x", sealed)
	}
	// Another service without the key cannot decide a draw of this game.
	stranger := play.New(db.Service, catalog.Registry())
	tbl, _ := stranger.Load(ctx, id)
	legal := tbl.Engine.Legal(tbl.State, tbl.Pending[0].Seat)
	if _, err := stranger.Move(ctx, bySeat[tbl.Pending[0].Seat], id, tbl.Version, []string{legal[0]}); !errors.Is(err, play.ErrSeedKey) {
		t.Fatalf("a move through a service without the seed key: %v, want ErrSeedKey", err)
	}
	// A seed in clear from before sealing is sealed at the next start.
	if _, err := db.Owner.Exec(ctx, `update game_secrets set seed = $2, sealed = null, key_id = null where game_id = $1`, id, seed[:]); err != nil {
		t.Fatal(err)
	}
	n, err := play.NewUpkeep(db.Service, catalog.Registry(), box).SealClearSeeds(ctx)
	if err != nil || n != 1 {
		t.Fatalf("sealed %d clear seeds, %v; want 1", n, err)
	}
	var left int
	if err := db.Service.QueryRow(ctx, `select count(*) from game_secrets where seed is not null`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d seeds left in clear, %v", left, err)
	}
	if _, err := svc.Move(ctx, bySeat[tbl.Pending[0].Seat], id, tbl.Version, []string{legal[0]}); err != nil {
		t.Fatalf("a move after sealing: %v", err)
	}
}

// A command's outcome carries the player's receipt: the hash the store
// chained, sealed under the key derived from the game's seed, never the raw
// hash (which a player could test candidate hidden cards against).
func TestOutcomeCarriesTheSealedHead(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	seed := games.Seed{7, 7, 7}
	svc := play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeeds(func() games.Seed { return seed }), play.WithSeedBox(testSeeds))
	id, tbl, bySeat := startGame(t, svc, "coyote", 3)
	p := tbl.Pending[0]
	legal := tbl.Engine.Legal(tbl.State, p.Seat)
	out, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[0]})
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	if err := pool.QueryRow(ctx, `select hash from events where stream = $1 and version = $2`,
		play.Stream(id), out.Version).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if out.Head == hex.EncodeToString(raw) {
		t.Fatalf("the outcome serves the log's raw hash %s", out.Head)
	}
	if want := archive.ReceiptHead(seed, id, raw); out.Head != want {
		t.Fatalf("outcome head %q, want the sealed head %q", out.Head, want)
	}
	if err := archiveOf(svc, pool).CheckReceipt(ctx, archive.Receipt{Game: id, Version: out.Version, Hash: out.Head}); err != nil {
		t.Fatalf("the operator's check of a true receipt: %v", err)
	}
	if err := archiveOf(svc, pool).CheckReceipt(ctx, archive.Receipt{Game: id, Version: out.Version - 1, Hash: out.Head}); err == nil {
		t.Fatal("a receipt checks at another version")
	}
	other := archive.ReceiptHead(games.Seed{8}, id, raw)
	if other == out.Head || archive.ReceiptHead(seed, id+"x", raw) == out.Head {
		t.Fatal("the sealed head does not depend on the seed and the game")
	}
}

// An idempotency key is forgotten after its time: the same key then starts
// a new command.
func TestIdempotencyKeysExpire(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := play.New(pool, catalog.Registry(), play.WithKeyTTL(time.Millisecond), play.WithLogger(quietLog()))
	actor := play.Actor{User: "u-ttl", Channel: play.ChannelAPI, IdempotencyKey: "k"}
	first, err := svc.Create(ctx, actor, "coyote", nil, "Kim")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	second, err := svc.Create(ctx, actor, "coyote", nil, "Kim")
	if err != nil || second.Replay || second.GameID == first.GameID {
		t.Fatalf("after the key expired: %+v, %v; want a new game", second, err)
	}
}

// A rebuild works one game per transaction with version guards: moves go on
// while it runs (here, between two of its games, on a game it has already
// rebuilt, which a single long transaction would hold locked), and what it
// leaves equals the log.
func TestRebuildRunsBesideMoves(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	var ids []string
	tables := map[string]*play.Table{}
	seats := map[string]map[games.Seat]play.Actor{}
	for range 4 {
		id, tbl, bySeat := startGame(t, svc, "coyote", 3)
		ids = append(ids, id)
		tables[id], seats[id] = tbl, bySeat
	}
	moved := 0
	n, err := play.NewUpkeep(pool, catalog.Registry(), nil).RebuildProjections(ctx, func(done, total int) {
		if done == total {
			return
		}
		// A game the rebuild has done: with one transaction for the whole
		// rebuild its rows would be locked until the end.
		moveCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		for _, id := range ids {
			tbl := tables[id]
			p := tbl.Pending[0]
			legal := tbl.Engine.Legal(tbl.State, p.Seat)
			if _, err := svc.Move(moveCtx, seats[id][p.Seat], id, tbl.Version, []string{legal[len(legal)/2]}); err != nil {
				t.Errorf("a move during the rebuild (after %d of %d games): %v", done, total, err)
				return
			}
			moved++
			tables[id], _ = svc.Load(ctx, id)
		}
	})
	if err != nil || n != len(ids) {
		t.Fatalf("rebuild: %d games, %v", n, err)
	}
	if moved != 3*len(ids) {
		t.Fatalf("%d moves made during the rebuild, want %d", moved, 3*len(ids))
	}
	for _, id := range ids {
		v, err := svc.ViewFor(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := tables[id].Engine.View(tables[id].State, games.Spectator)
		if v.Version != tables[id].Version || !jsonEqualRaw(v.View, want) {
			t.Fatalf("game %s after the rebuild: version %d view %s, the log says %d %s", id, v.Version, v.View, tables[id].Version, want)
		}
	}
}

func jsonEqualRaw(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && jsonEqual(x, y)
}

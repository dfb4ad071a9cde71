package play_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

var (
	ana = play.Actor{User: "u-ana", Channel: play.ChannelAPI}
	bob = play.Actor{User: "u-bob", Channel: play.ChannelEmail}
	eve = play.Actor{User: "u-eve", Channel: play.ChannelAPI}
)

func newService(t *testing.T, extra ...games.Engine) (*play.Service, *pgxpool.Pool) {
	t.Helper()
	return newServiceB(t, extra...)
}

func newServiceB(t testing.TB, extra ...games.Engine) (*play.Service, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.New(t)
	reg := games.NewRegistry(append([]games.Engine{games.Adapt(pile{})}, extra...)...)
	return play.New(pool, reg, play.WithLogger(quietLog()), play.WithSeedBox(testSeeds), play.WithAccounts(testAccounts{})), pool
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// startPile creates a pile game with Ana and Bob and starts it.
func startPile(t *testing.T, svc *play.Service) (string, *play.Table) {
	t.Helper()
	ctx := context.Background()
	out, err := svc.Create(ctx, ana, "pile", nil, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, bob, out.GameID, "Bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Start(ctx, ana, out.GameID); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		t.Fatal(err)
	}
	return out.GameID, tbl
}

func actorOf(tbl *play.Table, seat games.Seat) play.Actor {
	if tbl.SeatOf(ana.User) == seat {
		return ana
	}
	return bob
}

func pending(t *testing.T, tbl *play.Table) games.Pending {
	t.Helper()
	p := tbl.Engine.Pending(tbl.State)
	if len(p) != 1 {
		t.Fatalf("pending = %v", p)
	}
	return p[0]
}

func TestWholeGameThroughPlay(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	id, tbl := startPile(t, svc)
	for range 100 {
		if tbl.Ended {
			break
		}
		p := pending(t, tbl)
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		out, err := svc.Move(ctx, actorOf(tbl, p.Seat), id, tbl.Version, []string{legal[len(legal)-1]})
		if err != nil {
			t.Fatal(err)
		}
		if out.From != tbl.Version || out.Version <= out.From {
			t.Fatalf("outcome %+v from version %d", out, tbl.Version)
		}
		if tbl, err = svc.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if !tbl.Ended {
		t.Fatal("the game did not end")
	}
	g, err := projections.GetGame(ctx, pool, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != projections.StatusFinished || g.Result == nil || len(g.Result.Winners) != 1 || g.Version != tbl.Version {
		t.Fatalf("games row = %+v", g)
	}

	// The seed is revealed at the end, matches the commitment, and re-runs the
	// setup's shuffle exactly.
	recorded, err := events.ReadStream(ctx, pool, play.Stream(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	last := recorded[len(recorded)-1]
	if last.Type != play.TypeEnded {
		t.Fatalf("last event %s, want %s", last.Type, play.TypeEnded)
	}
	var ended play.Ended
	_ = json.Unmarshal(last.Data, &ended)
	seed, err := games.ParseSeed(ended.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(seed[:])
	if hex.EncodeToString(sum[:]) != tbl.Commitment {
		t.Fatalf("revealed seed does not match the commitment %s", tbl.Commitment)
	}
	started := -1
	var names []string
	for i, e := range recorded {
		if e.Type == play.TypeJoined {
			var j play.Joined
			_ = json.Unmarshal(e.Data, &j)
			names = append(names, j.Name)
		}
		if e.Type == play.TypeStarted {
			started = i
		}
	}
	again, err := tbl.Engine.Setup(tbl.Options, names, seed.Rand(recorded[started].Version))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range again {
		var a, b any
		_ = json.Unmarshal(e.Data, &a)
		_ = json.Unmarshal(recorded[started+1+i].Data, &b)
		if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
			t.Fatalf("re-run of setup event %d = %s, recorded %s", i, ja, jb)
		}
	}
	if n, err := events.VerifyStream(ctx, pool, play.Stream(id)); err != nil || n != len(recorded) {
		t.Fatalf("verify: %d, %v", n, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestIllegalMoveNamesTheRuleAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	p := pending(t, tbl)
	other := actorOf(tbl, 1-p.Seat)
	tests := []struct {
		name  string
		actor play.Actor
		moves []string
		rule  string
	}{
		{"not your turn", other, []string{"take 1"}, "P-1"},
		{"too many", actorOf(tbl, p.Seat), []string{"take 4"}, "P-2"},
		{"garbage", actorOf(tbl, p.Seat), []string{"hello"}, games.NotationRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Move(ctx, tt.actor, id, tbl.Version, tt.moves)
			re, ok := games.AsRuleError(err)
			if !ok || re.Rule != tt.rule {
				t.Fatalf("err = %v, want rule %s", err, tt.rule)
			}
			after, _ := svc.Load(ctx, id)
			if after.Version != tbl.Version {
				t.Fatalf("an illegal move wrote events: version %d → %d", tbl.Version, after.Version)
			}
		})
	}
	_, err := svc.Move(ctx, eve, id, tbl.Version, []string{"take 1"})
	var pe *play.Error
	if !errors.As(err, &pe) || pe.Code != play.CodeForbidden {
		t.Fatalf("a stranger's move: %v, want forbidden", err)
	}
}

func TestStaleMoveSaysTheGameMovedOn(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	p := pending(t, tbl)
	mover := actorOf(tbl, p.Seat)
	if _, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"}); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Move(ctx, actorOf(tbl, 1-p.Seat), id, tbl.Version, []string{"take 1"})
	var stale *play.StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("err = %v, want a stale error", err)
	}
	if stale.Expected != tbl.Version || stale.Current != tbl.Version+1 || len(stale.Changes) != 1 || !strings.Contains(stale.Error(), "moved on") {
		t.Fatalf("stale = %+v", stale)
	}
	after, _ := svc.Load(ctx, id)
	if after.Version != tbl.Version+1 {
		t.Fatalf("the stale move wrote something: version %d", after.Version)
	}
	// The mover sending again against the old version: not "moved on" (a
	// new prompt will not come), but whose turn it is.
	_, err = svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"})
	if !errors.As(err, &stale) || stale.YourTurn || strings.Contains(stale.Error(), "moved on") ||
		!strings.Contains(stale.Error(), "it is not your turn: the game waits for "+after.Engine.Players(after.State)[1-p.Seat]) {
		t.Fatalf("a move out of turn against an old version: %v", err)
	}
}

// Two players' moves against one version race: exactly one is applied.
func TestConcurrentMovesOneWins(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	mover := actorOf(tbl, pending(t, tbl).Seat)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() { _, errs[i] = svc.Move(ctx, mover, id, tbl.Version, []string{"take 1"}) })
	}
	wg.Wait()
	ok, stale := 0, 0
	for _, err := range errs {
		var se *play.StaleError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &se):
			stale++
		default:
			t.Errorf("unexpected %v", err)
		}
	}
	after, _ := svc.Load(ctx, id)
	if ok != 1 || stale != len(errs)-1 || after.Version != tbl.Version+1 {
		t.Fatalf("ok %d, stale %d, version %d → %d", ok, stale, tbl.Version, after.Version)
	}
}

func TestIdempotencyKeyReturnsTheFirstResult(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	mover := actorOf(tbl, pending(t, tbl).Seat)
	mover.IdempotencyKey = "req-42"
	first, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 2"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Move(ctx, mover, id, tbl.Version, []string{"take 2"})
	if err != nil {
		t.Fatalf("retry with the same key: %v", err)
	}
	if !again.Replay || again.Version != first.Version || first.Replay || first.Head == "" || again.Head != first.Head {
		t.Fatalf("first %+v, retry %+v", first, again)
	}
	after, _ := svc.Load(ctx, id)
	if after.Version != first.Version {
		t.Fatalf("the retry appended: version %d, want %d", after.Version, first.Version)
	}
}

func TestLobbyRefusals(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	out, err := svc.Create(ctx, ana, "pile", games.Options{"size": "large"}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	id := out.GameID
	tests := []struct {
		name string
		do   func() error
		code string
	}{
		{"start alone", func() error { _, err := svc.Start(ctx, ana, id); return err }, play.CodeConflict},
		{"same name", func() error { _, err := svc.Join(ctx, bob, id, "ana"); return err }, play.CodeConflict},
		{"numeric name", func() error { _, err := svc.Join(ctx, bob, id, "3"); return err }, play.CodeInvalid},
		{"join twice", func() error { _, err := svc.Join(ctx, ana, id, "Ann"); return err }, play.CodeConflict},
		{"move before start", func() error { _, err := svc.Move(ctx, ana, id, play.AnyVersion, []string{"take 1"}); return err }, play.CodeConflict},
		{"no such game", func() error { _, err := svc.Join(ctx, bob, "nope", "Bob"); return err }, play.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pe *play.Error
			if err := tt.do(); !errors.As(err, &pe) || pe.Code != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
		})
	}
	if _, err := svc.Join(ctx, bob, id, "Bob"); err != nil {
		t.Fatal(err)
	}
	var pe *play.Error
	if _, err := svc.Join(ctx, eve, id, "Eve"); !errors.As(err, &pe) || pe.Code != play.CodeConflict {
		t.Fatalf("third player in a two-player game: %v", err)
	}
	if _, err := svc.Start(ctx, bob, id); !errors.As(err, &pe) || pe.Code != play.CodeForbidden {
		t.Fatalf("start by a non-creator: %v", err)
	}
	if _, err := svc.Create(ctx, ana, "pile", games.Options{"size": "huge"}, "Ana"); !isRule(err, "options") {
		t.Fatalf("bad option: %v", err)
	}
	if _, err := svc.Create(ctx, ana, "chess", nil, "Ana"); !isCode(err, play.CodeInvalid) {
		t.Fatalf("unknown game: %v", err)
	}
}

func isRule(err error, rule string) bool {
	re, ok := games.AsRuleError(err)
	return ok && re.Rule == rule
}

func TestViewsAndHistoryHideOtherSeatsSecrets(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	id, tbl := startPile(t, svc)
	for seat := range games.Seat(2) {
		v, err := projections.GetView(ctx, pool, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		var pv struct {
			Secret *int  `json:"secret"`
			All    []int `json:"all_secrets"`
		}
		_ = json.Unmarshal(v.View, &pv)
		secrets := tbl.State.(*pileState).Secrets
		if pv.Secret == nil || *pv.Secret != secrets[seat] || pv.All != nil {
			t.Fatalf("seat %d view %s", seat, v.View)
		}
		hist, err := svc.History(ctx, id, actorOf(tbl, seat).User, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range hist {
			if c.Type == "pile.dealt" {
				var d pileEvent
				_ = json.Unmarshal(c.Data, &d)
				if d.Secrets[1-seat] != 0 || d.Secrets[seat] != secrets[seat] {
					t.Fatalf("seat %d history shows %v", seat, d.Secrets)
				}
			}
			if raw := mustJSON(c); strings.Contains(raw, "u-ana") || strings.Contains(raw, "u-bob") {
				t.Fatalf("history shows a user id: %s", raw)
			}
		}
	}
	// The games list names who must act, never their default move (it can
	// name a hidden card).
	g, err := projections.GetGame(ctx, pool, id)
	if err != nil || len(g.ToAct) != 1 || strings.Contains(mustJSON(g), "take 1") || strings.Contains(mustJSON(g), "default") {
		t.Fatalf("games row %s, %v", mustJSON(g), err)
	}
	var toAct string
	if err := pool.QueryRow(ctx, "select to_act::text from games where id = $1", id).Scan(&toAct); err != nil || strings.Contains(toAct, "default") {
		t.Fatalf("stored to_act %s, %v", toAct, err)
	}
	spec, err := projections.GetView(ctx, pool, id, games.Spectator)
	if err != nil || strings.Contains(string(spec.View), "secret") {
		t.Fatalf("spectator view %s, %v", spec.View, err)
	}
}

func TestTimeoutAppliesTheDefaultOnce(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	before := tbl.State.(*pileState).Stones
	entry := tbl.Pending[0].ID()
	out, err := svc.Timeout(ctx, id, entry, "timer-1")
	if err != nil {
		t.Fatal(err)
	}
	// The timeout is said, then the default is played.
	if out.Version != tbl.Version+2 {
		t.Fatalf("timeout outcome %+v", out)
	}
	after, _ := svc.Load(ctx, id)
	if got := after.State.(*pileState).Stones; got != before-1 {
		t.Fatalf("stones %d → %d, want the default 'take 1'", before, got)
	}
	// The same timer firing again is for an entry that is no longer pending.
	again, err := svc.Timeout(ctx, id, entry, "timer-1")
	if err != nil || again.Version != again.From {
		t.Fatalf("stale timer: %+v, %v", again, err)
	}
}

func TestRebuildEqualsInline(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	for range 3 {
		id, tbl := startPile(t, svc)
		for range 3 {
			p := pending(t, tbl)
			if _, err := svc.Move(ctx, actorOf(tbl, p.Seat), id, play.AnyVersion, []string{"take 1"}); err != nil {
				t.Fatal(err)
			}
			tbl, _ = svc.Load(ctx, id)
		}
	}
	if _, err := svc.Create(ctx, eve, "pile", nil, "Eve"); err != nil {
		t.Fatal(err)
	}
	open, err := projections.ListGames(ctx, pool, projections.StatusOpen, 10)
	if err != nil || len(open) != 1 || open[0].Kind != "pile" || open[0].Players[0].Name != "Eve" {
		t.Fatalf("open games %+v, %v", open, err)
	}
	all, err := projections.ListGames(ctx, pool, "", 10)
	if err != nil || len(all) != 4 {
		t.Fatalf("%d games listed, %v; want 4", len(all), err)
	}
	inline, err := projections.Dump(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	n, err := play.NewUpkeep(pool, svc.Registry(), nil).RebuildProjections(ctx, nil)
	if err != nil || n != 4 {
		t.Fatalf("rebuild: %d games, %v", n, err)
	}
	rebuilt, err := projections.Dump(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(inline) == 0 || strings.Join(inline, "\n") != strings.Join(rebuilt, "\n") {
		t.Fatalf("rebuilt projections differ from the inline ones:\ninline:\n%s\nrebuilt:\n%s",
			strings.Join(inline, "\n"), strings.Join(rebuilt, "\n"))
	}
}

func TestResignEndsTheGameForTheOther(t *testing.T) {
	ctx := context.Background()
	svc, pool := newService(t)
	id, tbl := startPile(t, svc)
	seat := tbl.SeatOf(bob.User)
	if _, err := svc.Resign(ctx, eve, id); err == nil {
		t.Fatal("a stranger resigned")
	}
	if _, err := svc.Resign(ctx, bob, id); err != nil {
		t.Fatal(err)
	}
	after, _ := svc.Load(ctx, id)
	res := after.Engine.Result(after.State)
	if !after.Ended || !res.Finished || res.Winners[0] != 1-seat {
		t.Fatalf("after resign: ended %v, result %+v", after.Ended, res)
	}
	recorded, _ := events.ReadStream(ctx, pool, play.Stream(id), tbl.Version)
	var types []string
	for _, e := range recorded {
		types = append(types, e.Type)
	}
	if strings.Join(types, ",") != "game.resigned,pile.resigned,game.ended" {
		t.Fatalf("events %v", types)
	}
	var meta events.Meta
	_ = json.Unmarshal(recorded[0].Meta, &meta)
	if meta.Actor != bob.User || meta.Channel != play.ChannelEmail || meta.Seat == nil || *meta.Seat != int(seat) {
		t.Fatalf("resign meta %+v", meta)
	}
	var pe *play.Error
	if _, err := svc.Move(ctx, ana, id, play.AnyVersion, []string{"take 1"}); !errors.As(err, &pe) || pe.Code != play.CodeConflict {
		t.Fatalf("a move after the end: %v", err)
	}
}

// A seat's brief tells what happened since it last acted, its own last
// move included: the mover is told what the move caused, and an earlier
// move is not told again.
func TestBriefTellsTheSeatsOwnLastMoveAndAfter(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	first := pending(t, tbl).Seat
	names := tbl.Engine.Players(tbl.State)
	v := tbl.Version
	for i, take := range []string{"take 1", "take 2", "take 3"} {
		seat := first
		if i%2 == 1 {
			seat = 1 - first
		}
		out, err := svc.Move(ctx, actorOf(tbl, seat), id, v, []string{take})
		if err != nil {
			t.Fatal(err)
		}
		v = out.Version
	}
	for _, c := range []struct {
		seat games.Seat
		want []string
	}{
		// The first mover moved first and third: told its third move only.
		{first, []string{"You took 3."}},
		// The other moved second: told its move and the first mover's after it.
		{1 - first, []string{"You took 2.", names[first] + " took 3."}},
	} {
		b, err := svc.Brief(ctx, id, c.seat)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range b.Since {
			got = append(got, ch.Text.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("seat %d is told %q, want %q", c.seat, got, c.want)
		}
	}
}

package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/courrier-games/courrier/games"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/api/live"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// table is a started game of three players on a running hub.
type table struct {
	svc   *play.Service
	hub   *live.Hub
	game  string
	users []string
}

func newTable(t *testing.T, kind string, opts ...live.Option) *table {
	t.Helper()
	pool := pgtest.New(t)
	return newTableReadBy(t, kind, pool, pool, opts...)
}

// newTableReadBy is newTable on pool whose hub reads the game through
// hubPool.
func newTableReadBy(t *testing.T, kind string, pool, hubPool *pgxpool.Pool, opts ...live.Option) *table {
	t.Helper()
	ctx := t.Context()
	log := slog.New(slog.DiscardHandler)
	w := events.NewWatcher(pool, events.WithIntervals(5*time.Millisecond, 50*time.Millisecond), events.WithWatcherLogger(log))
	svc := play.New(pool, catalog.Registry(), play.WithWake(w.Wake), play.WithLogger(log), play.WithAccounts(auth.NewInvitees()))
	reader := play.New(hubPool, catalog.Registry(), play.WithLogger(log), play.WithAccounts(auth.NewInvitees()))
	hub := live.NewHub(w, reader, log, opts...)
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { _ = w.Run(runCtx); done <- struct{}{} }()
	go func() { _ = hub.Run(runCtx); done <- struct{}{} }()
	t.Cleanup(func() { stop(); <-done; <-done })
	users := auth.NewUsers(pool)
	tb := &table{svc: svc, hub: hub}
	for i := range 3 {
		u, err := users.Ensure(ctx, fmt.Sprintf("p%d@players.test", i))
		if err != nil {
			t.Fatal(err)
		}
		tb.users = append(tb.users, u.ID)
	}
	out, err := svc.CreateGame(ctx, play.Actor{User: tb.users[0]}, play.GameRequest{Kind: kind, Name: "P0", Invite: []string{"p1@players.test", "p2@players.test"}})
	if err != nil {
		t.Fatal(err)
	}
	tb.game = out.GameID
	for i, u := range tb.users[1:] {
		if _, err := svc.Join(ctx, play.Actor{User: u}, tb.game, fmt.Sprintf("P%d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// move plays one random legal move of some seat that must act, and
// reports false once the game has ended.
func (tb *table) move(t *testing.T, r *rand.Rand) bool {
	t.Helper()
	ctx := t.Context()
	for _, i := range r.Perm(len(tb.users)) {
		v, err := tb.svc.ViewFor(ctx, tb.game, tb.users[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Legal) == 0 {
			continue
		}
		line := v.Legal[r.IntN(len(v.Legal))]
		if _, err := tb.svc.Move(ctx, play.Actor{User: tb.users[i]}, tb.game, v.Version, []string{line}); err != nil {
			t.Fatalf("seat %d plays %q: %v", i, line, err)
		}
		return true
	}
	return false
}

// collect reads n changes from sub, failing after a while.
func collect(t *testing.T, sub *live.Subscription, n int) []play.Change {
	t.Helper()
	return append(append([]play.Change(nil), sub.Backlog...), next(t, sub.C, n-len(sub.Backlog))...)
}

// next reads n changes from c, failing after a while.
func next(t *testing.T, c <-chan play.Change, n int) []play.Change {
	t.Helper()
	var out []play.Change
	// A liveness bound, not a speed target: on 2 cores shared with the
	// rest of the suite (the Postfix and burst tests) the feed, which waits
	// for the cluster's oldest running transaction, was once seen 10 s late.
	deadline := time.After(30 * time.Second)
	for len(out) < n {
		select {
		case ch, ok := <-c:
			if !ok {
				t.Fatalf("the subscription closed after %d of %d events", len(out), n)
			}
			out = append(out, ch)
		case <-deadline:
			t.Fatalf("%d of %d events after 30 s", len(out), n)
		}
	}
	return out
}

// Each seat's stream is exactly its history: the backlog, then every live
// event once, in order, redacted for that seat; the hub reads the game once
// per tick however many watch it.
func TestEachSeatGetsItsOwnHistoryOnceInOrder(t *testing.T) {
	for _, kind := range []string{"coyote", "coup", "kramercoup"} {
		t.Run(kind, func(t *testing.T) {
			ctx := t.Context()
			tb := newTable(t, kind)
			r := rand.New(rand.NewPCG(1, uint64(len(kind))))
			for range 3 {
				tb.move(t, r)
			}
			viewers := append([]string{""}, tb.users...)
			subs := make([]*live.Subscription, len(viewers))
			for i, u := range viewers {
				sub, err := tb.hub.Subscribe(ctx, tb.game, u, 2)
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Close()
				subs[i] = sub
			}
			moves := 0
			for range 20 {
				if !tb.move(t, r) {
					break
				}
				moves++
			}
			for i, u := range viewers {
				want, err := tb.svc.History(ctx, tb.game, u, 2)
				if err != nil {
					t.Fatal(err)
				}
				got := collect(t, subs[i], len(want))
				if !reflect.DeepEqual(jsonOf(t, got), jsonOf(t, want)) {
					t.Fatalf("viewer %d's stream differs from its history:\n got %s\nwant %s", i, jsonOf(t, got), jsonOf(t, want))
				}
				select {
				case c, ok := <-subs[i].C:
					if ok {
						t.Fatalf("viewer %d got an extra event %d", i, c.Version)
					}
				case <-time.After(100 * time.Millisecond):
				}
			}
			st := tb.hub.Stats()
			if st.Subscribers != len(viewers) {
				t.Fatalf("%d subscribers, want %d", st.Subscribers, len(viewers))
			}
			// One read per tick at most (a tick of the three moves made
			// before the subscriptions may still come).
			if st.Reads > int64(moves+3) {
				t.Fatalf("%d stream reads for %d moves watched by %d clients: the hub reads per client", st.Reads, moves, len(viewers))
			}
		})
	}
}

// A read that fails (the database restarting, a failover) is tried again:
// a game that has ended gets no later tick, and its subscribers would
// otherwise stay behind until they reconnect. The hub reads as a role that
// is refused the log while the last move is recorded, then allowed again.
func TestAFailedReadIsTriedAgain(t *testing.T) {
	ctx := t.Context()
	db := pgtest.Open(t)
	const reader = "courrier_live_test_reader"
	owner := func(sql string) {
		t.Helper()
		if _, err := db.Owner.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// Roles are the server's: another test process may create it at the
	// same moment, and the duplicate is harmless.
	owner(`do $$ begin create role ` + reader + ` login; exception when duplicate_object or unique_violation then null; end $$`)
	owner(`grant usage on schema public to ` + reader)
	owner(`grant select on all tables in schema public to ` + reader)
	cfg, err := pgxpool.ParseConfig(db.OwnerURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.User, cfg.ConnConfig.Password = reader, ""
	hubPool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hubPool.Close)

	tb := newTableReadBy(t, "coyote", db.Service, hubPool, live.WithRetry(20*time.Millisecond))
	r := rand.New(rand.NewPCG(7, 7))
	tb.move(t, r)
	sub, err := tb.hub.Subscribe(ctx, tb.game, tb.users[1], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	before, err := tb.svc.History(ctx, tb.game, tb.users[1], 0)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sub, len(before))

	owner(`revoke select on events from ` + reader)
	reads := tb.hub.Stats().Reads
	tb.move(t, r)
	for deadline := time.Now().Add(30 * time.Second); tb.hub.Stats().Reads == reads; {
		if time.Now().After(deadline) {
			t.Fatal("the hub never tried to read the game after the move")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // a retry or two fail as well
	select {
	case c := <-sub.C:
		t.Fatalf("version %d was told though the hub may not read the log", c.Version)
	default:
	}
	owner(`grant select on events to ` + reader)

	want, err := tb.svc.History(ctx, tb.game, tb.users[1], 0)
	if err != nil {
		t.Fatal(err)
	}
	got := append(append([]play.Change(nil), before...), next(t, sub.C, len(want)-len(before))...)
	if jsonOf(t, got) != jsonOf(t, want) {
		t.Fatalf("after the failed read the stream differs from the history:\n got %s\nwant %s", jsonOf(t, got), jsonOf(t, want))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestASlowClientIsDroppedAndOthersGoOn(t *testing.T) {
	ctx := t.Context()
	// Kramer's Coup: long games, a few events a move.
	tb := newTable(t, "kramercoup", live.WithBuffer(16))
	fast, err := tb.hub.Subscribe(ctx, tb.game, tb.users[1], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fast.Close()
	last := 0
	if n := len(fast.Backlog); n > 0 {
		last = fast.Backlog[n-1].Version
	}
	read := func() {
		for {
			select {
			case c, ok := <-fast.C:
				if !ok {
					t.Fatal("the fast client was dropped")
				}
				if c.Version != last+1 {
					t.Fatalf("the fast client got version %d after %d", c.Version, last)
				}
				last = c.Version
			default:
				return
			}
		}
	}
	read()
	slow, err := tb.hub.Subscribe(ctx, tb.game, tb.users[0], last)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	r := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 60 && tb.move(t, r); i++ {
		v, err := tb.svc.ViewFor(ctx, tb.game, tb.users[1])
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); last < v.Version; { // progress, not speed: loaded CI machines are slow
			if time.Now().After(deadline) {
				t.Fatalf("the fast client is at %d, the game at %d", last, v.Version)
			}
			read()
			time.Sleep(time.Millisecond)
		}
	}
	n, closed := 0, false
	for !closed {
		select {
		case _, ok := <-slow.C:
			if ok {
				n++
			} else {
				closed = true
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("the slow client holds %d events and was not dropped", n)
		}
	}
	if n > 16 {
		t.Fatalf("the dropped client held %d events, more than its buffer of 16", n)
	}
	if st := tb.hub.Stats(); st.Subscribers != 1 {
		t.Fatalf("%d subscribers left, want the fast one", st.Subscribers)
	}
	// A client resuming from the start gets the whole backlog, however
	// much larger than its buffer.
	again, err := tb.hub.Subscribe(ctx, tb.game, tb.users[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	want, err := tb.svc.History(ctx, tb.game, tb.users[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) <= 16 || jsonOf(t, again.Backlog) != jsonOf(t, want) {
		t.Fatalf("a backlog of %d events for a history of %d", len(again.Backlog), len(want))
	}
}

func TestCloseEndsEveryStreamAndRefusesNewOnes(t *testing.T) {
	ctx := t.Context()
	tb := newTable(t, "coup")
	sub, err := tb.hub.Subscribe(ctx, tb.game, tb.users[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.hub.Subscribe(ctx, "nosuchgame", tb.users[0], 0); err == nil {
		t.Fatal("a subscription to a game that does not exist")
	}
	tb.hub.Close()
	for range sub.C {
	}
	sub.Close() // twice is fine
	if _, err := tb.hub.Subscribe(ctx, tb.game, tb.users[0], 0); !errors.Is(err, live.ErrClosed) {
		t.Fatalf("subscribe after close: %v, want ErrClosed", err)
	}
	if st := tb.hub.Stats(); st.Subscribers != 0 {
		t.Fatalf("%d subscribers after close", st.Subscribers)
	}
}

// An event is one line of JSON whatever it holds, its text said in the
// reader's language.
func TestSSEFormat(t *testing.T) {
	seat := 1
	cases := []struct {
		name, lang, text string
		said             games.Phrase
	}{
		{"a line break stays in its field", "en", "Ana took income.\nNext", games.Said("Ana took income.\nNext")},
		{"English", "en", "The game started.", play.Words().Phrase("change.started")},
		{"French", "fr", "La partie a commencé.", play.Words().Phrase("change.started")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			c := play.Change{Version: 7, Type: "coup.income\nevil: x", Data: json.RawMessage(`{"a":1}`), Meta: play.ServedMeta{Seat: &seat}, Text: tc.said}
			if err := live.WriteEvent(&b, c, tc.lang); err != nil {
				t.Fatal(err)
			}
			ev := live.Event{Version: c.Version, Type: c.Type, Data: c.Data, Meta: c.Meta, Text: tc.text, RecordedAt: c.RecordedAt}
			want := "id: 7\nevent: coup.income evil: x\ndata: " + jsonOf(t, ev) + "\n\n"
			if b.String() != want {
				t.Fatalf("event written as\n%q\nwant\n%q", b.String(), want)
			}
		})
	}
	var b bytes.Buffer
	if err := live.WritePing(&b); err != nil || b.String() != ": ping\n\n" {
		t.Fatalf("ping %q, %v", b.String(), err)
	}
}

func TestParseLastEventID(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"12", 12, true}, {" 3 ", 3, true}, {"0", 0, true},
		{"", 0, false}, {"-1", 0, false}, {"x", 0, false}, {"1e3", 0, false},
	}
	for _, c := range cases {
		got, ok := live.ParseLastEventID(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseLastEventID(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// A stream that carries table talk writes ids "<version>.<message>" once a
// message was sent; ParseEventID reads them, and the plain ids, back.
func TestEventIDs(t *testing.T) {
	cases := []struct {
		version, said int
		id            string
	}{
		{12, 0, "12"}, {12, 3, "12.3"}, {0, 1, "0.1"},
	}
	for _, c := range cases {
		if got := live.EventID(c.version, c.said); got != c.id {
			t.Errorf("EventID(%d, %d) = %q, want %q", c.version, c.said, got, c.id)
		}
		v, m, ok := live.ParseEventID(c.id)
		if !ok || v != c.version || m != c.said {
			t.Errorf("ParseEventID(%q) = %d, %d, %v", c.id, v, m, ok)
		}
	}
	for _, bad := range []string{"", "x", "12.", "12.x", "-1.2", "12.-2", "1.2.3"} {
		if _, _, ok := live.ParseEventID(bad); ok {
			t.Errorf("ParseEventID(%q) is taken", bad)
		}
	}
}

// The table talk of a game is read once per tick for all its streams,
// however many follow it, and each stream gets exactly what its reader may
// read: a private message its two seats only.
func TestTalkIsReadOncePerTickForEveryStream(t *testing.T) {
	ctx := t.Context()
	tb := newTable(t, "coup")
	// newTable's game has the default press (public): a private game here.
	out, err := tb.svc.CreateGame(ctx, play.Actor{User: tb.users[0]}, play.GameRequest{Kind: "coup", Name: "P0",
		Invite: []string{"p1@players.test", "p2@players.test"}, Options: map[string]string{"press": "private"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range tb.users[1:] {
		if _, err := tb.svc.Join(ctx, play.Actor{User: u}, out.GameID, fmt.Sprintf("P%d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	subs := map[int][]*live.Subscription{}
	for i, u := range tb.users {
		for range 3 {
			sub, err := tb.hub.SubscribeTalk(ctx, out.GameID, u, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			subs[i] = append(subs[i], sub)
		}
	}
	seatOf := func(u string) games.Seat {
		v, err := tb.svc.ViewFor(ctx, out.GameID, u)
		if err != nil {
			t.Fatal(err)
		}
		return v.Seat
	}
	reads := tb.hub.Stats().TalkReads
	said := []struct {
		from int
		to   int // a user's index, -1 for the table
		text string
	}{
		{0, -1, "hello"},
		{0, 1, "psst"},
		{2, -1, "hi all"},
	}
	for _, s := range said {
		to := play.ToTable
		if s.to >= 0 {
			to = seatOf(tb.users[s.to])
		}
		if _, err := tb.svc.Say(ctx, play.Actor{User: tb.users[s.from]}, out.GameID, to, s.text); err != nil {
			t.Fatal(err)
		}
	}
	want := map[int][]string{0: {"hello", "psst", "hi all"}, 1: {"hello", "psst", "hi all"}, 2: {"hello", "hi all"}}
	for i, ss := range subs {
		for j, sub := range ss {
			var got []string
			for len(got) < len(want[i]) {
				select {
				case m := <-sub.M:
					got = append(got, m.Text)
				case <-time.After(30 * time.Second):
					t.Fatalf("user %d's stream %d got %q only", i, j, got)
				}
			}
			if !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("user %d's stream %d got %q, want %q", i, j, got, want[i])
			}
			select {
			case m := <-sub.M:
				t.Fatalf("user %d's stream %d got an extra message %q", i, j, m.Text)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	if n := tb.hub.Stats().TalkReads - reads; n < 1 || n > int64(len(said)) {
		t.Fatalf("%d talk reads for %d messages followed by %d streams: the hub reads per stream", n, len(said), 9)
	}
}

package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

// statementLog records the SQL every connection of a pool sends while it
// is on.
type statementLog struct {
	mu   sync.Mutex
	on   bool
	seen []string
}

func (l *statementLog) record(sql string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		l.seen = append(l.seen, strings.Join(strings.Fields(sql), " "))
	}
}

// between records the statements sent while f runs.
func (l *statementLog) between(f func()) []string {
	l.mu.Lock()
	l.on, l.seen = true, nil
	l.mu.Unlock()
	f()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return l.seen
}

func (l *statementLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	l.record(d.SQL)
	return ctx
}
func (l *statementLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (l *statementLog) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (l *statementLog) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	l.record(d.SQL)
}
func (l *statementLog) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// A move over HTTP is answered with the game row and the seat view the
// command projected in its own transaction: the request reads no seat view
// or game row back after the command (it writes them, once), and the
// answer is the view a read gives afterwards.
func TestAMoveIsAnsweredWithTheViewItProjected(t *testing.T) {
	_, url := pgtest.NewWithURL(t)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	statements := &statementLog{}
	cfg.ConnConfig.Tracer = statements
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e := newEnvOn(t, pool)
	tokens := map[string]string{}
	for i := range 3 {
		email := fmt.Sprintf("answer%d@players.test", i)
		tokens[email] = e.signIn(email)
	}
	creator := tokens["answer0@players.test"]
	delete(tokens, "answer0@players.test")
	id := e.newGame("coyote", creator, tokens)
	tokens["answer0@players.test"] = creator
	for move := range 4 {
		var mover string
		var v seatView
		for _, token := range tokens {
			if got, r := e.view(token, id); r.status == http.StatusOK && len(got.Pending) > 0 {
				mover, v = token, got
			}
		}
		if mover == "" {
			t.Fatalf("move %d: nobody may act in game %s", move, id)
		}
		var answer reply
		sent := statements.between(func() {
			answer = e.call(http.MethodPost, "/v1/games/"+id+"/moves", mover,
				map[string]any{"move": v.Legal[len(v.Legal)-1], "expected_version": v.Version})
		})
		if answer.status != http.StatusOK {
			t.Fatalf("move %d: %d %s", move, answer.status, answer.body)
		}
		for _, sql := range sent {
			lower := strings.ToLower(sql)
			reads := strings.Contains(lower, "from seat_views") || strings.Contains(lower, "join seat_views") ||
				strings.Contains(lower, "from games ") || strings.HasSuffix(lower, "from games")
			if reads && !strings.HasPrefix(lower, "insert") {
				t.Errorf("move %d: the request read a projection back after the command:\n%s", move, sql)
			}
		}
		var got struct {
			View seatView `json:"view"`
		}
		answer.decode(t, &got)
		after, r := e.view(mover, id)
		if r.status != http.StatusOK {
			t.Fatalf("view after move %d: %d %s", move, r.status, r.body)
		}
		// The view as the command encoded it and as jsonb gives it back
		// differ in key order only.
		var projected, read any
		if err := json.Unmarshal(got.View.View, &projected); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(after.View, &read); err != nil {
			t.Fatal(err)
		}
		got.View.View, after.View = nil, nil
		if !jsonEqual(got.View, after) || !jsonEqual(projected, read) {
			t.Fatalf("move %d: the answer's view differs from a read after it:\n%+v\nwant\n%+v", move, got.View, after)
		}
	}
}

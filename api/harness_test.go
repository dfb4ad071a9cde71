package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"golang.org/x/time/rate"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/api/live"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/web"
)

// env is a whole API on a fresh database: play, the mail side with its
// River workers delivering to the dev mailbox, the feed watcher and the
// live hub, served over loopback HTTP.
type env struct {
	t        *testing.T
	url      string
	web      string // the web pages, on the same service
	pool     *pgxpool.Pool
	play     *play.Service
	dev      *notify.DevMailbox
	sessions *auth.Sessions
	router   routers.Router
	server   *api.Server
	mail     http.Handler // the mail side's pages (/u/ unsubscribe links)
	jobs     *river.Client[pgx.Tx]
}

// envOptions change an env.
type envOptions struct {
	perUser, perAddress rate.Limit
	now                 func() time.Time
	reg                 *games.Registry   // default: the catalog
	seeds               func() games.Seed // default: fresh seeds
	poll                time.Duration     // River's fetch poll interval (default 50 ms)
}

type lateJobs struct {
	c atomic.Pointer[river.Client[pgx.Tx]]
}

func (l *lateJobs) InsertManyTx(ctx context.Context, tx pgx.Tx, p []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return l.c.Load().InsertManyTx(ctx, tx, p)
}

// jwtKey is the tests' session key.
var jwtKey = auth.Key{ID: "20261124T000000Z-test01", Secret: bytes.Repeat([]byte{9}, 32)}

// loginKey is the tests' login-link key.
var loginKey = bytes.Repeat([]byte{5}, 32)

func newEnv(t *testing.T, opts ...func(*envOptions)) *env {
	t.Helper()
	pool := pgtest.New(t)
	return newEnvOn(t, pool, opts...)
}

// newEnvOn starts an API process on pool: a second call on the same pool
// is a second `courrier serve` on one database.
func newEnvOn(t *testing.T, pool *pgxpool.Pool, opts ...func(*envOptions)) *env {
	t.Helper()
	o := envOptions{perUser: -1, perAddress: -1, now: time.Now, poll: 50 * time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	watcher := events.NewWatcher(pool, events.WithIntervals(20*time.Millisecond, 200*time.Millisecond), events.WithWatcherLogger(log))
	go func() { _ = watcher.Run(ctx) }()
	late := &lateJobs{}
	reg := o.reg
	if reg == nil {
		reg = catalog.Registry()
	}
	box := play.NewEphemeralSeedBox()
	popts := []play.Option{play.WithLogger(log), play.WithWake(watcher.Wake), play.WithJobs(late), play.WithSeedBox(box), play.WithAccounts(auth.NewInvitees())}
	if o.seeds != nil {
		popts = append(popts, play.WithSeeds(o.seeds))
	}
	svc := play.New(pool, reg, popts...)
	arc := play.NewArchive(pool, reg, box)
	signer, err := notify.NewSigner(time.Now, notify.Key{ID: "20261124T000000Z-rep001", Secret: bytes.Repeat([]byte{3}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	users := auth.NewUsers(pool)
	mail, err := notify.New(mailstore.New(pool), svc, users, notify.Config{MailDomain: "courrier.test", BaseURL: "http://courrier.test", Signer: signer, LoginKey: loginKey, Archive: arc}, log)
	if err != nil {
		t.Fatal(err)
	}
	workers := river.NewWorkers()
	mail.AddWorkers(workers)
	river.AddWorker(workers, play.NewDeadlineWorker(svc, time.Now))
	river.AddWorker(workers, play.NewTakeBackWorker(svc, time.Now))
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger: log, Workers: workers, FetchPollInterval: o.poll, FetchCooldown: min(o.poll, 20*time.Millisecond),
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}, "mail": {MaxWorkers: 4}},
		ReindexerSchedule: river.NeverSchedule(),
	})
	if err != nil {
		t.Fatal(err)
	}
	late.c.Store(client)
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	hub := live.NewHub(watcher, svc, log)
	go func() { _ = hub.Run(ctx) }()
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, o.now, jwtKey)
	if err != nil {
		t.Fatal(err)
	}
	sessions := auth.NewSessions(pool, tokens, o.now)
	signIn, err := auth.NewSignIn(users, auth.NewLinks(pool, o.now), sessions, loginKey, jobs.QueueLogin(client))
	if err != nil {
		t.Fatal(err)
	}
	dev := notify.NewDevMailbox(mailstore.New(pool))
	srv, err := api.New(ctx, api.Config{
		Play: svc, Archive: arc, Users: users, SignIn: signIn, APITokens: auth.NewAPITokens(pool, o.now),
		Sessions: sessions, Hub: hub, Feed: feedStats(watcher), BaseURL: "http://courrier.test",
		DevMail: devMail{dev}, MailBacklog: mailBacklog(mailstore.New(pool)),
		Log: log, PerUser: o.perUser, PerAddress: o.perAddress,
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	pages, err := web.New(web.Config{
		Play: svc, Archive: arc, Users: users, Sessions: sessions, SignIn: signIn,
		CSRFKey: bytes.Repeat([]byte{6}, 32), BaseURL: "http://courrier.test", Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	ws := httptest.NewServer(pages)
	t.Cleanup(func() {
		srv.CloseStreams()
		hs.Close()
		ws.Close()
		stop, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		_ = client.Stop(stop)
		cancel()
	})
	doc, err := api.GetSwagger()
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, url: hs.URL, web: ws.URL, pool: pool, play: svc, dev: dev, sessions: sessions, router: router, server: srv, mail: mail.Handler(client), jobs: client}
}

// reply is an HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// errorBody is the API's error shape.
type errorBody struct {
	Error struct {
		Code      string   `json:"code"`
		Message   string   `json:"message"`
		RequestID string   `json:"request_id"`
		Rule      string   `json:"rule"`
		Version   *int     `json:"version"`
		Details   []string `json:"details"`
	} `json:"error"`
}

func (r reply) err() errorBody {
	var e errorBody
	_ = json.Unmarshal(r.body, &e)
	return e
}

func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// call sends a request and checks that the answer validates against the
// API's document. body is JSON-encoded unless it is a string or []byte.
func (e *env) call(method, path, token string, body any, headers ...string) reply {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	out := reply{status: resp.StatusCode, header: resp.Header, body: raw}
	e.checkAgainstDocument(req, out)
	return out
}

// checkAgainstDocument validates an answer of a documented route against
// the document (status, content type, body schema).
func (e *env) checkAgainstDocument(req *http.Request, r reply) {
	e.t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/v1/") || req.URL.Path == "/v1/openapi.json" {
		return
	}
	route, params, err := e.router.FindRoute(req)
	if err != nil {
		return // an unknown route: its 404 is checked by the tests that send it
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: r.status, Header: r.header, Body: io.NopCloser(bytes.NewReader(r.body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(e.t.Context(), in); err != nil {
		e.t.Errorf("%s %s answered %d, which the document does not allow: %v\n%s", req.Method, req.URL.Path, r.status, err, r.body)
	}
}

// linkRe finds a sign-in link in a mail.
var linkRe = regexp.MustCompile(`/login/([a-z2-7]+)`)

// signIn signs an address in through its mailed link and returns a
// session token.
func (e *env) signIn(email string) string {
	e.t.Helper()
	before := len(e.mailTo(email))
	r := e.call(http.MethodPost, "/v1/auth/login", "", map[string]string{"email": email})
	if r.status != http.StatusAccepted {
		e.t.Fatalf("login %s: %d %s", email, r.status, r.body)
	}
	secret := e.waitLink(email, before)
	r = e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": secret})
	if r.status != http.StatusOK {
		e.t.Fatalf("token for %s: %d %s", email, r.status, r.body)
	}
	var s struct {
		Token string `json:"token"`
	}
	r.decode(e.t, &s)
	return s.Token
}

// waitLink waits for the sign-in mail after the first `before` mails of
// email and returns its link's secret.
func (e *env) waitLink(email string, before int) string {
	e.t.Helper()
	text := e.waitMail(email, before)
	sm := linkRe.FindStringSubmatch(text)
	if sm == nil {
		e.t.Fatalf("the sign-in mail to %s has no link:\n%s", email, text)
	}
	return sm[1]
}

// waitMail waits for a mail to email after its first `before` and returns
// the newest one's text.
func (e *env) waitMail(email string, before int) string {
	e.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		list := e.mailTo(email)
		if len(list) > before {
			full, err := e.dev.Get(e.t.Context(), list[0].ID) // newest first
			if err != nil {
				e.t.Fatal(err)
			}
			return notify.TextOf(full.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("no mail for %s", email)
	return ""
}

func (e *env) mailTo(email string) []notify.DevMail {
	e.t.Helper()
	list, err := e.dev.List(e.t.Context(), email, 100)
	if err != nil {
		e.t.Fatal(err)
	}
	return list
}

// countEvents counts every event of every game.
func (e *env) countEvents() int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(e.t.Context(), `select count(*) from events`).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// seatView is the part of GET /v1/games/{id} the tests read.
type seatView struct {
	Game struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		YourTurn bool   `json:"your_turn"`
		Players  []struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		} `json:"players"`
	} `json:"game"`
	Version      int             `json:"version"`
	Seat         *int            `json:"seat"`
	View         json.RawMessage `json:"view"`
	Pending      []any           `json:"pending"`
	Legal        []string        `json:"legal"`
	LegalCompact []string        `json:"legal_compact"`
}

func (e *env) view(token, game string) (seatView, reply) {
	e.t.Helper()
	r := e.call(http.MethodGet, "/v1/games/"+game, token, nil)
	var v seatView
	if r.status == http.StatusOK {
		r.decode(e.t, &v)
	}
	return v, r
}

// newGame creates a game of kind with the creator and invitees seated,
// the invitees joining; it returns the game's id once it started.
func (e *env) newGame(kind string, creator string, invitees map[string]string) string {
	e.t.Helper()
	seats := []string{"me"}
	for email := range invitees {
		seats = append(seats, email)
	}
	r := e.call(http.MethodPost, "/v1/games", creator, map[string]any{"game": kind, "seats": seats})
	if r.status != http.StatusCreated {
		e.t.Fatalf("create %s: %d %s", kind, r.status, r.body)
	}
	var g struct {
		ID string `json:"id"`
	}
	r.decode(e.t, &g)
	i := 0
	for _, token := range invitees {
		i++
		r := e.call(http.MethodPost, "/v1/games/"+g.ID+"/join", token, map[string]string{"name": fmt.Sprintf("P%d", i)})
		if r.status != http.StatusOK {
			e.t.Fatalf("join %s: %d %s", g.ID, r.status, r.body)
		}
	}
	return g.ID
}

// mailBacklog adapts the mail store's backlog as cmd/courrier does.
func mailBacklog(store *mailstore.Store) func(context.Context) ([]api.MailWaiting, error) {
	return func(ctx context.Context) ([]api.MailWaiting, error) {
		list, err := store.MailBacklog(ctx)
		out := make([]api.MailWaiting, 0, len(list))
		for _, w := range list {
			out = append(out, api.MailWaiting{Priority: w.Name, Count: w.Count, Oldest: w.Oldest})
		}
		return out, err
	}
}

// feedStats adapts the watcher as cmd/courrier does.
func feedStats(w *events.Watcher) func() api.FeedStats {
	return func() api.FeedStats {
		st := w.Stats()
		return api.FeedStats{LastPoll: st.LastPoll, Interval: st.Interval, Lag: st.Lag, Delivered: st.Delivered}
	}
}

package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/web"
)

var (
	loginKey = bytes.Repeat([]byte{4}, 32)
	csrfKey  = bytes.Repeat([]byte{6}, 32)
)

// loginJobs keeps the sign-in jobs queued in the link's transaction, so
// that the test can derive each link as the mail worker would.
type loginJobs struct {
	mu   sync.Mutex
	last map[string]int64 // user id → link id
}

func (l *loginJobs) InsertTx(_ context.Context, _ pgx.Tx, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a, ok := args.(jobs.Login); ok {
		l.last[a.User] = a.LinkID
	}
	return &rivertype.JobInsertResult{}, nil
}

type site struct {
	t        *testing.T
	url      string
	play     *play.Service // the pages' own, with their seed box
	pool     *pgxpool.Pool
	users    *auth.Users
	sessions *auth.Sessions
	jobs     *loginJobs
}

// newSite serves the pages on a fresh database; opts change its
// configuration.
func newSite(t *testing.T, baseURL string, opts ...func(*web.Config)) *site {
	t.Helper()
	pool := pgtest.New(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, time.Now, auth.Key{ID: "k1", Secret: bytes.Repeat([]byte{7}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	sessions := auth.NewSessions(pool, tokens, time.Now)
	lj := &loginJobs{last: map[string]int64{}}
	users := auth.NewUsers(pool)
	signIn, err := auth.NewSignIn(users, auth.NewLinks(pool, time.Now), sessions, loginKey, jobs.QueueLogin(lj))
	if err != nil {
		t.Fatal(err)
	}
	box := play.NewEphemeralSeedBox()
	cfg := web.Config{
		Play:    play.New(pool, catalog.Registry(), play.WithLogger(log), play.WithSeedBox(box), play.WithAccounts(auth.NewInvitees())),
		Archive: play.NewArchive(pool, catalog.Registry(), box), Users: users, Sessions: sessions, SignIn: signIn,
		CSRFKey: csrfKey, BaseURL: baseURL, Log: log,
	}
	for _, o := range opts {
		o(&cfg)
	}
	h, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &site{t: t, url: srv.URL, play: cfg.Play, pool: pool, users: users, sessions: sessions, jobs: lj}
}

// browser is a cookie jar that does not run JavaScript.
type browser struct {
	s      *site
	client *http.Client
	page   string // the last page's HTML
	status int
	header http.Header // the last page's response headers
	// accept is the Accept-Language header it sends ("" for none).
	accept string
}

func (s *site) browser() *browser {
	jar, _ := cookiejar.New(nil) // never fails without options
	return &browser{s: s, client: &http.Client{Jar: jar}}
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) get(path string) string {
	b.s.t.Helper()
	req, _ := http.NewRequestWithContext(b.s.t.Context(), http.MethodGet, b.s.url+path, nil) // a test URL
	return b.do(req)
}

// post sends a form as the page's form would, with its CSRF token.
func (b *browser) post(path string, form url.Values) string {
	b.s.t.Helper()
	if m := csrfRe.FindStringSubmatch(b.page); m != nil && form.Get("csrf") == "" {
		form.Set("csrf", m[1])
	}
	req, _ := http.NewRequestWithContext(b.s.t.Context(), http.MethodPost, b.s.url+path, strings.NewReader(form.Encode())) // a test URL
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

func (b *browser) do(req *http.Request) string {
	b.s.t.Helper()
	if b.accept != "" {
		req.Header.Set("Accept-Language", b.accept)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.s.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	b.page, b.status, b.header = string(body), resp.StatusCode, resp.Header
	return b.page
}

// signIn signs in through the pages, with the link the mail would carry
// (in whatever language the pages speak to the browser).
func (b *browser) signIn(email, name string) {
	b.s.t.Helper()
	b.get("/")
	if page := b.post("/signin", url.Values{"email": {email}, "name": {name}}); !strings.Contains(page, `data-testid="link-sent"`) {
		b.s.t.Fatalf("sign in: %d\n%s", b.status, page)
	}
	u, err := b.s.users.Ensure(b.s.t.Context(), email)
	if err != nil {
		b.s.t.Fatal(err)
	}
	b.s.jobs.mu.Lock()
	link := auth.LinkSecret(loginKey, b.s.jobs.last[u.ID])
	b.s.jobs.mu.Unlock()
	b.get("/login/" + link)
	if page := b.post("/login/"+link, url.Values{}); !strings.Contains(page, `<a href="/games/new">`) || b.status != http.StatusOK {
		b.s.t.Fatalf("confirm the link: %d\n%s", b.status, page)
	}
}

func (s *site) countEvents() int {
	var n int
	if err := s.pool.QueryRow(context.Background(), `select count(*) from events`).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

var (
	gameURL    = regexp.MustCompile(`data-game="([a-z2-7]{10})"`)
	moveButton = regexp.MustCompile(`(?:<button type="submit" name="move" value="|<select id="move-pick" name="move"><option value=")([^"]+)"`)
	versionRe  = regexp.MustCompile(`data-version="(\d+)"`)
)

// With scripts off, the pages do everything: sign in, create a game and
// invite, join, play a move by its button, read the history, sign out.
func TestPagesWorkWithoutJavaScript(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob := s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")

	ana.get("/games/new")
	page := ana.post("/games/new", url.Values{"game": {"coyote"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org\ncleo@example.org"}})
	m := gameURL.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("create: %d\n%s", ana.status, page)
	}
	id := m[1]
	if !strings.Contains(page, "Waiting for players") {
		t.Fatalf("a new game with invitees waits for them:\n%s", page)
	}
	// The seed's sha256 is on the page from the start.
	var commitment string
	if err := s.pool.QueryRow(t.Context(), `select data->>'seed_sha256' from events where version = 1`).Scan(&commitment); err != nil {
		t.Fatal(err)
	}
	if len(commitment) != 64 || !strings.Contains(page, "its sha256 is <code>"+commitment+"</code>") {
		t.Fatalf("the page of a new game does not publish the seed's sha256 %q:\n%s", commitment, page)
	}
	cleo := s.browser()
	cleo.signIn("cleo@example.org", "Cleo")
	for _, p := range []*browser{bob, cleo} {
		p.get("/games/" + id)
		p.post("/games/"+id+"/join", url.Values{"name": {""}})
		if p.status != http.StatusOK {
			t.Fatalf("join: %d\n%s", p.status, p.page)
		}
	}
	// Whoever must act sees buttons (or a list, or a number field); one
	// press plays the move.
	played := false
	for _, p := range []*browser{ana, bob, cleo} {
		page := p.get("/games/" + id)
		before := versionRe.FindStringSubmatch(page)[1]
		form := url.Values{"version": {before}}
		if b := moveButton.FindStringSubmatch(page); b != nil {
			form.Set("move", b[1])
		} else if n := numberForm.FindStringSubmatch(page); n != nil {
			form.Set("verb", n[1])
			form.Set("number", n[2])
		} else {
			continue
		}
		after := p.post("/games/"+id+"/move", form)
		if p.status != http.StatusOK || versionRe.FindStringSubmatch(after)[1] == before {
			t.Fatalf("the move %v: %d\n%s", form, p.status, after)
		}
		played = true
		break
	}
	if !played {
		t.Fatal("nobody had a move button")
	}
	if page := bob.get("/games/" + id + "/history?version=2"); !strings.Contains(page, "Version 2 of") || bob.status != http.StatusOK {
		t.Fatalf("history: %d\n%s", bob.status, page)
	}
	if page := bob.get("/games/" + id + "/record"); !strings.Contains(page, `[View "seat`) {
		t.Fatalf("a player's record: %.400s", page)
	}
	outsider := s.browser()
	outsider.signIn("dan@example.org", "Dan")
	if outsider.get("/games/" + id); outsider.status != http.StatusForbidden {
		t.Fatalf("an outsider's look at a started game: %d", outsider.status)
	}
	bob.get("/games")
	bob.post("/signout", url.Values{})
	if bob.get("/games"); bob.status != http.StatusUnauthorized || !strings.Contains(bob.page, "Mail me a sign-in link") {
		t.Fatalf("after signing out: %d\n%s", bob.status, bob.page)
	}
}

// Every form post needs the CSRF token of the browser's own session (or,
// before signing in, of its own random cookie) and a same-site origin: a
// token the sender made up, even repeated in the cookie a double-submit
// check would compare it with, or another session's token, is refused, and
// a refused form writes nothing.
func TestFormsNeedTheCSRFToken(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob := s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	bob.get("/games/new")
	bobsToken := csrfRe.FindStringSubmatch(bob.page)[1]
	stranger := s.browser()
	stranger.get("/")
	strangersToken := csrfRe.FindStringSubmatch(stranger.page)[1]
	made := strings.Repeat("x", 32)
	newGame := func(csrf string) url.Values {
		return url.Values{"csrf": {csrf}, "game": {"coyote"}, "play": {"on"}, "name": {"Ana"}}
	}
	before := s.countEvents()
	for _, tc := range []struct {
		name   string
		from   *browser
		path   string
		form   url.Values
		cookie string // replaces the courrier_csrf cookie when set
		header map[string]string
		want   int
	}{
		{"the page's own token", ana, "/games/new", newGame(""), "", nil, http.StatusOK},
		{"no token", ana, "/games/new", newGame("-"), "", nil, http.StatusForbidden},
		{"another token", ana, "/games/new", newGame(made), "", nil, http.StatusForbidden},
		{"a made-up token in cookie and field", ana, "/games/new", newGame(made), made, nil, http.StatusForbidden},
		{"another session's token", ana, "/games/new", newGame(bobsToken), "", nil, http.StatusForbidden},
		{"a visitor's token with a session", ana, "/games/new", newGame(strangersToken), "", nil, http.StatusForbidden},
		{"cross-site", ana, "/games/new", newGame(""), "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"before signing in, a made-up token in cookie and field", stranger, "/signin", url.Values{"csrf": {made}, "email": {"eve@example.org"}}, made, nil, http.StatusForbidden},
		{"before signing in, the page's own token", stranger, "/signin", url.Values{"email": {"eve@example.org"}}, "", nil, http.StatusOK},
	} {
		if tc.path == "/signin" {
			tc.from.get("/")
		} else {
			tc.from.get(tc.path)
		}
		form := tc.form
		if form.Get("csrf") == "" {
			form.Set("csrf", csrfRe.FindStringSubmatch(tc.from.page)[1])
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.url+tc.path, strings.NewReader(form.Encode())) // a test URL
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		for _, c := range tc.from.client.Jar.Cookies(req.URL) {
			if c.Name == "courrier_csrf" && tc.cookie != "" {
				c.Value = tc.cookie
			}
			req.AddCookie(c)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		got := resp.StatusCode
		if got == http.StatusSeeOther {
			got = http.StatusOK // a created game redirects to its page
		}
		if got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if tc.want == http.StatusOK {
			before = s.countEvents()
		}
	}
	if n := s.countEvents(); n != before {
		t.Fatalf("refused forms wrote %d events", n-before)
	}
}

// Cookies are HttpOnly and SameSite=Lax; when the service is served over
// https they are also Secure and named with the __Host- prefix (Path=/, no
// Domain), so no other host of the domain can plant one; on http (local
// development) they keep their plain names. Either way the browser that
// holds them is signed in.
func TestSessionCookie(t *testing.T) {
	for _, tc := range []struct {
		base           string
		secure         bool
		session, csrf  string
		path, notNamed string
	}{
		{"http://localhost:8080", false, "courrier_session", "courrier_csrf", "/", "__Host-courrier_session"},
		{"https://courrier.example", true, "__Host-courrier_session", "__Host-courrier_csrf", "/", "courrier_session"},
	} {
		s := newSite(t, tc.base)
		b := s.browser()
		set := map[string]*http.Cookie{}
		roundTrip := func(req *http.Request) int {
			t.Helper()
			for _, c := range b.client.Jar.Cookies(req.URL) {
				req.AddCookie(c)
			}
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			b.page = string(body)
			b.client.Jar.SetCookies(req.URL, resp.Cookies())
			for _, c := range resp.Cookies() {
				set[c.Name] = c
			}
			return resp.StatusCode
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+"/", nil) // a test URL
		roundTrip(req)
		b.post("/signin", url.Values{"email": {"ana@example.org"}})
		u, _ := s.users.Ensure(t.Context(), "ana@example.org")
		link := auth.LinkSecret(loginKey, s.jobs.last[u.ID])
		b.get("/login/" + link)
		form := url.Values{"csrf": {csrfRe.FindStringSubmatch(b.page)[1]}}
		req, _ = http.NewRequestWithContext(t.Context(), http.MethodPost, s.url+"/login/"+link, strings.NewReader(form.Encode())) // a test URL
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if status := roundTrip(req); status != http.StatusSeeOther {
			t.Fatalf("%s: sign in: %d", tc.base, status)
		}
		for _, name := range []string{tc.session, tc.csrf} {
			c := set[name]
			if c == nil {
				t.Errorf("%s: no cookie %s was set", tc.base, name)
				continue
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != tc.secure || c.Path != tc.path || c.Domain != "" {
				t.Errorf("%s: cookie %s: %s", tc.base, name, c.String())
			}
		}
		if set[tc.notNamed] != nil {
			t.Errorf("%s: a cookie named %s was set", tc.base, tc.notNamed)
		}
		if b.get("/games"); b.status != http.StatusOK || !strings.Contains(b.page, "My games") {
			t.Fatalf("%s: with its cookies the browser is not signed in: %d", tc.base, b.status)
		}
	}
}

// Signing out ends the session on the server: the cookie's token, replayed
// by whoever copied it, no longer signs anyone in.
func TestSignOutEndsTheSessionOnTheServer(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana := s.browser()
	ana.signIn("ana@example.org", "Ana")
	var stolen *http.Cookie
	u, _ := url.Parse(s.url)
	for _, c := range ana.client.Jar.Cookies(u) {
		if c.Name == "courrier_session" {
			stolen = c
		}
	}
	if stolen == nil {
		t.Fatal("no session cookie after signing in")
	}
	replay := func() int {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+"/games", nil) // a test URL
		req.AddCookie(stolen)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if got := replay(); got != http.StatusOK {
		t.Fatalf("the session cookie before signing out: %d", got)
	}
	ana.get("/games")
	ana.post("/signout", url.Values{})
	if got := replay(); got != http.StatusUnauthorized {
		t.Fatalf("the session cookie replayed after signing out: %d, want 401", got)
	}
}

// "Sign out everywhere", a button of the account page, ends every session
// of the account: other browsers', and the API's (the same sessions); other
// accounts' stay.
func TestSignOutEverywhere(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	laptop, phone, bob := s.browser(), s.browser(), s.browser()
	laptop.signIn("ana@example.org", "Ana")
	phone.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	ana, _ := s.users.Ensure(t.Context(), "ana@example.org")
	_, script, err := s.sessions.Open(t.Context(), ana.ID) // a session the API gave a script
	if err != nil {
		t.Fatal(err)
	}
	if page := laptop.get("/account"); laptop.status != http.StatusOK || !strings.Contains(page, `data-testid="signout-everywhere"`) || !strings.Contains(page, "ana@example.org") {
		t.Fatalf("the account page: %d\n%s", laptop.status, page)
	}
	laptop.post("/signout-everywhere", url.Values{})
	if laptop.status != http.StatusOK || !strings.Contains(laptop.page, "Mail me a sign-in link") {
		t.Fatalf("after signing out everywhere: %d\n%s", laptop.status, laptop.page)
	}
	for _, tc := range []struct {
		name string
		b    *browser
		want int
	}{{"the same browser", laptop, http.StatusUnauthorized}, {"ana's other browser", phone, http.StatusUnauthorized}, {"bob's browser", bob, http.StatusOK}} {
		if tc.b.get("/games"); tc.b.status != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, tc.b.status, tc.want)
		}
	}
	if _, err := s.sessions.Verify(t.Context(), script); !errors.Is(err, auth.ErrSignedOut) {
		t.Errorf("the API session after signing out everywhere on the web: %v", err)
	}
	if anon := s.browser(); anon.get("/account") == "" || anon.status != http.StatusUnauthorized {
		t.Errorf("the account page without a session: %d", anon.status)
	}
}

// What people type (a display name, a move) is text on the page, never
// markup.
func TestTypedTextIsEscaped(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob := s.browser(), s.browser()
	ana.signIn("ana@example.org", `Ana <img src=x onerror=alert(1)>`)
	bob.signIn("bob@example.org", "Bob")
	if strings.Contains(ana.get("/games"), "<img src=x") {
		t.Fatalf("a display name is markup:\n%s", ana.page)
	}
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org"}}))[1]
	bob.get("/games/" + id)
	bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}})
	for _, p := range []*browser{ana, bob} {
		page := p.get("/games/" + id)
		v := versionRe.FindStringSubmatch(page)[1]
		before := s.countEvents()
		page = p.post("/games/"+id+"/move", url.Values{"move": {`<script>alert("x")</script>`}, "version": {v}})
		if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;") {
			t.Fatalf("a typed move is markup (%d):\n%s", p.status, page)
		}
		if s.countEvents() != before || (p.status != http.StatusUnprocessableEntity && p.status != http.StatusBadRequest) {
			t.Fatalf("a malformed move: %d, %d events", p.status, s.countEvents()-before)
		}
	}
}

// The rules pages are HTML for people and Markdown on request.
func TestRulesPages(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	b := s.browser()
	for _, id := range catalog.Registry().IDs() {
		if page := b.get("/rules/" + id); b.status != http.StatusOK || !strings.Contains(page, "<h1 id=") || !strings.Contains(page, "<table>") {
			t.Fatalf("rules of %s: %d\n%.500s", id, b.status, page)
		}
		if page := b.get("/rules/" + id + "?format=md"); !strings.HasPrefix(page, "#") {
			t.Fatalf("rules of %s as Markdown: %.200s", id, page)
		}
	}
	if b.get("/rules/chess"); b.status != http.StatusNotFound {
		t.Fatalf("rules of a game we do not have: %d", b.status)
	}
}

// A sign-in link's GET changes nothing (mail scanners fetch links): only
// the page's button signs in, once.
func TestSignInLinkIsConfirmedByAButtonOnce(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	b := s.browser()
	b.get("/")
	b.post("/signin", url.Values{"email": {"ana@example.org"}})
	u, _ := s.users.Ensure(t.Context(), "ana@example.org")
	link := auth.LinkSecret(loginKey, s.jobs.last[u.ID])
	for range 2 { // a scanner, then the person
		if page := b.get("/login/" + link); b.status != http.StatusOK || !strings.Contains(page, `data-testid="confirm-login"`) {
			t.Fatalf("GET the link: %d\n%s", b.status, page)
		}
	}
	if b.get("/games"); b.status != http.StatusUnauthorized {
		t.Fatalf("a GET of the link signed in: %d", b.status)
	}
	b.get("/login/" + link)
	if page := b.post("/login/"+link, url.Values{}); b.status != http.StatusOK || !strings.Contains(page, "My games") {
		t.Fatalf("POST the link: %d\n%s", b.status, page)
	}
	other := s.browser()
	other.get("/login/" + link)
	if page := other.post("/login/"+link, url.Values{}); other.status != http.StatusUnauthorized || !strings.Contains(page, "already used") {
		t.Fatalf("the link a second time: %d\n%s", other.status, page)
	}
}

// leaves collects the string values of a JSON document, lower-cased.
func leaves(v any, out map[string]bool) {
	switch x := v.(type) {
	case string:
		out[strings.ToLower(x)] = true
	case []any:
		for _, e := range x {
			leaves(e, out)
		}
	case map[string]any:
		for _, e := range x {
			leaves(e, out)
		}
	}
}

var boardRe = regexp.MustCompile(`(?s)<div class="board [^"]*" data-testid="board">.*?</section>`)

// boardLabels is the words a board prints whatever the game ("time",
// "hand", "coins"): the board template's and every game's catalog's. A
// view's value equal to one of them is not shown by the board when the
// board prints the label.
func boardLabels(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile("templates/boards.html")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?s)\{\{.*?\}\}|<[^>]*>`).ReplaceAllString(string(src), " ")
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, _ := reg.Get(id)
		options := map[string]bool{} // the options' words are no board's
		for _, o := range eng.Info().Options {
			for _, t := range append([]games.Text{o.Label, o.Description}, o.ValueLabels...) {
				options[t.Key] = true
			}
		}
		for _, key := range eng.Words().Keys() {
			if !options[key] {
				patterns, _ := eng.Words().Patterns(games.English, key)
				text += " " + strings.Join(patterns, " ")
			}
		}
	}
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[a-z][a-z-]*`).FindAllString(strings.ToLower(text), -1) {
		words[w] = true
	}
	return words
}

// Across random games of every engine, each player's game page draws the
// table from their own seat's view: no string that only another seat's
// view holds (a card in another hand, one's own Coyote feather) is ever on
// the board.
func TestBoardsShowOnlyTheSeatsOwnView(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	svc := play.New(s.pool, catalog.Registry())
	ctx := t.Context()
	reg := catalog.Registry()
	labels := boardLabels(t)
	if !labels["time"] || labels["div"] {
		t.Fatalf("board labels read wrong: %v", labels)
	}
	for gi, kind := range reg.IDs() {
		eng, _ := reg.Get(kind)
		n := eng.Info().MinSeats + 1
		if n > eng.Info().MaxSeats {
			n = eng.Info().MaxSeats
		}
		var actors []play.Actor
		var pages []*browser
		for i := range n {
			email := strings.ToLower(kind) + string(rune('a'+i)) + "@example.org"
			b := s.browser()
			b.signIn(email, "")
			u, _ := s.users.Ensure(ctx, email)
			actors = append(actors, play.Actor{User: u.ID, Channel: play.ChannelWeb})
			pages = append(pages, b)
		}
		out, err := svc.Create(ctx, actors[0], kind, nil, "P0")
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < n; i++ {
			if _, err := svc.Join(ctx, actors[i], out.GameID, "P"+string(rune('0'+i))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Start(ctx, actors[0], out.GameID); err != nil {
			t.Fatal(err)
		}
		pick := rand.New(rand.NewPCG(uint64(gi), 9)) //nolint:gosec // G115: a small index
		checked := 0
		for step := range 60 {
			tbl, err := svc.Load(ctx, out.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if tbl.Ended {
				break
			}
			if step%6 == 0 {
				views := make([]map[string]bool, n)
				for seat := range n {
					raw, err := tbl.Engine.View(tbl.State, games.Seat(seat))
					if err != nil {
						t.Fatal(err)
					}
					var v any
					_ = json.Unmarshal(raw, &v)
					views[seat] = map[string]bool{}
					leaves(v, views[seat])
				}
				for i, a := range actors {
					seat := int(tbl.SeatOf(a.User))
					board := strings.ToLower(boardRe.FindString(pages[i].get("/games/" + out.GameID)))
					if board == "" {
						t.Fatalf("%s: no board on seat %d's page:\n%s", kind, seat, pages[i].page)
					}
					for other := range n {
						for leaf := range views[other] {
							if other == seat || views[seat][leaf] || labels[leaf] || len(leaf) < 3 || strings.Trim(leaf, "-0123456789") == "" {
								continue
							}
							if regexp.MustCompile(`(^|[^a-z0-9])` + regexp.QuoteMeta(html.EscapeString(leaf)) + `($|[^a-z0-9])`).MatchString(board) {
								t.Fatalf("%s at version %d: seat %d's board shows %q, which only seat %d's view holds", kind, tbl.Version, seat, leaf, other)
							}
						}
					}
					checked++
				}
			}
			p := tbl.Pending[pick.IntN(len(tbl.Pending))]
			legal := tbl.Engine.Legal(tbl.State, p.Seat)
			if _, err := svc.Move(ctx, actors[slices.IndexFunc(actors, func(a play.Actor) bool { return tbl.SeatOf(a.User) == p.Seat })],
				out.GameID, tbl.Version, []string{legal[pick.IntN(len(legal))]}); err != nil {
				t.Fatal(err)
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no board checked", kind)
		}
	}
}

// The move box takes what a reply by email may say besides moves: an
// absence, a return, a dispute; a malformed one is refused and writes
// nothing.
func TestMoveBoxTakesReplyCommands(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob := s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org"}}))[1]
	bob.get("/games/" + id)
	bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}})
	count := func(typ string) int {
		var n int
		if err := s.pool.QueryRow(t.Context(), `select count(*) from events where type = $1`, typ).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		text, event string
		status      int
	}{
		{"away 2d", play.TypeAway, http.StatusOK},
		{"back", play.TypeBack, http.StatusOK},
		{"dispute 3 the deal looks wrong", play.TypeDisputed, http.StatusOK},
		{"away forever", "", http.StatusBadRequest},
		{"dispute soon", "", http.StatusBadRequest},
	} {
		before := s.countEvents()
		bob.get("/games/" + id)
		bob.post("/games/"+id+"/move", url.Values{"move": {tc.text}, "version": {versionRe.FindStringSubmatch(bob.page)[1]}})
		if bob.status != tc.status {
			t.Fatalf("%q: %d\n%s", tc.text, bob.status, bob.page)
		}
		if tc.event == "" {
			if s.countEvents() != before {
				t.Fatalf("%q wrote an event", tc.text)
			}
			continue
		}
		if count(tc.event) != 1 {
			t.Fatalf("%q: %d %s events", tc.text, count(tc.event), tc.event)
		}
	}
}

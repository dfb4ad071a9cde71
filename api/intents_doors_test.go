package api_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/smtp"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// The three doors onto play. Every row of TestEachIntentIsTheSameThroughEveryDoor
// is run through each door that offers its intent.
const (
	doorAPI  = "API"  // the HTTP API (api package)
	doorWeb  = "web"  // the pages' forms, with their CSRF token
	doorMail = "mail" // SMTP on loopback into notify's inbound, processed by the mail side's River worker
)

var intentDoors = []string{doorAPI, doorWeb, doorMail}

// intentWorld is one API process (newEnv: play, the mail side with its
// workers, the pages) on one database with every seed pinned, plus
// courrier's SMTP server on loopback feeding the same mail side: the three
// real doors in process. Each row and door gets its own people and its own
// game, so that nothing one door did is seen by another.
type intentWorld struct {
	*env
	users  *auth.Users
	signer *notify.Signer
	smtp   string // host:port of courrier's SMTP server
	n      atomic.Int64
}

// intentSeed is every game's seed: the same deal in each door's game.
var intentSeed = games.Seed{0xd0, 0x05, 0x31}

func newIntentWorld(t *testing.T) *intentWorld {
	t.Helper()
	e := newEnv(t, func(o *envOptions) {
		o.seeds = func() games.Seed { return intentSeed }
		o.poll = 10 * time.Millisecond
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The harness's reply-address key: the addresses signed here are the
	// ones its mail side verifies.
	signer, err := notify.NewSigner(time.Now, notify.Key{ID: "20261124T000000Z-rep001", Secret: bytes.Repeat([]byte{3}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	users := auth.NewUsers(e.pool)
	// Its own archive: this side only reads mail in; the env's workers
	// write the mail out.
	mail, err := notify.New(mailstore.New(e.pool), e.play, users, notify.Config{
		MailDomain: "courrier.test", BaseURL: "http://courrier.test", Signer: signer, LoginKey: loginKey,
		Archive:   play.NewArchive(e.pool, e.play.Registry(), nil),
		LookupTXT: func(context.Context, string) ([]string, error) { return nil, errors.New("no DNS in tests") },
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	// An insert-only River client: the env's running client works the jobs.
	inserter, err := river.NewClient(riverpgxv5.New(e.pool), &river.Config{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	in := mail.NewInboundServer(inserter)
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = in.Serve(ln) }()
	t.Cleanup(func() { _ = in.Shutdown(context.Background()) })
	return &intentWorld{env: e, users: users, signer: signer, smtp: ln.Addr().String()}
}

// intentPlayer is a person with an account whose address is confirmed, a
// session (the API's bearer and the web's cookie) and a browser.
type intentPlayer struct {
	label, name, email, id, token string
	browser                       *http.Client
}

// person makes a new person. Labels are one letter: A plays first and
// creates, B and C are invited, R referees.
func (w *intentWorld) person(t *testing.T, label, name string) *intentPlayer {
	t.Helper()
	p := w.address(label, name)
	u, err := w.users.Ensure(t.Context(), p.email)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.Confirm(t.Context(), u.ID); err != nil {
		t.Fatal(err)
	}
	_, tok, err := w.sessions.Open(t.Context(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	p.id, p.token = u.ID, tok
	jar, _ := cookiejar.New(nil)                                                                                                            // never fails without options
	base, _ := url.Parse(w.web)                                                                                                             // a test server's URL
	jar.SetCookies(base, []*http.Cookie{{Name: "courrier_session", Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode}}) //nolint:gosec // G124: the test server speaks plain HTTP, where a Secure cookie would not be sent
	p.browser = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return p
}

// address is a new address without an account (an invitee's, a referee's).
func (w *intentWorld) address(label, name string) *intentPlayer {
	return &intentPlayer{label: label, name: name, email: fmt.Sprintf("%s.%d@players.test", strings.ToLower(label), w.n.Add(1))}
}

// intentGame is a game of one door's run, and its people by label.
type intentGame struct {
	id     string
	people map[string]*intentPlayer
	seats  map[string]int // label → seat, once started
	last   string         // the label of who moved last (takeBackPrep)
}

// normalise replaces the game's id and its people's addresses in a
// refusal's words: they are each door's own game and people.
func (g *intentGame) normalise(s string) string {
	if g.id != "" {
		s = strings.ReplaceAll(s, g.id, "GAME")
	}
	for label, p := range g.people {
		s = strings.ReplaceAll(s, p.email, "ADDRESS-"+label)
	}
	return s
}

// intentAnswer is what a door answered, reduced to what must be the same
// through every door.
type intentAnswer struct {
	ok      bool
	message string // the refusal, as the person reads it
	rule    string // the rule a refusal names
	stale   string // a stale move's versions, "seen→current" (its words are each door's)
	game    string // a created game's id
	events  []string
}

func (a intentAnswer) String() string {
	if a.ok {
		return fmt.Sprintf("ok, events:\n    %s", strings.Join(a.events, "\n    "))
	}
	s := fmt.Sprintf("refused %q", a.message)
	if a.rule != "" {
		s += " (rule " + a.rule + ")"
	}
	if a.stale != "" {
		s += " stale " + a.stale
	}
	if len(a.events) > 0 {
		s += fmt.Sprintf(", yet events were written:\n    %s", strings.Join(a.events, "\n    "))
	}
	return s
}

// --- the API ---

func apiAnswer(r reply) intentAnswer {
	if r.status/100 == 2 {
		return intentAnswer{ok: true}
	}
	e := r.err().Error
	a := intentAnswer{message: e.Message, rule: e.Rule}
	if e.Code == "stale_version" {
		a.stale, a.message = staleVersions(e.Message), ""
	}
	return a
}

// --- the pages ---

var (
	pageProblemRe = regexp.MustCompile(`<p class="problem" role="alert"[^>]*>([^<]*?) ?(?:<a class="rule"[^>]*>\(rule ([^)]*)\)</a>)?</p>`)
	staleRe       = regexp.MustCompile(`version (\d+)`)
)

// staleVersions reads "seen→current" from a stale refusal's words.
func staleVersions(s string) string {
	m := staleRe.FindAllStringSubmatch(s, 2)
	if len(m) < 2 {
		return "?: " + s
	}
	return m[0][1] + "→" + m[1][1]
}

// form sends a form of the pages as p's browser does: it opens a page for
// its CSRF token, then posts.
func (w *intentWorld) form(t *testing.T, p *intentPlayer, path string, form url.Values) (status int, location, page string) {
	t.Helper()
	get := func(method, path string, body io.Reader) (status int, location, page string) {
		req, err := http.NewRequestWithContext(t.Context(), method, w.web+path, body)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := p.browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	_, _, newPage := get(http.MethodGet, "/games/new", nil)
	m := formCSRFRe.FindStringSubmatch(newPage)
	if m == nil {
		t.Fatalf("the new-game page has no form for %s:\n%s", p.email, newPage)
	}
	form.Set("csrf", m[1])
	return get(http.MethodPost, path, strings.NewReader(form.Encode()))
}

func webAnswer(status int, page string) intentAnswer {
	if status == http.StatusSeeOther {
		return intentAnswer{ok: true}
	}
	m := pageProblemRe.FindStringSubmatch(page)
	if m == nil {
		return intentAnswer{message: fmt.Sprintf("(page %d without a problem)", status)}
	}
	a := intentAnswer{message: strings.TrimSpace(html.UnescapeString(m[1])), rule: m[2]}
	if strings.HasPrefix(a.message, "the game moved on") {
		a.stale, a.message = staleVersions(a.message), ""
	}
	return a
}

// --- mail ---

// mail sends a message from p to rcpt through courrier's SMTP server and
// waits for the mail side to process it; it returns the outcome recorded.
func (w *intentWorld) mail(t *testing.T, p *intentPlayer, rcpt, subject, body string) string {
	t.Helper()
	id := fmt.Sprintf("intent-%d@players.test", w.n.Add(1))
	raw := fmt.Sprintf("From: %s <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		p.name, p.email, rcpt, subject, id, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	if err := smtp.SendMail(w.smtp, nil, p.email, []string{rcpt}, []byte(raw)); err != nil {
		t.Fatalf("mail from %s to %s: %v", p.email, rcpt, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		var outcome *string
		err := w.pool.QueryRow(t.Context(), `select outcome from inbound_mail where message_id = $1 and processed_at is not null`, id).Scan(&outcome)
		if err == nil && outcome != nil {
			return *outcome
		}
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the mail %s from %s was not processed in 15 s", id, p.email)
	return ""
}

// reply is a reply to a prompt of g for p's seat, as it showed version.
func (w *intentWorld) reply(t *testing.T, g *intentGame, p *intentPlayer, version int, text string) string {
	t.Helper()
	tok := w.signer.Sign(notify.Token{Kind: notify.TokenMove, Game: g.id, Seat: g.seats[p.label], Version: version, Expires: time.Now().Add(time.Hour)})
	return w.mail(t, p, "m+"+tok+"@courrier.test", "Re: your turn", text)
}

// replyInvitation is a reply to the invitation to g.
func (w *intentWorld) replyInvitation(t *testing.T, g *intentGame, p *intentPlayer, version int, text string) string {
	t.Helper()
	tok := w.signer.Sign(notify.Token{Kind: notify.TokenInvite, Game: g.id, Seat: -1, Version: version, Expires: time.Now().Add(time.Hour)})
	return w.mail(t, p, "i+"+tok+"@courrier.test", "Re: invitation", text)
}

var mailRuleRe = regexp.MustCompile(`\(rule ([^)]+)\)`)

// mailAnswer reads a processed mail's outcome. A refusal that names a rule
// says it in the refusal mailed back to p, which is read for it.
func (w *intentWorld) mailAnswer(t *testing.T, p *intentPlayer, outcome string, wantRule bool) intentAnswer {
	t.Helper()
	for _, prefix := range []string{"refused: not played: ", "not played: ", "new game refused: ", "resign refused: "} {
		msg, ok := strings.CutPrefix(outcome, prefix)
		if !ok {
			continue
		}
		msg, _, _ = strings.Cut(msg, " (not answered: ")
		a := intentAnswer{message: msg}
		if strings.HasPrefix(msg, "the game moved on") {
			a.stale, a.message = staleVersions(msg), ""
		}
		if wantRule {
			a.rule = w.mailedRule(t, p, msg)
		}
		return a
	}
	return intentAnswer{ok: true}
}

// mailedRule waits for the refusal mailed to p that says problem and
// returns the rule it names.
func (w *intentWorld) mailedRule(t *testing.T, p *intentPlayer, problem string) string {
	t.Helper()
	head := problem
	if len(head) > 20 {
		head = head[:20]
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range w.mailTo(p.email) {
			full, err := w.dev.Get(t.Context(), m.ID)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(notify.TextOf(full.Raw)), " ")
			if i := strings.Index(strings.ToLower(text), strings.ToLower(head)); i >= 0 {
				if rm := mailRuleRe.FindStringSubmatch(text[i:]); rm != nil {
					return rm[1]
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ""
}

// --- what a game's log holds ---

// eventsAfter returns the game's events after version, each as "type data"
// with its ids (the game's, the people's) and times normalised.
func (w *intentWorld) eventsAfter(t *testing.T, g *intentGame, version int) []string {
	t.Helper()
	if g.id == "" {
		return nil
	}
	rows, err := w.pool.Query(t.Context(), `select type, data::text from events where stream = $1 and version > $2 order by version`, play.Stream(g.id), version)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[string]string{}
	for label, p := range g.people {
		if u, err := w.users.ByEmail(t.Context(), p.email); err == nil {
			ids[u.ID] = "USER-" + label
		}
	}
	var out []string
	for rows.Next() {
		var typ, data string
		if err := rows.Scan(&typ, &data); err != nil {
			t.Fatal(err)
		}
		data = strings.ReplaceAll(data, g.id, "GAME")
		for id, label := range ids {
			data = strings.ReplaceAll(data, id, label)
		}
		out = append(out, typ+" "+timeRe.ReplaceAllString(data, "TIME"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// The game's table talk, a stream of its own: each door's game has a
	// fresh one. A message's id is random.
	talk, err := w.pool.Query(t.Context(), `select type, data::text from events where stream = $1 order by version`, play.TalkStream(g.id))
	if err != nil {
		t.Fatal(err)
	}
	defer talk.Close()
	for talk.Next() {
		var typ, data string
		if err := talk.Scan(&typ, &data); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+talkIDRe.ReplaceAllString(data, `"id": "ID"`))
	}
	if err := talk.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// talkIDRe finds a message's random id in its data.
var talkIDRe = regexp.MustCompile(`"id": "[a-z2-7]+"`)

// version is a game's version.
func (w *intentWorld) version(t *testing.T, game string) int {
	t.Helper()
	var v int
	if err := w.pool.QueryRow(t.Context(), `select coalesce(max(version), 0) from events where stream = $1`, play.Stream(game)).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (w *intentWorld) countUsers(t *testing.T) int {
	t.Helper()
	var n int
	if err := w.pool.QueryRow(t.Context(), `select count(*) from users`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// --- games to act in, made the same way for each door (through play) ---

// openGame is a Coyote game A created inviting B and C, nobody joined.
func (w *intentWorld) openGame(t *testing.T) *intentGame {
	t.Helper()
	g := &intentGame{people: map[string]*intentPlayer{}, seats: map[string]int{}}
	for _, p := range []struct{ label, name string }{{"A", "Ana"}, {"B", "Bob"}, {"C", "Cy"}, {"R", "Rex"}} {
		g.people[p.label] = w.person(t, p.label, p.name)
	}
	out, err := w.play.CreateGame(t.Context(), play.Actor{User: g.people["A"].id, Channel: play.ChannelAPI},
		play.GameRequest{Kind: "coyote", Name: "Ana", Invite: []string{g.people["B"].email, g.people["C"].email}, Referee: g.people["R"].email})
	if err != nil {
		t.Fatal(err)
	}
	g.id = out.GameID
	return g
}

// startedGame is openGame with B and C joined, so started.
func (w *intentWorld) startedGame(t *testing.T) *intentGame {
	t.Helper()
	g := w.openGame(t)
	for _, l := range []string{"B", "C"} {
		if _, err := w.play.Join(t.Context(), play.Actor{User: g.people[l].id, Channel: play.ChannelAPI}, g.id, g.people[l].name); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"A", "B", "C"} {
		v, r := w.view(g.people[l].token, g.id)
		if r.status != http.StatusOK || v.Seat == nil {
			t.Fatalf("view of %s: %d %s", l, r.status, r.body)
		}
		g.seats[l] = *v.Seat
	}
	return g
}

// toAct is the label of the player to act in g and their legal moves
// ("" when nobody is).
func (w *intentWorld) toAct(t *testing.T, g *intentGame) (string, []string) {
	t.Helper()
	for _, l := range []string{"A", "B", "C"} {
		v, _ := w.view(g.people[l].token, g.id)
		if len(v.Pending) > 0 && len(v.Legal) > 0 {
			return l, v.Legal
		}
	}
	return "", nil
}

// waiting is the label of a seated player who is not to act in g.
func (w *intentWorld) waiting(t *testing.T, g *intentGame) string {
	t.Helper()
	to, _ := w.toAct(t, g)
	for _, l := range []string{"A", "B", "C"} {
		if l != to {
			return l
		}
	}
	return ""
}

func (w *intentWorld) as(g *intentGame, label string) play.Actor {
	return play.Actor{User: g.people[label].id, Channel: play.ChannelAPI}
}

// --- the rows ---

// gameIntent is an intent on an existing game: a move, a join or a reply
// verb. The web and mail doors take what a player writes (the game page's
// text box, a reply to the prompt); the API its own endpoint.
type gameIntent struct {
	name string
	open bool // the game is open (not started): for joins
	// prep readies the game through play, the same for every door.
	prep func(t *testing.T, w *intentWorld, g *intentGame)
	// who acts (default: the player to act).
	who func(t *testing.T, w *intentWorld, g *intentGame) string
	// text is what is written on the web and by mail; version the version
	// the page or the prompt showed (default: the game's).
	text    func(legal []string) string
	version func(current int) int
	// api is the API's request.
	api func(g *intentGame, legal []string, version int) (path string, body any)
	// web and mail, when set, replace the text box and the prompt reply.
	web  func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, version int) (int, string)
	mail func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, version int) string
	// absent says, by door, why that door does not offer the intent.
	absent map[string]string
	// extra are further ways of a door to the same intent, compared too.
	extra map[string]func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, version int) intentAnswer
	// wantOK: the intent is carried out (else refused).
	wantOK bool
}

func fixed(s string) func([]string) string { return func([]string) string { return s } }

func verb(path string, body any) func(*intentGame, []string, int) (string, any) {
	return func(g *intentGame, _ []string, _ int) (string, any) { return "/v1/games/" + g.id + path, body }
}

func playedBy(label string) func(*testing.T, *intentWorld, *intentGame) string {
	return func(*testing.T, *intentWorld, *intentGame) string { return label }
}

func joinByWeb(name string) func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) (int, string) {
	return func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, _ int) (int, string) {
		status, _, page := w.form(t, p, "/games/"+g.id+"/join", url.Values{"name": {name}})
		return status, page
	}
}

func joinByMail(text string) func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) string {
	return func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, version int) string {
		return w.replyInvitation(t, g, p, version, text)
	}
}

var gameIntents = []gameIntent{
	{
		name: "join: accept the invitation", open: true, who: playedBy("B"), wantOK: true,
		api:  verb("/join", map[string]string{"name": "Bob"}),
		web:  joinByWeb("Bob"),
		mail: joinByMail("join Bob"),
	},
	{
		name: "join: a second time", open: true, who: playedBy("B"),
		prep: func(t *testing.T, w *intentWorld, g *intentGame) {
			if _, err := w.play.Join(t.Context(), w.as(g, "B"), g.id, "Bob"); err != nil {
				t.Fatal(err)
			}
		},
		api:  verb("/join", map[string]string{"name": "Bob"}),
		web:  joinByWeb("Bob"),
		mail: joinByMail("join Bob"),
	},
	{
		name: "move: a legal move", wantOK: true,
		text: func(legal []string) string { return legal[0] },
		api: func(g *intentGame, legal []string, v int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": legal[0], "expected_version": v}
		},
	},
	{
		name:    "move: stale (against version 1)",
		text:    func(legal []string) string { return legal[0] },
		version: func(int) int { return 1 },
		api: func(g *intentGame, legal []string, v int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": legal[0], "expected_version": v}
		},
	},
	{
		name: "move: illegal, naming its rule (Coyote! before any bid)",
		text: fixed("coyote"),
		api: func(g *intentGame, _ []string, v int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": "coyote", "expected_version": v}
		},
	},
	{
		name: "move: out of turn",
		who:  func(t *testing.T, w *intentWorld, g *intentGame) string { return w.waiting(t, g) },
		text: func(legal []string) string { return legal[0] },
		api: func(g *intentGame, legal []string, v int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": legal[0], "expected_version": v}
		},
	},
	{
		name: "move: without the version seen",
		text: func(legal []string) string { return legal[0] },
		api: func(g *intentGame, legal []string, _ int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": legal[0]}
		},
		web: func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, _ int) (int, string) {
			_, legal := w.toAct(t, g)
			return w.formNoLocation(t, p, "/games/"+g.id+"/move", url.Values{"move": {legal[0]}})
		},
		absent: map[string]string{doorMail: "a reply address always carries the version its prompt showed"},
	},
	{
		name: "move: not a move",
		text: fixed("xyzzy 42"),
		api: func(g *intentGame, _ []string, v int) (string, any) {
			return "/v1/games/" + g.id + "/moves", map[string]any{"move": "xyzzy 42", "expected_version": v}
		},
	},
	{name: "away 3d", wantOK: true, text: fixed("away 3d"), api: verb("/away", map[string]string{"for": "3d"})},
	{name: "away 72h", wantOK: true, text: fixed("away 72h"), api: verb("/away", map[string]string{"for": "72h"})},
	{name: "away 0d", text: fixed("away 0d"), api: verb("/away", map[string]string{"for": "0d"})},
	{name: "away 30m (below the minimum)", text: fixed("away 30m"), api: verb("/away", map[string]string{"for": "30m"})},
	{name: "away soon (not a duration)", text: fixed("away soon"), api: verb("/away", map[string]string{"for": "soon"})},
	{
		name: "back after away 3d", wantOK: true, text: fixed("back"), api: verb("/back", nil),
		prep: func(t *testing.T, w *intentWorld, g *intentGame) {
			to, _ := w.toAct(t, g)
			if _, err := w.play.AwayFor(t.Context(), w.as(g, to), g.id, 72*time.Hour); err != nil {
				t.Fatal(err)
			}
		},
	},
	{name: "back without being away", text: fixed("back"), api: verb("/back", nil)},
	// A claim that succeeds needs every other seat abandoned (AbandonAfter
	// missed deadlines in a row) while the game goes on: resigning them
	// ends a Coyote game, so the row below checks the refusal after it.
	{name: "claim while the others play", text: fixed("claim"), api: verb("/claim", nil)},
	{
		name: "claim after the others resigned", text: fixed("claim"), api: verb("/claim", nil),
		who: playedBy("A"),
		prep: func(t *testing.T, w *intentWorld, g *intentGame) {
			for _, l := range []string{"B", "C"} {
				if _, err := w.play.Resign(t.Context(), w.as(g, l), g.id); err != nil {
					t.Fatal(err)
				}
			}
		},
	},
	{
		name: "dispute 2 the deal", wantOK: true, text: fixed("dispute 2 the deal gave me two of the same card"),
		api: verb("/disputes", map[string]any{"version": 2, "reason": "the deal gave me two of the same card"}),
	},
	{
		name: "dispute x", text: fixed("dispute x why"),
		absent: map[string]string{doorAPI: "the API's version is a JSON integer: \"x\" cannot be sent (its schema refuses the body)"},
	},
	{
		name: "dispute 2 without a reason", text: fixed("dispute 2"),
		api: verb("/disputes", map[string]any{"version": 2, "reason": ""}),
	},
	{
		name: "dispute 999 (a version the game never had)", text: fixed("dispute 999 why"),
		api: verb("/disputes", map[string]any{"version": 999, "reason": "why"}),
	},
	// Table talk (issue 36): the same message, and the same refusals, by
	// every door (the game's press is public, the default).
	{name: "say good luck", wantOK: true, text: fixed("say good luck"), api: verb("/messages", map[string]any{"text": "good luck"})},
	{name: "say nothing", text: fixed("say"), api: verb("/messages", map[string]any{"text": " "})},
	{name: "say too much", text: fixed("say " + strings.Repeat("x", 1001)), api: verb("/messages", map[string]any{"text": strings.Repeat("x", 1001)})},
	{
		name: "say to one player where press is public", text: fixed("say to Bob: psst"), who: playedBy("A"),
		api: verb("/messages", map[string]any{"text": "psst", "to": 1}),
	},
	{
		name: "resign", wantOK: true, text: fixed("resign"), api: verb("/resign", nil),
		extra: map[string]func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) intentAnswer{
			"web (resign button)": func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, _ int) intentAnswer {
				return webAnswer(w.formNoLocation(t, p, "/games/"+g.id+"/resign", url.Values{"confirm": {"yes"}}))
			},
			"mail (resign <game> to the service address)": func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, _ int) intentAnswer {
				return w.mailAnswer(t, p, w.mail(t, p, "play@courrier.test", "resign", "resign "+g.id), false)
			},
		},
	},
	{
		name: "resign a second time", text: fixed("resign"), api: verb("/resign", nil),
		who: playedBy("B"),
		prep: func(t *testing.T, w *intentWorld, g *intentGame) {
			if _, err := w.play.Resign(t.Context(), w.as(g, "B"), g.id); err != nil {
				t.Fatal(err)
			}
		},
	},
}

// --- take-backs by consent (issue 36) ---

// bidThen has the player to act bid (a Coyote bid fixes nothing: CY-35),
// noting them as g.last, then, when ask is set, has them ask to take it
// back.
func bidThen(ask bool) func(t *testing.T, w *intentWorld, g *intentGame) {
	return func(t *testing.T, w *intentWorld, g *intentGame) {
		t.Helper()
		to, legal := w.toAct(t, g)
		bid := ""
		for _, m := range legal {
			if strings.HasPrefix(m, "bid ") {
				bid = m
				break
			}
		}
		if _, err := w.play.Move(t.Context(), w.as(g, to), g.id, play.AnyVersion, []string{bid}); err != nil {
			t.Fatal(err)
		}
		g.last = to
		if !ask {
			return
		}
		if _, err := w.play.RequestTakeBack(t.Context(), w.as(g, to), g.id, play.AnyVersion); err != nil {
			t.Fatal(err)
		}
	}
}

func lastMover(_ *testing.T, _ *intentWorld, g *intentGame) string { return g.last }

// anotherThanLast is a seated player who did not move last.
func anotherThanLast(_ *testing.T, _ *intentWorld, g *intentGame) string {
	for _, l := range []string{"A", "B", "C"} {
		if l != g.last {
			return l
		}
	}
	return ""
}

func askTakeBack(g *intentGame, _ []string, v int) (string, any) {
	return "/v1/games/" + g.id + "/takebacks", map[string]any{"expected_version": v}
}

func answerTakeBack(agree bool) func(*intentGame, []string, int) (string, any) {
	return func(g *intentGame, _ []string, v int) (string, any) {
		return "/v1/games/" + g.id + "/takebacks/" + strconv.Itoa(v) + "/answer", map[string]any{"agree": agree}
	}
}

var takeBackIntents = []gameIntent{
	{
		name: "takeback: one's own last bid", wantOK: true, prep: bidThen(false), who: lastMover, text: fixed("takeback"), api: askTakeBack,
		extra: map[string]func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) intentAnswer{
			"web (take-back button)": func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, v int) intentAnswer {
				return webAnswer(w.formNoLocation(t, p, "/games/"+g.id+"/takeback", url.Values{"version": {strconv.Itoa(v)}}))
			},
		},
	},
	{name: "takeback: reprise (French)", wantOK: true, prep: bidThen(false), who: lastMover, text: fixed("reprise"), api: askTakeBack},
	{name: "takeback: undo another's move", prep: bidThen(false), who: anotherThanLast, text: fixed("undo"), api: askTakeBack},
	{name: "takeback: a second request", prep: bidThen(true), who: lastMover, text: fixed("annuler"), api: askTakeBack},
	{
		name: "takeback: agree", wantOK: true, prep: bidThen(true), who: anotherThanLast, text: fixed("agree"), api: answerTakeBack(true),
		extra: map[string]func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) intentAnswer{
			"web (agree button)": func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, v int) intentAnswer {
				return webAnswer(w.formNoLocation(t, p, "/games/"+g.id+"/takeback/answer", url.Values{"asked": {strconv.Itoa(v)}, "agree": {"yes"}}))
			},
		},
	},
	{name: "takeback: d'accord (French)", wantOK: true, prep: bidThen(true), who: anotherThanLast, text: fixed("d’accord"), api: answerTakeBack(true)},
	{
		name: "takeback: refuse", wantOK: true, prep: bidThen(true), who: anotherThanLast, text: fixed("refuser"), api: answerTakeBack(false),
		extra: map[string]func(*testing.T, *intentWorld, *intentGame, *intentPlayer, int) intentAnswer{
			"web (refuse button)": func(t *testing.T, w *intentWorld, g *intentGame, p *intentPlayer, v int) intentAnswer {
				return webAnswer(w.formNoLocation(t, p, "/games/"+g.id+"/takeback/answer", url.Values{"asked": {strconv.Itoa(v)}, "agree": {"no"}}))
			},
		},
	},
	{name: "takeback: agree with no request open", prep: bidThen(false), who: anotherThanLast, text: fixed("agree"), api: answerTakeBack(true)},
}

func init() { gameIntents = append(gameIntents, takeBackIntents...) }

func (w *intentWorld) formNoLocation(t *testing.T, p *intentPlayer, path string, form url.Values) (int, string) {
	t.Helper()
	status, _, page := w.form(t, p, path, form)
	return status, page
}

// createIntent is a game's creation by A, inviting people by label ("A"
// is A's own address).
type createIntent struct {
	name         string
	kind         string
	invite       []string
	turn, window string
	weekdays     []string
	referee      string
	options      map[string]string
	absent       map[string]string
	wantOK       bool
}

var createIntents = []createIntent{
	{name: "create: two invitees, turn 3d, window 72h", kind: "coyote", invite: []string{"B", "C"}, turn: "3d", window: "72h", wantOK: true},
	{name: "create: with a referee", kind: "coyote", invite: []string{"B", "C"}, referee: "R", wantOK: true},
	{
		name: "create: deadlines on weekdays", kind: "coyote", invite: []string{"B", "C"}, turn: "1d12h", weekdays: []string{"mon", "wed", "fri"}, wantOK: true,
	},
	{
		name: "create: an option", kind: "coyote", invite: []string{"B", "C"}, options: map[string]string{"elimination": "4"}, wantOK: true,
	},
	{
		name: "create: a bad option", kind: "coyote", invite: []string{"B", "C"}, options: map[string]string{"elimination": "9"},
	},
	{name: "create: an unknown game", kind: "chess", invite: []string{"B", "C"}},
	{name: "create: a turn of 30m (below the minimum)", kind: "coyote", invite: []string{"B", "C"}, turn: "30m"},
	{name: "create: a window of 0d", kind: "coyote", invite: []string{"B", "C"}, window: "0d"},
	{name: "create: a turn of soon (not a duration)", kind: "coyote", invite: []string{"B", "C"}, turn: "soon"},
	{name: "create: an invitee twice", kind: "coyote", invite: []string{"B", "C", "B"}, wantOK: true},
	{name: "create: inviting oneself", kind: "coyote", invite: []string{"A", "B", "C"}},
	{name: "create: too few players", kind: "coyote", invite: []string{"B"}},
	{name: "create: the referee also invited", kind: "coyote", invite: []string{"B", "C"}, referee: "B"},
	{
		name: "create: a bad weekday", kind: "coyote", invite: []string{"B", "C"}, weekdays: []string{"funday"},
	},
}

// signInIntent is a step of signing in, through the API and the pages (the
// doors of signin_doors_test.go).
type signInIntent struct {
	name   string
	run    func(t *testing.T, w *intentWorld, d signInDoor) intentAnswer
	wantOK bool
}

var signInIntents = []signInIntent{
	{
		name: "sign-in: request a link, confirm it", wantOK: true,
		run: func(t *testing.T, w *intentWorld, d signInDoor) intentAnswer {
			p := w.address("S", "Sam")
			before := len(w.mailTo(p.email))
			if status, problem := d.request(t, p.email, "Sam"); problem != "" || status != okStatusFor[d.name] {
				return intentAnswer{message: problem}
			}
			secret := w.waitLink(p.email, before)
			status, problem, token := d.confirm(t, secret)
			if status != http.StatusOK || token == "" {
				return intentAnswer{message: problem}
			}
			var me struct {
				Email string `json:"email"`
				Name  string `json:"name"`
			}
			w.call(http.MethodGet, "/v1/me", token, nil).decode(t, &me)
			return intentAnswer{ok: true, events: []string{"account " + strings.Replace(me.Email, p.email, "EMAIL", 1) + " named " + me.Name}}
		},
	},
	{
		name: "sign-in: request for what is not an address",
		run: func(t *testing.T, _ *intentWorld, d signInDoor) intentAnswer {
			_, problem := d.request(t, "sam at players.test", "")
			return intentAnswer{ok: problem == "", message: problem}
		},
	},
	{
		name: "sign-in: confirm a link of nobody's",
		run: func(t *testing.T, w *intentWorld, d signInDoor) intentAnswer {
			_, problem, token := d.confirm(t, auth.LinkSecret(loginKey, 1<<40+w.n.Add(1)))
			return intentAnswer{ok: token != "", message: problem}
		},
	},
	{
		name: "sign-in: confirm a link already used",
		run: func(t *testing.T, w *intentWorld, d signInDoor) intentAnswer {
			p := w.address("S", "Sam")
			before := len(w.mailTo(p.email))
			d.request(t, p.email, "Sam")
			secret := w.waitLink(p.email, before)
			if _, _, token := d.confirm(t, secret); token == "" {
				t.Fatalf("%s: the first use of the link gave no session", d.name)
			}
			_, problem, token := d.confirm(t, secret)
			return intentAnswer{ok: token != "", message: problem}
		},
	},
}

// knownDisagreements are the doors found to answer differently, row and
// door → what differs. Each is reported (t.Log) rather than failed, until
// it is fixed: then the test fails, asking for its line to go.
var knownDisagreements = map[string]string{
	// By design: the API's body is checked against its OpenAPI document
	// (expected_version is required there, DESIGN.md 2026-11-23, 5) before
	// any handler runs, so its refusal is the validator's words naming the
	// JSON field; the pages' form always carries the version, and one sent
	// without it gets play's refusal.
	"move: without the version seen / web": "the API's document requires expected_version and its validator refuses in its own words; the web's form without its version gets play.Write's \"say which version of the game you saw\"",
}

// Every intent — a game's creation, a join, a move, each reply verb, a
// sign-in — does the same through every door that offers it: the same
// events appended (ids and times normalised), or the same refusal in the
// same words (and rule), with nothing written. Each row runs once per door
// on its own, identically seeded game; a door that does not offer an
// intent says why in the row.
func TestEachIntentIsTheSameThroughEveryDoor(t *testing.T) {
	w := newIntentWorld(t)
	seen := map[string]bool{}
	check := func(t *testing.T, row string, wantOK bool, answers map[string]intentAnswer, order []string, compareRule bool) {
		t.Helper()
		if len(order) == 0 {
			return
		}
		ref := order[0]
		for _, door := range order {
			a := answers[door]
			differs := ""
			switch {
			case a.ok != wantOK:
				differs = fmt.Sprintf("want ok=%v", wantOK)
			case door != ref && !sameAnswer(answers[ref], a, compareRule):
				differs = "differs from " + ref
			case !a.ok && len(a.events) > 0:
				differs = "a refusal wrote events"
			}
			if differs == "" {
				continue
			}
			key := row + " / " + door
			msg := fmt.Sprintf("%s: %s\n  %s answered %s\n  %s answered %s", key, differs, ref, answers[ref], door, a)
			if why, ok := knownDisagreements[key]; ok {
				seen[key] = true
				t.Logf("known disagreement (%s):\n%s", why, msg)
				continue
			}
			t.Error(msg)
		}
	}

	t.Run("game", func(t *testing.T) {
		for _, row := range gameIntents {
			answers := map[string]intentAnswer{}
			var order []string
			run := func(door string, act func(g *intentGame, p *intentPlayer, legal []string, version int) intentAnswer) {
				g := w.startedGameOr(t, row.open)
				if row.prep != nil {
					row.prep(t, w, g)
				}
				who := ""
				var legal []string
				if !row.open {
					who, legal = w.toAct(t, g)
				}
				if row.who != nil {
					who = row.who(t, w, g)
				}
				if who == "" {
					t.Fatalf("%s: nobody is to act in %s", row.name, g.id)
				}
				if len(legal) == 0 {
					legal = []string{""}
				}
				current := w.version(t, g.id)
				version := current
				if row.version != nil {
					version = row.version(current)
				}
				before := w.countEvents()
				a := act(g, g.people[who], legal, version)
				a.message = g.normalise(a.message)
				a.events = w.eventsAfter(t, g, current)
				if !a.ok && w.countEvents() != before {
					a.events = append(a.events, fmt.Sprintf("(%d events in all were written)", w.countEvents()-before))
				}
				answers[door] = a
				order = append(order, door)
			}
			for _, door := range intentDoors {
				if why, ok := row.absent[door]; ok {
					t.Logf("%s / %s: not offered: %s", row.name, door, why)
					continue
				}
				switch door {
				case doorAPI:
					run(door, func(g *intentGame, p *intentPlayer, legal []string, version int) intentAnswer {
						path, body := row.api(g, legal, version)
						return apiAnswer(w.call(http.MethodPost, path, p.token, body))
					})
				case doorWeb:
					run(door, func(g *intentGame, p *intentPlayer, legal []string, version int) intentAnswer {
						if row.web != nil {
							return webAnswer(row.web(t, w, g, p, version))
						}
						return webAnswer(w.formNoLocation(t, p, "/games/"+g.id+"/move", url.Values{"move": {row.text(legal)}, "version": {strconv.Itoa(version)}}))
					})
				case doorMail:
					run(door, func(g *intentGame, p *intentPlayer, legal []string, version int) intentAnswer {
						var outcome string
						if row.mail != nil {
							outcome = row.mail(t, w, g, p, version)
						} else {
							outcome = w.reply(t, g, p, version, row.text(legal))
						}
						return w.mailAnswer(t, p, outcome, answers[doorAPI].rule != "")
					})
				}
			}
			for _, name := range slices.Sorted(maps.Keys(row.extra)) {
				f := row.extra[name]
				run(name, func(g *intentGame, p *intentPlayer, _ []string, version int) intentAnswer {
					return f(t, w, g, p, version)
				})
			}
			check(t, row.name, row.wantOK, answers, order, true)
			t.Logf("%s: %s", row.name, summary(answers, order, row.absent))
		}
	})

	t.Run("create", func(t *testing.T) {
		for _, row := range createIntents {
			answers := map[string]intentAnswer{}
			var order []string
			for _, door := range intentDoors {
				if why, ok := row.absent[door]; ok {
					t.Logf("%s / %s: not offered: %s", row.name, door, why)
					continue
				}
				g := &intentGame{people: map[string]*intentPlayer{"A": w.person(t, "A", "Ana")}}
				for _, l := range append(slices.Clone(row.invite), row.referee) {
					if _, ok := g.people[l]; !ok && l != "" {
						g.people[l] = w.address(l, l)
					}
				}
				var invite []string
				for _, l := range row.invite {
					invite = append(invite, g.people[l].email)
				}
				referee := ""
				if row.referee != "" {
					referee = g.people[row.referee].email
				}
				events, users := w.countEvents(), w.countUsers(t)
				var a intentAnswer
				switch door {
				case doorAPI:
					body := map[string]any{"game": row.kind, "seats": append([]string{"me"}, invite...), "name": "Ana"}
					if row.turn != "" || row.window != "" || row.weekdays != nil {
						d := map[string]any{}
						if row.turn != "" {
							d["turn"] = row.turn
						}
						if row.window != "" {
							d["window"] = row.window
						}
						if row.weekdays != nil {
							d["weekdays"] = row.weekdays
						}
						body["deadlines"] = d
					}
					if referee != "" {
						body["referee"] = referee
					}
					if row.options != nil {
						body["options"] = row.options
					}
					r := w.call(http.MethodPost, "/v1/games", g.people["A"].token, body)
					a = apiAnswer(r)
					if a.ok {
						var created struct {
							ID string `json:"id"`
						}
						r.decode(t, &created)
						a.game = created.ID
					}
				case doorWeb:
					form := url.Values{"game": {row.kind}, "play": {"on"}, "name": {"Ana"}, "invite": {strings.Join(invite, ", ")},
						"referee": {referee}, "deadline-turn": {row.turn}, "deadline-window": {row.window}, "weekday": row.weekdays}
					for k, v := range row.options {
						form.Set("opt-"+row.kind+"-"+k, v)
					}
					status, location, page := w.form(t, g.people["A"], "/games/new", form)
					a = webAnswer(status, page)
					a.game = strings.TrimPrefix(location, "/games/")
				case doorMail:
					cmd := []string{"new", row.kind, "with"}
					cmd = append(cmd, invite...)
					if row.turn != "" {
						cmd = append(cmd, "turn", row.turn)
					}
					if row.window != "" {
						cmd = append(cmd, "window", row.window)
					}
					if len(row.weekdays) > 0 {
						cmd = append(cmd, "weekdays", strings.Join(row.weekdays, ","))
					}
					for _, k := range slices.Sorted(maps.Keys(row.options)) {
						cmd = append(cmd, k+"="+row.options[k])
					}
					if referee != "" {
						cmd = append(cmd, "referee", referee)
					}
					cmd = append(cmd, "as", "Ana")
					outcome := w.mail(t, g.people["A"], "play@courrier.test", "new game", strings.Join(cmd, " "))
					a = w.mailAnswer(t, g.people["A"], outcome, false)
					if id, ok := strings.CutPrefix(outcome, "created game "); ok {
						a.game = id
					}
				}
				a.message = g.normalise(a.message)
				if a.ok {
					g.id = a.game
					a.events = w.eventsAfter(t, g, 0)
				} else {
					if n := w.countEvents() - events; n != 0 {
						a.events = append(a.events, fmt.Sprintf("(%d events written)", n))
					}
					if n := w.countUsers(t) - users; n != 0 {
						a.events = append(a.events, fmt.Sprintf("(%d accounts created)", n))
					}
				}
				answers[door] = a
				order = append(order, door)
			}
			check(t, row.name, row.wantOK, answers, order, false)
			t.Logf("%s: %s", row.name, summary(answers, order, row.absent))
		}
	})

	t.Run("sign-in", func(t *testing.T) {
		doors := map[string]signInDoor{doorAPI: apiDoor(w.env), doorWeb: webDoor(w.env)}
		for _, row := range signInIntents {
			answers := map[string]intentAnswer{}
			order := []string{doorAPI, doorWeb}
			for _, door := range order {
				answers[door] = row.run(t, w, doors[door])
			}
			absent := map[string]string{doorMail: "no sign-in by mail: the link is mailed and opened on the web; a reply to a signed address proves the address instead"}
			t.Logf("%s / mail: not offered: %s", row.name, absent[doorMail])
			check(t, row.name, row.wantOK, answers, order, false)
			t.Logf("%s: %s", row.name, summary(answers, order, absent))
		}
	})

	for key := range knownDisagreements {
		if !seen[key] {
			t.Errorf("%s: the doors agree now; remove it from knownDisagreements", key)
		}
	}
}

// startedGameOr is an open game when open, else a started one.
func (w *intentWorld) startedGameOr(t *testing.T, open bool) *intentGame {
	t.Helper()
	if open {
		return w.openGame(t)
	}
	return w.startedGame(t)
}

func sameAnswer(a, b intentAnswer, compareRule bool) bool {
	return a.ok == b.ok && a.message == b.message && a.stale == b.stale && (!compareRule || a.rule == b.rule) && slices.Equal(a.events, b.events)
}

// summary is one row of the matrix: each door's answer in short.
func summary(answers map[string]intentAnswer, order []string, absent map[string]string) string {
	var parts []string
	for _, d := range order {
		a := answers[d]
		s := "ok (" + strconv.Itoa(len(a.events)) + " events)"
		if !a.ok {
			s = fmt.Sprintf("refused %q", a.message)
			if a.stale != "" {
				s = "stale " + a.stale
			}
			if a.rule != "" {
				s += " rule " + a.rule
			}
		}
		parts = append(parts, d+": "+s)
	}
	for _, d := range slices.Sorted(maps.Keys(absent)) {
		parts = append(parts, d+": not offered")
	}
	return strings.Join(parts, " | ")
}

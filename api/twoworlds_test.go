package api_test

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// world is one of the two worlds: a whole API on its own database, the
// players' tokens and user ids, the observer's live stream.
type world struct {
	name    string
	e       *env
	seed    games.Seed
	tokens  []string
	users   []string
	emails  []string
	cookie  string // the observer's web session
	game    string
	frames  []sseEvent
	framesM sync.Mutex
	script  []string // what the observer was served, normalised
	mails   []string // the observer's mails, normalised, as of the last compared step
	// asked counts the observer's take-back requests that were granted a
	// hearing (201), refused counts those refused.
	asked, refused int
}

// twoWorldsObserver is the player who must not tell the worlds apart.
const twoWorldsObserver = 1

// twoWorldsSteps bounds the moves of one game.
const twoWorldsSteps = 30

// Two worlds that the observer's seat cannot tell apart — the same public
// history and the same own cards, other hidden cards (gametest.Twin) — are
// played through the real API by the same moves. Everything served to the
// observer (answers' bodies and headers, receipts, errors, the event feed,
// the list, the record, the replay, the live stream and mails) must be the
// same bytes once ids, times and request ids are normalised: the only
// bytes allowed to differ are receipts sealed under the game's secret key
// (archive.ReceiptHead), and each is checked to be exactly that. A receipt
// computed from the log's raw hash, or any other oracle, fails this test.
func TestTwoWorldsServeTheObserverTheSameBytes(t *testing.T) {
	base := catalog.Registry()
	compared, asked, refusedTB := 0, 0, 0
	for gi, kind := range base.IDs() {
		t.Run(kind, func(t *testing.T) {
			seed := games.Seed{0x2, byte(gi), 0x77} //nolint:gosec // G115: a small index
			eng, err := base.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			tw := gametest.NewTwin(eng, "P1", rand.New(rand.NewPCG(11, uint64(gi)))) //nolint:gosec // G115: a small index
			var twinned []games.Engine
			for _, id := range base.IDs() {
				en, _ := base.Get(id)
				if id == kind {
					en = tw
				}
				twinned = append(twinned, en)
			}
			pinned := func(o *envOptions) {
				o.seeds = func() games.Seed { return seed }
				o.poll = 5 * time.Millisecond
			}
			a := &world{name: "A", seed: seed, e: newEnv(t, pinned)}
			b := &world{name: "B", seed: seed, e: newEnv(t, pinned, func(o *envOptions) { o.reg = games.NewRegistry(twinned...) })}
			worlds := []*world{a, b}
			n := eng.Info().MinSeats
			for _, w := range worlds {
				w.setUp(t, kind, n)
			}
			pick := rand.New(rand.NewPCG(uint64(gi), 3)) //nolint:gosec // G115: a small index
			steps, last := 0, 0
			for step := range twoWorldsSteps {
				views := make([][]seatView, 2)
				for k, w := range worlds {
					for i := range n {
						v, r := w.e.view(w.tokens[i], w.game)
						if r.status != http.StatusOK {
							t.Fatalf("world %s: view of P%d: %d %s", w.name, i, r.status, r.body)
						}
						views[k] = append(views[k], v)
					}
				}
				if string(views[0][twoWorldsObserver].View) != string(views[1][twoWorldsObserver].View) ||
					!slices.Equal(views[0][twoWorldsObserver].Legal, views[1][twoWorldsObserver].Legal) {
					partWays(t, a, b, kind, views[0][0].Version)
					break
				}
				last = views[0][0].Version
				for _, w := range worlds {
					w.observe(t, step, last)
				}
				if views[0][0].Game.Status == "finished" {
					break
				}
				var acting []int
				for i, v := range views[0] {
					if len(v.Pending) > 0 && len(v.Legal) > 0 {
						acting = append(acting, i)
					}
				}
				if len(acting) == 0 {
					break
				}
				i := acting[pick.IntN(len(acting))]
				var both []string
				for _, m := range views[0][i].Legal {
					if slices.Contains(views[1][i].Legal, m) {
						both = append(both, m)
					}
				}
				if len(both) == 0 {
					break
				}
				move := both[pick.IntN(len(both))]
				mark := []int{len(a.script), len(b.script)}
				for _, w := range worlds {
					r := w.e.call(http.MethodPost, "/v1/games/"+w.game+"/moves", w.tokens[i],
						map[string]any{"move": move, "expected_version": views[0][i].Version})
					if r.status != http.StatusOK {
						t.Fatalf("world %s: move %q of P%d: %d %s", w.name, move, i, r.status, r.body)
					}
					if i == twoWorldsObserver {
						w.served(t, "POST moves", r)
					}
				}
				for _, w := range worlds {
					w.waitForMail(t)
				}
				va, _ := a.e.view(a.tokens[twoWorldsObserver], a.game)
				vb, _ := b.e.view(b.tokens[twoWorldsObserver], b.game)
				if string(va.View) != string(vb.View) || !slices.Equal(va.Legal, vb.Legal) {
					// A public outcome (a card shown, a challenge lost)
					// tells the worlds apart from here on: what was served
					// for this move is not compared.
					a.script, b.script = a.script[:mark[0]], b.script[:mark[1]]
					partWays(t, a, b, kind, va.Version)
					break
				}
				last = va.Version
				if i != twoWorldsObserver {
					// Take a receipt of the state the other seat's move
					// left, as the attack on raw hashes does: away, back.
					for _, w := range worlds {
						w.served(t, "POST away", w.e.call(http.MethodPost, "/v1/games/"+w.game+"/away", w.tokens[twoWorldsObserver], map[string]any{"for": "1d"}))
						w.waitForMail(t)
						w.served(t, "POST back", w.e.call(http.MethodPost, "/v1/games/"+w.game+"/back", w.tokens[twoWorldsObserver], nil))
					}
				}
				for _, w := range worlds {
					w.waitForMail(t)
					w.mails = w.observerMails(t)
				}
				steps++
			}
			if steps < 5 {
				t.Fatalf("%s: only %d moves were compared", kind, steps)
			}
			for _, w := range worlds {
				w.streamUpTo(last)
			}
			compareWorlds(t, a, b, last)
			if errs := tw.Errors(); len(errs) > 0 {
				t.Fatalf("the twin lost step with the game: %v", errs)
			}
			if tw.Changed() == 0 {
				t.Fatalf("%s: the twin altered nothing, so the worlds were one", kind)
			}
			compared += steps
			asked += a.asked
			refusedTB += a.refused
			t.Logf("%s: %d moves compared, %d events altered in world B, take-backs asked %d and refused %d", kind, steps, tw.Changed(), a.asked, a.refused)
		})
	}
	if compared < 40 {
		t.Fatalf("only %d moves were compared across the games", compared)
	}
	if asked == 0 || refusedTB == 0 {
		t.Fatalf("the observer's take-backs: %d asked, %d refused; want some of each", asked, refusedTB)
	}
}

// setUp signs the players in, creates the game (the creator P0, the others
// joining in order) and opens the observer's live stream.
func (w *world) setUp(t *testing.T, kind string, n int) {
	t.Helper()
	w.e.t = t
	emails := make([]string, n)
	for i := range n {
		emails[i] = fmt.Sprintf("p%d@%s.test", i, kind)
		w.emails = append(w.emails, emails[i])
		w.tokens = append(w.tokens, w.e.signIn(emails[i]))
		var me struct {
			ID string `json:"id"`
		}
		w.e.call(http.MethodGet, "/v1/me", w.tokens[i], nil).decode(t, &me)
		w.users = append(w.users, me.ID)
	}
	_, tok, err := w.e.sessions.Open(t.Context(), w.users[twoWorldsObserver])
	if err != nil {
		t.Fatal(err)
	}
	w.cookie = "courrier_session=" + tok
	r := w.e.call(http.MethodPost, "/v1/games", w.tokens[0], map[string]any{"game": kind, "seats": append([]string{"me"}, emails[1:]...), "name": "P0"})
	if r.status != http.StatusCreated {
		t.Fatalf("world %s: create: %d %s", w.name, r.status, r.body)
	}
	var g struct {
		ID string `json:"id"`
	}
	r.decode(t, &g)
	w.game = g.ID
	w.waitForMail(t) // the invitations go before anyone joins, in both worlds
	stream, stop := openStream(t, w.e.url, w.tokens[twoWorldsObserver], w.game, 0)
	t.Cleanup(stop)
	go func() {
		for ev := range stream {
			w.framesM.Lock()
			w.frames = append(w.frames, ev)
			w.framesM.Unlock()
		}
	}()
	for i := 1; i < n; i++ {
		r := w.e.call(http.MethodPost, "/v1/games/"+w.game+"/join", w.tokens[i], map[string]string{"name": fmt.Sprintf("P%d", i)})
		if r.status != http.StatusOK {
			t.Fatalf("world %s: join: %d %s", w.name, r.status, r.body)
		}
		if i == twoWorldsObserver {
			w.served(t, "POST join", r)
		}
	}
}

// observe reads, as the observer, everything a client may ask of the game
// and of the lobby, plus an illegal and a stale move.
func (w *world) observe(t *testing.T, step, version int) {
	t.Helper()
	tok := w.tokens[twoWorldsObserver]
	get := func(path string) { w.served(t, "GET "+path, w.e.call(http.MethodGet, path, tok, nil)) }
	get("/v1/games/" + w.game)
	get("/v1/games/" + w.game + "/events?since=0")
	get("/v1/games?mine=true")
	get("/v1/games/" + w.game + "/disputes")
	w.page(t, "/games/"+w.game)
	w.page(t, "/games")
	if step%4 == 0 {
		w.page(t, "/games/"+w.game+"/history")
		w.page(t, "/games/"+w.game+"/record")
	}
	if step%4 == 0 {
		// Another player's card: reliability counts what everyone saw.
		w.e.catchUpStandings()
		get("/v1/players/" + w.users[0])
		w.page(t, "/players/"+w.users[0])
	}
	if step%4 == 0 {
		get("/v1/games/" + w.game + "/record")
		get("/v1/games/" + w.game + "/replay")
		get("/v1/games/" + w.game + "/audit")
	}
	// A take-back: asked when the observer moved last and nothing since
	// is fixed, refused otherwise; the refusal names a rule only from
	// public facts, so both worlds answer alike.
	get("/v1/games/" + w.game + "/takebacks")
	tb := w.e.call(http.MethodPost, "/v1/games/"+w.game+"/takebacks", tok, map[string]any{"expected_version": version})
	if tb.status == http.StatusCreated {
		w.asked++
	} else {
		w.refused++
	}
	w.served(t, "POST takebacks", tb)
	w.served(t, "POST moves (nonsense)", w.e.call(http.MethodPost, "/v1/games/"+w.game+"/moves", tok, map[string]any{"move": "xyzzy 42", "expected_version": version}))
	w.served(t, "POST moves (stale)", w.e.call(http.MethodPost, "/v1/games/"+w.game+"/moves", tok, map[string]any{"move": "xyzzy", "expected_version": 1}))
}

// page adds a web page, as the observer's browser gets it, to the script.
func (w *world) page(t *testing.T, path string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, w.e.web+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Cookie", w.cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("world %s: page %s: %d", w.name, path, resp.StatusCode)
	}
	w.served(t, "PAGE "+path, reply{status: resp.StatusCode, header: resp.Header, body: csrfValueRe.ReplaceAll(body, []byte(`${1}CSRF"`))})
}

// served adds an answer to the observer's script, normalised.
func (w *world) served(t *testing.T, what string, r reply) {
	t.Helper()
	var hs []string
	for _, h := range slices.Sorted(maps.Keys(r.header)) {
		switch h {
		case "Date", "Content-Length", "Set-Cookie": // times; lengths follow the bodies; cookies hold session ids
			continue
		}
		hs = append(hs, h+": "+strings.Join(r.header[h], ", "))
	}
	w.script = append(w.script, w.normalise(t, fmt.Sprintf("%s → %d\n%s\n%s", what, r.status, strings.Join(hs, "\n"), r.body)))
}

var (
	timeRe      = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	reqIDRe     = regexp.MustCompile(`("request_id":\s*")[^"]*(")|(X-Request-Id: )\S+`)
	hex64Re     = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	mailTimes   = regexp.MustCompile(`(?m)^(Date): .*$`)
	clockRe     = regexp.MustCompile(`\b\d{1,2}:\d\d\b`)
	csrfValueRe = regexp.MustCompile(`(name="csrf" value=")[^"]*"`)
	tokenRe     = regexp.MustCompile(`[a-z2-7]{16,}`)
	// replyTokenRe is a Reply-To's signed token (it holds its expiry).
	replyTokenRe = regexp.MustCompile(`\+[^@\s]+@`)
)

// normalise replaces what differs between the worlds by construction: the
// game's and the players' ids, times, request ids, and receipts sealed
// under the game's key, each checked to be exactly archive.ReceiptHead of the
// world's own log at some version.
func (w *world) normalise(t *testing.T, s string) string {
	t.Helper()
	s = strings.ReplaceAll(s, w.game, "GAME")
	for i, u := range w.users {
		s = strings.ReplaceAll(s, u, "USER"+strconv.Itoa(i))
	}
	s = timeRe.ReplaceAllString(s, "TIME")
	s = clockRe.ReplaceAllString(s, "HH:MM")
	s = reqIDRe.ReplaceAllString(s, "${1}${3}REQ${2}")
	sealed := w.sealedHeads(t)
	return hex64Re.ReplaceAllStringFunc(s, func(h string) string {
		if v, ok := sealed[h]; ok {
			return "SEALED@" + strconv.Itoa(v)
		}
		return h
	})
}

// sealedHeads maps each receipt the game may serve to its version.
func (w *world) sealedHeads(t *testing.T) map[string]int {
	t.Helper()
	if w.game == "" {
		return nil
	}
	rows, err := w.e.pool.Query(t.Context(), `select version, hash from events where stream = $1`, play.Stream(w.game))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var v int
		var h []byte
		if err := rows.Scan(&v, &h); err != nil {
			t.Fatal(err)
		}
		out[archive.ReceiptHead(w.seed, w.game, h)] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// waitForMail waits until the world's mail queue is empty.
func (w *world) waitForMail(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		if err := w.e.pool.QueryRow(t.Context(), `select count(*) from river_job where queue = 'mail' and state in ('available', 'running', 'retryable', 'pending')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		time.Sleep(3 * time.Millisecond)
	}
	t.Fatalf("world %s: mail still queued after 15 s", w.name)
}

// observerMails returns the observer's mails, oldest first, normalised.
func (w *world) observerMails(t *testing.T) []string {
	t.Helper()
	list := w.e.mailTo(w.emails[twoWorldsObserver])
	var out []string
	for _, m := range list {
		full, err := w.e.dev.Get(t.Context(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The threading headers too: a Message-ID built from a count
		// of what the observer may not see tells the worlds apart.
		text := m.Subject + "\n" + notify.HeaderLines(full.Raw, "Message-Id", "In-Reply-To", "References", "Reply-To") + notify.TextOf(full.Raw)
		text = mailTimes.ReplaceAllString(text, "$1: X")
		text = replyTokenRe.ReplaceAllString(text, "+TOKEN@")
		text = tokenRe.ReplaceAllString(w.normalise(t, text), "TOKEN")
		out = append(out, text)
	}
	sort.Strings(out)
	return out
}

// streamUpTo waits briefly for the live stream to reach version last and
// adds its frames up to it to the script.
func (w *world) streamUpTo(last int) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		w.framesM.Lock()
		n := len(w.frames)
		reached := false
		if n > 0 {
			v, err := strconv.Atoi(w.frames[n-1].id)
			reached = err == nil && v >= last
		}
		w.framesM.Unlock()
		if reached {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.framesM.Lock()
	defer w.framesM.Unlock()
	for _, f := range w.frames {
		if v, err := strconv.Atoi(f.id); err == nil && v <= last {
			w.script = append(w.script, w.normalise(w.e.t, "SSE "+f.id+" "+f.event+" "+f.data))
		}
	}
}

// compareWorlds fails at the first byte served differently.
func compareWorlds(t *testing.T, a, b *world, last int) {
	t.Helper()
	if len(a.script) != len(b.script) {
		t.Errorf("the observer was served %d answers in world A, %d in world B (up to version %d)", len(a.script), len(b.script), last)
	}
	for i := range min(len(a.script), len(b.script)) {
		if a.script[i] != b.script[i] {
			t.Fatalf("answer %d to the observer tells the worlds apart:\nworld A:\n%s\nworld B:\n%s", i, a.script[i], b.script[i])
		}
	}
	if !slices.Equal(a.mails, b.mails) {
		for i := range min(len(a.mails), len(b.mails)) {
			if a.mails[i] != b.mails[i] && len(a.mails) == len(b.mails) {
				t.Fatalf("a mail to the observer tells the worlds apart:\nworld A:\n%s\nworld B:\n%s", a.mails[i], b.mails[i])
			}
		}
		subjects := func(ms []string) string {
			var out []string
			for _, m := range ms {
				out = append(out, m[:strings.IndexByte(m, '\n')])
			}
			return strings.Join(out, "\n")
		}
		t.Fatalf("the observer got %d mails in world A, %d in world B:\n%s\n\n%s", len(a.mails), len(b.mails), subjects(a.mails), subjects(b.mails))
	}
}

// partWays checks, where the observer's view or moves first differ between
// the worlds, that the observer was also told something different: a view
// that differs while every event served to the seat is the same depends on
// what the seat may not see.
func partWays(t *testing.T, a, b *world, kind string, version int) {
	t.Helper()
	feed := func(w *world) string {
		r := w.e.call(http.MethodGet, "/v1/games/"+w.game+"/events?since=0", w.tokens[twoWorldsObserver], nil)
		return w.normalise(t, string(r.body))
	}
	if feed(a) == feed(b) {
		va, _ := a.e.view(a.tokens[twoWorldsObserver], a.game)
		vb, _ := b.e.view(b.tokens[twoWorldsObserver], b.game)
		t.Fatalf("%s at version %d: the observer was told the same events in both worlds, yet is shown\n%s\nin one and\n%s\nin the other", kind, version, va.View, vb.View)
	}
	t.Logf("%s: the worlds part at version %d, as a public outcome tells them apart", kind, version)
}

package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// talkTable is a started three-player Coup game of one env, with press as
// given: its id, each player's token and each token's seat.
type talkTable struct {
	game   string
	tokens []string
	seats  []int
}

// newTalkTable signs three players in (p0 creates and plays), creates the
// game with opts and joins the others.
func newTalkTable(t *testing.T, e *env, tag string, opts map[string]string) talkTable {
	t.Helper()
	tt := talkTable{}
	var emails []string
	for i := range 3 {
		email := fmt.Sprintf("p%d@%s.test", i, tag)
		emails = append(emails, email)
		tt.tokens = append(tt.tokens, e.signIn(email))
	}
	body := map[string]any{"game": "coup", "seats": []string{"me", emails[1], emails[2]}, "name": "P0"}
	if opts != nil {
		body["options"] = opts
	}
	r := e.call(http.MethodPost, "/v1/games", tt.tokens[0], body)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var g struct {
		ID string `json:"id"`
	}
	r.decode(t, &g)
	tt.game = g.ID
	// The invitations go before anyone joins (the two worlds' mails
	// compare), as in the two-worlds test of moves.
	(&world{name: tag, e: e}).waitForMail(t)
	for i := 1; i < 3; i++ {
		if r := e.call(http.MethodPost, "/v1/games/"+tt.game+"/join", tt.tokens[i], map[string]string{"name": fmt.Sprintf("P%d", i)}); r.status != http.StatusOK {
			t.Fatalf("join: %d %s", r.status, r.body)
		}
	}
	for i := range 3 {
		v, r := e.view(tt.tokens[i], tt.game)
		if r.status != http.StatusOK || v.Seat == nil {
			t.Fatalf("view of p%d: %d %s", i, r.status, r.body)
		}
		tt.seats = append(tt.seats, *v.Seat)
	}
	return tt
}

// apiMessage is a message as the API serves it.
type apiMessage struct {
	ID     string `json:"id"`
	Number int    `json:"number"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Text   string `json:"text"`
	Line   string `json:"line"`
	At     int    `json:"at"`
	Hidden bool   `json:"hidden"`
}

func (e *env) messages(t *testing.T, game, token string) []apiMessage {
	t.Helper()
	r := e.call(http.MethodGet, "/v1/games/"+game+"/messages", token, nil)
	if r.status != http.StatusOK {
		t.Fatalf("messages: %d %s", r.status, r.body)
	}
	var l struct {
		Items []apiMessage `json:"items"`
	}
	r.decode(t, &l)
	return l.Items
}

// A table talks through the API: to the table, privately, and refusals that
// name the problem in the caller's language and write nothing.
func TestTalkByAPI(t *testing.T) {
	e := newEnv(t)
	tt := newTalkTable(t, e, "talk", map[string]string{"press": "private"})
	pub := newTalkTable(t, e, "public", nil)
	before, _ := e.view(tt.tokens[0], tt.game)

	r := e.call(http.MethodPost, "/v1/games/"+tt.game+"/messages", tt.tokens[0], map[string]any{"text": "hello <script>"})
	if r.status != http.StatusCreated {
		t.Fatalf("say: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodPost, "/v1/games/"+tt.game+"/messages", tt.tokens[0], map[string]any{"text": "psst", "to": tt.seats[1]})
	if r.status != http.StatusCreated {
		t.Fatalf("say privately: %d %s", r.status, r.body)
	}
	var private apiMessage
	r.decode(t, &private)
	if private.To != tt.seats[1] || private.From != tt.seats[0] || private.Text != "psst" || private.At != before.Version {
		t.Fatalf("the private message: %+v", private)
	}
	reads := []struct {
		who  int
		want []string
	}{
		{0, []string{"hello <script>", "psst"}},
		{1, []string{"hello <script>", "psst"}},
		{2, []string{"hello <script>"}},
	}
	for _, rd := range reads {
		var got []string
		for _, m := range e.messages(t, tt.game, tt.tokens[rd.who]) {
			got = append(got, m.Text)
		}
		if strings.Join(got, "|") != strings.Join(rd.want, "|") {
			t.Fatalf("p%d reads %q, want %q", rd.who, got, rd.want)
		}
	}
	// The game's feed lists the talk each may read with its events: all
	// of it from the start, and the messages said at the version asked
	// for or later (none after a version still to come).
	for _, rd := range reads {
		for _, since := range []int{0, before.Version, before.Version + 1} {
			var feed struct {
				Messages []apiMessage `json:"messages"`
			}
			r := e.call(http.MethodGet, fmt.Sprintf("/v1/games/%s/events?since=%d", tt.game, since), tt.tokens[rd.who], nil)
			r.decode(t, &feed)
			var got []string
			for _, m := range feed.Messages {
				got = append(got, m.Text)
			}
			want := rd.want
			if since > before.Version {
				want = nil
			}
			if r.status != http.StatusOK || strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("p%d's feed since %d: %d, messages %q, want %q", rd.who, since, r.status, got, want)
			}
		}
	}
	// The record and the replay show the talk each may read, at the
	// version it was said.
	for _, rd := range reads {
		rec := e.call(http.MethodGet, "/v1/games/"+tt.game+"/record", tt.tokens[rd.who], nil)
		readsPrivate := len(rd.want) == 2
		if rec.status != http.StatusOK || strings.Contains(string(rec.body), "(private): psst") != readsPrivate ||
			strings.Contains(string(rec.body), "psst") != readsPrivate || !strings.Contains(string(rec.body), " to the table: hello <script>") {
			t.Fatalf("p%d's record:\n%s", rd.who, rec.body)
		}
		rp := e.call(http.MethodGet, fmt.Sprintf("/v1/games/%s/replay?version=%d", tt.game, before.Version), tt.tokens[rd.who], nil)
		var step struct {
			Talk []struct{ Heading, Text string } `json:"talk"`
		}
		rp.decode(t, &step)
		if rp.status != http.StatusOK || len(step.Talk) != len(rd.want) || step.Talk[0].Text != "hello <script>" {
			t.Fatalf("p%d's replay at %d: %d %s", rd.who, before.Version, rp.status, rp.body)
		}
	}
	// The list says what the caller may do.
	var l struct {
		Press  string `json:"press"`
		MaySay bool   `json:"may_say"`
		To     []struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		} `json:"to"`
	}
	e.call(http.MethodGet, "/v1/games/"+tt.game+"/messages", tt.tokens[0], nil).decode(t, &l)
	if l.Press != "private" || !l.MaySay || len(l.To) != 2 || l.To[0].Seat == tt.seats[0] || l.To[1].Seat == tt.seats[0] {
		t.Fatalf("the list's press, may_say and to: %+v", l)
	}
	if after, _ := e.view(tt.tokens[0], tt.game); after.Version != before.Version {
		t.Fatalf("talk moved the game from version %d to %d", before.Version, after.Version)
	}

	refusals := []struct {
		name   string
		game   string
		token  string
		body   map[string]any
		lang   string
		status int
		words  string
	}{
		{"empty", tt.game, tt.tokens[0], map[string]any{"text": "  "}, "en", http.StatusBadRequest, "1 to 1000 characters"},
		{"vide, en français", tt.game, tt.tokens[0], map[string]any{"text": ""}, "fr", http.StatusBadRequest, "de 1 à 1000 caractères"},
		{"too long", tt.game, tt.tokens[0], map[string]any{"text": strings.Repeat("a", 1001)}, "en", http.StatusBadRequest, "this one has 1001"},
		{"private where press is public", pub.game, pub.tokens[0], map[string]any{"text": "psst", "to": pub.seats[1]}, "en", http.StatusForbidden, "table messages only"},
		{"someone without a seat", tt.game, pub.tokens[0], map[string]any{"text": "hi"}, "en", http.StatusForbidden, "only the players"},
	}
	for _, rf := range refusals {
		t.Run(rf.name, func(t *testing.T) {
			n := e.countEvents()
			r := e.call(http.MethodPost, "/v1/games/"+rf.game+"/messages", rf.token, rf.body, "Accept-Language", rf.lang)
			if r.status != rf.status || !strings.Contains(r.err().Error.Message, rf.words) {
				t.Fatalf("%d %s, want %d saying %q", r.status, r.body, rf.status, rf.words)
			}
			if e.countEvents() != n {
				t.Fatal("a refused message wrote an event")
			}
		})
	}
	// Nobody outside a running game reads its talk.
	if r := e.call(http.MethodGet, "/v1/games/"+tt.game+"/messages", pub.tokens[0], nil); r.status != http.StatusForbidden {
		t.Fatalf("a stranger reads the talk: %d %s", r.status, r.body)
	}
	// The creator plays, so the game has no referee: nobody hides.
	if r := e.call(http.MethodPost, "/v1/games/"+tt.game+"/messages/"+private.ID+"/hide", tt.tokens[1], map[string]any{"reason": "rude"}); r.status != http.StatusConflict {
		t.Fatalf("hide without a referee: %d %s", r.status, r.body)
	}
	if v, err := events.StreamVersion(t.Context(), e.pool, play.TalkStream(tt.game)); err != nil || v != 2 {
		t.Fatalf("the talk stream is at %d (%v)", v, err)
	}
}

// Two worlds that differ only by private messages between the two other
// seats serve the observer the same bytes: the game, its events, its talk,
// its record and replay, its pages, its live stream and its mails (the
// observer asked for table talk by mail at once).
func TestTalkTwoWorldsServeTheObserverTheSameBytes(t *testing.T) {
	seed := games.Seed{0x3a, 0x1c}
	pinned := func(o *envOptions) {
		o.seeds = func() games.Seed { return seed }
		o.poll = 5 * time.Millisecond
	}
	var worlds []*world
	for wi, name := range []string{"A", "B"} {
		w := &world{name: name, e: newEnv(t, pinned), seed: seed}
		tt := newTalkTable(t, w.e, "worlds", map[string]string{"press": "private"})
		w.game, w.tokens = tt.game, tt.tokens
		for i := range 3 {
			var me struct {
				ID string `json:"id"`
			}
			w.e.call(http.MethodGet, "/v1/me", w.tokens[i], nil).decode(t, &me)
			w.users = append(w.users, me.ID)
			w.emails = append(w.emails, fmt.Sprintf("p%d@worlds.test", i))
		}
		obs := twoWorldsObserver
		if err := auth.NewUsers(w.e.pool).MailPreferences(nil).Set(t.Context(), w.users[obs], "", auth.MailTalk, true); err != nil {
			t.Fatal(err)
		}
		_, tok, err := w.e.sessions.Open(t.Context(), w.users[obs])
		if err != nil {
			t.Fatal(err)
		}
		w.cookie = "courrier_session=" + tok
		v, _ := w.e.view(w.tokens[obs], w.game)
		stream, stop := openStreamAt(t, w.e.url, w.tokens[obs], w.game, strconv.Itoa(v.Version))
		t.Cleanup(stop)
		go func() {
			for ev := range stream {
				w.framesM.Lock()
				w.frames = append(w.frames, ev)
				w.framesM.Unlock()
			}
		}()
		w.waitForMail(t)
		say := func(from int, body map[string]any) {
			if r := w.e.call(http.MethodPost, "/v1/games/"+w.game+"/messages", w.tokens[from], body); r.status != http.StatusCreated {
				t.Fatalf("world %s: say: %d %s", name, r.status, r.body)
			}
			w.waitForMail(t) // each message's mail before the next is said
		}
		say(0, map[string]any{"text": "good luck"})
		if name == "B" {
			say(0, map[string]any{"text": "shall we ally against P1?", "to": tt.seats[2]})
			say(2, map[string]any{"text": "yes", "to": tt.seats[0]})
		}
		say(2, map[string]any{"text": "and to you"})
		w.waitForMail(t)
		tok2 := w.tokens[obs]
		for _, path := range []string{"", "/messages", "/messages?after=1", "/events?since=0", "/record", fmt.Sprintf("/replay?version=%d", v.Version)} {
			w.served(t, "GET "+path, w.e.call(http.MethodGet, "/v1/games/"+w.game+path, tok2, nil))
		}
		w.served(t, "POST say (too long)", w.e.call(http.MethodPost, "/v1/games/"+w.game+"/messages", tok2, map[string]any{"text": strings.Repeat("x", 1001)}))
		w.page(t, "/games/"+w.game)
		w.page(t, fmt.Sprintf("/games/%s/history?version=%d", w.game, v.Version))
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			w.framesM.Lock()
			n := len(w.frames)
			w.framesM.Unlock()
			if n >= 2 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // a frame that should not come would come by now
		w.framesM.Lock()
		for _, f := range w.frames {
			w.script = append(w.script, w.normalise(t, "SSE "+f.id+" "+f.event+" "+f.data))
		}
		w.framesM.Unlock()
		w.mails = w.observerMails(t)
		for i := range w.script {
			// Message ids are random in each world.
			w.script[i] = tokenRe.ReplaceAllString(w.script[i], "ID")
		}
		if v, err := events.StreamVersion(t.Context(), w.e.pool, play.TalkStream(w.game)); err != nil || v != 2+2*wi {
			t.Fatalf("world %s's talk stream is at %d (%v)", name, v, err)
		}
		worlds = append(worlds, w)
	}
	a, b := worlds[0], worlds[1]
	compareWorlds(t, a, b, 0)
	all := strings.Join(a.script, "\n") + strings.Join(a.mails, "\n")
	for _, want := range []string{"SSE ", `"and to you"`, "and to you", "Table talk"} {
		if !strings.Contains(all, want) {
			t.Fatalf("the observer was not served %q at all:\n%s", want, all)
		}
	}
}

// The game's live stream tells new messages to those who may read them
// (the event "message"), and its ids carry the game's version and the
// last message's number, so that Last-Event-ID resumes both.
func TestTalkOnTheLiveStream(t *testing.T) {
	e := newEnv(t)
	tt := newTalkTable(t, e, "live", map[string]string{"press": "private"})
	v, _ := e.view(tt.tokens[2], tt.game)
	third, stop := openStreamAt(t, e.url, tt.tokens[2], tt.game, strconv.Itoa(v.Version))
	defer stop()
	recipient, stop1 := openStreamAt(t, e.url, tt.tokens[1], tt.game, strconv.Itoa(v.Version))
	defer stop1()
	say := func(from int, body map[string]any) {
		t.Helper()
		if r := e.call(http.MethodPost, "/v1/games/"+tt.game+"/messages", tt.tokens[from], body); r.status != http.StatusCreated {
			t.Fatalf("say: %d %s", r.status, r.body)
		}
	}
	say(0, map[string]any{"text": "psst", "to": tt.seats[1]})
	say(0, map[string]any{"text": "hello all"})
	tests := []struct {
		name   string
		stream <-chan sseEvent
		want   []string // texts, in order
		ids    []string
	}{
		{"the private message's recipient", recipient, []string{"psst", "hello all"}, []string{fmt.Sprintf("%d.1", v.Version), fmt.Sprintf("%d.2", v.Version)}},
		{"the third seat", third, []string{"hello all"}, []string{fmt.Sprintf("%d.1", v.Version)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, want := range tc.want {
				ev := next(t, tc.stream, 10*time.Second)
				var m apiMessage
				if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
					t.Fatal(err)
				}
				if ev.event != "message" || m.Text != want || ev.id != tc.ids[i] {
					t.Fatalf("event %d: %+v, want the message %q with id %s", i, ev, want, tc.ids[i])
				}
			}
		})
	}
	// Resumed after the first message: only the second comes again.
	again, stop2 := openStreamAt(t, e.url, tt.tokens[1], tt.game, fmt.Sprintf("%d.1", v.Version))
	defer stop2()
	if ev := next(t, again, 10*time.Second); ev.event != "message" || !strings.Contains(ev.data, `"hello all"`) || ev.id != fmt.Sprintf("%d.2", v.Version) {
		t.Fatalf("resumed: %+v", ev)
	}
	// A move after it carries both in its id.
	legal := e.call(http.MethodGet, "/v1/games/"+tt.game, tt.tokens[0], nil)
	var sv seatView
	legal.decode(t, &sv)
	mover := 0
	if len(sv.Legal) == 0 {
		for i := range tt.tokens {
			if w, _ := e.view(tt.tokens[i], tt.game); len(w.Legal) > 0 {
				mover, sv = i, w
				break
			}
		}
	}
	if r := e.call(http.MethodPost, "/v1/games/"+tt.game+"/moves", tt.tokens[mover], map[string]any{"move": sv.Legal[0], "expected_version": sv.Version}); r.status != http.StatusOK {
		t.Fatalf("move: %d %s", r.status, r.body)
	}
	if ev := next(t, again, 10*time.Second); ev.event == "message" || !strings.HasSuffix(ev.id, ".2") {
		t.Fatalf("the move's event after the talk: %+v", ev)
	}
}

// The referee hides a message through the API: everyone then reads that it
// was hidden and why, in their language; nobody else may hide.
func TestRefereeHidesByAPI(t *testing.T) {
	e := newEnv(t)
	ref := e.signIn("rex@hide.test")
	tokens := []string{e.signIn("p0@hide.test"), e.signIn("p1@hide.test")}
	r := e.call(http.MethodPost, "/v1/games", tokens[0], map[string]any{"game": "coup", "seats": []string{"me", "p1@hide.test"}, "name": "P0", "referee": "rex@hide.test"})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var g struct {
		ID string `json:"id"`
	}
	r.decode(t, &g)
	(&world{name: "hide", e: e}).waitForMail(t)
	if r := e.call(http.MethodPost, "/v1/games/"+g.ID+"/join", tokens[1], map[string]string{"name": "P1"}); r.status != http.StatusOK {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	// Live streams open before anything is said: each gets the messages,
	// then the hiding of the first (the same number, hidden, no text).
	v, _ := e.view(tokens[1], g.ID)
	streams := map[string]<-chan sseEvent{}
	for name, tok := range map[string]string{"the speaker": tokens[0], "the other player": tokens[1]} {
		ch, stop := openStreamAt(t, e.url, tok, g.ID, strconv.Itoa(v.Version))
		defer stop()
		streams[name] = ch
	}
	r = e.call(http.MethodPost, "/v1/games/"+g.ID+"/messages", tokens[0], map[string]any{"text": "something rude"})
	var m apiMessage
	r.decode(t, &m)
	if r := e.call(http.MethodPost, "/v1/games/"+g.ID+"/messages", ref, map[string]any{"text": "play nicely"}); r.status != http.StatusCreated {
		t.Fatalf("the referee says: %d %s", r.status, r.body)
	}
	type wantEvent struct {
		event, text, id string
		number          int
		hidden          bool
	}
	expect := func(want ...wantEvent) {
		t.Helper()
		for name, stream := range streams {
			for i, w := range want {
				ev := next(t, stream, 10*time.Second)
				var got apiMessage
				if err := json.Unmarshal([]byte(ev.data), &got); err != nil {
					t.Fatal(err)
				}
				if ev.event != w.event || ev.id != w.id || got.Text != w.text || got.Number != w.number || got.Hidden != w.hidden {
					t.Fatalf("%s's stream, event %d: %+v, want %+v", name, i, ev, w)
				}
			}
		}
	}
	// Both messages are told before the hiding (a message hidden before
	// its tick is told hidden: its text never goes out).
	expect(wantEvent{"message", "something rude", fmt.Sprintf("%d.1", v.Version), 1, false},
		wantEvent{"message", "play nicely", fmt.Sprintf("%d.2", v.Version), 2, false})
	steps := []struct {
		name   string
		token  string
		reason string
		status int
	}{
		{"a player", tokens[1], "rude", http.StatusForbidden},
		{"no reason", ref, " ", http.StatusBadRequest},
		{"the referee", ref, "rude", http.StatusOK},
		{"again", ref, "rude", http.StatusConflict},
	}
	for _, st := range steps {
		before := e.countEvents()
		r := e.call(http.MethodPost, "/v1/games/"+g.ID+"/messages/"+m.ID+"/hide", st.token, map[string]any{"reason": st.reason})
		if r.status != st.status || (e.countEvents() != before) != (st.status == http.StatusOK) {
			t.Fatalf("%s: %d %s", st.name, r.status, r.body)
		}
	}
	expect(wantEvent{"message_hidden", "", fmt.Sprintf("%d.2", v.Version), 1, true})
	for _, tc := range []struct {
		token, lang, line string
	}{
		{tokens[1], "en", "hidden by the referee: rude"},
		{tokens[0], "fr", "masqué par l’arbitre : rude"}, //nolint:misspell // French
		{ref, "en", "hidden by the referee: rude"},
	} {
		r := e.call(http.MethodGet, "/v1/games/"+g.ID+"/messages", tc.token, nil, "Accept-Language", tc.lang)
		var l struct {
			Items []apiMessage `json:"items"`
		}
		r.decode(t, &l)
		if len(l.Items) != 2 || l.Items[0].Text != "" || l.Items[0].Line != tc.line || strings.Contains(string(r.body), "something rude") {
			t.Fatalf("after the hiding: %s", r.body)
		}
	}
}

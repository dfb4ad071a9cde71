package api_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
)

// mailPrefs is GET /v1/me/mail as the tests read it.
type mailPrefs struct {
	Kinds []struct {
		ID      string `json:"id"`
		PerGame bool   `json:"per_game"`
	} `json:"kinds"`
	AllGames struct {
		Mail map[string]bool `json:"mail"`
	} `json:"all_games"`
	Games   []gameMail `json:"games"`
	Bounced bool       `json:"bounced"`
}

// gameMail is one game of GET /v1/me/mail.
type gameMail struct {
	Game     string          `json:"game"`
	Name     string          `json:"name"`
	Mail     map[string]bool `json:"mail"`
	Settings []struct {
		Kind *string `json:"kind"`
		On   bool    `json:"on"`
	} `json:"settings"`
}

func (e *env) mailPrefs(token string) mailPrefs {
	e.t.Helper()
	r := e.call(http.MethodGet, "/v1/me/mail", token, nil)
	if r.status != http.StatusOK {
		e.t.Fatalf("GET /v1/me/mail: %d %s", r.status, r.body)
	}
	var m mailPrefs
	r.decode(e.t, &m)
	return m
}

// unsubscribeLink waits for a prompt about game to one of addresses and
// returns the path of its one-click List-Unsubscribe link and the address.
func (e *env) unsubscribeLink(game string, addresses ...string) (string, string) {
	e.t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, to := range addresses {
			for _, m := range e.mailTo(to) {
				full, err := e.dev.Get(e.t.Context(), m.ID)
				if err != nil {
					e.t.Fatal(err)
				}
				msg, err := mail.ReadMessage(bytes.NewReader(full.Raw))
				if err != nil {
					e.t.Fatal(err)
				}
				link := strings.Trim(msg.Header.Get("List-Unsubscribe"), "<>")
				if msg.Header.Get("X-Courrier-Kind") == "prompt" && strings.Contains(msg.Header.Get("Subject"), game) && strings.HasPrefix(link, "http://courrier.test/u/") {
					return strings.TrimPrefix(link, "http://courrier.test"), to
				}
			}
		}
	}
	e.t.Fatalf("no prompt about game %s with an unsubscribe link", game)
	return "", ""
}

// TestMailPreferencesAPI: GET /v1/me/mail shows what a game's one-click
// unsubscribe link did, PATCH changes what the mail side asks (auth's
// Wants), and an unknown kind or game is refused naming the kinds.
func TestMailPreferencesAPI(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	tokens := map[string]string{"ana@players.test": ana, "bob@players.test": bob}
	game := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})

	before := e.mailPrefs(ana)
	if len(before.Kinds) != len(auth.MailKinds()) || !before.AllGames.Mail["prompt"] || before.Bounced {
		t.Fatalf("a new player's preferences: %+v", before)
	}
	if i := slices.IndexFunc(before.Games, func(g gameMail) bool { return g.Game == game }); i < 0 ||
		!strings.HasPrefix(before.Games[i].Name, "Coup") || !before.Games[i].Mail["prompt"] || len(before.Games[i].Settings) != 0 {
		t.Fatalf("the game is not listed as Coup with its mail on: %+v", before.Games)
	}

	// The one-click link of the game's mail (RFC 8058's POST).
	path, who := e.unsubscribeLink(game, "ana@players.test", "bob@players.test")
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, strings.NewReader("List-Unsubscribe=One-Click"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	e.mail.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("one-click unsubscribe: %d %s", rec.Code, rec.Body)
	}
	token := tokens[who]
	got := e.mailPrefs(token)
	var seen bool
	for _, g := range got.Games {
		if g.Game != game {
			continue
		}
		seen = true
		if g.Mail["prompt"] || g.Mail["reminder"] || len(g.Settings) != 1 || g.Settings[0].Kind != nil || g.Settings[0].On {
			t.Errorf("after the game's unsubscribe link, GET shows %+v", g)
		}
	}
	if !seen || !got.AllGames.Mail["prompt"] {
		t.Fatalf("after the unsubscribe link: %+v", got)
	}

	// PATCH: the game's prompts back on, reminders off for all games;
	// what the mail side asks follows.
	var me struct {
		ID string `json:"id"`
	}
	e.call(http.MethodGet, "/v1/me", token, nil).decode(t, &me)
	prefs := auth.NewMailPreferences(e.pool, nil)
	r := e.call(http.MethodPatch, "/v1/me/mail", token, map[string]any{"changes": []map[string]any{
		{"game": game, "kind": "prompt", "on": true},
		{"kind": "reminder", "on": false},
	}})
	if r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/me/mail: %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		game, kind string
		want       bool
	}{{game, "prompt", true}, {game, "receipt", false}, {"", "reminder", false}, {"other", "reminder", false}, {"other", "prompt", true}} {
		if on, err := prefs.Wants(t.Context(), me.ID, c.game, c.kind); err != nil || on != c.want {
			t.Errorf("after PATCH, Wants(%q, %q) = %v, %v; want %v", c.game, c.kind, on, err, c.want)
		}
	}
	// null removes a setting: the game follows the settings for all games.
	if r := e.call(http.MethodPatch, "/v1/me/mail", token, map[string]any{"changes": []map[string]any{{"game": game, "on": nil}}}); r.status != http.StatusOK {
		t.Fatalf("PATCH on: null: %d %s", r.status, r.body)
	}
	if on, _ := prefs.Wants(t.Context(), me.ID, game, "receipt"); !on {
		t.Error("the game's receipts still off after its settings were removed")
	}

	// Refusals: 400 in the one error shape, naming the kinds; nothing changes.
	for _, bad := range []map[string]any{
		{"kind": "table_talk", "on": false},
		{"game": "nosuchgame", "on": false},
	} {
		r := e.call(http.MethodPatch, "/v1/me/mail", token, map[string]any{"changes": []map[string]any{{"kind": "prompt", "on": false}, bad}})
		eb := r.err()
		if r.status != http.StatusBadRequest || eb.Error.Code != "malformed" || eb.Error.RequestID == "" || len(eb.Error.Details) != 1 {
			t.Fatalf("PATCH %v: %d %s", bad, r.status, r.body)
		}
		if _, ok := bad["kind"]; ok && !strings.Contains(eb.Error.Message, "prompt, reminder, receipt, game_over, notice, invitation") {
			t.Errorf("the refusal of an unknown kind does not name the kinds: %s", eb.Error.Message)
		}
		if _, ok := bad["game"]; ok && !strings.Contains(eb.Error.Message, `"nosuchgame" is not one of your games`) {
			t.Errorf("the refusal of an unknown game: %s", eb.Error.Message)
		}
	}
	if on, _ := prefs.Wants(t.Context(), me.ID, "", "prompt"); !on {
		t.Error("a refused PATCH changed something")
	}
	if r := e.call(http.MethodPatch, "/v1/me/mail", token, map[string]any{"changes": []map[string]any{{"kind": "prompt"}}}); r.status != http.StatusBadRequest {
		t.Errorf("a change without on: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodGet, "/v1/me/mail", "", nil); r.status != http.StatusUnauthorized {
		t.Errorf("GET /v1/me/mail signed out: %d %s", r.status, r.body)
	}
}

package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// createToken makes an API token with bearer and returns the answer and
// the new token's secret (empty when refused).
func (e *env) createToken(bearer, name string) (reply, string) {
	e.t.Helper()
	r := e.call(http.MethodPost, "/v1/tokens", bearer, map[string]string{"name": name})
	var created struct {
		Secret string `json:"secret"`
	}
	if r.status == http.StatusCreated {
		r.decode(e.t, &created)
	}
	return r, created.Secret
}

// Only a signed-in session creates API tokens: an API token asking for
// another is refused with a 403 in the one error shape, so a leaked token
// cannot mint tokens that would outlive its revocation.
func TestOnlyASessionCreatesAPITokens(t *testing.T) {
	e := newEnv(t)
	ana := e.signIn("ana@players.test")
	r, bot := e.createToken(ana, "my bot")
	if r.status != http.StatusCreated || bot == "" {
		t.Fatalf("a session creates a token: %d %s", r.status, r.body)
	}
	for _, tc := range []struct {
		name   string
		bearer string
		status int
		code   string
	}{
		{"a session", ana, http.StatusCreated, ""},
		{"an API token", bot, http.StatusForbidden, "forbidden"},
		{"no token", "", http.StatusUnauthorized, "unauthenticated"},
	} {
		r, secret := e.createToken(tc.bearer, "child of "+tc.name)
		if r.status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, r.status, r.body, tc.status)
			continue
		}
		if tc.code == "" {
			if secret == "" {
				t.Errorf("%s: no secret", tc.name)
			}
			continue
		}
		eb := r.err()
		if eb.Error.Code != tc.code || eb.Error.Message == "" || eb.Error.RequestID == "" || secret != "" {
			t.Errorf("%s: not a %s error in the one shape: %s", tc.name, tc.code, r.body)
		}
		if tc.code == "forbidden" && !strings.Contains(eb.Error.Message, "session") {
			t.Errorf("%s: the refusal does not say a session is needed: %s", tc.name, eb.Error.Message)
		}
	}
	var list struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
	}
	e.call(http.MethodGet, "/v1/tokens", ana, nil).decode(t, &list)
	if len(list.Items) != 2 {
		t.Fatalf("ana has %d tokens, want 2 (the bot's and the session's second): %+v", len(list.Items), list.Items)
	}
}

// Signing out ends a session on the server at once, and signing out
// everywhere ends every session of the account; other accounts' sessions
// and the account's API tokens stay. Only a session signs out.
func TestSignOutEndsSessionsOnTheServer(t *testing.T) {
	e := newEnv(t)
	laptop := e.signIn("ana@players.test")
	phone := e.signIn("ana@players.test")
	script := e.signIn("ana@players.test")
	bob := e.signIn("bob@players.test")
	_, bot := e.createToken(laptop, "my bot")

	type want map[string]int
	check := func(step string, w want) {
		t.Helper()
		for _, tc := range []struct{ name, bearer string }{
			{"laptop", laptop}, {"phone", phone}, {"script", script}, {"bob", bob}, {"bot", bot},
		} {
			r := e.call(http.MethodGet, "/v1/me", tc.bearer, nil)
			if r.status != w[tc.name] {
				t.Errorf("%s: %s's token: %d %s, want %d", step, tc.name, r.status, r.body, w[tc.name])
			}
			if r.status == http.StatusUnauthorized && !strings.Contains(r.err().Error.Message, "signed out") {
				t.Errorf("%s: %s's refusal does not say it was signed out: %s", step, tc.name, r.body)
			}
		}
	}
	ok, out := http.StatusOK, http.StatusUnauthorized
	check("signed in", want{"laptop": ok, "phone": ok, "script": ok, "bob": ok, "bot": ok})

	for _, path := range []string{"/v1/auth/logout", "/v1/auth/logout-everywhere"} {
		r := e.call(http.MethodPost, path, bot, nil)
		if r.status != http.StatusForbidden || r.err().Error.Code != "forbidden" || r.err().Error.RequestID == "" {
			t.Fatalf("%s with an API token: %d %s", path, r.status, r.body)
		}
	}
	check("an API token tried to sign out", want{"laptop": ok, "phone": ok, "script": ok, "bob": ok, "bot": ok})

	if r := e.call(http.MethodPost, "/v1/auth/logout", phone, nil); r.status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", r.status, r.body)
	}
	check("the phone signed out", want{"laptop": ok, "phone": out, "script": ok, "bob": ok, "bot": ok})
	if r := e.call(http.MethodPost, "/v1/auth/logout", phone, nil); r.status != http.StatusUnauthorized {
		t.Fatalf("sign out twice: %d %s", r.status, r.body)
	}

	if r := e.call(http.MethodPost, "/v1/auth/logout-everywhere", laptop, nil); r.status != http.StatusNoContent {
		t.Fatalf("sign out everywhere: %d %s", r.status, r.body)
	}
	check("signed out everywhere", want{"laptop": out, "phone": out, "script": out, "bob": ok, "bot": ok})

	again := e.signIn("ana@players.test")
	if r := e.call(http.MethodGet, "/v1/me", again, nil); r.status != http.StatusOK {
		t.Fatalf("signing in again after signing out everywhere: %d %s", r.status, r.body)
	}
}

package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A sign-in link opens a page that changes nothing until its button is
// pressed (mail scanners follow links), works once, and no job row keeps
// its secret.
func TestSignInLinkIsConfirmedByPostAndWorksOnce(t *testing.T) {
	e := newEnv(t)
	email := "ana@players.test"
	r := e.call(http.MethodPost, "/v1/auth/login", "", map[string]string{"email": email, "name": "Ana"})
	if r.status != http.StatusAccepted {
		t.Fatalf("login: %d %s", r.status, r.body)
	}
	secret := e.waitLink(email, 0)
	var inJobs int
	if err := e.pool.QueryRow(t.Context(), `select count(*) from river_job where args::text like '%' || $1 || '%'`, secret).Scan(&inJobs); err != nil {
		t.Fatal(err)
	}
	if inJobs != 0 {
		t.Fatal("the sign-in link's secret is stored in a job row")
	}
	// The link's page is the web's (web/): a script exchanges the link's
	// token for a session.
	r = e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": secret})
	var session struct {
		Token string `json:"token"`
	}
	r.decode(t, &session)
	var me struct {
		Email string `json:"email"`
		Name  string `json:"name"`
	}
	r = e.call(http.MethodGet, "/v1/me", session.Token, nil)
	r.decode(t, &me)
	if r.status != http.StatusOK || me.Email != email || me.Name != "Ana" {
		t.Fatalf("me with the link's session: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": secret})
	if r.status != http.StatusUnauthorized || !strings.Contains(r.err().Error.Message, "already used") {
		t.Fatalf("the link's token a second time: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": "abcdefgh"})
	if r.status != http.StatusUnauthorized {
		t.Fatalf("an unknown link: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodPost, "/v1/auth/login", "", map[string]string{"email": "not an address"})
	if r.status != http.StatusBadRequest {
		t.Fatalf("login with a bad address: %d %s", r.status, r.body)
	}
}

// A bot's personal API token works like a session until it is revoked.
func TestAPITokensWorkUntilRevoked(t *testing.T) {
	e := newEnv(t)
	ana := e.signIn("ana@players.test")
	r := e.call(http.MethodPost, "/v1/tokens", ana, map[string]string{"name": "my bot"})
	if r.status != http.StatusCreated {
		t.Fatalf("create a token: %d %s", r.status, r.body)
	}
	var created struct {
		Token struct {
			ID string `json:"id"`
		} `json:"token"`
		Secret string `json:"secret"`
	}
	r.decode(t, &created)
	if r := e.call(http.MethodGet, "/v1/me", created.Secret, nil); r.status != http.StatusOK {
		t.Fatalf("me with the API token: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodGet, "/v1/tokens", ana, nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), created.Token.ID) || strings.Contains(string(r.body), created.Secret) {
		t.Fatalf("list tokens: %d %s", r.status, r.body)
	}
	bob := e.signIn("bob@players.test")
	if r := e.call(http.MethodDelete, "/v1/tokens/"+created.Token.ID, bob, nil); r.status != http.StatusNotFound {
		t.Fatalf("bob revokes ana's token: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodDelete, "/v1/tokens/"+url.PathEscape(created.Token.ID), ana, nil); r.status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodGet, "/v1/me", created.Secret, nil); r.status != http.StatusUnauthorized {
		t.Fatalf("me with a revoked token: %d %s", r.status, r.body)
	}
}

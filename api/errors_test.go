package api_test

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// forge signs claims for user the ways an attacker would try.
func forge(t *testing.T, user, how string) string {
	t.Helper()
	now := time.Now()
	claims := jwt.MapClaims{"sub": user, "iss": "courrier", "aud": []string{"courrier-api"}, "purpose": "session",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	switch how {
	case "alg none":
		tok := jwt.NewWithClaims(jwt.SigningMethodNone, claims)
		tok.Header["kid"] = jwtKey.ID
		s, err := tok.SignedString(jwt.UnsafeAllowNoneSignatureType)
		if err != nil {
			t.Fatal(err)
		}
		return s
	case "RS256":
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
		tok.Header["kid"] = jwtKey.ID
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	case "unknown kid", "wrong key", "expired", "login purpose":
		secret, kid := jwtKey.Secret, jwtKey.ID
		switch how {
		case "unknown kid":
			kid = "20990101T000000Z-nokey0"
		case "wrong key":
			secret = []byte(strings.Repeat("x", 32))
		case "expired":
			claims["iat"], claims["exp"] = now.Add(-3*time.Hour).Unix(), now.Add(-2*time.Hour).Unix()
		case "login purpose":
			claims["purpose"] = "login"
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
		tok.Header["kid"] = kid
		s, err := tok.SignedString(secret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Fatalf("no forgery %q", how)
	return ""
}

// Every error of the API has its status and code, says what is wrong in
// words, carries the request id, and writes no event.
func TestErrorsAreClearAndWriteNothing(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	zoe := e.signIn("zoe@players.test")
	anaToken, bobToken := ana, bob
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	v, _ := e.view(ana, id)
	if len(v.Pending) == 0 {
		v, _ = e.view(bob, id)
		ana = bob
	}
	mover := ana
	// In a Coyote game of three, two seats wait while one bids.
	cy := e.newGame("coyote", anaToken, map[string]string{"bob@players.test": bobToken, "zoe@players.test": zoe})
	idle := ""
	var cyVersion int
	for _, tok := range []string{anaToken, bobToken, zoe} {
		if cv, _ := e.view(tok, cy); len(cv.Pending) == 0 {
			idle, cyVersion = tok, cv.Version
		}
	}
	if idle == "" {
		t.Fatal("no seat of the coyote game is idle")
	}
	var me struct {
		ID string `json:"id"`
	}
	e.call(http.MethodGet, "/v1/me", mover, nil).decode(t, &me)
	movePath := "/v1/games/" + id + "/moves"
	good := map[string]any{"move": v.Legal[0], "expected_version": v.Version}

	cases := []struct {
		name, method, path, token string
		body                      any
		headers                   []string
		status                    int
		code                      string
		says                      string
	}{
		{"malformed JSON", http.MethodPost, movePath, mover, `{"move": "income", `, nil, 400, "malformed", "JSON"},
		{"trailing data", http.MethodPost, movePath, mover, `{"move": "income", "expected_version": 1} {}`, nil, 400, "malformed", ""},
		{"an unknown field", http.MethodPost, movePath, mover, map[string]any{"move": "income", "expected_version": v.Version, "seat": 0}, nil, 400, "malformed", "seat"},
		{"no expected_version", http.MethodPost, movePath, mover, map[string]any{"move": "income"}, nil, 400, "malformed", "expected_version"},
		{"a version of the wrong type", http.MethodPost, movePath, mover, map[string]any{"move": "income", "expected_version": "3"}, nil, 400, "malformed", "expected_version"},
		{"not JSON", http.MethodPost, movePath, mover, "move=income", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "unsupported_media_type", "application/json"},
		{"no token", http.MethodPost, movePath, "", good, nil, 401, "unauthenticated", "sign in"},
		{"a garbled token", http.MethodPost, movePath, "not-a-token", good, nil, 401, "unauthenticated", ""},
		{"alg none", http.MethodPost, movePath, forge(t, me.ID, "alg none"), good, nil, 401, "unauthenticated", ""},
		{"an RS256 token (HS/RS swap)", http.MethodPost, movePath, forge(t, me.ID, "RS256"), good, nil, 401, "unauthenticated", ""},
		{"an unknown kid", http.MethodPost, movePath, forge(t, me.ID, "unknown kid"), good, nil, 401, "unauthenticated", ""},
		{"a token signed with another key", http.MethodPost, movePath, forge(t, me.ID, "wrong key"), good, nil, 401, "unauthenticated", ""},
		{"an expired token", http.MethodPost, movePath, forge(t, me.ID, "expired"), good, nil, 401, "unauthenticated", "expired"},
		{"a token for another purpose", http.MethodPost, movePath, forge(t, me.ID, "login purpose"), good, nil, 401, "unauthenticated", ""},
		{"a revoked-looking API token", http.MethodPost, movePath, "courrier_abc_def", good, nil, 401, "unauthenticated", ""},
		{"not your game", http.MethodPost, movePath, zoe, good, nil, 403, "forbidden", ""},
		{"not your game's view", http.MethodGet, "/v1/games/" + id, zoe, nil, nil, 403, "forbidden", "not your game"},
		{"not your game's events", http.MethodGet, "/v1/games/" + id + "/events", zoe, nil, nil, 403, "forbidden", ""},
		{"an unknown game", http.MethodPost, "/v1/games/nosuchgame/moves", mover, good, nil, 404, "not_found", "nosuchgame"},
		{"an unknown route", http.MethodGet, "/v1/nothing", mover, nil, nil, 404, "not_found", ""},
		{"a stale version", http.MethodPost, movePath, mover, map[string]any{"move": v.Legal[0], "expected_version": v.Version - 1}, nil, 409, "stale_version", "moved on"},
		{"a version not reached yet", http.MethodPost, movePath, mover, map[string]any{"move": v.Legal[0], "expected_version": v.Version + 50}, nil, 409, "stale_version", "is only at version"},
		{"not your turn", http.MethodPost, "/v1/games/" + cy + "/moves", idle, map[string]any{"move": "bid 1", "expected_version": cyVersion}, nil, 422, "illegal_move", ""},
		{"too large", http.MethodPost, movePath, mover, `{"move": "` + strings.Repeat("x", 100<<10) + `", "expected_version": 1}`, nil, 413, "too_large", ""},
		{"an illegal move", http.MethodPost, movePath, mover, map[string]any{"move": "assassinate 9", "expected_version": v.Version}, nil, 422, "illegal_move", ""},
		{"a number beyond the list", http.MethodPost, movePath, mover, map[string]any{"move": "99", "expected_version": v.Version}, nil, 400, "malformed", "99"},
		{"an unknown game kind", http.MethodPost, "/v1/games", mover, map[string]any{"game": "chess"}, nil, 400, "malformed", "chess"},
		{"a bad invitee", http.MethodPost, "/v1/games", mover, map[string]any{"game": "coup", "seats": []string{"me", "not an address"}}, nil, 400, "malformed", "invitee's address"},
		{"a bad deadline", http.MethodPost, "/v1/games", mover, map[string]any{"game": "coup", "deadlines": map[string]string{"turn": "soon"}}, nil, 400, "malformed", "turn deadline"},
		{"a day that is no weekday", http.MethodPost, "/v1/games", mover, map[string]any{"game": "coup", "deadlines": map[string]any{"weekdays": []string{"someday"}}}, nil, 400, "malformed", "someday"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			before := e.countEvents()
			r := e.call(tc.method, tc.path, tc.token, tc.body, tc.headers...)
			got := r.err()
			if r.status != tc.status || got.Error.Code != tc.code {
				t.Fatalf("%d %s, want %d %s:\n%s", r.status, got.Error.Code, tc.status, tc.code, r.body)
			}
			if got.Error.Message == "" || got.Error.RequestID == "" || r.header.Get("X-Request-Id") != got.Error.RequestID {
				t.Errorf("message %q, request id %q (header %q)", got.Error.Message, got.Error.RequestID, r.header.Get("X-Request-Id"))
			}
			if tc.says != "" && !strings.Contains(strings.ToLower(got.Error.Message+" "+strings.Join(got.Error.Details, " ")), strings.ToLower(tc.says)) {
				t.Errorf("the message %q does not mention %q", got.Error.Message, tc.says)
			}
			if r.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Error("a 401 without WWW-Authenticate")
			}
			if tc.code == "illegal_move" && got.Error.Rule == "" {
				t.Errorf("an illegal move names no rule: %s", r.body)
			}
			if tc.code == "stale_version" && (got.Error.Version == nil || *got.Error.Version != v.Version) {
				t.Errorf("a stale move does not give the current version %d: %s", v.Version, r.body)
			}
			if n := e.countEvents(); n != before {
				t.Fatalf("%d events written", n-before)
			}
		})
	}
	e.t = t

	// The good move still plays: nothing above changed the game.
	if r := e.call(http.MethodPost, movePath, mover, good); r.status != http.StatusOK {
		t.Fatalf("the good move after the refusals: %d %s", r.status, r.body)
	}
}

func TestRateLimitsPerUserAndPerAddress(t *testing.T) {
	t.Run("per user", func(t *testing.T) {
		e := newEnv(t, func(o *envOptions) { o.perUser = rate.Limit(2) })
		ana := e.signIn("ana@players.test")
		limited := 0
		for range 20 {
			r := e.call(http.MethodGet, "/v1/me", ana, nil)
			if r.status == http.StatusTooManyRequests {
				limited++
				if r.err().Error.Code != "rate_limited" || r.header.Get("Retry-After") == "" {
					t.Fatalf("a 429: %s %v", r.body, r.header)
				}
			}
		}
		if limited == 0 {
			t.Fatal("20 quick requests of one user at 2/s were all answered")
		}
	})
	t.Run("per address", func(t *testing.T) {
		e := newEnv(t, func(o *envOptions) { o.perAddress = rate.Limit(2) })
		limited := 0
		for range 20 {
			if r := e.call(http.MethodGet, "/v1/catalog", "", nil); r.status == http.StatusTooManyRequests {
				limited++
			}
		}
		if limited == 0 {
			t.Fatal("20 quick requests from one address at 2/s were all answered")
		}
	})
}

func TestSecurityHeadersAndNoCORS(t *testing.T) {
	e := newEnv(t)
	r := e.call(http.MethodGet, "/v1/catalog", "", nil, "Origin", "https://evil.example")
	for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Content-Security-Policy", "Referrer-Policy"} {
		if r.header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	for k := range r.header {
		if strings.HasPrefix(strings.ToLower(k), "access-control-") {
			t.Errorf("CORS is on: %s", k)
		}
	}
}

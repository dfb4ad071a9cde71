package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// serverRequestID is the shape of the ids the server makes: crypto/rand's
// Text, 26 characters of base32.
var serverRequestID = regexp.MustCompile(`^[A-Z2-7]{26}$`)

// Only the server writes provenance: whatever X-Request-Id a client sends
// (900 KB, bytes that are no id, or a good id), the events its request
// writes keep the server's id only, the answer's X-Request-Id is the
// server's, and a client's id comes back as X-Client-Request-Id only when
// it is a valid one.
func TestTheLogKeepsTheServersRequestIDOnly(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})

	huge := strings.Repeat("x", 900<<10)
	cases := []struct {
		name, sent string
		echoed     bool // the answer's X-Client-Request-Id is what was sent
	}{
		{"none", "", false},
		{"900 KB", huge, false},
		{"65 characters", strings.Repeat("a", 65), false},
		{"a space", "abc def", false},
		{"markup", "<script>alert(1)</script>", false},
		{"a quote and a slash", `a"b/c`, false},
		{"non-ASCII", "réquête", false},
		{"a UUID", "3f2b8c1e-6a7d-4e0f-9b2a-1c3d5e7f9a0b", true},
		{"64 characters of every kind", strings.Repeat("aZ9._:-", 9) + "a", true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			var headers []string
			if tc.sent != "" {
				headers = []string{"X-Request-Id", tc.sent}
			}
			before := e.lastPosition()
			r := e.writeSomething(id, ana, bob, i, headers)
			rid := r.header.Get("X-Request-Id")
			if !serverRequestID.MatchString(rid) {
				t.Errorf("the answer's X-Request-Id %.80q is not one the server makes", rid)
			}
			if got := r.header.Get("X-Client-Request-Id"); tc.echoed && got != tc.sent || !tc.echoed && got != "" {
				t.Errorf("X-Client-Request-Id %.80q for %.80q sent", got, tc.sent)
			}
			metas := e.metasAfter(before)
			if len(metas) == 0 {
				t.Fatalf("the request wrote no event: %d %s", r.status, r.body)
			}
			for _, raw := range metas {
				var m map[string]any
				if err := json.Unmarshal([]byte(raw), &m); err != nil {
					t.Fatal(err)
				}
				if m["request_id"] != rid {
					t.Errorf("the event's meta has request id %.80q, the answer %q", m["request_id"], rid)
				}
				if len(raw) > 512 {
					t.Errorf("the event's meta is %d bytes: %.200s", len(raw), raw)
				}
				if tc.sent != "" && strings.Contains(raw, tc.sent) {
					t.Errorf("the event's meta holds the client's id: %.200s", raw)
				}
			}
		})
	}
	e.t = t

	// An error's request_id is the server's too, and two requests never
	// share one.
	r1 := e.call(http.MethodGet, "/v1/games/nosuchgame", ana, nil, "X-Request-Id", "mine")
	r2 := e.call(http.MethodGet, "/v1/games/nosuchgame", ana, nil, "X-Request-Id", "mine")
	for _, r := range []reply{r1, r2} {
		if got := r.err().Error.RequestID; got != r.header.Get("X-Request-Id") || !serverRequestID.MatchString(got) {
			t.Errorf("an error's request_id %q, header %q", got, r.header.Get("X-Request-Id"))
		}
		if r.header.Get("X-Client-Request-Id") != "mine" {
			t.Errorf("a valid client id is not echoed: %v", r.header)
		}
	}
	if r1.header.Get("X-Request-Id") == r2.header.Get("X-Request-Id") {
		t.Error("two requests have one request id")
	}
}

// writeSomething makes a request that writes events in game id: for an
// even i a move by whoever is to act, else an absence (or, for one who is
// away, the return).
func (e *env) writeSomething(id, ana, bob string, i int, headers []string) reply {
	e.t.Helper()
	if i%2 == 0 {
		for _, tok := range []string{ana, bob} {
			if v, _ := e.view(tok, id); len(v.Pending) > 0 && len(v.Legal) > 0 {
				r := e.call(http.MethodPost, "/v1/games/"+id+"/moves", tok, map[string]any{"move": v.Legal[0], "expected_version": v.Version}, headers...)
				if r.status != http.StatusOK {
					e.t.Fatalf("move %q: %d %s", v.Legal[0], r.status, r.body)
				}
				return r
			}
		}
		e.t.Fatal("nobody is to act")
	}
	r := e.call(http.MethodPost, "/v1/games/"+id+"/away", ana, map[string]string{"for": "1d"}, headers...)
	if r.status == http.StatusConflict {
		r = e.call(http.MethodPost, "/v1/games/"+id+"/back", ana, nil, headers...)
	}
	if r.status != http.StatusOK {
		e.t.Fatalf("away or back: %d %s", r.status, r.body)
	}
	return r
}

// lastPosition is the position of the log's last event.
func (e *env) lastPosition() int64 {
	e.t.Helper()
	var p int64
	if err := e.pool.QueryRow(e.t.Context(), `select coalesce(max(position), 0) from events`).Scan(&p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// metasAfter reads the meta, as stored, of every event after position p.
func (e *env) metasAfter(p int64) []string {
	e.t.Helper()
	rows, err := e.pool.Query(e.t.Context(), `select meta::text from events where position > $1 order by position`, p)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// A known path asked with a method it does not take answers 405 with
// Allow, in the one error shape; an unknown path stays 404. Neither writes
// anything.
func TestWrongMethodIs405WithAllow(t *testing.T) {
	e := newEnv(t)
	ana := e.signIn("ana@players.test")
	cases := []struct {
		method, path, token string
		status              int
		allow               []string
	}{
		{http.MethodDelete, "/v1/games", ana, 405, []string{"GET", "POST"}},
		{http.MethodDelete, "/v1/games", "", 405, []string{"GET", "POST"}},
		{http.MethodPut, "/v1/games/abc", ana, 405, []string{"GET"}},
		{http.MethodGet, "/v1/games/abc/moves", ana, 405, []string{"POST"}},
		{http.MethodDelete, "/v1/games/abc/disputes/3/ruling", ana, 405, []string{"POST"}},
		{http.MethodDelete, "/v1/me", ana, 405, []string{"GET", "PATCH"}},
		{http.MethodPost, "/v1/catalog", "", 405, []string{"GET"}},
		{http.MethodGet, "/v1/auth/login", "", 405, []string{"POST"}},
		{http.MethodPatch, "/v1/openapi.json", "", 405, []string{"GET"}},
		{http.MethodGet, "/v1/nothing", ana, 404, nil},
		{http.MethodDelete, "/v1/nothing", "", 404, nil},
		{http.MethodGet, "/v1/games/abc/nothing", ana, 404, nil},
		{http.MethodGet, "/v2/games", ana, 404, nil},
	}
	for _, tc := range cases {
		name := tc.method + " " + tc.path
		if tc.token == "" {
			name += " without a token"
		}
		t.Run(name, func(t *testing.T) {
			e.t = t
			before := e.countEvents()
			r := e.call(tc.method, tc.path, tc.token, nil)
			got := r.err()
			code := map[int]string{405: "method_not_allowed", 404: "not_found"}[tc.status]
			if r.status != tc.status || got.Error.Code != code {
				t.Fatalf("%d %s, want %d %s: %s", r.status, got.Error.Code, tc.status, code, r.body)
			}
			if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || got.Error.Message == "" ||
				got.Error.RequestID == "" || got.Error.RequestID != r.header.Get("X-Request-Id") {
				t.Errorf("not the error shape: %v %s", r.header, r.body)
			}
			allow := r.header.Get("Allow")
			if tc.allow == nil && allow != "" {
				t.Errorf("a 404 with Allow: %q", allow)
			}
			methods := strings.Split(allow, ", ")
			for _, m := range tc.allow {
				if !slices.Contains(methods, m) || !strings.Contains(got.Error.Message, m) {
					t.Errorf("Allow %q or the message %q lacks %s", allow, got.Error.Message, m)
				}
			}
			if tc.allow != nil && slices.Contains(methods, tc.method) {
				t.Errorf("Allow %q has the method refused", allow)
			}
			if n := e.countEvents(); n != before {
				t.Fatalf("%d events written", n-before)
			}
		})
	}
	e.t = t
}

package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/api/auth"
)

// What a stranger can send the API before being known: a JSON body and a
// bearer token. Through the real server's validation and authentication
// (no database is reached: nobody is signed in), every answer is a 4xx in
// the one error shape, never a 500 or a panic.
func FuzzRequestBodiesAndTokens(f *testing.F) {
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, time.Now, auth.Key{ID: "20261125-fuzz", Secret: bytes.Repeat([]byte{2}, 32)})
	if err != nil {
		f.Fatal(err)
	}
	sessions := auth.NewSessions(nil, tokens, time.Now) // no token the fuzzer can forge reaches the database
	srv, err := api.New(f.Context(), api.Config{Sessions: sessions, PerUser: -1, PerAddress: -1,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("/v1/games/abcdefghij/moves", `{"move":"bid 3","expected_version":5}`, "")
	f.Add("/v1/games/abcdefghij/moves", `{"move":"bid 3","expected_version":"5"}`, "Bearer x.y.z")
	f.Add("/v1/games", `{"game":"coyote","seats":["me","a@b.c"],"deadlines":{"turn":"2d"}}`, "Bearer eyJhbGciOiJub25lIn0.e30.")
	f.Add("/v1/games/abcdefghij/disputes", `{"version":1,"reason":"x"}`, "Basic abc")
	f.Add("/v1/games", `{"game":`, "Bearer ")
	f.Fuzz(func(t *testing.T, path, body, authorization string) {
		if !strings.HasPrefix(path, "/v1/games") || strings.ContainsAny(path, " \t\r\n%#?") || strings.Contains(authorization, "courrier_") {
			return // the routes and tokens checked without a database
		}
		if u, err := url.ParseRequestURI(path); err != nil || u.Path != path {
			return // not a request line a client can send
		}
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if authorization != "" && !strings.ContainsAny(authorization, "\r\n") {
			req.Header.Set("Authorization", authorization)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code < 400 || rec.Code >= 500 {
			t.Fatalf("POST %s %q (%q): %d %s", path, body, authorization, rec.Code, rec.Body)
		}
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("POST %s: %d, not the error shape: %s", path, rec.Code, rec.Body)
		}
	})
}

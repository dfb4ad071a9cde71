package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/games/gametest"
)

// signInAs signs an address in through its mailed link, sending headers
// with the token exchange (a browser's Accept-Language), and returns a
// session token.
func (e *env) signInAs(email string, headers ...string) string {
	e.t.Helper()
	before := len(e.mailTo(email))
	if r := e.call(http.MethodPost, "/v1/auth/login", "", map[string]string{"email": email}); r.status != http.StatusAccepted {
		e.t.Fatalf("login %s: %d %s", email, r.status, r.body)
	}
	secret := e.waitLink(email, before)
	r := e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": secret}, headers...)
	if r.status != http.StatusOK {
		e.t.Fatalf("token for %s: %d %s", email, r.status, r.body)
	}
	var s struct {
		Token string `json:"token"`
	}
	r.decode(e.t, &s)
	return s.Token
}

// me is GET /v1/me's language: "" for null.
func (e *env) language(token string) string {
	e.t.Helper()
	r := e.call(http.MethodGet, "/v1/me", token, nil)
	var me struct {
		Language *string `json:"language"`
	}
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"language":`) {
		e.t.Fatalf("GET /v1/me: %d %s", r.status, r.body)
	}
	r.decode(e.t, &me)
	if me.Language == nil {
		return ""
	}
	return *me.Language
}

// A player's language: null until chosen, noted from Accept-Language at
// the first sign-in, set by PATCH /v1/me; a language courrier does not
// speak is a 422 that changes nothing, a name beside it included.
func TestMeLanguage(t *testing.T) {
	e := newEnv(t)
	ana := e.signIn("ana@players.test")
	if got := e.language(ana); got != "" {
		t.Fatalf("a new player's language is %q, want null", got)
	}
	// The first sign-in from a French browser notes French: no choice
	// (GET /v1/me shows none), but what the API says to Bob is French.
	bob := e.signInAs("bob@players.test", "Accept-Language", "fr-FR,fr;q=0.9,en;q=0.5")
	spoken := func() string {
		return e.call(http.MethodGet, "/v1/me", bob, nil).header.Get("Content-Language")
	}
	if got, says := e.language(bob), spoken(); got != "" || says != "fr" {
		t.Fatalf("the first sign-in from a French browser: language %q, answers in %q; want none chosen, French", got, says)
	}
	// A later sign-in from another browser keeps it.
	bob = e.signInAs("bob@players.test", "Accept-Language", "en-US")
	if got, says := e.language(bob), spoken(); got != "" || says != "fr" {
		t.Fatalf("a later sign-in: language %q, answers in %q", got, says)
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   string
		says   string
		want   string // ana's language after
	}{
		{"a language courrier does not speak", map[string]any{"language": "de"}, 422, "unsupported_language", `"de"`, ""},
		{"an empty language", map[string]any{"language": ""}, 422, "unsupported_language", "language", ""},
		{"a bad language beside a good name", map[string]any{"language": "klingon", "name": "Neo"}, 422, "unsupported_language", "klingon", ""},
		{"French", map[string]any{"language": "fr"}, 200, "", "", "fr"},
		{"a regional tag", map[string]any{"language": "en-GB"}, 200, "", "", "en"},
		{"French again, in capitals", map[string]any{"language": "FR"}, 200, "", "", "fr"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			r := e.call(http.MethodPatch, "/v1/me", ana, tc.body)
			if r.status != tc.status || r.err().Error.Code != tc.code {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if tc.says != "" && !strings.Contains(r.err().Error.Message, tc.says) {
				t.Fatalf("the message %q does not name %s", r.err().Error.Message, tc.says)
			}
			if got := e.language(ana); got != tc.want {
				t.Fatalf("language %q, want %q", got, tc.want)
			}
			var me struct {
				Name string `json:"name"`
			}
			e.call(http.MethodGet, "/v1/me", ana, nil).decode(t, &me)
			if me.Name == "Neo" {
				t.Fatal("a refused PATCH changed the name")
			}
		})
	}
	e.t = t
	// ana reads French now, whatever her browser says; a refusal says so.
	r := e.call(http.MethodPatch, "/v1/me", ana, map[string]any{"language": "de"}, "Accept-Language", "en")
	if r.header.Get("Content-Language") != "fr" || !strings.Contains(r.err().Error.Message, "n’est pas une langue que courrier parle") {
		t.Fatalf("a French player's refusal: %s %s", r.header.Get("Content-Language"), r.body)
	}
}

// apiError is one refusal as a caller reads it.
type apiError struct {
	status           int
	code, rule, lang string
	message          string
	details          []string
}

func refusalOf(r reply) apiError {
	b := r.err()
	return apiError{status: r.status, code: b.Error.Code, rule: b.Error.Rule, lang: r.header.Get("Content-Language"), message: b.Error.Message, details: b.Error.Details}
}

// The same refusal is said in each caller's language, by setting or by
// Accept-Language (a setting before the header), with the same status,
// code and rule: an illegal move, a stale move, a malformed body, a move
// by someone who does not play, no token at all.
func TestErrorsInTheCallersLanguage(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	zoe := e.signIn("zoe@players.test")
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	mover, other := ana, bob
	v, _ := e.view(ana, id)
	if len(v.Pending) == 0 {
		mover, other = bob, ana
		v, _ = e.view(bob, id)
	}
	path := "/v1/games/" + id + "/moves"
	illegal := map[string]any{"move": "assassinate 9", "expected_version": v.Version}
	stale := map[string]any{"move": v.Legal[0], "expected_version": v.Version + 7}
	malformed := map[string]any{"move": "income"}
	good := map[string]any{"move": v.Legal[0], "expected_version": v.Version}

	type attempt struct {
		token   string
		body    any
		headers []string
	}
	ask := func(a attempt, method string) apiError {
		t.Helper()
		return refusalOf(e.call(method, path, a.token, a.body, a.headers...))
	}
	kinds := []struct {
		name   string
		token  string
		body   any
		french string // what the French message holds
	}{
		{"an illegal move", mover, illegal, ""},
		{"a move against a version to come", mover, stale, "votre coup a été joué contre la version"},
		{"a body without expected_version", mover, malformed, "manque"},
		{"a move by a player not in the game", zoe, good, "vous ne jouez pas dans la partie " + id},
		{"no token", "", good, "connectez-vous d’abord"},
	}
	french := make([]apiError, len(kinds))
	english := make([]apiError, len(kinds))
	for i, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			e.t = t
			english[i] = ask(attempt{token: k.token, body: k.body}, http.MethodPost)
			french[i] = ask(attempt{token: k.token, body: k.body, headers: []string{"Accept-Language", "fr-BE, en;q=0.5"}}, http.MethodPost)
			en, fr := english[i], french[i]
			if en.lang != "en" || fr.lang != "fr" {
				t.Fatalf("Content-Language %q and %q", en.lang, fr.lang)
			}
			if en.status < 400 || en.status != fr.status || en.code != fr.code || en.rule != fr.rule {
				t.Fatalf("English %+v, French %+v", en, fr)
			}
			if en.message == fr.message || !strings.Contains(fr.message, k.french) {
				t.Fatalf("English %q, French %q (want %q in it)", en.message, fr.message, k.french)
			}
			if k.name == "an illegal move" {
				if en.rule == "" || !strings.Contains(fr.message, "le coup permis le plus proche") || !strings.Contains(en.message, "the closest move you can make") {
					t.Fatalf("an illegal move: English %+v, French %+v", en, fr)
				}
			}
		})
	}
	// The same callers with a French setting read French whatever their
	// browser says.
	e.t = t
	for _, tok := range []string{mover, zoe} {
		if r := e.call(http.MethodPatch, "/v1/me", tok, map[string]any{"language": "fr"}); r.status != http.StatusOK {
			t.Fatalf("PATCH /v1/me: %d %s", r.status, r.body)
		}
	}
	for i, k := range kinds {
		if k.token == "" {
			continue
		}
		t.Run(k.name+" by setting", func(t *testing.T) {
			e.t = t
			got := ask(attempt{token: k.token, body: k.body, headers: []string{"Accept-Language", "en-US"}}, http.MethodPost)
			if got.lang != "fr" || got.message != french[i].message || got.code != english[i].code || got.rule != english[i].rule {
				t.Fatalf("by setting %+v, by header %+v", got, french[i])
			}
		})
	}
	e.t = t
	// The move itself still plays: nothing above changed the game.
	if r := e.call(http.MethodPost, path, mover, good); r.status != http.StatusOK {
		t.Fatalf("the good move: %d %s", r.status, r.body)
	}
	_ = other
}

// One table, two languages: what happened in the game is told to a French
// player in French and to an English player in English, in the history,
// the replay and the live stream.
func TestTextsFollowTheCaller(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	if r := e.call(http.MethodPatch, "/v1/me", ana, map[string]any{"language": "fr"}); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/me: %d %s", r.status, r.body)
	}
	id := e.newGame("coyote", ana, map[string]string{"bob@players.test": bob, "cleo@players.test": e.signIn("cleo@players.test")})
	texts := func(token string, headers ...string) ([]string, string) {
		t.Helper()
		r := e.call(http.MethodGet, "/v1/games/"+id+"/events?since=0", token, nil, headers...)
		var list struct {
			Items []struct {
				Text string `json:"text"`
			} `json:"items"`
		}
		if r.status != http.StatusOK {
			t.Fatalf("events: %d %s", r.status, r.body)
		}
		r.decode(t, &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Text)
		}
		return out, r.header.Get("Content-Language")
	}
	fr, frLang := texts(ana)
	en, enLang := texts(bob)
	byHeader, _ := texts(bob, "Accept-Language", "fr")
	if frLang != "fr" || enLang != "en" || len(fr) != len(en) || len(fr) < 4 {
		t.Fatalf("French %s %q, English %s %q", frLang, fr, enLang, en)
	}
	if fr[0] != "La partie a été créée." || en[0] != "The game was created." || byHeader[0] != fr[0] {
		t.Fatalf("the first event: %q, %q, %q", fr[0], en[0], byHeader[0])
	}
	if !strings.Contains(strings.Join(fr, "\n"), "La partie a commencé.") || !strings.Contains(strings.Join(en, "\n"), "The game started.") {
		t.Fatalf("French %q, English %q", fr, en)
	}
	// The replay of one version, in each language.
	for _, c := range []struct {
		token, want string
	}{{ana, "La partie a été créée."}, {bob, "The game was created."}} {
		r := e.call(http.MethodGet, "/v1/games/"+id+"/replay?version=1", c.token, nil)
		var step struct {
			Text string `json:"text"`
		}
		if r.status != http.StatusOK {
			t.Fatalf("replay: %d %s", r.status, r.body)
		}
		r.decode(t, &step)
		if step.Text != c.want {
			t.Fatalf("the replay says %q, want %q", step.Text, c.want)
		}
	}
	// The live stream, in each reader's language.
	for _, c := range []struct {
		token, want string
	}{{ana, "La partie a été créée."}, {bob, "The game was created."}} {
		events, stop := openStream(t, e.url, c.token, id, 0)
		ev := next(t, events, 10*time.Second)
		stop()
		var data struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(ev.data), &data); err != nil || data.Text != c.want {
			t.Fatalf("the stream's first event %s (%v), want the text %q", ev.data, err, c.want)
		}
	}
}

// The rules page follows the caller's Accept-Language where the game has
// a page in that language, and says which it served.
func TestRulesPageInTheCallersLanguage(t *testing.T) {
	e := newEnv(t)
	for _, lang := range games.Languages() {
		r := e.call(http.MethodGet, "/rules/coup", "", nil, "Accept-Language", lang)
		want, err := catalog.RulesPage("coup", lang)
		if err != nil {
			t.Fatal(err)
		}
		english, _ := catalog.RulesPage("coup", "en")
		served := lang
		if want == english {
			served = "en"
		}
		if r.status != http.StatusOK || string(r.body) != want || r.header.Get("Content-Language") != served || r.header.Get("Vary") != "Accept-Language" {
			t.Fatalf("%s: %d, Content-Language %q, Vary %q", lang, r.status, r.header.Get("Content-Language"), r.header.Get("Vary"))
		}
	}
	r := e.call(http.MethodGet, "/rules/chess", "", nil, "Accept-Language", "fr")
	if r.status != http.StatusNotFound || !strings.Contains(r.err().Error.Message, "il n’y a pas de jeu « chess »") {
		t.Fatalf("an unknown game's rules in French: %d %s", r.status, r.body)
	}
}

// apiKey is a key of the API's catalog as its code names it.
var apiKey = regexp.MustCompile(`^(error|validation|type|what|login)\.[a-z_]+$`)

// The API's catalog is complete in every language; every key its code
// names is in it, and it has none the code never names; no French message
// holds an English sentence of it.
func TestAPICatalog(t *testing.T) {
	if err := api.Words().Complete(); err != nil {
		t.Fatal(err)
	}
	used := gametest.KeysInSource(t, ".", apiKey)
	for k := range used {
		if _, ok := api.Words().Patterns("fr", k); !ok {
			t.Errorf("the API's code says %q, which its catalog lacks", k)
		}
	}
	// Every run of the English patterns, even one the French pattern of
	// the same key holds (a pattern left in English, wholly or in part).
	fragments := gametest.OneLanguage(api.Words(), games.English).Foreign("fr")
	for _, k := range api.Words().Keys() {
		if !apiKey.MatchString(k) {
			continue
		}
		if !used[k] && !strings.HasPrefix(k, "type.") { // the types are named as kin-openapi names them
			t.Errorf("the catalog has %q, which the API's code never says", k)
		}
		fr, _ := api.Words().Patterns("fr", k)
		for _, p := range fr {
			lower := strings.Join(strings.Fields(strings.ToLower(p)), " ")
			for _, f := range fragments {
				if strings.Contains(lower, f) {
					t.Errorf("%s: the French %q says %q in English", k, p, f)
				}
			}
		}
	}
}

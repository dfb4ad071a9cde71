package api_test

import (
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
)

// signInDoor is one way in: the API or the pages. Each answer is reduced to
// its status and the problem it shows (empty when none).
type signInDoor struct {
	name string
	// request asks for a sign-in link.
	request func(t *testing.T, email, name string) (int, string)
	// confirm uses a link and returns the session's token when it worked.
	confirm func(t *testing.T, secret string) (status int, problem, token string)
}

var (
	problemRe   = regexp.MustCompile(`<p class="problem" role="alert">([^<]*)</p>`)
	formCSRFRe  = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	okStatusFor = map[string]int{"API": http.StatusAccepted, "pages": http.StatusOK}
)

func apiDoor(e *env) signInDoor {
	return signInDoor{
		name: "API",
		request: func(_ *testing.T, email, name string) (int, string) {
			body := map[string]string{"email": email}
			if name != "" {
				body["name"] = name
			}
			r := e.call(http.MethodPost, "/v1/auth/login", "", body)
			return r.status, r.err().Error.Message
		},
		confirm: func(t *testing.T, secret string) (int, string, string) {
			r := e.call(http.MethodPost, "/v1/auth/token", "", map[string]string{"login_token": secret})
			if r.status != http.StatusOK {
				return r.status, r.err().Error.Message, ""
			}
			var s struct {
				Token string `json:"token"`
			}
			r.decode(t, &s)
			return r.status, "", s.Token
		},
	}
}

// webDoor is the pages, each step in a new browser (a cookie jar) that
// opens a page and sends its form with the page's CSRF token.
func webDoor(e *env) signInDoor {
	// post opens the page at from and sends its form to to, and returns the
	// status and problem of the page that answers and the browser's session
	// cookie.
	post := func(t *testing.T, from, to string, form url.Values) (status int, problem, session string) {
		t.Helper()
		jar, _ := cookiejar.New(nil) // never fails without options
		client := &http.Client{Jar: jar}
		do := func(method, path string, body io.Reader) string {
			t.Helper()
			req, err := http.NewRequestWithContext(t.Context(), method, e.web+path, body)
			if err != nil {
				t.Fatal(err)
			}
			if body != nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			page, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			status = resp.StatusCode
			return string(page)
		}
		m := formCSRFRe.FindStringSubmatch(do(http.MethodGet, from, nil))
		if m == nil {
			t.Fatalf("the page %s has no form", from)
		}
		form.Set("csrf", m[1])
		if m := problemRe.FindStringSubmatch(do(http.MethodPost, to, strings.NewReader(form.Encode()))); m != nil {
			problem = html.UnescapeString(m[1])
		}
		u, _ := url.Parse(e.web) // a test server's URL
		for _, c := range jar.Cookies(u) {
			if c.Name == "courrier_session" {
				session = c.Value
			}
		}
		return status, problem, session
	}
	return signInDoor{
		name: "pages",
		request: func(t *testing.T, email, name string) (int, string) {
			status, problem, _ := post(t, "/", "/signin", url.Values{"email": {email}, "name": {name}})
			return status, problem
		},
		confirm: func(t *testing.T, secret string) (int, string, string) {
			return post(t, "/login/"+secret, "/login/"+secret, url.Values{})
		},
	}
}

// Signing in is one implementation behind both doors: the same account and
// name, a session the API takes, and the same refusals in the same words
// (only the success statuses differ: 202 for the API, a page for the web).
func TestSignInIsTheSameThroughBothDoors(t *testing.T) {
	e := newEnv(t)
	type outcome struct {
		status  int
		problem string
	}
	seen := map[string]map[string]outcome{} // step → door → outcome
	record := func(step, door string, status int, problem string) {
		if seen[step] == nil {
			seen[step] = map[string]outcome{}
		}
		seen[step][door] = outcome{status, problem}
	}
	for _, door := range []signInDoor{apiDoor(e), webDoor(e)} {
		email := "ana." + strings.ToLower(door.name) + "@players.test"
		before := len(e.mailTo(email))
		if status, problem := door.request(t, email, "Ana"); status != okStatusFor[door.name] || problem != "" {
			t.Fatalf("%s: ask for a link: %d %q", door.name, status, problem)
		}
		secret := e.waitLink(email, before)
		status, problem, token := door.confirm(t, secret)
		if status != http.StatusOK || problem != "" || token == "" {
			t.Fatalf("%s: use the link: %d %q (token %q)", door.name, status, problem, token)
		}
		r := e.call(http.MethodGet, "/v1/me", token, nil)
		var me struct {
			Email string `json:"email"`
			Name  string `json:"name"`
		}
		r.decode(t, &me)
		if r.status != http.StatusOK || me.Email != email || me.Name != "Ana" {
			t.Fatalf("%s: the session's account: %d %s", door.name, r.status, r.body)
		}

		status, problem, _ = door.confirm(t, secret)
		record("the link again", door.name, status, problem)
		status, problem, _ = door.confirm(t, auth.LinkSecret(loginKey, 1<<40))
		record("a link of nobody's", door.name, status, problem)
		status, problem = door.request(t, "ana at players.test", "")
		record("not an address", door.name, status, problem)
		status, problem = door.request(t, "bob."+strings.ToLower(door.name)+"@players.test", "Bob\x07")
		record("a name with a control character", door.name, status, problem)
		for range auth.MaxLinksPerHour - 1 {
			if status, problem := door.request(t, email, ""); status != okStatusFor[door.name] {
				t.Fatalf("%s: ask for another link: %d %q", door.name, status, problem)
			}
		}
		status, problem = door.request(t, email, "")
		record("one link too many", door.name, status, problem)
	}
	want := map[string]int{
		"the link again":                  http.StatusUnauthorized,
		"a link of nobody's":              http.StatusUnauthorized,
		"not an address":                  http.StatusBadRequest,
		"a name with a control character": http.StatusBadRequest,
		"one link too many":               http.StatusTooManyRequests,
	}
	for step, status := range want {
		api, pages := seen[step]["API"], seen[step]["pages"]
		if api.status != status || api.problem == "" || api != pages {
			t.Errorf("%s: the API answered %d %q, the pages %d %q; want %d and the same words", step, api.status, api.problem, pages.status, pages.problem, status)
		}
	}
}

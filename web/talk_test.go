package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
)

// A table talks on the game page: to the table and privately, in the
// page's language, escaped; a third player never sees the private message;
// a refused message says why, keeps what was typed, and writes nothing;
// the form needs its CSRF token.
func TestTalkOnTheGamePage(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob, cleo := s.browser(), s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	cleo.signIn("cleo@example.org", "Cleo")
	cleo.accept = "fr"
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"},
		"invite": {"bob@example.org cleo@example.org"}, "press": {"private"}}))[1]
	bob.get("/games/" + id)
	bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}})
	cleo.get("/games/" + id)
	cleo.post("/games/"+id+"/join", url.Values{"name": {"Cleo"}})
	// The form offers each other player by seat.
	ana.get("/games/" + id)
	m := regexp.MustCompile(`<option value="(\d+)">Bob</option>`).FindStringSubmatch(ana.page)
	if m == nil {
		t.Fatalf("the talk box does not offer Bob by seat:\n%s", ana.page)
	}
	bobSeat := m[1]

	steps := []struct {
		name   string
		who    *browser
		form   url.Values
		status int
		shows  string // on the speaker's page after it
	}{
		{"to the table", ana, url.Values{"text": {"good luck <b>all</b>"}}, http.StatusOK, "good luck &lt;b&gt;all&lt;/b&gt;"},
		{"privately", ana, url.Values{"text": {"shall we ally?"}, "to": {bobSeat}}, http.StatusOK, "Ana to Bob (private)"},
		{"privately, by name", cleo, url.Values{"text": {"psst"}, "to": {"bob"}}, http.StatusOK, "Cleo à Bob (en privé)"},
		{"à la table, en français", cleo, url.Values{"text": {"merci"}}, http.StatusOK, "Cleo à la table"},
		{"empty", bob, url.Values{"text": {"  "}}, http.StatusBadRequest, "1 to 1000 characters"},
		{"trop long", cleo, url.Values{"text": {strings.Repeat("x", 1001)}}, http.StatusBadRequest, "de 1 à 1000 caractères"},
		{"to nobody", bob, url.Values{"text": {"hi"}, "to": {"Zed"}}, http.StatusBadRequest, `no player &#34;Zed&#34;`},
		{"to no seat", bob, url.Values{"text": {"hi"}, "to": {"7"}}, http.StatusBadRequest, `no seat 7`},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.who.get("/games/" + id)
			if !strings.Contains(st.who.page, `action="/games/`+id+`/say"`) {
				t.Fatalf("no talk box:\n%s", st.who.page)
			}
			before := s.countEvents()
			st.who.post("/games/"+id+"/say", st.form)
			if st.who.status != st.status || !strings.Contains(st.who.page, st.shows) {
				t.Fatalf("%d, want %d showing %q:\n%s", st.who.status, st.status, st.shows, st.who.page)
			}
			if wrote := s.countEvents() != before; wrote != (st.status == http.StatusOK) {
				t.Fatalf("wrote an event: %v", wrote)
			}
		})
	}
	bob.get("/games/" + id)
	if !strings.Contains(bob.page, "shall we ally?") || !strings.Contains(bob.page, "merci") {
		t.Fatalf("Bob's page lacks a message:\n%s", bob.page)
	}
	cleo.get("/games/" + id)
	if strings.Contains(cleo.page, "shall we ally?") || strings.Contains(cleo.page, "Bob (private)") || !strings.Contains(cleo.page, "good luck") {
		t.Fatalf("Cleo's page:\n%s", cleo.page)
	}
	// The history shows the talk at the version it was said.
	version := versionRe.FindStringSubmatch(bob.page)[1]
	bob.get("/games/" + id + "/history?version=" + version)
	if !strings.Contains(bob.page, `data-testid="step-talk"`) || !strings.Contains(bob.page, "shall we ally?") {
		t.Fatalf("Bob's history at %s:\n%s", version, bob.page)
	}
	cleo.get("/games/" + id + "/history?version=" + version)
	if strings.Contains(cleo.page, "shall we ally?") || !strings.Contains(cleo.page, "merci") {
		t.Fatalf("Cleo's history at %s:\n%s", version, cleo.page)
	}
	// Without the CSRF token: refused, nothing written.
	before := s.countEvents()
	bob.post("/games/"+id+"/say", url.Values{"text": {"hi"}, "csrf": {strings.Repeat("x", 32)}})
	if bob.status != http.StatusForbidden || s.countEvents() != before {
		t.Fatalf("a message without the CSRF token: %d", bob.status)
	}
}

// The settings page turns table talk by mail at once on, for all games.
func TestSettingsTurnTalkMailOn(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana := s.browser()
	ana.signIn("ana@example.org", "Ana")
	user, err := s.users.Ensure(t.Context(), "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	prefs := auth.NewMailPreferences(s.pool, nil)
	for _, tc := range []struct {
		value string
		want  bool
	}{{"on", true}, {"", false}} {
		form := settingsForm(ana.get("/settings"))
		form.Set("all."+auth.MailTalk, tc.value)
		if page := ana.post("/settings", form); ana.status != http.StatusOK || !strings.Contains(page, "Saved.") {
			t.Fatalf("save: %d\n%s", ana.status, page)
		}
		if on, err := prefs.Wants(t.Context(), user.ID, "g1", auth.MailTalk); err != nil || on != tc.want {
			t.Fatalf("all.talk=%q: Wants = %v, %v", tc.value, on, err)
		}
	}
}

// The referee, who holds no seat, reads the whole table talk on the
// history page, talks to the table and hides a message for a reason; the
// players then read that it was hidden, and why. A player may not hide.
func TestRefereeTalksAndHidesOnTheWeb(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob, rex := s.browser(), s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	rex.signIn("rex@example.org", "Rex")
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"},
		"invite": {"bob@example.org"}, "referee": {"rex@example.org"}}))[1]
	bob.get("/games/" + id)
	bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}})
	ana.get("/games/" + id)
	ana.post("/games/"+id+"/say", url.Values{"text": {"something rude"}})

	rex.get("/games/" + id + "/history")
	if !strings.Contains(rex.page, "something rude") || !strings.Contains(rex.page, `action="/games/`+id+`/say"`) {
		t.Fatalf("the referee's history page:\n%s", rex.page)
	}
	hide := regexp.MustCompile(`action="(/games/` + id + `/messages/[a-z2-7]+/hide)"`).FindStringSubmatch(rex.page)
	if hide == nil {
		t.Fatalf("no hide button for the referee:\n%s", rex.page)
	}
	steps := []struct {
		name   string
		who    *browser
		path   string
		form   url.Values
		status int
		shows  string
	}{
		{"a player hides", bob, hide[1], url.Values{"reason": {"I do not like it"}}, http.StatusForbidden, "only the referee"},
		{"the referee, without a reason", rex, hide[1], url.Values{"reason": {""}}, http.StatusBadRequest, "say why you hide the message"},
		{"the referee hides", rex, hide[1], url.Values{"reason": {"rude"}}, http.StatusOK, "hidden by the referee: rude"},
		{"the referee talks", rex, "/games/" + id + "/say", url.Values{"text": {"play nicely"}}, http.StatusOK, "the referee to the table"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.who == rex {
				rex.get("/games/" + id + "/history")
			} else {
				st.who.get("/games/" + id)
			}
			before := s.countEvents()
			st.who.post(st.path, st.form)
			if st.who.status != st.status || !strings.Contains(st.who.page, st.shows) {
				t.Fatalf("%d, want %d showing %q:\n%s", st.who.status, st.status, st.shows, st.who.page)
			}
			if wrote := s.countEvents() != before; wrote != (st.status == http.StatusOK) {
				t.Fatalf("wrote an event: %v", wrote)
			}
		})
	}
	bob.get("/games/" + id)
	if strings.Contains(bob.page, "something rude") || !strings.Contains(bob.page, "hidden by the referee: rude") || !strings.Contains(bob.page, "play nicely") {
		t.Fatalf("Bob's page after the hiding:\n%s", bob.page)
	}
}

var seenRe = regexp.MustCompile(`name="seen" value="(\d+)"`)

// The talk box posts how many messages its page showed: the same form
// posted twice (a double click) says its message once, while another
// message from the same page, or the same words from a page that shows
// more, is said.
func TestTalkFormSaysOnceOnADoubleClick(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob := s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"},
		"invite": {"bob@example.org"}}))[1]
	bob.get("/games/" + id)
	bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}})
	ana.get("/games/" + id)
	m := seenRe.FindStringSubmatch(ana.page)
	if m == nil || m[1] != "0" {
		t.Fatalf("the talk box does not post what its page showed:\n%s", ana.page)
	}
	first := m[1]
	steps := []struct {
		name  string
		form  url.Values
		wrote bool
	}{
		{"posted", url.Values{"text": {"gg"}, "seen": {first}}, true},
		{"posted again (a double click)", url.Values{"text": {"gg"}, "seen": {first}}, false},
		{"another message from the same page", url.Values{"text": {"good luck"}, "seen": {first}}, true},
		{"the same words from a page that shows more", url.Values{"text": {"gg"}, "seen": {"2"}}, true},
		{"a form without what it showed", url.Values{"text": {"gg"}}, true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			before := s.countEvents()
			ana.post("/games/"+id+"/say", st.form)
			if ana.status != http.StatusOK {
				t.Fatalf("%d:\n%s", ana.status, ana.page)
			}
			if wrote := s.countEvents() != before; wrote != st.wrote {
				t.Fatalf("wrote an event: %v, want %v", wrote, st.wrote)
			}
		})
	}
	if n := strings.Count(ana.page, "<p>gg</p>"); n != 3 {
		t.Fatalf("the page shows gg %d times, want 3:\n%s", n, ana.page)
	}
}

package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
)

var (
	checkboxRe = regexp.MustCompile(`<input type="checkbox" name="([^"]+)" value="on"( checked)?>`)
	selectRe   = regexp.MustCompile(`(?s)<select name="([^"]+)"[^>]*>(.*?)</select>`)
	selectedRe = regexp.MustCompile(`<option value="([^"]*)" selected>`)
)

// settingsForm is what the settings page's form sends as shown: its
// checked boxes and each select's selected option.
func settingsForm(page string) url.Values {
	form := url.Values{}
	for _, m := range checkboxRe.FindAllStringSubmatch(page, -1) {
		if m[2] != "" {
			form.Set(m[1], "on")
		}
	}
	for _, m := range selectRe.FindAllStringSubmatch(page, -1) {
		v := ""
		if s := selectedRe.FindStringSubmatch(m[2]); s != nil {
			v = s[1]
		}
		form.Set(m[1], v)
	}
	return form
}

// The settings page shows every kind for all games and each game's own
// settings, shows what a game's unsubscribe link did, and saves through
// the same auth function as the API, so that the mail side sees it.
func TestMailSettingsPage(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana := s.browser()
	ana.signIn("ana@example.org", "Ana")
	ana.get("/games/new")
	page := ana.post("/games/new", url.Values{"game": {"coyote"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org\ncleo@example.org"}})
	m := gameURL.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("create: %d\n%s", ana.status, page)
	}
	id := m[1]
	user, err := s.users.Ensure(t.Context(), "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	prefs := auth.NewMailPreferences(s.pool, nil)

	page = ana.get("/settings")
	if ana.status != http.StatusOK || !strings.Contains(page, `href="/settings"`) || !strings.Contains(page, `data-game="`+id+`"`) {
		t.Fatalf("the settings page: %d\n%s", ana.status, page)
	}
	form := settingsForm(page)
	for _, k := range auth.MailKinds() {
		// Table talk at once is off until the player turns it on.
		if want := map[bool]string{true: "on", false: ""}[k.ID != auth.MailTalk]; form.Get("all."+k.ID) != want || !strings.Contains(page, k.Label) {
			t.Errorf("kind %s is not shown %q for all games", k.ID, want)
		}
		if _, ok := form["g."+id+"."+k.ID]; ok != k.PerGame {
			t.Errorf("kind %s per game: shown %v", k.ID, ok)
		}
	}

	// What the unsubscribe link at the foot of the game's mail writes
	// (notify's SetPreference): the page shows the game's mail off.
	if err := prefs.Set(t.Context(), user.ID, id, "", false); err != nil {
		t.Fatal(err)
	}
	page = ana.get("/settings")
	form = settingsForm(page)
	if form.Get("g."+id+".every") != "off" || !strings.Contains(page, "default (off)") {
		t.Fatalf("the page does not show the game's mail off after its unsubscribe link:\n%s", page)
	}

	// Save: reminders off for all games, the game back to the settings for
	// all games but its prompts off.
	form.Del("all.reminder")
	form.Set("g."+id+".every", "")
	form.Set("g."+id+".prompt", "off")
	page = ana.post("/settings", form)
	if ana.status != http.StatusOK || !strings.Contains(page, "Saved.") {
		t.Fatalf("save: %d\n%s", ana.status, page)
	}
	for _, c := range []struct {
		game, kind string
		want       bool
	}{{"", auth.MailReminder, false}, {id, auth.MailReminder, false}, {id, auth.MailPrompt, false}, {id, auth.MailReceipt, true}, {"", auth.MailPrompt, true}} {
		if on, err := prefs.Wants(t.Context(), user.ID, c.game, c.kind); err != nil || on != c.want {
			t.Errorf("after saving, Wants(%q, %q) = %v, %v; want %v", c.game, c.kind, on, err, c.want)
		}
	}
	form = settingsForm(page)
	if form.Get("all.reminder") != "" || form.Get("all.prompt") != "on" || form.Get("g."+id+".every") != "" || form.Get("g."+id+".prompt") != "off" {
		t.Errorf("the page after saving shows %v", form)
	}

	// Saving the page unchanged changes nothing.
	page = ana.post("/settings", form)
	form.Del("csrf")
	if again := settingsForm(page); again.Encode() != form.Encode() {
		t.Errorf("saving the page unchanged changed it: %v, then %v", form, again)
	}

	// A value the form never offers: refused, nothing changed.
	bad := settingsForm(page)
	bad.Set("g."+id+".receipt", "sometimes")
	bad.Del("all.prompt")
	if page := ana.post("/settings", bad); ana.status != http.StatusBadRequest || !strings.Contains(page, "Nothing was changed") {
		t.Errorf("a bad value: %d\n%s", ana.status, page)
	}
	if on, _ := prefs.Wants(t.Context(), user.ID, "", auth.MailPrompt); !on {
		t.Error("a refused form changed something")
	}

	// The form needs its CSRF token, and the page a session.
	if ana.post("/settings", url.Values{"csrf": {"forged"}, "all.prompt": {"on"}}); ana.status != http.StatusForbidden {
		t.Errorf("a form without its CSRF token: %d", ana.status)
	}
	if page := s.browser().get("/settings"); !strings.Contains(page, "Sign in to see this page") {
		t.Errorf("the settings page signed out:\n%s", page)
	}
}

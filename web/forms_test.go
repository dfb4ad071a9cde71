package web_test

import (
	"github.com/courrier-games/courrier/games"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games/catalog"
)

var optionField = regexp.MustCompile(`<select id="(opt-[a-z]+-[a-z_]+)"`)

// "New game" asks for the game first (a GET form, no script needed), then
// shows that game's options alone, each by its label in the game's words
// with its one-line description, its values by their words and the default
// chosen; an unknown game is asked again; a refused form comes back on the
// same game's options with what was chosen.
func TestNewGameAsksTheGameFirst(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana := s.browser()
	ana.signIn("ana@example.org", "Ana")
	reg := catalog.Registry()

	first := ana.get("/games/new")
	if ana.status != http.StatusOK || !strings.Contains(first, `method="get" action="/games/new"`) || strings.Contains(first, `name="invite"`) {
		t.Fatalf("the first step is not a choice of game: %d\n%s", ana.status, first)
	}
	if m := optionField.FindAllString(first, -1); len(m) != 0 {
		t.Errorf("the first step shows options: %v", m)
	}
	for _, id := range reg.IDs() {
		if !strings.Contains(first, `id="game-`+id+`"`) {
			t.Errorf("the choice lacks %s", id)
		}
	}

	for _, id := range reg.IDs() {
		eng, _ := reg.Get(id)
		info, words := eng.Info(), eng.Words()
		page := ana.get("/games/new?game=" + id)
		if ana.status != http.StatusOK || !strings.Contains(page, "New game of "+escaped(info.Name)) {
			t.Fatalf("%s: %d\n%s", id, ana.status, page)
		}
		fields := optionField.FindAllStringSubmatch(page, -1)
		if len(fields) != len(info.Options) {
			t.Errorf("%s: %d option fields, want its %d options", id, len(fields), len(info.Options))
		}
		visible := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
		for _, o := range info.Options {
			field := "opt-" + id + "-" + o.Name
			label, help := escaped(words.In(games.English).Must(o.Label)), escaped(words.In(games.English).Must(o.Description))
			if !strings.Contains(page, `<label for="`+field+`">`+label+`</label>`) || !strings.Contains(page, help) {
				t.Errorf("%s option %s: no label %q or description %q", id, o.Name, label, help)
			}
			if strings.Contains(o.Name, "_") && strings.Contains(visible, o.Name) {
				t.Errorf("%s: the page shows the option's name %s", id, o.Name)
			}
			def := regexp.MustCompile(`<option value="` + regexp.QuoteMeta(o.Default) + `" selected>([^<]*)</option>`).FindStringSubmatch(page)
			if def == nil || !strings.HasSuffix(def[1], "(default)") {
				t.Errorf("%s option %s: the default %s is not chosen and marked: %v", id, o.Name, o.Default, def)
			}
			for i, v := range o.ValueLabels {
				if !strings.Contains(page, `<option value="`+o.Values[i]+`"`) || !strings.Contains(page, escaped(words.In(games.English).Must(v))) {
					t.Errorf("%s option %s: value %s without its words", id, o.Name, o.Values[i])
				}
			}
		}
		for _, other := range reg.IDs() {
			if other != id && strings.Contains(page, `name="opt-`+other+`-`) {
				t.Errorf("the options of %s show %s's", id, other)
			}
		}
	}

	if page := ana.get("/games/new?game=chess"); ana.status != http.StatusNotFound || !strings.Contains(page, "There is no game") || !strings.Contains(page, `id="game-coyote"`) {
		t.Errorf("an unknown game: %d\n%s", ana.status, page)
	}

	ana.get("/games/new?game=couillon")
	page := ana.post("/games/new", url.Values{"game": {"couillon"}, "opt-couillon-all_pass": {"gerver"}, "play": {"on"}, "name": {""}})
	if ana.status != http.StatusBadRequest || !strings.Contains(page, "New game of Couillon") || !strings.Contains(page, `<option value="gerver" selected>`) {
		t.Errorf("a refused form does not come back on its game with its choices: %d\n%s", ana.status, page)
	}
}

// escaped is s as html/template writes it in text.
func escaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", `"`, "&#34;", "<", "&lt;", ">", "&gt;").Replace(s)
}

var numberForm = regexp.MustCompile(`data-verb="([^"]+)">(?s:.*?)<input type="number" id="number-\d+" name="number" min="(-?\d+)" max="(-?\d+)"`)

// A Coyote bidder is asked for a bid in a number field with its bounds, not
// a list of every bid; a number past the bound is refused by the rules, a
// number within it is played.
func TestBidIsANumberField(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	var players []*browser
	for _, n := range []string{"ana", "bob", "cleo"} {
		p := s.browser()
		p.signIn(n+"@example.org", n)
		players = append(players, p)
	}
	players[0].get("/games/new?game=coyote")
	id := gameURL.FindStringSubmatch(players[0].post("/games/new", url.Values{"game": {"coyote"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org\ncleo@example.org"}}))[1]
	for _, p := range players[1:] {
		p.get("/games/" + id)
		p.post("/games/"+id+"/join", url.Values{"name": {""}})
	}
	var bidder *browser
	var m []string
	for _, p := range players {
		if m = numberForm.FindStringSubmatch(p.get("/games/" + id)); m != nil {
			bidder = p
			break
		}
	}
	if bidder == nil {
		t.Fatalf("no player is asked for a number:\n%s", players[0].page)
	}
	if m[1] != "bid" || strings.Count(bidder.page, `value="bid `) > 12 || strings.Contains(bidder.page, `id="move-pick"`) {
		t.Fatalf("the bid is not one number field (verb %q):\n%s", m[1], bidder.page)
	}
	before := versionRe.FindStringSubmatch(bidder.page)[1]
	high := m[3] + "0"
	bidder.post("/games/"+id+"/move", url.Values{"verb": {"bid"}, "number": {high}, "version": {before}})
	if bidder.status != http.StatusUnprocessableEntity || !strings.Contains(bidder.page, "(rule CY-") {
		t.Errorf("a bid of %s past the bound %s: %d\n%s", high, m[3], bidder.status, bidder.page)
	}
	after := bidder.post("/games/"+id+"/move", url.Values{"verb": {"bid"}, "number": {" " + m[2] + " "}, "version": {before}})
	if bidder.status != http.StatusOK || versionRe.FindStringSubmatch(after)[1] == before || !strings.Contains(after, "bid "+m[2]) {
		t.Errorf("a bid of %s: %d\n%s", m[2], bidder.status, after)
	}
}

var iconLink = regexp.MustCompile(`<link rel="icon" href="([^"]+)" type="image/svg\+xml">`)

// Every page links the site's icon, and /favicon.ico, where browsers look
// by default, is an icon, not a "no such page".
func TestFavicon(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	b := s.browser()
	page := b.get("/")
	m := iconLink.FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, `<link rel="icon" href="/favicon.ico"`) {
		t.Fatalf("the page links no icon:\n%s", page)
	}
	for _, tt := range []struct {
		path, contentType, starts string
	}{
		{"/favicon.ico", "image/x-icon", "\x00\x00\x01\x00"},
		{strings.ReplaceAll(m[1], "&amp;", "&"), "image/svg+xml", "<svg"},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.url+tt.path, nil) // a test URL
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, 8)
		n, _ := resp.Body.Read(body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), tt.contentType) || !strings.HasPrefix(string(body[:n]), tt.starts[:min(len(tt.starts), n)]) || n < 4 {
			t.Errorf("%s: %d %s %q", tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), body[:n])
		}
	}
}

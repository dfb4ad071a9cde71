package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// The game page offers a take-back by buttons: the last mover asks, the
// others agree or refuse, the asker may withdraw; the buttons follow the
// player's language.
func TestTakeBackButtons(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	people := map[string]*browser{"Ana": s.browser(), "Bob": s.browser(), "Cy": s.browser()}
	for name, b := range people {
		b.signIn(strings.ToLower(name)+"@example.org", name)
	}
	ana := people["Ana"]
	ana.get("/games/new")
	id := gameURL.FindStringSubmatch(ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"},
		"invite": {"bob@example.org cy@example.org"}}))[1]
	for _, name := range []string{"Bob", "Cy"} {
		people[name].get("/games/" + id)
		people[name].post("/games/"+id+"/join", url.Values{"name": {name}})
	}
	tbl, err := s.play.Load(t.Context(), id)
	if err != nil || len(tbl.Pending) != 1 {
		t.Fatalf("game %s: %v, pending %+v", id, err, tbl)
	}
	names := tbl.Engine.Players(tbl.State)
	mover := people[names[tbl.Pending[0].Seat]]
	var others []*browser
	for seat, n := range names {
		if games.Seat(seat) != tbl.Pending[0].Seat {
			others = append(others, people[n])
		}
	}
	mover.get("/games/" + id)
	mover.post("/games/"+id+"/move", url.Values{"move": {"tax"}, "version": {versionRe.FindStringSubmatch(mover.page)[1]}})
	for _, tc := range []struct {
		name   string
		who    *browser
		path   string
		form   url.Values
		status int
		// then: what the pages show after it (by browser, the testids).
		then map[*browser][]string
	}{
		{"ask", mover, "/games/" + id + "/takeback", url.Values{}, http.StatusOK,
			map[*browser][]string{mover: {"takeback-open", "takeback-withdraw"}, others[0]: {"takeback-agree", "takeback-refuse"}}},
		{"ask again", mover, "/games/" + id + "/takeback", url.Values{}, http.StatusConflict, nil},
		{"agree", others[0], "/games/" + id + "/takeback/answer", url.Values{"agree": {"yes"}}, http.StatusOK,
			map[*browser][]string{others[0]: {"takeback-open"}, others[1]: {"takeback-agree"}}},
		{"refuse", others[1], "/games/" + id + "/takeback/answer", url.Values{"agree": {"no"}}, http.StatusOK,
			map[*browser][]string{mover: {"takeback-ask"}, others[1]: {"takeback-ask"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.who.get("/games/" + id)
			tc.form.Set("version", versionRe.FindStringSubmatch(tc.who.page)[1])
			tc.who.post(tc.path, tc.form)
			if tc.who.status != tc.status {
				t.Fatalf("%s: %d\n%s", tc.name, tc.who.status, tc.who.page)
			}
			for b, ids := range tc.then {
				b.get("/games/" + id)
				for _, want := range ids {
					if !strings.Contains(b.page, `data-testid="`+want+`"`) {
						t.Errorf("after %s, a page lacks %s:\n%s", tc.name, want, b.page)
					}
				}
			}
		})
	}
	// In French.
	others[0].accept = "fr"
	others[0].get("/games/" + id)
	if !strings.Contains(others[0].page, "Demander à reprendre mon dernier coup") {
		t.Errorf("the French page has no take-back words:\n%s", others[0].page)
	}
}

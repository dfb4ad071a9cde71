package web_test

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

var historyItem = regexp.MustCompile(`<li value="(\d+)">`)

// listed returns the versions the history page lists.
func listed(page string) []int {
	var out []int
	for _, m := range historyItem.FindAllStringSubmatch(page, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// versions returns from to to.
func versions(from, to int) []int {
	var out []int
	for v := from; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

// The history lists 50 versions a page, pages cut at 1, 51, 101 … so that
// a link to one lists the same versions after more moves; the page shows
// the version asked for whatever page of the list it shows.
func TestHistoryPagesByFifty(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	svc := play.New(s.pool, catalog.Registry())
	ctx := t.Context()
	var actors []play.Actor
	var ana *browser
	for i, email := range []string{"ana@example.org", "bob@example.org", "cleo@example.org"} {
		b := s.browser()
		b.signIn(email, "")
		if i == 0 {
			ana = b
		}
		u, _ := s.users.Ensure(ctx, email)
		actors = append(actors, play.Actor{User: u.ID, Channel: play.ChannelWeb})
	}
	out, err := svc.Create(ctx, actors[0], "coyote", nil, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Bob", "Cleo"} {
		if _, err := svc.Join(ctx, actors[i+1], out.GameID, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, actors[0], out.GameID); err != nil {
		t.Fatal(err)
	}
	// Bids one above the last make many versions in one round.
	playUntil := func(version int) {
		for {
			tbl, err := svc.Load(ctx, out.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if tbl.Version >= version || tbl.Ended {
				return
			}
			p := tbl.Pending[0]
			legal := tbl.Engine.Legal(tbl.State, p.Seat)
			move := legal[0]
			if i := slices.IndexFunc(legal, func(m string) bool { return strings.HasPrefix(m, "bid ") }); i >= 0 {
				move = legal[i]
			}
			mover := actors[slices.IndexFunc(actors, func(a play.Actor) bool { return tbl.SeatOf(a.User) == p.Seat })]
			if _, err := svc.Move(ctx, mover, out.GameID, tbl.Version, []string{move}); err != nil {
				t.Fatal(err)
			}
		}
	}
	playUntil(120)
	history := "/games/" + out.GameID + "/history"
	page := ana.get(history)
	latest, _ := strconv.Atoi(regexp.MustCompile(`Version (\d+) of (\d+)`).FindStringSubmatch(page)[2])
	if ana.status != http.StatusOK || latest < 120 {
		t.Fatalf("the history at version %d: %d\n%s", latest, ana.status, page)
	}
	tests := []struct {
		query          string
		list           []int
		earlier, later string
		current        string
	}{
		{"", versions(101, latest), "from=51", "", "Version " + strconv.Itoa(latest) + " of"},
		{"?version=5", versions(1, 50), "", "from=51", "Version 5 of"},
		{"?version=5&from=51", versions(51, 100), "from=1", "from=101", "Version 5 of"},
		{"?version=5&from=77", versions(51, 100), "from=1", "from=101", "Version 5 of"},
		{"?version=60", versions(51, 100), "from=1", "from=101", "Version 60 of"},
		{"?from=9999", versions(101, latest), "from=51", "", "Version " + strconv.Itoa(latest) + " of"},
	}
	check := func() {
		for _, tt := range tests {
			page := ana.get(history + tt.query)
			if ana.status != http.StatusOK || !slices.Equal(listed(page), tt.list) || !strings.Contains(page, tt.current) {
				t.Errorf("%s: %d, lists %v, want %v and %q", tt.query, ana.status, listed(page), tt.list, tt.current)
			}
			for _, link := range []struct{ testid, want string }{{"earlier", tt.earlier}, {"later", tt.later}} {
				m := regexp.MustCompile(`href="([^"]*)" rel="(?:prev|next)" data-testid="` + link.testid + `"`).FindStringSubmatch(page)
				switch {
				case link.want == "" && m != nil:
					t.Errorf("%s: a %s link %s", tt.query, link.testid, m[1])
				case link.want != "" && (m == nil || !strings.Contains(m[1], link.want)):
					t.Errorf("%s: the %s link is %v, want %s", tt.query, link.testid, m, link.want)
				}
			}
		}
	}
	check()
	// More moves: the pages of old versions list the same versions.
	playUntil(latest + 5)
	tests = tests[1:5]
	check()
}

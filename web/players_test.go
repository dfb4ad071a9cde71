package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// userID is the account id behind an address.
func (s *site) userID(email string) string {
	s.t.Helper()
	u, err := s.users.Ensure(s.t.Context(), email)
	if err != nil {
		s.t.Fatal(err)
	}
	return u.ID
}

// catchUpStandings applies the feed to the ratings and reliability, as
// serve does in the background.
func (s *site) catchUpStandings() {
	s.t.Helper()
	if err := play.NewStandings(s.pool, catalog.Registry(), nil).Settle(s.t.Context()); err != nil {
		s.t.Fatal(err)
	}
}

// A game page links its players to their cards; a card shows the
// reliability and the ratings, in the reader's language; the lobby names
// each player's rating; a minimum set in the form refuses a join.
func TestPlayerPagesLobbyRatingsAndMinimums(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana, bob, cleo := s.browser(), s.browser(), s.browser()
	ana.signIn("ana@example.org", "Ana")
	bob.signIn("bob@example.org", "Bob")
	cleo.accept = "fr"
	cleo.signIn("cleo@example.org", "Cleo")

	ana.get("/games/new")
	page := ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"}, "invite": {"bob@example.org"}})
	m := gameURL.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("create: %d\n%s", ana.status, page)
	}
	id := m[1]
	bob.get("/games/" + id)
	if bob.post("/games/"+id+"/join", url.Values{"name": {"Bob"}}); bob.status != http.StatusOK {
		t.Fatalf("join: %d\n%s", bob.status, bob.page)
	}
	bob.get("/games/" + id)
	if bob.post("/games/"+id+"/resign", url.Values{"confirm": {"yes"}}); bob.status != http.StatusOK {
		t.Fatalf("resign: %d\n%s", bob.status, bob.page)
	}
	s.catchUpStandings()

	anaID, bobID := s.userID("ana@example.org"), s.userID("bob@example.org")
	if page := ana.get("/games/" + id); !strings.Contains(page, `<a href="/players/`+bobID+`" data-testid="player-link">Bob</a>`) {
		t.Fatalf("the game page does not link Bob to his card:\n%s", page)
	}
	page = cleo.get("/players/" + anaID)
	if cleo.status != http.StatusOK || !strings.Contains(page, `data-testid="player-name">Ana<`) ||
		!strings.Contains(page, `data-testid="finished">1<`) || !strings.Contains(page, `data-testid="rating-coup"`) ||
		!strings.Contains(page, "Délais respectés") || strings.Contains(page, "ana@example.org") {
		t.Fatalf("Ana's card, in French: %d\n%s", cleo.status, page)
	}
	if page := ana.get("/players/" + bobID); !strings.Contains(page, `data-testid="met">100%<`) || !strings.Contains(page, "Deadlines met") {
		t.Fatalf("Bob's card: %d\n%s", ana.status, page)
	}
	if ana.get("/players/u-nobody"); ana.status != http.StatusNotFound {
		t.Fatalf("an unknown player's card: %d", ana.status)
	}

	// An open game with a minimum: the lobby shows Ana's rating for coup;
	// Cleo, who never finished a game, is refused in French.
	ana.get("/games/new")
	page = ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"}, "min-finished": {"1"}})
	m = gameURL.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("create with a minimum: %d\n%s", ana.status, page)
	}
	open := m[1]
	lobby := cleo.get("/games")
	if !regexp.MustCompile(`href="/games/` + open + `">[^<]*` + open + `</a>[^A<]*Ana \(1[5-9]\d\d\)`).MatchString(lobby) {
		t.Fatalf("the lobby does not name Ana's rating:\n%s", lobby)
	}
	before := s.countEvents()
	if page := cleo.get("/games/" + open); !strings.Contains(page, `<p data-testid="terms">Pour rejoindre, il faut au moins 1 partie terminée sur les 12 derniers mois.</p>`) {
		t.Fatalf("the open game's page does not say what it requires:\n%s", page)
	}
	page = cleo.post("/games/"+open+"/join", url.Values{"name": {"Cleo"}})
	if cleo.status != http.StatusConflict || !strings.Contains(page, "demande au moins 1 partie terminée sur les 12 derniers mois ; vous en avez terminé 0") {
		t.Fatalf("a join below the minimum: %d\n%s", cleo.status, page)
	}
	if s.countEvents() != before {
		t.Fatal("a refused join wrote events")
	}
	ana.get("/games/new")
	if page := ana.post("/games/new", url.Values{"game": {"coup"}, "play": {"on"}, "name": {"Ana"}, "min-reliability": {"lots"}}); ana.status != http.StatusBadRequest ||
		!strings.Contains(page, "whole percentage from 0 to 100") {
		t.Fatalf("a minimum that is no percentage: %d\n%s", ana.status, page)
	}
}

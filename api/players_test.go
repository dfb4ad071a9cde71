package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// userID is the id of the account behind token (GET /v1/me).
func (e *env) userID(token string) string {
	e.t.Helper()
	var me struct {
		ID string `json:"id"`
	}
	r := e.call(http.MethodGet, "/v1/me", token, nil)
	if r.status != http.StatusOK {
		e.t.Fatalf("GET /v1/me: %d %s", r.status, r.body)
	}
	r.decode(e.t, &me)
	return me.ID
}

// catchUpStandings applies the feed to the ratings and reliability, as
// serve does in the background.
func (e *env) catchUpStandings() {
	e.t.Helper()
	if err := play.NewStandings(e.pool, catalog.Registry(), nil).Settle(e.t.Context()); err != nil {
		e.t.Fatal(err)
	}
}

// playerCard is GET /v1/players/{id} as the tests read it.
type playerCard struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Reliability struct {
		Finished  int  `json:"finished"`
		Decisions int  `json:"decisions"`
		Missed    int  `json:"missed"`
		Abandoned int  `json:"abandoned"`
		Met       *int `json:"met"`
	} `json:"reliability"`
	Ratings []struct {
		Game   string  `json:"game"`
		Rating float64 `json:"rating"`
		RD     float64 `json:"rd"`
		Games  int     `json:"games"`
	} `json:"ratings"`
}

// A finished game shows on both players' cards: a game finished, a rating
// for its title, the winner's above 1500; the lobby shows each player's
// rating; a minimum at creation refuses a join in the caller's language.
func TestPlayerCardsRatingsInTheLobbyAndMinimums(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	cleo := e.signIn("cleo@players.test")
	id := e.newGame("coup", ana, map[string]string{"bob@players.test": bob})
	if r := e.call(http.MethodPost, "/v1/games/"+id+"/resign", bob, nil); r.status != http.StatusOK {
		t.Fatalf("resign: %d %s", r.status, r.body)
	}
	e.catchUpStandings()
	anaID := e.userID(ana)
	r := e.call(http.MethodGet, "/v1/players/"+anaID, cleo, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET /v1/players/{id}: %d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), "@") {
		t.Fatalf("a player card shows an address: %s", r.body)
	}
	var card playerCard
	r.decode(t, &card)
	if card.ID != anaID || card.Name == "" || card.Reliability.Finished != 1 || len(card.Ratings) != 1 ||
		card.Ratings[0].Game != "coup" || card.Ratings[0].Rating <= 1500 || card.Ratings[0].Games != 1 {
		t.Fatalf("Ana's card after beating Bob: %s", r.body)
	}
	if r := e.call(http.MethodGet, "/v1/players/"+e.userID(bob), ana, nil); r.status != http.StatusOK || !strings.Contains(string(r.body), `"game":"coup"`) {
		t.Fatalf("Bob's card: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodGet, "/v1/players/u-nobody", ana, nil); r.status != http.StatusNotFound || r.err().Error.Code != "not_found" {
		t.Fatalf("an unknown player: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodGet, "/v1/players/"+anaID, "", nil); r.status != http.StatusUnauthorized {
		t.Fatalf("a card without signing in: %d %s", r.status, r.body)
	}

	// The lobby: Ana's open game names her rating for coup.
	r = e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "min_finished": 1, "min_reliability": 50})
	if r.status != http.StatusCreated {
		t.Fatalf("create with minimums: %d %s", r.status, r.body)
	}
	var open struct {
		ID string `json:"id"`
	}
	r.decode(t, &open)
	var lobby struct {
		Items []struct {
			ID      string `json:"id"`
			Players []struct {
				Name     string `json:"name"`
				PlayerID string `json:"player_id"`
				Rating   *int   `json:"rating"`
			} `json:"players"`
		} `json:"items"`
	}
	e.call(http.MethodGet, "/v1/games?mine=0", cleo, nil).decode(t, &lobby)
	found := false
	for _, g := range lobby.Items {
		if g.ID == open.ID {
			found = true
			if len(g.Players) != 1 || g.Players[0].PlayerID != anaID || g.Players[0].Rating == nil || *g.Players[0].Rating != int(card.Ratings[0].Rating+0.5) {
				t.Fatalf("the lobby's players of %s: %+v, want Ana rated %.1f", g.ID, g.Players, card.Ratings[0].Rating)
			}
		}
	}
	if !found {
		t.Fatal("the open game is not in the lobby")
	}

	// Cleo never finished a game: refused, in her language.
	before := e.countEvents()
	for _, c := range []struct{ lang, want string }{
		{"en", "requires at least 1 finished game over the last 12 months; you have finished 0"},
		{"fr", "demande au moins 1 partie terminée sur les 12 derniers mois ; vous en avez terminé 0"},
	} {
		r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/join", cleo, map[string]string{"name": "Cleo"}, "Accept-Language", c.lang)
		if r.status != http.StatusForbidden || !strings.Contains(r.err().Error.Message, c.want) {
			t.Fatalf("%s: a join below the minimum: %d %s", c.lang, r.status, r.body)
		}
	}
	if e.countEvents() != before {
		t.Fatal("a refused join wrote events")
	}
	// Bob finished one: he joins.
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/join", bob, map[string]string{"name": "Bob"}); r.status != http.StatusOK {
		t.Fatalf("a join at the minimum: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "min_reliability": 101}); r.status != http.StatusBadRequest {
		t.Fatalf("a minimum above 100%%: %d %s", r.status, r.body)
	}

	// An invitation names the inviter's figures.
	mails := len(e.mailTo("cleo@players.test"))
	if r := e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "seats": []string{"me", "cleo@players.test"}}); r.status != http.StatusCreated {
		t.Fatalf("invite Cleo: %d %s", r.status, r.body)
	}
	got := strings.Join(strings.Fields(e.waitMail("cleo@players.test", mails)), " ")
	if !strings.Contains(got, card.Name+": 1 game finished, no deadline due yet (last 12 months).") {
		t.Fatalf("the invitation does not give Ana's figures:\n%s", got)
	}
}

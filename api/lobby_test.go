package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// gameList is the part of GET /v1/games the tests read.
type gameList struct {
	Items []struct {
		ID       string `json:"id"`
		Game     string `json:"game"`
		Status   string `json:"status"`
		YourTurn bool   `json:"your_turn"`
		ToAct    []struct {
			Seat int `json:"seat"`
		} `json:"to_act"`
		Result *struct {
			Summary string `json:"summary"`
		} `json:"result"`
	} `json:"items"`
}

func (e *env) list(token, query string) gameList {
	e.t.Helper()
	r := e.call(http.MethodGet, "/v1/games"+query, token, nil)
	if r.status != http.StatusOK {
		e.t.Fatalf("GET /v1/games%s: %d %s", query, r.status, r.body)
	}
	var l gameList
	r.decode(e.t, &l)
	return l
}

func (l gameList) ids() []string {
	var out []string
	for _, g := range l.Items {
		out = append(out, g.ID)
	}
	return out
}

// The catalog lists every game with its seats, options and a rules page
// that is served.
func TestCatalogLinksToServedRulesPages(t *testing.T) {
	e := newEnv(t)
	r := e.call(http.MethodGet, "/v1/catalog", "", nil)
	var cat struct {
		Items []struct {
			Game     string `json:"game"`
			Name     string `json:"name"`
			MinSeats int    `json:"min_seats"`
			MaxSeats int    `json:"max_seats"`
			RulesURL string `json:"rules_url"`
			Options  []struct {
				Name        string   `json:"name"`
				Default     string   `json:"default"`
				Label       string   `json:"label"`
				Description string   `json:"description"`
				Values      []string `json:"values"`
				ValueLabels []string `json:"value_labels"`
			} `json:"options"`
		} `json:"items"`
	}
	r.decode(t, &cat)
	if len(cat.Items) != 5 {
		t.Fatalf("%d games in the catalog, want 5: %s", len(cat.Items), r.body)
	}
	for _, g := range cat.Items {
		if g.MinSeats < 2 || g.MaxSeats < g.MinSeats || g.Name == "" {
			t.Errorf("%s: seats %d–%d, name %q", g.Game, g.MinSeats, g.MaxSeats, g.Name)
		}
		for _, o := range g.Options {
			// Each option has the game's words for a person (its catalog;
			// games/catalog checks them all): a label, a line explaining it.
			if o.Label == "" || strings.Contains(o.Label, "_") || strings.HasPrefix(o.Label, "[") || !strings.HasSuffix(o.Description, ".") {
				t.Errorf("%s option %s: label %q, description %q", g.Game, o.Name, o.Label, o.Description)
			}
			if o.ValueLabels != nil && len(o.ValueLabels) != len(o.Values) {
				t.Errorf("%s option %s: values %v labelled %v", g.Game, o.Name, o.Values, o.ValueLabels)
			}
		}
		path := strings.TrimPrefix(g.RulesURL, "http://courrier.test")
		page := e.call(http.MethodGet, path, "", nil)
		if page.status != http.StatusOK || !strings.Contains(page.header.Get("Content-Type"), "markdown") || !strings.Contains(string(page.body), "# ") {
			t.Errorf("%s's rules page %s: %d %s", g.Game, g.RulesURL, page.status, page.header.Get("Content-Type"))
		}
	}
	if r := e.call(http.MethodGet, "/rules/chess", "", nil); r.status != http.StatusNotFound {
		t.Errorf("the rules of an unknown game: %d", r.status)
	}
}

// The lobby: an invitee is mailed and sees the game; lists filter by
// status and by whose turn it is (the empty filters of a form included);
// an open game is listed for anyone, joined, started by its creator; a
// resignation ends a game of two.
func TestLobby(t *testing.T) {
	e := newEnv(t)
	ana, bob := e.signIn("ana@players.test"), e.signIn("bob@players.test")
	cleo := e.signIn("cleo@players.test")

	mails := len(e.mailTo("bob@players.test"))
	r := e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "seats": []string{"me", "bob@players.test"}})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var invited struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	r.decode(t, &invited)
	if invited.Status != "open" {
		t.Fatalf("a game waiting for its invitee is %s", invited.Status)
	}
	if got := e.waitMail("bob@players.test", mails); !strings.Contains(got, invited.ID) && !strings.Contains(strings.ToLower(got), "invit") {
		t.Fatalf("bob's invitation does not name the game:\n%s", got)
	}
	if !slices.Contains(e.list(bob, "").ids(), invited.ID) {
		t.Fatal("the invitee does not see the game among theirs")
	}
	// The invitee opens it before joining: the lobby card, no view yet.
	if v, r := e.view(bob, invited.ID); r.status != http.StatusOK || v.Seat != nil || string(v.View) != "null" || v.Game.Status != "open" {
		t.Fatalf("the invitee's view of the open game: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/join", bob, map[string]string{"name": "Bob"}); r.status != http.StatusOK {
		t.Fatalf("join: %d %s", r.status, r.body)
	}

	// A player chooses the time zone their mail speaks in.
	if r := e.call(http.MethodPatch, "/v1/me", ana, map[string]string{"time_zone": "Europe/Paris"}); r.status != http.StatusOK || !strings.Contains(string(r.body), `"time_zone":"Europe/Paris"`) {
		t.Fatalf("PATCH /v1/me time_zone: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPatch, "/v1/me", ana, map[string]string{"time_zone": "Mars/Olympus"}); r.status != http.StatusBadRequest {
		t.Fatalf("a time zone that does not exist: %d %s", r.status, r.body)
	}

	// Open to anyone: no seats named; a turn lasts two days here.
	r = e.call(http.MethodPost, "/v1/games", ana, map[string]any{"game": "coup", "deadlines": map[string]string{"turn": "2d"}})
	var open struct {
		ID string `json:"id"`
	}
	r.decode(t, &open)
	if !slices.Contains(e.list(cleo, "?mine=0").ids(), open.ID) {
		t.Fatal("an open game is not listed for others (mine=0)")
	}
	if slices.Contains(e.list(cleo, "?mine=0").ids(), invited.ID) {
		t.Fatal("a started game is listed as open")
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/start", cleo, nil); r.status != http.StatusForbidden && r.status != http.StatusConflict {
		t.Fatalf("a stranger started a game: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/join", cleo, map[string]string{"name": "Cleo"}); r.status != http.StatusOK {
		t.Fatalf("join an open game: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/start", ana, nil); r.status != http.StatusOK {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	// Every decision shows when it times out: two days for a turn, a day
	// for a window (the default), in the view, its pending entries and the
	// game's card.
	started := time.Now()
	for _, tok := range []string{ana, cleo} {
		r := e.call(http.MethodGet, "/v1/games/"+open.ID, tok, nil)
		var v struct {
			Deadline *time.Time `json:"deadline"`
			Pending  []struct {
				Deadline *time.Time `json:"deadline"`
			} `json:"pending"`
			Game struct {
				Deadline *time.Time `json:"deadline"`
			} `json:"game"`
		}
		r.decode(t, &v)
		if v.Game.Deadline == nil {
			t.Fatalf("a started game's card has no deadline: %s", r.body)
		}
		if len(v.Pending) == 0 {
			continue
		}
		if v.Deadline == nil || v.Pending[0].Deadline == nil {
			t.Fatalf("a pending decision without its deadline: %s", r.body)
		}
		allowed := v.Deadline.Sub(started)
		if allowed < 23*time.Hour || allowed > 48*time.Hour+time.Minute {
			t.Fatalf("a decision of a game created with 2-day turns times out in %v", allowed)
		}
	}

	// Away for a day: the deadline of whoever is away moves by a day;
	// back, it runs again; nonsense durations are refused.
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/away", cleo, map[string]string{"for": "soon"}); r.status != http.StatusBadRequest {
		t.Fatalf("away for soon: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/away", cleo, map[string]string{"for": "1d"}); r.status != http.StatusOK {
		t.Fatalf("away: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/away", cleo, map[string]string{"for": "1d"}); r.status != http.StatusConflict {
		t.Fatalf("away twice: %d %s", r.status, r.body)
	}
	var said struct {
		Items []struct {
			Text string `json:"text"`
		} `json:"items"`
	}
	e.call(http.MethodGet, "/v1/games/"+open.ID+"/events?since=0", ana, nil).decode(t, &said)
	if last := said.Items[len(said.Items)-1].Text; !strings.Contains(last, "is away until") {
		t.Fatalf("the others are told %q", last)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/back", cleo, nil); r.status != http.StatusOK {
		t.Fatalf("back: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+open.ID+"/back", cleo, nil); r.status != http.StatusConflict {
		t.Fatalf("back twice: %d %s", r.status, r.body)
	}

	// Filters, as a form sends them (empty means any).
	all := e.list(ana, "?mine=1&status=&to_act=")
	if !slices.Contains(all.ids(), invited.ID) || !slices.Contains(all.ids(), open.ID) {
		t.Fatalf("ana's games: %v", all.ids())
	}
	for _, g := range e.list(ana, "?mine=1&status=&to_act=me").Items {
		if !g.YourTurn {
			t.Fatalf("to_act=me lists %s, which is not waiting for ana", g.ID)
		}
	}
	for _, g := range e.list(ana, "?status=finished").Items {
		t.Fatalf("status=finished lists %s (%s)", g.ID, g.Status)
	}
	if r := e.call(http.MethodGet, "/v1/games?status=lost", ana, nil); r.status != http.StatusBadRequest {
		t.Fatalf("an unknown status: %d", r.status)
	}

	// Only an abandoned seat can be handed over, and only by the creator.
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/replace", bob, map[string]any{"seat": 0, "email": "zed@players.test"}); r.status != http.StatusForbidden {
		t.Fatalf("a player who did not create the game handed a seat over: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/replace", ana, map[string]any{"seat": 1, "email": "zed@players.test"}); r.status != http.StatusConflict || !strings.Contains(string(r.body), "not abandoned") {
		t.Fatalf("a seat still played was handed over: %d %s", r.status, r.body)
	}
	// The new player's account is made in the hand-over's transaction: a
	// refused hand-over leaves none.
	var zed int
	if err := e.pool.QueryRow(t.Context(), `select count(*) from users where email = 'zed@players.test'`).Scan(&zed); err != nil || zed != 0 {
		t.Fatalf("refused hand-overs left %d account(s) for the address they named (%v)", zed, err)
	}
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/replace", ana, map[string]any{"seat": 1, "email": "not an address"}); r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "the new player's address") {
		t.Fatalf("a hand-over to a bad address: %d %s", r.status, r.body)
	}

	// A claim while the other still plays is refused.
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/claim", ana, nil); r.status != http.StatusConflict || !strings.Contains(string(r.body), "still play") {
		t.Fatalf("an early claim: %d %s", r.status, r.body)
	}

	// A resignation in a game of two ends it.
	if r := e.call(http.MethodPost, "/v1/games/"+invited.ID+"/resign", bob, nil); r.status != http.StatusOK {
		t.Fatalf("resign: %d %s", r.status, r.body)
	}
	done := e.list(ana, "?status=finished")
	if !slices.Contains(done.ids(), invited.ID) || done.Items[0].Result == nil {
		t.Fatalf("after bob resigned, ana's finished games: %+v", done.Items)
	}
}

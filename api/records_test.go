package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// replayStep is the part of GET …/replay the tests read.
type replayStep struct {
	Version int             `json:"version"`
	Latest  int             `json:"latest"`
	Text    string          `json:"text"`
	View    json.RawMessage `json:"view"`
	Reveal  *struct {
		Views []json.RawMessage `json:"views"`
	} `json:"reveal"`
}

// Replays, records, audit reports and disputes over HTTP: a player's replay
// at each version is the view they were served then, with no reveal before
// the end; a referee without a seat has the full reveal; the audit report
// waits for the end; a dispute is an event that the others and the referee
// are told of, and only the referee rules on it; after the end the record
// verifies with no database.
func TestRecordsOverHTTP(t *testing.T) {
	e := newEnv(t)
	people := make([]player, 3)
	for i := range people {
		people[i].email = fmt.Sprintf("rec%d@players.test", i)
		people[i].token = e.signIn(people[i].email)
	}
	ref := player{email: "referee@players.test"}
	ref.token = e.signIn(ref.email)
	stranger := e.signIn("stranger@players.test")

	r := e.call(http.MethodPost, "/v1/games", people[0].token, map[string]any{
		"game": "coup", "seats": []string{"me", people[1].email, people[2].email}, "referee": ref.email})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var g struct {
		ID string `json:"id"`
	}
	r.decode(t, &g)
	id := g.ID
	for i, p := range people[1:] {
		if r := e.call(http.MethodPost, "/v1/games/"+id+"/join", p.token, map[string]string{"name": fmt.Sprintf("P%d", i+1)}); r.status != http.StatusOK {
			t.Fatalf("join: %d %s", r.status, r.body)
		}
	}

	pick := rand.New(rand.NewPCG(3, 4))
	served := map[int][]json.RawMessage{} // version → each player's view
	move := func() bool {
		t.Helper()
		var views []seatView
		var acting []int
		for i, p := range people {
			v, r := e.view(p.token, id)
			if r.status != http.StatusOK {
				t.Fatalf("view: %d %s", r.status, r.body)
			}
			views = append(views, v)
			if len(v.Pending) > 0 && len(v.Legal) > 0 {
				acting = append(acting, i)
			}
		}
		if views[0].Game.Status == "finished" {
			return false
		}
		for _, v := range views {
			served[v.Version] = append(served[v.Version], v.View)
		}
		i := acting[pick.IntN(len(acting))]
		if r := e.call(http.MethodPost, "/v1/games/"+id+"/moves", people[i].token,
			map[string]any{"move": chooseMove(pick, views[i]), "expected_version": views[i].Version}); r.status != http.StatusOK {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
		return true
	}
	for range 12 {
		if !move() {
			t.Fatal("the game ended in 12 moves")
		}
	}
	replay := func(token string, version int) (replayStep, reply) {
		t.Helper()
		r := e.call(http.MethodGet, fmt.Sprintf("/v1/games/%s/replay?version=%d", id, version), token, nil)
		var s replayStep
		if r.status == http.StatusOK {
			r.decode(t, &s)
		}
		return s, r
	}
	for version, views := range served {
		for i, p := range people {
			s, r := replay(p.token, version)
			if r.status != http.StatusOK || s.Version != version || s.Text == "" {
				t.Fatalf("replay of %d by %s: %d %s", version, p.email, r.status, r.body)
			}
			if !jsonEqualRaw(s.View, views[i]) {
				t.Fatalf("%s's replay at version %d:\n%s\nwas served:\n%s", p.email, version, s.View, views[i])
			}
			if s.Reveal != nil {
				t.Fatalf("a player has the full reveal before the end: %s", r.body)
			}
		}
	}
	if s, r := replay(ref.token, 8); r.status != http.StatusOK || s.Reveal == nil || len(s.Reveal.Views) != 3 {
		t.Fatalf("the referee's replay: %d %s", r.status, r.body)
	}
	if _, r := replay(stranger, 3); r.status != http.StatusForbidden {
		t.Fatalf("a stranger's replay: %d %s", r.status, r.body)
	}
	if _, r := replay(people[0].token, 9999); r.status != http.StatusBadRequest {
		t.Fatalf("a replay beyond the game: %d %s", r.status, r.body)
	}

	// Before the end: no report for players, a seat's record without hashes.
	if r := e.call(http.MethodGet, "/v1/games/"+id+"/audit", people[0].token, nil); r.status != http.StatusConflict {
		t.Fatalf("audit before the end: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodGet, "/v1/games/"+id+"/audit", ref.token, nil); r.status != http.StatusOK || !strings.Contains(string(r.body), `"passed":true`) {
		t.Fatalf("the referee's audit: %d %s", r.status, r.body)
	}
	r = e.call(http.MethodGet, "/v1/games/"+id+"/record", people[1].token, nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `[View "seat`) || strings.Contains(string(r.body), " hash ") {
		t.Fatalf("a seat's record before the end: %d\n%s", r.status, r.body)
	}

	// A dispute: an event; the others and the referee are told.
	before := e.countEvents()
	mails := map[string]int{}
	for _, p := range append(people, ref) {
		mails[p.email] = len(e.mailTo(p.email))
	}
	for _, bad := range []struct {
		token  string
		body   any
		status int
	}{
		{people[1].token, map[string]any{"version": 0, "reason": "x"}, http.StatusBadRequest},
		{people[1].token, map[string]any{"version": 9999, "reason": "x"}, http.StatusBadRequest},
		{people[1].token, map[string]any{"version": 8, "reason": ""}, http.StatusBadRequest},
		{stranger, map[string]any{"version": 8, "reason": "I saw it"}, http.StatusForbidden},
	} {
		if r := e.call(http.MethodPost, "/v1/games/"+id+"/disputes", bad.token, bad.body); r.status != bad.status {
			t.Fatalf("dispute %v: %d %s", bad.body, r.status, r.body)
		}
	}
	if e.countEvents() != before {
		t.Fatal("a refused dispute wrote an event")
	}
	r = e.call(http.MethodPost, "/v1/games/"+id+"/disputes", people[1].token, map[string]any{"version": 8, "reason": "that challenge came after the window closed"})
	if r.status != http.StatusCreated {
		t.Fatalf("dispute: %d %s", r.status, r.body)
	}
	var d struct {
		Version int `json:"version"`
		Move    int `json:"move"`
	}
	r.decode(t, &d)
	if d.Move != 8 || e.countEvents() != before+1 {
		t.Fatalf("dispute %+v, %d events written", d, e.countEvents()-before)
	}
	for _, p := range []player{people[0], people[2], ref} {
		if text := e.waitMail(p.email, mails[p.email]); !strings.Contains(text, "disputes version 8") {
			t.Fatalf("the dispute mail to %s:\n%s", p.email, text)
		}
	}
	ruling := map[string]any{"decision": "rejected", "text": "the window was still open at version 8"}
	path := fmt.Sprintf("/v1/games/%s/disputes/%d/ruling", id, d.Version)
	if r := e.call(http.MethodPost, path, people[0].token, ruling); r.status != http.StatusForbidden {
		t.Fatalf("a player's ruling: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, path, ref.token, ruling); r.status != http.StatusOK || !strings.Contains(string(r.body), `"decision":"rejected"`) {
		t.Fatalf("the referee's ruling: %d %s", r.status, r.body)
	}
	if r := e.call(http.MethodPost, path, ref.token, ruling); r.status != http.StatusConflict {
		t.Fatalf("a second ruling: %d %s", r.status, r.body)
	}

	for step := 0; move(); step++ {
		if step > 3000 {
			t.Fatal("the game did not end")
		}
	}
	r = e.call(http.MethodGet, "/v1/games/"+id+"/audit", people[2].token, nil)
	var rep struct {
		Passed   bool `json:"passed"`
		Disputes []struct {
			Ruling *struct {
				Decision string `json:"decision"`
			} `json:"ruling"`
		} `json:"disputes"`
		Moves []struct {
			Channel   string `json:"channel"`
			RequestID string `json:"request_id"`
		} `json:"moves"`
	}
	r.decode(t, &rep)
	if r.status != http.StatusOK || !rep.Passed || len(rep.Disputes) != 1 || rep.Disputes[0].Ruling == nil || rep.Moves[0].RequestID == "" {
		t.Fatalf("the audit after the end: %d %s", r.status, r.body)
	}
	auditInEachLanguage(t, e, id, people[2].token)
	r = e.call(http.MethodGet, "/v1/games/"+id+"/record", people[2].token, nil)
	rec, err := archive.ParseRecord(strings.NewReader(string(r.body)))
	if err != nil {
		t.Fatal(err)
	}
	vr, err := archive.VerifyRecord(play.Folder(catalog.Registry()), rec)
	if err != nil || !vr.Passed {
		t.Fatalf("the record after the end does not verify: %v %+v", err, vr)
	}
}

func jsonEqualRaw(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonEqual(x, y)
}

// auditInEachLanguage fetches the audit report of finished game id in
// French and in English (Accept-Language; the caller has no setting): each
// says what it checked in its language, as archive's catalog says it, and
// holds no sentence of archive's, play's, the shared or the game's
// catalog in the other language.
func auditInEachLanguage(t *testing.T, e *env, id, token string) {
	t.Helper()
	eng, err := catalog.Registry().Get("coup")
	if err != nil {
		t.Fatal(err)
	}
	cats := []*games.Catalog{archive.Words(), play.Words(), games.BoardWords(), eng.Words()}
	for _, lang := range games.Languages() {
		r := e.call(http.MethodGet, "/v1/games/"+id+"/audit", token, nil, "Accept-Language", lang)
		var rep struct {
			Checked []string `json:"checked"`
		}
		r.decode(t, &rep)
		if r.status != http.StatusOK || r.header.Get("Content-Language") != lang {
			t.Fatalf("the audit in %s: %d, Content-Language %q", lang, r.status, r.header.Get("Content-Language"))
		}
		want := archive.Words().In(lang).Must(games.T("checked.moves"))
		if !slices.Contains(rep.Checked, want) {
			t.Errorf("the audit in %s checked %q, not %q", lang, rep.Checked, want)
		}
		body := strings.Join(strings.Fields(strings.ToLower(string(r.body))), " ")
		for _, c := range cats {
			for _, s := range c.Foreign(lang) {
				if strings.Contains(body, s) {
					t.Errorf("the audit in %s says %q, foreign to it:\n%s", lang, s, r.body)
				}
			}
		}
	}
}

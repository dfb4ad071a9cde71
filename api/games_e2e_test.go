package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
)

// player is a signed-in person of a test.
type player struct {
	email, token, user string
}

// Every engine is played to its end over HTTP alone, by players signed in
// through the dev mailbox, with random legal moves (as written, or as a
// number of legal_compact). At every answer: no other player's address
// appears, the served view is exactly the engine's view for that seat,
// and after the end each player's event feed is their seat's history.
func TestWholeGamesOverHTTP(t *testing.T) {
	e := newEnv(t)
	reg := catalog.Registry()
	for gi, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			e.t = t
			eng, err := reg.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			pick := rand.New(rand.NewPCG(uint64(gi), 7)) //nolint:gosec // G115: a small index
			n := eng.Info().MinSeats
			people := make([]player, n)
			for i := range people {
				people[i].email = fmt.Sprintf("%s%d@players.test", kind, i)
				people[i].token = e.signIn(people[i].email)
				var me struct {
					ID string `json:"id"`
				}
				e.call(http.MethodGet, "/v1/me", people[i].token, nil).decode(t, &me)
				people[i].user = me.ID
			}
			invitees := map[string]string{}
			for _, p := range people[1:] {
				invitees[p.email] = p.token
			}
			id := e.newGame(kind, people[0].token, invitees)
			checkAnswer := func(p player, r reply) {
				t.Helper()
				for _, other := range people {
					if other.email != p.email && (bytes.Contains(r.body, []byte(other.email)) || bytes.Contains(r.body, []byte(other.user))) {
						t.Fatalf("an answer to %s names %s:\n%s", p.email, other.email, r.body)
					}
				}
			}
			moves := 0
			for step := 0; ; step++ {
				if step > 4000 {
					t.Fatalf("the game of %s did not end after %d moves", kind, moves)
				}
				var acting []int
				var views []seatView
				for i, p := range people {
					v, r := e.view(p.token, id)
					if r.status != http.StatusOK {
						t.Fatalf("view of %s: %d %s", p.email, r.status, r.body)
					}
					checkAnswer(p, r)
					views = append(views, v)
					if len(v.Pending) > 0 && len(v.LegalCompact) > 0 {
						acting = append(acting, i)
					}
				}
				if views[0].Game.Status == "finished" {
					break
				}
				if len(acting) == 0 {
					t.Fatalf("the game of %s is %s and nobody may act:\n%+v", kind, views[0].Game.Status, views)
				}
				if step%5 == 0 {
					checkViewsAreTheEngines(t, e, id, people, views)
				}
				i := acting[pick.IntN(len(acting))]
				v := views[i]
				move := chooseMove(pick, v)
				r := e.call(http.MethodPost, "/v1/games/"+id+"/moves", people[i].token,
					map[string]any{"move": move, "expected_version": v.Version}, "Idempotency-Key", fmt.Sprintf("%s-%d", id, step))
				checkAnswer(people[i], r)
				if r.status != http.StatusOK {
					t.Fatalf("move %q of %s at version %d: %d %s\nlegal: %v", move, people[i].email, v.Version, r.status, r.body, v.LegalCompact)
				}
				moves++
			}
			for _, p := range people {
				r := e.call(http.MethodGet, "/v1/games/"+id+"/events?since=0", p.token, nil)
				checkAnswer(p, r)
				var list struct {
					Items []json.RawMessage `json:"items"`
				}
				r.decode(t, &list)
				want, err := e.play.History(t.Context(), id, p.user, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(list.Items) != len(want) {
					t.Fatalf("%s's feed has %d events, their history %d", p.email, len(list.Items), len(want))
				}
				for k, raw := range list.Items {
					var got, exp map[string]any
					wraw, _ := json.Marshal(want[k])
					_ = json.Unmarshal(raw, &got)
					_ = json.Unmarshal(wraw, &exp)
					exp["text"] = want[k].Text.In("en") // the caller's language: none asked, English
					if !jsonEqual(got, exp) {
						t.Fatalf("%s's event %d:\n%s\nwant\n%s", p.email, k, raw, wraw)
					}
				}
			}
			t.Logf("%s: %d players, %d moves over HTTP", kind, n, moves)
		})
	}
}

// chooseMove picks a legal move: mostly one written out from legal, at
// times the number of a plain line of legal_compact.
func chooseMove(pick *rand.Rand, v seatView) string {
	if pick.IntN(3) == 0 {
		var plain []int
		for k, line := range v.LegalCompact {
			if !strings.ContainsAny(line, "…<") {
				plain = append(plain, k+1)
			}
		}
		if len(plain) > 0 {
			return fmt.Sprint(plain[pick.IntN(len(plain))])
		}
	}
	if len(v.Legal) > 0 {
		return v.Legal[pick.IntN(len(v.Legal))]
	}
	return "1"
}

// checkViewsAreTheEngines compares each served view with the engine's
// view for that seat, folded from the log.
func checkViewsAreTheEngines(t *testing.T, e *env, id string, people []player, views []seatView) {
	t.Helper()
	tbl, err := e.play.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	_, seatViews, err := tbl.Project()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range people {
		seat := tbl.SeatOf(p.user)
		if seat == games.Spectator || views[i].Seat == nil || *views[i].Seat != int(seat) {
			t.Fatalf("%s is served seat %v, plays %d", p.email, views[i].Seat, seat)
		}
		for _, sv := range seatViews {
			if sv.Seat != seat || sv.Version != views[i].Version {
				continue
			}
			var got, want any
			_ = json.Unmarshal(views[i].View, &got)
			_ = json.Unmarshal(sv.View, &want)
			if !jsonEqual(got, want) {
				t.Fatalf("%s (seat %d) is served\n%s\nbut the engine's view is\n%s", p.email, seat, views[i].View, sv.View)
			}
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

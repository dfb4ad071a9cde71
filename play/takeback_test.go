package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// seatViews is every seat's view and legal moves of a table, keyed by seat:
// what a take-back must restore.
func seatViews(t *testing.T, tbl *play.Table) map[games.Seat]string {
	t.Helper()
	_, views, err := tbl.Project()
	if err != nil {
		t.Fatal(err)
	}
	out := map[games.Seat]string{}
	for _, v := range views {
		b, err := json.Marshal(struct {
			View    any
			Legal   []string
			Choices []string
		}{v.View, v.Legal, v.Choices})
		if err != nil {
			t.Fatal(err)
		}
		out[v.Seat] = string(b)
	}
	return out
}

// takeBackGame starts a three-player Coup and plays the first seat's
// "tax": a move nothing since has fixed (its challenge window is open). It
// returns the game, the table before the tax, the table after it, the
// asker and the actors by seat.
func takeBackGame(t *testing.T, svc *play.Service) (string, *play.Table, *play.Table, games.Seat, map[games.Seat]play.Actor) {
	t.Helper()
	ctx := context.Background()
	id, before, bySeat := startGame(t, svc, "coup", 3)
	asker := before.Pending[0].Seat
	if _, err := svc.Move(ctx, bySeat[asker], id, before.Version, []string{"tax"}); err != nil {
		t.Fatal(err)
	}
	after, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return id, before, after, asker, bySeat
}

// others are the seats of a three-player game but seat.
func others(seat games.Seat) []games.Seat {
	var out []games.Seat
	for s := range games.Seat(3) {
		if s != seat {
			out = append(out, s)
		}
	}
	return out
}

// lastTypes are the types of a game's events after version from.
func lastTypes(t *testing.T, svc *play.Service, id string, from int) []string {
	t.Helper()
	changes, err := svc.History(context.Background(), id, "", from)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range changes {
		out = append(out, c.Type)
	}
	return out
}

// A take-back asked, and then answered, expired, withdrawn or overtaken:
// only the consent of every other player takes the move back, and then the
// game is as it was before the move (every seat's view and legal moves).
func TestTakeBackOutcomes(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	for _, tc := range []struct {
		name string
		// then does what follows the request, given the asker and the
		// actors by seat.
		then     func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, asked int)
		takenAt  bool // the move is taken back
		wantLast string
	}{
		{"every other player agrees", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, _ int) {
			for i, s := range others(asker) {
				out, err := svc.AnswerTakeBack(ctx, by[s], id, 0, true)
				if err != nil {
					t.Fatal(err)
				}
				if want := 1 + i; out.Version-out.From != want {
					t.Fatalf("answer %d wrote %d events, want %d", i+1, out.Version-out.From, want)
				}
			}
		}, true, play.TypeTakenBack},
		{"one refuses", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, _ int) {
			o := others(asker)
			if _, err := svc.AnswerTakeBack(ctx, by[o[0]], id, 0, true); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.AnswerTakeBack(ctx, by[o[1]], id, 0, false); err != nil {
				t.Fatal(err)
			}
		}, false, play.TypeTakeBackClosed},
		{"silence until the deadline", func(t *testing.T, id string, _ games.Seat, _ map[games.Seat]play.Actor, asked int) {
			if _, err := svc.ExpireTakeBack(ctx, id, asked, "test"); err != nil {
				t.Fatal(err)
			}
		}, false, play.TypeTakeBackClosed},
		{"the asker withdraws", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, _ int) {
			if _, err := svc.AnswerTakeBack(ctx, by[asker], id, 0, false); err != nil {
				t.Fatal(err)
			}
		}, false, play.TypeTakeBackClosed},
		{"a move overtakes it", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, asked int) {
			s := others(asker)[0]
			if _, err := svc.Move(ctx, by[s], id, asked-1, []string{"allow"}); err != nil {
				t.Fatal(err)
			}
		}, false, "coup.allow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, before, after, asker, by := takeBackGame(t, svc)
			out, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version)
			if err != nil {
				t.Fatal(err)
			}
			open, _ := svc.Load(ctx, id)
			if open.TakeBack == nil || open.TakeBack.To != before.Version || open.TakeBack.Seat != asker || len(open.TakeBack.Waiting) != 2 {
				t.Fatalf("open request %+v, want one to version %d by seat %d waiting for two", open.TakeBack, before.Version, asker)
			}
			// The request moves no pending entry: the window's answers
			// keep their identities (and deadlines).
			if len(open.Pending) != len(after.Pending) || open.Pending[0].ID() != after.Pending[0].ID() {
				t.Fatalf("pending %+v after the request, %+v before", open.Pending, after.Pending)
			}
			tc.then(t, id, asker, by, out.Version)
			end, _ := svc.Load(ctx, id)
			if end.TakeBack != nil {
				t.Fatalf("the request is still open: %+v", end.TakeBack)
			}
			types := lastTypes(t, svc, id, out.Version)
			if !strings.HasPrefix(types[len(types)-1], tc.wantLast) {
				t.Fatalf("events after the request %v, want the last %s", types, tc.wantLast)
			}
			want := seatViews(t, after)
			if tc.takenAt {
				want = seatViews(t, before)
				for _, p := range end.Pending {
					if p.Since != end.Version {
						t.Errorf("entry %+v after the take-back: want it opened anew at %d", p, end.Version)
					}
				}
				// The game goes on from there: the asker plays again.
				if _, err := svc.Move(ctx, by[asker], id, end.Version, []string{"income"}); err != nil {
					t.Fatalf("a move after the take-back: %v", err)
				}
			}
			if tc.name == "a move overtakes it" {
				return // the game went on
			}
			if got := seatViews(t, end); !equalViews(got, want) {
				t.Fatalf("views after:\n%v\nwant:\n%v", got, want)
			}
		})
	}
}

func equalViews(a, b map[games.Seat]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Refusals name what is wrong and write nothing.
func TestTakeBackRefusals(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	for _, tc := range []struct {
		name string
		// do sets the game up and makes the refused request; it returns
		// the error.
		do       func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error
		code     string
		rule     string
		contains string
	}{
		{"not the last mover", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			_, err := svc.RequestTakeBack(ctx, by[others(asker)[0]], id, v)
			return err
		}, play.CodeConflict, "", "only the player who made the last move"},
		{"a request is open", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			if _, err := svc.RequestTakeBack(ctx, by[asker], id, v); err != nil {
				t.Fatal(err)
			}
			_, err := svc.RequestTakeBack(ctx, by[asker], id, play.AnyVersion)
			return err
		}, play.CodeConflict, "", "already open"},
		{"a challenge revealed a card", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			c := others(asker)[0]
			if _, err := svc.Move(ctx, by[c], id, v, []string{"challenge"}); err != nil {
				t.Fatal(err)
			}
			// The claimant answers the challenge: a card is shown.
			tbl, _ := svc.Load(ctx, id)
			legal := tbl.Engine.Legal(tbl.State, asker)
			if len(legal) == 0 {
				t.Fatalf("the claimant has no move after the challenge: %+v", tbl.Pending)
			}
			if _, err := svc.Move(ctx, by[asker], id, play.AnyVersion, legal[:1]); err != nil {
				t.Fatal(err)
			}
			_, err := svc.RequestTakeBack(ctx, by[asker], id, play.AnyVersion)
			return err
		}, "", "TC-41", "revealed a card"},
		{"asked again after a refusal", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			if _, err := svc.RequestTakeBack(ctx, by[asker], id, v); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.AnswerTakeBack(ctx, by[others(asker)[0]], id, 0, false); err != nil {
				t.Fatal(err)
			}
			_, err := svc.RequestTakeBack(ctx, by[asker], id, play.AnyVersion)
			return err
		}, play.CodeConflict, "", "one request per move"},
		{"no request to answer", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			_, err := svc.AnswerTakeBack(ctx, by[others(asker)[0]], id, 0, true)
			return err
		}, play.CodeNotFound, "", "no open take-back"},
		{"answered twice", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			if _, err := svc.RequestTakeBack(ctx, by[asker], id, v); err != nil {
				t.Fatal(err)
			}
			o := others(asker)[0]
			if _, err := svc.AnswerTakeBack(ctx, by[o], id, 0, true); err != nil {
				t.Fatal(err)
			}
			_, err := svc.AnswerTakeBack(ctx, by[o], id, 0, true)
			return err
		}, play.CodeConflict, "", "already answered"},
		{"a stranger", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			_, err := svc.RequestTakeBack(ctx, play.Actor{User: "u-stranger", Channel: play.ChannelAPI}, id, v)
			return err
		}, play.CodeForbidden, "", ""},
		{"the game is over", func(t *testing.T, id string, asker games.Seat, by map[games.Seat]play.Actor, v int) error {
			for _, s := range others(asker) {
				if _, err := svc.Resign(ctx, by[s], id); err != nil {
					t.Fatal(err)
				}
			}
			_, err := svc.RequestTakeBack(ctx, by[asker], id, play.AnyVersion)
			return err
		}, play.CodeConflict, "", "over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, _, after, asker, by := takeBackGame(t, svc)
			err := tc.do(t, id, asker, by, after.Version)
			if err == nil {
				t.Fatal("not refused")
			}
			before, _ := svc.Load(ctx, id)
			if tc.rule != "" && !isRule(err, tc.rule) {
				t.Errorf("refusal %v: want rule %s", err, tc.rule)
			}
			var pe *play.Error
			if tc.code != "" && (!errors.As(err, &pe) || pe.Code != tc.code) {
				t.Errorf("refusal %v: want code %s", err, tc.code)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("refusal %q: want it to say %q", err, tc.contains)
			}
			again, _ := svc.Load(ctx, id)
			if again.Version != before.Version {
				t.Errorf("a refusal wrote events: version %d, was %d", again.Version, before.Version)
			}
		})
	}
}

// A take-back by a reply's words, in English and in French.
func TestTakeBackByReplyVerbs(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	for _, tc := range []struct {
		name          string
		ask           string
		agree, agree2 string
	}{
		{"English", "takeback", "agree", "I agree"},
		{"English undo", "undo", "agree", "agree"},
		{"French", "reprise", "d’accord", "d'accord"},
		{"French annuler", "annuler", "je suis d’accord", "D’ACCORD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, before, after, asker, by := takeBackGame(t, svc)
			w, err := svc.Write(ctx, by[asker], play.Text{GameID: id, Seat: games.Spectator, Expected: after.Version, Lines: []string{tc.ask}})
			if err != nil || w.Reply.Verb != play.VerbTakeBack {
				t.Fatalf("%q: %+v, %v", tc.ask, w.Reply, err)
			}
			o := others(asker)
			for i, word := range []string{tc.agree, tc.agree2} {
				w, err := svc.Write(ctx, by[o[i]], play.Text{GameID: id, Seat: games.Spectator, Expected: w.Version, Lines: []string{word}})
				if err != nil || w.Reply.Verb != play.VerbAgree {
					t.Fatalf("%q: %+v, %v", word, w.Reply, err)
				}
			}
			end, _ := svc.Load(ctx, id)
			if !equalViews(seatViews(t, end), seatViews(t, before)) {
				t.Fatal("the move was not taken back")
			}
		})
	}
	t.Run("refuser", func(t *testing.T) {
		id, _, after, asker, by := takeBackGame(t, svc)
		if _, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version); err != nil {
			t.Fatal(err)
		}
		w, err := svc.Write(ctx, by[others(asker)[0]], play.Text{GameID: id, Seat: games.Spectator, Expected: after.Version + 1, Lines: []string{"refuser"}})
		if err != nil || w.Reply.Verb != play.VerbRefuse {
			t.Fatalf("refuser: %+v, %v", w.Reply, err)
		}
		end, _ := svc.Load(ctx, id)
		if end.TakeBack != nil || !equalViews(seatViews(t, end), seatViews(t, after)) {
			t.Fatal("a refusal took the move back or left the request open")
		}
	})
}

// The history tells the take-back and the consents, in every language.
func TestTakeBackInTheHistory(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, before, after, asker, by := takeBackGame(t, svc)
	if _, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version); err != nil {
		t.Fatal(err)
	}
	for _, s := range others(asker) {
		if _, err := svc.AnswerTakeBack(ctx, by[s], id, 0, true); err != nil {
			t.Fatal(err)
		}
	}
	changes, err := svc.History(ctx, id, by[asker].User, after.Version)
	if err != nil {
		t.Fatal(err)
	}
	var en, fr []string
	for _, c := range changes {
		en, fr = append(en, c.Text.In("en")), append(fr, c.Text.In("fr"))
	}
	for _, want := range []string{"You ask to take back your last move (back to version", "agrees to the take-back", "the game goes on from version"} {
		if !strings.Contains(strings.Join(en, "\n"), want) {
			t.Errorf("history %q: want %q", en, want)
		}
	}
	for _, want := range []string{"Vous demandez à reprendre", "accepte la reprise", "reprend à la version"} {
		if !strings.Contains(strings.Join(fr, "\n"), want) {
			t.Errorf("history %q: want %q", fr, want)
		}
	}
	_ = before
}

// projections rebuild gives the projections the inline path wrote after a
// take-back.
func TestRebuildAfterATakeBack(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, _, after, asker, by := takeBackGame(t, svc)
	if _, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version); err != nil {
		t.Fatal(err)
	}
	for _, s := range others(asker) {
		if _, err := svc.AnswerTakeBack(ctx, by[s], id, 0, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Move(ctx, by[asker], id, play.AnyVersion, []string{"income"}); err != nil {
		t.Fatal(err)
	}
	inline, err := projections.Dump(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := play.NewUpkeep(pool, svc.Registry(), nil).RebuildProjections(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := projections.Dump(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(inline) == 0 || strings.Join(inline, "\n") != strings.Join(rebuilt, "\n") {
		t.Fatalf("rebuilt projections differ:\ninline:\n%s\nrebuilt:\n%s", strings.Join(inline, "\n"), strings.Join(rebuilt, "\n"))
	}
}

// The replay shows the request, the consents and the take-back, and the
// view after it is the view before the move; the audit of the finished
// game (re-deciding every move from the seed) passes.
func TestTakeBackReplayAndAudit(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	arc := archiveOf(svc, pool)
	id, before, after, asker, by := takeBackGame(t, svc)
	if _, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version); err != nil {
		t.Fatal(err)
	}
	for _, s := range others(asker) {
		if _, err := svc.AnswerTakeBack(ctx, by[s], id, 0, true); err != nil {
			t.Fatal(err)
		}
	}
	taken, _ := svc.Load(ctx, id)
	if _, err := svc.Move(ctx, by[asker], id, play.AnyVersion, []string{"income"}); err != nil {
		t.Fatal(err)
	}
	steps, err := arc.ReplayAs(ctx, id, archive.Viewer{Seat: asker}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	var beforeView, takenView json.RawMessage
	for _, st := range steps {
		if st.Version > after.Version {
			seen = append(seen, st.Type)
		}
		if st.Version == before.Version {
			beforeView = st.View
		}
		if st.Version == taken.Version {
			takenView = st.View
		}
	}
	want := []string{play.TypeTakeBackAsked, play.TypeTakeBackAnswered, play.TypeTakeBackAnswered, play.TypeTakenBack}
	if len(seen) < len(want) || strings.Join(seen[:len(want)], " ") != strings.Join(want, " ") {
		t.Fatalf("the replay after the move shows %v, want %v first", seen, want)
	}
	if beforeView == nil || !jsonEqualRaw(beforeView, takenView) {
		t.Fatalf("the replay's view after the take-back:\n%s\nbefore the move:\n%s", takenView, beforeView)
	}
	for _, s := range others(asker) {
		if _, err := svc.Resign(ctx, by[s], id); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := arc.AuditGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_ = archive.WriteAuditReport(&b, rep)
	if !rep.Passed {
		t.Fatalf("the audit of a game with a take-back fails:\n%s", b.String())
	}
	if len(rep.TakeBacks) != 1 || len(rep.TakeBacks[0].Answers) != 2 || rep.TakeBacks[0].Outcome != play.TakeBackTaken ||
		rep.TakeBacks[0].To != before.Version || !rep.TakeBacks[0].Answers[0].Agree {
		t.Fatalf("the audit's take-backs: %+v", rep.TakeBacks)
	}
	for _, want := range []string{"Take-backs:", fmt.Sprintf("asks to go back to version %d", before.Version), "agrees", "taken_back"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the audit report does not say %q:\n%s", want, b.String())
		}
	}
}

// Two worlds: two Coup games with the same public history (seating, coins,
// every move) and different hidden cards. Everything a take-back serves a
// seat (the answers of the commands, their refusals, the history) is the
// same in both, once times are normalised: whether a move may be taken
// back depends on public facts only, so a refusal tells nothing of a
// hidden card.
func TestTakeBackTwoWorlds(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	reg := catalog.Registry()
	serviceWith := func(seed games.Seed) *play.Service {
		return play.New(pool, reg, play.WithLogger(quietLog()), play.WithSeedBox(testSeeds), play.WithAccounts(testAccounts{}),
			play.WithSeeds(func() games.Seed { return seed }))
	}
	// Two seeds that seat the same way and deal differently.
	type world struct {
		svc *play.Service
		id  string
		by  map[games.Seat]play.Actor
		tbl *play.Table
	}
	var worlds, seen []world
	public := map[string]int{}
	for i := byte(1); i < 60 && len(worlds) < 2; i++ {
		svc := serviceWith(games.Seed{0x7b, i})
		id, tbl, by := startGame(t, svc, "coup", 3)
		_, views, err := tbl.Project()
		if err != nil {
			t.Fatal(err)
		}
		pub := string(views[0].View) + fmt.Sprint(tbl.Pending[0].Seat, tbl.Engine.Players(tbl.State))
		if j, ok := public[pub]; ok && seatViews(t, seen[j].tbl)[0] != seatViews(t, tbl)[0] {
			worlds = []world{seen[j], {svc, id, by, tbl}}
			break
		}
		public[pub] = len(seen)
		seen = append(seen, world{svc, id, by, tbl})
	}
	if len(worlds) != 2 || worlds[0].id == "" {
		t.Fatal("no two seeds with the same seating and different deals")
	}
	times := regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+Z`)
	// said is what a step served: its error in English and French, or the
	// seats' histories since the start.
	said := func(w world, err error) string {
		var b strings.Builder
		if err != nil {
			fmt.Fprintf(&b, "refused: %s | %s\n", games.Explain(err, "en"), games.Explain(err, "fr"))
			if re, ok := games.AsRuleError(err); ok {
				b.WriteString("rule " + re.Rule + "\n")
			}
		}
		for seat := range games.Seat(3) {
			changes, herr := w.svc.History(ctx, w.id, w.by[seat].User, w.tbl.Version)
			if herr != nil {
				t.Fatal(herr)
			}
			for _, c := range changes {
				if !strings.HasPrefix(c.Type, "game.") {
					continue // the game's own events: their redaction has its own two-worlds tests
				}
				fmt.Fprintf(&b, "seat %d: %d %s %s %s\n", seat, c.Version, c.Type, c.Data, c.Text.In("en"))
			}
		}
		return times.ReplaceAllString(b.String(), "TIME")
	}
	mover := worlds[0].tbl.Pending[0].Seat
	steps := []struct {
		name string
		do   func(w world) error
	}{
		{"tax", func(w world) error {
			_, err := w.svc.Move(ctx, w.by[mover], w.id, play.AnyVersion, []string{"tax"})
			return err
		}},
		{"ask", func(w world) error {
			_, err := w.svc.RequestTakeBack(ctx, w.by[mover], w.id, play.AnyVersion)
			return err
		}},
		{"agree", func(w world) error {
			_, err := w.svc.AnswerTakeBack(ctx, w.by[others(mover)[0]], w.id, 0, true)
			return err
		}},
		{"agree too", func(w world) error {
			_, err := w.svc.AnswerTakeBack(ctx, w.by[others(mover)[1]], w.id, 0, true)
			return err
		}},
		{"exchange", func(w world) error {
			_, err := w.svc.Move(ctx, w.by[mover], w.id, play.AnyVersion, []string{"exchange"})
			return err
		}},
		{"allow", func(w world) error {
			_, err := w.svc.Move(ctx, w.by[others(mover)[0]], w.id, play.AnyVersion, []string{"allow"})
			return err
		}},
		{"allow, and the Court draws", func(w world) error {
			_, err := w.svc.Move(ctx, w.by[others(mover)[1]], w.id, play.AnyVersion, []string{"allow"})
			return err
		}},
		{"ask after the draw", func(w world) error {
			_, err := w.svc.RequestTakeBack(ctx, w.by[others(mover)[1]], w.id, play.AnyVersion)
			return err
		}},
	}
	refusedByRule := false
	for _, st := range steps {
		var got [2]string
		for i, w := range worlds {
			err := st.do(w)
			got[i] = said(w, err)
			refusedByRule = refusedByRule || (err != nil && isRule(err, "TC-41"))
		}
		if got[0] != got[1] {
			t.Fatalf("%s: the two worlds differ:\n%s\n---\n%s", st.name, got[0], got[1])
		}
	}
	if !refusedByRule {
		t.Fatal("the take-back after the Court's draw was not refused under TC-41")
	}
}

// A request's deadline is a timer job inserted with it (and a mail to each
// other player): early, it waits; at the deadline silence refuses (the
// request closes as expired, and everyone is mailed); worked again, it
// writes nothing more.
func TestTakeBackDeadlineTimer(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewTakeBackWorker(svc, clock.Now)
	id, _, after, asker, by := takeBackGame(t, svc)
	out, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version)
	if err != nil {
		t.Fatal(err)
	}
	deadline := out.TakeBack.Deadline
	// The game's turn deadline (72 h by default).
	if turn, d := after.Deadlines["turn"], time.Until(deadline); turn == 0 || d < turn-time.Hour || d > turn+time.Hour {
		t.Fatalf("deadline in %v, want about the game's turn deadline %v", d, turn)
	}
	count := func(kind string) int {
		var n int
		if err := pool.QueryRow(ctx, `select count(*) from river_job where kind = $1 and args->>'game_id' = $2`, kind, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("game.takeback_deadline") != 1 || count("mail.takeback") != 2 {
		t.Fatalf("jobs after the request: %d timers, %d mails; want 1 and 2", count("game.takeback_deadline"), count("mail.takeback"))
	}
	job := &river.Job[jobs.TakeBackDeadline]{JobRow: &rivertype.JobRow{ID: 1}, Args: jobs.TakeBackDeadline{GameID: id, Asked: out.Version}}
	for _, tc := range []struct {
		name    string
		at      time.Time
		snooze  bool
		written int
	}{
		{"a minute early", deadline.Add(-time.Minute), true, 0},
		{"at the deadline", deadline.Add(time.Second), false, 1},
		{"again", deadline.Add(time.Minute), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock.Set(tc.at)
			before, _ := svc.Load(ctx, id)
			err := worker.Work(ctx, job)
			var snooze *rivertype.JobSnoozeError
			if got := errors.As(err, &snooze); got != tc.snooze || (!got && err != nil) {
				t.Fatalf("work: %v, want a snooze: %v", err, tc.snooze)
			}
			now, _ := svc.Load(ctx, id)
			if now.Version-before.Version != tc.written {
				t.Fatalf("wrote %d events, want %d", now.Version-before.Version, tc.written)
			}
		})
	}
	end, _ := svc.Load(ctx, id)
	if end.TakeBack != nil || len(end.TakeBacks) != 1 || end.TakeBacks[0].Outcome != play.TakeBackExpired {
		t.Fatalf("after the deadline: open %+v, record %+v", end.TakeBack, end.TakeBacks)
	}
	if count("mail.takeback") != 5 {
		t.Fatalf("%d take-back mails, want 2 asking and 3 telling the outcome", count("mail.takeback"))
	}
}

// An answer that names an older request than the open one (a stale mail's
// "agree", a button or an API call naming a closed request) is refused,
// naming the open request, and writes nothing; one that names the open
// request (or a later version) answers it.
func TestTakeBackStaleAnswers(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	// Two requests: the asker's tax (r1), overtaken by the next player's
	// "allow", who asks to take that back (r2, open).
	setup := func(t *testing.T) (id string, r1, r2 int, by map[games.Seat]play.Actor, third games.Seat) {
		t.Helper()
		id, _, after, asker, by := takeBackGame(t, svc)
		out, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version)
		if err != nil {
			t.Fatal(err)
		}
		o := others(asker)
		if _, err := svc.Move(ctx, by[o[0]], id, play.AnyVersion, []string{"allow"}); err != nil {
			t.Fatal(err)
		}
		out2, err := svc.RequestTakeBack(ctx, by[o[0]], id, play.AnyVersion)
		if err != nil {
			t.Fatal(err)
		}
		return id, out.Version, out2.Version, by, o[1]
	}
	for _, tc := range []struct {
		name string
		// answer answers as seat, given both requests' versions.
		answer func(id string, by play.Actor, r1, r2 int) error
		wantOK bool
	}{
		{"mail: agree to the overtaken request", func(id string, by play.Actor, r1, _ int) error {
			_, err := svc.Write(ctx, by, play.Text{GameID: id, Seat: games.Spectator, Expected: r1, Lines: []string{"agree"}})
			return err
		}, false},
		{"mail: refuser to a mail older than the open request", func(id string, by play.Actor, _, r2 int) error {
			_, err := svc.Write(ctx, by, play.Text{GameID: id, Seat: games.Spectator, Expected: r2 - 1, Lines: []string{"refuser"}})
			return err
		}, false},
		{"API or button: the overtaken request", func(id string, by play.Actor, r1, _ int) error {
			_, err := svc.AnswerTakeBack(ctx, by, id, r1, true)
			return err
		}, false},
		{"mail: agree to the open request's notice", func(id string, by play.Actor, _, r2 int) error {
			_, err := svc.Write(ctx, by, play.Text{GameID: id, Seat: games.Spectator, Expected: r2, Lines: []string{"agree"}})
			return err
		}, true},
		{"API or button: the open request", func(id string, by play.Actor, _, r2 int) error {
			_, err := svc.AnswerTakeBack(ctx, by, id, r2, true)
			return err
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, r1, r2, by, third := setup(t)
			err := tc.answer(id, by[third], r1, r2)
			after, _ := svc.Load(ctx, id)
			if tc.wantOK {
				if err != nil || after.Version == r2 {
					t.Fatalf("answer to the open request: %v, version %d", err, after.Version)
				}
				return
			}
			var pe *play.Error
			if !errors.As(err, &pe) || pe.Code != play.CodeConflict {
				t.Fatalf("stale answer: %v, want a conflict", err)
			}
			for _, lang := range []string{"en", "fr"} {
				if msg := pe.Explain(lang); !strings.Contains(msg, fmt.Sprintf(" %d", r2)) {
					t.Errorf("refusal in %s %q: want it to name the open request %d", lang, msg, r2)
				}
			}
			if after.Version != r2 || after.TakeBack == nil || after.TakeBack.Version != r2 || len(after.TakeBack.Waiting) != 2 {
				t.Fatalf("a stale answer wrote: version %d (want %d), open %+v", after.Version, r2, after.TakeBack)
			}
		})
	}
}

// The outcome notice of a request names the event that closed it, also
// when more events follow in the same command (a default move played at a
// deadline overtakes the request).
func TestTakeBackOutcomeNoticeNamesTheClose(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	for _, tc := range []struct {
		name string
		// close closes the open request; it returns the outcome wanted.
		close func(t *testing.T, id string, after *play.Table, asker games.Seat, by map[games.Seat]play.Actor) string
	}{
		{"a timeout overtakes it", func(t *testing.T, id string, after *play.Table, _ games.Seat, _ map[games.Seat]play.Actor) string {
			if _, err := svc.Timeout(ctx, id, after.Pending[0].ID(), "test"); err != nil {
				t.Fatal(err)
			}
			return play.TakeBackOvertaken
		}},
		{"a refusal", func(t *testing.T, id string, _ *play.Table, asker games.Seat, by map[games.Seat]play.Actor) string {
			if _, err := svc.AnswerTakeBack(ctx, by[others(asker)[0]], id, 0, false); err != nil {
				t.Fatal(err)
			}
			return play.TakeBackRefused
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, _, after, asker, by := takeBackGame(t, svc)
			out, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version)
			if err != nil {
				t.Fatal(err)
			}
			outcome := tc.close(t, id, after, asker, by)
			end, _ := svc.Load(ctx, id)
			if len(end.TakeBacks) != 1 || end.TakeBacks[0].Outcome != outcome {
				t.Fatalf("record %+v, want %s", end.TakeBacks, outcome)
			}
			closed := end.TakeBacks[0].Closed
			rows, err := pool.Query(ctx, `select (args->>'version')::int from river_job where kind = 'mail.takeback' and args->>'game_id' = $1
				and (args->>'version')::int > $2`, id, out.Version)
			if err != nil {
				t.Fatal(err)
			}
			var versions []int
			for rows.Next() {
				var v int
				if err := rows.Scan(&v); err != nil {
					t.Fatal(err)
				}
				versions = append(versions, v)
			}
			if rows.Err() != nil {
				t.Fatal(rows.Err())
			}
			if len(versions) != 3 {
				t.Fatalf("outcome notices at versions %v, want 3", versions)
			}
			for _, v := range versions {
				if v != closed {
					t.Errorf("an outcome notice names version %d, want the close at %d (the game is at %d)", v, closed, end.Version)
				}
			}
		})
	}
}

// Two moves in a row by one seat with the same text are two moves: a
// take-back undoes the last one only (in Coup, the target of a steal
// allows it unchallenged, then allows it unblocked).
func TestTakeBackUndoesOneOfTwoSameMoves(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, by := startGame(t, svc, "coup", 3)
	thief := tbl.Pending[0].Seat
	steal := ""
	for _, m := range tbl.Engine.Legal(tbl.State, thief) {
		if strings.HasPrefix(m, "steal") {
			steal = m
			break
		}
	}
	if _, err := svc.Move(ctx, by[thief], id, tbl.Version, []string{steal}); err != nil {
		t.Fatal(err)
	}
	var target, other games.Seat = -1, -1
	for seat, name := range tbl.Engine.Players(tbl.State) {
		switch {
		case games.Seat(seat) == thief:
		case strings.HasSuffix(steal, " "+name):
			target = games.Seat(seat)
		default:
			other = games.Seat(seat)
		}
	}
	if steal == "" || target < 0 || other < 0 {
		t.Fatalf("no steal to play: %q, target %d", steal, target)
	}
	// The other allows first, then the target (the challenge window
	// closes), then the target again (the block window).
	var mid *play.Table
	for i, s := range []games.Seat{other, target, target} {
		if i == 2 {
			mid, _ = svc.Load(ctx, id)
		}
		if _, err := svc.Move(ctx, by[s], id, play.AnyVersion, []string{"allow"}); err != nil {
			t.Fatalf("allow %d by seat %d: %v", i+1, s, err)
		}
	}
	if _, err := svc.RequestTakeBack(ctx, by[target], id, play.AnyVersion); err != nil {
		t.Fatal(err)
	}
	for _, s := range []games.Seat{thief, other} {
		if _, err := svc.AnswerTakeBack(ctx, by[s], id, 0, true); err != nil {
			t.Fatal(err)
		}
	}
	end, _ := svc.Load(ctx, id)
	if len(end.TakeBacks) != 1 || end.TakeBacks[0].To != mid.Version {
		t.Fatalf("the take-back went back to %+v, want version %d (before the second allow only)", end.TakeBacks, mid.Version)
	}
	if !equalViews(seatViews(t, end), seatViews(t, mid)) {
		t.Fatal("the views after the take-back are not those before the second allow")
	}
}

// A game that ends while a take-back request is open (a claim, once the
// other player is abandoned) closes the request first, as "ended": the
// audit shows no request open in a finished game.
func TestTakeBackClosedAtTheEnd(t *testing.T) {
	ctx := context.Background()
	svc, pool := mailService(t)
	clock := &fakeClock{t: time.Now()}
	worker := play.NewDeadlineWorker(svc, clock.Now)
	id, tbl, bySeat := startGame(t, svc, "coup", 2)
	silent := tbl.Pending[0].Seat
	active := 1 - silent
	abandonSeat(t, svc, pool, id, bySeat, silent, clock, worker)
	var asked play.Outcome
	for range 50 {
		tbl, _ = svc.Load(ctx, id)
		if !slices.ContainsFunc(tbl.Pending, func(p games.Pending) bool { return p.Seat == active }) {
			t.Fatalf("the active seat has nothing to play: %+v", tbl.Pending)
		}
		if _, err := svc.Move(ctx, bySeat[active], id, tbl.Version, []string{passive(tbl.Engine.Legal(tbl.State, active))}); err != nil {
			t.Fatal(err)
		}
		var err error
		if asked, err = svc.RequestTakeBack(ctx, bySeat[active], id, play.AnyVersion); err == nil {
			break
		}
	}
	if asked.TakeBack == nil {
		t.Fatal("no take-back request could be opened")
	}
	if _, err := svc.Claim(ctx, bySeat[active], id); err != nil {
		t.Fatal(err)
	}
	end, _ := svc.Load(ctx, id)
	if !end.Ended || end.TakeBack != nil {
		t.Fatalf("after the claim: ended %v, open %+v", end.Ended, end.TakeBack)
	}
	last := end.TakeBacks[len(end.TakeBacks)-1]
	if last.Version != asked.Version || last.Outcome != play.TakeBackEnded || last.Closed != end.Version-1 {
		t.Fatalf("the request's record %+v: want closed as %q at %d, before the end", last, play.TakeBackEnded, end.Version-1)
	}
	if types := lastTypes(t, svc, id, asked.Version); strings.Join(types[len(types)-2:], " ") != play.TypeTakeBackClosed+" "+play.TypeEnded {
		t.Fatalf("events after the request %v, want it closed before the end", types)
	}
}

// A request asks only the seats still in play: a player away when it is
// asked is not asked (their silence would refuse for them), and cannot
// answer; when nobody else is left to ask, the move is taken back at once.
func TestTakeBackAsksOnlySeatsInPlay(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	for _, tc := range []struct {
		name string
		away int // how many of the others are away (the first ones)
	}{
		{"nobody away", 0},
		{"one away", 1},
		{"every other player away", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, before, _, asker, by := takeBackGame(t, svc)
			o := others(asker)
			for _, s := range o[:tc.away] {
				if _, err := svc.AwayFor(ctx, by[s], id, 48*time.Hour); err != nil {
					t.Fatal(err)
				}
			}
			out, err := svc.RequestTakeBack(ctx, by[asker], id, play.AnyVersion)
			if err != nil {
				t.Fatal(err)
			}
			tbl, _ := svc.Load(ctx, id)
			if tc.away == len(o) {
				if tbl.TakeBack != nil || len(tbl.TakeBacks) != 1 || tbl.TakeBacks[0].Outcome != play.TakeBackTaken {
					t.Fatalf("nobody to ask: open %+v, record %+v; want it taken back at once", tbl.TakeBack, tbl.TakeBacks)
				}
				if !equalViews(seatViews(t, tbl), seatViews(t, before)) {
					t.Fatal("the move was not taken back")
				}
				return
			}
			if out.TakeBack == nil || !slices.Equal(out.TakeBack.Waiting, o[tc.away:]) {
				t.Fatalf("the request waits for %+v, want %v", out.TakeBack, o[tc.away:])
			}
			for _, s := range o[:tc.away] {
				_, err := svc.AnswerTakeBack(ctx, by[s], id, 0, false)
				var pe *play.Error
				if !errors.As(err, &pe) || pe.Code != play.CodeConflict || !strings.Contains(err.Error(), "does not ask you") {
					t.Fatalf("an answer by a player away: %v, want it refused as not asked", err)
				}
			}
		})
	}
}

// An answer says the outcome of the request it closed (none while others
// still have to answer), and a replay of it under the same idempotency key
// says the same: a door never works it out from the request left open.
func TestTakeBackAnswerSaysItsOutcome(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	for _, tc := range []struct {
		name string
		// answers are the answers in order, by the asker (-1) or the
		// others (0, 1); the outcome of each is wanted.
		answers []struct {
			who   int
			agree bool
			want  string
		}
	}{
		{"agreed by all", []struct {
			who   int
			agree bool
			want  string
		}{{0, true, ""}, {1, true, play.TakeBackTaken}}},
		{"refused", []struct {
			who   int
			agree bool
			want  string
		}{{0, true, ""}, {1, false, play.TakeBackRefused}}},
		{"withdrawn", []struct {
			who   int
			agree bool
			want  string
		}{{0, true, ""}, {-1, false, play.TakeBackWithdrawn}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, _, after, asker, by := takeBackGame(t, svc)
			if _, err := svc.RequestTakeBack(ctx, by[asker], id, after.Version); err != nil {
				t.Fatal(err)
			}
			for i, a := range tc.answers {
				actor := by[asker]
				if a.who >= 0 {
					actor = by[others(asker)[a.who]]
				}
				actor.IdempotencyKey = fmt.Sprintf("answer-%s-%d", id, i)
				out, err := svc.AnswerTakeBack(ctx, actor, id, 0, a.agree)
				if err != nil || out.TakeBackOutcome != a.want {
					t.Fatalf("answer %d: outcome %q, %v; want %q", i+1, out.TakeBackOutcome, err, a.want)
				}
				again, err := svc.AnswerTakeBack(ctx, actor, id, 0, a.agree)
				if err != nil || again.TakeBackOutcome != a.want || again.Version != out.Version {
					t.Fatalf("answer %d replayed: outcome %q at %d, %v; want %q at %d", i+1, again.TakeBackOutcome, again.Version, err, a.want, out.Version)
				}
			}
		})
	}
}

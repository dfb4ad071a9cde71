package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// TestReadPathsShowEachSeatOnlyItsOwn plays random games of every engine
// through the command path, with real accounts, stale moves and timeouts,
// and checks every per-person read (seat view with its legal lists, history
// with meta and descriptions, the stale-move "what changed", the game row
// and the games list) at several points of each game:
//   - no address and no user id appears in any of them;
//   - a game event in a seat's history is exactly the engine's redaction of
//     the stored event for that seat, on the state before it, and its text
//     the engine's description of that redaction, so that the engines' own
//     leak properties carry over to what is served;
//   - the move as typed is shown only to the seat that made it;
//   - a seat's view and lists are the engine's for that seat;
//   - what a stale move reports as changed is that seat's history.
func TestReadPathsShowEachSeatOnlyItsOwn(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	users := auth.NewUsers(pool)
	reg := catalog.Registry()
	for gi, kind := range reg.IDs() {
		for round := range 2 {
			t.Run(fmt.Sprintf("%s/%d", kind, round), func(t *testing.T) {
				eng, _ := reg.Get(kind)
				info := eng.Info()
				pick := rand.New(rand.NewPCG(uint64(gi), uint64(round))) //nolint:gosec // G115: indexes, never negative
				n := info.MinSeats + pick.IntN(info.MaxSeats-info.MinSeats+1)
				var people []play.Actor
				var secrets []string // what must never be served: addresses and ids
				for i := range n {
					u, err := users.Ensure(ctx, fmt.Sprintf("player%d.%s.%d@example.org", i, kind, round))
					if err != nil {
						t.Fatal(err)
					}
					people = append(people, play.Actor{User: u.ID, Channel: play.ChannelEmail, Sender: u.Email})
					secrets = append(secrets, u.Email, u.ID)
				}
				out, err := svc.Create(ctx, people[0], kind, nil, "Ana")
				if err != nil {
					t.Fatal(err)
				}
				id := out.GameID
				for i := 1; i < n; i++ {
					if _, err := svc.Join(ctx, people[i], id, []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}[i]); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := svc.Start(ctx, people[0], id); err != nil {
					t.Fatal(err)
				}
				tbl, err := svc.Load(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				var stales []*play.StaleError
				for step := 0; !tbl.Ended && step < 3000; step++ {
					p := tbl.Pending[pick.IntN(len(tbl.Pending))]
					actor := people[slices.IndexFunc(people, func(a play.Actor) bool { return tbl.SeatOf(a.User) == p.Seat })]
					switch {
					case step%9 == 4:
						if _, err := svc.Timeout(ctx, id, p.ID(), "leak-test"); err != nil {
							t.Fatal(err)
						}
					case step%13 == 6 && tbl.Version > 3:
						// A move against a version from before the seat's entry opened.
						_, err := svc.Move(ctx, actor, id, p.Since-1, []string{p.Default})
						var stale *play.StaleError
						if !errors.As(err, &stale) {
							t.Fatalf("a move against version %d (entry opened at %d): %v, want stale", p.Since-1, p.Since, err)
						}
						stales = append(stales, stale)
						checkStale(t, svc, id, actor.User, stale, secrets)
					default:
						legal := tbl.Engine.Legal(tbl.State, p.Seat)
						if _, err := svc.Move(ctx, actor, id, tbl.Version, []string{legal[pick.IntN(len(legal))]}); err != nil {
							t.Fatal(err)
						}
					}
					if tbl, err = svc.Load(ctx, id); err != nil {
						t.Fatal(err)
					}
					if step%40 == 20 {
						checkReads(t, svc, archiveOf(svc, pool), pool, id, people, secrets)
					}
				}
				if !tbl.Ended {
					t.Fatal("the game did not end in 3000 commands")
				}
				checkReads(t, svc, archiveOf(svc, pool), pool, id, people, secrets)
				if len(stales) == 0 {
					t.Fatal("no stale move was tried")
				}
				// And nothing personal in the log itself.
				var leaks int
				if err := pool.QueryRow(ctx, `select count(*) from events where stream = $1 and (data::text like '%@%' or meta::text like '%@%')`,
					play.Stream(id)).Scan(&leaks); err != nil || leaks != 0 {
					t.Fatalf("%d events of the game hold an address, %v", leaks, err)
				}
			})
		}
	}
}

func noSecrets(t *testing.T, what string, v any, secrets []string) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if strings.Contains(s, "@") {
		t.Fatalf("%s shows an address: %.300s", what, s)
	}
	for _, x := range secrets {
		if strings.Contains(s, x) {
			t.Fatalf("%s shows %q: %.300s", what, x, s)
		}
	}
}

func checkStale(t *testing.T, svc *play.Service, id, user string, stale *play.StaleError, secrets []string) {
	t.Helper()
	noSecrets(t, "a stale move's error", stale.Error(), secrets)
	noSecrets(t, "a stale move's changes", stale.Changes, secrets)
	hist, err := svc.History(context.Background(), id, user, stale.Expected)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(stale.Changes)
	b, _ := json.Marshal(hist)
	if string(a) != string(b) {
		t.Fatalf("a stale move's changes are not the seat's history since %d:\n%s\n%s", stale.Expected, a, b)
	}
}

// checkReads compares every read of every person (and of the public) with
// the engine's own per-seat functions, computed here from the stored log.
func checkReads(t *testing.T, svc *play.Service, arc *play.Archive, pool interface {
	events.Querier
}, id string, people []play.Actor, secrets []string) {
	t.Helper()
	ctx := context.Background()
	full, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := events.ReadStream(ctx, pool, play.Stream(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	viewers := append([]string{""}, func() []string {
		var us []string
		for _, p := range people {
			us = append(us, p.User)
		}
		return us
	}()...)
	g, err := svc.GameFor(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	noSecrets(t, "the game row", g, secrets)
	list, err := projections.ListGames(ctx, pool, "", 50)
	if err != nil {
		t.Fatal(err)
	}
	noSecrets(t, "the games list", list, secrets)
	for _, user := range viewers {
		seat := full.SeatOf(user)
		if slices.Contains(full.Resigned, seat) && !full.Ended {
			seat = games.Spectator
		}
		hist, err := svc.History(ctx, id, user, 0)
		if err != nil {
			t.Fatal(err)
		}
		noSecrets(t, fmt.Sprintf("seat %d's history", seat), hist, secrets)
		// The engine's redaction and description, on the state before each
		// game event, folded here from the stored events alone.
		var state games.State
		started := false
		for i, e := range recorded {
			c := hist[i]
			var meta events.Meta
			if err := json.Unmarshal(e.Meta, &meta); err != nil {
				t.Fatal(err)
			}
			if c.Meta.Move != "" && (meta.Seat == nil || games.Seat(*meta.Seat) != seat) {
				t.Fatalf("seat %d is shown the move %q typed by another seat (meta %s)", seat, c.Meta.Move, e.Meta)
			}
			typ, own := strings.CutPrefix(e.Type, full.Kind+".")
			if e.Type == play.TypeStarted {
				if state, err = full.Engine.Initial(full.Rules); err != nil {
					t.Fatal(err)
				}
				started = true
			}
			if !own || !started {
				continue
			}
			raw := games.RawEvent{Type: typ, Data: e.Data}
			red, err := full.Engine.Redact(state, raw, seat)
			if err != nil {
				t.Fatal(err)
			}
			text, err := full.Engine.Describe(state, red, seat)
			if err != nil {
				t.Fatal(err)
			}
			if string(c.Data) != string(red.Data) || c.Text.String() != text.String() {
				t.Fatalf("seat %d, version %d: served %s %q, the engine's redaction is %s %q", seat, e.Version, c.Data, c.Text, red.Data, text)
			}
			if state, err = full.Engine.Evolve(state, raw); err != nil {
				t.Fatal(err)
			}
		}
		checkReplayAndRecord(t, arc, full, user, hist, secrets)
		v, err := svc.ViewFor(ctx, id, user)
		if err != nil {
			t.Fatal(err)
		}
		noSecrets(t, fmt.Sprintf("seat %d's view", seat), v, secrets)
		viewSeat := full.SeatOf(user)
		want, err := full.Engine.View(full.State, viewSeat)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if json.Unmarshal(v.View, &a) != nil || json.Unmarshal(want, &b) != nil || !jsonEqual(a, b) {
			t.Fatalf("seat %d is served the view %s, the engine's is %s", viewSeat, v.View, want)
		}
		if !full.Ended && viewSeat != games.Spectator && !slices.Equal(v.Choices, full.Engine.Choices(full.State, viewSeat)) {
			t.Fatalf("seat %d is served the choices %q, the engine's are %q", viewSeat, v.Choices, full.Engine.Choices(full.State, viewSeat))
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// checkReplayAndRecord checks that a person's replay and record of a game
// hold, event by event, exactly their history (the engine's redaction for
// their seat, the move as typed only when their own) and, before the end,
// no full reveal, no seed and no hashes; the public gets neither of a
// started game.
func checkReplayAndRecord(t *testing.T, arc *play.Archive, full *play.Table, user string, hist []play.Change, secrets []string) {
	t.Helper()
	if full.Ended {
		return // everything is revealed after the end
	}
	ctx := context.Background()
	steps, err := arc.Replay(ctx, full.ID, user, 0)
	if user == "" {
		if !isCode(err, play.CodeForbidden) {
			t.Fatalf("the public's replay of a started game: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(hist) {
		t.Fatalf("%d replay steps for %d events", len(steps), len(hist))
	}
	for i, st := range steps {
		h := hist[i]
		if !jsonEqualRaw(st.Data, h.Data) || st.Text.String() != h.Text.String() || st.Meta.Move != h.Meta.Move {
			t.Fatalf("replay step %d is not the history: %s %q %q, history %s %q %q", st.Version, st.Data, st.Text, st.Meta.Move, h.Data, h.Text, h.Meta.Move)
		}
		if st.Reveal != nil && !full.Ended {
			t.Fatalf("a player's replay reveals everything at version %d before the end", st.Version)
		}
	}
	noSecrets(t, "a replay", steps, secrets)
	var b bytes.Buffer
	if err := arc.RecordFor(ctx, &b, full.ID, user); err != nil {
		t.Fatal(err)
	}
	noSecrets(t, "a record", b.String(), secrets)
	rec, err := archive.ParseRecord(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !full.Ended && (rec.Header("Seed") != "secret until the game ends" || strings.Contains(b.String(), " hash ")) {
		t.Fatalf("a seat's record of a running game shows the seed or hashes:\n%.600s", b.String())
	}
	if len(rec.Events) != len(hist) {
		t.Fatalf("%d record events for %d in the history", len(rec.Events), len(hist))
	}
	for i, e := range rec.Events {
		var m events.Meta
		_ = json.Unmarshal(e.Meta, &m)
		if full.Ended {
			continue // the record for everyone after the end
		}
		if !jsonEqualRaw(e.Data, hist[i].Data) || m.Move != hist[i].Meta.Move {
			t.Fatalf("record line %d is not the history: %s %q, history %s %q", e.Version, e.Data, m.Move, hist[i].Data, hist[i].Meta.Move)
		}
	}
}

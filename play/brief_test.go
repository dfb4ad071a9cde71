package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// briefServices are three services on one database: this process (its
// commands and briefs share its cache), another process writing to the
// same games, and a service without a cache, whose every brief reads and
// folds the stream as briefs always did.
type briefServices struct {
	here, other, folding *play.Service
	pool                 *pgxpool.Pool
}

func newBriefServices(t testing.TB) briefServices {
	t.Helper()
	pool := pgtest.New(t)
	svc := func(opts ...play.Option) *play.Service {
		return play.New(pool, catalog.Registry(), append([]play.Option{play.WithLogger(quietLog()), play.WithSeedBox(testSeeds),
			play.WithAccounts(testAccounts{})}, opts...)...)
	}
	return briefServices{here: svc(), other: svc(), folding: svc(play.WithCache(0)), pool: pool}
}

// briefTally counts the briefs compared and those the cache could not
// serve.
type briefTally struct {
	briefs, folds           int64
	handed, resigned, rules int
	byOther                 int
}

func bool2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// check compares, for every seat and the spectator, the brief and what the
// versions (from, to] caused as this process serves them with the brief
// and the changes of a fresh fold, and what was caused with History.
func (s briefServices) check(t *testing.T, id string, seats, from, to int, tally *briefTally) {
	t.Helper()
	ctx := context.Background()
	folds := s.here.BriefFolds()
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		got, gotCaused, err := s.here.BriefAndCaused(ctx, id, seat, from, to)
		if err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		before := s.folding.BriefFolds()
		want, wantCaused, err := s.folding.BriefAndCaused(ctx, id, seat, from, to)
		if err != nil {
			t.Fatalf("seat %d, folded: %v", seat, err)
		}
		if s.folding.BriefFolds() != before+1 {
			t.Fatalf("a brief without a cache did not count as a fold")
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %s version %d, seat %d: the brief from the cache\n%s\ndiffers from the brief from a fold\n%s",
				id, want.Version, seat, briefJSON(t, got), briefJSON(t, want))
		}
		if !reflect.DeepEqual(gotCaused, wantCaused) {
			t.Fatalf("game %s seat %d: caused (%d, %d] from the cache\n%s\nfrom a fold\n%s", id, seat, from, to,
				briefJSON(t, gotCaused), briefJSON(t, wantCaused))
		}
		hist, err := s.folding.History(ctx, id, want.User, from)
		if err != nil {
			t.Fatal(err)
		}
		hist = slices.DeleteFunc(hist, func(c play.Change) bool { return c.Version > to })
		if len(hist) != len(wantCaused) || (len(hist) > 0 && !reflect.DeepEqual(hist, wantCaused)) {
			t.Fatalf("game %s seat %d: caused (%d, %d]\n%s\nbut History says\n%s", id, seat, from, to,
				briefJSON(t, wantCaused), briefJSON(t, hist))
		}
		plain, err := s.here.Brief(ctx, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain, want) {
			t.Fatalf("game %s seat %d: Brief differs from BriefAndCaused's brief", id, seat)
		}
		tally.briefs += 2
	}
	tally.folds += s.here.BriefFolds() - folds
}

func briefJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Over random games of every kind — moves (some of several lines),
// timeouts, absences, disputes and rulings, a resignation, a seat
// abandoned and handed over, and commands of another process on the same
// games — the brief this process serves from its cache equals, after every
// command, for every seat and the spectator, the brief of a fresh fold of
// the stream (view, choices, pending entries, deadline, what happened
// since, seed and head at the end), and what a command caused equals what
// History says of it; almost none needs a fold.
func TestBriefFromTheCacheEqualsTheFold(t *testing.T) {
	s := newBriefServices(t)
	ctx := context.Background()
	reg := catalog.Registry()
	var tally briefTally
	for gi, kind := range reg.IDs() {
		for round := range 2 {
			t.Run(fmt.Sprintf("%s/%d", kind, round), func(t *testing.T) {
				eng, _ := reg.Get(kind)
				info := eng.Info()
				pick := rand.New(rand.NewPCG(uint64(gi)+40, uint64(round))) //nolint:gosec // G115: indexes, never negative
				n := info.MinSeats + pick.IntN(info.MaxSeats-info.MinSeats+1)
				if round == 1 {
					n = info.MaxSeats
				}
				user := func(who string) string { return fmt.Sprintf("u-%s-%d-%s", kind, round, who) }
				actor := func(u string) play.Actor { return play.Actor{User: u, Channel: play.ChannelEmail} }
				creator := actor(user("p0"))
				out, err := s.here.CreateGame(ctx, creator, play.GameRequest{Kind: kind, Name: "Ana",
					Referee: fmt.Sprintf("%s-%d-ref@example.org", kind, round)})
				if err != nil {
					t.Fatal(err)
				}
				id := out.GameID
				referee := actor("u-" + fmt.Sprintf("%s-%d-ref", kind, round))
				s.check(t, id, 0, 0, out.Version, &tally)
				for i := 1; i < n; i++ {
					if out, err = s.here.Join(ctx, actor(user(fmt.Sprintf("p%d", i))), id, []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}[i]); err != nil {
						t.Fatal(err)
					}
					s.check(t, id, 0, out.From, out.Version, &tally)
				}
				if out, err = s.here.Start(ctx, creator, id); err != nil {
					t.Fatal(err)
				}
				s.check(t, id, n, out.From, out.Version, &tally)
				var disputes []int
				resigned, handed := false, false
				abandoning := games.Spectator
				for step := range 300 {
					tbl, err := s.folding.Load(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if tbl.Ended {
						break
					}
					p := tbl.Pending[pick.IntN(len(tbl.Pending))]
					svc := s.here
					if pick.IntN(6) == 0 {
						svc = s.other
						tally.byOther++
					}
					mover := actor(tbl.UserAt(p.Seat))
					r := pick.IntN(100)
					switch {
					case abandoning != games.Spectator && slices.Contains(tbl.Abandoned, abandoning):
						out, err = svc.Replace(ctx, creator, id, abandoning, user("newcomer"))
						abandoning, handed = games.Spectator, true
					case abandoning != games.Spectator && p.Seat == abandoning || r < 6:
						out, err = svc.Timeout(ctx, id, p.ID(), "brief-test")
					case step == 25 && !handed && tbl.SeatOf(creator.User) != p.Seat:
						abandoning = p.Seat
						out, err = svc.Timeout(ctx, id, p.ID(), "brief-test")
					case r < 9:
						out, err = svc.AwayFor(ctx, mover, id, 24*time.Hour)
					case r < 11:
						out, err = svc.BackNow(ctx, mover, id)
					case r < 13 && tbl.Version > 10:
						out, err = svc.DisputeMove(ctx, mover, id, tbl.Version-pick.IntN(5), "that was not legal")
						if err == nil {
							disputes = append(disputes, out.Version)
						}
					case r < 15 && len(disputes) > 0:
						tally.rules++
						out, err = svc.RuleDispute(ctx, referee, id, disputes[0], []string{play.RulingUpheld, play.RulingRejected}[pick.IntN(2)], "as the rules say")
						disputes = disputes[1:]
					case r < 16 && !resigned && step > 40 && len(tbl.Engine.Players(tbl.State)) > info.MinSeats && abandoning == games.Spectator:
						out, err = svc.Resign(ctx, mover, id)
						resigned = true
					default:
						legal := tbl.Engine.Legal(tbl.State, p.Seat)
						lines := []string{legal[pick.IntN(len(legal))]}
						if r%5 == 0 {
							lines = append(lines, legal[pick.IntN(len(legal))]) // may be refused: the first stands
						}
						out, err = svc.Move(ctx, mover, id, tbl.Version, lines)
					}
					if _, refused := errors.AsType[*play.Error](err); refused {
						continue // a refused command (away twice, nothing to come back from …) writes nothing
					}
					if err != nil {
						t.Fatalf("step %d: %v", step, err)
					}
					s.check(t, id, n, out.From, out.Version, &tally)
				}
				tally.handed += bool2int(handed)
				tally.resigned += bool2int(resigned)
			})
		}
	}
	t.Logf("%d briefs compared, %d folded; %d commands by another process, %d seats handed over, %d resignations, %d rulings",
		tally.briefs, tally.folds, tally.byOther, tally.handed, tally.resigned, tally.rules)
	if tally.handed == 0 || tally.resigned == 0 || tally.rules == 0 {
		t.Error("the games tried no hand-over, resignation or ruling")
	}
	if tally.folds*10 > tally.briefs {
		t.Errorf("%d of %d briefs were folded: the cache serves too few", tally.folds, tally.briefs)
	}
}

// Briefs read cached tables while commands take and advance them, in a
// game of each kind: a brief never sees a table a command is changing (the
// race detector's part: the engines' reads must not write either) nor a
// version beyond what is committed, and tells what happened up to its own
// version.
func TestBriefsBesideCommands(t *testing.T) {
	s := newBriefServices(t)
	reg := catalog.Registry()
	for _, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, _ := reg.Get(kind)
			briefsBesideCommands(t, s, kind, eng.Info().MaxSeats)
		})
	}
}

func briefsBesideCommands(t *testing.T, s briefServices, kind string, seats int) {
	ctx := context.Background()
	folds := s.here.BriefFolds()
	id, _, bySeat := startGame(t, s.here, kind, seats)
	var wg sync.WaitGroup
	var briefs atomic.Int64
	done := make(chan struct{})
	errs := make(chan error, 16)
	for seat := games.Spectator; seat < games.Seat(seats); seat++ {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				b, err := s.here.Brief(ctx, id, seat)
				if err != nil {
					errs <- err
					return
				}
				briefs.Add(1)
				var committed int
				if err := s.pool.QueryRow(ctx, `select max(version) from events where stream = $1`, play.Stream(id)).Scan(&committed); err != nil {
					errs <- err
					return
				}
				if b.Version > committed {
					errs <- fmt.Errorf("seat %d was briefed at version %d, beyond the committed %d", seat, b.Version, committed)
					return
				}
				if len(b.Since) > 0 && b.Since[len(b.Since)-1].Version != b.Version {
					errs <- fmt.Errorf("seat %d's brief at version %d tells up to version %d", seat, b.Version, b.Since[len(b.Since)-1].Version)
					return
				}
			}
		})
	}
	pick := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		tbl, err := s.folding.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			break
		}
		p := tbl.Pending[pick.IntN(len(tbl.Pending))]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		if _, err := s.here.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[pick.IntN(len(legal))]}); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// A brief waits for a table a command has out rather than fold the
	// game; with commands back to back on one game a few still fold (how
	// many depends on the machine's load: only a majority fails).
	folds = s.here.BriefFolds() - folds
	t.Logf("%d briefs beside 40 commands, %d folded", briefs.Load(), folds)
	if folds*2 > briefs.Load() { // a loaded machine may keep a table out past the wait: most must not fold
		t.Errorf("%d of %d briefs beside the commands were folded", folds, briefs.Load())
	}
}

// BenchmarkBrief measures a seat's brief (what a prompt, a reminder or a
// receipt costs play) of a game of Coyote for 6 at mid-game (about 100
// events) and a long game of Coupage for 4 (about 1,000), from this process's cache and, as
// before, from a read and fold of the stream. Each iteration briefs the
// next of the seats and the spectator in turn.
func BenchmarkBrief(b *testing.B) {
	for _, g := range []struct {
		kind      string
		seats, at int
	}{{"coyote", 6, 100}, {"coupage", 4, 1000}} {
		for _, from := range []string{"cache", "fold"} {
			b.Run(fmt.Sprintf("%s%d/%d/%s", g.kind, g.seats, g.at, from), func(b *testing.B) {
				svc, pool := benchService(b, 4)
				ctx := context.Background()
				briefing := svc
				if from == "fold" {
					briefing = play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeedBox(benchSeeds), play.WithCache(0))
				}
				var m *mirror
				for salt := uint64(1); m == nil; salt++ {
					m = newMirror(b, svc, pool, g.kind, g.seats, salt)
					m.fastForward(b, svc, pool, g.at)
					// One move folds the game into the cache, as a warm service has.
					seat, move, ok := m.next()
					if !ok {
						m = nil
						continue
					}
					if _, err := svc.Move(ctx, m.seats[seat], m.id, m.version, []string{move}); err != nil {
						b.Fatal(err)
					}
					m.play(b, seat, move)
				}
				folds := briefing.BriefFolds()
				b.ResetTimer()
				for i := range b.N {
					seat := games.Seat(i%(g.seats+1)) - 1
					if _, err := briefing.Brief(ctx, m.id, seat); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(briefing.BriefFolds()-folds)/float64(b.N), "folds/op")
				b.ReportMetric(float64(m.version), "events")
			})
		}
	}
}

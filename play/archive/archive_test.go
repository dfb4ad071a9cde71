package archive_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// written is a whole game's log, written with no database the way play's
// commands write it, and what each seat could see after every version.
type written struct {
	id       string
	seed     games.Seed
	recorded []events.Recorded
	views    map[int][]json.RawMessage // by version, by seat
	moves    int
}

// logWriter appends events to a game's log in memory, chaining their hashes
// as the store does, and folds each with play's fold.
type logWriter struct {
	t    *testing.T
	g    *written
	fold archive.Fold
	at   time.Time
}

func (w *logWriter) add(typ string, data any, meta events.Meta) {
	w.t.Helper()
	raw, ok := data.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			w.t.Fatal(err)
		}
	}
	m, err := json.Marshal(meta)
	if err != nil {
		w.t.Fatal(err)
	}
	var prev []byte
	if n := len(w.g.recorded); n > 0 {
		prev = w.g.recorded[n-1].Hash
	}
	version := len(w.g.recorded) + 1
	w.at = w.at.Add(time.Minute)
	e := events.Recorded{Stream: play.Stream(w.g.id), Version: version, Type: typ, Data: raw, Meta: m, RecordedAt: w.at,
		Hash: events.Digest(prev, play.Stream(w.g.id), version, typ, string(raw), string(m), w.at)}
	if err := w.fold.Apply(e); err != nil {
		w.t.Fatalf("version %d (%s): %v", version, typ, err)
	}
	w.g.recorded = append(w.g.recorded, e)
	if g := w.fold.Game(); g.Started {
		var seen []json.RawMessage
		for seat := range len(g.Engine.Players(g.State)) {
			v, err := g.Engine.View(g.State, games.Seat(seat))
			if err != nil {
				w.t.Fatal(err)
			}
			seen = append(seen, v)
		}
		w.g.views[version] = seen
	}
}

// writeGame plays a game of kind with n players to its end, each move the
// legal one the version picks, and returns its log.
func writeGame(t *testing.T, reg *games.Registry, kind string, n int) *written {
	t.Helper()
	eng, err := reg.Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := eng.Options(nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &written{id: "abcdefghij", seed: games.Seed{4, 2, kind[0], kind[len(kind)-1]}, views: map[int][]json.RawMessage{}}
	w := &logWriter{t: t, g: g, fold: play.Folder(reg)(g.id), at: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)}
	w.add(play.TypeCreated, play.Created{Kind: kind, Options: opts, Rules: eng.Info().Rules, Shuffle: games.ShuffleAlgorithm,
		Commitment: g.seed.Commitment(), Creator: "u-0"}, events.Meta{Actor: "u-0", Channel: play.ChannelAPI})
	names := []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}[:n]
	for i, name := range names {
		w.add(play.TypeJoined, play.Joined{User: fmt.Sprintf("u-%d", i), Name: name}, events.Meta{Actor: fmt.Sprintf("u-%d", i), Channel: play.ChannelAPI})
	}
	w.add(play.TypeStarted, struct{}{}, events.Meta{Actor: "u-0", Channel: play.ChannelAPI})
	setup, err := eng.Setup(opts, names, g.seed.Rand(w.fold.Game().Version))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range setup {
		w.add(kind+"."+e.Type, e.Data, events.Meta{})
	}
	for {
		st := w.fold.Game()
		if res := st.Engine.Result(st.State); res.Finished {
			w.add(play.TypeEnded, play.Ended{Result: res, Seed: g.seed.String()}, events.Meta{Channel: play.ChannelSystem})
			return g
		}
		if g.moves > 3000 {
			t.Fatal("the game did not end in 3000 moves")
		}
		p := st.Pending[st.Version%len(st.Pending)]
		legal := st.Engine.Legal(st.State, p.Seat)
		move := legal[(st.Version*7)%len(legal)]
		raws, err := st.Engine.Decide(st.State, p.Seat, move, g.seed.Rand(st.Version))
		if err != nil {
			t.Fatalf("seat %d %q at version %d: %v", p.Seat, move, st.Version, err)
		}
		seat := int(p.Seat)
		for _, e := range raws {
			w.add(kind+"."+e.Type, e.Data, events.Meta{Actor: fmt.Sprintf("u-%d", seat), Seat: &seat, Channel: play.ChannelEmail, Move: move})
		}
		g.moves++
	}
}

// Every engine's game, re-derived from its log and seed alone: the audit
// passes, every seat's replay shows what it could see at each version, and
// the record for everyone verifies and checks every receipt.
func TestReDerivedWithNoDatabase(t *testing.T) {
	reg := catalog.Registry()
	folder := play.Folder(reg)
	for _, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, _ := reg.Get(kind)
			n := eng.Info().MinSeats
			g := writeGame(t, reg, kind, n)

			rep := archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: g.recorded, Seed: &g.seed})
			if !rep.Passed || !rep.Ended || rep.Result == nil || len(rep.Moves) != g.moves {
				var b bytes.Buffer
				_ = archive.WriteAuditReport(&b, rep)
				t.Fatalf("the audit of an honest game (%d moves):\n%s", g.moves, b.String())
			}

			for seat := range games.Seat(n) {
				steps, err := archive.ReplaySteps(folder, g.id, g.recorded, archive.Viewer{Seat: seat}, 0)
				if err != nil {
					t.Fatal(err)
				}
				compared := 0
				for _, st := range steps {
					if want := g.views[st.Version]; int(seat) < len(want) {
						if !bytes.Equal(st.View, want[seat]) {
							t.Fatalf("seat %d's replay at version %d:\n%s\nsaw:\n%s", seat, st.Version, st.View, want[seat])
						}
						compared++
					}
					if st.Reveal != nil {
						t.Fatalf("seat %d's replay reveals everything at version %d", seat, st.Version)
					}
				}
				if compared < g.moves {
					t.Fatalf("seat %d: %d views compared, for %d moves", seat, compared, g.moves)
				}
			}

			var text bytes.Buffer
			if err := archive.WriteRecord(&text, folder, g.id, g.recorded, archive.Viewer{Seat: games.Spectator, Full: true}); err != nil {
				t.Fatal(err)
			}
			rec, err := archive.ParseRecord(&text)
			if err != nil {
				t.Fatal(err)
			}
			vr, err := archive.VerifyRecord(folder, rec)
			if err != nil || !vr.Passed {
				t.Fatalf("the record does not verify: %v %+v", err, vr)
			}
			for _, e := range g.recorded {
				r := archive.Receipt{Game: g.id, Version: e.Version, Hash: archive.ReceiptHead(g.seed, g.id, e.Hash)}
				if err := archive.VerifyReceipt(rec, r); err != nil {
					t.Fatalf("receipt of version %d: %v", e.Version, err)
				}
			}
		})
	}
}

// An altered move or a wrong seed is found, at its version, from the log
// alone; a seat's record of a running game holds no hash and no seed, and
// cannot be verified.
func TestTamperingFoundWithNoDatabase(t *testing.T) {
	reg := catalog.Registry()
	folder := play.Folder(reg)
	g := writeGame(t, reg, "coyote", 3)
	moved := 0
	for i, e := range g.recorded {
		if strings.HasPrefix(e.Type, "coyote.") && strings.Contains(string(e.Meta), `"move"`) {
			moved = i
			break
		}
	}
	altered := append([]events.Recorded(nil), g.recorded...)
	altered[moved].Meta = json.RawMessage(strings.Replace(string(altered[moved].Meta), `"move":"`, `"move":"x`, 1))
	if rep := archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: altered, Seed: &g.seed}); rep.Passed || rep.FirstBad != moved+1 {
		t.Fatalf("an altered move at version %d: passed %v, first bad %d: %+v", moved+1, rep.Passed, rep.FirstBad, rep.Problems)
	}
	wrong := games.Seed{9}
	if rep := archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: g.recorded, Seed: &wrong}); rep.Passed || rep.FirstBad != 1 {
		t.Fatalf("a wrong seed: passed %v, first bad %d", rep.Passed, rep.FirstBad)
	}

	running := g.recorded[:len(g.recorded)/2]
	var text bytes.Buffer
	if err := archive.WriteRecord(&text, folder, g.id, running, archive.Viewer{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if s := text.String(); strings.Contains(s, " hash ") || strings.Contains(s, g.seed.String()) || !strings.Contains(s, `[View "seat 1 (`) {
		t.Fatalf("a seat's record of a running game:\n%s", s)
	}
	rec, err := archive.ParseRecord(&text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := archive.VerifyRecord(folder, rec); err == nil {
		t.Fatal("a seat's record of a running game verifies")
	}
	if rep := archive.Audit(folder, archive.AuditInput{GameID: g.id, Recorded: running}); !rep.Passed || len(rep.Unchecked) == 0 {
		t.Fatalf("a running game without its seed: passed %v, unchecked %v: %+v", rep.Passed, rep.Unchecked, rep.Problems)
	}
}

// A record written before archive spoke French (testdata/coyote.record:
// English headers and comments, as every record is) is still read, still
// verifies, and is written again with the same headers and event lines.
func TestOldRecordsStillRead(t *testing.T) {
	old, err := os.ReadFile("testdata/coyote.record")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := archive.ParseRecord(bytes.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	folder := play.Folder(catalog.Registry())
	rep, err := archive.VerifyRecord(folder, rec)
	if err != nil || !rep.Passed || len(rep.Moves) < 10 {
		t.Fatalf("the old record: %v, %+v", err, rep)
	}
	var again bytes.Buffer
	if err := archive.WriteRecord(&again, folder, rec.Header("Game"), rec.Events, archive.Viewer{Seat: games.Spectator, Full: true}); err != nil {
		t.Fatal(err)
	}
	data := func(b []byte) []string {
		var out []string
		for l := range strings.Lines(string(b)) {
			if !strings.HasPrefix(l, ";") {
				out = append(out, l)
			}
		}
		return out
	}
	if got, want := data(again.Bytes()), data(old); !slices.Equal(got, want) {
		t.Fatalf("the record written again differs:\n%s", again.String())
	}
}

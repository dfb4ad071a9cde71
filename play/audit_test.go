package play_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// recordedGame is a whole random game and what each seat was served after
// every command: its view as projected at that version.
type recordedGame struct {
	id       string
	kind     string
	seats    int
	people   map[games.Seat]play.Actor
	views    map[int]map[games.Seat]json.RawMessage // by version, by seat
	receipts []play.Outcome
}

// playRecorded plays a random game of kind to its end (moves by API and
// email, every seventh command a deadline passing, a resignation now and
// then in games of three or more) and records each seat's projected view
// after every command.
func playRecorded(t *testing.T, svc *play.Service, pool *pgxpool.Pool, kind string, seed uint64) *recordedGame {
	t.Helper()
	ctx := context.Background()
	eng, err := catalog.Registry().Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	info := eng.Info()
	pick := rand.New(rand.NewPCG(seed, uint64(len(kind))))
	n := info.MinSeats + pick.IntN(info.MaxSeats-info.MinSeats+1)
	names := []string{"Ana", "Bob", "Cal", "Dee", "Eve", "Fay"}
	var people []play.Actor
	for i := range n {
		ch := play.ChannelAPI
		if i%2 == 1 {
			ch = play.ChannelEmail
		}
		a := play.Actor{User: fmt.Sprintf("u-%s-%d", kind, i), Channel: ch, RequestID: fmt.Sprintf("req-%d", i)}
		if ch == play.ChannelEmail {
			// What the mail door keeps of a mail: its id and what checked it.
			a.MessageID, a.MailAuth = fmt.Sprintf("m-%d@players.test", i), "from=ok; dkim=pass\nAuthentication-Results: mx.test; dmarc=pass"
		}
		people = append(people, a)
	}
	out, err := svc.Create(ctx, people[0], kind, nil, names[0])
	if err != nil {
		t.Fatal(err)
	}
	g := &recordedGame{id: out.GameID, kind: kind, seats: n, people: map[games.Seat]play.Actor{}, views: map[int]map[games.Seat]json.RawMessage{}}
	for i := 1; i < n; i++ {
		if _, err := svc.Join(ctx, people[i], g.id, names[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, people[0], g.id); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range people {
		g.people[tbl.SeatOf(a.User)] = a
	}
	record := func(version int) {
		seen := map[games.Seat]json.RawMessage{}
		for seat := range games.Seat(n) {
			v, err := projections.GetView(ctx, pool, g.id, seat)
			if err != nil {
				t.Fatal(err)
			}
			if v.Version != version {
				t.Fatalf("seat %d's view is at version %d, the game at %d", seat, v.Version, version)
			}
			seen[seat] = v.View
		}
		g.views[version] = seen
	}
	record(tbl.Version)
	resigned := false
	for commands := 0; !tbl.Ended; commands++ {
		if commands > 3000 {
			t.Fatal("the game did not end in 3000 commands")
		}
		switch {
		case commands%7 == 3:
			if _, err := svc.Timeout(ctx, g.id, tbl.Pending[pick.IntN(len(tbl.Pending))].ID(), "test"); err != nil {
				t.Fatal(err)
			}
		case n >= 3 && !resigned && commands == 11:
			resigned = true
			if _, err := svc.Resign(ctx, g.people[games.Seat(n-1)], g.id); err != nil {
				t.Fatal(err)
			}
		default:
			p := tbl.Pending[pick.IntN(len(tbl.Pending))]
			legal := tbl.Engine.Legal(tbl.State, p.Seat)
			move := legal[pick.IntN(len(legal))]
			if kind == "coyote" && pick.IntN(4) == 0 && strings.Contains(strings.Join(legal, ","), "coyote") {
				move = "coyote"
			}
			o, err := svc.Move(ctx, g.people[p.Seat], g.id, tbl.Version, []string{move})
			if err != nil {
				t.Fatalf("seat %d %q at version %d: %v", p.Seat, move, tbl.Version, err)
			}
			g.receipts = append(g.receipts, o)
		}
		if tbl, err = svc.Load(ctx, g.id); err != nil {
			t.Fatal(err)
		}
		record(tbl.Version)
	}
	return g
}

// Every engine: a seat's replay at every version equals the view that seat
// was served at that version; the audit passes; the record for everyone
// verifies with no database, and each receipt checks against it.
func TestReplayAuditAndRecordOfEveryGame(t *testing.T) {
	ctx := context.Background()
	reg := catalog.Registry()
	for _, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			svc, pool := catalogService(t)
			arc := archiveOf(svc, pool)
			g := playRecorded(t, svc, pool, kind, 11)
			for seat := range games.Seat(g.seats) {
				steps, err := arc.ReplayAs(ctx, g.id, archive.Viewer{Seat: seat}, 0)
				if err != nil {
					t.Fatal(err)
				}
				checked := 0
				for _, st := range steps {
					want, ok := g.views[st.Version]
					if !ok {
						continue
					}
					if !jsonEqualRaw(st.View, want[seat]) {
						t.Fatalf("seat %d's replay at version %d:\n%s\nwas served:\n%s", seat, st.Version, st.View, want[seat])
					}
					checked++
				}
				if checked != len(g.views) {
					t.Fatalf("seat %d: %d versions compared of %d recorded", seat, checked, len(g.views))
				}
			}
			// A player's own replay through the API's path: the full reveal
			// after the end, every seat's view in it.
			steps, err := arc.Replay(ctx, g.id, g.people[0].User, 0)
			if err != nil {
				t.Fatal(err)
			}
			last := steps[len(steps)-1]
			if last.Reveal == nil || len(last.Reveal.Views) != g.seats {
				t.Fatalf("no full reveal after the end: %+v", last.Reveal)
			}
			if _, err := arc.Replay(ctx, g.id, "u-stranger", 0); !isCode(err, play.CodeForbidden) {
				t.Fatalf("a stranger's replay: %v", err)
			}

			rep, err := arc.AuditGame(ctx, g.id)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Passed || len(rep.Moves) < 5 {
				var b bytes.Buffer
				_ = archive.WriteAuditReport(&b, rep)
				t.Fatalf("the audit of an honest game fails:\n%s", b.String())
			}
			timeouts := 0
			for _, m := range rep.Moves {
				if m.Channel == "timeout default" {
					timeouts++
				}
				if m.Channel == play.ChannelAPI && m.RequestID == "" {
					t.Fatalf("an API move without its request id: %+v", m)
				}
				if m.Channel == play.ChannelEmail && (m.MessageID == "" || m.MailAuth == "") {
					t.Fatalf("a mail move without its Message-ID and authentication: %+v", m)
				}
			}
			// The report for people names a mail move by its Message-ID and
			// authentication, not by the server's request id.
			var text bytes.Buffer
			if err := archive.WriteAuditReport(&text, rep); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), " via email <m-1@players.test> (from=ok; dkim=pass Authentication-Results: mx.test; dmarc=pass)") ||
				strings.Contains(text.String(), "via email request") {
				t.Fatalf("the report does not name mail moves by Message-ID and authentication:\n%s", text.String())
			}
			if timeouts == 0 {
				t.Fatal("the report shows no default played at a deadline")
			}

			var rec bytes.Buffer
			if err := arc.RecordAs(ctx, &rec, g.id, archive.Viewer{Seat: games.Spectator, Full: true}); err != nil {
				t.Fatal(err)
			}
			parsed, err := archive.ParseRecord(bytes.NewReader(rec.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			vr, err := archive.VerifyRecord(play.Folder(reg), parsed)
			if err != nil {
				t.Fatal(err)
			}
			if !vr.Passed {
				var b bytes.Buffer
				_ = archive.WriteAuditReport(&b, vr)
				t.Fatalf("the record of an honest game does not verify:\n%s\n%s", b.String(), rec.String())
			}
			for _, o := range g.receipts {
				r := archive.Receipt{Game: g.id, Version: o.Version, Hash: o.Head}
				if err := archive.VerifyReceipt(parsed, r); err != nil {
					t.Fatalf("receipt %+v: %v", r, err)
				}
			}
			bad := archive.Receipt{Game: g.id, Version: g.receipts[0].Version, Hash: strings.Repeat("0", 64)}
			if err := archive.VerifyReceipt(parsed, bad); err == nil {
				t.Fatal("a receipt with another hash checks")
			}
			t.Logf("%s: %d seats, %d versions, %d moves audited, record %d bytes", kind, g.seats, rep.Version, len(rep.Moves), rec.Len())
		})
	}
}

func isCode(err error, code string) bool {
	pe, ok := errors.AsType[*play.Error](err)
	return ok && pe.Code == code
}

// A record with one changed move, one changed shuffle or a wrong seed does
// not verify, and the report names the version.
func TestTamperedRecordsDoNotVerify(t *testing.T) {
	ctx := context.Background()
	reg := catalog.Registry()
	for _, kind := range []string{"coup", "coyote", "couillon"} {
		t.Run(kind, func(t *testing.T) {
			svc, pool := catalogService(t)
			arc := archiveOf(svc, pool)
			g := playRecorded(t, svc, pool, kind, 5)
			var rec bytes.Buffer
			if err := arc.RecordAs(ctx, &rec, g.id, archive.Viewer{Seat: games.Spectator, Full: true}); err != nil {
				t.Fatal(err)
			}
			text := rec.String()
			honest, err := archive.ParseRecord(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			eng, _ := reg.Get(kind)
			moveV, moveLine, other := changedMove(t, eng, honest, text)
			shuffleV, shuffleLine := changedShuffle(t, kind, honest, text)
			wrongSeed := games.Seed{1, 2, 3}.String()
			tests := []struct {
				name    string
				version int
				edit    func(string) string
			}{
				{"changed move", moveV, func(s string) string { return replaceLine(s, moveV, moveLine) }},
				{"changed shuffle", shuffleV, func(s string) string { return replaceLine(s, shuffleV, shuffleLine) }},
				{"wrong seed", 1, func(s string) string {
					return regexp.MustCompile(`(?m)^\[Seed "[0-9a-f]+"\]$`).ReplaceAllString(s, `[Seed "`+wrongSeed+`"]`)
				}},
			}
			for _, tt := range tests {
				edited := tt.edit(text)
				if edited == text {
					t.Fatalf("%s: the edit changed nothing", tt.name)
				}
				parsed, err := archive.ParseRecord(strings.NewReader(edited))
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				rep, err := archive.VerifyRecord(play.Folder(reg), parsed)
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				if rep.Passed || rep.FirstBad != tt.version {
					t.Fatalf("%s at version %d (move %q): passed %v, first bad %d, problems %+v", tt.name, tt.version, other, rep.Passed, rep.FirstBad, rep.Problems)
				}
			}
		})
	}
}

// changedMove finds a player's move in the record that had another legal
// choice, and returns its version and the line with that other move.
func changedMove(t *testing.T, eng games.Engine, rec *archive.Record, text string) (int, string, string) {
	t.Helper()
	kind := eng.Info().ID
	st, err := eng.Initial(1)
	if err != nil {
		t.Fatal(err)
	}
	lines := recordLines(text)
	for _, e := range rec.Events {
		var m events.Meta
		_ = json.Unmarshal(e.Meta, &m)
		typ, ok := strings.CutPrefix(e.Type, kind+".")
		if !ok {
			continue
		}
		if m.Seat != nil && m.Move != "" && m.Channel != play.ChannelSystem && m.Move != "resign" && e.Version > 20 {
			for _, l := range eng.Legal(st, games.Seat(*m.Seat)) {
				if l != m.Move {
					line := strings.Replace(lines[e.Version], "move "+strconv.Quote(m.Move), "move "+strconv.Quote(l), 1)
					return e.Version, line, l
				}
			}
		}
		if st, err = eng.Evolve(st, games.RawEvent{Type: typ, Data: e.Data}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no move with another legal choice after version 20")
	return 0, "", ""
}

// changedShuffle swaps two different items of the first list in the first
// setup event: another order of a deck, or another deal.
func changedShuffle(t *testing.T, kind string, rec *archive.Record, text string) (int, string) {
	t.Helper()
	lines := recordLines(text)
	for _, e := range rec.Events {
		if !strings.HasPrefix(e.Type, kind+".") {
			continue
		}
		var v any
		if err := json.Unmarshal(e.Data, &v); err != nil {
			t.Fatal(err)
		}
		if !swapFirst(v) {
			continue
		}
		b, _ := json.Marshal(v)
		// version time seat channel type data hash: the data replaced.
		f := strings.SplitN(lines[e.Version], " ", 6)
		i := strings.LastIndex(f[5], " hash ")
		if i < 0 {
			t.Fatalf("no hash on the line of version %d", e.Version)
		}
		return e.Version, strings.Join(f[:5], " ") + " " + string(b) + f[5][i:]
	}
	t.Fatal("no event with a list to reorder")
	return 0, ""
}

// swapFirst swaps the first two different items of the first such list
// found in v (depth first); it reports whether it did.
func swapFirst(v any) bool {
	switch x := v.(type) {
	case []any:
		for i := 1; i < len(x); i++ {
			a, _ := json.Marshal(x[0])
			b, _ := json.Marshal(x[i])
			if !bytes.Equal(a, b) {
				x[0], x[i] = x[i], x[0]
				return true
			}
		}
		return slices.ContainsFunc(x, swapFirst)
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if swapFirst(x[k]) {
				return true
			}
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// recordLines maps each version to its event line in a record's text.
func recordLines(text string) map[int]string {
	out := map[int]string{}
	for l := range strings.SplitSeq(text, "\n") {
		if l == "" || l[0] == '[' || l[0] == ';' {
			continue
		}
		v, _, _ := strings.Cut(l, " ")
		if n, err := strconv.Atoi(v); err == nil {
			out[n] = l
		}
	}
	return out
}

// replaceLine puts line in place of the event line of version.
func replaceLine(text string, version int, line string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, strconv.Itoa(version)+" ") {
			lines[i] = line
		}
	}
	return strings.Join(lines, "\n")
}

// The audit of the database fails naming the version when an event's data,
// a hash, the revealed seed or a shuffle was changed behind the store's
// back (its guard triggers disabled), even when the tamperer recomputed the
// hash chain after the change.
func TestAuditCatchesTampering(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Open(t)
	svc := play.New(db.Service, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeedBox(testSeeds))
	arc := archiveOf(svc, db.Service)
	g := playRecorded(t, svc, db.Service, "coup", 3)
	rep, err := arc.AuditGame(ctx, g.id)
	if err != nil || !rep.Passed {
		t.Fatalf("honest game: %+v, %v", rep, err)
	}
	stream := play.Stream(g.id)
	end := rep.Version
	setup := 0
	for m := 2; m < 20; m++ { // the first game event after the start
		var typ string
		if err := db.Owner.QueryRow(ctx, `select type from events where stream = $1 and version = $2`, stream, m).Scan(&typ); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(typ, "coup.") {
			setup = m
			break
		}
	}
	var setupData string
	if err := db.Owner.QueryRow(ctx, `select data::text from events where stream = $1 and version = $2`, stream, setup).Scan(&setupData); err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal([]byte(setupData), &v)
	if !swapFirst(v) {
		t.Fatalf("the setup event %s has no list to reorder", setupData)
	}
	reordered, _ := json.Marshal(v)
	mid := end / 2
	tests := []struct {
		name    string
		version int
		stmt    string
		rehash  bool
	}{
		{"event data", mid, fmt.Sprintf(`update events set data = data || '{"x": 1}' where stream = '%s' and version = %d`, stream, mid), false},
		{"hash", mid, fmt.Sprintf(`update events set hash = sha256(hash) where stream = '%s' and version = %d`, stream, mid), false},
		{"revealed seed, chain recomputed", end, fmt.Sprintf(`update events set data = jsonb_set(data, '{seed}', '"%s"') where stream = '%s' and version = %d`,
			strings.Repeat("ab", 32), stream, end), true},
		{"shuffle, chain recomputed", setup, fmt.Sprintf(`update events set data = '%s' where stream = '%s' and version = %d`, reordered, stream, setup), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore := snapshot(t, db.Owner, stream)
			defer restore()
			tamper(t, db.Owner, tt.stmt)
			if tt.rehash {
				rehash(t, db.Owner, stream)
				if _, err := events.VerifyStream(ctx, db.Owner, stream); err != nil {
					t.Fatalf("the recomputed chain does not verify: %v", err)
				}
			}
			rep, err := arc.AuditGame(ctx, g.id)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed || rep.FirstBad != tt.version {
				t.Fatalf("tampered %s at version %d: passed %v, first bad %d: %+v", tt.name, tt.version, rep.Passed, rep.FirstBad, rep.Problems)
			}
		})
	}
	if rep, err := arc.AuditGame(ctx, g.id); err != nil || !rep.Passed {
		t.Fatalf("after restoring: %+v, %v", rep.Problems, err)
	}
}

// tamper runs stmt on the events table with its guard triggers disabled.
func tamper(t *testing.T, pool *pgxpool.Pool, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		stmts = append(append([]string{"alter table event_log disable trigger user"}, stmts...), "alter table event_log enable trigger user")
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot saves a stream's data and hashes and returns the function that
// puts them back.
func snapshot(t *testing.T, pool *pgxpool.Pool, stream string) func() {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select version, data::text, hash from events where stream = $1`, stream)
	if err != nil {
		t.Fatal(err)
	}
	type saved struct {
		version int
		data    string
		hash    []byte
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (saved, error) {
		var s saved
		return s, r.Scan(&s.version, &s.data, &s.hash)
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		var stmts []string
		for _, s := range all {
			stmts = append(stmts, fmt.Sprintf(`update events set data = '%s', hash = '\x%s' where stream = '%s' and version = %d`,
				strings.ReplaceAll(s.data, "'", "''"), hex.EncodeToString(s.hash), stream, s.version))
		}
		tamper(t, pool, stmts...)
	}
}

// rehash recomputes a stream's hash chain from its stored content, as a
// tamperer who knows the hashing would.
func rehash(t *testing.T, pool *pgxpool.Pool, stream string) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `select version, type, data::text, meta::text, recorded_at from events where stream = $1 order by version`, stream)
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	var prev []byte
	for rows.Next() {
		var (
			version         int
			typ, data, meta string
			recordedAt      time.Time
		)
		if err := rows.Scan(&version, &typ, &data, &meta, &recordedAt); err != nil {
			t.Fatal(err)
		}
		h := events.Digest(prev, stream, version, typ, data, meta, recordedAt)
		stmts = append(stmts, fmt.Sprintf(`update events set hash = '\x%s' where stream = '%s' and version = %d`, hex.EncodeToString(h), stream, version))
		prev = h
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	tamper(t, pool, stmts...)
}

// A referee holds no seat (DESIGN.md Decision 6): a game whose creator plays
// has none unless one is named, a referee cannot be seated, and only a
// referee rules; a dispute is recorded whether or not anyone may rule.
func TestRefereeHoldsNoSeat(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, tbl, bySeat := startGame(t, svc, "coup", 3)
	if tbl.Referee() != "" {
		t.Fatalf("a game whose creator plays has the referee %q", tbl.Referee())
	}
	out, err := svc.DisputeMove(ctx, bySeat[1], id, 4, "I doubt the deal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.RuleDispute(ctx, bySeat[0], id, out.Version, play.RulingUpheld, "yes"); !isCode(err, play.CodeConflict) {
		t.Fatalf("a ruling in a game without a referee: %v", err)
	}
	if _, err := svc.DisputeMove(ctx, bySeat[1], id, 4, "again"); !isCode(err, play.CodeConflict) {
		t.Fatalf("the same dispute twice before a ruling: %v", err)
	}

	creator := play.Actor{User: "u-creator", Channel: play.ChannelAPI}
	ref := play.Actor{User: "u-ref", Channel: play.ChannelAPI}
	if _, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"ref@players.test", "bob@players.test"}, Referee: "ref@players.test"}); !isCode(err, play.CodeInvalid) {
		t.Fatalf("a referee invited to a seat: %v", err)
	}
	g, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coup", Name: "Ana", Referee: "ref@players.test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, ref, g.GameID, "Ref"); !isCode(err, play.CodeConflict) {
		t.Fatalf("the referee joins: %v", err)
	}
	watcher, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coup"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := svc.Load(ctx, watcher.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if w.Referee() != creator.User {
		t.Fatalf("a creator without a seat is not the referee: %q", w.Referee())
	}
}

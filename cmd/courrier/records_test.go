package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// playToEnd plays random legal moves in a game until it ends (or for at
// most limit commands) and returns the outcome of the last move.
func playToEnd(t *testing.T, svc *play.Service, id string, people map[string]play.Actor, limit int) play.Outcome {
	t.Helper()
	ctx := context.Background()
	pick := rand.New(rand.NewPCG(1, 2))
	var last play.Outcome
	for range limit {
		tbl, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			return last
		}
		p := tbl.Pending[pick.IntN(len(tbl.Pending))]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		if last, err = svc.Move(ctx, people[tbl.UserAt(p.Seat)], id, tbl.Version, []string{legal[pick.IntN(len(legal))]}); err != nil {
			t.Fatal(err)
		}
	}
	return last
}

// newCLIGame creates and starts a coup game of three in the database, its
// seed sealed with the data directory's key, as serve would.
func newCLIGame(t *testing.T, svc *play.Service) (string, map[string]play.Actor) {
	t.Helper()
	ctx := context.Background()
	people := map[string]play.Actor{}
	var id string
	for i, name := range []string{"Ana", "Bob", "Cal"} {
		a := play.Actor{User: fmt.Sprintf("u-%s-%d", name, rand.IntN(1e9)), Channel: play.ChannelAPI}
		people[a.User] = a
		if i == 0 {
			out, err := svc.Create(ctx, a, "coup", nil, name)
			if err != nil {
				t.Fatal(err)
			}
			id = out.GameID
			continue
		}
		if _, err := svc.Join(ctx, a, id, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range people {
		if _, err := svc.Start(ctx, a, id); err == nil {
			break
		}
	}
	return id, people
}

// cliGames is a service on a test database with the secrets of a data
// directory of its own, a game played to its end and one still running.
type cliGames struct {
	dir     string
	box     *play.SeedBox
	svc     *play.Service
	over    string
	last    play.Outcome // the finished game's last move
	running string
	others  map[string]play.Actor
}

// playCLIGames plays the games of a cliGames on db.
func playCLIGames(t *testing.T, db *pgtest.DB) cliGames {
	t.Helper()
	g := cliGames{dir: t.TempDir()}
	if err := ensureSecrets(g.dir); err != nil {
		t.Fatal(err)
	}
	var err error
	if g.box, err = seedBox(g.dir); err != nil {
		t.Fatal(err)
	}
	g.svc = play.New(db.Service, catalog.Registry(), play.WithSeedBox(g.box), play.WithLogger(quietLogger()))
	var people map[string]play.Actor
	g.over, people = newCLIGame(t, g.svc)
	g.last = playToEnd(t, g.svc, g.over, people, 2000)
	g.running, g.others = newCLIGame(t, g.svc)
	playToEnd(t, g.svc, g.running, g.others, 6)
	return g
}

// The record commands from the command line: audit (one game, every game;
// exit status 1 naming the version when the log was tampered with), replay
// as a seat, export and verify with no database, and a receipt.
func TestRecordCommands(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Open(t)
	g := playCLIGames(t, db)
	dir, over, last, running := g.dir, g.over, g.last, g.running
	conn := []string{"-database-url", db.ServiceURL, "-data-dir", dir}
	cli := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(ctx, append(args, conn...), &out, &errb)
		return out.String(), err
	}

	out, err := cli("audit", over)
	if err != nil || !strings.Contains(out, "PASSED") || !strings.Contains(out, "Seed: ") {
		t.Fatalf("audit of a finished game: %v\n%s", err, out)
	}
	out, err = cli("audit", running)
	if err != nil || !strings.Contains(out, "PASSED") || strings.Contains(out, "Seed: ") {
		t.Fatalf("audit of a running game (the seed opened, not shown): %v\n%s", err, out)
	}
	if out, err = cli("audit", "-all"); err != nil || !strings.Contains(out, "2 games audited: all passed") {
		t.Fatalf("audit -all: %v\n%s", err, out)
	}

	out, err = cli("replay", running, "-as", "Bob", "-to", "7")
	if err != nil || strings.Count(out, "\n") < 7 || !strings.Contains(out, "view: ") {
		t.Fatalf("replay as Bob: %v\n%s", err, out)
	}
	if _, err := cli("replay", running, "-as", "Zoe"); !isUsage(err) {
		t.Fatalf("replay as nobody: %v", err)
	}

	file := filepath.Join(t.TempDir(), "game.txt")
	if _, err := cli("export", over, "-o", file); err != nil {
		t.Fatal(err)
	}
	// verify needs no database.
	var vout bytes.Buffer
	if err := run(ctx, []string{"verify", file}, &vout, &bytes.Buffer{}); err != nil || !strings.Contains(vout.String(), "PASSED") {
		t.Fatalf("verify: %v\n%s", err, vout.String())
	}
	receipt, _ := json.Marshal(map[string]any{"receipt": map[string]any{"game_id": over, "version": last.Version, "head": last.Head}})
	if err := run(ctx, []string{"verify", "-receipt", string(receipt), file}, &vout, &bytes.Buffer{}); err != nil {
		t.Fatalf("verify -receipt: %v", err)
	}
	forged := strings.Replace(string(receipt), last.Head[:8], "00000000", 1)
	if err := run(ctx, []string{"verify", "-receipt", forged, file}, &vout, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "not the one") {
		t.Fatalf("verify of a forged receipt: %v", err)
	}
	text, _ := os.ReadFile(file) //nolint:gosec // G304: the test's own temporary file
	bad := regexp.MustCompile(`\[Seed "[0-9a-f]+"\]`).ReplaceAll(text, []byte(`[Seed "`+strings.Repeat("7", 64)+`"]`))
	badFile := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(badFile, bad, 0o600); err != nil { //nolint:gosec // G703: the test's own temporary file
		t.Fatal(err)
	}
	if err := run(ctx, []string{"verify", badFile}, &vout, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "at version 1") {
		t.Fatalf("verify of a record with a wrong seed: %v", err)
	}

	exports := t.TempDir()
	if out, err := cli("export", "-all", "-dir", exports); err != nil || !strings.Contains(out, "2 game records") {
		t.Fatalf("export -all: %v %s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(exports, "*.txt")); len(files) != 2 {
		t.Fatalf("export -all wrote %v", files)
	}

	// Tamper with an event behind the store's back: the audit fails, with
	// the version.
	err = pgx.BeginFunc(ctx, db.Owner, func(tx pgx.Tx) error {
		for _, s := range []string{"alter table event_log disable trigger user",
			fmt.Sprintf(`update events set data = data || '{"x": 1}' where stream = 'game-%s' and version = 9`, over),
			"alter table event_log enable trigger user"} {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cli("audit", over); err == nil || !strings.Contains(err.Error(), "at version 9") {
		t.Fatalf("audit of a tampered game: %v", err)
	}
}

func isUsage(err error) bool {
	_, ok := errors.AsType[usageError](err)
	return ok
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

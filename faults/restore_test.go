package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/courrier-games/courrier/migrations/pgserver"
)

// restorePoint is the name of the restore point the test restores to.
const restorePoint = "courrier-test"

// backrest runs pgBackRest with a configuration of the test's own: a
// repository under the test's directory, stanza courrier, as the servers'
// user (pgBackRest must run as the data directory's owner).
type backrest struct {
	t      *testing.T
	config string
	cred   *syscall.Credential
	env    []string
}

// requireBackrest returns pgBackRest's path; where it is missing the test
// fails in CI (CI set) and skips elsewhere, saying what to install.
func requireBackrest(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("pgbackrest")
	if err != nil {
		msg := "the restore scenario needs pgBackRest: no pgbackrest on PATH (apt-get install pgbackrest)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// newBackrest writes the configuration: the repository, lock, log and
// spool directories under dir (owned by the servers' user), and the
// cluster pg (its data directory, port and socket directory).
func newBackrest(t *testing.T, dir string, pg *pgserver.Server) *backrest {
	t.Helper()
	cred, _, err := pgserver.Credential(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"", "repo", "lock", "log", "spool"} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o750); err != nil {
			t.Fatal(err)
		}
		if cred != nil {
			if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	config := filepath.Join(dir, "pgbackrest.conf")
	text := fmt.Sprintf(`[global]
repo1-path=%s
repo1-retention-full=2
lock-path=%s
log-path=%s
spool-path=%s
log-level-console=warn
log-level-file=info
start-fast=y
compress-type=lz4

[courrier]
pg1-path=%s
pg1-port=%d
pg1-socket-path=%s
pg1-user=postgres
`, filepath.Join(dir, "repo"), filepath.Join(dir, "lock"), filepath.Join(dir, "log"), filepath.Join(dir, "spool"),
		pg.Dir, pg.Port, pg.Dir)
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil { //nolint:gosec // G306: the servers' user reads it
		t.Fatal(err)
	}
	// pgBackRest connects over the server's socket; the superuser's
	// password authenticates it.
	return &backrest{t: t, config: config, cred: cred, env: append(os.Environ(), "PGPASSWORD="+pg.Password, "LC_ALL=C.UTF-8")}
}

// archiveCommand is the archive_command that pushes each WAL segment to the
// repository.
func (b *backrest) archiveCommand(bin string) string {
	return fmt.Sprintf("%s --config=%s --stanza=courrier archive-push %%p", bin, b.config)
}

// run runs one pgBackRest command for the stanza; a failure ends the test
// with its output.
func (b *backrest) run(ctx context.Context, args ...string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pgbackrest", append([]string{"--config=" + b.config, "--stanza=courrier"}, args...)...) //nolint:gosec // G204: the test's own arguments
	cmd.Dir = "/"
	cmd.Env = b.env
	if b.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: b.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.t.Fatalf("pgbackrest %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// Back up a playing cluster with pgBackRest (a full backup taken while bots
// play, and WAL archived continuously), mark a point, play more, then
// restore to the point (by its name, and by its time) into a new data
// directory and serve on it with the same secrets: every move acknowledged
// before the point is there with its receipt's version and hash, none after
// it is, every game audits green, and the projections equal a rebuild.
func TestBackupAndPointInTimeRestore(t *testing.T) {
	bin := requireBackrest(t)
	c := newCluster(t)
	ctx := t.Context()
	base := filepath.Dir(c.pg.Dir)
	br := newBackrest(t, filepath.Join(base, "backrest"), c.pg)

	// 1. WAL archiving to the repository (archive_mode needs a restart)
	// and the stanza.
	conn := c.pgConn(t)
	for _, set := range []string{
		"alter system set wal_level = replica",
		"alter system set archive_mode = on",
		fmt.Sprintf("alter system set archive_command = '%s'", br.archiveCommand(bin)),
		"alter system set archive_timeout = '60s'",
	} {
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
	}
	_ = conn.Close(ctx)
	if err := c.pg.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.pg.Start(ctx); err != nil {
		t.Fatal(err)
	}
	br.run(ctx, "stanza-create")
	br.run(ctx, "check")

	// 2. Phase 1: bots play, and a full backup is taken while they do
	// (online, as an operator's cron would); stopped, the point is marked
	// after the last acknowledged move; phase 2: they play more.
	var mu sync.Mutex
	s := c.startServe()
	t.Cleanup(func() {
		if s.alive() {
			s.kill()
		}
	})
	serveBase := s.base // the serve the bots talk to: the restored one's in step 3
	bases := func() []string { mu.Lock(); defer mu.Unlock(); return []string{serveBase} }
	tb := newTable(t, bases)
	phase := 2 * time.Second // each phase's play; -faults: longer
	if *full {
		phase = 15 * time.Second
	}
	stop := startPlayers(t, tb, 2)
	time.Sleep(phase / 2)
	beforeBackup := tb.moves.Load()
	started := time.Now()
	br.run(ctx, "--type=full", "backup")
	backupTime := time.Since(started)
	duringBackup := tb.moves.Load() - beforeBackup
	backupSize := dirSize(filepath.Join(base, "backrest", "repo", "backup"))
	time.Sleep(phase / 2)
	stop()
	tb.mu.Lock()
	phase1 := len(tb.receipts)
	tb.mu.Unlock()
	if phase1 == 0 {
		t.Fatal("no move acknowledged in phase 1")
	}
	conn = c.pgConn(t)
	var eventsAtPoint int
	if err := conn.QueryRow(ctx, `select count(*) from events`).Scan(&eventsAtPoint); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `select pg_create_restore_point($1)`, restorePoint); err != nil {
		t.Fatal(err)
	}
	// The same point as a time: what an operator has after an accident.
	var pointTime string
	if err := conn.QueryRow(ctx, `select clock_timestamp()::text`).Scan(&pointTime); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // phase 2's first commit is later than the point
	if _, err := conn.Exec(ctx, `select pg_switch_wal()`); err != nil {
		t.Fatal(err)
	}
	stop = startPlayers(t, tb, 2)
	time.Sleep(phase)
	stop()
	s.stop()
	tb.mu.Lock()
	phase2 := append([]receipt(nil), tb.receipts[phase1:]...)
	tb.receipts = tb.receipts[:phase1]
	tb.mu.Unlock()
	if len(phase2) == 0 {
		t.Fatal("no move acknowledged in phase 2")
	}
	if _, err := conn.Exec(ctx, `select pg_switch_wal()`); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(ctx)
	// Every segment up to the last is in the repository before the
	// original is stopped (check waits for the current one's archive).
	br.run(ctx, "check")
	if err := c.pg.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	// 3. Restore to the point into a new data directory, on another port,
	// once to the named point and once to the time; the restored server
	// does not archive into the original's repository.
	for _, target := range []struct{ kind, target string }{{"name", restorePoint}, {"time", pointTime}} {
		t.Run(target.kind, func(t *testing.T) {
			restoreAndCheck(t, br, restoreCase{
				dir: filepath.Join(base, "restored-"+target.kind), password: c.pg.Password, dataDir: c.dataDir,
				kind: target.kind, target: target.target, eventsAtPoint: eventsAtPoint, phase2: phase2,
			}, tb, func(restored string) { mu.Lock(); serveBase = restored; mu.Unlock() })
		})
	}
	t.Logf("TestBackupAndPointInTimeRestore: full backup %.1f MB in %v (%d moves acknowledged meanwhile, %d before it), WAL archived %.1f MB; "+
		"%d moves acknowledged before the point, %d after it",
		float64(backupSize)/1e6, backupTime.Round(time.Millisecond), duringBackup, beforeBackup, float64(dirSize(filepath.Join(base, "backrest", "repo", "archive")))/1e6,
		phase1, len(phase2))
}

// restoreCase is one restore of the scenario: where to, to which point,
// and what the log held there.
type restoreCase struct {
	dir, password, dataDir string
	kind, target           string // pgBackRest's --type and --target
	eventsAtPoint          int
	phase2                 []receipt // moves acknowledged after the point
}

// restoreAndCheck restores the backup to rc's point into rc.dir, starts
// PostgreSQL on it and waits for its promotion, then checks that the log
// is the log at the point (none of phase 2's moves), that the receipts
// cannot be checked without the secrets directory, and, with serve on it
// (useServe points the table at it), the suite's checks on tb's receipts.
func restoreAndCheck(t *testing.T, br *backrest, rcase restoreCase, tb *table, useServe func(base string)) {
	ctx := t.Context()
	restored, err := pgserver.New(rcase.dir, freePort(t), rcase.password, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(restored.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if br.cred != nil {
		if err := os.Chown(restored.Dir, int(br.cred.Uid), int(br.cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	started := time.Now()
	br.run(ctx, "restore", "--pg1-path="+restored.Dir, "--type="+rcase.kind, "--target="+rcase.target,
		"--target-action=promote", "--archive-mode=off")
	if err := restored.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = restored.Stop(context.Background()) })
	// pg_ctl returns once the server takes connections; it takes writes
	// once recovery reaches the point and promotes.
	rc := &cluster{t: t, pg: restored, dbURL: restored.URL("courrier"), dataDir: rcase.dataDir}
	rconn := rc.pgConn(t)
	for deadline := time.Now().Add(2 * time.Minute); ; {
		var recovering bool
		if err := rconn.QueryRow(ctx, `select pg_is_in_recovery()`).Scan(&recovering); err != nil {
			t.Fatal(err)
		}
		if !recovering {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the restored server is still recovering after two minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	restoreTime := time.Since(started)

	// The log is the log at the point: as many events, none of phase 2's.
	var restoredEvents int
	if err := rconn.QueryRow(ctx, `select count(*) from events`).Scan(&restoredEvents); err != nil {
		t.Fatal(err)
	}
	if restoredEvents != rcase.eventsAtPoint {
		t.Errorf("the restored log has %d events, the log had %d at the point", restoredEvents, rcase.eventsAtPoint)
	}
	after := 0
	for _, r := range rcase.phase2 {
		if r.Replay {
			continue
		}
		var present bool
		if err := rconn.QueryRow(ctx, `select exists (select 1 from events where stream = 'game-' || $1 and version = $2)`,
			r.Game, r.Version).Scan(&present); err != nil {
			t.Fatal(err)
		}
		if present {
			after++
		}
	}
	if after > 0 {
		t.Errorf("%d of phase 2's %d moves, acknowledged after the point, are in the restored log", after, len(rcase.phase2))
	}
	// The phase-1 receipts name their games by stream: the check above
	// means something only if they do.
	var named int
	if err := rconn.QueryRow(ctx, `select count(*) from events where stream = 'game-' || $1 and version = $2`,
		tb.receipts[0].Game, tb.receipts[0].Version).Scan(&named); err != nil || named != 1 {
		t.Fatalf("phase 1's first move (game %s, version %d) is not in the restored log as game-<id>: %d, %v",
			tb.receipts[0].Game, tb.receipts[0].Version, named, err)
	}

	// Without the original's secrets directory the receipts of the restored
	// games cannot be checked: they are sealed under keys derived from the
	// games' seeds, sealed in turn under seed keys the database's backup
	// does not hold.
	bare := &cluster{t: t, dbURL: rc.dbURL, dataDir: filepath.Join(t.TempDir(), "data")}
	var lines strings.Builder
	for _, r := range tb.receipts[:min(5, len(tb.receipts))] {
		line, _ := json.Marshal(r)
		lines.Write(line)
		lines.WriteByte('\n')
	}
	some := filepath.Join(t.TempDir(), "receipts.jsonl")
	if err := os.WriteFile(some, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := bare.tryCourrier("audit", "-receipts", some); err == nil {
		t.Errorf("the receipts check out without the original's secrets (the seed keys are in the database's backup?):\n%s", firstLines(out, 5))
	} else {
		var said []string
		for l := range strings.SplitSeq(out, "\n") {
			if l != "" && !strings.HasPrefix(l, "time=") {
				said = append(said, l)
			}
		}
		t.Logf("without the secrets directory, audit -receipts fails (%v): %s", err, strings.Join(said[:min(2, len(said))], " / "))
	}

	// serve on the restored database with the original's secrets (the seed
	// keys open the games' sealed seeds; they are not in the database's
	// backup), then the suite's checks on phase 1's receipts.
	rs := rc.startServe()
	t.Cleanup(func() {
		if rs.alive() {
			rs.kill()
		}
	})
	useServe(rs.base)
	rc.check(tb)
	// The restored cluster is in service: the players sign in again (the
	// sessions they opened after the point are not in it; the sign-in mail
	// is sent by the restored cluster's job workers), start a game and a
	// move is acknowledged.
	fresh := newTable(t, func() []string { return []string{rs.base} })
	players := []string{"ana@players.test", "bob@players.test", "cleo@players.test"}
	for _, p := range players {
		fresh.signIn(p)
	}
	game := fresh.newGame(players)
	if acted, _ := fresh.step(game, players); !acted {
		t.Errorf("no move acknowledged in a new game on the restored cluster (answers while retrying: %v)", fresh.errors)
	}
	rs.stop()
	t.Logf("restored to the %s %s in %v: %d events, as at the point; %d moves acknowledged before it, all present; %d after it, %d present",
		rcase.kind, rcase.target, restoreTime.Round(time.Millisecond), restoredEvents, len(tb.receipts), len(rcase.phase2), after)
}

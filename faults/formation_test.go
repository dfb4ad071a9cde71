package faults_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/migrations/pgserver"
)

// monitorSettings are the monitor's settings that bound how soon it fails
// over (its defaults, a 20 s unhealthy timeout and a 30 s demote timeout,
// are for networks that hiccup; these are for one machine, and the README
// gives them as a starting point).
func monitorSettings() [][2]string {
	return [][2]string{
		{"pgautofailover.health_check_period", "1000"},
		{"pgautofailover.health_check_timeout", "1000"},
		{"pgautofailover.health_check_max_retries", "1"},
		{"pgautofailover.health_check_retry_delay", "500"},
		{"pgautofailover.node_considered_unhealthy_timeout", "2000"},
		{"pgautofailover.primary_demote_timeout", "3000"},
	}
}

// formation is a pg_auto_failover formation on this machine: a monitor and
// two PostgreSQL nodes, each a `pg_autoctl run` of its own (own port, own
// data directory, run as the servers' unprivileged user), with synchronous
// replication: with one standby in the replication quorum the primary runs
// with synchronous_standby_names 'ANY 1 (…)', so a commit is acknowledged
// only once it is on both nodes.
type formation struct {
	t       *testing.T
	dir     string
	pgctl   string
	cred    *syscall.Credential
	super   string // the nodes' superuser: the system user pg_autoctl runs as
	env     []string
	monitor *autoctl
	nodes   []*autoctl
}

// autoctl is one `pg_autoctl` process and the PostgreSQL it supervises.
type autoctl struct {
	name   string
	port   int
	pgdata string
	cmd    *exec.Cmd
	exited chan struct{}
	log    string
}

// requireAutoctl returns pg_ctl's path when pg_autoctl and the monitor's
// extension are installed; otherwise the test fails in CI (CI set) and skips
// elsewhere, saying what to install.
func requireAutoctl(t *testing.T) string {
	t.Helper()
	bin, major := pgserver.LocalBinaries()
	_, lookErr := exec.LookPath("pg_autoctl")
	var missing string
	switch {
	case bin == "":
		missing = "no PostgreSQL binaries under /usr/lib/postgresql"
	case lookErr != nil:
		missing = "no pg_autoctl on PATH"
	default:
		if _, err := os.Stat(filepath.Join("/usr/share/postgresql", major, "extension", "pgautofailover.control")); err != nil {
			missing = "no pgautofailover extension for PostgreSQL " + major
		}
	}
	if missing != "" {
		msg := fmt.Sprintf("the failover scenario needs pg_auto_failover: %s (apt-get install postgresql-%s-auto-failover)", missing, major)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return filepath.Join(bin, "pg_ctl")
}

// newFormation starts a monitor and two nodes and waits until one is
// primary and the other secondary; everything stops at the test's end.
func newFormation(t *testing.T) *formation {
	t.Helper()
	pgctl := requireAutoctl(t)
	ctx := t.Context()
	cred, super, err := pgserver.Credential(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The nodes run as an unprivileged user when the tests run as root:
	// their directory must be reachable (t.TempDir's parent is not).
	dir, err := os.MkdirTemp("", "courrier-failover-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	f := &formation{t: t, dir: dir, pgctl: pgctl, cred: cred, super: super}
	for _, sub := range []string{"", "sock", "run", "config", "share"} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o755); err != nil { //nolint:gosec // G301: the nodes' user must traverse it
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o755); err != nil { //nolint:gosec // G302: the nodes' user must traverse it
			t.Fatal(err)
		}
		if cred != nil {
			if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// pg_autoctl keeps its state under XDG_*; its local connections go
	// through the socket directory (PG_REGRESS_SOCK_DIR sets the servers'
	// unix_socket_directories, PGHOST where it connects).
	sock := filepath.Join(dir, "sock")
	f.env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "share"),
		"PG_REGRESS_SOCK_DIR="+sock, "PGHOST="+sock, "HOME="+dir, "LC_ALL=C.UTF-8")
	f.monitor = &autoctl{name: "monitor", port: freePort(t), pgdata: filepath.Join(dir, "monitor")}
	t.Cleanup(f.stop)
	t.Cleanup(func() { // registered after f.stop: runs before it
		if t.Failed() {
			t.Logf("the formation's processes logged:\n%s", f.logTails())
		}
	})
	if out, err := f.run(ctx, "create", "monitor", "--pgdata", f.monitor.pgdata, "--pgport", strconv.Itoa(f.monitor.port),
		"--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", pgctl); err != nil {
		t.Fatalf("pg_autoctl create monitor: %v\n%s", err, out)
	}
	f.start(f.monitor, "run", "--pgdata", f.monitor.pgdata)
	f.waitFor(time.Minute, "the monitor to answer", func() bool { return pgserver.Answers(ctx, f.monitorURL()) })
	conn := f.monitorConn()
	for _, kv := range monitorSettings() {
		if _, err := conn.Exec(ctx, fmt.Sprintf("alter system set %s = %s", kv[0], kv[1])); err != nil {
			t.Fatalf("set %s on the monitor: %v", kv[0], err)
		}
	}
	if _, err := conn.Exec(ctx, "select pg_reload_conf()"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		n := &autoctl{name: fmt.Sprintf("node%d", i+1), port: freePort(t), pgdata: filepath.Join(dir, fmt.Sprintf("node%d", i+1))}
		f.nodes = append(f.nodes, n)
		f.start(n, "create", "postgres", "--pgdata", n.pgdata, "--pgport", strconv.Itoa(n.port), "--name", n.name,
			"--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", pgctl,
			"--monitor", fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", f.monitor.port),
			"--dbname", "courrier", "--run")
		if i == 0 {
			f.waitFor(2*time.Minute, "node1 to be a single primary", func() bool {
				s := f.states()
				return s["node1"] == "single/single"
			})
		}
	}
	f.waitSettled(3 * time.Minute)
	return f
}

// monitorURL is the monitor's database, as its superuser.
func (f *formation) monitorURL() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/pg_auto_failover?sslmode=disable", f.super, f.monitor.port)
}

// monitorConn is a connection to the monitor, closed at the test's end.
func (f *formation) monitorConn() *pgx.Conn {
	conn, err := pgx.Connect(f.t.Context(), f.monitorURL())
	if err != nil {
		f.t.Fatalf("connect to the monitor: %v", err)
	}
	f.t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// URL is the multi-host URL of the formation's courrier database as its
// superuser: pgx tries both nodes and keeps the one that takes writes.
func (f *formation) URL() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d,127.0.0.1:%d/courrier?sslmode=disable&target_session_attrs=read-write",
		f.super, f.nodes[0].port, f.nodes[1].port)
}

// states is each node's "reported/assigned" state as the monitor has it
// (empty when the monitor does not answer).
func (f *formation) states() map[string]string {
	ctx, cancel := context.WithTimeout(f.t.Context(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, f.monitorURL())
	if err != nil {
		return nil
	}
	defer func() { _ = conn.Close(context.Background()) }()
	rows, err := conn.Query(ctx, `select nodename, reportedstate::text, goalstate::text from pgautofailover.node`)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for rows.Next() {
		var name, reported, goal string
		if rows.Scan(&name, &reported, &goal) == nil {
			out[name] = reported + "/" + goal
		}
	}
	return out
}

// primary is the node the monitor has as primary, settled (nil when none).
func (f *formation) primary() *autoctl {
	s := f.states()
	for _, n := range f.nodes {
		if s[n.name] == "primary/primary" {
			return n
		}
	}
	return nil
}

// writable is the node the monitor has taking writes: primary, or
// wait_primary (a primary whose standby is away: it takes writes without a
// synchronous copy until the standby is back) (nil when none).
func (f *formation) writable() *autoctl {
	s := f.states()
	for _, n := range f.nodes {
		if st := s[n.name]; st == "primary/primary" || st == "wait_primary/wait_primary" {
			return n
		}
	}
	return nil
}

// answers reports whether node n's PostgreSQL takes connections.
func (f *formation) answers(n *autoctl) bool {
	ctx, cancel := context.WithTimeout(f.t.Context(), 2*time.Second)
	defer cancel()
	return pgserver.Answers(ctx, fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", f.super, n.port))
}

// waitSettled waits until one node is primary and the other secondary,
// nudging a base backup that waits for a checkpoint (pg_basebackup's
// default spread checkpoint takes minutes on an idle primary).
func (f *formation) waitSettled(timeout time.Duration) {
	f.t.Helper()
	f.waitFor(timeout, "a primary and a secondary", func() bool {
		s := f.states()
		var primary, secondary int
		for _, n := range f.nodes {
			switch s[n.name] {
			case "primary/primary":
				primary++
			case "secondary/secondary":
				secondary++
			}
		}
		if primary == 1 && secondary == 1 {
			return true
		}
		for _, n := range f.nodes {
			if st := s[n.name]; strings.HasPrefix(st, "primary") || strings.HasPrefix(st, "wait_primary") || strings.HasPrefix(st, "single") {
				f.checkpoint(n)
			}
		}
		return false
	})
}

// checkpoint asks node for an immediate checkpoint (errors are ignored: it
// only hurries a base backup).
func (f *formation) checkpoint(n *autoctl) {
	ctx, cancel := context.WithTimeout(f.t.Context(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", f.super, n.port))
	if err != nil {
		return
	}
	defer func() { _ = conn.Close(context.Background()) }()
	_, _ = conn.Exec(ctx, "checkpoint")
}

// waitFor polls cond every 200 ms until it holds, failing the test after
// timeout with what the formation's processes logged.
func (f *formation) waitFor(timeout time.Duration, what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			f.t.Fatalf("waited %v for %s; the monitor has %v\n%s", timeout, what, f.states(), f.logTails())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// logTails is the end of each pg_autoctl process's log.
func (f *formation) logTails() string {
	var b strings.Builder
	for _, a := range append([]*autoctl{f.monitor}, f.nodes...) {
		if a == nil || a.log == "" {
			continue
		}
		out, _ := os.ReadFile(a.log)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		fmt.Fprintf(&b, "--- %s (%s)\n%s\n", a.name, a.log, strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
	return b.String()
}

// command is pg_autoctl with args as the nodes' user, in its own process
// group (a stop ends the process and the servers it started).
func (f *formation) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "pg_autoctl", args...) //nolint:gosec // G204: the suite's own arguments
	cmd.Dir = filepath.Join(f.dir, "run")
	cmd.Env = f.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: f.cred, Setpgid: true}
	return cmd
}

// run runs one pg_autoctl command to its end.
func (f *formation) run(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return f.command(ctx, args...).CombinedOutput()
}

// start starts a long-running pg_autoctl process for a.
func (f *formation) start(a *autoctl, args ...string) {
	f.t.Helper()
	log, err := os.OpenFile(filepath.Join(f.dir, a.name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644) //nolint:gosec // G302: a test's log
	if err != nil {
		f.t.Fatal(err)
	}
	a.log = log.Name()
	a.cmd = f.command(context.Background(), args...)
	a.cmd.Stdout, a.cmd.Stderr = log, log
	if err := a.cmd.Start(); err != nil {
		f.t.Fatalf("start pg_autoctl for %s: %v", a.name, err)
	}
	a.exited = make(chan struct{})
	go func() { _ = a.cmd.Wait(); _ = log.Close(); close(a.exited) }()
}

// killNode sends SIGKILL to node n's whole process group at once (its
// pg_autoctl, its postmaster and every backend), as the machine's loss
// would: nothing restarts it, and the monitor fails over to the other node.
// (A kill of the postmaster alone is repaired in place by its pg_autoctl
// when it restarts it before the monitor gives up on it: a database
// restart, not a failover.)
func (f *formation) killNode(n *autoctl) {
	f.t.Helper()
	if err := syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		f.t.Fatalf("kill -9 %s: %v", n.name, err)
	}
	<-n.exited
}

// keepers are the pids of node n's pg_autoctl processes (its supervisor
// and the services it runs: the one that keeps PostgreSQL running and the
// one that talks to the monitor), found by their process group.
func (f *formation) keepers(n *autoctl) []int {
	f.t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		f.t.Fatal(err)
	}
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces, so read
		// after its closing parenthesis.
		i := strings.LastIndexByte(string(stat), ')')
		fields := strings.Fields(string(stat[i+1:]))
		comm, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "comm"))
		if len(fields) > 2 && fields[2] == strconv.Itoa(n.cmd.Process.Pid) && strings.TrimSpace(string(comm)) == "pg_autoctl" {
			out = append(out, pid)
		}
	}
	return out
}

// postmaster is the pid of node n's running postmaster (postmaster.pid's
// first line).
func (f *formation) postmaster(n *autoctl) int {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(n.pgdata, "postmaster.pid"))
	if err != nil {
		f.t.Fatalf("%s's postmaster.pid: %v", n.name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		f.t.Fatalf("%s's postmaster.pid: %v", n.name, err)
	}
	return pid
}

// killPostmaster sends SIGKILL to node n's postmaster alone (its backends
// end when they see it gone). With frozen, n's pg_autoctl processes are
// stopped (SIGSTOP) first, as an agent that hangs with its database: nothing
// restarts PostgreSQL and the monitor fails over; thaw continues them.
// Without, its pg_autoctl restarts PostgreSQL in place.
func (f *formation) killPostmaster(n *autoctl, frozen bool) {
	f.t.Helper()
	pid := f.postmaster(n)
	if frozen {
		for _, k := range f.keepers(n) {
			if err := syscall.Kill(k, syscall.SIGSTOP); err != nil {
				f.t.Fatalf("stop %s's pg_autoctl %d: %v", n.name, k, err)
			}
		}
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		f.t.Fatalf("kill -9 %s's postmaster %d: %v", n.name, pid, err)
	}
}

// thaw continues node n's pg_autoctl processes after killPostmaster froze
// them: it learns from the monitor that it was demoted, rewinds and
// rejoins as a standby.
func (f *formation) thaw(n *autoctl) {
	f.t.Helper()
	for _, k := range f.keepers(n) {
		if err := syscall.Kill(k, syscall.SIGCONT); err != nil {
			f.t.Fatalf("continue %s's pg_autoctl %d: %v", n.name, k, err)
		}
	}
}

// requireSynchronous fails the test unless primary p runs with synchronous
// replication to a standby that has caught up: synchronous_standby_names
// is 'ANY 1 (…)' and the standby's walsender is in the quorum, so a commit
// is acknowledged once it is on both nodes.
func (f *formation) requireSynchronous(p *autoctl) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(f.t.Context(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", f.super, p.port))
	if err != nil {
		f.t.Fatalf("connect to %s: %v", p.name, err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	var names string
	var quorum int
	if err := conn.QueryRow(ctx, `select current_setting('synchronous_standby_names'),
		(select count(*) from pg_stat_replication where sync_state in ('quorum', 'sync'))`).Scan(&names, &quorum); err != nil {
		f.t.Fatal(err)
	}
	if !strings.HasPrefix(names, "ANY 1 (") || quorum != 1 {
		f.t.Fatalf("%s does not replicate synchronously: synchronous_standby_names = %q, %d standby in the quorum", p.name, names, quorum)
	}
}

// rejoin starts node n again after killNode: its pg_autoctl rewinds it and
// it rejoins the formation as a standby.
func (f *formation) rejoin(n *autoctl) {
	f.t.Helper()
	f.start(n, "run", "--pgdata", n.pgdata)
}

// stop ends the nodes, then the monitor: SIGTERM to each process group
// (pg_autoctl stops its servers), SIGKILL after 30 s.
func (f *formation) stop() {
	for _, a := range append(append([]*autoctl{}, f.nodes...), f.monitor) {
		if a == nil || a.cmd == nil || a.cmd.Process == nil {
			continue
		}
		pgid := a.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-a.exited:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-a.exited
		}
		// Servers of the group left behind (a keeper killed before its
		// server) go too.
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			f.t.Logf("stop %s: %v", a.name, err)
		}
	}
}

// cluster is the suite's cluster on the formation: the courrier database
// migrated through the multi-host URL.
func (f *formation) cluster() *cluster {
	c := &cluster{t: f.t, dbURL: f.URL(), dataDir: filepath.Join(f.dir, "data")}
	c.courrier("migrate")
	return c
}

package pgtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/courrier-games/courrier/migrations/pgserver"
)

// sharedPassword is the superuser's password of the shared test server; it
// listens on 127.0.0.1 only and holds nothing but test databases.
const sharedPassword = "courrier-pgtest" //nolint:gosec // G101: a test server on 127.0.0.1 with test databases only

// idleStop is how long the shared server outlives the last test process.
const idleStop = 60 * time.Second

// server is the process's resolution of the test server, made once: every
// test of a test binary uses the same server. (A package-level memo, in a
// package for tests only: the alternative is resolving, and possibly
// starting a server, at every test.)
var server = sync.OnceValues(resolveServer)

// ServerURL returns the URL of the server tests use: DATABASE_URL when set;
// else PostgreSQL on 127.0.0.1:5432 when it answers; else the shared
// embedded server of this user, started on first use from the machine's
// PostgreSQL binaries (as an unprivileged user when root) and stopped a
// minute after the last test process that used it has exited. An empty URL
// means none could be had; ServerError says why.
func ServerURL() string {
	url, _ := server()
	return url
}

// ServerError says why no test server could be had (nil when one was).
func ServerError() error {
	_, err := server()
	return err
}

func resolveServer() (string, error) {
	if u := os.Getenv("DATABASE_URL"); u != "" {
		announce("using the PostgreSQL server of DATABASE_URL (" + redact(u) + ")")
		return u, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if pgserver.Answers(ctx, DefaultURL) {
		announce("using the PostgreSQL server on 127.0.0.1:5432")
		return DefaultURL, nil
	}
	url, srv, err := sharedServer(ctx)
	if err != nil {
		return "", err
	}
	announce("no PostgreSQL on 127.0.0.1:5432: using the shared test server, " + srv.String() +
		fmt.Sprintf(" (stopped %v after the last test process)", idleStop))
	return url, nil
}

// sharedDir is this user's directory of the shared server: its lock, port,
// clients, keeper and data. It is traversable by others (0711) because, as
// root, the server runs as an unprivileged user.
func sharedDir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("courrier-pgtest-%d", os.Geteuid()))
	if err := os.MkdirAll(filepath.Join(dir, "clients"), 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !info.IsDir() || !ok || int(st.Uid) != os.Geteuid() {
		return "", fmt.Errorf("%s is not a directory of this user: remove it", dir)
	}
	if err := os.Chmod(dir, 0o711); err != nil { //nolint:gosec // G302: traversable by the server's user, not readable
		return "", err
	}
	return dir, nil
}

// sharedServer starts (or joins) the shared server under an exclusive lock:
// it registers this process as a client, starts the server unless it
// answers, and makes sure a keeper will stop it once no client is left.
func sharedServer(ctx context.Context) (string, *pgserver.Server, error) {
	dir, err := sharedDir()
	if err != nil {
		return "", nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600) //nolint:gosec // G304: our own file in our own directory
	if err != nil {
		return "", nil, fmt.Errorf("open the shared server's lock: %w", err)
	}
	defer func() { _ = lock.Close() }()                                    // closing releases the lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil { //nolint:gosec // G115: a file descriptor
		return "", nil, fmt.Errorf("lock the shared server: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clients", strconv.Itoa(os.Getpid())), nil, 0o600); err != nil {
		return "", nil, fmt.Errorf("register with the shared server: %w", err)
	}
	port, err := sharedPort(ctx, dir)
	if err != nil {
		return "", nil, err
	}
	_, major := pgserver.LocalBinaries()
	srv, err := pgserver.New(filepath.Join(dir, "pg"+major), port, sharedPassword, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return "", nil, fmt.Errorf("no PostgreSQL answers on 127.0.0.1:5432 and none can be started here (%w): "+
			"install PostgreSQL (apt-get install postgresql) or set DATABASE_URL", err)
	}
	if err := srv.Start(ctx); err != nil {
		return "", nil, err
	}
	if err := ensureKeeper(dir, srv); err != nil {
		return "", nil, err
	}
	return srv.URL("postgres"), srv, nil
}

// sharedPort returns the shared server's port, chosen free the first time.
func sharedPort(ctx context.Context, dir string) (int, error) {
	name := filepath.Join(dir, "port")
	if b, err := os.ReadFile(name); err == nil { //nolint:gosec // G304: our own file in our own directory
		if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return p, nil
		}
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port for the shared server: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		return 0, err
	}
	return port, os.WriteFile(name, []byte(strconv.Itoa(port)+"\n"), 0o600)
}

// ensureKeeper starts, unless one runs, the keeper: a detached shell loop
// that forgets clients whose process is gone and, once none has been alive
// for idleStop, stops the server under the same lock the clients take.
func ensureKeeper(dir string, srv *pgserver.Server) error {
	pidFile := filepath.Join(dir, "keeper.pid")
	if b, err := os.ReadFile(pidFile); err == nil { //nolint:gosec // G304: our own file in our own directory
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && processAlive(pid) {
			return nil
		}
	}
	stop := fmt.Sprintf("%q -D %q -m fast -w stop", filepath.Join(srv.Bin, "pg_ctl"), srv.Dir)
	if srv.RunAs != "" {
		stop = "runuser -u " + srv.RunAs + " -- " + stop
	}
	script := fmt.Sprintf(`
dir=%[1]q; idle=0
echo $$ > "$dir/keeper.pid"
while :; do
  sleep 5
  alive=0
  for f in "$dir"/clients/*; do
    [ -e "$f" ] || continue
    if [ -d "/proc/${f##*/}" ]; then alive=1; else rm -f "$f"; fi
  done
  if [ "$alive" = 1 ]; then idle=0; else idle=$((idle + 5)); fi
  if [ "$idle" -ge %[2]d ]; then
    flock "$dir/lock" sh -c 'for f in "$1"/clients/*; do [ -e "$f" ] && [ -d "/proc/${f##*/}" ] && exit 1; done; rm -f "$1/keeper.pid"; %[3]s >/dev/null 2>&1; exit 0' _ "$dir" && exit 0
    idle=0
  fi
done
rm -f "$dir/keeper.pid"
`, dir, int(idleStop.Seconds()), strings.ReplaceAll(stop, "'", `'\''`))
	// Not CommandContext: the keeper outlives this process on purpose.
	cmd := exec.Command("sh", "-c", script) //nolint:gosec,noctx // G204: our own script; it outlives any context
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the shared server's keeper: %w", err)
	}
	if err := cmd.Process.Release(); err != nil {
		return fmt.Errorf("detach the shared server's keeper: %w", err)
	}
	// Wait for the keeper to write its pid, so that a concurrent client
	// under the lock after us does not start a second one.
	for range 50 {
		if _, err := os.Stat(pidFile); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("the shared server's keeper did not start")
}

// announce tells, once per `go test` run (all of its test processes share a
// parent), which server the run uses.
func announce(msg string) {
	dir, err := sharedDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", msg)
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("announced-%d", os.Getppid()))
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600) //nolint:gosec // G304: our own file
	if errors.Is(err, fs.ErrExist) {
		return
	}
	if err == nil {
		_ = f.Close() // an empty marker
	}
	say(msg)
	// Forget the markers of runs over a day old.
	old, _ := filepath.Glob(filepath.Join(dir, "announced-*")) // the pattern is valid
	for _, o := range old {
		if info, err := os.Stat(o); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			_ = os.Remove(o) // a stale marker; failing to remove it changes nothing
		}
	}
}

// say writes msg where the person running `go test ./...` sees it. The go
// command shows a passing package's output only with -v, so the line goes to
// the go command's own standard error (our parent's, through /proc on
// Linux) when it can, else to ours.
func say(msg string) {
	line := "pgtest: " + msg + "\n"
	if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), os.O_WRONLY|os.O_APPEND, 0); err == nil {
		_, werr := f.WriteString(line)
		cerr := f.Close()
		if werr == nil && cerr == nil {
			return
		}
	}
	_, _ = os.Stderr.WriteString(line) // nowhere else to say it
}

// processAlive reports whether a process of that id exists.
func processAlive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

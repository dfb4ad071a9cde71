// Package pgserver runs a PostgreSQL server from the machine's own binaries
// (/usr/lib/postgresql/<major>) under a data directory: courrier's
// zero-config database when no server answers on localhost:5432, and the
// test suite's shared server on a machine without one. PostgreSQL refuses to
// run as root, so as root the server runs as an unprivileged system user
// (courrier, created when missing, else nobody) and the data directory
// belongs to that user.
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoBinaries is returned when the machine has no PostgreSQL binaries.
var ErrNoBinaries = errors.New("no PostgreSQL binaries under /usr/lib/postgresql")

// Server is a PostgreSQL server of local binaries on a data directory,
// listening on 127.0.0.1:Port, with a superuser "postgres" whose password is
// Password.
type Server struct {
	Dir      string // the data directory
	Bin      string // the binaries' directory (…/bin)
	Major    string // the major version, "15"
	Port     int
	Password string
	// RunAs is the system user the server runs as ("" for this process's).
	RunAs string
	cred  *syscall.Credential
	log   *slog.Logger
}

// LocalBinaries returns the newest /usr/lib/postgresql/<major>/bin holding
// pg_ctl, and its major version ("" when there is none).
func LocalBinaries() (bin, major string) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl") // the pattern is valid
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(dirs[i]))))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(dirs[j]))))
		return a < b
	})
	if len(dirs) == 0 {
		return "", ""
	}
	bin = filepath.Dir(dirs[len(dirs)-1])
	return bin, filepath.Base(filepath.Dir(bin))
}

// New describes the server of data directory dir on port with the
// superuser password; nothing runs until Start.
func New(dir string, port int, password string, log *slog.Logger) (*Server, error) {
	bin, major := LocalBinaries()
	if bin == "" {
		return nil, ErrNoBinaries
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dir, err)
	}
	return &Server{Dir: abs, Bin: bin, Major: major, Port: port, Password: password, log: log}, nil
}

// URL is the superuser's URL of database db on the server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/%s?sslmode=disable", s.Password, s.Port, db)
}

// Answers reports whether the server accepts the superuser now.
func (s *Server) Answers(ctx context.Context) bool { return Answers(ctx, s.URL("postgres")) }

// Answers reports whether a PostgreSQL server accepts a connection to url
// within three seconds: how `serve` and the tests decide to use a server
// that is already running before starting one.
func Answers(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return false
	}
	_ = conn.Close(ctx) // it answered; that is all we asked
	return true
}

// Start initialises the data directory when it is new and starts the server,
// unless it already answers (a server left by an earlier run is reused; a
// stale lock file of a killed one is cleared by pg_ctl).
func (s *Server) Start(ctx context.Context) error {
	if err := os.MkdirAll(filepath.Dir(s.Dir), 0o755); err != nil { //nolint:gosec // G301: the parent must be traversable by the server's user
		return fmt.Errorf("create the parent of %s: %w", s.Dir, err)
	}
	if err := s.prepareUser(ctx); err != nil {
		return err
	}
	if s.Answers(ctx) {
		s.log.Info("reusing the PostgreSQL server already running", "data", s.Dir, "port", s.Port)
		return nil
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
		if err := s.initdb(ctx); err != nil {
			return err
		}
	} else if err := s.chownTree(); err != nil {
		return err
	}
	args := []string{"-D", s.Dir, "-l", filepath.Join(s.Dir, "server.log"), "-w", "-t", "60", "-o",
		fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s -c fsync=on", s.Port, s.Dir), "start"}
	if out, err := s.run(ctx, "pg_ctl", args...); err != nil {
		return fmt.Errorf("start PostgreSQL %s on %s (port %d): %w\n%s\n(see %s)", s.Major, s.Dir, s.Port, err, out,
			filepath.Join(s.Dir, "server.log"))
	}
	return nil
}

// Stop stops the server (fast shutdown: sessions are ended, nothing is lost).
func (s *Server) Stop(ctx context.Context) error {
	if out, err := s.run(ctx, "pg_ctl", "-D", s.Dir, "-m", "fast", "-w", "stop"); err != nil {
		return fmt.Errorf("stop PostgreSQL on %s: %w\n%s", s.Dir, err, out)
	}
	return nil
}

// Crash stops the server at once, as a power cut would (immediate
// shutdown: no checkpoint; the next start recovers from the WAL). The fault
// tests use it to take the database away under load.
func (s *Server) Crash(ctx context.Context) error {
	if out, err := s.run(ctx, "pg_ctl", "-D", s.Dir, "-m", "immediate", "-w", "stop"); err != nil {
		return fmt.Errorf("stop PostgreSQL on %s at once: %w\n%s", s.Dir, err, out)
	}
	return nil
}

func (s *Server) initdb(ctx context.Context) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", s.Dir, err)
	}
	if err := s.own(s.Dir); err != nil {
		return err
	}
	pwfile := filepath.Join(s.Dir, "..", "."+filepath.Base(s.Dir)+".pw")
	if err := os.WriteFile(pwfile, []byte(s.Password+"\n"), 0o600); err != nil {
		return fmt.Errorf("write the superuser's password for initdb: %w", err)
	}
	defer func() { _ = os.Remove(pwfile) }() // initdb has read it
	if err := s.own(pwfile); err != nil {
		return err
	}
	out, err := s.run(ctx, "initdb", "-D", s.Dir, "-U", "postgres", "--auth=scram-sha-256", "--pwfile="+pwfile,
		"-E", "UTF8", "--locale=C.UTF-8")
	if err != nil {
		return fmt.Errorf("initdb %s: %w\n%s", s.Dir, err, out)
	}
	return nil
}

// run runs one of the binaries as the server's user.
func (s *Server) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(s.Bin, name), args...) //nolint:gosec // G204: our own binaries and arguments
	cmd.Dir = "/"
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

// prepareUser picks the system user the server runs as when this process is
// root, and checks that it can reach the data directory.
func (s *Server) prepareUser(ctx context.Context) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := systemUser(ctx)
	if err != nil {
		return err
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32) // a Unix uid is a number
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	s.RunAs = u.Username
	s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	for dir := filepath.Dir(s.Dir); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("data directory %s: %w", s.Dir, err)
		}
		if info.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("as root, PostgreSQL runs as the system user %s, which cannot reach %s (%s has mode %v): "+
				"set COURRIER_DATA_DIR to a directory it can reach, such as /var/lib/courrier", u.Username, s.Dir, dir, info.Mode().Perm())
		}
		if dir == "/" {
			return nil
		}
	}
}

// Credential is what a PostgreSQL tool other than the server's own (such as
// pg_autoctl, which refuses root too) runs as: nil and this process's user
// name when it is not root, else the unprivileged system user the servers
// run as (courrier, created when missing, else nobody). Directories it uses
// must be reachable by that user.
func Credential(ctx context.Context) (*syscall.Credential, string, error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return nil, "", fmt.Errorf("this process's user: %w", err)
		}
		return nil, u.Username, nil
	}
	u, err := systemUser(ctx)
	if err != nil {
		return nil, "", err
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32) // a Unix uid is a number
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, u.Username, nil
}

// own gives path to the server's user when running as root.
func (s *Server) own(path string) error {
	if s.cred == nil {
		return nil
	}
	if err := os.Chown(path, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
		return fmt.Errorf("give %s to %s: %w", path, s.RunAs, err)
	}
	return nil
}

// systemUser returns the user "courrier", creating it as a system user when
// missing, else "nobody".
func systemUser(ctx context.Context) (*user.User, error) {
	if u, err := user.Lookup("courrier"); err == nil {
		return u, nil
	}
	if path, err := exec.LookPath("useradd"); err == nil {
		cmd := exec.CommandContext(ctx, path, "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "courrier") //nolint:gosec // G204: fixed arguments
		if err := cmd.Run(); err == nil {
			if u, err := user.Lookup("courrier"); err == nil {
				return u, nil
			}
		}
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("as root, PostgreSQL needs an unprivileged user to run as: there is neither courrier nor nobody, " +
			"and courrier could not be created")
	}
	return u, nil
}

// chownTree gives dir and everything in it to the server's user (when this
// process is root): a data directory made by root before is taken over.
func (s *Server) chownTree() error {
	if s.cred == nil {
		return nil
	}
	return filepath.WalkDir(s.Dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return s.own(path)
	})
}

// String describes the server for logs: "PostgreSQL 15 (local binaries) on
// 127.0.0.1:5499, data /var/lib/courrier/postgres, as courrier".
func (s *Server) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "PostgreSQL %s (local binaries) on 127.0.0.1:%d, data %s", s.Major, s.Port, s.Dir)
	if s.RunAs != "" {
		fmt.Fprintf(&b, ", as %s", s.RunAs)
	}
	return b.String()
}

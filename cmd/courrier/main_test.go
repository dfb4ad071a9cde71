package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

func TestVersionAndUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &out, &errb); err != nil || !strings.HasPrefix(out.String(), "courrier ") {
		t.Fatalf("version: %q, %v", out.String(), err)
	}
	for _, args := range [][]string{nil, {"frobnicate"}, {"projections"}, {"migrate", "-no-such-flag"}, {"secrets", "rotate", "password"}} {
		err := run(context.Background(), args, &out, &errb)
		if _, ok := errors.AsType[usageError](err); !ok {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

func TestConfigEnvironmentThenFlags(t *testing.T) {
	env := map[string]string{"COURRIER_HTTP_ADDR": ":9000", "DATABASE_URL": "postgres://x/y"}
	cfg, err := loadConfig("serve", []string{"-http-addr", ":9001"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != ":9001" || cfg.DatabaseURL != "postgres://x/y" || cfg.SMTPAddr != ":2525" {
		t.Fatalf("config %+v", cfg)
	}
}

func TestMigrateAndRebuild(t *testing.T) {
	_, url := pgtest.NewWithURL(t)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "-database-url", url}, &out, &errb); err != nil {
		t.Fatalf("migrate: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "schema version") {
		t.Fatalf("migrate printed %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"projections", "rebuild", "-database-url", url}, &out, &errb); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	if !strings.Contains(out.String(), "rebuilt the projections of 0 games") {
		t.Fatalf("rebuild printed %q", out.String())
	}
}

func TestServeAnswersHealthAndStops(t *testing.T) {
	_, url := pgtest.NewWithURL(t)
	dataDir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	smtpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "-database-url", url, "-http-addr", addr, "-smtp-addr", smtpAddr, "-data-dir", dataDir}, &bytes.Buffer{}, &errb)
	}()
	var resp *http.Response
	var err error
	for range 100 {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://%s/healthz", addr), nil)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if resp, err = http.DefaultClient.Do(req); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		cancel()
		t.Fatalf("serve never answered: %v", err)
	}
	var health struct {
		Status string `json:"status"`
		Feed   *struct {
			LastPoll time.Time `json:"last_poll"`
		} `json:"feed"`
	}
	derr := json.NewDecoder(resp.Body).Decode(&health)
	if err := resp.Body.Close(); err != nil || derr != nil {
		t.Fatal(err, derr)
	}
	if health.Status != "ok" || health.Feed == nil {
		t.Fatalf("healthz says %+v, want ok with the feed watcher's state", health)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") == "" {
		t.Fatalf("healthz: %d, request id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	checkDevMailbox(ctx, t, url, addr, smtpAddr)
	checkMetricsWired(ctx, t, addr)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	// pgx's default pool: max(4, CPUs) connections.
	if want := fmt.Sprintf("mail_workers=%d", poolMailWorkers(max(4, runtime.NumCPU()))); !strings.Contains(errb.String(), want) {
		t.Errorf("the start-up log does not say %s, the mail workers sized to the default pool:\n%s", want, errb.String())
	}
}

// checkMetricsWired checks that serve's /metrics reads the mail backlog
// (through cmd's adapter of notify's mail store), the feed watcher and the
// moves committed by every door: the help mail answered by checkDevMailbox
// was sent, so nothing waits.
func checkMetricsWired(ctx context.Context, t *testing.T, httpAddr string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	for _, want := range []string{
		`courrier_mail_waiting{priority="waiting"} 0`, `courrier_mail_waiting{priority="game"} 0`, `courrier_mail_waiting{priority="later"} 0`,
		`courrier_mail_oldest_waiting_seconds{priority="game"} 0`, "courrier_feed_lag_seconds ", "courrier_feed_events_delivered_total ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("serve's /metrics lacks %q", want)
		}
	}
}

// With no server to use, the zero-config start runs PostgreSQL from the
// machine's binaries under the data directory, as an unprivileged user when
// this process is root, migrates it as the owner and connects as the
// service's login role, which is no superuser.
func TestEmbeddedStartsAsAnyoneAndServesAsTheServiceRole(t *testing.T) {
	ctx := context.Background()
	// Not t.TempDir: its parent is private to this user, and as root the
	// server's user must pass through to its data directory.
	base, err := os.MkdirTemp("", "courrier-embedded-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(base); err != nil {
			t.Errorf("remove %s: %v", base, err)
		}
	})
	if err := os.Chmod(base, 0o711); err != nil { //nolint:gosec // G302: the server's user passes through
		t.Fatal(err)
	}
	cfg := config{DataDir: filepath.Join(base, "data"), EmbeddedPort: freePort(t)}
	url, stop, err := startEmbedded(ctx, cfg, discard())
	if err != nil {
		t.Fatalf("embedded start: %v", err)
	}
	defer stop()
	db, err := openZeroConfig(ctx, cfg, "serve", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Pool.Close()
	var who string
	var super bool
	if err := db.Pool.QueryRow(ctx, `select current_user, rolsuper from pg_roles where rolname = current_user`).Scan(&who, &super); err != nil {
		t.Fatal(err)
	}
	if who != serviceLogin || super {
		t.Fatalf("serve connects as %s (superuser %v), want %s", who, super, serviceLogin)
	}
	if _, err := db.Pool.Exec(ctx, "truncate event_log"); err == nil {
		t.Fatal("the service role may truncate the log")
	}
	info, err := os.Stat(filepath.Join(cfg.DataDir, "pg15"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := info.Sys().(*syscall.Stat_t)
	if os.Geteuid() == 0 && (st == nil || st.Uid == 0) {
		t.Fatalf("as root, the server's data directory belongs to root: PostgreSQL cannot run as root")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return port
}

// Given a login role in courrier_service, serve refuses a schema that is
// behind and says to run `courrier migrate` as the owner; migrate, given the
// owner's URL, brings it up; then serve starts.
func TestServeRefusesAnOldSchemaAsTheServiceRole(t *testing.T) {
	db := pgtest.Open(t)
	ctx := context.Background()
	if _, err := db.Owner.Exec(ctx, "update schema_version set version = version - 1"); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	err := run(ctx, []string{"projections", "rebuild", "-database-url", db.ServiceURL, "-data-dir", t.TempDir()}, &bytes.Buffer{}, &errb)
	if err == nil || !strings.Contains(err.Error(), "courrier migrate") || !strings.Contains(err.Error(), "COURRIER_DATABASE_URL_MIGRATE") {
		t.Fatalf("a service role on an old schema: %v, want a refusal that says to run courrier migrate", err)
	}
}

// Keys are created on first start, 0600 in a 0700 directory, kept across
// starts, and rotated by adding a later key; a directory open to others is
// refused.
func TestSecretsAreCreatedPrivateAndRotate(t *testing.T) {
	dir := t.TempDir()
	if err := ensureSecrets(dir); err != nil {
		t.Fatal(err)
	}
	sdir := filepath.Join(dir, secretsDir)
	info, err := os.Stat(sdir)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("secrets directory mode %v, %v; want 0700", info.Mode().Perm(), err)
	}
	files, _ := filepath.Glob(filepath.Join(sdir, "*.key"))
	if len(files) != 4 {
		t.Fatalf("%d key files, want 4 (jwt, reply, seed, database): %v", len(files), files)
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode %v, %v; want 0600", f, fi.Mode().Perm(), err)
		}
	}
	first, err := loadKeys(dir, keyJWT)
	if err != nil || len(first) != 1 {
		t.Fatalf("jwt keys %v, %v", first, err)
	}
	if err := ensureSecrets(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := loadKeys(dir, keyJWT)
	if len(again) != 1 || again[0].id != first[0].id || !bytes.Equal(again[0].secret, first[0].secret) {
		t.Fatal("a second start made new keys")
	}
	time.Sleep(1100 * time.Millisecond) // key ids are UTC seconds
	var out bytes.Buffer
	if err := run(context.Background(), []string{"secrets", "rotate", "jwt", "-data-dir", dir}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	rotated, _ := loadKeys(dir, keyJWT)
	if len(rotated) != 2 || rotated[1].id != first[0].id || rotated[0].id <= first[0].id {
		t.Fatalf("after a rotation: %v, want a new current key before the old one", rotated)
	}
	if err := os.Chmod(sdir, 0o755); err != nil { //nolint:gosec // G302: opened on purpose, to be refused
		t.Fatal(err)
	}
	if _, err := loadKeys(dir, keyJWT); err == nil || !strings.Contains(err.Error(), "0700") {
		t.Fatalf("a secrets directory open to others: %v, want a refusal", err)
	}
}

// checkDevMailbox is a newcomer's first mail with nothing configured: "help"
// sent to the service address by SMTP is answered into the dev mailbox,
// which `courrier mail list`, `courrier mail show` and the /dev/mail page
// all show.
func checkDevMailbox(ctx context.Context, t *testing.T, url, httpAddr, smtpAddr string) {
	t.Helper()
	msg := "From: Ana <ana@example.org>\r\nTo: play@localhost\r\nSubject: hello\r\nMessage-ID: <first@example.org>\r\n\r\nhelp\r\n"
	if err := smtp.SendMail(smtpAddr, nil, "ana@example.org", []string{"play@localhost"}, []byte(msg)); err != nil {
		t.Fatalf("send help to the service address: %v", err)
	}
	var out bytes.Buffer
	for i := 0; ; i++ {
		out.Reset()
		if err := run(ctx, []string{"mail", "list", "ana@example.org", "-database-url", url}, &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("mail list: %v", err)
		}
		if strings.Contains(out.String(), "ana@example.org") {
			break
		}
		if i == 200 {
			t.Fatalf("the dev mailbox never got the answer to help:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	table, backlog, _ := strings.Cut(strings.TrimSpace(out.String()), "\n\n")
	lines := strings.Split(table, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || backlog != "waiting to be sent: waiting 0, game 0, later 0" {
		t.Fatalf("mail list printed:\n%s", out.String())
	}
	id := strings.Fields(lines[1])[0]
	out.Reset()
	if err := run(ctx, []string{"mail", "show", id, "-database-url", url}, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("mail show %s: %v", id, err)
	}
	for _, want := range []string{"To: <ana@example.org>", "new <game> with", "games", "resign"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("mail show %s lacks %q:\n%s", id, want, out.String())
		}
	}
	if err := run(ctx, []string{"mail", "show", "999999", "-database-url", url}, &out, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no message 999999") {
		t.Errorf("mail show of a missing message: %v", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+"/dev/mail", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "ana@example.org") || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/dev/mail: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), page)
	}
	// The API's twin, through cmd's adapter of notify's mailbox.
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+"/v1/dev/mail?to=ana@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []struct {
			To   []string `json:"to"`
			Text string   `json:"text"`
		} `json:"items"`
	}
	derr := json.NewDecoder(resp.Body).Decode(&list)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || derr != nil || len(list.Items) != 1 || !strings.Contains(list.Items[0].Text, "new <game> with") {
		t.Fatalf("/v1/dev/mail: %d, %v, %+v", resp.StatusCode, derr, list)
	}
}

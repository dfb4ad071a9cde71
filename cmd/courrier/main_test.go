package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/user"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

func TestVersionAndUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &out, &errb); err != nil || !strings.HasPrefix(out.String(), "courrier ") {
		t.Fatalf("version: %q, %v", out.String(), err)
	}
	var ue usageError
	for _, args := range [][]string{nil, {"frobnicate"}, {"projections"}, {"migrate", "-no-such-flag"}} {
		err := run(context.Background(), args, &out, &errb)
		if !errors.As(err, &ue) {
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "-database-url", url, "-http-addr", addr}, &bytes.Buffer{}, &errb)
	}()
	var resp *http.Response
	for range 100 {
		if resp, err = http.Get(fmt.Sprintf("http://%s/healthz", addr)); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		cancel()
		t.Fatalf("serve never answered: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") == "" {
		t.Fatalf("healthz: %d, request id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

// As root with no server to use, the embedded server is refused with a
// message that says what to do.
func TestEmbeddedRefusesRoot(t *testing.T) {
	u, uerr := user.Current()
	if uerr != nil {
		t.Fatal(uerr)
	}
	cfg := config{DataDir: t.TempDir()}
	_, stop, err := startEmbedded(context.Background(), cfg, discard())
	if stop != nil {
		defer stop()
	}
	if u.Uid != "0" {
		if err != nil {
			t.Fatalf("embedded start as %s: %v", u.Username, err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), "cannot run as root") || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Fatalf("err = %v, want the root refusal", err)
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

// The load command's smoke test (CI runs it): a few seconds of bots playing
// Coyote through an embedded server on a scratch database, after the
// PostgreSQL baseline, with every figure printed, no error, and the scratch
// database gone afterwards.
func TestLoadPlaysAndReports(t *testing.T) {
	pool := pgtest.New(t) // fails clearly when no PostgreSQL is reachable
	ctx := context.Background()
	var out bytes.Buffer
	args := []string{"load", "-game", "coyote", "-games", "6", "-clients", "3", "-duration", "2s", "-baseline", "500ms",
		"-rate", "100", "-database-url", pgtest.ServerURL(), "-data-dir", t.TempDir()}
	if err := run(ctx, args, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"PostgreSQL baseline: 3 clients", "inserts/s; p50", "moves/s; p50", " 0 errors", "p99"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "moves: 0 ") {
		t.Error("no move was played")
	}
	var left int
	if err := pool.QueryRow(ctx, `select count(*) from pg_database where datname like 'courrier_load_%'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d scratch databases left behind", left)
	}
}

func TestLoadRefusesBadFlags(t *testing.T) {
	cases := []struct{ args, says string }{
		{"-game chess", "chess"},
		{"-games 0", "at least 1"},
		{"-seats 9", "played by"},
		{"-duration 0s", "positive"},
		{"-rate -3", "-rate"},
		{"-clients x", "invalid value"},
	}
	for _, c := range cases {
		err := run(context.Background(), append([]string{"load"}, strings.Fields(c.args)...), &bytes.Buffer{}, &bytes.Buffer{})
		if _, ok := errors.AsType[usageError](err); !ok || !strings.Contains(err.Error(), c.says) {
			t.Errorf("load %s: %v, want a usage error saying %q", c.args, err, c.says)
		}
	}
}

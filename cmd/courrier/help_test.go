package main

import (
	"bytes"
	"context"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMain runs the binary's main when the tests re-run themselves as
// courrier (TestExitStatus).
func TestMain(m *testing.M) {
	if os.Getenv("COURRIER_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// databaseFlags are the flags of the commands that open the database.
var databaseFlags = []string{"-database-url", "-data-dir"}

// commandFlags is every command with exactly the flags its usage lists.
var commandFlags = []struct {
	name  string
	flags []string
}{
	{"serve", []string{"-database-url", "-data-dir", "-http-addr", "-smtp-addr", "-smtp-trusted", "-smtp-connection-limit",
		"-smtp-sender-limit", "-smtp-reply-limit", "-mail-hourly-limit", "-mail-refusal-limit", "-smtp-read-timeout", "-first-contact-per-hour", "-first-contact-per-address",
		"-smtp-relay", "-smtp-relay-ca", "-mail-domain", "-mail-authserv-id", "-base-url", "-job-timeout", "-mail-workers", "-rate-limit", "-refusal-limit"}},
	{"migrate", append([]string{"-database-url-migrate"}, databaseFlags...)},
	{"projections rebuild", databaseFlags},
	{"mail list", append([]string{"-failed", "-smtp-relay"}, databaseFlags...)},
	{"mail show", databaseFlags},
	{"secrets rotate", []string{"-data-dir"}},
	{"load", append([]string{"-game", "-games", "-clients", "-seats", "-duration", "-baseline", "-url", "-rate", "-mail", "-cpuprofile"}, databaseFlags...)},
	{"replay", append([]string{"-as", "-to", "-views", "-json"}, databaseFlags...)},
	{"audit", append([]string{"-all", "-json", "-q", "-receipts"}, databaseFlags...)},
	{"export", append([]string{"-as", "-o", "-all", "-dir"}, databaseFlags...)},
	{"verify", []string{"-receipt", "-json"}},
	{"version", nil},
	{"help", nil},
}

// flagLine is a flag as flag.PrintDefaults lists it.
var flagLine = regexp.MustCompile(`(?m)^  (-[a-z][a-z0-9-]*)`)

func listedFlags(usage string) []string {
	var out []string
	for _, m := range flagLine.FindAllStringSubmatch(usage, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// Every command's -h, -help and --help prints to stdout its synopsis, what
// it does and its own flags, none of another command's, and succeeds.
func TestEveryCommandHelpListsItsOwnFlags(t *testing.T) {
	var tested []string
	for _, c := range commandFlags {
		tested = append(tested, c.name)
		want := slices.Sorted(slices.Values(c.flags))
		for _, h := range []string{"-h", "-help", "--help"} {
			t.Run(c.name+" "+h, func(t *testing.T) {
				var out, errb bytes.Buffer
				args := append(strings.Fields(c.name), h)
				if err := run(t.Context(), args, &out, &errb); err != nil {
					t.Fatalf("courrier %s %s: %v, want success\n%s", c.name, h, err, errb.String())
				}
				if errb.Len() > 0 {
					t.Errorf("courrier %s %s wrote to stderr: %s", c.name, h, errb.String())
				}
				usage := out.String()
				if !strings.HasPrefix(usage, "usage: courrier "+c.name) || !strings.Contains(usage, capitalize(commandNamed(c.name).summary)+".") {
					t.Errorf("courrier %s %s printed no synopsis and summary:\n%s", c.name, h, usage)
				}
				if got := listedFlags(usage); !slices.Equal(got, want) {
					t.Errorf("courrier %s %s lists flags %v, want %v:\n%s", c.name, h, got, want, usage)
				}
				if len(want) == 0 && strings.Contains(usage, "flags") {
					t.Errorf("courrier %s %s speaks of flags it has none of:\n%s", c.name, h, usage)
				}
			})
		}
	}
	var table []string
	for _, c := range commands {
		table = append(table, c.name)
	}
	if !slices.Equal(tested, table) {
		t.Errorf("tested commands %v, the command table has %v", tested, table)
	}
}

// `courrier help`, -h and --help list every command; `courrier help X` is
// what `courrier X -h` prints; a group lists its commands.
func TestHelpListsEveryCommand(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		var out, errb bytes.Buffer
		if err := run(ctx, args, &out, &errb); err != nil {
			t.Fatalf("courrier %v: %v", args, err)
		}
		for _, c := range commands {
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(c.synopsis(false)) + ` +` + regexp.QuoteMeta(c.summary) + `$`).MatchString(out.String()) {
				t.Errorf("courrier %v does not list %q with its summary:\n%s", args, c.name, out.String())
			}
		}
	}
	for _, c := range commands {
		var help, dashH bytes.Buffer
		if err := run(ctx, append([]string{"help"}, strings.Fields(c.name)...), &help, &bytes.Buffer{}); err != nil {
			t.Fatalf("courrier help %s: %v", c.name, err)
		}
		if err := run(ctx, append(strings.Fields(c.name), "-h"), &dashH, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if help.String() != dashH.String() {
			t.Errorf("courrier help %s printed\n%s\nand courrier %[1]s -h\n%s", c.name, help.String(), dashH.String())
		}
	}
	for _, group := range []string{"mail", "projections", "secrets"} {
		for _, args := range [][]string{{group, "-h"}, {"help", group}} {
			var out bytes.Buffer
			if err := run(ctx, args, &out, &bytes.Buffer{}); err != nil {
				t.Fatalf("courrier %v: %v", args, err)
			}
			for _, c := range commands {
				if listed := strings.Contains(out.String(), "  "+c.name+" "); listed != (c.group() == group) {
					t.Errorf("courrier %v lists %s: %v\n%s", args, c.name, listed, out.String())
				}
			}
		}
	}
}

// A flag a command does not know, a missing command and an unknown one are
// usage errors, reported with the usage on stderr and nothing on stdout.
func TestBadCommandLinesShowTheUsage(t *testing.T) {
	ctx := context.Background()
	for _, c := range commands {
		var out, errb bytes.Buffer
		args := append(strings.Fields(c.name), "-no-such-flag")
		err := run(ctx, args, &out, &errb)
		if _, ok := errors.AsType[usageError](err); !ok {
			t.Errorf("courrier %v: %v, want a usage error", args, err)
			continue
		}
		if _, ok := errors.AsType[reportedError](err); !ok || out.Len() > 0 ||
			!strings.Contains(errb.String(), "flag provided but not defined: -no-such-flag") || !strings.Contains(errb.String(), "usage: courrier "+c.name) {
			t.Errorf("courrier %v: %v; stdout %q; stderr:\n%s", args, err, out.String(), errb.String())
		}
	}
	for _, tc := range []struct {
		args  []string
		shows string
	}{
		{nil, "  serve "},
		{[]string{"frobnicate"}, "  serve "},
		{[]string{"help", "frobnicate"}, "  serve "},
		{[]string{"mail"}, "  mail show ID "},
		{[]string{"mail", "frobnicate"}, "  mail list [ADDRESS] "},
		{[]string{"projections"}, "  projections rebuild "},
		{[]string{"replay"}, "usage: courrier replay [flags] GAME"},
		{[]string{"secrets", "rotate"}, "usage: courrier secrets rotate [flags] PURPOSE"},
		{[]string{"version", "now"}, "usage: courrier version"},
	} {
		var out, errb bytes.Buffer
		err := run(ctx, tc.args, &out, &errb)
		if _, ok := errors.AsType[usageError](err); !ok || out.Len() > 0 || !strings.Contains(errb.String(), tc.shows) {
			t.Errorf("courrier %v: %v; stdout %q; stderr:\n%s", tc.args, err, out.String(), errb.String())
		}
	}
}

// The binary exits 0 after -h and help, 2 after a bad command line.
func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stdout string
	}{
		{[]string{"verify", "-h"}, 0, "usage: courrier verify"},
		{[]string{"serve", "--help"}, 0, "-http-addr"},
		{[]string{"help", "audit"}, 0, "usage: courrier audit"},
		{[]string{"help"}, 0, "  replay GAME "},
		{[]string{"verify", "-x"}, 2, ""},
		{[]string{"frobnicate"}, 2, ""},
		{nil, 2, ""},
	} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], tc.args...) //nolint:gosec // G204: this test binary, as courrier
		cmd.Env = append(os.Environ(), "COURRIER_TEST_RUN_MAIN=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		status := 0
		if exit, ok := errors.AsType[*exec.ExitError](err); ok {
			status = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != tc.status || !strings.Contains(out.String(), tc.stdout) {
			t.Errorf("courrier %v: exit status %d, want %d; stdout:\n%s\nstderr:\n%s", tc.args, status, tc.status, out.String(), errb.String())
		}
		if tc.status == 2 && strings.Count(errb.String(), "courrier: ") != 1 {
			t.Errorf("courrier %v: the error is not told once:\n%s", tc.args, errb.String())
		}
	}
}

// The package documentation lists every command of the table, each with
// its arguments, and no other.
func TestPackageDocNamesEveryCommand(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for line := range strings.Lines(f.Doc.Text()) {
		if rest, ok := strings.CutPrefix(line, "\tcourrier "); ok {
			documented = append(documented, rest)
		}
	}
	if len(documented) != len(commands) {
		t.Errorf("main.go's doc lists %d commands, the table %d:\n%s", len(documented), len(commands), strings.Join(documented, ""))
	}
	for _, c := range commands {
		found := slices.ContainsFunc(documented, func(d string) bool {
			return strings.HasPrefix(d, c.synopsis(false)+" ")
		})
		if !found {
			t.Errorf("main.go's doc does not list `courrier %s`", c.synopsis(false))
		}
	}
}

// README's configuration table has one row per setting, with its flag, and
// no other.
func TestREADMEListsEverySetting(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| `(-[a-z-]+)` \\|")
	var documented, want []string
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		documented = append(documented, m[1]+" "+m[2])
	}
	var c config
	for _, s := range c.settings() {
		want = append(want, s.env+" -"+flagName(s.env))
	}
	slices.Sort(documented)
	slices.Sort(want)
	if !slices.Equal(documented, want) {
		t.Errorf("README's configuration table lists\n%v\nthe settings are\n%v", documented, want)
	}
}

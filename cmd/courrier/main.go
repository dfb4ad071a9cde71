// Command courrier is the one binary of the courrier game service:
//
//	courrier serve                        run the service: HTTP API, pages, SMTP, mail and jobs
//	courrier migrate                      apply the database migrations and exit
//	courrier projections rebuild          recompute every read model from the event log
//	courrier mail list [ADDRESS]          list the dev mailbox, or the outgoing mail log with a relay
//	courrier mail show ID                 print one message of the dev mailbox
//	courrier secrets rotate PURPOSE       add a new current key (jwt, reply, seed)
//	courrier load                         play bots over the HTTP API or by mail and measure it
//	courrier replay GAME                  a game version by version as a seat saw it
//	courrier audit GAME... | -all         re-derive games from the log and check every step
//	courrier export GAME | -all -dir DIR  write game records (plain text, like PGN)
//	courrier verify RECORD...             re-play records, or check a receipt, with no database
//	courrier version                      print the version
//	courrier help [COMMAND]               list the commands, or explain one
//
// `courrier <command> -h` (or `courrier help <command>`) prints what a
// command does and its flags, and exits 0.
//
// Configuration is environment first, each variable with a flag of the same
// name in lower case without the COURRIER_ prefix (DATABASE_URL →
// -database-url, COURRIER_HTTP_ADDR → -http-addr) on the commands that use
// it. See README.md.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if _, told := errors.AsType[reportedError](err); !told {
			_, _ = fmt.Fprintln(os.Stderr, "courrier:", err) // nowhere else to report it
		}
		if _, ok := errors.AsType[usageError](err); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a command line that does not make sense (exit status 2).
type usageError struct {
	msg string
	// showUsage asks for the command's whole usage after the message (a
	// flag it does not know, arguments it does not take); else a line
	// says where to read it.
	showUsage bool
}

func (e usageError) Error() string { return e.msg }

// helpRequested is -h, -help or --help given to a command: run prints
// usage to standard output and exits 0.
type helpRequested struct{ usage string }

func (h helpRequested) Error() string { return "help requested" }

// reportedError is an error run has already written to standard error.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// A command is one of courrier's commands, as `courrier help` and its own
// usage tell it.
type command struct {
	name    string // one word, or a group and a verb: "projections rebuild"
	args    string // its arguments after the flags, as a synopsis: "GAME", "[ADDRESS]"
	summary string // what it does, one line, lower case
	detail  string // more, for its own usage (optional)
	// settings are the configuration variables this command takes as
	// flags too (all are read from the environment).
	settings []string
}

// allSettings stands for every configuration variable but the ones
// listed after it, in a command's settings.
const allSettings = "*"

// commands are courrier's commands, in the order help lists them.
var commands = []command{
	{name: "serve", summary: "run the service: HTTP API and pages, inbound SMTP, outgoing mail, jobs",
		detail: "With no DATABASE_URL it uses the server on localhost:5432 if one answers, else an embedded\n" +
			"one in the data directory, and applies the migrations at start.",
		settings: []string{allSettings, "COURRIER_DATABASE_URL_MIGRATE"}},
	{name: "migrate", summary: "apply the database migrations and exit",
		detail:   "It connects as the schema's owner: COURRIER_DATABASE_URL_MIGRATE, else DATABASE_URL.",
		settings: []string{"DATABASE_URL", "COURRIER_DATABASE_URL_MIGRATE", "COURRIER_DATA_DIR"}},
	{name: "projections rebuild", summary: "recompute every read model from the event log",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "mail list", args: "[ADDRESS]", summary: "list the dev mailbox (no relay set), or the outgoing mail log (relay set)",
		detail: "Newest first, only the mail to ADDRESS when given. With a relay set, each mail's delivery;\n" +
			"-failed lists the mails that failed for good, either way.",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR", "COURRIER_SMTP_RELAY"}},
	{name: "mail show", args: "ID", summary: "print one message of the dev mailbox, its header and its text",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "secrets rotate", args: "PURPOSE", summary: "add a new current key of PURPOSE (jwt, reply or seed) to the data directory",
		detail:   "The new key signs or seals from the next start; the older keys still verify or open.",
		settings: []string{"COURRIER_DATA_DIR"}},
	{name: "load", summary: "play games between bots over the HTTP API (or by mail) and measure moves/s and latencies",
		detail: "It compares them with PostgreSQL's own insert rate from as many clients, against an\n" +
			"embedded server on a scratch database, or against a running courrier (-url). With -mail the\n" +
			"bots play by mail end to end: prompts read at a relay sink on loopback, replies through the\n" +
			"inbound SMTP port as a trusted relay hands them over (Authentication-Results of its authserv-id).\n" +
			"The mail backlog (mail jobs waiting to run) is sampled every second; the run fails when it grew\n" +
			"over the whole run: the least-squares line through the second half's samples rises, over that\n" +
			"half, by at least 10 mails and by more than 3 times the samples' scatter about it, and the last\n" +
			"sample is above the first.",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "replay", args: "GAME", summary: "print a game version by version as a seat saw it",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "audit", args: "GAME... | -all", summary: "re-derive games from the log: hash chain, seed, shuffles, every move",
		detail: "The exit status is 1 when a game fails, naming its first bad version; -receipts FILE checks\n" +
			"players' receipts against the log as stored now.",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "export", args: "GAME | -all -dir DIR", summary: "write game records (plain text, like PGN)",
		detail:   "With -all, records for everyone of the finished games and the public's of the others.",
		settings: []string{"DATABASE_URL", "COURRIER_DATA_DIR"}},
	{name: "verify", args: "RECORD...", summary: "re-play game records with the engines, with no database",
		detail: "With -receipt, it checks a move's receipt against a record instead. The exit status is 1\n" +
			"when a record does not re-play."},
	{name: "version", summary: "print the version"},
	{name: "help", args: "[COMMAND]", summary: "list the commands, or explain one"},
}

// commandNamed is the command called name; it panics on a name not in
// commands (a mistake of this file).
func commandNamed(name string) command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic(fmt.Sprintf("courrier: no command %q in the command table", name))
}

// takes reports whether command c takes configuration variable env as a
// flag.
func (c command) takes(env string) bool {
	if len(c.settings) > 0 && c.settings[0] == allSettings {
		return !slices.Contains(c.settings[1:], env)
	}
	return slices.Contains(c.settings, env)
}

// group is the first word of a command of two ("mail" of "mail list"), or
// "" for a command of one.
func (c command) group() string {
	g, _, ok := strings.Cut(c.name, " ")
	if !ok {
		return ""
	}
	return g
}

// isGroup reports whether word is the first word of commands of two.
func isGroup(word string) bool {
	for _, c := range commands {
		if c.group() == word {
			return true
		}
	}
	return false
}

// verbs are the second words of the commands of group.
func verbs(group string) []string {
	var out []string
	for _, c := range commands {
		if c.group() == group {
			out = append(out, strings.Fields(c.name)[1])
		}
	}
	return out
}

// lookup finds the command args start with: "mail list" of ["mail",
// "list", "x"], with the arguments after its name.
func lookup(args []string) (command, []string, bool) {
	for _, c := range commands {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && strings.Join(args[:len(words)], " ") == c.name {
			return c, args[len(words):], true
		}
	}
	return command{}, nil, false
}

// synopsis is the command as typed: "replay [flags] GAME" (flags when it
// has any).
func (c command) synopsis(flags bool) string {
	s := c.name
	if flags {
		s += " [flags]"
	}
	if c.args != "" {
		s += " " + c.args
	}
	return s
}

// usageOf is command name's own usage: its synopsis, what it does and its
// flags (those of fs).
func usageOf(name string, fs *flag.FlagSet) string {
	c := commandNamed(name)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	var b strings.Builder
	fmt.Fprintf(&b, "usage: courrier %s\n\n%s.\n", c.synopsis(n > 0), capitalize(c.summary))
	if c.detail != "" {
		fmt.Fprintf(&b, "%s\n", c.detail)
	}
	if n > 0 {
		b.WriteString("\nflags:\n")
		out := fs.Output()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return b.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// listUsage is the usage of the commands whose group is group (all of
// them when group is empty).
func listUsage(group string) string {
	var b bytes.Buffer
	if group == "" {
		b.WriteString("Courrier is the one binary of the courrier game service.\n\nusage: courrier <command> [flags] [arguments]\n\ncommands:\n")
	} else {
		fmt.Fprintf(&b, "usage: courrier %s <command> [flags] [arguments]\n\ncommands:\n", group)
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 3, ' ', 0)
	for _, c := range commands {
		if group == "" || c.group() == group {
			_, _ = fmt.Fprintf(tw, "  %s\t%s\n", c.synopsis(false), c.summary)
		}
	}
	_ = tw.Flush() // a bytes.Buffer takes every write
	if group == "" {
		b.WriteString("\nConfiguration is environment first; each variable a command uses is also one of its flags\n" +
			"(DATABASE_URL → -database-url, COURRIER_HTTP_ADDR → -http-addr). See README.md.\n")
	}
	b.WriteString("\nRun 'courrier help <command>' or 'courrier <command> -h' for a command's usage and flags.\n")
	return b.String()
}

// newFlagSet is the flag set of command name, silent: parseFlags says
// what went wrong.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args with fs, the flags of command name: -h is a
// helpRequested with its usage, a flag it does not know a usage error.
func parseFlags(name string, fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return helpRequested{usage: usageOf(name, fs)}
	case err != nil:
		return usageError{msg: err.Error(), showUsage: true}
	}
	return nil
}

// noArguments parses the flags of a command that takes no arguments.
func noArguments(name string, fs *flag.FlagSet, args []string) error {
	if err := parseFlags(name, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{msg: fmt.Sprintf("unexpected argument %q: %s takes none", fs.Arg(0), name), showUsage: true}
	}
	return nil
}

// run is main without the process: arguments in, output out, an error back
// (already written to stderr when it is a reportedError).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	err := dispatch(ctx, args, stdout, stderr, log)
	if h, ok := errors.AsType[helpRequested](err); ok {
		if _, err := io.WriteString(stdout, h.usage); err != nil {
			return fmt.Errorf("print the usage: %w", err)
		}
		return nil
	}
	u, ok := errors.AsType[usageError](err)
	if !ok {
		return err
	}
	_, _ = fmt.Fprintln(stderr, "courrier:", err) // standard error: nowhere else to report it
	c, _, known := lookup(args)
	switch {
	case u.showUsage || !known:
		_, _ = fmt.Fprint(stderr, "\n"+usageText(ctx, args))
	default:
		_, _ = fmt.Fprintf(stderr, "Run 'courrier help %s' for usage.\n", c.name)
	}
	return reportedError{err}
}

// usageText is the usage of the command args name, of its group, or of
// courrier.
func usageText(ctx context.Context, args []string) string {
	c, _, ok := lookup(args)
	switch {
	case ok:
		var b bytes.Buffer
		words := append(strings.Fields(c.name), "-h")
		if err := run(ctx, words, &b, io.Discard); err != nil {
			return listUsage(c.group())
		}
		if c.name == "help" { // which commands there are
			b.WriteString("\n" + listUsage(""))
		}
		return b.String()
	case len(args) > 0 && isGroup(args[0]):
		return listUsage(args[0])
	}
	return listUsage("")
}

// dispatch runs the command args name.
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return usageError{msg: "no command given"}
	}
	c, rest, ok := lookup(args)
	if !ok {
		switch {
		case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
			return helpRequested{usage: listUsage("")}
		case isGroup(args[0]) && (len(args) == 1 || !isHelpFlag(args[1])):
			if len(args) == 1 {
				return usageError{msg: fmt.Sprintf("%s needs a command: %s", args[0], strings.Join(verbs(args[0]), " or "))}
			}
			return usageError{msg: fmt.Sprintf("unknown command %q", args[0]+" "+args[1])}
		case isGroup(args[0]):
			return helpRequested{usage: listUsage(args[0])}
		}
		return usageError{msg: fmt.Sprintf("unknown command %q", args[0])}
	}
	switch c.name {
	case "serve":
		return serve(ctx, rest, log)
	case "migrate":
		return migrate(ctx, rest, stdout, log)
	case "projections rebuild":
		return rebuild(ctx, rest, stdout, stderr, log)
	case "mail list", "mail show":
		return mailCmd(ctx, c.name, rest, stdout, log)
	case "secrets rotate":
		return secretsCmd(rest, stdout)
	case "load":
		return loadCmd(ctx, rest, stdout, log)
	case "replay":
		return replayCmd(ctx, rest, stdout, log)
	case "audit":
		return auditCmd(ctx, rest, stdout, stderr, log)
	case "export":
		return exportCmd(ctx, rest, stdout, stderr, log)
	case "verify":
		return verifyCmd(rest, stdout)
	case "version":
		if err := noArguments(c.name, newFlagSet(c.name), rest); err != nil {
			return err
		}
		_, err := fmt.Fprintln(stdout, "courrier", version())
		return err
	case "help":
		return helpCmd(ctx, rest, log)
	}
	panic(fmt.Sprintf("courrier: command %q has no case in dispatch", c.name))
}

func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// helpCmd is `courrier help [COMMAND]`: every command, or one command's
// usage (a group's commands for a group).
func helpCmd(ctx context.Context, args []string, log *slog.Logger) error {
	fs := newFlagSet("help")
	if err := parseFlags("help", fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return helpRequested{usage: listUsage("")}
	}
	if c, rest, ok := lookup(fs.Args()); ok && len(rest) == 0 {
		// A command's usage is what its -h prints: every command parses
		// its flags before it does anything.
		err := dispatch(ctx, append(strings.Fields(c.name), "-h"), io.Discard, io.Discard, log)
		if _, ok := errors.AsType[helpRequested](err); !ok {
			return fmt.Errorf("courrier %s -h did not print its usage: %w", c.name, err)
		}
		return err
	}
	if fs.NArg() == 1 && isGroup(fs.Arg(0)) {
		return helpRequested{usage: listUsage(fs.Arg(0))}
	}
	return usageError{msg: fmt.Sprintf("unknown command %q", strings.Join(fs.Args(), " ")), showUsage: true}
}

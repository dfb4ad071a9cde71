// Command courrier is the one binary of the courrier game service:
//
//	courrier serve                 run the HTTP API (and, later, mail and jobs)
//	courrier migrate               apply the database migrations and exit
//	courrier projections rebuild   recompute every read model from the event log
//	courrier secrets rotate P      add a new current key (jwt, reply, seed)
//	courrier load                  play bots over the API and measure it
//	courrier version               print the version
//
// Configuration is environment first, each variable with a flag of the same
// name in lower case without the COURRIER_ prefix (DATABASE_URL →
// -database-url, COURRIER_HTTP_ADDR → -http-addr). See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		_, _ = fmt.Fprintln(os.Stderr, "courrier:", err) // nowhere else to report it
		if _, ok := errors.AsType[usageError](err); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a command line that does not make sense.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage: courrier <command> [flags]

commands:
  serve                  run the service: HTTP API, inbound SMTP, mail and job queue
                         (zero-config: migrations are applied at start)
  migrate                apply the database migrations and exit
  projections rebuild    recompute every read model from the event log
  mail list [ADDRESS]    list the dev mailbox (no relay set), or the outgoing mail log with
                         each mail's delivery (relay set); -failed: the mails that failed for good
  mail show ID           print one message of the dev mailbox
  secrets rotate P       add a new current key of purpose P (jwt, reply, seed)
  load                   play games between bots over the HTTP API and measure moves/s
                         and latencies against PostgreSQL's own insert rate
  replay GAME            a game version by version as a seat saw it (-as SEAT|NAME|public|everyone, -to N)
  audit GAME... | -all   re-derive games from the log: hash chain, seed, shuffles, every move;
                         exit status 1 naming the first bad version; -receipts FILE checks
                         players' receipts against the log as stored now
  export GAME | -all     write game records (plain text, like PGN)
  verify RECORD          re-play a record with no database; -receipt checks a move's receipt
  version                print the version

Run 'courrier <command> -h' for the flags of a command.`

// run is main without the process: arguments in, output out, an error back.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		_, _ = fmt.Fprintln(stderr, usage) // the usage error says it too
		return usageError{"no command given"}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], log)
	case "migrate":
		return migrate(ctx, args[1:], stdout, log)
	case "projections":
		if len(args) < 2 || args[1] != "rebuild" {
			return usageError{"usage: courrier projections rebuild"}
		}
		return rebuild(ctx, args[2:], stdout, stderr, log)
	case "mail":
		return mailCmd(ctx, args[1:], stdout, log)
	case "secrets":
		return secretsCmd(args[1:], stdout)
	case "load":
		return loadCmd(ctx, args[1:], stdout, log)
	case "replay":
		return replayCmd(ctx, args[1:], stdout, log)
	case "audit":
		return auditCmd(ctx, args[1:], stdout, stderr, log)
	case "export":
		return exportCmd(ctx, args[1:], stdout, stderr, log)
	case "verify":
		return verifyCmd(args[1:], stdout)
	case "version":
		_, err := fmt.Fprintln(stdout, "courrier", version())
		return err
	case "help", "-h", "-help", "--help":
		_, err := fmt.Fprintln(stdout, usage)
		return err
	}
	_, _ = fmt.Fprintln(stderr, usage) // the usage error says it too
	return usageError{fmt.Sprintf("unknown command %q", args[0])}
}

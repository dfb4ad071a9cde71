package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
)

// The commands of replays, audits and game records: replay, audit and
// export read the database; verify needs none.

// splitArgs separates the flags of fs (with their values) from the other
// arguments, so that flags may come before or after a game id.
func splitArgs(fs *flag.FlagSet, args []string) (flags, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(rest, args[i+1:]...)
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // the parser says it is unknown
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return flags, rest
}

// commandArgs parses the flags of command name: its own (registered by
// more) and the settings it takes, with its arguments (game ids, a
// purpose) anywhere among them, which it returns.
func commandArgs(name string, args []string, more func(*flag.FlagSet)) (config, []string, error) {
	var probe config
	probeFlags := newFlagSet(name)
	probe.flags(name, probeFlags, func(string) string { return "" }, more)
	flags, rest := splitArgs(probeFlags, args)
	var c config
	fs := newFlagSet(name)
	c.flags(name, fs, os.Getenv, more)
	if err := parseFlags(name, fs, flags); err != nil {
		return c, nil, err
	}
	return c, append(fs.Args(), rest...), nil
}

// viewerOf reads --as: a seat number, a player's name, "public", or
// "everyone" (the full reveal: the operator's, or a referee's); empty, the
// full reveal after the end and the public's view before it.
func viewerOf(t *play.Table, as string) (archive.Viewer, error) {
	as = strings.TrimSpace(as)
	switch strings.ToLower(as) {
	case "":
		if t.Ended {
			return archive.Viewer{Seat: games.Spectator, Full: true}, nil
		}
		return archive.Viewer{Seat: games.Spectator}, nil
	case "everyone", "everything", "referee", "all":
		return archive.Viewer{Seat: games.Spectator, Full: true}, nil
	case "public", "spectator":
		return archive.Viewer{Seat: games.Spectator}, nil
	}
	var names []string
	if t.Started {
		names = t.Engine.Players(t.State)
	}
	if n, err := strconv.Atoi(as); err == nil {
		if n < 0 || n >= len(names) {
			return archive.Viewer{}, usageError{msg: fmt.Sprintf("game %s has no seat %d (seats 0 to %d)", t.ID, n, len(names)-1)}
		}
		return archive.Viewer{Seat: games.Seat(n), Full: t.Ended}, nil
	}
	for i, name := range names {
		if strings.EqualFold(name, as) {
			return archive.Viewer{Seat: games.Seat(i), Full: t.Ended}, nil
		}
	}
	return archive.Viewer{}, usageError{msg: fmt.Sprintf("game %s has no player %q (players: %s; or public, everyone)", t.ID, as, strings.Join(names, ", "))}
}

// openPlay opens the database, the game service and the archive of a
// command, with the data directory's seed keys (an operator's audit opens
// the seed of a running game); the function returned closes the database.
func openPlay(ctx context.Context, cfg config, name string, log *slog.Logger) (*play.Service, *play.Archive, func(), error) {
	box, err := seedBox(cfg.DataDir)
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := openDatabase(ctx, cfg, name, log)
	if err != nil {
		return nil, nil, nil, err
	}
	reg := catalog.Registry()
	return play.New(db.Pool, reg, play.WithLogger(log), play.WithSeedBox(box)), play.NewArchive(db.Pool, reg, box), db.Close, nil
}

// replayCmd prints a game version by version as a seat saw it.
func replayCmd(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	var as string
	var to int
	var views, asJSON bool
	cfg, rest, err := commandArgs("replay", args, func(fs *flag.FlagSet) {
		fs.StringVar(&as, "as", "", "whose view: a seat number, a player's name, public, or everyone (default: everyone after the end, else public)")
		fs.IntVar(&to, "to", 0, "stop at this version (default: the last)")
		fs.BoolVar(&views, "views", false, "print the view after every step (default: after the last)")
		fs.BoolVar(&asJSON, "json", false, "print one JSON object per step")
	})
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{msg: fmt.Sprintf("replay takes one game id, not %d arguments", len(rest)), showUsage: true}
	}
	svc, arc, closeDB, err := openPlay(ctx, cfg, "replay", log)
	if err != nil {
		return err
	}
	defer closeDB()
	t, err := svc.Load(ctx, rest[0])
	if err != nil {
		return err
	}
	v, err := viewerOf(t, as)
	if err != nil {
		return err
	}
	steps, err := arc.ReplayAs(ctx, rest[0], v, to)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for i, st := range steps {
		if asJSON {
			if err := enc.Encode(st); err != nil {
				return err
			}
			continue
		}
		who := ""
		if st.Meta.Seat != nil && t.Started {
			if names := t.Engine.Players(t.State); *st.Meta.Seat < len(names) {
				who = names[*st.Meta.Seat] + ": "
			}
		}
		move := st.Meta.Move
		if st.Reveal != nil {
			move = st.Reveal.Move
		}
		if move != "" {
			who += strconv.Quote(move) + " — "
		}
		if _, err := fmt.Fprintf(stdout, "%4d  %s  %s%s\n", st.Version, st.At.UTC().Format("2006-01-02 15:04:05Z"), who, st.Text); err != nil {
			return err
		}
		if views || i == len(steps)-1 {
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, st.View, "      ", "  "); err == nil {
				if _, err := fmt.Fprintf(stdout, "      view: %s\n", pretty.Bytes()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// auditCmd audits games from the database; it fails, naming each failed
// game's first bad version, when any does not pass.
func auditCmd(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	var all, asJSON, quiet bool
	var receipts string
	cfg, rest, err := commandArgs("audit", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&all, "all", false, "audit every game")
		fs.BoolVar(&asJSON, "json", false, "print each report as JSON")
		fs.BoolVar(&quiet, "q", false, "print one line per game, not the whole report")
		fs.StringVar(&receipts, "receipts", "", "check the receipts in this file (one a line: the API's receipt JSON or a receipt mail's line) against the log as stored now")
	})
	if err != nil {
		return err
	}
	if receipts != "" {
		return checkReceipts(ctx, cfg, receipts, stdout, log)
	}
	if len(rest) == 0 && !all || len(rest) > 0 && all {
		return usageError{msg: "audit takes game ids or -all (one of the two)", showUsage: true}
	}
	svc, arc, closeDB, err := openPlay(ctx, cfg, "audit", log)
	if err != nil {
		return err
	}
	defer closeDB()
	ids := rest
	if all {
		if ids, err = svc.GameIDs(ctx); err != nil {
			return err
		}
		quiet = quiet || !asJSON
	}
	bar := newLoadBar(stderr, int64(len(ids)), "auditing")
	var failed []string
	for _, id := range ids {
		rep, err := arc.AuditGame(ctx, id)
		if err != nil {
			return err
		}
		_ = bar.Add(1) // a progress bar's write error is not the audit's
		switch {
		case asJSON:
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
		case quiet:
			verdict := "passed"
			if !rep.Passed {
				verdict = fmt.Sprintf("FAILED at version %d: %s", rep.FirstBad, rep.Problems[0].What)
			}
			if _, err := fmt.Fprintf(stdout, "%s %s %d events: %s\n", id, rep.Kind, rep.Version, verdict); err != nil {
				return err
			}
		default:
			if err := archive.WriteAuditReport(stdout, rep); err != nil {
				return err
			}
		}
		if !rep.Passed {
			failed = append(failed, fmt.Sprintf("%s at version %d", id, rep.FirstBad))
		}
	}
	_ = bar.Finish()
	if len(failed) > 0 {
		return fmt.Errorf("the audit failed: %s", strings.Join(failed, ", "))
	}
	if all {
		if _, err := fmt.Fprintf(stdout, "%d games audited: all passed\n", len(ids)); err != nil {
			return err
		}
	}
	return nil
}

// exportCmd writes game records: one to stdout (or -o), or every game's
// into a directory.
func exportCmd(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	var as, out, dir string
	var all bool
	cfg, rest, err := commandArgs("export", args, func(fs *flag.FlagSet) {
		fs.StringVar(&as, "as", "", "whose record: a seat number, a player's name, public, or everyone (default: everyone after the end, else public)")
		fs.StringVar(&out, "o", "", "write the record to this file (default: standard output)")
		fs.BoolVar(&all, "all", false, "export every game, one file each, into -dir")
		fs.StringVar(&dir, "dir", "", "the directory of -all")
	})
	if err != nil {
		return err
	}
	switch {
	case all && (dir == "" || len(rest) > 0 || as != ""):
		return usageError{msg: "export -all takes -dir DIR, and neither game ids nor -as", showUsage: true}
	case !all && len(rest) != 1:
		return usageError{msg: fmt.Sprintf("export takes one game id (or -all -dir DIR), not %d arguments", len(rest)), showUsage: true}
	}
	svc, arc, closeDB, err := openPlay(ctx, cfg, "export", log)
	if err != nil {
		return err
	}
	defer closeDB()
	write := func(id string, w io.Writer) error {
		t, err := svc.Load(ctx, id)
		if err != nil {
			return err
		}
		v, err := viewerOf(t, as)
		if err != nil {
			return err
		}
		return arc.RecordAs(ctx, w, id, v)
	}
	if !all {
		if out == "" {
			return write(rest[0], stdout)
		}
		return writeFile(out, func(w io.Writer) error { return write(rest[0], w) })
	}
	ids, err := svc.GameIDs(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	bar := newLoadBar(stderr, int64(len(ids)), "exporting")
	for _, id := range ids {
		if err := writeFile(filepath.Join(dir, id+".txt"), func(w io.Writer) error { return write(id, w) }); err != nil {
			return err
		}
		_ = bar.Add(1) // a progress bar's write error is not the export's
	}
	_ = bar.Finish()
	_, err = fmt.Fprintf(stdout, "%d game records written to %s\n", len(ids), dir)
	return err
}

// writeFile writes a file through fn, removing it when fn fails.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path) //nolint:gosec // G304: the operator names the file
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fn(f); err != nil {
		_ = f.Close()
		_ = os.Remove(path) //nolint:gosec // G703: the operator names the file; a failed write leaves none
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// verifyCmd re-plays game records with the engines, with no database; with
// -receipt, it checks a move's receipt against a record.
func verifyCmd(args []string, stdout io.Writer) error {
	fs := newFlagSet("verify")
	receipt := fs.String("receipt", "", "a receipt to check against the record: its text, or @FILE (the API's receipt JSON or a receipt mail)")
	asJSON := fs.Bool("json", false, "print each report as JSON")
	flags, rest := splitArgs(fs, args)
	if err := parseFlags("verify", fs, flags); err != nil {
		return err
	}
	rest = append(fs.Args(), rest...)
	if len(rest) == 0 {
		return usageError{msg: "verify takes one record file or more", showUsage: true}
	}
	reg := catalog.Registry()
	var failed []string
	for _, path := range rest {
		rec, err := readRecord(path)
		if err != nil {
			return err
		}
		if *receipt != "" {
			text := *receipt
			if name, ok := strings.CutPrefix(text, "@"); ok {
				b, err := os.ReadFile(name) //nolint:gosec // G304: the user names the file
				if err != nil {
					return fmt.Errorf("read the receipt: %w", err)
				}
				text = string(b)
			}
			r, err := archive.ParseReceipt(text)
			if err != nil {
				return err
			}
			if err := archive.VerifyReceipt(rec, r); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if _, err := fmt.Fprintf(stdout, "%s: the receipt of version %d (%s…) is in the record of game %s\n", path, r.Version, r.Hash[:12], rec.Header("Game")); err != nil {
				return err
			}
			continue
		}
		rep, err := archive.VerifyRecord(play.Folder(reg), rec)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
		} else {
			if err := archive.WriteAuditReport(stdout, rep); err != nil {
				return err
			}
		}
		if !rep.Passed {
			failed = append(failed, fmt.Sprintf("%s at version %d", path, rep.FirstBad))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the record does not verify: %s", strings.Join(failed, ", "))
	}
	return nil
}

// readRecord parses the record in the file at path ("-": standard input).
func readRecord(path string) (*archive.Record, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path) //nolint:gosec // G304: the user names the file
		if err != nil {
			return nil, fmt.Errorf("read the record: %w", err)
		}
		defer func() { _ = f.Close() }() // read only
		r = f
	}
	rec, err := archive.ParseRecord(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// checkReceipts checks every receipt of a file, one a line, against the
// log as stored now: the operator's way to settle a dispute about a
// receipt before the game ends. It prints one line per receipt and fails
// when any does not check.
func checkReceipts(ctx context.Context, cfg config, path string, stdout io.Writer, log *slog.Logger) error {
	raw, err := os.ReadFile(path) //nolint:gosec // G304: the operator names the file
	if err != nil {
		return fmt.Errorf("read the receipts: %w", err)
	}
	_, arc, closeDB, err := openPlay(ctx, cfg, "audit", log)
	if err != nil {
		return err
	}
	defer closeDB()
	checked, bad := 0, 0
	for i, line := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		r, err := archive.ParseReceipt(line)
		if err == nil {
			err = arc.CheckReceipt(ctx, r)
		}
		checked++
		verdict := "ok"
		if err != nil {
			bad++
			verdict = err.Error()
		}
		if _, err := fmt.Fprintf(stdout, "line %d: game %s version %d: %s\n", i+1, r.Game, r.Version, verdict); err != nil {
			return err
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d receipts do not check", bad, checked)
	}
	_, err = fmt.Fprintf(stdout, "%d receipts checked: all in the log as acknowledged\n", checked)
	return err
}

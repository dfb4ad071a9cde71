package archive

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// A game record is a plain-text file, designed like PGN: readable, diffable
// and stable. Header lines [Name "value"] come first; then one line per
// event:
//
//	<version> <time> <seat|-> <channel|-> <type> <data JSON> [move "<text>"] [hash <hex>]
//
// each followed by a comment line "; <what happened>". Lines starting with
// ';' are comments, ignored when the record is read. A record for everyone
// (after the end, or the referee's) holds every event as stored, every move
// as typed, the revealed seed and each event's hash; a seat's record of a
// running game holds only what that seat may see, and no hashes (from a
// hash and a guess, a hidden card could be found). User ids are never in a
// record.
//
// A record is a file for archives and operators: its headers and comment
// lines are English (a result's summary, what each event did), whoever
// asks for it, and its format never changes, so that ParseRecord reads
// every record ever written. A person reads the same events in their
// language in the replay and the audit, on the web and in the API.

// RecordFormat is the first header of every record.
const RecordFormat = "courrier record 1"

// Record is a parsed game record.
type Record struct {
	// Headers in the order written.
	Headers []RecordHeader
	Events  []events.Recorded
}

// RecordHeader is one [Name "value"] line.
type RecordHeader struct {
	Name, Value string
}

// Header returns the value of header name ("" when absent).
func (r *Record) Header(name string) string {
	for _, h := range r.Headers {
		if h.Name == name {
			return h.Value
		}
	}
	return ""
}

// WriteRecord writes the record of a game from its stored events, folded
// with newFold, as viewer may have it.
func WriteRecord(w io.Writer, newFold Folder, gameID string, recorded []events.Recorded, viewer Viewer) error {
	return WriteRecordTalk(w, newFold, gameID, recorded, viewer, nil)
}

// WriteRecordTalk is WriteRecord with the table talk the viewer may read,
// by the game version it was said at: each message is a comment line
// "; talk: <who to whom>: <text>" after its version's event, so that the
// record's format (and ParseRecord) stays as it is.
func WriteRecordTalk(w io.Writer, newFold Folder, gameID string, recorded []events.Recorded, viewer Viewer, talk map[int][]TalkLine) error {
	f, err := foldAll(newFold, gameID, recorded)
	if err != nil {
		return err
	}
	full := f.Game()
	bw := &bytes.Buffer{}
	header := func(name, value string) { fmt.Fprintf(bw, "[%s %s]\n", name, strconv.Quote(value)) }
	header("Record", RecordFormat)
	header("Game", gameID)
	header("Kind", full.Kind)
	if full.Engine != nil {
		header("Name", full.Engine.Info().Name)
	}
	header("Rules", strconv.Itoa(max(full.Rules, 1)))
	header("Shuffle", games.ShuffleAlgorithm)
	header("Options", optionsLine(full.Options))
	if full.Started {
		header("Players", strings.Join(full.Engine.Players(full.State), ", "))
	}
	header("SeedSHA256", full.Commitment)
	seed := "secret until the game ends"
	if full.Ended && viewer.Full {
		if sd := revealedSeed(recorded); sd != nil {
			seed = sd.String()
		}
	}
	header("Seed", seed)
	result := "*"
	if full.Result != nil {
		result = full.Result.Summary.In(games.English)
	}
	header("Result", result)
	view := "everything"
	if !viewer.Full {
		view = "public"
		if viewer.Seat != games.Spectator {
			view = fmt.Sprintf("seat %d (%s)", viewer.Seat, full.nameOf(viewer.Seat))
		}
	}
	header("View", view)
	header("Versions", strconv.Itoa(len(recorded)))
	bw.WriteByte('\n')

	steps, err := replaySteps(newFold, gameID, recorded, viewer, 0, false)
	if err != nil {
		return err
	}
	for i, st := range steps {
		data := st.Data
		move := st.Meta.Move
		if st.Reveal != nil {
			data, move = st.Reveal.Data, st.Reveal.Move
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			return fmt.Errorf("record of %s version %d: %w", gameID, st.Version, err)
		}
		seat, channel := "-", "-"
		if st.Meta.Seat != nil {
			seat = strconv.Itoa(*st.Meta.Seat)
		}
		if st.Meta.Channel != "" {
			channel = st.Meta.Channel
		}
		fmt.Fprintf(bw, "%d %s %s %s %s %s", st.Version, st.At.UTC().Format(time.RFC3339Nano), seat, channel, st.Type, compact.Bytes())
		if move != "" {
			fmt.Fprintf(bw, " move %s", strconv.Quote(move))
		}
		if viewer.Full {
			fmt.Fprintf(bw, " hash %s", hex.EncodeToString(recorded[i].Hash))
		}
		bw.WriteByte('\n')
		if text := st.Text.In(games.English); text != "" {
			fmt.Fprintf(bw, "; %s\n", strings.ReplaceAll(text, "\n", " "))
		}
		for _, l := range talk[st.Version] {
			fmt.Fprintf(bw, "; talk: %s: %s\n", l.Heading.In(games.English), strings.ReplaceAll(l.Text.In(games.English), "\n", " "))
		}
	}
	_, err = w.Write(bw.Bytes())
	return err
}

// optionsLine writes options as "a=1, b=2", sorted by name.
func optionsLine(opts games.Options) string {
	parts := make([]string, 0, len(opts))
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		parts = append(parts, k+"="+opts[k])
	}
	return strings.Join(parts, ", ")
}

// ParseRecord reads a record written by WriteRecord.
func ParseRecord(r io.Reader) (*Record, error) {
	rec := &Record{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "["):
			name, value, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
			v, err := strconv.Unquote(value)
			if !ok || err != nil || !strings.HasSuffix(line, "]") {
				return nil, fmt.Errorf("line %d: a header is [Name \"value\"]", n)
			}
			rec.Headers = append(rec.Headers, RecordHeader{Name: name, Value: v})
		default:
			e, err := parseRecordLine(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			rec.Events = append(rec.Events, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read record: %w", err)
	}
	if rec.Header("Record") != RecordFormat {
		return nil, fmt.Errorf("this is not a courrier game record (its first header should be [Record %q])", RecordFormat)
	}
	return rec, nil
}

// parseRecordLine reads one event line.
func parseRecordLine(line string) (events.Recorded, error) {
	var e events.Recorded
	f := strings.SplitN(line, " ", 6)
	if len(f) < 6 {
		return e, errors.New("an event line is: version time seat channel type data [move \"text\"] [hash hex]")
	}
	var err error
	if e.Version, err = strconv.Atoi(f[0]); err != nil {
		return e, fmt.Errorf("version %q is not a number", f[0])
	}
	if e.RecordedAt, err = time.Parse(time.RFC3339Nano, f[1]); err != nil {
		return e, fmt.Errorf("time %q is not an RFC 3339 time", f[1])
	}
	var meta events.Meta
	if f[2] != "-" {
		s, err := strconv.Atoi(f[2])
		if err != nil {
			return e, fmt.Errorf("seat %q is not a number", f[2])
		}
		meta.Seat = &s
	}
	if f[3] != "-" {
		meta.Channel = f[3]
	}
	e.Type = f[4]
	dec := json.NewDecoder(strings.NewReader(f[5]))
	var data json.RawMessage
	if err := dec.Decode(&data); err != nil {
		return e, fmt.Errorf("the data of version %d is not JSON: %w", e.Version, err)
	}
	e.Data = data
	rest := strings.TrimSpace(f[5][dec.InputOffset():])
	if m, ok := strings.CutPrefix(rest, "move "); ok {
		q, err := strconv.QuotedPrefix(m)
		if err != nil {
			return e, fmt.Errorf("the move of version %d is not a quoted string", e.Version)
		}
		meta.Move, _ = strconv.Unquote(q) // QuotedPrefix checked it
		rest = strings.TrimSpace(m[len(q):])
	}
	if h, ok := strings.CutPrefix(rest, "hash "); ok {
		if e.Hash, err = hex.DecodeString(strings.TrimSpace(h)); err != nil {
			return e, fmt.Errorf("the hash of version %d is not hexadecimal", e.Version)
		}
	} else if rest != "" {
		return e, fmt.Errorf("unexpected %q after the data of version %d", rest, e.Version)
	}
	if e.Meta, err = json.Marshal(meta); err != nil {
		return e, fmt.Errorf("encode the meta of version %d: %w", e.Version, err)
	}
	return e, nil
}

// VerifyRecord re-plays a record for everyone with the engines, needing no
// database: the seed against its commitment, the shuffles against the seed,
// every move's legality and events, and the result. A seat's record of a
// running game cannot be re-played (its hidden parts are not in it): that
// is an error.
func VerifyRecord(newFold Folder, rec *Record) (*AuditReport, error) {
	if rec.Header("View") != "everything" {
		return nil, fmt.Errorf("this record holds only what %s may see: it can be verified from the record for everyone, which the game's players get when it ends", rec.Header("View"))
	}
	in := AuditInput{GameID: rec.Header("Game"), Recorded: rec.Events}
	seed, err := games.ParseSeed(rec.Header("Seed"))
	rep := (*AuditReport)(nil)
	if err == nil {
		in.Seed = &seed
	}
	rep = Audit(newFold, in)
	if err != nil {
		rep.problemAt(1, "problem.record_seed")
	} else if seed.Commitment() != rec.Header("SeedSHA256") {
		rep.problemAt(1, "problem.record_seed_commitment")
	}
	if rep.Commitment != rec.Header("SeedSHA256") {
		rep.problemAt(1, "problem.record_commitment")
	}
	// The record's Result header is English (see WriteRecord).
	if rep.Result != nil && rep.Result.Summary.In(games.English) != rec.Header("Result") {
		rep.problemAt(rep.Version, "problem.record_result", rec.Header("Result"), rep.Result.Summary)
	}
	if rep.Result == nil {
		rep.problemAt(rep.Version, "problem.record_unfinished")
	}
	rep.Unchecked = []games.Phrase{words.Phrase("unchecked.chain_record")}
	return rep, nil
}

// problemAt adds a problem to a finished report: archive's message key
// with args.
func (r *AuditReport) problemAt(version int, key string, args ...any) {
	r.Problems = append(r.Problems, AuditProblem{Version: version, What: words.Phrase(key, args...)})
	if r.FirstBad == 0 || version < r.FirstBad {
		r.FirstBad = version
	}
	slices.SortFunc(r.Problems, func(x, y AuditProblem) int { return x.Version - y.Version })
	r.Passed = false
}

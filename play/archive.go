package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
)

// Archive serves what is re-derived from a game's log rather than read from
// its projections: audit reports, game records, replays and the operator's
// receipt check. It loads what the re-derivation needs (the stream, the seed
// when the caller may have it, the mail context of commands) and leaves the
// re-derivation to package archive, which needs no database. It writes
// nothing, and is apart from Service, whose commands and reads serve a game
// as it is now.
type Archive struct {
	pool  *pgxpool.Pool
	reg   *games.Registry
	seeds *SeedBox
	fold  archive.Folder
}

// NewArchive returns an Archive on pool for the games in reg. seeds opens
// the seeds of running games for the operator's audit and receipt check and
// a referee's audit: the Service's own box (WithSeedBox). Nil: only seeds
// revealed at the end or stored in clear are known.
func NewArchive(pool *pgxpool.Pool, reg *games.Registry, seeds *SeedBox) *Archive {
	if seeds == nil {
		seeds = NewEphemeralSeedBox()
	}
	return &Archive{pool: pool, reg: reg, seeds: seeds, fold: Folder(reg)}
}

// Folder returns play's fold of a game (Table) as the archive's walks drive
// it: one fold of the lifecycle, for commands and re-derivation alike.
func Folder(reg *games.Registry) archive.Folder {
	return func(gameID string) archive.Fold { return &tableFold{reg: reg, t: &Table{ID: gameID}} }
}

// tableFold is a Table folded for package archive.
type tableFold struct {
	reg *games.Registry
	t   *Table
}

// Describe is Table.change, for archive.
func (f *tableFold) Describe(e events.Recorded, seat games.Seat) (archive.Described, error) {
	c, err := f.t.change(e, seat)
	return archive.Described{Data: c.Data, Meta: archive.ServedMeta(c.Meta), Text: c.Text}, err
}

// Apply folds e as a command would.
func (f *tableFold) Apply(e events.Recorded) error { return f.t.apply(f.reg, e, actorOf(e.Meta)) }

// Game returns the table's public facts.
func (f *tableFold) Game() archive.Game {
	t := f.t
	return archive.Game{
		Kind: t.Kind, Engine: t.Engine, State: t.State, Options: t.Options, Rules: t.Rules,
		Commitment: t.Commitment, Version: t.Version, Started: t.Started, Ended: t.Ended,
		Pending: t.Pending, Resigned: t.Resigned, Abandoned: t.Abandoned, Result: t.endResult,
	}
}

// Joined returns the joined players' names, in order.
func (f *tableFold) Joined() []string {
	names := make([]string, len(f.t.Joined))
	for i, j := range f.t.Joined {
		names[i] = j.Name
	}
	return names
}

// Disputes returns the table's disputes (nil for none).
func (f *tableFold) Disputes() []archive.Dispute {
	if f.t.Disputes == nil {
		return nil
	}
	// A copy: the walk must not reach into the table's own rulings.
	out := slices.Clone(f.t.Disputes)
	for i, d := range out {
		if d.Ruling != nil {
			r := *d.Ruling
			out[i].Ruling = &r
		}
	}
	return out
}

// TakeBacks returns the table's take-back requests (nil for none).
func (f *tableFold) TakeBacks() []archive.TakeBack {
	if f.t.TakeBacks == nil {
		return nil
	}
	out := slices.Clone(f.t.TakeBacks)
	for i := range out {
		out[i].Answers = slices.Clone(out[i].Answers)
	}
	return out
}

// ViewerOf returns who user is to a game: their seat (the public's until
// the end for a player who resigned), the version from which they hold it,
// and whether they get the full reveal. ok is false when user neither plays
// the game nor referees it (and the game has started: an open game is
// public).
func (t *Table) ViewerOf(user string) (v archive.Viewer, ok bool) {
	seat := t.SeatOf(user)
	if slices.Contains(t.Resigned, seat) && !t.Ended {
		seat = games.Spectator
	}
	v = archive.Viewer{Seat: seat, From: t.replacedAt[user], Full: t.FullReveal(user)}
	ok = !t.Started || t.SeatOf(user) != games.Spectator || (user != "" && user == t.Referee())
	return v, ok
}

// read reads a game's whole stream; a game with none does not exist.
func (a *Archive) read(ctx context.Context, gameID string) ([]events.Recorded, error) {
	recorded, err := events.ReadStream(ctx, a.pool, Stream(gameID), 0)
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", gameID, err)
	}
	if len(recorded) == 0 {
		return nil, refuse(CodeNotFound, "refusal.game_unknown", gameID)
	}
	return recorded, nil
}

// readAs reads and folds a game and returns who user is to it; a *Error
// (CodeForbidden, saying that only players and the referee may do what, a
// key of play's catalog)
// when user neither plays nor referees it.
func (a *Archive) readAs(ctx context.Context, gameID, user, what string) ([]events.Recorded, *Table, archive.Viewer, error) {
	recorded, err := a.read(ctx, gameID)
	if err != nil {
		return nil, nil, archive.Viewer{}, err
	}
	t, err := fold(a.reg, gameID, recorded)
	if err != nil {
		return nil, nil, archive.Viewer{}, err
	}
	v, ok := t.ViewerOf(user)
	if !ok {
		return nil, nil, archive.Viewer{}, refuse(CodeForbidden, "refusal.not_your_game", games.T(what))
	}
	return recorded, t, v, nil
}

// storedSeed reads a game's row of game_secrets; pgx.ErrNoRows when the
// game keeps no seed.
func (a *Archive) storedSeed(ctx context.Context, gameID string) (storedSeed, error) {
	var st storedSeed
	err := a.pool.QueryRow(ctx, seedQuery, gameID).Scan(&st.clear, &st.sealed, &st.keyID)
	st.found = err == nil
	return st, err
}

// AuditGame audits a game from the database: the hash chain of its stored
// events, then archive.Audit with the game's seed (the operator holds it
// through the seed box even before the end) and the mail context of its
// commands.
func (a *Archive) AuditGame(ctx context.Context, gameID string) (*archive.AuditReport, error) {
	recorded, err := a.read(ctx, gameID)
	if err != nil {
		return nil, err
	}
	in := archive.AuditInput{GameID: gameID, Recorded: recorded, Chain: true, Mail: map[int]archive.MailContext{}}
	if _, err := events.VerifyStream(ctx, a.pool, Stream(gameID)); err != nil {
		ce, ok := errors.AsType[*events.ChainError](err)
		if !ok {
			return nil, fmt.Errorf("verify the chain of game %s: %w", gameID, err)
		}
		in.ChainError = ce
	}
	if secret, err := a.storedSeed(ctx, gameID); err == nil {
		// A seed that does not open (another data directory's keys) leaves
		// the random outcomes of a running game unchecked, and says so.
		if sd, err := secret.open(a.seeds, gameID); err != nil {
			in.SeedError = err.Error()
		} else {
			in.Seed = &sd
		}
	} else if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("read the seed of game %s: %w", gameID, err)
	}
	if err := a.mailContext(ctx, gameID, in.Mail); err != nil {
		return nil, err
	}
	return archive.Audit(a.fold, in), nil
}

// mailContext reads the Message-ID and authentication result of the mail
// that carried each of a game's commands, by the command's first version
// (joined within the game's stream: the log is indexed by stream and
// version, not by position).
func (a *Archive) mailContext(ctx context.Context, gameID string, into map[int]archive.MailContext) error {
	rows, err := a.pool.Query(ctx, `select e.version, coalesce(c.message_id, ''), coalesce(c.mail_auth, '')
		from event_context c join events e on e.stream = c.stream and e.position = c.position
		where c.stream = $1 and c.message_id is not null`, Stream(gameID))
	if err != nil {
		return fmt.Errorf("read the mail context of game %s: %w", gameID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		var mc archive.MailContext
		if err := rows.Scan(&v, &mc.MessageID, &mc.MailAuth); err != nil {
			return fmt.Errorf("read the mail context of game %s: %w", gameID, err)
		}
		into[v] = mc
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the mail context of game %s: %w", gameID, err)
	}
	return nil
}

// AuditFor is the audit report of a game for user: its players once it is
// over, its referee (without a seat) at any time.
func (a *Archive) AuditFor(ctx context.Context, gameID, user string) (*archive.AuditReport, error) {
	_, _, v, err := a.readAs(ctx, gameID, user, "what.audit")
	if err != nil {
		return nil, err
	}
	if !v.Full {
		return nil, refuse(CodeConflict, "refusal.audit_running", gameID)
	}
	return a.AuditGame(ctx, gameID)
}

// RecordFor writes the record of a game as user may have it (see
// Table.ViewerOf); a *Error (CodeForbidden) when user neither plays nor
// referees it.
func (a *Archive) RecordFor(ctx context.Context, w io.Writer, gameID, user string) error {
	recorded, t, v, err := a.readAs(ctx, gameID, user, "what.record")
	if err != nil {
		return err
	}
	talk, err := a.talkOf(ctx, t, user)
	if err != nil {
		return err
	}
	return archive.WriteRecordTalk(w, a.fold, gameID, recorded, v, talk)
}

// talkOf is the table talk of the game t user may read, by the game
// version it was said at.
func (a *Archive) talkOf(ctx context.Context, t *Table, user string) (map[int][]archive.TalkLine, error) {
	recorded, err := events.ReadStream(ctx, a.pool, TalkStream(t.ID), 0)
	if err != nil || len(recorded) == 0 {
		return nil, err
	}
	k, err := foldTalk(t, recorded)
	if err != nil {
		return nil, err
	}
	out := map[int][]archive.TalkLine{}
	for _, m := range t.readable(user, k, 0) {
		out[m.At] = append(out[m.At], archive.TalkLine{Heading: m.Heading(), Text: m.Line()})
	}
	return out, nil
}

// withTalk puts in each step the talk said at its version.
func withTalk(steps []archive.ReplayStep, talk map[int][]archive.TalkLine) []archive.ReplayStep {
	for i := range steps {
		steps[i].Talk = talk[steps[i].Version]
	}
	return steps
}

// RecordAs writes the record of a game as viewer may have it: for the
// operator's command line.
func (a *Archive) RecordAs(ctx context.Context, w io.Writer, gameID string, viewer archive.Viewer) error {
	recorded, err := a.read(ctx, gameID)
	if err != nil {
		return err
	}
	return archive.WriteRecord(w, a.fold, gameID, recorded, viewer)
}

// Replay returns a game's steps up to version to (0: all) as user may see
// them; a *Error (CodeForbidden) when user neither plays nor referees it.
func (a *Archive) Replay(ctx context.Context, gameID, user string, to int) ([]archive.ReplayStep, error) {
	recorded, t, v, err := a.readAs(ctx, gameID, user, "what.replay")
	if err != nil {
		return nil, err
	}
	steps, err := archive.ReplaySteps(a.fold, gameID, recorded, v, to)
	if err != nil {
		return nil, err
	}
	talk, err := a.talkOf(ctx, t, user)
	if err != nil {
		return nil, err
	}
	return withTalk(steps, talk), nil
}

// ReplayAs returns a game's steps up to version to (0: all) as viewer saw
// them: for the operator's command line.
func (a *Archive) ReplayAs(ctx context.Context, gameID string, viewer archive.Viewer, to int) ([]archive.ReplayStep, error) {
	recorded, err := a.read(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return archive.ReplaySteps(a.fold, gameID, recorded, viewer, to)
}

// ReplayAt returns the game at version (0: the latest) as user may see it,
// and the game's latest version.
func (a *Archive) ReplayAt(ctx context.Context, gameID, user string, version int) (archive.ReplayStep, int, error) {
	recorded, t, v, err := a.readAs(ctx, gameID, user, "what.replay")
	if err != nil {
		return archive.ReplayStep{}, 0, err
	}
	if version > t.Version {
		return archive.ReplayStep{}, 0, refuse(CodeInvalid, "refusal.replay_version", gameID, t.Version, version)
	}
	steps, err := archive.ReplaySteps(a.fold, gameID, recorded, v, version)
	if err != nil {
		return archive.ReplayStep{}, 0, err
	}
	talk, err := a.talkOf(ctx, t, user)
	if err != nil {
		return archive.ReplayStep{}, 0, err
	}
	steps = withTalk(steps, talk)
	return steps[len(steps)-1], t.Version, nil
}

// CheckReceipt checks a receipt against the game's log as stored now, for
// the operator settling a dispute before the end (players check theirs
// against the record once the seed is revealed, archive.VerifyReceipt): the
// event at the receipt's version, sealed under the game's receipt key, must
// be the receipt. A *Error (CodeNotFound) names a game or version the log
// lacks.
func (a *Archive) CheckReceipt(ctx context.Context, r archive.Receipt) error {
	if r.Game == "" {
		return refuse(CodeInvalid, "refusal.receipt_no_game")
	}
	var hash []byte
	err := a.pool.QueryRow(ctx, `select hash from events where stream = $1 and version = $2`, Stream(r.Game), r.Version).Scan(&hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return refuse(CodeNotFound, "refusal.receipt_version", r.Game, r.Version)
	}
	if err != nil {
		return fmt.Errorf("read version %d of game %s: %w", r.Version, r.Game, err)
	}
	secret, err := a.storedSeed(ctx, r.Game)
	if errors.Is(err, pgx.ErrNoRows) {
		return refuse(CodeNotFound, "refusal.no_seed", r.Game)
	}
	if err != nil {
		return fmt.Errorf("read the seed of game %s: %w", r.Game, err)
	}
	seed, err := secret.open(a.seeds, r.Game)
	if err != nil {
		return fmt.Errorf("read the seed of game %s: %w", r.Game, err)
	}
	if got := archive.ReceiptHead(seed, r.Game, hash); got != r.Hash {
		return fmt.Errorf("version %d of game %s seals to receipt %s, the receipt says %s: the log is not the one that acknowledged the move", r.Version, r.Game, got, r.Hash)
	}
	return nil
}

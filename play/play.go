// Package play is courrier's command side. Every command takes one path in
// one short transaction with no network I/O inside: load the game's stream,
// fold it, decide, append with the expected version, update the inline
// projections, commit. A conflict on a command that may be retried (a
// system timeout, a move sent without a version) reloads and retries; a
// player's move against a stale version gets a *StaleError.
package play

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/projections"
)

// AnyVersion, as a move's expected version, means "whatever the game is at
// now": the move is decided against the current state and retried on a race.
const AnyVersion = -1

// maxRetries bounds reload-and-retry of retryable commands.
const maxRetries = 5

// Channels through which a command arrives.
const (
	ChannelAPI    = "api"
	ChannelEmail  = "email"
	ChannelCLI    = "cli"
	ChannelSystem = "system"
)

// Actor is who sends a command and how; it becomes the events' meta.
type Actor struct {
	User           string // stable user identity (an email address); empty for the system
	Channel        string
	RequestID      string
	RemoteAddr     string
	MessageID      string
	MailAuth       string
	Causation      string
	IdempotencyKey string // a retried command with the same key appends nothing
}

// Outcome is what a command did.
type Outcome struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`  // the game's version after the command
	From    int    `json:"from"`     // the version before it
	Replay  bool   `json:"replayed"` // true when an idempotency key matched an earlier command
	// Refused is set when a several-line move was played up to a line that
	// was refused: the lines before it stand, that line and the rest were
	// not played.
	Refused *MoveError `json:"refused,omitempty"`
}

// Service runs commands against the event store.
type Service struct {
	pool *pgxpool.Pool
	reg  *games.Registry
	log  *slog.Logger
	seed func() games.Seed
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithSeeds sets the seed source (default games.NewSeed); tests pin seeds.
func WithSeeds(f func() games.Seed) Option { return func(s *Service) { s.seed = f } }

// New returns a Service on pool for the games in reg.
func New(pool *pgxpool.Pool, reg *games.Registry, opts ...Option) *Service {
	s := &Service{pool: pool, reg: reg, log: slog.Default(), seed: games.NewSeed}
	for _, o := range opts {
		o(s)
	}
	return s
}

// command is the decision of one command on a folded table: it stages
// events on the table (advancing its state) and returns them.
type command func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error

// cmdCtx carries a command's staged events.
type cmdCtx struct {
	table  *Table
	actor  Actor
	seat   *int
	staged []events.Event
	reg    *games.Registry
	// refused is the first refused line of a several-line move whose
	// earlier lines were played.
	refused *MoveError
}

// stage records events and folds them into the table at once, so the next
// decision of the same command sees them.
func (c *cmdCtx) stage(typ string, data any, move string) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s: %w", typ, err)
	}
	meta := events.Meta{
		Actor: c.actor.User, Seat: c.seat, Channel: c.actor.Channel, RequestID: c.actor.RequestID,
		RemoteAddr: c.actor.RemoteAddr, MessageID: c.actor.MessageID, MailAuth: c.actor.MailAuth,
		Causation: c.actor.Causation, Move: move, IdempotencyKey: c.actor.IdempotencyKey,
	}
	e := events.Event{Type: typ, Data: raw, Meta: meta}
	c.staged = append(c.staged, e)
	return c.table.apply(c.reg, events.Recorded{Type: typ, Data: raw, Version: c.table.Version + 1, RecordedAt: c.table.UpdatedAt})
}

// stageGame stages a game's own events.
func (c *cmdCtx) stageGame(evs []games.RawEvent, move string) error {
	for _, e := range evs {
		if err := c.stage(c.table.Kind+"."+e.Type, e.Data, move); err != nil {
			return err
		}
	}
	return nil
}

// exec runs cmd on game id (create: a new id) in one transaction and retries
// on a version conflict when retry is true.
func (s *Service) exec(ctx context.Context, actor Actor, id string, create bool, retry bool, cmd command) (Outcome, error) {
	for attempt := 0; ; attempt++ {
		out, err := s.execOnce(ctx, actor, id, create, cmd)
		// A conflict is retried for retryable commands, and once for a keyed
		// command: the retry finds the key if the winner was its twin.
		conflict := errors.Is(err, events.ErrVersionConflict)
		if conflict && attempt < maxRetries && (retry || (actor.IdempotencyKey != "" && attempt == 0)) {
			s.log.DebugContext(ctx, "version conflict, retrying", "game", id, "attempt", attempt+1)
			continue
		}
		return out, err
	}
}

func (s *Service) execOnce(ctx context.Context, actor Actor, id string, create bool, cmd command) (Outcome, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Outcome{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))

	key := ""
	if actor.IdempotencyKey != "" {
		key = actor.User + " " + actor.IdempotencyKey
		var prior Outcome
		err := tx.QueryRow(ctx, `select result from command_keys where key = $1`, key).Scan(&prior)
		if err == nil {
			prior.Replay = true
			return prior, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return Outcome{}, fmt.Errorf("look up idempotency key: %w", err)
		}
	}

	stream := Stream(id)
	recorded, err := events.ReadStream(ctx, tx, stream, 0)
	if err != nil {
		return Outcome{}, err
	}
	if len(recorded) == 0 && !create {
		return Outcome{}, refuse(CodeNotFound, "there is no game %q", id)
	}
	table, err := fold(s.reg, id, recorded)
	if err != nil {
		return Outcome{}, err
	}
	from := table.Version
	c := &cmdCtx{table: table, actor: actor, reg: s.reg}
	if err := cmd(ctx, tx, c); err != nil {
		return Outcome{}, err
	}
	if err := s.finishIfOver(ctx, tx, c); err != nil {
		return Outcome{}, err
	}
	if len(c.staged) == 0 {
		return Outcome{GameID: id, Version: from, From: from}, nil
	}
	rec, err := events.Append(ctx, tx, stream, from, c.staged)
	if err != nil {
		return Outcome{}, err
	}
	if from == 0 {
		table.CreatedAt = rec[0].RecordedAt
	}
	table.UpdatedAt = rec[len(rec)-1].RecordedAt
	g, views, err := table.Project()
	if err != nil {
		return Outcome{}, err
	}
	if err := projections.Save(ctx, tx, g, views); err != nil {
		return Outcome{}, err
	}
	out := Outcome{GameID: id, Version: table.Version, From: from, Refused: c.refused}
	if key != "" {
		if _, err := tx.Exec(ctx, `insert into command_keys (key, game_id, result) values ($1, $2, $3)`, key, id, out); err != nil {
			return Outcome{}, fmt.Errorf("record idempotency key: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return Outcome{}, fmt.Errorf("commit: %w", err)
	}
	s.log.InfoContext(ctx, "command", "game", id, "from", from, "to", out.Version, "channel", actor.Channel, "request_id", actor.RequestID)
	return out, nil
}

// finishIfOver stages the end of a game whose result is in: the result and
// the revealed seed.
func (s *Service) finishIfOver(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
	t := c.table
	if !t.Started || t.Ended || len(c.staged) == 0 {
		return nil
	}
	res := t.Engine.Result(t.State)
	if !res.Finished {
		return nil
	}
	seed, err := loadSeed(ctx, tx, t.ID)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `update game_secrets set revealed_at = now() where game_id = $1`, t.ID); err != nil {
		return fmt.Errorf("mark seed revealed: %w", err)
	}
	c.seat = nil
	return c.stage(TypeEnded, Ended{Result: res, Seed: seed.String()}, "")
}

func loadSeed(ctx context.Context, q events.Querier, id string) (games.Seed, error) {
	var seed games.Seed
	var b []byte
	if err := q.QueryRow(ctx, `select seed from game_secrets where game_id = $1`, id).Scan(&b); err != nil {
		return seed, fmt.Errorf("load seed of %s: %w", id, err)
	}
	copy(seed[:], b)
	return seed, nil
}

// Create makes a new game of kind with options; when name is not empty the
// creator also takes a place under that name.
func (s *Service) Create(ctx context.Context, actor Actor, kind string, opts games.Options, name string) (Outcome, error) {
	eng, err := s.reg.Get(kind)
	if err != nil {
		return Outcome{}, err
	}
	full, err := eng.Options(opts)
	if err != nil {
		return Outcome{}, err
	}
	if actor.User == "" {
		return Outcome{}, refuse(CodeForbidden, "only a signed-in user can create a game")
	}
	id := newID()
	seed := s.seed()
	return s.exec(ctx, actor, id, true, false, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		if _, err := tx.Exec(ctx, `insert into game_secrets (game_id, seed) values ($1, $2)`, id, seed[:]); err != nil {
			return fmt.Errorf("store seed: %w", err)
		}
		if err := c.stage(TypeCreated, Created{Kind: kind, Options: full, Commitment: seed.Commitment(), Creator: actor.User}, ""); err != nil {
			return err
		}
		if name == "" {
			return nil
		}
		return join(c, actor, name)
	})
}

// Join gives user a place at an open game under name.
func (s *Service) Join(ctx context.Context, actor Actor, gameID, name string) (Outcome, error) {
	return s.exec(ctx, actor, gameID, false, true, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		return join(c, actor, name)
	})
}

func join(c *cmdCtx, actor Actor, name string) error {
	t := c.table
	name = strings.TrimSpace(name)
	if t.Started {
		return refuse(CodeConflict, "game %s has already started; it takes no more players", t.ID)
	}
	if actor.User == "" {
		return refuse(CodeForbidden, "only a signed-in user can join a game")
	}
	if err := validName(name); err != nil {
		return err
	}
	info := t.Engine.Info()
	if len(t.Joined) >= info.MaxSeats {
		return refuse(CodeConflict, "game %s is full: %s is for at most %d players", t.ID, info.Name, info.MaxSeats)
	}
	for _, j := range t.Joined {
		if strings.EqualFold(j.User, actor.User) {
			return refuse(CodeConflict, "you already play in game %s as %s", t.ID, j.Name)
		}
		if strings.EqualFold(j.Name, name) {
			return refuse(CodeConflict, "someone already plays as %q in game %s; choose another name", name, t.ID)
		}
	}
	return c.stage(TypeJoined, Joined{User: actor.User, Name: name}, "")
}

// validName accepts 1–20 letters, digits, spaces, '-', '_' and '.', starting
// with a letter: a name can be written in a move without quoting.
func validName(name string) error {
	if name == "" || len([]rune(name)) > 20 {
		return refuse(CodeInvalid, "a player name has 1 to 20 characters")
	}
	for i, r := range name {
		if i == 0 && !unicode.IsLetter(r) {
			return refuse(CodeInvalid, "a player name starts with a letter, so it cannot be confused with a seat number")
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_.", r) {
			return refuse(CodeInvalid, "a player name has only letters, digits, spaces, '-', '_' and '.'")
		}
	}
	return nil
}

// Start seats the joined players and deals; only the game's creator may
// start it.
func (s *Service) Start(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	return s.exec(ctx, actor, gameID, false, true, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		t := c.table
		if t.Started {
			return refuse(CodeConflict, "game %s has already started", t.ID)
		}
		if !strings.EqualFold(actor.User, t.Creator) && actor.Channel != ChannelSystem {
			return refuse(CodeForbidden, "only the player who created game %s can start it", t.ID)
		}
		info := t.Engine.Info()
		if n := len(t.Joined); n < info.MinSeats {
			return refuse(CodeConflict, "%s needs at least %d players; game %s has %d", info.Name, info.MinSeats, t.ID, n)
		}
		seed, err := loadSeed(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		if err := c.stage(TypeStarted, struct{}{}, ""); err != nil {
			return err
		}
		names := make([]string, len(t.Joined))
		for i, j := range t.Joined {
			names[i] = j.Name
		}
		evs, err := t.Engine.Setup(t.Options, names, seed.Rand(t.Version))
		if err != nil {
			return err
		}
		return c.stageGame(evs, "")
	})
}

// Move plays the move lines of user's seat in one command: each line is
// decided on the state the previous lines left. With an expected version
// other than AnyVersion the game must still be at it, or the player gets a
// *StaleError. An illegal first line is returned as its rule error and
// nothing is written; an illegal later line stops the command there: the
// lines before it are played and Outcome.Refused says which line was not.
func (s *Service) Move(ctx context.Context, actor Actor, gameID string, expected int, lines []string) (Outcome, error) {
	moves := cleanLines(lines)
	if len(moves) == 0 {
		return Outcome{}, refuse(CodeInvalid, "there is no move in your message")
	}
	out, err := s.exec(ctx, actor, gameID, false, expected == AnyVersion, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		t := c.table
		if err := playable(t); err != nil {
			return err
		}
		seat := t.SeatOf(actor.User)
		if seat == games.Spectator {
			return refuse(CodeForbidden, "you do not play in game %s", t.ID)
		}
		if expected != AnyVersion && expected != t.Version {
			return &StaleError{GameID: t.ID, Expected: expected, Current: t.Version}
		}
		seatNo := int(seat)
		c.seat = &seatNo
		seed, err := loadSeed(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		for i, line := range moves {
			var err error
			if t.Engine.Result(t.State).Finished {
				err = games.Illegal("end", "the game ended before this line")
			} else {
				var evs []games.RawEvent
				if evs, err = t.Engine.Decide(t.State, seat, line, seed.Rand(t.Version)); err == nil {
					err = c.stageGame(evs, line)
				}
			}
			switch {
			case err == nil:
			case i > 0 && isRuleError(err):
				// Earlier lines stand: each line is decided on what the
				// previous ones did, and its outcome (a count, a drawn card)
				// is recorded before the next is judged, so a later line
				// can never probe a hidden outcome for free.
				c.refused = &MoveError{Line: i + 1, Text: line, Err: err}
				return nil
			default:
				return err
			}
		}
		return nil
	})
	var stale *StaleError
	if errors.As(err, &stale) || (expected != AnyVersion && errors.Is(err, events.ErrVersionConflict)) {
		return out, s.stale(ctx, actor, gameID, expected)
	}
	return out, err
}

// stale builds the *StaleError of a move against an old version, with what
// changed since as the actor's seat may see it.
func (s *Service) stale(ctx context.Context, actor Actor, gameID string, expected int) error {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return err
	}
	changes, err := s.History(ctx, gameID, t.SeatOf(actor.User), max(expected, 0))
	if err != nil {
		return err
	}
	return &StaleError{GameID: gameID, Expected: expected, Current: t.Version, Changes: changes}
}

// mailTypography undoes what mail clients and phones do to typed text:
// dashes and the minus sign become '-', non-breaking spaces become spaces,
// emoji presentation selectors ("♥️") go.
var mailTypography = strings.NewReplacer(
	"\u2013", "-", "\u2014", "-", "\u2212", "-", "\u2010", "-", "\u2011", "-",
	"\u00a0", " ", "\u202f", " ", "\ufe0f", "", "\ufe0e", "",
)

// cleanLines splits move text into trimmed, non-empty lines with mail
// typography undone.
func cleanLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		for _, part := range strings.Split(mailTypography.Replace(l), "\n") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func playable(t *Table) error {
	switch {
	case !t.Started:
		return refuse(CodeConflict, "game %s has not started yet", t.ID)
	case t.Ended:
		return refuse(CodeConflict, "game %s is over", t.ID)
	}
	return nil
}

// Resign takes user out of a running game; the game decides what that means
// for the others.
func (s *Service) Resign(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	return s.exec(ctx, actor, gameID, false, true, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		t := c.table
		if err := playable(t); err != nil {
			return err
		}
		seat := t.SeatOf(actor.User)
		if seat == games.Spectator {
			return refuse(CodeForbidden, "you do not play in game %s", t.ID)
		}
		seatNo := int(seat)
		c.seat = &seatNo
		seed, err := loadSeed(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		if err := c.stage(TypeResigned, Resigned{Seat: seat, User: actor.User}, "resign"); err != nil {
			return err
		}
		evs, err := t.Engine.Resign(t.State, seat, seed.Rand(t.Version))
		if err != nil {
			return err
		}
		return c.stageGame(evs, "resign")
	})
}

// Timeout applies the default move of every seat still pending when the game
// is at version, as a system command. A timeout for a version the game has
// left does nothing (Outcome.Version == Outcome.From).
func (s *Service) Timeout(ctx context.Context, gameID string, version int, causation string) (Outcome, error) {
	actor := Actor{Channel: ChannelSystem, Causation: causation}
	// A conflict reloads and retries: the retry finds the game has left
	// version and does nothing, or applies the defaults that still stand.
	return s.exec(ctx, actor, gameID, false, true, func(ctx context.Context, tx pgx.Tx, c *cmdCtx) error {
		t := c.table
		if !t.Started || t.Ended || t.Version != version {
			return nil
		}
		seed, err := loadSeed(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		at := t.Version
		for _, p := range t.Engine.Pending(t.State) {
			if t.Version != at && !stillPending(t, p) {
				continue
			}
			evs, err := t.Engine.Decide(t.State, p.Seat, p.Default, seed.Rand(t.Version))
			if err != nil {
				return fmt.Errorf("default move %q of seat %d in game %s: %w", p.Default, p.Seat, t.ID, err)
			}
			seatNo := int(p.Seat)
			c.seat = &seatNo
			if err := c.stageGame(evs, p.Default); err != nil {
				return err
			}
		}
		return nil
	})
}

// stillPending reports whether p's seat is still pending in the same capacity
// after earlier defaults of the same timeout.
func stillPending(t *Table, p games.Pending) bool {
	for _, q := range t.Engine.Pending(t.State) {
		if q.Seat == p.Seat && q.Kind == p.Kind {
			return true
		}
	}
	return false
}

// isRuleError reports whether err is a game's rule error.
func isRuleError(err error) bool {
	_, ok := games.AsRuleError(err)
	return ok
}

// newID returns a short random game id (10 lowercase base32 characters).
func newID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))[:10]
}

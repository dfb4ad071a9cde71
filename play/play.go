// Package play is courrier's command side. Every command takes one path in
// one short transaction with no network I/O inside: load the game's stream,
// fold it, decide, append with the expected version, update the inline
// projections, commit. A conflict on a command that may be retried (a
// system timeout, a move sent without a version) reloads and retries; a
// player's move against a stale version gets a *StaleError.
package play

import (
	"context"
	crand "crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// AnyVersion is the expected version of a move that means "whatever the game is at
// now": the move is decided against the current state and retried on a race.
const AnyVersion = -1

// maxRetries bounds reload-and-retry of retryable commands.
const maxRetries = 5

// Channels through which a command arrives.
const (
	ChannelAPI    = "api"
	ChannelEmail  = "email"
	ChannelCLI    = "cli"
	ChannelWeb    = "web"
	ChannelSystem = archive.ChannelSystem
)

// Actor is who sends a command and how. The user, seat, channel, request
// id and causation become the events' meta, which is hashed into the log for
// ever; what is personal or erasable (the remote address, the mail's sender,
// Message-ID and authentication results) goes to the event_context table.
type Actor struct {
	User           string // the opaque user id (api/auth); empty for the system
	Channel        string
	RequestID      string
	Causation      string
	IdempotencyKey string // a retried command with the same key appends nothing

	RemoteAddr string // kept in event_context, not in the log
	MessageID  string // kept in event_context, not in the log
	Sender     string // kept in event_context, not in the log
	MailAuth   string // kept in event_context, not in the log
}

func (a Actor) hasContext() bool {
	return a.RemoteAddr != "" || a.MessageID != "" || a.Sender != "" || a.MailAuth != ""
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
	// Head is the player's receipt: ReceiptHead of the game's last event
	// after the command. The hash it seals chains every event of the game
	// before it, so a player who keeps it can show, once the seed is
	// revealed at the end, that the log was rewritten; while the game runs
	// it says nothing of what the player may not see.
	Head string `json:"head,omitempty"`
	// Game and View are the game's row and the actor's seat view (the
	// public view for an actor without a seat, none before the start) as
	// the command projected them: what an answer to the actor shows,
	// without reading them again. Set for every command of a signed-in
	// actor except a replayed creation.
	Game *projections.Game     `json:"-"`
	View *projections.SeatView `json:"-"`
	// TakeBack is the game's open take-back request after the command
	// (nil: none).
	TakeBack *TakeBack `json:"-"`
	// TakeBackOutcome is the outcome of the take-back request the command
	// closed (TakeBackTaken, TakeBackRefused, TakeBackWithdrawn, …; "":
	// it closed none), kept with the command's idempotency key so that a
	// replay says it too.
	TakeBackOutcome string `json:"takeback_outcome,omitempty"`
}

// Service runs commands against the event store.
type Service struct {
	pool   *pgxpool.Pool
	reg    *games.Registry
	log    *slog.Logger
	seed   func() games.Seed
	cache  *tableCache
	wake   func()
	keyTTL time.Duration
	digest maphash.Seed
	seeds  *SeedBox
	jobs   JobInserter
	// accounts finds a new game's invitees (WithAccounts).
	accounts Accounts
	moves    moveCounts // committed moves by channel (MovesCommitted)
	// briefFolds counts the briefs made by folding a game's stream.
	briefFolds atomic.Int64
	// now is the service's clock (WithClock).
	now func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithSeeds sets the seed source (default games.NewSeed); tests pin seeds.
func WithSeeds(f func() games.Seed) Option { return func(s *Service) { s.seed = f } }

// WithCache bounds the in-process cache of folded games (default 1,024
// games; 0 turns it off).
func WithCache(games int) Option { return func(s *Service) { s.cache = newTableCache(games) } }

// WithWake sets what a command calls after its commit, typically the
// process's events.Watcher.Wake, so that the process's own feed readers
// learn of the move at once.
func WithWake(f func()) Option { return func(s *Service) { s.wake = f } }

// WithSeedBox sets the keys that seal game seeds at rest. Without it a
// service seals with a key of its own that dies with the process (tests).
func WithSeedBox(b *SeedBox) Option { return func(s *Service) { s.seeds = b } }

// WithKeyTTL sets how long an idempotency key is remembered (default 24 h).
func WithKeyTTL(d time.Duration) Option { return func(s *Service) { s.keyTTL = d } }

// WithClock sets the service's clock (default time.Now): the reliability
// window of a player's card and of a join's requirement ends at it.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// DefaultCacheGames is the default bound of the folded-games cache.
const DefaultCacheGames = 1024

// New returns a Service on pool for the games in reg.
func New(pool *pgxpool.Pool, reg *games.Registry, opts ...Option) *Service {
	s := &Service{
		pool: pool, reg: reg, log: slog.Default(), seed: games.NewSeed,
		cache: newTableCache(DefaultCacheGames), wake: func() {}, keyTTL: 24 * time.Hour,
		digest: maphash.MakeSeed(), now: time.Now,
	}
	for _, o := range opts {
		o(s)
	}
	if s.seeds == nil {
		s.seeds = NewEphemeralSeedBox()
	}
	return s
}

// CachedGames is the number of folded games in the in-process cache.
func (s *Service) CachedGames() int { return s.cache.len() }

// command is the decision of one command on a folded table: it stages
// events on the table (advancing its state). It does no I/O.
type command func(c *cmdCtx) error

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
	// newSeed is the seed of a game being created, to store.
	newSeed *games.Seed
	// reveal is set when the command ends the game and reveals its seed.
	reveal bool
	// invited lists the users the command invited.
	invited []string
	// moved is set when a seat's move or resignation was played; played
	// lists the move lines played.
	moved  bool
	played []string
	// now is the transaction's time, at which its events are recorded.
	now time.Time
	// tx is the transaction's id, which its events are recorded with
	// (events.Recorded.TX): the identity of the command, which marks the
	// events of one move (markMove).
	tx uint64
	// retimed is the seat whose deadlines the command moved (an absence).
	retimed *games.Seat
	// prompt is a seat to prompt for its pending entries, opened or not
	// (its new player took over).
	prompt *games.Seat
	// disputed is set when the command raised a dispute or ruled on one.
	disputed bool
	// joiner is the reliability of the user a join seats (nil: not read).
	joiner *Reliability
	// takeback is set when the command staged a take-back event.
	takeback bool
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
		Causation: c.actor.Causation, Move: move,
	}
	c.staged = append(c.staged, events.Event{Type: typ, Data: raw, Meta: meta})
	actor := eventActor{seat: games.Spectator, system: c.actor.Channel == ChannelSystem, move: move}
	if c.seat != nil {
		actor.seat = games.Seat(*c.seat)
	}
	staged := events.Recorded{Type: typ, Data: raw, Version: c.table.Version + 1, RecordedAt: c.now, TX: c.tx}
	if c.table.recent != nil {
		// Told to every viewer as it is applied: the meta says whose move
		// it was and what they typed.
		if staged.Meta, err = json.Marshal(meta); err != nil {
			return fmt.Errorf("encode the meta of %s: %w", typ, err)
		}
	}
	return c.table.apply(c.reg, staged, actor)
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

// seedRand returns the generator of the decision taken at the table's
// version.
func (c *cmdCtx) seedRand() (*rand.Rand, error) {
	if c.table.seed == nil {
		return nil, fmt.Errorf("game %s has no seed", c.table.ID)
	}
	return c.table.seed.Rand(c.table.Version), nil
}

// request is what exec needs to know of a command besides its decision.
type request struct {
	gameID string
	create bool
	// retry: a version conflict reloads and decides again (the decision
	// re-checks whatever it depends on).
	retry bool
	// hash identifies the command for its idempotency key: the same key
	// with another command is refused.
	hash []byte
	// prepare, when set, runs in the command's transaction before the
	// decision (a new game's accounts): what it writes commits or rolls
	// back with the command.
	prepare func(ctx context.Context, tx pgx.Tx) error
}

// exec runs cmd on a game in one transaction, retrying on a version
// conflict when the request allows it.
func (s *Service) exec(ctx context.Context, actor Actor, req request, cmd command) (Outcome, error) {
	for attempt := 0; ; attempt++ {
		out, err := s.execOnce(ctx, actor, req, cmd)
		// A conflict is retried for retryable commands, and once for a keyed
		// command: the retry finds the key if the winner was its twin.
		conflict := errors.Is(err, events.ErrVersionConflict)
		if conflict && attempt < maxRetries && (req.retry || (actor.IdempotencyKey != "" && attempt == 0)) {
			s.log.DebugContext(ctx, "version conflict, retrying", "game", req.gameID, "attempt", attempt+1)
			continue
		}
		if conflict {
			// Still errors.Is(err, events.ErrVersionConflict), for Move's
			// stale-move answer; a person reads the message.
			return out, &Error{Code: CodeConflict, Err: err, Message: words.Phrase("refusal.busy", req.gameID)}
		}
		return out, err
	}
}

// execOnce is one attempt of a command, in at most three round trips before
// COMMIT: BEGIN; one batch that reserves the idempotency key and reads the
// events after the cached table's version (and the seed, the first time);
// the decision in memory; one batch that appends, writes the projections
// that changed, the key's result and the event context.
func (s *Service) execOnce(ctx context.Context, actor Actor, req request, cmd command) (Outcome, error) {
	t := s.cache.take(req.gameID)
	took, putBack := t != nil, false
	defer func() {
		switch {
		case putBack:
			s.cache.put(t)
		case took:
			s.cache.drop(req.gameID)
		}
	}()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Outcome{}, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }() // after a commit, a no-op

	stream := Stream(req.gameID)
	keyed := actor.IdempotencyKey != ""
	b := &pgx.Batch{}
	// The transaction's time is the time its events will be recorded at
	// (the store's trigger sets now()): staged events are folded with it,
	// so the deadlines of the entries they open are the ones a later fold
	// of the log computes.
	var txNow time.Time
	var txID string
	b.Queue(`select now(), pg_current_xact_id()::text`).QueryRow(func(row pgx.Row) error { return row.Scan(&txNow, &txID) })
	var prior *keyRecord
	if keyed {
		if actor.User == "" {
			return Outcome{}, refuse(CodeInvalid, "refusal.key_needs_user")
		}
		prior = queueReserveKey(b, actor, req, s.keyTTL)
	}
	var recorded []events.Recorded
	var secret storedSeed
	if !req.create {
		after := 0
		if t != nil {
			after = t.Version
		}
		events.QueueRead(b, stream, after, &recorded)
		if t == nil || t.seed == nil {
			queueLoadSeed(b, req.gameID, &secret)
		}
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return Outcome{}, fmt.Errorf("read game %s: %w", req.gameID, err)
		}
	}
	if prior != nil && prior.found {
		putBack = t != nil
		out, err := prior.replay(req)
		if err != nil {
			return out, err
		}
		if out, err = s.sealReplayed(ctx, tx, t, secret, out); err != nil {
			return out, err
		}
		// The replay acknowledges a command a read found: only once a
		// commit after it is on the standbys (events.Durable).
		if err := events.Durable(ctx, tx); err != nil {
			return Outcome{}, err
		}
		if err := tx.Commit(ctx); err != nil {
			return Outcome{}, fmt.Errorf("commit the replay of %s: %w", req.gameID, err)
		}
		if req.create {
			return out, nil
		}
		// The answer shows the game as it is now: what was read folds into
		// the table, as for a command.
		putBack = false
		if t, err = s.foldRecorded(t, req.gameID, recorded); err != nil {
			return Outcome{}, err
		}
		if t.Version > 0 {
			putBack = true
			g, views, err := t.Project()
			if err != nil {
				return Outcome{}, err
			}
			out.Game, out.View = viewOf(g, views, actor.User)
		}
		return out, nil
	}
	if t, err = s.foldRecorded(t, req.gameID, recorded); err != nil {
		return Outcome{}, err
	}
	if secret.found {
		sd, err := secret.open(s.seeds, req.gameID)
		if err != nil {
			return Outcome{}, err
		}
		t.seed = &sd
	}
	if t.Version == 0 && !req.create {
		return Outcome{}, refuse(CodeNotFound, "refusal.game_unknown", req.gameID)
	}
	if req.prepare != nil {
		if err := req.prepare(ctx, tx); err != nil {
			return Outcome{}, err
		}
	}
	from := t.Version
	before := slices.Clone(t.Pending)
	txNo, err := strconv.ParseUint(txID, 10, 64)
	if err != nil {
		return Outcome{}, fmt.Errorf("read the transaction id %q: %w", txID, err)
	}
	c := &cmdCtx{table: t, actor: actor, reg: s.reg, now: txNow, tx: txNo}
	if err := cmd(c); err != nil {
		putBack = len(c.staged) == 0
		return Outcome{}, err
	}
	if err := s.finishIfOver(c); err != nil {
		return Outcome{}, err
	}
	out := Outcome{GameID: req.gameID, Version: t.Version, From: from, Refused: c.refused, TakeBack: t.TakeBack.clone()}
	if c.takeback {
		if out.TakeBackOutcome, err = takeBackOutcome(c.staged); err != nil {
			return Outcome{}, err
		}
	}
	b = &pgx.Batch{}
	var rec []events.Recorded
	var written map[games.Seat]uint64
	if len(c.staged) > 0 {
		if c.newSeed != nil {
			sealed, kid := s.seeds.Seal(req.gameID, *c.newSeed)
			b.Queue(`insert into game_secrets (game_id, sealed, key_id) values ($1, $2, $3)`, req.gameID, sealed, kid)
		}
		if c.reveal {
			b.Queue(`update game_secrets set revealed_at = now() where game_id = $1`, req.gameID)
		}
		if err := events.QueueAppend(b, stream, from, c.staged, &rec); err != nil {
			return Outcome{}, err
		}
		if actor.hasContext() {
			b.Queue(`insert into event_context (position, stream, user_id, remote_addr, message_id, sender, mail_auth)
				select position, stream, nullif($3, ''), nullif($4, ''), nullif($5, ''), nullif($6, ''), nullif($7, '')
				from events where stream = $1 and version = $2`,
				stream, from+1, actor.User, actor.RemoteAddr, actor.MessageID, actor.Sender, actor.MailAuth)
		}
		if from == 0 {
			t.CreatedAt = time.Time{}
		}
		t.UpdatedAt = time.Time{} // the transaction's time, as the events'
		g, views, err := t.Project()
		if err != nil {
			return Outcome{}, err
		}
		if actor.User != "" {
			out.Game, out.View = viewOf(g, views, actor.User)
		}
		views, written = s.changedViews(t, views)
		if err := projections.QueueSave(b, g, views); err != nil {
			return Outcome{}, err
		}
	}
	if keyed {
		queueKeyResult(b, actor, out, stream)
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return Outcome{}, fmt.Errorf("write game %s: %w", req.gameID, err)
		}
	}
	head := ""
	if len(rec) > 0 {
		head = t.receiptHead(c, rec[len(rec)-1].Hash)
	}
	if err := s.insertJobs(ctx, tx, append(mailJobs(c, before, from, head), timerJobs(c, before)...)); err != nil {
		return Outcome{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return Outcome{}, fmt.Errorf("commit: %w", err)
	}
	if len(rec) > 0 {
		out.Head = head
		if from == 0 {
			t.CreatedAt = rec[0].RecordedAt
		}
		t.UpdatedAt = rec[len(rec)-1].RecordedAt
		if out.Game != nil {
			out.Game.CreatedAt, out.Game.UpdatedAt = t.CreatedAt, t.UpdatedAt
		}
		if t.recent != nil {
			t.recent.settle(rec)
		}
		if t.projected == nil {
			t.projected = map[games.Seat]uint64{}
		}
		maps.Copy(t.projected, written)
		s.wake()
		if c.moved {
			s.moves.add(actor.Channel)
		}
	}
	putBack = true
	if len(c.staged) == 0 && actor.User != "" {
		g, views, err := t.Project()
		if err != nil {
			return Outcome{}, err
		}
		out.Game, out.View = viewOf(g, views, actor.User)
	}
	if len(c.staged) > 0 {
		s.log.InfoContext(ctx, "command", "game", req.gameID, "from", from, "to", out.Version, "channel", actor.Channel, "request_id", actor.RequestID)
	}
	return out, nil
}

// viewOf picks user's view among a game's projected views, as the
// projections read it back (projections.GetGameForUser): the seat user
// plays once the game started, else the public view; none before the start.
func viewOf(g projections.Game, views []projections.SeatView, user string) (*projections.Game, *projections.SeatView) {
	seat := games.Spectator
	if g.Status != projections.StatusOpen && user != "" {
		for _, p := range g.Players {
			if p.User == user {
				seat = games.Seat(p.Seat)
				break
			}
		}
	}
	v := projections.SeatView{GameID: g.ID, Seat: seat, Version: g.Version}
	for _, sv := range views {
		if sv.Seat == seat {
			v = sv
			break
		}
	}
	return &g, &v
}

// changedViews keeps the views whose content differs from what the table
// last wrote (all of them after a fresh fold), and returns their digests.
func (s *Service) changedViews(t *Table, views []projections.SeatView) ([]projections.SeatView, map[games.Seat]uint64) {
	out := views[:0]
	written := make(map[games.Seat]uint64, len(views))
	for _, v := range views {
		var h maphash.Hash
		h.SetSeed(s.digest)
		_, _ = h.Write(v.View) // a maphash.Hash never fails to write
		for _, l := range v.Legal {
			_, _ = h.WriteString(l)
			_ = h.WriteByte(0)
		}
		_ = h.WriteByte(1)
		for _, l := range v.Choices {
			_, _ = h.WriteString(l)
			_ = h.WriteByte(0)
		}
		d := h.Sum64()
		if old, ok := t.projected[v.Seat]; ok && old == d {
			continue
		}
		written[v.Seat] = d
		out = append(out, v)
	}
	return out, written
}

// finishIfOver stages the end of a game whose result is in: the result and
// the revealed seed.
func (s *Service) finishIfOver(c *cmdCtx) error {
	t := c.table
	if !t.Started || t.Ended || len(c.staged) == 0 {
		return nil
	}
	res := t.Engine.Result(t.State)
	if !res.Finished {
		return nil
	}
	if t.seed == nil {
		return fmt.Errorf("game %s has no seed to reveal", t.ID)
	}
	c.seat = nil
	if err := c.endTakeBack(); err != nil {
		return err
	}
	c.reveal = true
	return c.stage(TypeEnded, Ended{Result: res, Seed: t.seed.String()}, "")
}

// storedSeed is a game's row of game_secrets: sealed, or in clear from
// before seeds were sealed.
type storedSeed struct {
	found  bool
	clear  []byte
	sealed []byte
	keyID  *string
}

func (st storedSeed) open(box *SeedBox, gameID string) (games.Seed, error) {
	if st.clear != nil {
		var seed games.Seed
		copy(seed[:], st.clear)
		return seed, nil
	}
	kid := ""
	if st.keyID != nil {
		kid = *st.keyID
	}
	return box.Open(gameID, kid, st.sealed)
}

// seedQuery reads a game's stored seed (storedSeed's columns).
const seedQuery = `select seed, sealed, key_id from game_secrets where game_id = $1`

// loadSeed reads and opens the seed of game id; pgx.ErrNoRows when the
// game keeps none.
func (s *Service) loadSeed(ctx context.Context, q events.Querier, id string) (games.Seed, error) {
	var st storedSeed
	if err := q.QueryRow(ctx, seedQuery, id).Scan(&st.clear, &st.sealed, &st.keyID); err != nil {
		return games.Seed{}, err
	}
	return st.open(s.seeds, id)
}

func queueLoadSeed(b *pgx.Batch, id string, out *storedSeed) {
	b.Queue(seedQuery, id).Query(func(rows pgx.Rows) error {
		defer rows.Close()
		for rows.Next() {
			if err := rows.Scan(&out.clear, &out.sealed, &out.keyID); err != nil {
				return fmt.Errorf("load seed of %s: %w", id, err)
			}
			out.found = true
		}
		return rows.Err()
	})
}

// Join gives user a place at an open game under name.
func (s *Service) Join(ctx context.Context, actor Actor, gameID, name string) (Outcome, error) {
	req := request{gameID: gameID, retry: true, hash: commandHash("join", gameID, name)}
	// The joiner's reliability, read in the command's transaction, for a
	// game that requires a minimum.
	var rel *Reliability
	req.prepare = func(ctx context.Context, tx pgx.Tx) error {
		rel = nil
		if actor.User == "" {
			return nil
		}
		r, err := reliabilityIn(ctx, tx, actor.User, s.now())
		if err != nil {
			return err
		}
		rel = &r
		return nil
	}
	return s.exec(ctx, actor, req, func(c *cmdCtx) error {
		c.joiner = rel
		return join(c, actor, name)
	})
}

func join(c *cmdCtx, actor Actor, name string) error {
	t := c.table
	name = strings.TrimSpace(name)
	if t.Started {
		return refuse(CodeConflict, "refusal.join_started", t.ID)
	}
	if actor.User == "" {
		return refuse(CodeForbidden, "refusal.join_signed_in")
	}
	if err := validName(name); err != nil {
		return err
	}
	info := t.Engine.Info()
	if len(t.Joined) >= info.MaxSeats {
		return refuse(CodeConflict, "refusal.full", t.ID, info.Name, info.MaxSeats)
	}
	// Before the start nothing is dealt: only a named referee, who will
	// see everything, is refused (a creator without a seat may still take
	// one, and is then no referee).
	if t.referee != "" && actor.User == t.referee {
		return t.saw(actor.User)
	}
	for _, j := range t.Joined {
		if j.User == actor.User {
			return refuse(CodeConflict, "refusal.already_plays_as", t.ID, j.Name)
		}
		if strings.EqualFold(j.Name, name) {
			return refuse(CodeConflict, "refusal.name_taken", name, t.ID)
		}
		if confusable(j.Name, name) {
			return refuse(CodeConflict, "refusal.name_lookalike", name, j.Name, t.ID)
		}
	}
	if err := t.meets(c.joiner, actor.User); err != nil {
		return err
	}
	if err := c.stage(TypeJoined, Joined{User: actor.User, Name: name}, ""); err != nil {
		return err
	}
	if t.everyoneInvitedJoined() && len(t.Joined) >= info.MinSeats {
		return startGame(c)
	}
	return nil
}

// validName accepts 1–20 letters, digits, spaces, '-', '_' and '.', starting
// with a letter: a name can be written in a move without quoting.
func validName(name string) error {
	if name == "" || len([]rune(name)) > 20 {
		return refuse(CodeInvalid, "refusal.name_length", 20)
	}
	for i, r := range name {
		if i == 0 && !unicode.IsLetter(r) {
			return refuse(CodeInvalid, "refusal.name_letter")
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_.", r) {
			return refuse(CodeInvalid, "refusal.name_chars")
		}
	}
	return nil
}

// Start seats the joined players and deals; only the game's creator may
// start it.
func (s *Service) Start(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	req := request{gameID: gameID, retry: true, hash: commandHash("start", gameID)}
	return s.exec(ctx, actor, req, func(c *cmdCtx) error {
		t := c.table
		if t.Started {
			return refuse(CodeConflict, "refusal.started", t.ID)
		}
		if actor.User != t.Creator && actor.Channel != ChannelSystem {
			return refuse(CodeForbidden, "refusal.start_creator", t.ID)
		}
		info := t.Engine.Info()
		if n := len(t.Joined); n < info.MinSeats {
			return refuse(CodeConflict, "refusal.too_few", info.Name, info.MinSeats, t.ID, n)
		}
		return startGame(c)
	})
}

// startGame stages the start of the game: the seating, the shuffles and the
// deal.
func startGame(c *cmdCtx) error {
	t := c.table
	if err := c.stage(TypeStarted, struct{}{}, ""); err != nil {
		return err
	}
	// The setup draws from the version just before its first event.
	r, err := c.seedRand()
	if err != nil {
		return err
	}
	names := make([]string, len(t.Joined))
	for i, j := range t.Joined {
		names[i] = j.Name
	}
	evs, err := t.Engine.Setup(t.Options, names, r)
	if err != nil {
		return err
	}
	return c.stageGame(evs, "")
}

// Move plays the move lines of user's seat in one command: each line is
// decided on the state the previous lines left.
//
// expected is the version of the game the player saw (AnyVersion: whatever
// it is now). The move is stale, and the player gets a *StaleError with what
// changed since, only when the player's own pending entry opened after that
// version, or is gone: in a window, answers sent against the window's
// opening version are each taken in turn, whatever the others answered
// meanwhile.
//
// An illegal first line is returned as its rule error and nothing is
// written; an illegal later line stops the command there: the lines before
// it are played and Outcome.Refused says which line was not.
func (s *Service) Move(ctx context.Context, actor Actor, gameID string, expected int, lines []string) (Outcome, error) {
	moves := cleanLines(lines)
	if err := checkMoves(moves, expected); err != nil {
		return Outcome{}, err
	}
	var v viewer
	out, err := s.exec(ctx, actor, moveRequest(gameID, expected, moves), moveCmd(actor, expected, moves, &v))
	return out, s.staleOr(ctx, actor, gameID, expected, v, err)
}

// checkMoves checks cleaned move lines and the version they were written
// against.
func checkMoves(moves []string, expected int) error {
	if len(moves) == 0 {
		return refuse(CodeInvalid, "refusal.no_move")
	}
	if err := checkMoveSize(moves); err != nil {
		return err
	}
	if expected < AnyVersion {
		return refuse(CodeInvalid, "refusal.bad_expected", expected)
	}
	return nil
}

// moveRequest is the request of a move.
func moveRequest(gameID string, expected int, moves []string) request {
	return request{gameID: gameID, retry: true, hash: commandHash("move", gameID, strconv.Itoa(expected), strings.Join(moves, "\n"))}
}

// moveCmd is the decision of a move. When the move is stale it notes in v
// how the actor's seat reads the game, for the changes the refusal tells.
func moveCmd(actor Actor, expected int, moves []string, v *viewer) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		if expected != AnyVersion && expected != t.Version && (expected > t.Version || !t.openSince(seat, expected)) {
			*v = t.viewerOf(actor.User)
			return &StaleError{GameID: t.ID, Expected: expected, Current: t.Version}
		}
		// A number picks from the list the player was shown: the seat's
		// choices when the command began.
		choices := t.Engine.Choices(t.State, seat)
		// The game goes on: an open take-back request is overtaken.
		if err := c.overtake(); err != nil {
			return err
		}
		seatNo := int(seat)
		c.seat = &seatNo
		for i, line := range moves {
			var err error
			if t.Engine.Result(t.State).Finished {
				err = words.Illegal("end", "refusal.ended_before_line")
			} else if line, err = resolveChoice(t.Engine, t.State, choices, line); err == nil {
				err = c.decide(seat, line)
			}
			if err == nil {
				c.moved = true
				c.played = append(c.played, line)
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
	}
}

// staleOr turns a stale move's error into its *StaleError with what
// changed since; any other error is returned as it is.
func (s *Service) staleOr(ctx context.Context, actor Actor, gameID string, expected int, v viewer, err error) error {
	var stale *StaleError
	if errors.As(err, &stale) || (expected != AnyVersion && errors.Is(err, events.ErrVersionConflict)) {
		return s.stale(ctx, actor, gameID, expected, v)
	}
	return err
}

// decide decides one move line of seat on the table and stages its events.
func (c *cmdCtx) decide(seat games.Seat, line string) error {
	r, err := c.seedRand()
	if err != nil {
		return err
	}
	evs, err := c.table.Engine.Decide(c.table.State, seat, line, r)
	if err != nil {
		// A refused move comes back with the seat's legal move closest to
		// it, which the door writes in the player's words.
		return c.table.Engine.Suggest(c.table.State, seat, line, err)
	}
	return c.stageGame(evs, line)
}

// stale builds the *StaleError of a move against an old version, with what
// changed since as the actor's seat may see it: one read of the stream,
// folded once when the command noted how the actor reads the game at the
// version read (twice otherwise, to learn it).
func (s *Service) stale(ctx context.Context, actor Actor, gameID string, expected int, v viewer) error {
	recorded, err := s.readGame(ctx, gameID)
	if err != nil {
		return err
	}
	current := recorded[len(recorded)-1].Version
	if v.version != current {
		full, err := fold(s.reg, gameID, recorded)
		if err != nil {
			return err
		}
		v = full.viewerOf(actor.User)
	}
	changes, t, err := s.historyTable(gameID, v, recorded, max(expected, 0))
	if err != nil {
		return err
	}
	se := &StaleError{GameID: gameID, Expected: expected, Current: current, Changes: changes, Ended: t.Ended}
	seat := t.SeatOf(actor.User)
	for _, p := range t.Pending {
		if p.Seat == seat && seat != games.Spectator {
			se.YourTurn = true
		}
		if name := t.nameOf(p.Seat); !slices.Contains(se.Waiting, name) {
			se.Waiting = append(se.Waiting, name)
		}
	}
	return se
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
		for part := range strings.SplitSeq(mailTypography.Replace(l), "\n") {
			// Runs of spaces inside a line mean nothing to any game's
			// notation; collapsed, a line cannot carry bulk into the log.
			if p := strings.Join(strings.Fields(part), " "); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// MaxMoveLine bounds one line of a move, in characters, and MaxMoveLines
// the lines of one command: what a move may write into the log's meta.
const (
	MaxMoveLine  = 200
	MaxMoveLines = 50
)

// checkMoveSize refuses a move whose lines exceed MaxMoveLine or
// MaxMoveLines.
func checkMoveSize(moves []string) error {
	if len(moves) > MaxMoveLines {
		return refuse(CodeInvalid, "refusal.too_many_lines", MaxMoveLines, len(moves))
	}
	for i, m := range moves {
		if n := utf8.RuneCountInString(m); n > MaxMoveLine {
			return refuse(CodeInvalid, "refusal.line_too_long", i+1, n, MaxMoveLine)
		}
	}
	return nil
}

// playerSeat is the seat user plays in a running game, or why they cannot
// act in it.
func playerSeat(t *Table, user string) (games.Seat, error) {
	if err := playable(t); err != nil {
		return games.Spectator, err
	}
	seat := t.SeatOf(user)
	if seat == games.Spectator {
		return seat, refuse(CodeForbidden, "refusal.not_player", t.ID)
	}
	return seat, nil
}

func playable(t *Table) error {
	switch {
	case !t.Started:
		return refuse(CodeConflict, "refusal.not_started", t.ID)
	case t.Ended:
		return refuse(CodeConflict, "refusal.over", t.ID)
	}
	return nil
}

// Resign takes user out of a running game; the game decides what that means
// for the others.
func (s *Service) Resign(ctx context.Context, actor Actor, gameID string) (Outcome, error) {
	req := replyRequest(gameID, Reply{Verb: VerbResign})
	return s.exec(ctx, actor, req, resignCmd(actor))
}

// resignCmd is the decision of Resign.
func resignCmd(actor Actor) command {
	return func(c *cmdCtx) error {
		t := c.table
		seat, err := playerSeat(t, actor.User)
		if err != nil {
			return err
		}
		if err := c.overtake(); err != nil {
			return err
		}
		seatNo := int(seat)
		c.seat = &seatNo
		if err := c.stage(TypeResigned, Resigned{Seat: seat, User: actor.User}, "resign"); err != nil {
			return err
		}
		c.moved, c.played = true, []string{"resign"}
		r, err := c.seedRand() // the version just before the game's own events
		if err != nil {
			return err
		}
		evs, err := t.Engine.Resign(t.State, seat, r)
		if err != nil {
			return err
		}
		return c.stageGame(evs, "resign")
	}
}

// Timeout applies, as a system command, the default move of the pending
// entry entry, re-derived from the game's current state, if that entry is
// still pending; otherwise it does nothing (Outcome.Version == Outcome.From).
// Each entry has its own deadline: in a window, one seat's timeout leaves
// the others' entries, and their deadlines, as they are.
func (s *Service) Timeout(ctx context.Context, gameID string, entry games.PendingID, causation string) (Outcome, error) {
	actor := Actor{Channel: ChannelSystem, Causation: causation}
	// A conflict reloads and retries: the retry finds the entry gone and
	// does nothing, or applies its default as the state now has it.
	req := request{gameID: gameID, retry: true}
	return s.exec(ctx, actor, req, func(c *cmdCtx) error {
		t := c.table
		if !t.Started || t.Ended {
			return nil
		}
		p, ok := t.entry(entry)
		if !ok {
			return nil
		}
		if err := c.overtake(); err != nil {
			return err
		}
		// Said first, with no acting seat: the seat's entries keep their
		// identities until its default is played.
		if err := c.stage(TypeTimedOut, TimedOut{Seat: p.Seat, Kind: p.Kind, Since: p.Since}, ""); err != nil {
			return err
		}
		if t.timeouts[p.Seat] >= AbandonAfter && !slices.Contains(t.Abandoned, p.Seat) {
			if err := c.stage(TypeAbandoned, Abandoned{Seat: p.Seat}, ""); err != nil {
				return err
			}
		}
		seatNo := int(p.Seat)
		c.seat = &seatNo
		if err := c.decide(p.Seat, p.Default); err != nil {
			return fmt.Errorf("default move %q of %s in game %s: %w", p.Default, entry, t.ID, err)
		}
		return nil
	})
}

// isRuleError reports whether err is a game's rule error.
func isRuleError(err error) bool {
	_, ok := games.AsRuleError(err)
	return ok
}

// newID returns a short random game id (10 lowercase base32 characters).
func newID() string {
	var b [10]byte
	_, _ = crand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))[:10]
}

// foldRecorded folds into t (a new table for gameID when nil) the events
// read in the command's transaction that the cached table had not seen.
func (s *Service) foldRecorded(t *Table, gameID string, recorded []events.Recorded) (*Table, error) {
	if t == nil {
		t = &Table{ID: gameID}
	}
	if len(recorded) > 0 {
		// Another process wrote since this table was cached: what this
		// process last wrote of each view no longer says what the rows hold.
		t.projected = nil
	}
	if s.cache.on() && (t.recent == nil || len(recorded) > recentCap) {
		// A cached table tells its events to every viewer as it applies
		// them, for briefs; only the last recentCap are worth telling.
		t.recent = nil
		skip := max(0, len(recorded)-recentCap)
		if err := t.applyRecorded(s.reg, recorded[:skip]); err != nil {
			return t, err
		}
		recorded = recorded[skip:]
		t.recent = newRecent(t.Version)
	}
	return t, t.applyRecorded(s.reg, recorded)
}

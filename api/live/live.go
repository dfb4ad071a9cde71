// Package live turns the process's one feed poller (events.Watcher) into
// per-client streams of a game's events, each redacted for its reader's
// seat, for the API's Server-Sent Events. However many clients watch a
// game, the hub reads its stream once per tick; a client costs no query
// of its own while nothing happens.
package live

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/play"
)

// DefaultBuffer is how many events a subscription holds for a client that
// has not read them yet; a client further behind is dropped and resumes
// with Last-Event-ID.
const DefaultBuffer = 256

// Option configures a Hub.
type Option func(*Hub)

// WithBuffer sets how many unread events a client may fall behind before it
// is dropped (default DefaultBuffer).
func WithBuffer(n int) Option { return func(h *Hub) { h.buffer = max(n, 1) } }

// WithRetry sets how soon a game whose read failed is read again for its
// subscribers (default DefaultRetry).
func WithRetry(d time.Duration) Option {
	return func(h *Hub) { h.retryEvery = max(d, time.Millisecond) }
}

// DefaultRetry is how soon a hub reads again a game whose read failed.
const DefaultRetry = time.Second

// ErrClosed is returned by Subscribe once the hub is closed (shutdown).
var ErrClosed = errors.New("live updates are shutting down")

// Hub fans game events out to subscriptions.
type Hub struct {
	watcher *events.Watcher
	svc     *play.Service
	log     *slog.Logger
	buffer  int
	// retryEvery is how soon a failed read of a game is tried again.
	retryEvery time.Duration

	reads atomic.Int64
	// talkReads counts the talk streams read for live subscribers.
	talkReads atomic.Int64

	mu     sync.Mutex
	games  map[string]map[*Subscription]struct{}
	closed bool
}

// Stats is what a hub has done, for health pages and tests.
type Stats struct {
	Reads       int64 // game streams read for live subscribers (backlogs excluded)
	TalkReads   int64 // talk streams read for live subscribers (backlogs excluded)
	Subscribers int   // open subscriptions
}

// NewHub returns a hub fed by w that reads and redacts games through svc;
// Run starts it.
func NewHub(w *events.Watcher, svc *play.Service, log *slog.Logger, opts ...Option) *Hub {
	if log == nil {
		log = slog.Default()
	}
	h := &Hub{watcher: w, svc: svc, log: log, buffer: DefaultBuffer, retryEvery: DefaultRetry, games: map[string]map[*Subscription]struct{}{}}
	for _, o := range opts {
		o(h)
	}
	return h
}

// Subscription is one client's stream of a game's events, in version
// order, without gaps or repeats. C is closed when the subscription ends:
// Close, the hub's shutdown, or a client too slow to keep up.
type Subscription struct {
	// Backlog holds the events already recorded when the subscription
	// began (after the version asked for), however many: a client writes
	// them first, then what C delivers.
	Backlog []play.Change
	// C delivers the events recorded since.
	C <-chan play.Change
	// Said holds the table talk its reader may read said after the
	// messages asked for (play.Message.Number) when the subscription
	// began; M delivers what is said since (issue 36), and a message the
	// referee hid after it was delivered, again: the same Number, Hidden
	// set, its text empty (a Number not above the last delivered tells it
	// is a hiding, not a new message).
	Said []play.Message
	M    <-chan play.Message

	hub        *Hub
	game, user string

	mu   sync.Mutex // serialises deliveries; guards last, ch, said, mch and closed
	ch   chan play.Change
	last int
	mch  chan play.Message
	said int // the reader's number of the last message delivered
	// hidden holds the ids of the messages up to said known hidden: told
	// hidden, or hidden already when the subscription began.
	hidden map[string]bool
	closed bool
}

// Subscribe opens a stream of game's events after version after as user's
// seat sees them: first those already recorded, then each new one. It
// fails as play does for an unknown game.
func (h *Hub) Subscribe(ctx context.Context, gameID, user string, after int) (*Subscription, error) {
	return h.SubscribeTalk(ctx, gameID, user, after, -1)
}

// SubscribeTalk is Subscribe that also streams the game's table talk the
// user may read, after the message numbered said (play.Message.Number);
// said < 0: no talk.
func (h *Hub) SubscribeTalk(ctx context.Context, gameID, user string, after, said int) (*Subscription, error) {
	ch := make(chan play.Change, h.buffer)
	sub := &Subscription{C: ch, ch: ch, hub: h, game: gameID, user: user, last: max(after, 0), said: said, hidden: map[string]bool{}}
	if said >= 0 {
		sub.mch = make(chan play.Message, h.buffer)
		sub.M = sub.mch
	}
	// Registered before the backlog is read: an event committed after the
	// read comes with a tick the hub handles with the subscriber known.
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrClosed
	}
	set := h.games[gameID]
	if set == nil {
		set = map[*Subscription]struct{}{}
		h.games[gameID] = set
	}
	set[sub] = struct{}{}
	h.mu.Unlock()

	recorded, err := h.svc.ReadGame(ctx, gameID)
	if err != nil {
		sub.Close()
		return nil, err
	}
	sub.mu.Lock()
	defer sub.mu.Unlock()
	backlog, err := h.svc.HistoryOf(gameID, user, recorded, max(after, 0))
	if err != nil {
		if !sub.closed {
			sub.closed = true
			close(sub.ch)
		}
		h.forget(sub)
		return nil, fmt.Errorf("live: the backlog of game %s: %w", gameID, err)
	}
	// A tick handled meanwhile may have put events on the channel already,
	// from a read older or newer than this one: nobody reads the channel
	// yet, so take them back and hand everything over in order.
	byVersion := map[int]play.Change{}
	for _, c := range backlog {
		byVersion[c.Version] = c
	}
	for drained := false; !drained; {
		select {
		case c, ok := <-sub.ch:
			if !ok {
				drained = true
				break
			}
			byVersion[c.Version] = c
		default:
			drained = true
		}
	}
	sub.Backlog = make([]play.Change, 0, len(byVersion))
	for _, c := range byVersion {
		sub.Backlog = append(sub.Backlog, c)
	}
	slices.SortFunc(sub.Backlog, func(a, b play.Change) int { return cmp.Compare(a.Version, b.Version) })
	if n := len(sub.Backlog); n > 0 {
		sub.last = max(sub.last, sub.Backlog[n-1].Version)
	}
	if sub.mch != nil {
		all, err := h.svc.Messages(ctx, gameID, user, 0)
		if err != nil {
			sub.closed = true
			close(sub.ch)
			close(sub.mch)
			h.forget(sub)
			return nil, fmt.Errorf("live: the talk of game %s: %w", gameID, err)
		}
		// As for events: what a tick put on the channel meanwhile is
		// handed over with the rest, in order, once.
		byNumber := map[int]play.Message{}
		for _, m := range all {
			if m.Hidden {
				sub.hidden[m.ID] = true
			}
			if m.Number > sub.said {
				byNumber[m.Number] = m
			}
		}
		for drained := false; !drained; {
			select {
			case m := <-sub.mch:
				byNumber[m.Number] = m
			default:
				drained = true
			}
		}
		for _, m := range byNumber {
			sub.Said = append(sub.Said, m)
		}
		slices.SortFunc(sub.Said, func(a, b play.Message) int { return cmp.Compare(a.Number, b.Number) })
		if n := len(sub.Said); n > 0 {
			sub.said = max(sub.said, sub.Said[n-1].Number)
		}
	}
	return sub, nil
}

// tellTalk reads a game's talk once for all its subscribers that follow
// it and delivers to each what it may read and has not had.
func (h *Hub) tellTalk(ctx context.Context, gameID string) {
	subs := h.talkers(gameID)
	if len(subs) == 0 {
		return
	}
	users := make([]string, 0, len(subs))
	for _, s := range subs {
		if !slices.Contains(users, s.user) {
			users = append(users, s.user)
		}
	}
	all, err := h.svc.MessagesFor(ctx, gameID, users)
	h.talkReads.Add(1)
	for _, s := range subs {
		h.deliverTalk(s, all[s.user], err)
	}
}

// deliverTalk gives sub, out of all the messages its reader may read (or
// the error reading them), those said since the last it has and those
// hidden since it had them.
func (h *Hub) deliverTalk(sub *Subscription, all []play.Message, err error) {
	sub.mu.Lock()
	if sub.closed || sub.mch == nil {
		sub.mu.Unlock()
		return
	}
	drop := false
	if err != nil {
		h.log.Error("live: read a game's talk for a subscriber", "game", sub.game, "err", err)
		drop = true
	}
	for _, m := range all {
		if drop {
			break
		}
		hiding := m.Number <= sub.said && m.Hidden && !sub.hidden[m.ID]
		if m.Number <= sub.said && !hiding {
			continue
		}
		select {
		case sub.mch <- m:
			sub.said = max(sub.said, m.Number)
			if m.Hidden {
				sub.hidden[m.ID] = true
			}
		default:
			h.log.Info("live: a client fell too far behind; it will resume from its last event", "game", sub.game)
			drop = true
		}
	}
	sub.mu.Unlock()
	if drop {
		sub.Close()
	}
}

// Close ends the subscription; it is safe to call more than once and
// concurrently with the hub.
func (s *Subscription) Close() {
	s.hub.forget(s)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
		if s.mch != nil {
			close(s.mch)
		}
	}
}

// forget removes a subscription from the hub's lists.
func (h *Hub) forget(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.games[s.game]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(h.games, s.game)
		}
	}
}

// deliver gives sub its events of a freshly read stream after the last it
// has. Deliveries to one subscription are serialised, so a stale read
// delivers nothing twice.
func (h *Hub) deliver(sub *Subscription, recorded []events.Recorded) {
	sub.mu.Lock()
	if sub.closed || len(recorded) == 0 || recorded[len(recorded)-1].Version <= sub.last {
		sub.mu.Unlock()
		return
	}
	changes, err := h.svc.HistoryOf(sub.game, sub.user, recorded, sub.last)
	drop := false
	if err != nil {
		h.log.Error("live: redact a game for a subscriber", "game", sub.game, "err", err)
		drop = true
	}
	for _, c := range changes {
		if drop {
			break
		}
		if c.Version <= sub.last {
			continue
		}
		select {
		case sub.ch <- c:
			sub.last = c.Version
		default:
			h.log.Info("live: a client fell too far behind; it will resume from its last event", "game", sub.game)
			drop = true
		}
	}
	sub.mu.Unlock()
	if drop {
		sub.Close()
	}
}

// Run delivers the watcher's ticks to the subscribers until ctx ends, then
// closes every subscription.
//
// A game whose read fails (the database restarting, a failover) is read
// again every retryEvery until a read succeeds: a tick is told once, and a
// game that has ended gets no later one, so a dropped tick would leave its
// subscribers behind until they reconnect.
func (h *Hub) Run(ctx context.Context) error {
	ticks, stop := h.watcher.Subscribe()
	defer stop()
	defer h.Close()
	retry := time.NewTicker(h.retryEvery)
	defer retry.Stop()
	failed := map[string]int{} // game → the newest version a failed read was for
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-retry.C:
			for gameID, version := range failed {
				if h.tell(ctx, gameID, version) {
					delete(failed, gameID)
				}
			}
		case t, ok := <-ticks:
			if !ok {
				return nil
			}
			for stream, version := range t.Streams {
				if gameID, isTalk := strings.CutPrefix(stream, play.TalkStream("")); isTalk {
					h.tellTalk(ctx, gameID)
					continue
				}
				gameID, isGame := strings.CutPrefix(stream, play.Stream(""))
				if !isGame {
					continue
				}
				if h.tell(ctx, gameID, max(version, failed[gameID])) {
					delete(failed, gameID)
				} else {
					failed[gameID] = max(version, failed[gameID])
				}
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// tell reads a game once for its subscribers that have not had version
// yet and delivers it to them. It reports false when the read failed and
// should be tried again.
func (h *Hub) tell(ctx context.Context, gameID string, version int) bool {
	subs := h.behind(gameID, version)
	if len(subs) == 0 {
		return true
	}
	recorded, err := h.svc.ReadGame(ctx, gameID)
	h.reads.Add(1)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("live: read a game for its subscribers; trying again", "game", gameID, "err", err, "in", h.retryEvery)
		}
		return false
	}
	for _, s := range subs {
		h.deliver(s, recorded)
	}
	return true
}

// behind returns the subscribers of a game that have not had version yet.
func (h *Hub) behind(gameID string, version int) []*Subscription {
	h.mu.Lock()
	set := h.games[gameID]
	subs := make([]*Subscription, 0, len(set))
	for s := range set {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	out := subs[:0]
	for _, s := range subs {
		s.mu.Lock()
		if !s.closed && s.last < version {
			out = append(out, s)
		}
		s.mu.Unlock()
	}
	return out
}

// talkers returns the subscribers of a game that follow its talk.
func (h *Hub) talkers(gameID string) []*Subscription {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*Subscription
	for s := range h.games[gameID] {
		if s.mch != nil {
			out = append(out, s)
		}
	}
	return out
}

// Close ends every subscription and refuses new ones: at shutdown, so that
// the HTTP server does not wait for streams that would never end.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*Subscription
	for _, set := range h.games {
		for s := range set {
			all = append(all, s)
		}
	}
	h.mu.Unlock()
	for _, s := range all {
		s.Close()
	}
}

// Stats returns what the hub has done.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	n := 0
	for _, set := range h.games {
		n += len(set)
	}
	h.mu.Unlock()
	return Stats{Reads: h.reads.Load(), TalkReads: h.talkReads.Load(), Subscribers: n}
}

// Event is a change as a stream writes it: its text said in the reader's
// language.
type Event struct {
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	Data       json.RawMessage `json:"data"`
	Meta       play.ServedMeta `json:"meta"`
	Text       string          `json:"text"`
	RecordedAt time.Time       `json:"recorded_at"`
}

// WriteEvent writes one change as a Server-Sent Event: its version as the
// id (so a client resumes with Last-Event-ID), its type as the event name
// and the change as one line of JSON, its text said in lang.
func WriteEvent(w io.Writer, c play.Change, lang string) error {
	return WriteEventAs(w, c, lang, 0)
}

// WriteEventAs is WriteEvent on a stream that carries table talk: the id
// is EventID(c.Version, said), said the number of the last message the
// stream wrote.
func WriteEventAs(w io.Writer, c play.Change, lang string, said int) error {
	data, err := json.Marshal(Event{Version: c.Version, Type: c.Type, Data: c.Data, Meta: c.Meta, Text: c.Text.In(lang), RecordedAt: c.RecordedAt})
	if err != nil {
		return fmt.Errorf("encode event %d: %w", c.Version, err)
	}
	if _, err := fmt.Fprintf(w, "id: %s\nevent: %s\ndata: %s\n\n", EventID(c.Version, said), sseField(c.Type), data); err != nil {
		return fmt.Errorf("write event %d: %w", c.Version, err)
	}
	return nil
}

// sseField keeps a value on its line.
func sseField(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// WritePing writes a comment that keeps an idle stream open through
// proxies.
func WritePing(w io.Writer) error {
	if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
		return fmt.Errorf("write a ping: %w", err)
	}
	return nil
}

// EventID is the id of an event of a stream that carries table talk: the
// game's version, and the number of the last message (play.Message.Number)
// when there is one ("12", "12.3"), so that a client resumes both with
// Last-Event-ID.
func EventID(version, said int) string {
	if said <= 0 {
		return strconv.Itoa(version)
	}
	return strconv.Itoa(version) + "." + strconv.Itoa(said)
}

// ParseEventID reads a Last-Event-ID header written by EventID (or by
// WriteEvent: a version alone, no message).
func ParseEventID(s string) (version, said int, ok bool) {
	v, m, dotted := strings.Cut(strings.TrimSpace(s), ".")
	version, ok = ParseLastEventID(v)
	if !ok || !dotted {
		return version, 0, ok
	}
	said, ok = ParseLastEventID(m)
	if !ok {
		return 0, 0, false
	}
	return version, said, true
}

// WriteTalkEvent writes an event of a stream that carries table talk
// under the id EventID(version, said): event, an event name ("message"),
// and data, one line of JSON.
func WriteTalkEvent(w io.Writer, version, said int, event string, data []byte) error {
	if _, err := fmt.Fprintf(w, "id: %s\nevent: %s\ndata: %s\n\n", EventID(version, said), sseField(event), data); err != nil {
		return fmt.Errorf("write a %s event: %w", event, err)
	}
	return nil
}

// ParseLastEventID reads a Last-Event-ID header: a version, a
// non-negative decimal number.
func ParseLastEventID(s string) (int, bool) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

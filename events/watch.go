package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Tick tells feed readers that events were recorded: the last version of
// each stream the poll saw. Readers then read what they need (a game's
// history for its seat, a mail job) from the store.
type Tick struct {
	Streams map[string]int
	// Checkpoint is the feed position the poll reached.
	Checkpoint Checkpoint
}

// WatcherStats is what a Watcher has seen, for health pages and metrics.
type WatcherStats struct {
	LastPoll time.Time // when the feed was last read
	Interval time.Duration
	// Lag is how long the newest event of the last non-empty poll waited
	// between its commit and its delivery to the readers.
	Lag time.Duration
	// Delivered counts the events delivered since the start.
	Delivered int64
}

// Watcher is the one poller of the global feed in a process: it reads the
// feed with an adaptive interval (MinInterval after activity, doubling while
// idle up to MaxInterval) and fans each batch out to every subscriber in the
// process. Wake makes it read at once: the process that appended calls it
// after its commit, so its own readers learn of a move without delay, while a
// reader in another process learns of it within MaxInterval (the interval is
// back to MinInterval as soon as that process sees activity). There is no
// NOTIFY: PostgreSQL serialises the commits of every transaction that
// queued one.
type Watcher struct {
	pool        *pgxpool.Pool
	log         *slog.Logger
	minInterval time.Duration
	maxInterval time.Duration
	batch       int

	wake chan struct{}

	mu    sync.Mutex
	subs  map[int]chan Tick
	next  int
	stats WatcherStats
}

// WatcherOption configures a Watcher.
type WatcherOption func(*Watcher)

// WithIntervals sets the polling interval bounds (default 50 ms and 1 s).
func WithIntervals(minInterval, maxInterval time.Duration) WatcherOption {
	return func(w *Watcher) { w.minInterval, w.maxInterval = minInterval, maxInterval }
}

// WithWatcherLogger sets the logger (default slog.Default()).
func WithWatcherLogger(l *slog.Logger) WatcherOption { return func(w *Watcher) { w.log = l } }

// wakeRetry is the first retry interval of a wake whose event the feed did
// not show yet.
const wakeRetry = 10 * time.Millisecond

// NewWatcher returns a Watcher on pool; Run starts it.
func NewWatcher(pool *pgxpool.Pool, opts ...WatcherOption) *Watcher {
	w := &Watcher{
		pool: pool, log: slog.Default(), minInterval: 50 * time.Millisecond, maxInterval: time.Second,
		batch: 1000, wake: make(chan struct{}, 1), subs: map[int]chan Tick{},
	}
	for _, o := range opts {
		o(w)
	}
	return w
}

// Wake asks for a read of the feed now. It never blocks.
func (w *Watcher) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Subscribe returns a channel of ticks and a function that ends the
// subscription. A subscriber that falls behind loses intermediate ticks, not
// the latest: each tick says which streams moved, and the reader re-reads
// them.
func (w *Watcher) Subscribe() (<-chan Tick, func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := w.next
	w.next++
	ch := make(chan Tick, 1)
	w.subs[id] = ch
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if _, ok := w.subs[id]; ok {
			delete(w.subs, id)
			close(ch)
		}
	}
}

// Stats returns what the watcher has seen.
func (w *Watcher) Stats() WatcherStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// Run polls the feed from its current end until ctx ends.
func (w *Watcher) Run(ctx context.Context) error {
	cp, err := Head(ctx, w.pool)
	if err != nil {
		return err
	}
	interval := w.minInterval
	// woken is set by a wake until a poll delivers: the event the wake
	// announced can be held back a moment by an older transaction still
	// running on the server, and is then retried soon (from wakeRetry,
	// doubling) rather than at the idle interval.
	woken := false
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.wake:
			woken = true
			interval = min(interval, wakeRetry)
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-timer.C:
		}
		n, next, err := w.poll(ctx, cp)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil
		case err != nil:
			w.log.WarnContext(ctx, "feed poll failed", "err", err)
			interval = w.maxInterval
		case n > 0:
			cp, woken = next, false
			interval = w.minInterval
		case woken:
			interval = min(2*interval, w.maxInterval)
		default:
			interval = min(2*max(interval, w.minInterval), w.maxInterval)
		}
		w.mu.Lock()
		w.stats.Interval = interval
		w.mu.Unlock()
		timer.Reset(interval)
	}
}

// poll reads everything after cp and fans it out.
func (w *Watcher) poll(ctx context.Context, cp Checkpoint) (int, Checkpoint, error) {
	total := 0
	for {
		recs, next, err := ReadFeed(ctx, w.pool, cp, w.batch)
		if err != nil {
			return total, cp, err
		}
		now := time.Now()
		w.mu.Lock()
		w.stats.LastPoll = now
		w.mu.Unlock()
		if len(recs) == 0 {
			return total, cp, nil
		}
		tick := Tick{Streams: map[string]int{}, Checkpoint: next}
		for _, r := range recs {
			tick.Streams[r.Stream] = max(tick.Streams[r.Stream], r.Version)
		}
		w.fanOut(tick, now.Sub(recs[len(recs)-1].RecordedAt), len(recs))
		total += len(recs)
		cp = next
		if len(recs) < w.batch {
			return total, cp, nil
		}
	}
}

func (w *Watcher) fanOut(t Tick, lag time.Duration, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stats.Lag = lag
	w.stats.Delivered += int64(n)
	for _, ch := range w.subs {
		select {
		case ch <- t:
		default: // the reader is behind: replace its pending tick by a merged one
			select {
			case old := <-ch:
				for s, v := range old.Streams {
					t.Streams[s] = max(t.Streams[s], v)
				}
			default:
			}
			ch <- t
		}
	}
}

// Head returns the checkpoint of the feed's current end: a reader starting
// there sees only events recorded from now on.
func Head(ctx context.Context, q Querier) (Checkpoint, error) {
	var cp Checkpoint
	var tx string
	err := q.QueryRow(ctx, `select e.tx::text, e.position from events e
		where e.tx < pg_snapshot_xmin(pg_current_snapshot())
		order by e.tx desc, e.position desc limit 1`).Scan(&tx, &cp.Position)
	if errors.Is(err, pgx.ErrNoRows) {
		return Checkpoint{}, nil
	}
	if err != nil {
		return cp, fmt.Errorf("read the feed's head: %w", err)
	}
	if cp.TX, err = strconv.ParseUint(tx, 10, 64); err != nil {
		return cp, fmt.Errorf("read the feed's head: %w", err)
	}
	return cp, nil
}

package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/notify/mailstore"
)

// backlogSample is the mail waiting at one moment: jobs of River's mail
// queue that could run now and have not, and how long the oldest has
// waited.
type backlogSample struct {
	at     time.Duration // since the games began
	mails  int64
	oldest time.Duration
}

// backlogSampler samples the mail backlog of a database every second.
type backlogSampler struct {
	mu      sync.Mutex
	samples []backlogSample
	err     error
}

// sampleBacklog samples the mail backlog of the database at dbURL every
// interval from start until ctx ends; the returned function waits for the
// sampler to stop and returns what it saw (err: why it could not sample).
func sampleBacklog(ctx context.Context, dbURL string, start time.Time, interval time.Duration) func() ([]backlogSample, error) {
	s := &backlogSampler{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		pcfg, err := pgxpool.ParseConfig(dbURL)
		if err != nil {
			s.fail(fmt.Errorf("mail backlog: %w", err))
			return
		}
		pcfg.MaxConns = 1
		pool, err := pgxpool.NewWithConfig(ctx, pcfg)
		if err != nil {
			s.fail(fmt.Errorf("mail backlog: %w", err))
			return
		}
		defer pool.Close()
		store := mailstore.New(pool)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			waiting, err := store.MailBacklog(ctx)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				s.fail(fmt.Errorf("mail backlog: %w", err))
				return
			}
			var n int64
			var oldest time.Duration
			for _, w := range waiting {
				n += int64(w.Count)
				oldest = max(oldest, w.Oldest)
			}
			s.add(backlogSample{at: time.Since(start), mails: n, oldest: oldest})
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() ([]backlogSample, error) {
		<-done
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.samples, s.err
	}
}

func (s *backlogSampler) add(b backlogSample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.samples = append(s.samples, b)
}

func (s *backlogSampler) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// The backlog rule's thresholds: a trend is judged on at least
// minTrendSamples samples, and growth is more than noise when the rise the
// trend makes over the second half is at least minBacklogRise mails and
// three times the samples' scatter about the trend line.
const (
	minTrendSamples = 5
	minBacklogRise  = 10
)

// backlogTrend judges whether the mail backlog grew over the whole run: the
// least-squares line through the samples of the run's second half (the
// first half lets a burst at the start settle) rises, over that half, by
// at least minBacklogRise mails and by more than three times the residual
// standard deviation about that line (noise), and the last sample is above
// the first. It returns the slope (mails a second) and whether the backlog
// grew; with fewer than minTrendSamples samples in the second half it
// judges nothing (growing false).
func backlogTrend(samples []backlogSample) (slope float64, growing bool) {
	if len(samples) < 2 {
		return 0, false
	}
	half := samples[len(samples)/2:]
	if len(half) < minTrendSamples {
		return 0, false
	}
	n := float64(len(half))
	var sx, sy float64
	for _, s := range half {
		sx += s.at.Seconds()
		sy += float64(s.mails)
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, s := range half {
		dx := s.at.Seconds() - mx
		sxx += dx * dx
		sxy += dx * (float64(s.mails) - my)
	}
	if sxx == 0 {
		return 0, false
	}
	slope = sxy / sxx
	var ss float64
	for _, s := range half {
		r := float64(s.mails) - (my + slope*(s.at.Seconds()-mx))
		ss += r * r
	}
	noise := math.Sqrt(ss / math.Max(1, n-2))
	rise := slope * (half[len(half)-1].at - half[0].at).Seconds()
	growing = rise >= minBacklogRise && rise > 3*noise && samples[len(samples)-1].mails > samples[0].mails
	return slope, growing
}

// describeBacklog says what the samples show in a few lines: the series
// (mails waiting, a value a second, the first 120), the peak and its
// oldest mail's age, the trend and the verdict.
func describeBacklog(samples []backlogSample) (text string, growing bool) {
	if len(samples) == 0 {
		return "mail backlog: no sample", false
	}
	var b strings.Builder
	var peak backlogSample
	var oldest time.Duration
	series := make([]string, 0, min(len(samples), 120))
	for i, s := range samples {
		if s.mails > peak.mails {
			peak = s
		}
		oldest = max(oldest, s.oldest)
		if i < 120 {
			series = append(series, strconv.FormatInt(s.mails, 10))
		}
	}
	more := ""
	if len(samples) > 120 {
		more = " …"
	}
	last := samples[len(samples)-1]
	slope, growing := backlogTrend(samples)
	fmt.Fprintf(&b, "mail backlog (mail jobs waiting, a sample a second): %s%s\n", strings.Join(series, " "), more)
	fmt.Fprintf(&b, "mail backlog: peak %d, end %d (oldest waiting %v), oldest seen %v; trend over the second half %+.2f mails/s: ",
		peak.mails, last.mails, last.oldest.Round(time.Millisecond), oldest.Round(time.Millisecond), slope)
	switch {
	case growing:
		b.WriteString("GROWING (the mail does not keep pace)")
	case len(samples)-len(samples)/2 < minTrendSamples:
		fmt.Fprintf(&b, "too few samples to judge (a run of at least %d s is judged)", 2*minTrendSamples)
	default:
		b.WriteString("no growth")
	}
	return b.String(), growing
}

// waitMailDrained waits until no mail job of the database at dbURL waits
// to run (the set-up's burst of sign-in links, invitations and first
// prompts delivered), polling every interval, for at most limit. It
// returns how long it waited, the backlog it found first, and whether it
// drained.
func waitMailDrained(ctx context.Context, dbURL string, interval, limit time.Duration) (waited time.Duration, first int64, drained bool, err error) {
	pcfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return 0, 0, false, fmt.Errorf("mail backlog: %w", err)
	}
	pcfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return 0, 0, false, fmt.Errorf("mail backlog: %w", err)
	}
	defer pool.Close()
	store := mailstore.New(pool)
	start := time.Now()
	for i := 0; ; i++ {
		waiting, err := store.MailBacklog(ctx)
		if err != nil {
			return time.Since(start), first, false, fmt.Errorf("mail backlog: %w", err)
		}
		var n int64
		for _, w := range waiting {
			n += int64(w.Count)
		}
		if i == 0 {
			first = n
		}
		if n == 0 {
			return time.Since(start), first, true, nil
		}
		if time.Since(start) >= limit {
			return time.Since(start), first, false, nil
		}
		select {
		case <-ctx.Done():
			return time.Since(start), first, false, ctx.Err()
		case <-time.After(interval):
		}
	}
}

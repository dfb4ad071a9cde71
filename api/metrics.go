package api

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the API's Prometheus metrics, on a registry of its own (no
// package-level state).
type metrics struct {
	reg      *prometheus.Registry
	moves    *prometheus.CounterVec
	refusals *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// mailWaiting and mailOldest are the mail backlog, read at each
	// scrape (Config.MailBacklog); nil without one.
	mailWaiting *prometheus.GaugeVec
	mailOldest  *prometheus.GaugeVec
	serve       http.Handler // the registry in Prometheus' text format
	// scrape serialises scrapes: each sets the backlog gauges, then
	// serves them, and another must not reset them in between.
	scrape sync.Mutex
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "courrier_moves_total", Help: "Moves played through the API (replays of an Idempotency-Key not counted).",
		}, []string{"game"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "courrier_api_refusals_total", Help: "Requests the API refused or failed, by error code.",
		}, []string{"code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "courrier_http_request_duration_seconds", Help: "Time to answer an API request, by route and status.",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"method", "route", "status"}),
	}
	m.reg.MustRegister(m.moves, m.refusals, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.serve = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return m
}

// MailWaiting is the mail waiting to be sent at one priority, as /metrics
// shows it: api reads it through Config.MailBacklog (cmd wires notify's
// mail store), never the queue itself.
type MailWaiting struct {
	Priority string        // the priority's short name: "waiting", "game", "later"
	Count    int           // mails that could be sent now and are not yet
	Oldest   time.Duration // how long the oldest of them has waited; 0 for none
}

// watch registers the metrics read from the rest of the service at each
// scrape: moves committed by every door (play counts them), the feed
// watcher's lag, and the mail backlog.
func (m *metrics) watch(cfg Config) {
	if cfg.Play != nil {
		m.reg.MustRegister(movesCommitted{play: cfg.Play.MovesCommitted, desc: prometheus.NewDesc("courrier_moves_committed_total",
			"Moves committed by every door (api, email, web, cli), by channel: rate() of it is moves/s.", []string{"channel"}, nil)})
		briefs := cfg.Play
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "courrier_brief_folds_total",
			Help: "Mail briefs made by reading and folding a game's whole stream, not from the command cache (a game not cached in this process, or a table busy too long): a rate close to the mail rate says the cache is too small.",
		}, func() float64 { return float64(briefs.BriefFolds()) }))
	}
	if cfg.Feed != nil {
		feed := cfg.Feed
		m.reg.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "courrier_feed_lag_seconds",
				Help: "How long the newest event the process's feed reader last delivered waited between its commit and its delivery to the live streams.",
			}, func() float64 { return feed().Lag.Seconds() }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "courrier_feed_last_poll_age_seconds",
				Help: "Time since the process's feed reader last read the feed (a stuck reader grows it; the idle interval bounds it otherwise).",
			}, func() float64 {
				if st := feed(); !st.LastPoll.IsZero() {
					return time.Since(st.LastPoll).Seconds()
				}
				return 0
			}),
			prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name: "courrier_feed_events_delivered_total",
				Help: "Events the process's feed reader delivered since the start.",
			}, func() float64 { return float64(feed().Delivered) }),
		)
	}
	if cfg.MailBacklog != nil {
		m.mailWaiting = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "courrier_mail_waiting",
			Help: "Mails that could be sent now and wait for a worker, by priority (waiting: sign-in links and answers; game: prompts; later: reminders and lobby news).",
		}, []string{"priority"})
		m.mailOldest = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "courrier_mail_oldest_waiting_seconds",
			Help: "How long the oldest mail waiting at each priority has waited (0: none waits).",
		}, []string{"priority"})
		m.reg.MustRegister(m.mailWaiting, m.mailOldest)
	}
}

// readMailBacklog sets the mail gauges from backlog; on an error the
// gauges are dropped (a scrape shows no stale backlog) and the error
// returned.
func (m *metrics) readMailBacklog(ctx context.Context, backlog func(context.Context) ([]MailWaiting, error)) error {
	if backlog == nil || m.mailWaiting == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	list, err := backlog(ctx)
	m.mailWaiting.Reset()
	m.mailOldest.Reset()
	if err != nil {
		return err
	}
	for _, w := range list {
		m.mailWaiting.WithLabelValues(w.Priority).Set(float64(w.Count))
		m.mailOldest.WithLabelValues(w.Priority).Set(w.Oldest.Seconds())
	}
	return nil
}

// movesCommitted collects play's count of committed moves by channel, at
// each scrape.
type movesCommitted struct {
	play func() map[string]int64
	desc *prometheus.Desc
}

// Describe implements prometheus.Collector.
func (c movesCommitted) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c movesCommitted) Collect(ch chan<- prometheus.Metric) {
	for channel, n := range c.play() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(n), channel)
	}
}

func (m *metrics) refusal(code string) { m.refusals.WithLabelValues(code).Inc() }

func (m *metrics) move(game string) { m.moves.WithLabelValues(game).Inc() }

// serveMetrics serves /metrics, the mail backlog read first (a failed
// read is logged, and the scrape goes on without it).
func (s *Server) serveMetrics(c echo.Context) error {
	ctx := c.Request().Context()
	s.metrics.scrape.Lock()
	defer s.metrics.scrape.Unlock()
	if err := s.metrics.readMailBacklog(ctx, s.cfg.MailBacklog); err != nil {
		s.log.WarnContext(ctx, "metrics: the mail backlog could not be read", "err", err)
	}
	s.metrics.serve.ServeHTTP(c.Response(), c.Request())
	return nil
}

// measure records each request's latency. Live streams are left out: they
// last as long as the client stays.
func (s *Server) measure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		route := c.Path()
		if route == "/v1/games/:game_id/stream" || route == "/metrics" {
			return nil
		}
		if route == "" {
			route = "unknown"
		}
		s.metrics.latency.WithLabelValues(c.Request().Method, route, strconv.Itoa(c.Response().Status)).Observe(time.Since(start).Seconds())
		return nil
	}
}

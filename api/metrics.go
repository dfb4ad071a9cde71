package api

import (
	"strconv"
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
	return m
}

func (m *metrics) refusal(code string) { m.refusals.WithLabelValues(code).Inc() }

func (m *metrics) move(game string) { m.moves.WithLabelValues(game).Inc() }

// handler serves /metrics.
func (m *metrics) handler() echo.HandlerFunc {
	return echo.WrapHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
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

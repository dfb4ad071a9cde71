// Package api is courrier's HTTP API (Echo v4): JSON under /v1, errors in one
// shape, and the health check.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/play"
)

// Server holds what the handlers need.
type Server struct {
	pool *pgxpool.Pool
	play *play.Service
	log  *slog.Logger
	feed *events.Watcher
}

// Option configures the API.
type Option func(*Server)

// WithFeed makes the health check report the process's feed watcher: when
// it last read the feed and how late the newest event it delivered was.
func WithFeed(w *events.Watcher) Option { return func(s *Server) { s.feed = w } }

// New returns the HTTP handler of the API.
func New(pool *pgxpool.Pool, svc *play.Service, log *slog.Logger, opts ...Option) http.Handler {
	s := &Server{pool: pool, play: svc, log: log}
	for _, o := range opts {
		o(s)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(middleware.RequestID())
	e.Use(middleware.BodyLimit("64K"))
	e.Use(middleware.Recover())
	e.GET("/healthz", s.health)
	return e
}

// health answers 200 when the database answers, 503 otherwise.
func (s *Server) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.pool.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "health check: database unreachable", "err", err)
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
	}
	out := map[string]any{"status": "ok"}
	if s.feed != nil {
		st := s.feed.Stats()
		out["feed"] = map[string]any{
			"last_poll": st.LastPoll, "interval_ms": st.Interval.Milliseconds(),
			"lag_ms": st.Lag.Milliseconds(), "delivered": st.Delivered,
		}
	}
	return c.JSON(http.StatusOK, out)
}

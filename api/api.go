// Package api is courrier's HTTP API (Echo v4): JSON under /v1, described by
// openapi.yaml, from which oapi-codegen generates the routes, the request
// and response types and a strict server (openapi.gen.go). Requests are
// validated against the same document with kin-openapi before a handler
// runs; every error leaves through one writer in one shape.
package api

import (
	"context"
	"github.com/courrier-games/courrier/games"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/api/live"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// Config is what the API is built from.
type Config struct {
	Play      *play.Service
	Archive   *play.Archive // replays, audit reports and records
	Users     *auth.Users
	APITokens *auth.APITokens
	Sessions  *auth.Sessions // session JWTs, checked against the sessions table
	SignIn    *auth.SignIn
	Hub       *live.Hub        // live updates; nil: the stream answers 503
	Feed      func() FeedStats // reported by /healthz when set (cmd reads the feed watcher)
	BaseURL   string           // public URL, for links in mail
	DevMail   DevMailbox       // nil when mail goes to a relay
	Log       *slog.Logger

	// PerAddress and PerUser bound request rates per client address (before
	// authentication) and per signed-in user; zero: the defaults (100 and
	// 50 requests a second, bursts of twice that); negative: no limit.
	PerAddress rate.Limit
	PerUser    rate.Limit
	// LoopbackUnlimited exempts requests from this machine from the
	// per-address limit (a local client, or a reverse proxy on the same
	// host, which limits per address itself); the per-user limit still
	// applies.
	LoopbackUnlimited bool

	// MailBacklog, when set, returns the mail waiting per priority: read at
	// each scrape of /metrics (cmd wires notify's mail store).
	MailBacklog func(ctx context.Context) ([]MailWaiting, error)
}

// Server is the HTTP API.
type Server struct {
	cfg     Config
	log     *slog.Logger
	echo    *echo.Echo
	metrics *metrics
	spec    *specIndex
}

// New builds the API; ctx bounds the checks of its document.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.PerAddress == 0 {
		cfg.PerAddress = 100
	}
	if cfg.PerUser == 0 {
		cfg.PerUser = 50
	}
	spec, err := loadSpec(ctx)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Log, echo: echo.New(), metrics: newMetrics(), spec: spec}
	s.metrics.watch(cfg)
	e := s.echo
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.writeError
	e.IPExtractor = echo.ExtractIPDirect()
	e.Use(requestIDs)
	e.Use(language)
	e.Use(s.logRequests)
	e.Use(middleware.Recover())
	e.Use(secureHeaders)
	e.Use(middleware.BodyLimit("64K"))
	e.Use(s.measure)
	e.Use(rateLimit(cfg.PerAddress, func(c echo.Context) string {
		ip := c.RealIP()
		if cfg.LoopbackUnlimited {
			if a := net.ParseIP(ip); a != nil && a.IsLoopback() {
				return ""
			}
		}
		return "ip:" + ip
	}))
	s.routes()
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// CloseStreams ends every live stream so that a graceful shutdown does not
// wait for clients that would hold their stream for ever; they reconnect
// with Last-Event-ID.
func (s *Server) CloseStreams() {
	if s.cfg.Hub != nil {
		s.cfg.Hub.Close()
	}
}

// routes registers every route: the generated /v1 routes behind request
// validation, authentication and the per-user rate limit, and the few that
// are not JSON (health, metrics, the document itself, the rules pages);
// the sign-in link's page is the web's (web.Handler). A known path asked
// with a method it does not take is answered 405 with Allow by Echo's
// router, an unknown path 404, both in the one error shape (writeError).
func (s *Server) routes() {
	e := s.echo
	e.GET("/healthz", s.health)
	e.GET("/metrics", s.serveMetrics)
	e.GET("/v1/openapi.json", s.openAPIDocument)
	e.GET("/rules/:game", s.rulesPage)
	v1 := routesWith{e: e, mw: []echo.MiddlewareFunc{s.route, s.authenticate, s.validate, rateLimit(s.cfg.PerUser, func(c echo.Context) string {
		if u := userOf(c.Request().Context()); u != "" {
			return "user:" + u
		}
		return ""
	})}}
	RegisterHandlers(v1, NewStrictHandler(s, nil))
}

// routesWith registers routes on Echo, each behind the same middleware
// (EchoRouter). An Echo group with middleware would register a catch-all
// route for them, which answers 404 for a known path asked with a wrong
// method where the router answers 405 with Allow.
type routesWith struct {
	e  *echo.Echo
	mw []echo.MiddlewareFunc
}

func (r routesWith) add(method, path string, h echo.HandlerFunc, m []echo.MiddlewareFunc) *echo.Route {
	return r.e.Add(method, path, h, append(slices.Clip(r.mw), m...)...)
}

// CONNECT registers a CONNECT route.
func (r routesWith) CONNECT(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodConnect, path, h, m)
}

// DELETE registers a DELETE route.
func (r routesWith) DELETE(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodDelete, path, h, m)
}

// GET registers a GET route.
func (r routesWith) GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodGet, path, h, m)
}

// HEAD registers a HEAD route.
func (r routesWith) HEAD(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodHead, path, h, m)
}

// OPTIONS registers an OPTIONS route.
func (r routesWith) OPTIONS(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodOptions, path, h, m)
}

// PATCH registers a PATCH route.
func (r routesWith) PATCH(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPatch, path, h, m)
}

// POST registers a POST route.
func (r routesWith) POST(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPost, path, h, m)
}

// PUT registers a PUT route.
func (r routesWith) PUT(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPut, path, h, m)
}

// TRACE registers a TRACE route.
func (r routesWith) TRACE(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodTrace, path, h, m)
}

// FeedStats is what /healthz reports of the process's one poller of the
// global feed: when it last read, its interval, the lag of the last events
// it delivered and how many it delivered.
type FeedStats struct {
	LastPoll      time.Time
	Interval, Lag time.Duration
	Delivered     int64
}

// health answers 200 when the database answers, 503 otherwise.
func (s *Server) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Play.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "health check: database unreachable", "err", err)
		c.Response().Header().Set("Retry-After", "5")
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
	}
	out := map[string]any{"status": "ok"}
	if s.cfg.Feed != nil {
		st := s.cfg.Feed()
		out["feed"] = map[string]any{
			"last_poll": st.LastPoll, "interval_ms": st.Interval.Milliseconds(),
			"lag_ms": st.Lag.Milliseconds(), "delivered": st.Delivered,
		}
	}
	return c.JSON(http.StatusOK, out)
}

// rulesPage serves a game's rules page (Markdown), which the catalog links
// to, in the caller's language (Accept-Language; English when the game has
// no page in it).
func (s *Server) rulesPage(c echo.Context) error {
	lang := langOf(c.Request().Context())
	page, err := catalog.RulesPage(c.Param("game"), lang)
	if err != nil {
		return fail(http.StatusNotFound, codeNotFound, "error.no_game_kind", c.Param("game"))
	}
	if english, _ := catalog.RulesPage(c.Param("game"), games.English); lang != games.English && page == english {
		c.Response().Header().Set("Content-Language", games.English)
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	c.Response().Header().Set("Vary", "Accept-Language")
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(page))
}

// openAPIDocument serves the API's document as JSON.
func (s *Server) openAPIDocument(c echo.Context) error {
	return c.JSONBlob(http.StatusOK, s.spec.json)
}

// Routes lists the routes the server answers, "METHOD /path" with path
// parameters written as in the document ("{game_id}").
func (s *Server) Routes() []string {
	var out []string
	for _, r := range s.echo.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		out = append(out, r.Method+" "+echoParam.ReplaceAllString(r.Path, "{$1}"))
	}
	return out
}

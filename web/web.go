// Package web serves courrier's pages for people who prefer a board to an
// email: sign in by a mailed link, list one's games, create one, play it by
// clicking a legal move or typing one, step through its history as one's
// seat saw it, read the rules, and, after the end, read the audit and
// download the record. Pages are rendered on the server with html/template
// over the same play service the API uses; every page works without
// JavaScript, and a few lines of it (embedded, no build step) refresh the
// game page when anyone moves.
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

//go:embed templates static
var files embed.FS

// Update is one change of a game as a follower's seat may know it: the
// page says Text in its reader's language.
type Update struct {
	Version int
	Text    games.Phrase
}

// Live follows games for the game page's live refresh: Follow delivers the
// game's changes after version after as user's seat may see them, until ctx
// ends or stop is called; the channel is closed then (or when the server
// shuts down).
type Live interface {
	Follow(ctx context.Context, gameID, user string, after int) (updates <-chan Update, stop func(), err error)
}

// Config is what the pages need.
type Config struct {
	Play     *play.Service
	Archive  *play.Archive // replays, audit reports and records
	Users    *auth.Users
	Sessions *auth.Sessions
	// SignIn mails sign-in links and turns them into sessions.
	SignIn *auth.SignIn
	// CSRFKey (at least 32 bytes, kept outside the database) makes each
	// session's CSRF token.
	CSRFKey []byte
	Live    Live // nil: no live refresh (pages still reload by hand)
	// BaseURL is the public address (https: cookies are Secure and
	// named with the __Host- prefix).
	BaseURL string
	// DevMail says the dev mailbox (/dev/mail) holds the mail, so the
	// sign-in page links to it.
	DevMail bool
	Log     *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Handler serves the pages.
type Handler struct {
	cfg    Config
	log    *slog.Logger
	pages  map[string]pageSet // by language, then by name
	static http.Handler
	assets map[string]string // file name → its URL under /static/, with a checksum
	mux    *http.ServeMux
	routes *http.ServeMux // the pages' routes, behind the cross-origin check
	secure bool
}

// New parses every page (an error here is a bug, caught at start, never at
// request time) and builds the routes.
func New(cfg Config) (*Handler, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if len(cfg.CSRFKey) < 32 {
		return nil, errors.New("web: the CSRF key needs at least 32 bytes")
	}
	h := &Handler{cfg: cfg, log: cfg.Log, secure: strings.HasPrefix(cfg.BaseURL, "https://")}
	var err error
	if h.assets, err = assetURLs(); err != nil {
		return nil, err
	}
	if h.pages, err = parsePages(h.funcs()); err != nil {
		return nil, err
	}
	sub, err := fs.Sub(files, "static")
	if err != nil {
		return nil, fmt.Errorf("web: static files: %w", err)
	}
	h.static = http.StripPrefix("/static/", staticFiles(http.FileServerFS(sub)))
	h.route()
	return h, nil
}

// ServeHTTP serves a page.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// route registers the pages. Every POST goes through the CSRF checks.
func (h *Handler) route() {
	m := http.NewServeMux()
	get := func(pattern string, fn func(http.ResponseWriter, *http.Request)) {
		m.Handle("GET "+pattern, h.page(fn))
	}
	post := func(pattern string, fn func(http.ResponseWriter, *http.Request)) {
		m.Handle("POST "+pattern, h.page(h.checkCSRF(fn)))
	}
	m.Handle("GET /static/", h.static)
	m.HandleFunc("GET /favicon.ico", favicon)
	get("/{$}", h.home)
	post("/signin", h.signIn)
	get("/login/{secret}", h.loginPage)
	post("/login/{secret}", h.loginConfirm)
	post("/signout", h.signOut)
	get("/account", h.account)
	post("/signout-everywhere", h.signOutEverywhere)
	get("/settings", h.settings)
	post("/settings", h.saveSettings)
	get("/games", h.myGames)
	get("/games/new", h.newGamePage)
	post("/games/new", h.createGame)
	get("/games/{id}", h.gamePage)
	post("/games/{id}/join", h.join)
	post("/games/{id}/start", h.start)
	post("/games/{id}/move", h.move)
	post("/games/{id}/resign", h.resign)
	post("/games/{id}/say", h.say)
	post("/games/{id}/messages/{message}/hide", h.hide)
	post("/games/{id}/takeback", h.askTakeBack)
	post("/games/{id}/takeback/answer", h.answerTakeBack)
	get("/games/{id}/history", h.history)
	get("/games/{id}/audit", h.audit)
	get("/games/{id}/record", h.record)
	get("/games/{id}/live", h.live)
	get("/rules/{game}", h.rules)
	get("/players/{id}", h.playerPage)
	post("/language", h.setLanguage)
	m.Handle("/", h.page(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, http.StatusNotFound, visitOf(r).say("error.no_page"))
	}))
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(h.page(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, http.StatusForbidden, visitOf(r).say("error.cross_site"))
	}))
	h.routes = m
	h.mux = http.NewServeMux()
	h.mux.Handle("/", cop.Handler(m))
}

// page wraps a page handler: the security headers, the session's user in
// the context, and a CSRF cookie for the forms.
func (h *Handler) page(fn func(http.ResponseWriter, *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("X-Frame-Options", "DENY")
		hdr.Set("Referrer-Policy", "same-origin")
		hdr.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		v := h.session(w, r)
		hdr.Set("Content-Language", v.Lang)
		r = r.WithContext(withSession(r.Context(), v))
		fn(w, r)
	})
}

// render writes page name with data, through a buffer: a template error
// is logged and answered with a plain 500 page, never half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	v := visitOf(r)
	t, ok := h.pagesIn(v.Lang)[name]
	if !ok {
		h.log.ErrorContext(r.Context(), "web: no such page", "page", name)
		http.Error(w, v.say("error.internal"), http.StatusInternalServerError)
		return
	}
	var b bytes.Buffer
	tmpl := "base"
	if r.Header.Get("HX-Request") == "true" && t.Lookup("live") != nil {
		tmpl = "live" // the part of the page that a live refresh replaces
	}
	if err := t.ExecuteTemplate(&b, tmpl, data); err != nil {
		h.log.ErrorContext(r.Context(), "web: render", "page", name, "err", err)
		http.Error(w, v.say("error.internal"), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes()) // the client went away: nothing to do
}

// pagesIn is the pages in lang (English when courrier does not speak it).
func (h *Handler) pagesIn(lang string) pageSet {
	if set, ok := h.pages[lang]; ok {
		return set
	}
	return h.pages[games.English]
}

// fail answers with the error page.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, message string) {
	h.render(w, r, status, "error", errorPage{Layout: h.layout(r, visitOf(r).statusTitle(status)), Status: status, Message: message})
}

// failErr answers a play error as a person reads it; anything else is
// logged and answered with a 500 (or a 503 when the database is away).
func (h *Handler) failErr(w http.ResponseWriter, r *http.Request, err error) {
	v := visitOf(r)
	if pe, ok := errors.AsType[*play.Error](err); ok {
		status := http.StatusBadRequest
		switch pe.Code {
		case play.CodeNotFound:
			status = http.StatusNotFound
		case play.CodeForbidden:
			status = http.StatusForbidden
		case play.CodeConflict:
			status = http.StatusConflict
		}
		h.fail(w, r, status, games.Explain(pe, v.Lang))
		return
	}
	if unavailable(err) {
		w.Header().Set("Retry-After", "5")
		h.fail(w, r, http.StatusServiceUnavailable, v.say("error.database"))
		return
	}
	h.log.ErrorContext(r.Context(), "web: page", "path", r.URL.Path, "err", err)
	h.fail(w, r, http.StatusInternalServerError, v.say("error.internal"))
}

// unavailable reports whether err is the database being away
// (play.Unavailable, the same judgement as the API's).
func unavailable(err error) bool { return play.Unavailable(err) }

// seeOther redirects after a successful form.
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}

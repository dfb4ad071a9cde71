package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/courrier-games/courrier/games"
)

// specIndex is the API's document, indexed by method and path for the
// request validator.
type specIndex struct {
	doc  *openapi3.T
	json []byte
	ops  map[string]*specRoute // "POST /v1/games/{game_id}/moves"
}

// specRoute is one operation of the document.
type specRoute struct {
	path   string
	item   *openapi3.PathItem
	op     *openapi3.Operation
	public bool // security: [] (no token needed)
}

// loadSpec reads the document embedded in the generated code.
func loadSpec(ctx context.Context) (*specIndex, error) {
	doc, err := GetSwagger()
	if err != nil {
		return nil, fmt.Errorf("read the API's OpenAPI document: %w", err)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("the API's OpenAPI document is invalid: %w", err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode the API's OpenAPI document: %w", err)
	}
	idx := &specIndex{doc: doc, json: raw, ops: map[string]*specRoute{}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			public := op.Security != nil && len(*op.Security) == 0
			idx.ops[method+" "+path] = &specRoute{path: path, item: item, op: op, public: public}
		}
	}
	return idx, nil
}

// echoParam is an Echo path parameter (":game_id"), written "{game_id}" in
// the document.
var echoParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// route finds the operation of an Echo route.
func (x *specIndex) route(method, echoPath string) *specRoute {
	return x.ops[method+" "+echoParam.ReplaceAllString(echoPath, "{$1}")]
}

// route finds the request's operation in the document (a 404 for none),
// notes whether it is public and what the events' meta keeps of the
// request, before authentication: a signed-in caller's refusals, the
// document's included, are then said in their language.
func (s *Server) route(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := s.spec.route(c.Request().Method, c.Path())
		if r == nil {
			return fail(http.StatusNotFound, codeNotFound, "error.no_route")
		}
		c.Set(publicKey, r.public)
		c.Set(routeKey, r)
		req := c.Request()
		info := requestInfo{id: c.Response().Header().Get(echo.HeaderXRequestID), addr: c.RealIP()}
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), requestInfoKey{}, info)))
		return next(c)
	}
}

// validate checks a request against the document (parameters, content
// type, body schema: required fields, types, no unknown fields) before any
// handler sees it.
func (s *Server) validate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, _ := c.Get(routeKey).(*specRoute)
		if r == nil {
			return fail(http.StatusNotFound, codeNotFound, "error.no_route")
		}
		params := map[string]string{}
		for i, n := range c.ParamNames() {
			params[n] = c.ParamValues()[i]
		}
		in := &openapi3filter.RequestValidationInput{
			Request:    c.Request(),
			PathParams: params,
			Route:      &routers.Route{Spec: s.spec.doc, Path: r.path, PathItem: r.item, Method: c.Request().Method, Operation: r.op},
			Options:    &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		}
		if err := oneJSONValue(c.Request()); err != nil {
			return err
		}
		if err := openapi3filter.ValidateRequest(c.Request().Context(), in); err != nil {
			return requestError(err)
		}
		return next(c)
	}
}

// The echo.Context keys of the request's operation and whether it is
// public.
const (
	publicKey = "courrier.public"
	routeKey  = "courrier.route"
)

// oneJSONValue refuses a JSON body with anything after its value (`{…}
// {…}`), which a decoder would silently ignore, and puts the body back for
// the validator and the handler.
func oneJSONValue(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody || !strings.Contains(r.Header.Get(echo.HeaderContentType), "json") {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if he, ok := errors.AsType[*echo.HTTPError](err); ok {
			return he // the body limit
		}
		return fail(http.StatusBadRequest, codeMalformed, "error.body_unread")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil // the validator says what is wrong with it
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fail(http.StatusBadRequest, codeMalformed, "error.trailing_json")
	}
	return nil
}

// requestError says in plain words what is wrong with a request the
// document does not admit, in the caller's language: the reasons of
// kin-openapi's schema checks are read back into the API's catalog (the
// English patterns are kin-openapi's own words).
func requestError(err error) error {
	if he, ok := errors.AsType[*echo.HTTPError](err); ok {
		return he // the body limit
	}
	re, ok := errors.AsType[*openapi3filter.RequestError](err)
	if !ok {
		return fail(http.StatusBadRequest, codeMalformed, "error.mismatch")
	}
	if strings.Contains(re.Reason, "Content-Type") {
		return fail(http.StatusUnsupportedMediaType, codeUnsupportedMedia, "error.json_only")
	}
	what := games.T("validation.request")
	switch {
	case re.Parameter != nil:
		what = games.T("validation.parameter", re.Parameter.In, re.Parameter.Name)
	case re.RequestBody != nil:
		what = games.T("validation.body")
	}
	reason := re.Reason
	if se, ok := errors.AsType[*openapi3.SchemaError](re.Err); ok {
		reason = se.Reason
		if p := se.JSONPointer(); len(p) > 0 {
			what = games.T("validation.field", what, strings.Join(p, "."))
		}
	} else if re.Err != nil && reason == "" {
		reason = re.Err.Error()
	}
	reason = strings.TrimSpace(reason)
	if said, ok := schemaReason(reason); ok {
		return fail(http.StatusBadRequest, codeMalformed, "validation.problem", what, said)
	}
	// A reason the catalog does not know is kin-openapi's English, said as
	// it is to an English reader and as "does not match" to others.
	e := fail(http.StatusBadRequest, codeMalformed, "validation.problem", what, games.T("validation.other"))
	other := e.text
	e.text = func(lang string) string {
		if lang == games.English {
			return say(lang, "validation.problem", what, reason)
		}
		return other(lang)
	}
	return e
}

// schemaReasons are kin-openapi's reasons the API's catalog says, each
// with its key; a submatch is the key's argument.
var schemaReasons = []struct {
	re    *regexp.Regexp
	key   string
	count bool // the argument is a count: its plural by the reader's rules
}{
	{regexp.MustCompile(`^property "(.*)" is missing$`), "validation.missing", false},
	{regexp.MustCompile(`^property "(.*)" is unsupported$`), "validation.unsupported", false},
	{regexp.MustCompile(`^value must be an? (string|integer|number|boolean|object|array)$`), "validation.type", false},
	{regexp.MustCompile(`^value is not one of the allowed values (.*)$`), "validation.enum", false},
	{regexp.MustCompile(`^number must be at least (.*)$`), "validation.minimum", false},
	{regexp.MustCompile(`^number must be at most (.*)$`), "validation.maximum", false},
	{regexp.MustCompile(`^minimum string length is (\d+)$`), "validation.min_length", true},
	{regexp.MustCompile(`^maximum string length is (\d+)$`), "validation.max_length", true},
	{regexp.MustCompile(`^there must be at least (\d+) properties$`), "validation.min_properties", true},
}

// schemaReason is a reason of kin-openapi as a text of the API's catalog,
// and whether the catalog knows it: "it is not valid JSON" for a body that
// is not JSON, or one of schemaReasons.
func schemaReason(reason string) (games.Text, bool) {
	if strings.Contains(reason, "invalid character") || strings.Contains(reason, "unexpected end of JSON") || strings.Contains(reason, "failed to decode") {
		return games.T("validation.not_json"), true
	}
	for _, r := range schemaReasons {
		m := r.re.FindStringSubmatch(reason)
		if m == nil {
			continue
		}
		if r.key == "validation.type" {
			return games.T(r.key, games.T("type."+m[1])), true
		}
		if n, err := strconv.Atoi(m[1]); err == nil && r.count {
			return games.T(r.key, n), true
		}
		return games.T(r.key, m[1]), true
	}
	return games.Text{}, false
}

// userKey is the request context's key of the signed-in user's id.
type userKey struct{}

// userOf returns the signed-in user's id ("" when none).
func userOf(ctx context.Context) string {
	u, _ := ctx.Value(userKey{}).(string)
	return u
}

// authenticate reads "Authorization: Bearer <token>": a session JWT or a
// personal API token. Public operations need none. The caller's language
// setting, read with the token, comes before the request's
// Accept-Language from then on.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if public, _ := c.Get(publicKey).(bool); public {
			return next(c)
		}
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		if h == "" {
			return unauthenticated("error.sign_in_link")
		}
		scheme, tok, ok := strings.Cut(h, " ")
		tok = strings.TrimSpace(tok)
		if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
			return unauthenticated("error.bearer")
		}
		ctx, setting, err := s.bearer(c.Request().Context(), tok) // sessions.go
		if err != nil {
			return err
		}
		c.SetRequest(c.Request().WithContext(ctx))
		useSetting(c, setting)
		return next(c)
	}
}

// tokenProblem is what a person is told about a token that was refused
// (a key of the API's catalog): expired, or not one of ours, never why in
// detail.
func tokenProblem(err error) string {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "expired"):
		return "error.token_expired"
	case strings.Contains(msg, "revoked"):
		return "error.token_revoked"
	}
	return "error.token_invalid"
}

// rateLimit limits requests per key (an address, a user): a per-process
// backstop. An empty key is not limited.
func rateLimit(r rate.Limit, key func(echo.Context) string) echo.MiddlewareFunc {
	if r < 0 {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: r, Burst: int(2 * r), ExpiresIn: 3 * time.Minute,
	})
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper:             func(c echo.Context) bool { return key(c) == "" },
		Store:               store,
		IdentifierExtractor: func(c echo.Context) (string, error) { return key(c), nil },
		ErrorHandler:        func(echo.Context, error) error { return echo.ErrTooManyRequests },
		DenyHandler:         func(echo.Context, string, error) error { return echo.ErrTooManyRequests },
	})
}

// headerClientRequestID is the answer's echo of a client's own
// X-Request-Id, when it is a valid one (clientRequestID).
const headerClientRequestID = "X-Client-Request-Id"

// maxClientRequestID bounds a client's X-Request-Id that is echoed and
// logged.
const maxClientRequestID = 64

// clientRequestIDRe is what a client's X-Request-Id may be made of: 1 to 64
// letters, digits and ". _ : -" (a UUID, a ULID, a trace id).
var clientRequestIDRe = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// clientRequestID returns a client's X-Request-Id if it is valid: at most
// maxClientRequestID characters of clientRequestIDRe. Anything else is
// ignored, never refused: proxies and tracing libraries set the header on
// their own, and a move must not fail for it.
func clientRequestID(h string) (string, bool) {
	if len(h) > maxClientRequestID || !clientRequestIDRe.MatchString(h) {
		return "", false
	}
	return h, true
}

// requestIDs gives every request an id made by the server: 26 characters of
// base32 from crypto/rand (128 bits). It is the answer's X-Request-Id, the
// error body's request_id, the logs' request_id and the request id the
// game's log keeps in its events' meta, so what the log keeps is never
// chosen by a client. A client's own X-Request-Id, when valid, is only
// echoed as X-Client-Request-Id and logged as client_request_id beside the
// server's; it is never stored.
func requestIDs(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderXRequestID, rand.Text())
		if id, ok := clientRequestID(c.Request().Header.Get(echo.HeaderXRequestID)); ok {
			h.Set(headerClientRequestID, id)
		}
		return next(c)
	}
}

// secureHeaders sets the headers every answer carries. CORS is off: no
// Access-Control-* header is ever sent, so browsers keep other sites out.
func secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
		h.Set("Cache-Control", "no-store")
		return next(c)
	}
}

// logRequests logs each request once it is answered: refusals at Info,
// the rest at Debug (5xx are logged with their cause by writeError).
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		level := slog.LevelDebug
		switch {
		case status >= 500:
			level = slog.LevelWarn
		case status >= 400:
			level = slog.LevelInfo
		}
		s.log.Log(c.Request().Context(), level, "http request",
			"method", c.Request().Method, "route", c.Path(), "status", status,
			"duration_ms", time.Since(start).Milliseconds(),
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID),
			"client_request_id", c.Response().Header().Get(headerClientRequestID),
			"user", userOf(c.Request().Context()), "client_ip", c.RealIP())
		return nil
	}
}

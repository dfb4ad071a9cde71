package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// The stable error codes of the API (listed in openapi.yaml's Error schema).
const (
	codeMalformed        = "malformed"
	codeUnauthenticated  = "unauthenticated"
	codeForbidden        = "forbidden"
	codeNotFound         = "not_found"
	codeStale            = "stale_version"
	codeConflict         = "conflict"
	codeTooLarge         = "too_large"
	codeUnsupportedMedia = "unsupported_media_type"
	codeIllegalMove      = "illegal_move"
	codeRateLimited      = "rate_limited"
	codeUnavailable      = "unavailable"
	codeInternal         = "internal"
	codeMethodNotAllowed = "method_not_allowed"
)

// apiError is an error with its HTTP status and body, made by a handler or
// a middleware for a request it refuses.
type apiError struct {
	status  int
	code    string
	message string
	rule    string
	version *int
	details []string
	header  http.Header
}

// Error implements error.
func (e *apiError) Error() string { return e.code + ": " + e.message }

// fail returns an apiError.
func fail(status int, code, message string) *apiError {
	return &apiError{status: status, code: code, message: message}
}

// unauthenticated is a 401 that tells the client how to authenticate.
func unauthenticated(message string) *apiError {
	e := fail(http.StatusUnauthorized, codeUnauthenticated, message)
	e.header = http.Header{"WWW-Authenticate": {`Bearer realm="courrier"`}}
	return e
}

// classify turns any error a handler returns into the answer: play's
// refusals by their code, rule errors as 422 with the rule, a stale move
// as 409 with the version and what changed, the database away as 503, and
// anything else as a 500 whose cause is logged, never sent.
func classify(err error) *apiError {
	if ae, ok := errors.AsType[*apiError](err); ok {
		return ae
	}
	if se, ok := errors.AsType[*play.StaleError](err); ok {
		e := fail(http.StatusConflict, codeStale, se.Error())
		v := se.Current
		e.version = &v
		for _, c := range se.Changes {
			if !c.Text.IsZero() {
				e.details = append(e.details, c.Text.In(games.English))
			}
		}
		return e
	}
	if re, ok := games.AsRuleError(err); ok {
		e := fail(http.StatusUnprocessableEntity, codeIllegalMove, re.Explain(games.English))
		e.rule = re.Rule
		if me, ok := errors.AsType[*play.MoveError](err); ok && me.Line > 1 {
			e.message = "line " + strconv.Itoa(me.Line) + " (" + me.Text + "): " + re.Explain(games.English)
		}
		return e
	}
	if pe, ok := errors.AsType[*play.Error](err); ok {
		switch pe.Code {
		case play.CodeNotFound:
			return fail(http.StatusNotFound, codeNotFound, pe.Message)
		case play.CodeForbidden:
			return fail(http.StatusForbidden, codeForbidden, pe.Message)
		case play.CodeConflict:
			return fail(http.StatusConflict, codeConflict, pe.Message)
		default:
			return fail(http.StatusBadRequest, codeMalformed, pe.Message)
		}
	}
	if he, ok := errors.AsType[*echo.HTTPError](err); ok {
		return fromEcho(he)
	}
	if unavailable(err) {
		e := fail(http.StatusServiceUnavailable, codeUnavailable, "courrier cannot reach its database just now; try again in a few seconds")
		e.header = http.Header{"Retry-After": {"5"}}
		return e
	}
	return fail(http.StatusInternalServerError, codeInternal, "something went wrong on our side; it has been logged")
}

// fromEcho maps Echo's own errors (routing, body limit, binding).
func fromEcho(he *echo.HTTPError) *apiError {
	msg, _ := he.Message.(string)
	switch he.Code {
	case http.StatusNotFound:
		return fail(he.Code, codeNotFound, "there is no such route: see /v1/openapi.json")
	case http.StatusMethodNotAllowed:
		return fail(he.Code, codeMethodNotAllowed, "this path does not take this method: see the Allow header and /v1/openapi.json")
	case http.StatusRequestEntityTooLarge:
		return fail(he.Code, codeTooLarge, "the request body is too large (at most 64 KB)")
	case http.StatusUnsupportedMediaType:
		return fail(he.Code, codeUnsupportedMedia, "send the body as application/json")
	case http.StatusTooManyRequests:
		e := fail(he.Code, codeRateLimited, "too many requests: slow down and try again in a few seconds")
		e.header = http.Header{"Retry-After": {"2"}}
		return e
	case http.StatusUnauthorized:
		return unauthenticated(orDefault(msg, "sign in first: send Authorization: Bearer <token>"))
	case http.StatusForbidden:
		return fail(he.Code, codeForbidden, orDefault(msg, "this is not yours to do"))
	}
	if he.Code >= 400 && he.Code < 500 {
		if msg == "" || strings.Contains(msg, "Syntax error") || strings.Contains(msg, "Unmarshal") {
			msg = "the request body is not valid JSON of the expected shape"
		}
		return fail(http.StatusBadRequest, codeMalformed, msg)
	}
	return fail(http.StatusInternalServerError, codeInternal, "something went wrong on our side; it has been logged")
}

// unavailable reports whether err means the database cannot be reached
// (play.Unavailable, the judgement every door shares).
func unavailable(err error) bool { return play.Unavailable(err) }

// writeError is Echo's error handler: the one place that writes errors.
func (s *Server) writeError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e := classify(err)
	rid := c.Response().Header().Get(echo.HeaderXRequestID)
	if e.status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed", "err", err, "request_id", rid,
			"method", c.Request().Method, "route", c.Path(), "status", e.status)
	}
	s.metrics.refusal(e.code)
	if e.code == codeMethodNotAllowed {
		if allow := c.Response().Header().Get(echo.HeaderAllow); allow != "" {
			e.message = fmt.Sprintf("this path does not take %s; it takes %s (see /v1/openapi.json)", c.Request().Method, allow)
		}
	}
	for k, vs := range e.header {
		for _, v := range vs {
			c.Response().Header().Add(k, v)
		}
	}
	body := Error{}
	body.Error.Code = ErrorErrorCode(e.code)
	body.Error.Message = e.message
	if rid != "" {
		body.Error.RequestId = &rid
	}
	if e.rule != "" {
		body.Error.Rule = &e.rule
	}
	body.Error.Version = e.version
	if len(e.details) > 0 {
		body.Error.Details = &e.details
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.status)
		return
	}
	_ = c.JSON(e.status, body)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

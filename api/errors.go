package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/courrier-games/courrier/api/auth"
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
	// codeUnsupportedLanguage is a language setting courrier does not
	// speak (422).
	codeUnsupportedLanguage = "unsupported_language"
)

// apiError is an error with its HTTP status and body, made by a handler or
// a middleware for a request it refuses. Its message is said in the
// caller's language when the error is written.
type apiError struct {
	status  int
	code    string
	text    func(lang string) string // the message in a language
	rule    string
	version *int
	details func(lang string) []string
	header  http.Header
}

// Error implements error, in English.
func (e *apiError) Error() string { return e.code + ": " + e.text(games.English) }

// Explain says the message in lang (see games.Explainer).
func (e *apiError) Explain(lang string) string { return e.text(lang) }

// fail returns an apiError whose message is key of the API's catalog with
// args.
func fail(status int, code, key string, args ...any) *apiError {
	p := words.Phrase(key, args...)
	return &apiError{status: status, code: code, text: p.In}
}

// failWith returns an apiError whose message is err's, said in each
// language by games.Explain.
func failWith(status int, code string, err error) *apiError {
	return &apiError{status: status, code: code, text: func(lang string) string { return games.Explain(err, lang) }}
}

// phraseOf is what err says, as a phrase a message can place: an
// api/auth problem's words, else err's English.
func phraseOf(err error) games.Phrase {
	if p, ok := errors.AsType[*auth.Problem](err); ok {
		return p.Said
	}
	return games.Said(err.Error())
}

// unauthenticated is a 401 that tells the client how to authenticate;
// key is its message in the API's catalog.
func unauthenticated(key string) *apiError {
	return withBearer(fail(http.StatusUnauthorized, codeUnauthenticated, key))
}

// withBearer adds to a 401 the header that tells how to authenticate.
func withBearer(e *apiError) *apiError {
	e.header = http.Header{"WWW-Authenticate": {`Bearer realm="courrier"`}}
	return e
}

// classify turns any error a handler returns into the answer: play's
// refusals by their code, rule errors as 422 with the rule, a stale move
// as 409 with the version and what changed, the database away as 503, and
// anything else as a 500 whose cause is logged, never sent. Each message
// is said in the caller's language when the answer is written.
func classify(err error) *apiError {
	if ae, ok := errors.AsType[*apiError](err); ok {
		return ae
	}
	if se, ok := errors.AsType[*play.StaleError](err); ok {
		e := failWith(http.StatusConflict, codeStale, se)
		v := se.Current
		e.version = &v
		e.details = func(lang string) []string {
			var out []string
			for _, c := range se.Changes {
				if !c.Text.IsZero() {
					out = append(out, c.Text.In(lang))
				}
			}
			return out
		}
		return e
	}
	if re, ok := games.AsRuleError(err); ok {
		// A refused later line (a *play.MoveError) says its line first.
		e := failWith(http.StatusUnprocessableEntity, codeIllegalMove, re)
		if me, ok := errors.AsType[*play.MoveError](err); ok && me.Line > 1 {
			e = failWith(http.StatusUnprocessableEntity, codeIllegalMove, me)
		}
		e.rule = re.Rule
		return e
	}
	if pe, ok := errors.AsType[*play.Error](err); ok {
		switch pe.Code {
		case play.CodeNotFound:
			return failWith(http.StatusNotFound, codeNotFound, pe)
		case play.CodeForbidden:
			return failWith(http.StatusForbidden, codeForbidden, pe)
		case play.CodeConflict:
			return failWith(http.StatusConflict, codeConflict, pe)
		default:
			return failWith(http.StatusBadRequest, codeMalformed, pe)
		}
	}
	if he, ok := errors.AsType[*echo.HTTPError](err); ok {
		return fromEcho(he)
	}
	if unavailable(err) {
		e := fail(http.StatusServiceUnavailable, codeUnavailable, "error.unavailable")
		e.header = http.Header{"Retry-After": {"5"}}
		return e
	}
	return fail(http.StatusInternalServerError, codeInternal, "error.internal")
}

// fromEcho maps Echo's own errors (routing, body limit, binding).
func fromEcho(he *echo.HTTPError) *apiError {
	msg, _ := he.Message.(string)
	switch he.Code {
	case http.StatusNotFound:
		return fail(he.Code, codeNotFound, "error.no_route")
	case http.StatusMethodNotAllowed:
		return fail(he.Code, codeMethodNotAllowed, "error.method")
	case http.StatusRequestEntityTooLarge:
		return fail(he.Code, codeTooLarge, "error.too_large")
	case http.StatusUnsupportedMediaType:
		return fail(he.Code, codeUnsupportedMedia, "error.json_only")
	case http.StatusTooManyRequests:
		e := fail(he.Code, codeRateLimited, "error.rate_limited")
		e.header = http.Header{"Retry-After": {"2"}}
		return e
	case http.StatusUnauthorized:
		return withBearer(echoMessage(he.Code, codeUnauthenticated, msg, "error.sign_in"))
	case http.StatusForbidden:
		return echoMessage(he.Code, codeForbidden, msg, "error.not_yours")
	}
	if he.Code >= 400 && he.Code < 500 {
		if msg == "" || strings.Contains(msg, "Syntax error") || strings.Contains(msg, "Unmarshal") {
			return fail(http.StatusBadRequest, codeMalformed, "error.bad_json")
		}
		return echoMessage(http.StatusBadRequest, codeMalformed, msg, "error.bad_request")
	}
	return fail(http.StatusInternalServerError, codeInternal, "error.internal")
}

// echoMessage is an error whose English message is Echo's own msg (which
// no catalog says) when there is one, and key of the API's catalog in
// other languages.
func echoMessage(status int, code, msg, key string) *apiError {
	e := fail(status, code, key)
	if msg != "" {
		other := e.text
		e.text = func(lang string) string {
			if lang == games.English {
				return msg
			}
			return other(lang)
		}
	}
	return e
}

// unavailable reports whether err means the database cannot be reached
// (play.Unavailable, the judgement every door shares).
func unavailable(err error) bool { return play.Unavailable(err) }

// writeError is Echo's error handler: the one place that writes errors,
// in the caller's language (langOf).
func (s *Server) writeError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e := classify(err)
	lang := langOf(c.Request().Context())
	rid := c.Response().Header().Get(echo.HeaderXRequestID)
	if e.status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed", "err", err, "request_id", rid,
			"method", c.Request().Method, "route", c.Path(), "status", e.status)
	}
	s.metrics.refusal(e.code)
	message := e.text(lang)
	if e.code == codeMethodNotAllowed {
		if allow := c.Response().Header().Get(echo.HeaderAllow); allow != "" {
			message = say(lang, "error.method_allow", c.Request().Method, allow)
		}
	}
	for k, vs := range e.header {
		for _, v := range vs {
			c.Response().Header().Add(k, v)
		}
	}
	c.Response().Header().Set("Content-Language", lang)
	body := Error{}
	body.Error.Code = ErrorErrorCode(e.code)
	body.Error.Message = message
	if rid != "" {
		body.Error.RequestId = &rid
	}
	if e.rule != "" {
		body.Error.Rule = &e.rule
	}
	body.Error.Version = e.version
	if e.details != nil {
		if details := e.details(lang); len(details) > 0 {
			body.Error.Details = &details
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.status)
		return
	}
	_ = c.JSON(e.status, body)
}

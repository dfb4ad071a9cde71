package api

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/jobs"
)

// RequestLogin mails a sign-in link. The answer is the same whether or not
// the address had an account (one is made), so it tells nobody who plays.
func (s *Server) RequestLogin(ctx context.Context, req RequestLoginRequestObject) (RequestLoginResponseObject, error) {
	email, err := auth.NormalizeEmail(req.Body.Email)
	if err != nil {
		return nil, fail(http.StatusBadRequest, codeMalformed, err.Error())
	}
	user, err := s.cfg.Users.Ensure(ctx, email)
	if err != nil {
		return nil, err
	}
	if req.Body.Name != nil && user.Name == "" {
		if err := s.cfg.Users.SetName(ctx, user.ID, *req.Body.Name); err != nil {
			return nil, fail(http.StatusBadRequest, codeMalformed, err.Error())
		}
	}
	err = s.cfg.Links.Issue(ctx, s.cfg.LoginKey, user.ID, func(ctx context.Context, tx pgx.Tx, linkID int64) error {
		_, err := s.cfg.Jobs.InsertTx(ctx, tx, jobs.Login{LinkID: linkID, User: user.ID}, nil)
		return err
	})
	if errors.Is(err, auth.ErrTooManyLinks) {
		e := fail(http.StatusTooManyRequests, codeRateLimited, "too many sign-in links were asked for this address in the last hour: use the last one, or wait")
		e.header = http.Header{"Retry-After": {"600"}}
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	return RequestLogin202JSONResponse{Message: "a sign-in link is on its way to " + email + "; it works once, for 15 minutes"}, nil
}

// ExchangeLoginToken turns a sign-in link's token into a session token.
func (s *Server) ExchangeLoginToken(ctx context.Context, req ExchangeLoginTokenRequestObject) (ExchangeLoginTokenResponseObject, error) {
	session, err := s.signIn(ctx, strings.TrimSpace(req.Body.LoginToken))
	if err != nil {
		return nil, err
	}
	return ExchangeLoginToken200JSONResponse(session), nil
}

// signIn consumes a login link and opens a session.
func (s *Server) signIn(ctx context.Context, secret string) (Session, error) {
	userID, err := s.cfg.Links.Consume(ctx, secret)
	if err != nil {
		if unavailable(err) {
			return Session{}, err
		}
		var msg string
		switch {
		case errors.Is(err, auth.ErrLinkUsed):
			msg = "this sign-in link was already used: ask for a new one (POST /v1/auth/login)"
		case errors.Is(err, auth.ErrLinkExpired):
			msg = "this sign-in link has expired (links last 15 minutes): ask for a new one"
		case errors.Is(err, auth.ErrLinkUnknown):
			msg = "this is not a sign-in link of ours: ask for a new one (POST /v1/auth/login)"
		default:
			return Session{}, err
		}
		return Session{}, unauthenticated(msg)
	}
	tok, err := s.cfg.Sessions.Issue(userID, auth.PurposeSession)
	if err != nil {
		return Session{}, err
	}
	me, err := s.me(ctx, userID)
	if err != nil {
		return Session{}, err
	}
	return Session{Token: tok, TokenType: Bearer, ExpiresAt: time.Now().Add(s.cfg.Sessions.TTL()).UTC(), User: me}, nil
}

// me is a user's own account.
func (s *Server) me(ctx context.Context, userID string) (Me, error) {
	u, err := s.cfg.Users.ByID(ctx, userID)
	if errors.Is(err, auth.ErrNoUser) || (err == nil && u.Email == "") {
		return Me{}, unauthenticated("this account no longer exists")
	}
	if err != nil {
		return Me{}, err
	}
	me := Me{Id: u.ID, Email: u.Email, Name: displayName(u)}
	tz := u.Location().String()
	me.TimeZone = &tz
	return me, nil
}

// displayName is a user's chosen name, else the local part of their address.
func displayName(u auth.User) string {
	if u.Name != "" {
		return u.Name
	}
	local, _, _ := strings.Cut(u.Email, "@")
	if local == "" {
		return "player"
	}
	return strings.ToUpper(local[:1]) + local[1:]
}

// GetMe returns the signed-in player.
func (s *Server) GetMe(ctx context.Context, _ GetMeRequestObject) (GetMeResponseObject, error) {
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return GetMe200JSONResponse(me), nil
}

// UpdateMe changes the display name.
func (s *Server) UpdateMe(ctx context.Context, req UpdateMeRequestObject) (UpdateMeResponseObject, error) {
	if req.Body.Name != nil {
		if err := s.cfg.Users.SetName(ctx, userOf(ctx), *req.Body.Name); err != nil {
			if unavailable(err) {
				return nil, err
			}
			return nil, fail(http.StatusBadRequest, codeMalformed, err.Error())
		}
	}
	if req.Body.TimeZone != nil {
		if err := s.cfg.Users.SetTimeZone(ctx, userOf(ctx), *req.Body.TimeZone); err != nil {
			if unavailable(err) {
				return nil, err
			}
			return nil, fail(http.StatusBadRequest, codeMalformed, "time_zone: "+err.Error())
		}
	}
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return UpdateMe200JSONResponse(me), nil
}

// ListTokens lists the caller's API tokens.
func (s *Server) ListTokens(ctx context.Context, _ ListTokensRequestObject) (ListTokensResponseObject, error) {
	list, err := s.cfg.APITokens.List(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	out := ListTokens200JSONResponse{Items: make([]APIToken, 0, len(list))}
	for _, t := range list {
		out.Items = append(out.Items, apiToken(t))
	}
	return out, nil
}

// CreateToken makes a personal API token; its secret is shown once.
func (s *Server) CreateToken(ctx context.Context, req CreateTokenRequestObject) (CreateTokenResponseObject, error) {
	t, secret, err := s.cfg.APITokens.Create(ctx, userOf(ctx), strings.TrimSpace(req.Body.Name))
	if errors.Is(err, auth.ErrBadTokenName) {
		return nil, fail(http.StatusBadRequest, codeMalformed, err.Error())
	}
	if err != nil {
		return nil, err
	}
	return CreateToken201JSONResponse{Token: apiToken(t), Secret: secret}, nil
}

// RevokeToken revokes one of the caller's API tokens.
func (s *Server) RevokeToken(ctx context.Context, req RevokeTokenRequestObject) (RevokeTokenResponseObject, error) {
	err := s.cfg.APITokens.Revoke(ctx, userOf(ctx), req.TokenId)
	if errors.Is(err, auth.ErrNoToken) {
		return nil, fail(http.StatusNotFound, codeNotFound, "you have no API token "+req.TokenId)
	}
	if err != nil {
		return nil, err
	}
	return RevokeToken204Response{}, nil
}

func apiToken(t auth.APIToken) APIToken {
	return APIToken{Id: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt}
}

// loginPageHTML is the page a sign-in link opens: a button that confirms
// with a POST, so that a mail scanner following the link signs nobody in.
var loginPageHTML = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to courrier</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1.1rem;padding:.6rem 1.2rem}code{word-break:break-all;background:#f3f3f3;padding:.2rem}</style></head>
<body><main>
{{if .Session}}
<h1>You are signed in</h1>
<p>Your session token, valid until {{.Expires}}:</p>
<p><code id="token">{{.Session}}</code></p>
<p>Send it as <code>Authorization: Bearer &lt;token&gt;</code> to the API.</p>
{{else if .Problem}}
<h1>This link does not work</h1>
<p>{{.Problem}}</p>
{{else}}
<h1>Sign in to courrier</h1>
<form method="post"><button type="submit">Sign in</button></form>
{{end}}
</main></body></html>`))

type loginPageData struct {
	Session, Expires, Problem string
}

func (s *Server) renderLogin(c echo.Context, status int, d loginPageData) error {
	c.Response().Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return loginPageHTML.Execute(c.Response(), d)
}

// loginPage shows the confirm button; it changes nothing.
func (s *Server) loginPage(c echo.Context) error {
	return s.renderLogin(c, http.StatusOK, loginPageData{})
}

// loginConfirm consumes the link and shows the session token.
func (s *Server) loginConfirm(c echo.Context) error {
	session, err := s.signIn(c.Request().Context(), c.Param("secret"))
	if err != nil {
		if ae, ok := errors.AsType[*apiError](err); ok && ae.status == http.StatusUnauthorized {
			return s.renderLogin(c, http.StatusUnauthorized, loginPageData{Problem: ae.message})
		}
		return err
	}
	return s.renderLogin(c, http.StatusOK, loginPageData{Session: session.Token, Expires: session.ExpiresAt.Format(time.RFC1123)})
}

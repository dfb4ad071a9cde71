package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

// RequestLogin mails a sign-in link (auth.SignIn.Request). The answer is
// the same whether or not the address had an account (one is made), so it
// tells nobody who plays.
func (s *Server) RequestLogin(ctx context.Context, req RequestLoginRequestObject) (RequestLoginResponseObject, error) {
	var name string
	if req.Body.Name != nil {
		name = *req.Body.Name
	}
	email, err := s.cfg.SignIn.Request(ctx, req.Body.Email, name, langOf(ctx))
	if err != nil {
		return nil, signInRefusal(err)
	}
	return RequestLogin202JSONResponse{Message: say(langOf(ctx), "login.sent", email)}, nil
}

// ExchangeLoginToken turns a sign-in link's token into a session token
// (auth.SignIn.Confirm). On first contact, an account without a language
// takes the one the request's Accept-Language prefers (decision 5).
func (s *Server) ExchangeLoginToken(ctx context.Context, req ExchangeLoginTokenRequestObject) (ExchangeLoginTokenResponseObject, error) {
	c, err := s.cfg.SignIn.Confirm(ctx, req.Body.LoginToken)
	if err != nil {
		return nil, signInRefusal(err)
	}
	if accepted := acceptedOf(ctx); c.User.Language == "" && accepted != "" {
		noted, err := s.cfg.Users.NoteLanguage(ctx, c.User.ID, accepted)
		if err != nil {
			return nil, err
		}
		if noted {
			c.User.Language = accepted
		}
	}
	return ExchangeLoginToken200JSONResponse(Session{Token: c.Token, TokenType: Bearer, ExpiresAt: c.Session.ExpiresAt.UTC(), User: meOf(c.User)}), nil
}

// signInRefusal answers a refused sign-in with auth's message; any other
// error goes to the error writer as it is.
func signInRefusal(err error) error {
	r, ok := errors.AsType[*auth.Refusal](err)
	switch {
	case !ok:
		return err
	case errors.Is(r, auth.ErrTooManyLinks):
		e := failWith(http.StatusTooManyRequests, codeRateLimited, r)
		e.header = http.Header{"Retry-After": {"600"}}
		return e
	case errors.Is(r, auth.ErrBadAddress), errors.Is(r, auth.ErrBadName):
		return failWith(http.StatusBadRequest, codeMalformed, r)
	}
	return withBearer(failWith(http.StatusUnauthorized, codeUnauthenticated, r))
}

// me is a user's own account.
func (s *Server) me(ctx context.Context, userID string) (Me, error) {
	u, err := s.cfg.Users.ByID(ctx, userID)
	if errors.Is(err, auth.ErrNoUser) || (err == nil && u.Email == "") {
		return Me{}, unauthenticated("error.account_gone")
	}
	if err != nil {
		return Me{}, err
	}
	return meOf(u), nil
}

// meOf is the API's view of an account: its language is null while the
// player has chosen none.
func meOf(u auth.User) Me {
	me := Me{Id: u.ID, Email: u.Email, Name: u.DisplayName()}
	tz := u.Location().String()
	me.TimeZone = &tz
	if u.Language != "" {
		lang := u.Language
		me.Language = &lang
	}
	return me
}

// GetMe returns the signed-in player.
func (s *Server) GetMe(ctx context.Context, _ GetMeRequestObject) (GetMeResponseObject, error) {
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return GetMe200JSONResponse(me), nil
}

// UpdateMe changes the display name, the time zone and the language. Every
// value is checked before any is set: a refused one changes nothing. A
// language courrier does not speak is a 422 (unsupported_language).
func (s *Server) UpdateMe(ctx context.Context, req UpdateMeRequestObject) (UpdateMeResponseObject, error) {
	b := req.Body
	if b.Name != nil {
		if _, err := auth.CheckName(*b.Name); err != nil {
			return nil, failWith(http.StatusBadRequest, codeMalformed, err)
		}
	}
	if b.TimeZone != nil {
		if err := auth.CheckTimeZone(*b.TimeZone); err != nil {
			return nil, fail(http.StatusBadRequest, codeMalformed, "error.time_zone", phraseOf(err))
		}
	}
	if b.Language != nil {
		if _, err := auth.CheckLanguage(*b.Language); err != nil {
			return nil, fail(http.StatusUnprocessableEntity, codeUnsupportedLanguage, "error.language", *b.Language, strings.Join(games.Languages(), ", "))
		}
	}
	for _, set := range []struct {
		value *string
		set   func(ctx context.Context, id, value string) error
	}{{b.Name, s.cfg.Users.SetName}, {b.TimeZone, s.cfg.Users.SetTimeZone}, {b.Language, s.cfg.Users.SetLanguage}} {
		if set.value == nil {
			continue
		}
		if err := set.set(ctx, userOf(ctx), *set.value); err != nil {
			if errors.Is(err, auth.ErrNoUser) {
				return nil, unauthenticated("error.account_gone")
			}
			return nil, err
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

// CreateToken makes a personal API token; its secret is shown once. Only a
// session may: a leaked API token cannot mint others that would outlive
// its revocation.
func (s *Server) CreateToken(ctx context.Context, req CreateTokenRequestObject) (CreateTokenResponseObject, error) {
	if _, err := sessionOnly(ctx, "what.create_tokens"); err != nil {
		return nil, err
	}
	t, secret, err := s.cfg.APITokens.Create(ctx, userOf(ctx), strings.TrimSpace(req.Body.Name))
	if errors.Is(err, auth.ErrBadTokenName) {
		return nil, failWith(http.StatusBadRequest, codeMalformed, err)
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
		return nil, fail(http.StatusNotFound, codeNotFound, "error.no_token", req.TokenId)
	}
	if err != nil {
		return nil, err
	}
	return RevokeToken204Response{}, nil
}

func apiToken(t auth.APIToken) APIToken {
	return APIToken{Id: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt}
}

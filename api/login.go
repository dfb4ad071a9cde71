package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
)

// RequestLogin mails a sign-in link (auth.SignIn.Request). The answer is
// the same whether or not the address had an account (one is made), so it
// tells nobody who plays.
func (s *Server) RequestLogin(ctx context.Context, req RequestLoginRequestObject) (RequestLoginResponseObject, error) {
	var name string
	if req.Body.Name != nil {
		name = *req.Body.Name
	}
	email, err := s.cfg.SignIn.Request(ctx, req.Body.Email, name)
	if err != nil {
		return nil, signInRefusal(err)
	}
	return RequestLogin202JSONResponse{Message: "a sign-in link is on its way to " + email + "; it works once, for 15 minutes"}, nil
}

// ExchangeLoginToken turns a sign-in link's token into a session token
// (auth.SignIn.Confirm).
func (s *Server) ExchangeLoginToken(ctx context.Context, req ExchangeLoginTokenRequestObject) (ExchangeLoginTokenResponseObject, error) {
	c, err := s.cfg.SignIn.Confirm(ctx, req.Body.LoginToken)
	if err != nil {
		return nil, signInRefusal(err)
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
		e := fail(http.StatusTooManyRequests, codeRateLimited, r.Message)
		e.header = http.Header{"Retry-After": {"600"}}
		return e
	case errors.Is(r, auth.ErrBadAddress), errors.Is(r, auth.ErrBadName):
		return fail(http.StatusBadRequest, codeMalformed, r.Message)
	}
	return unauthenticated(r.Message)
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
	return meOf(u), nil
}

// meOf is the API's view of an account.
func meOf(u auth.User) Me {
	me := Me{Id: u.ID, Email: u.Email, Name: u.DisplayName()}
	tz := u.Location().String()
	me.TimeZone = &tz
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

// CreateToken makes a personal API token; its secret is shown once. Only a
// session may: a leaked API token cannot mint others that would outlive
// its revocation.
func (s *Server) CreateToken(ctx context.Context, req CreateTokenRequestObject) (CreateTokenResponseObject, error) {
	if _, err := sessionOnly(ctx, "create API tokens"); err != nil {
		return nil, err
	}
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

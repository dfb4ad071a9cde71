package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

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
	me, err := s.me(ctx, userID)
	if err != nil {
		return Session{}, err
	}
	sess, tok, err := s.cfg.Sessions.Open(ctx, userID)
	if errors.Is(err, auth.ErrNoUser) {
		return Session{}, unauthenticated("this account no longer exists")
	}
	if err != nil {
		return Session{}, err
	}
	return Session{Token: tok, TokenType: Bearer, ExpiresAt: sess.ExpiresAt.UTC(), User: me}, nil
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
	me := Me{Id: u.ID, Email: u.Email, Name: u.DisplayName()}
	tz := u.Location().String()
	me.TimeZone = &tz
	return me, nil
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

package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

// sessionKey is the request context's key of the caller's session id,
// absent when the caller sent a personal API token.
type sessionKey struct{}

// sessionOf returns the id of the caller's session; ok is false for a
// personal API token (or nobody).
func sessionOf(ctx context.Context) (id string, ok bool) {
	id, ok = ctx.Value(sessionKey{}).(string)
	return id, ok && id != ""
}

// bearer checks a bearer token, a personal API token or a session JWT
// whose session is still open (one lookup by primary key either way), and
// returns ctx with the caller's user, and session when it is one, and the
// caller's language setting ("" for none). A refused token is a 401 in the
// one error shape.
func (s *Server) bearer(ctx context.Context, tok string) (context.Context, string, error) {
	if auth.IsAPIToken(tok) {
		user, lang, err := s.cfg.APITokens.Caller(ctx, tok)
		if err != nil {
			return nil, "", refusedToken(err)
		}
		return context.WithValue(ctx, userKey{}, user), lang, nil
	}
	sess, err := s.cfg.Sessions.Verify(ctx, tok)
	if err != nil {
		return nil, "", refusedToken(err)
	}
	ctx = context.WithValue(ctx, userKey{}, sess.User)
	return context.WithValue(ctx, sessionKey{}, sess.ID), sess.Language, nil
}

// refusedToken is the answer to a token that was refused: the database
// being away stays a 503.
func refusedToken(err error) error {
	switch {
	case unavailable(err):
		return err
	case errors.Is(err, auth.ErrSignedOut):
		return unauthenticated("error.signed_out")
	case !errors.Is(err, auth.ErrInvalidToken):
		return err
	}
	return unauthenticated(tokenProblem(err))
}

// sessionOnly refuses, with a 403, what only a signed-in session may do
// (an API token cannot make API tokens, nor sign anyone out); what is a
// key of the API's catalog.
func sessionOnly(ctx context.Context, what string) (string, error) {
	id, ok := sessionOf(ctx)
	if !ok {
		return "", fail(http.StatusForbidden, codeForbidden, "error.session_only", games.T(what))
	}
	return id, nil
}

// Logout signs out the caller's session on the server: its token is
// refused from now on, on the API and the web.
func (s *Server) Logout(ctx context.Context, _ LogoutRequestObject) (LogoutResponseObject, error) {
	id, err := sessionOnly(ctx, "what.sign_out")
	if err != nil {
		return nil, err
	}
	if err := s.cfg.Sessions.Revoke(ctx, userOf(ctx), id); err != nil {
		return nil, err
	}
	return Logout204Response{}, nil
}

// LogoutEverywhere signs out every session of the caller's account, this
// one included, on every device (web and API). API tokens stay.
func (s *Server) LogoutEverywhere(ctx context.Context, _ LogoutEverywhereRequestObject) (LogoutEverywhereResponseObject, error) {
	if _, err := sessionOnly(ctx, "what.sign_out_everywhere"); err != nil {
		return nil, err
	}
	n, err := s.cfg.Sessions.RevokeAll(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	s.log.InfoContext(ctx, "signed out everywhere", "user", userOf(ctx), "sessions", n)
	return LogoutEverywhere204Response{}, nil
}

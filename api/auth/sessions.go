package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrSignedOut is wrapped (with ErrInvalidToken) by the refusal of a
// session that was signed out, by itself or by "sign out everywhere", or
// whose account was erased.
var ErrSignedOut = errors.New("this session was signed out")

// Session is one signed-in session: the web's cookie and the API's bearer
// token are the same kind of session.
type Session struct {
	ID        string // the token's jti, the sessions row's key
	User      string
	ExpiresAt time.Time
	// Language is the account's language setting ("" for none), read by
	// Verify with the session: a door answers in it without another query
	// (ChooseLanguage).
	Language string
}

// Sessions are signed-in people's sessions: short-lived JWTs (purpose
// session) that name a row of the sessions table, so that a session can
// end on the server before its token expires. Verify costs one lookup by
// primary key.
type Sessions struct {
	tokens *Tokens
	pool   *pgxpool.Pool
	now    func() time.Time
}

// NewSessions returns the sessions signed by tokens and kept on pool; now
// is the clock (the same as tokens').
func NewSessions(pool *pgxpool.Pool, tokens *Tokens, now func() time.Time) *Sessions {
	return &Sessions{tokens: tokens, pool: pool, now: now}
}

// TTL is how long a session lasts unless it is signed out.
func (s *Sessions) TTL() time.Duration { return s.tokens.TTL() }

// sessionsKept is how long a session's row is kept after it expires (past
// any clock difference), before the next sign-in deletes it.
const sessionsKept = time.Hour

// Open starts a session for user and returns it with its token. It refuses
// an unknown or erased account (ErrNoUser). It also deletes a few sessions
// that expired, so the table does not grow.
func (s *Sessions) Open(ctx context.Context, user string) (Session, string, error) {
	sess := Session{ID: "s" + randomText(16), User: user}
	tok, exp, err := s.tokens.issue(user, PurposeSession, sess.ID)
	if err != nil {
		return Session{}, "", fmt.Errorf("open a session: %w", err)
	}
	sess.ExpiresAt = exp
	now := s.now()
	tag, err := s.pool.Exec(ctx, `with gone as (
			delete from sessions where id in (select id from sessions where expires_at < $5 limit 100)
		)
		insert into sessions (id, user_id, created_at, expires_at)
		select $1, id, $3, $4 from users where id = $2 and erased_at is null`,
		sess.ID, user, now, exp, now.Add(-sessionsKept))
	if err != nil {
		return Session{}, "", fmt.Errorf("open a session: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return Session{}, "", ErrNoUser
	}
	return sess, tok, nil
}

// Verify checks a session token: its signature, purpose and expiry (as
// Tokens.Verify does), then that its session is still open on the server,
// and reads the account's language setting with it (one lookup).
// Every refusal wraps ErrInvalidToken; a signed-out session's also wraps
// ErrSignedOut.
func (s *Sessions) Verify(ctx context.Context, token string) (Session, error) {
	c, err := s.tokens.verify(token, PurposeSession)
	if err != nil {
		return Session{}, err
	}
	if c.ID == "" {
		return Session{}, fmt.Errorf("%w: the token names no session (it is older than sign-out); sign in again", ErrInvalidToken)
	}
	var revoked *time.Time
	var lang *string
	err = s.pool.QueryRow(ctx, `select s.revoked_at, coalesce(u.language, u.noted_language) from sessions s join users u on u.id = s.user_id
		where s.id = $1 and s.user_id = $2`, c.ID, c.Subject).Scan(&revoked, &lang)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && revoked != nil) {
		return Session{}, fmt.Errorf("%w: %w; sign in again", ErrInvalidToken, ErrSignedOut)
	}
	if err != nil {
		return Session{}, fmt.Errorf("check a session: %w", err)
	}
	sess := Session{ID: c.ID, User: c.Subject}
	if lang != nil {
		sess.Language = *lang
	}
	if c.ExpiresAt != nil {
		sess.ExpiresAt = c.ExpiresAt.Time
	}
	return sess, nil
}

// Revoke signs out one of user's sessions (signing out twice, or a
// session that is not user's, changes nothing).
func (s *Sessions) Revoke(ctx context.Context, user, id string) error {
	if _, err := s.pool.Exec(ctx, `update sessions set revoked_at = $3
		where id = $1 and user_id = $2 and revoked_at is null`, id, user, s.now()); err != nil {
		return fmt.Errorf("sign out session %s: %w", id, err)
	}
	return nil
}

// RevokeAll signs out every open session of user, on every device, the
// web's and the API's, and returns how many there were. Personal API
// tokens are not sessions: they stay until revoked one by one.
func (s *Sessions) RevokeAll(ctx context.Context, user string) (int64, error) {
	tag, err := s.pool.Exec(ctx, `update sessions set revoked_at = $2
		where user_id = $1 and revoked_at is null`, user, s.now())
	if err != nil {
		return 0, fmt.Errorf("sign out every session of account %s: %w", user, err)
	}
	return tag.RowsAffected(), nil
}

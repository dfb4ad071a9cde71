package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// apiTokenPrefix starts every personal API token, so that a token is told
// from a session JWT at a glance (and by secret scanners).
const apiTokenPrefix = "courrier_"

// The refusals of the API token store.
var (
	ErrNoToken      = errors.New("no such API token")
	ErrBadTokenName = errors.New("bad API token name")
)

// APIToken is a personal API token as its owner sees it (never its
// secret, which is shown once, when made).
type APIToken struct {
	ID         string
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// APITokens stores personal API tokens for bots and scripts: long-lived,
// revocable, kept only as their SHA-256.
type APITokens struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// NewAPITokens returns the API token store on pool; now is the clock.
func NewAPITokens(pool *pgxpool.Pool, now func() time.Time) *APITokens {
	return &APITokens{pool: pool, now: now}
}

// IsAPIToken reports whether a bearer token is a personal API token (rather
// than a session JWT).
func IsAPIToken(tok string) bool { return strings.HasPrefix(tok, apiTokenPrefix) }

// randomText is n random bytes in lower-case base 32.
func randomText(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error (Go 1.24+)
	return linkEncoding.EncodeToString(b)
}

// Create makes a token named name for user and returns it with its secret,
// "courrier_<id>_<random>", which is never shown again.
func (a *APITokens) Create(ctx context.Context, user, name string) (APIToken, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 80 {
		return APIToken{}, "", problem(ErrBadTokenName, "problem.token_name")
	}
	t := APIToken{ID: "t" + randomText(10), Name: name, CreatedAt: a.now().UTC()}
	secret := apiTokenPrefix + t.ID + "_" + randomText(32)
	tag, err := a.pool.Exec(ctx, `insert into api_tokens (id, user_id, name, hash, created_at)
		select $1, id, $3, $4, $5 from users where id = $2 and erased_at is null`,
		t.ID, user, t.Name, hashSecret(secret), t.CreatedAt)
	if err != nil {
		return APIToken{}, "", fmt.Errorf("create an API token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return APIToken{}, "", ErrNoUser
	}
	return t, secret, nil
}

// List returns user's tokens, newest first, revoked ones included.
func (a *APITokens) List(ctx context.Context, user string) ([]APIToken, error) {
	rows, err := a.pool.Query(ctx, `select id, name, created_at, last_used_at, revoked_at from api_tokens
		where user_id = $1 order by created_at desc, id`, user)
	if err != nil {
		return nil, fmt.Errorf("list API tokens: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (APIToken, error) {
		var t APIToken
		err := r.Scan(&t.ID, &t.Name, &t.CreatedAt, &t.LastUsedAt, &t.RevokedAt)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("list API tokens: %w", err)
	}
	return list, nil
}

// Revoke revokes one of user's tokens for good (ErrNoToken when user has no
// such token; revoking twice is not an error).
func (a *APITokens) Revoke(ctx context.Context, user, id string) error {
	tag, err := a.pool.Exec(ctx, `update api_tokens set revoked_at = coalesce(revoked_at, $3)
		where id = $1 and user_id = $2`, id, user, a.now())
	if err != nil {
		return fmt.Errorf("revoke API token %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNoToken
	}
	return nil
}

// Verify returns the user of a valid token: known, not revoked, its account
// not erased. Refusals wrap ErrInvalidToken. It records when the token was
// last used (at most once a minute, to keep verification a read).
func (a *APITokens) Verify(ctx context.Context, secret string) (string, error) {
	user, _, err := a.Caller(ctx, secret)
	return user, err
}

// Caller is Verify that also returns the account's language setting (""
// for none), read in the same lookup: a door answers in it
// (ChooseLanguage).
func (a *APITokens) Caller(ctx context.Context, secret string) (user, language string, err error) {
	if !IsAPIToken(secret) {
		return "", "", fmt.Errorf("%w: not an API token", ErrInvalidToken)
	}
	var id string
	var lang *string
	var lastUsed, revoked *time.Time
	err = a.pool.QueryRow(ctx, `select t.id, t.user_id, t.last_used_at, t.revoked_at, coalesce(u.language, u.noted_language) from api_tokens t
		join users u on u.id = t.user_id and u.erased_at is null where t.hash = $1`, hashSecret(secret)).
		Scan(&id, &user, &lastUsed, &revoked, &lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("%w: unknown API token", ErrInvalidToken)
	}
	if err != nil {
		return "", "", fmt.Errorf("verify an API token: %w", err)
	}
	if revoked != nil {
		return "", "", fmt.Errorf("%w: this API token was revoked", ErrInvalidToken)
	}
	now := a.now()
	if lastUsed == nil || now.Sub(*lastUsed) > time.Minute {
		if _, err := a.pool.Exec(ctx, `update api_tokens set last_used_at = $2 where id = $1`, id, now); err != nil {
			return "", "", fmt.Errorf("verify an API token: %w", err)
		}
	}
	if lang != nil {
		language = *lang
	}
	return user, language, nil
}

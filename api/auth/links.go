package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// LinkTTL is how long a sign-in link works.
const LinkTTL = 15 * time.Minute

// MaxLinksPerHour bounds the sign-in links one account may be sent in an
// hour, so that nobody can flood an address with them.
const MaxLinksPerHour = 5

// The reasons a sign-in link is refused.
var (
	ErrLinkUnknown  = errors.New("unknown sign-in link")
	ErrLinkUsed     = errors.New("sign-in link already used")
	ErrLinkExpired  = errors.New("sign-in link expired")
	ErrTooManyLinks = errors.New("too many sign-in links in the last hour")
)

// Links issues and consumes magic sign-in links: single use, LinkTTL long.
// A link's secret is derived from its id with a key kept outside the
// database (LinkSecret), so neither the links table nor the job that mails
// the link holds it; the table keeps only the secret's SHA-256.
type Links struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// NewLinks returns the sign-in links on pool; now is the clock.
func NewLinks(pool *pgxpool.Pool, now func() time.Time) *Links {
	return &Links{pool: pool, now: now}
}

// linkEncoding writes secrets in lower-case base 32, without padding: safe
// in a URL and in a mail line.
var linkEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// LinkSecret is the secret of sign-in link id under key: HMAC-SHA256 of the
// id, in lower-case base 32 (52 characters).
func LinkSecret(key []byte, id int64) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("courrier sign-in link " + strconv.FormatInt(id, 10)))
	return linkEncoding.EncodeToString(mac.Sum(nil))
}

// hashSecret is what the database keeps of a secret.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Issue makes a sign-in link for userID and, in the same transaction, calls
// queue with the link's id (to queue the mail that carries it), so a link
// exists exactly when its mail is on its way. It refuses with
// ErrTooManyLinks past MaxLinksPerHour links in the last hour. SignIn.Request
// is what the doors call: it makes the account too.
func (l *Links) Issue(ctx context.Context, key []byte, userID string, queue func(ctx context.Context, tx pgx.Tx, linkID int64) error) error {
	if err := checkLinkKey(key); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		id, err := l.issue(ctx, tx, key, userID)
		if err != nil {
			return err
		}
		if err := queue(ctx, tx, id); err != nil {
			return fmt.Errorf("queue the sign-in mail: %w", err)
		}
		return nil
	})
}

// checkLinkKey refuses a key too short to derive secrets with.
func checkLinkKey(key []byte) error {
	if len(key) < 32 {
		return errors.New("issue a sign-in link: the link key needs at least 32 bytes")
	}
	return nil
}

// issue makes a sign-in link for userID in tx and returns its id.
func (l *Links) issue(ctx context.Context, tx pgx.Tx, key []byte, userID string) (int64, error) {
	now := l.now()
	// One account's requests queue behind each other, so the count below
	// cannot be raced past.
	var erased *time.Time
	err := tx.QueryRow(ctx, `select erased_at from users where id = $1 for update`, userID).Scan(&erased)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && erased != nil) {
		return 0, ErrNoUser
	}
	if err != nil {
		return 0, fmt.Errorf("issue a sign-in link: %w", err)
	}
	var recent int
	if err := tx.QueryRow(ctx, `select count(*) from login_links where user_id = $1 and created_at > $2`,
		userID, now.Add(-time.Hour)).Scan(&recent); err != nil {
		return 0, fmt.Errorf("issue a sign-in link: count the recent ones: %w", err)
	}
	if recent >= MaxLinksPerHour {
		return 0, ErrTooManyLinks
	}
	var id int64
	if err := tx.QueryRow(ctx, `insert into login_links (user_id, created_at, expires_at) values ($1, $2, $3) returning id`,
		userID, now, now.Add(LinkTTL)).Scan(&id); err != nil {
		return 0, fmt.Errorf("issue a sign-in link: %w", err)
	}
	if _, err := tx.Exec(ctx, `update login_links set hash = $2 where id = $1`, id, hashSecret(LinkSecret(key, id))); err != nil {
		return 0, fmt.Errorf("issue a sign-in link: %w", err)
	}
	return id, nil
}

// Consume uses a sign-in link once and returns its account's id. A second
// use, an expired link, an unknown secret or an erased account is refused
// (ErrLinkUsed, ErrLinkExpired, ErrLinkUnknown, ErrNoUser).
func (l *Links) Consume(ctx context.Context, secret string) (string, error) {
	secret = strings.ToLower(strings.TrimSpace(secret))
	if secret == "" {
		return "", ErrLinkUnknown
	}
	h := hashSecret(secret)
	now := l.now()
	var user string
	// Using a link proves the address: the account is confirmed with it.
	err := l.pool.QueryRow(ctx, `with used as (
			update login_links l set used_at = $2
			from users u
			where l.hash = $1 and l.used_at is null and l.expires_at > $2 and u.id = l.user_id and u.erased_at is null
			returning l.user_id
		), confirmed as (
			update users set confirmed_at = coalesce(confirmed_at, $2), bounced_at = null where id in (select user_id from used)
		)
		select user_id from used`, h, now).Scan(&user)
	if err == nil {
		return user, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("use a sign-in link: %w", err)
	}
	var used *time.Time
	var expires time.Time
	err = l.pool.QueryRow(ctx, `select used_at, expires_at from login_links where hash = $1`, h).Scan(&used, &expires)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", ErrLinkUnknown
	case err != nil:
		return "", fmt.Errorf("use a sign-in link: %w", err)
	case used != nil:
		return "", ErrLinkUsed
	case !expires.After(now):
		return "", ErrLinkExpired
	}
	return "", ErrNoUser // the link is good, but its account was erased
}

// Valid reports whether a sign-in link could still be used, without using
// it (the page a link opens asks for a confirmation first).
func (l *Links) Valid(ctx context.Context, secret string) (bool, error) {
	var ok bool
	err := l.pool.QueryRow(ctx, `select exists (select 1 from login_links
		where hash = $1 and used_at is null and expires_at > $2)`,
		hashSecret(strings.ToLower(strings.TrimSpace(secret))), l.now()).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("check a sign-in link: %w", err)
	}
	return ok, nil
}

package auth

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"github.com/courrier-games/courrier/games"
	"net/mail"
	"strings"
	"time"
	_ "time/tzdata" // time zone names work on a machine without a zoneinfo database
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// User is a person's account. Everywhere else (the event log, the
// projections, seats, JWT subjects) a person is only their ID, an opaque
// string; the address lives here alone, so it can change, and an account can
// be erased, without touching the log.
type User struct {
	ID       string
	Email    string // empty once erased
	Name     string // the display name the person chose; empty: none yet
	TimeZone string // IANA name ("Europe/Paris"); empty: UTC
	// Language is the language the player chose ("fr"): one of
	// games.Languages; empty: not chosen yet (see ChooseLanguage).
	Language string
	// NotedLanguage is the language courrier noted before they chose one
	// (NoteLanguage); empty: none.
	NotedLanguage string
	CreatedAt     time.Time
	// ConfirmedAt is when the owner proved they read mail at the address
	// (a sign-in link used, a confirmation answered, a mail whose DMARC
	// pass a trusted relay vouched for); nil: never.
	ConfirmedAt *time.Time
}

// Users is the store of accounts.
type Users struct {
	pool *pgxpool.Pool
}

// NewUsers returns the account store on pool.
func NewUsers(pool *pgxpool.Pool) *Users { return &Users{pool: pool} }

// ErrNoUser is returned when no account matches.
var ErrNoUser = errors.New("no such user")

// NormalizeEmail checks an address and returns it trimmed, with its domain
// in lower case; the local part keeps its case (it belongs to the domain),
// but lookups ignore case.
func NormalizeEmail(email string) (string, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Name != "" {
		return "", problem(nil, "problem.address", email)
	}
	at := strings.LastIndexByte(addr.Address, '@')
	if at <= 0 {
		return "", problem(nil, "problem.address", email)
	}
	return addr.Address[:at] + strings.ToLower(addr.Address[at:]), nil
}

// Ensure returns the account of email, creating it with a new opaque id the
// first time the address is seen.
func (u *Users) Ensure(ctx context.Context, email string) (User, error) {
	addr, err := NormalizeEmail(email)
	if err != nil {
		return User{}, err
	}
	return ensure(ctx, u.pool, addr)
}

// querier runs a query on the pool or in a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ensure returns the account of the normalized address addr, creating it
// the first time, through q (the pool, or a transaction the account is
// made in).
func ensure(ctx context.Context, q querier, addr string) (User, error) {
	for range 3 {
		user, err := byEmail(ctx, q, addr)
		if err == nil {
			return user, nil
		}
		if !errors.Is(err, ErrNoUser) {
			return User{}, err
		}
		user = User{ID: NewUserID(), Email: addr}
		err = q.QueryRow(ctx, `insert into users (id, email) values ($1, $2)
			on conflict do nothing returning created_at`, user.ID, addr).Scan(&user.CreatedAt)
		if err == nil {
			return user, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return User{}, fmt.Errorf("create the account of an address: %w", err)
		}
		// Someone created it meanwhile: read it again.
	}
	return User{}, errors.New("create the account of an address: it kept changing; try again")
}

// ByEmail finds the account of an address (case-insensitively).
func (u *Users) ByEmail(ctx context.Context, email string) (User, error) {
	return byEmail(ctx, u.pool, email)
}

func byEmail(ctx context.Context, q querier, email string) (User, error) {
	var user User
	var name, tz, lang, noted *string
	err := q.QueryRow(ctx, `select id, email, name, time_zone, language, noted_language, created_at, confirmed_at from users where lower(email) = lower($1)`, email).
		Scan(&user.ID, &user.Email, &name, &tz, &lang, &noted, &user.CreatedAt, &user.ConfirmedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrNoUser
	}
	if err != nil {
		return User{}, fmt.Errorf("find the account of an address: %w", err)
	}
	if name != nil {
		user.Name = *name
	}
	if tz != nil {
		user.TimeZone = *tz
	}
	if lang != nil {
		user.Language = *lang
	}
	if noted != nil {
		user.NotedLanguage = *noted
	}
	return user, nil
}

// ByID finds an account by its id; an erased account has no address.
func (u *Users) ByID(ctx context.Context, id string) (User, error) {
	var user User
	var email, name, tz, lang, noted *string
	err := u.pool.QueryRow(ctx, `select id, email, name, time_zone, language, noted_language, created_at, confirmed_at from users where id = $1`, id).
		Scan(&user.ID, &email, &name, &tz, &lang, &noted, &user.CreatedAt, &user.ConfirmedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrNoUser
	}
	if err != nil {
		return User{}, fmt.Errorf("find account %s: %w", id, err)
	}
	if email != nil {
		user.Email = *email
	}
	if name != nil {
		user.Name = *name
	}
	if tz != nil {
		user.TimeZone = *tz
	}
	if lang != nil {
		user.Language = *lang
	}
	if noted != nil {
		user.NotedLanguage = *noted
	}
	return user, nil
}

// Confirm records that the owner of account id proved they read mail at
// its address; confirming again keeps the first time.
func (u *Users) Confirm(ctx context.Context, id string) error {
	if _, err := u.pool.Exec(ctx, `update users set confirmed_at = coalesce(confirmed_at, now()) where id = $1 and erased_at is null`, id); err != nil {
		return fmt.Errorf("confirm account %s: %w", id, err)
	}
	return nil
}

// ConfirmAddress confirms the account of email, if there is one (a reply
// to a mail courrier sent there proves it).
func (u *Users) ConfirmAddress(ctx context.Context, email string) error {
	if _, err := u.pool.Exec(ctx, `update users set confirmed_at = coalesce(confirmed_at, now()) where lower(email) = lower($1) and erased_at is null`, email); err != nil {
		return fmt.Errorf("confirm the account of an address: %w", err)
	}
	return nil
}

// ChangeEmail gives an account a new address, which is not confirmed
// until its owner proves it.
func (u *Users) ChangeEmail(ctx context.Context, id, email string) error {
	addr, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	tag, err := u.pool.Exec(ctx, `update users set email = $2,
		confirmed_at = case when lower(email) = lower($2) then confirmed_at end
		where id = $1 and erased_at is null`, id, addr)
	if err != nil {
		return fmt.Errorf("change the address of account %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNoUser
	}
	return nil
}

// Erase removes an account's address for good, and what its commands
// brought that was personal (remote addresses, mail headers: the
// event_context rows), and ends its sessions and API tokens; its id stays
// in the log, where it never meant anything outside courrier.
func (u *Users) Erase(ctx context.Context, id string) error {
	return pgx.BeginFunc(ctx, u.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `update users set email = null, erased_at = now() where id = $1 and erased_at is null`, id)
		if err != nil {
			return fmt.Errorf("erase account %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return ErrNoUser
		}
		if _, err := tx.Exec(ctx, `delete from event_context where user_id = $1`, id); err != nil {
			return fmt.Errorf("erase the context of account %s's commands: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `update users set name = null where id = $1`, id); err != nil {
			return fmt.Errorf("erase the name of account %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `delete from login_links where user_id = $1`, id); err != nil {
			return fmt.Errorf("erase the sign-in links of account %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `update api_tokens set revoked_at = coalesce(revoked_at, now()) where user_id = $1`, id); err != nil {
			return fmt.Errorf("revoke the API tokens of account %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `update sessions set revoked_at = now() where user_id = $1 and revoked_at is null`, id); err != nil {
			return fmt.Errorf("sign out the sessions of account %s: %w", id, err)
		}
		return nil
	})
}

// MaxNameLength is the longest display name, in characters.
const MaxNameLength = 40

// ErrBadName is wrapped by SetName's refusals; the message says why.
var ErrBadName = errors.New("bad display name")

// CheckName trims a display name and checks it: 1 to MaxNameLength
// printable characters, no line breaks or control characters (a name shows
// in mail headers and on pages).
func CheckName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return "", problem(ErrBadName, "problem.name_empty")
	}
	if n > MaxNameLength {
		return "", problem(ErrBadName, "problem.name_long", MaxNameLength, n)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", problem(ErrBadName, "problem.name_char", fmt.Sprintf("%U", r))
		}
	}
	return name, nil
}

// SetName sets an account's display name (checked by CheckName).
func (u *Users) SetName(ctx context.Context, id, name string) error {
	name, err := CheckName(name)
	if err != nil {
		return err
	}
	tag, err := u.pool.Exec(ctx, `update users set name = $2 where id = $1 and erased_at is null`, id, name)
	if err != nil {
		return fmt.Errorf("set the name of account %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNoUser
	}
	return nil
}

// ErrBadTimeZone is wrapped by SetTimeZone's refusals.
var ErrBadTimeZone = errors.New("bad time zone")

// CheckTimeZone checks a time zone name as SetTimeZone takes it: an IANA
// name ("Europe/Paris"), "" or "UTC"; a refusal is a *Problem wrapping
// ErrBadTimeZone. It touches no database.
func CheckTimeZone(tz string) error {
	tz = strings.TrimSpace(tz)
	if _, err := time.LoadLocation(tz); err != nil || len(tz) > 64 || strings.EqualFold(tz, "local") {
		return problem(ErrBadTimeZone, "problem.time_zone", tz)
	}
	return nil
}

// SetTimeZone sets the time zone an account's mail writes times in: an
// IANA name ("Europe/Paris"); "" or "UTC" for UTC.
func (u *Users) SetTimeZone(ctx context.Context, id, tz string) error {
	tz = strings.TrimSpace(tz)
	if err := CheckTimeZone(tz); err != nil {
		return err
	}
	var v *string
	if tz != "" && tz != "UTC" {
		v = &tz
	}
	tag, err := u.pool.Exec(ctx, `update users set time_zone = $2 where id = $1 and erased_at is null`, id, v)
	if err != nil {
		return fmt.Errorf("set the time zone of account %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNoUser
	}
	return nil
}

// ErrBadLanguage is wrapped by SetLanguage's refusals.
var ErrBadLanguage = errors.New("bad language")

// CheckLanguage returns the language of games.Languages that tag names
// ("fr", "en", "fr-BE" for French), or a *Problem wrapping ErrBadLanguage.
// It touches no database.
func CheckLanguage(tag string) (string, error) {
	lang, ok := games.Language(tag)
	if !ok || strings.TrimSpace(tag) == "" {
		return "", problem(ErrBadLanguage, "problem.language", tag, strings.Join(games.Languages(), ", "))
	}
	return lang, nil
}

// SetLanguage sets the language an account reads: a tag of
// games.Languages ("fr", "en", "fr-BE" for French); a refusal is a
// *Problem wrapping ErrBadLanguage, and nothing is changed.
func (u *Users) SetLanguage(ctx context.Context, id, tag string) error {
	lang, err := CheckLanguage(tag)
	if err != nil {
		return err
	}
	tag2, err := u.pool.Exec(ctx, `update users set language = $2 where id = $1 and erased_at is null`, id, lang)
	if err != nil {
		return fmt.Errorf("set the language of account %s: %w", id, err)
	}
	if tag2.RowsAffected() == 0 {
		return ErrNoUser
	}
	return nil
}

// NoteLanguage notes lang as an account's language only when it has
// neither chosen one nor had one noted: the language of the first mail
// command it wrote, or of the browser it first came with. A noted language
// is not a choice (GET /v1/me shows none, and decision 5's order still
// lets a command's own language win); it is what courrier writes in when
// nothing else tells. It reports whether it noted it.
func (u *Users) NoteLanguage(ctx context.Context, id, lang string) (bool, error) {
	lang, ok := games.Language(lang)
	if !ok {
		return false, nil
	}
	tag, err := u.pool.Exec(ctx, `update users set noted_language = $2
		where id = $1 and language is null and noted_language is null and erased_at is null`, id, lang)
	if err != nil {
		return false, fmt.Errorf("note the language of account %s: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}

// ChooseLanguage is the language to write to a person in: their setting,
// else the language of the command they used (a mail command's words;
// "" when unknown), else their browser's Accept-Language header, else
// English.
func ChooseLanguage(setting, command, acceptLanguage string) string {
	if l, ok := games.Language(setting); ok {
		return l
	}
	if l, ok := games.Language(command); ok {
		return l
	}
	if l, ok := games.AcceptLanguage(acceptLanguage); ok {
		return l
	}
	return games.English
}

// Lang is the language to write to u in when nothing else is known: their
// setting, else the language noted, else English.
func (u User) Lang() string { return ChooseLanguage(u.Language, u.NotedLanguage, "") }

// Known is the language u reads as far as courrier knows: their setting,
// else the language it noted, else "".
func (u User) Known() string { return cmp.Or(u.Language, u.NotedLanguage) }

// DisplayName is the name the user chose, else their address's local part
// capitalised ("player" once erased).
func (u User) DisplayName() string {
	if u.Name != "" {
		return u.Name
	}
	local, _, _ := strings.Cut(u.Email, "@")
	if local == "" {
		return "player"
	}
	return strings.ToUpper(local[:1]) + local[1:]
}

// Location is the account's time zone (UTC when none or unknown).
func (u User) Location() *time.Location {
	if u.TimeZone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(u.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// NewUserID returns a fresh opaque user id: "u" and 20 random base-32
// characters.
func NewUserID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [20]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = alphabet[c%32]
	}
	return "u" + string(out)
}

package auth

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/games"
)

// The kinds of mail a player may turn on or off, by game or for all games.
// The mail side sends each under this name (notify's Kind constants are
// these); a sign-in link and the answer to a person's own mail are not
// among them: they are always sent.
const (
	MailPrompt     = "prompt"     // a seat's turn: its view and its moves
	MailReminder   = "reminder"   // a seat's turn again, before its deadline
	MailReceipt    = "receipt"    // a move made by mail was played
	MailGameOver   = "game_over"  // how a game ended, with its seed
	MailNotice     = "notice"     // a dispute in a game, or the referee's ruling
	MailInvitation = "invitation" // an invitation to take a seat
	// MailTalk is table talk mailed at once, each message as it is said;
	// off unless the player turns it on (every other mail about a game
	// carries the talk not yet mailed anyway).
	MailTalk = "talk"
)

// MailKind describes a kind of mail for the pages and the API that show
// and change the preferences.
type MailKind struct {
	ID    string // one of the Mail* constants, as stored and as the API names it
	Label string // a short name: "Your turn"
	About string // one sentence: what the mail says
	// PerGame says whether the kind may be set per game: an invitation is
	// about a game one has not joined, so invitations are set for all
	// games only.
	PerGame bool
}

// mailKinds is the one list of the kinds: MailKinds copies it.
var mailKinds = []MailKind{
	{MailPrompt, "Your turn", "the game as your seat sees it and your moves, when it is your turn", true},
	{MailReminder, "Reminders", "your turn again, at half the time allowed and 6 hours before a deadline", true},
	{MailReceipt, "Receipts", "a move you made by mail was played", true},
	{MailGameOver, "Results", "how a game ended, with its seed to check the draws", true},
	{MailNotice, "Disputes", "a dispute raised in a game, and the referee's ruling", true},
	{MailInvitation, "Invitations", "someone invites you to a new game", false},
	{MailTalk, "Table talk", "each message said at the table, at once (your other mails about the game carry it anyway); off unless you turn it on", true},
}

// offByDefault reports whether mail of kind is off unless the player turns
// it on: a setting for every kind only turns it off, never on.
func offByDefault(kind string) bool { return kind == MailTalk }

// LabelIn is the kind's short name in lang ("Your turn", "À vous de
// jouer").
func (k MailKind) LabelIn(lang string) string {
	return words.In(lang).Must(games.T("mailkind." + k.ID))
}

// AboutIn is what the kind's mail says, in lang.
func (k MailKind) AboutIn(lang string) string {
	return words.In(lang).Must(games.T("mailkind." + k.ID + ".about"))
}

// MailKinds lists the kinds of mail a player may turn on or off, in the
// order pages show them.
func MailKinds() []MailKind { return slices.Clone(mailKinds) }

// mailKind finds a kind by id.
func mailKind(id string) (MailKind, bool) {
	i := slices.IndexFunc(mailKinds, func(k MailKind) bool { return k.ID == id })
	if i < 0 {
		return MailKind{}, false
	}
	return mailKinds[i], true
}

// mailKindIDs is "prompt, reminder, …": the valid kinds, for messages.
func mailKindIDs() string {
	ids := make([]string, len(mailKinds))
	for i, k := range mailKinds {
		ids[i] = k.ID
	}
	return strings.Join(ids, ", ")
}

// PlayerGame is a game as the preferences name it.
type PlayerGame struct {
	ID   string
	Name string // the game's name ("Coup"); empty when unknown
}

// PlayerGames lists the games user plays, played or is invited to, most
// recent first. play knows the games, auth does not: the caller that
// builds MailPreferences passes play's list.
type PlayerGames func(ctx context.Context, user string) ([]PlayerGame, error)

// MailSetting is one stored preference: mail of Kind ("" for every kind)
// about Game ("" for every game) is On or off.
type MailSetting struct {
	Game string
	Kind string
	On   bool
}

// GameMail is what a player gets by mail about one game.
type GameMail struct {
	Game PlayerGame
	// Mail is whether each kind that may be set per game is sent: the
	// game's own setting, else the setting for all games, else on.
	Mail map[string]bool
	// Settings are the game's own settings (its overrides), for every
	// kind first.
	Settings []MailSetting
}

// MailSettings is a player's mail preferences as they apply.
type MailSettings struct {
	// AllGames is whether each kind is sent about a game that has no
	// setting of its own.
	AllGames map[string]bool
	// Settings are the settings for all games, for every kind first.
	Settings []MailSetting
	// Games are the player's games (and any other game they set
	// something for), most recent first.
	Games []GameMail
	// Bounced says mail to the player's address bounced: nothing is sent
	// to it, whatever the settings, until its owner signs in by a mailed
	// link or writes to courrier from it.
	Bounced bool
}

// MailChange changes one preference: mail of Kind ("" for every kind)
// about Game ("" for every game).
type MailChange struct {
	Game string
	Kind string
	// On turns the mail on or off; nil removes the setting, so that the
	// broader one applies again (for all games: on).
	On *bool
}

// MailError is a change refused: an unknown kind or game. Nothing was
// changed. Problems are in English; Said, when set, are the same problems
// in every language (ProblemsIn).
type MailError struct {
	Problems []string
	Said     []games.Phrase
}

// Error implements error.
func (e *MailError) Error() string { return strings.Join(e.Problems, "; ") }

// ProblemsIn are the problems said in lang.
func (e *MailError) ProblemsIn(lang string) []string {
	if len(e.Said) != len(e.Problems) {
		return e.Problems
	}
	out := make([]string, len(e.Said))
	for i, p := range e.Said {
		out[i] = p.In(lang)
	}
	return out
}

// Explain says the problems in lang (see games.Explainer).
func (e *MailError) Explain(lang string) string { return strings.Join(e.ProblemsIn(lang), "; ") }

// mailError is the *MailError of problems.
func mailError(problems ...games.Phrase) *MailError {
	e := &MailError{Said: problems}
	for _, p := range problems {
		e.Problems = append(e.Problems, p.In(games.English))
	}
	return e
}

// MailPreferences stores who gets which mail: a player × a game (or all
// games) × a kind (or all kinds), on or off. The most specific setting
// wins (the game and the kind, the game, the kind, all); with none, mail
// is on. The one-click link in a game's mail turns that game's mail off,
// "reminders off" by mail turns reminders off for all games, and the
// settings page and the API show and change them all.
type MailPreferences struct {
	pool  *pgxpool.Pool
	games PlayerGames
}

// NewMailPreferences returns the preferences on pool. games lists a
// player's games for Get and checks the games a Change names; nil (the
// mail side, which never asks): Get shows only the games that have
// settings, and Change takes any game.
func NewMailPreferences(pool *pgxpool.Pool, games PlayerGames) *MailPreferences {
	return &MailPreferences{pool: pool, games: games}
}

// MailPreferences returns the mail preferences of the accounts in u's
// database; games lists a player's games (see NewMailPreferences).
func (u *Users) MailPreferences(games PlayerGames) *MailPreferences {
	return NewMailPreferences(u.pool, games)
}

// Wants reports whether user gets mail of kind about game ("" when the
// mail is about no game): the most specific setting wins; default on.
// An address that bounced (users.bounced_at) gets nothing. One query.
func (p *MailPreferences) Wants(ctx context.Context, user, game, kind string) (bool, error) {
	var on bool
	if offByDefault(kind) {
		// Off unless the kind itself is on (for the game, else for all
		// games), and never when everything about the game is off.
		err := p.pool.QueryRow(ctx, `select coalesce((select enabled from mail_preferences
				where user_id = $1 and game_id in ($2, '') and kind = $3
				order by (game_id <> '') desc limit 1), false)
			and not exists (select 1 from mail_preferences where user_id = $1 and game_id in ($2, '') and kind = '' and not enabled)
			and not exists (select 1 from users where id = $1 and bounced_at is not null)`, user, game, kind).Scan(&on)
		if err != nil {
			return false, fmt.Errorf("read mail preferences: %w", err)
		}
		return on, nil
	}
	err := p.pool.QueryRow(ctx, `select coalesce((select enabled from mail_preferences
			where user_id = $1 and game_id in ($2, '') and kind in ($3, '')
			order by (game_id <> '') desc, (kind <> '') desc limit 1), true)
		and not exists (select 1 from users where id = $1 and bounced_at is not null)`, user, game, kind).Scan(&on)
	if err != nil {
		return false, fmt.Errorf("read mail preferences: %w", err)
	}
	return on, nil
}

// Set turns user's mail about game ("" for all games) of kind ("" for all
// kinds) on or off; setting it again is harmless. The caller vouches for
// the game (a signed unsubscribe link names it); Change checks it. See
// Change for what a setting for all kinds replaces.
func (p *MailPreferences) Set(ctx context.Context, user, game, kind string, on bool) error {
	c := MailChange{Game: game, Kind: kind, On: &on}
	if p, ok := checkKind(c); !ok {
		return mailError(p)
	}
	return p.apply(ctx, user, []MailChange{c})
}

// Change applies changes to user's preferences in one transaction, all or
// none: a kind not in MailKinds, a kind that is not set per game named
// with a game, or a game that is not the player's is refused with a
// *MailError naming every problem. A setting for all kinds replaces the
// settings of single kinds of the same scope (a game's, or those for all
// games); a game's own settings outlive any change for all games.
func (p *MailPreferences) Change(ctx context.Context, user string, changes []MailChange) error {
	var problems []games.Phrase
	seen := map[string]bool{}
	problem := func(p games.Phrase) {
		if text := p.In(games.English); !seen[text] {
			seen[text] = true
			problems = append(problems, p)
		}
	}
	for _, c := range changes {
		if p, ok := checkKind(c); !ok {
			problem(p)
		}
	}
	known, err := p.knownGames(ctx, user, changes)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if c.Game != "" && !known[c.Game] {
			problem(words.Phrase("mail.not_your_game", c.Game))
		}
	}
	if len(problems) > 0 {
		return mailError(problems...)
	}
	return p.apply(ctx, user, changes)
}

// checkKind checks a change's kind: ok, or the problem with it.
func checkKind(c MailChange) (games.Phrase, bool) {
	if c.Kind == "" {
		return games.Phrase{}, true
	}
	k, ok := mailKind(c.Kind)
	switch {
	case !ok:
		return words.Phrase("mail.unknown_kind", c.Kind, mailKindIDs()), false
	case c.Game != "" && !k.PerGame:
		return words.Phrase("mail.all_games_only", k.ID, c.Game), false
	}
	return games.Phrase{}, true
}

// knownGames says which of the games changes name user may set: the
// player's games and those they set something for already. Without a
// game lister, every game.
func (p *MailPreferences) knownGames(ctx context.Context, user string, changes []MailChange) (map[string]bool, error) {
	known := map[string]bool{}
	named := false
	for _, c := range changes {
		if c.Game != "" {
			named = true
			if p.games == nil {
				known[c.Game] = true
			}
		}
	}
	if !named || p.games == nil {
		return known, nil
	}
	list, err := p.games(ctx, user)
	if err != nil {
		return nil, fmt.Errorf("list the games of %s: %w", user, err)
	}
	for _, g := range list {
		known[g.ID] = true
	}
	rows, err := p.pool.Query(ctx, `select distinct game_id from mail_preferences where user_id = $1 and game_id <> ''`, user)
	if err != nil {
		return nil, fmt.Errorf("read mail preferences: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("read mail preferences: %w", err)
	}
	for _, id := range ids {
		known[id] = true
	}
	return known, nil
}

// apply writes changes in one transaction.
func (p *MailPreferences) apply(ctx context.Context, user string, changes []MailChange) error {
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		for _, c := range changes {
			// A setting for every kind replaces the scope's single kinds;
			// removing it removes them too.
			if c.Kind == "" || c.On == nil {
				if _, err := tx.Exec(ctx, `delete from mail_preferences where user_id = $1 and game_id = $2
					and (kind = $3 or $3 = '')`, user, c.Game, c.Kind); err != nil {
					return err
				}
			}
			if c.On == nil {
				continue
			}
			if _, err := tx.Exec(ctx, `insert into mail_preferences (user_id, game_id, kind, enabled) values ($1, $2, $3, $4)
				on conflict (user_id, game_id, kind) do update set enabled = excluded.enabled, updated_at = now()`,
				user, c.Game, c.Kind, *c.On); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set mail preferences: %w", err)
	}
	return nil
}

// Get returns user's preferences as they apply: for all games, and for
// each of the player's games. What it says a game's mail is, Wants
// answers for that game and kind (unless the address bounced).
func (p *MailPreferences) Get(ctx context.Context, user string) (MailSettings, error) {
	var out MailSettings
	rows, err := p.pool.Query(ctx, `select game_id, kind, enabled from mail_preferences where user_id = $1
		order by game_id, kind`, user)
	if err != nil {
		return out, fmt.Errorf("read mail preferences: %w", err)
	}
	settings, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (MailSetting, error) {
		var s MailSetting
		err := r.Scan(&s.Game, &s.Kind, &s.On)
		return s, err
	})
	if err != nil {
		return out, fmt.Errorf("read mail preferences: %w", err)
	}
	err = p.pool.QueryRow(ctx, `select exists (select 1 from users where id = $1 and bounced_at is not null)`, user).Scan(&out.Bounced)
	if err != nil {
		return out, fmt.Errorf("read whether mail to %s bounced: %w", user, err)
	}
	var list []PlayerGame
	if p.games != nil {
		if list, err = p.games(ctx, user); err != nil {
			return out, fmt.Errorf("list the games of %s: %w", user, err)
		}
	}
	own := map[string][]MailSetting{}
	for _, s := range settings {
		if s.Game == "" {
			out.Settings = append(out.Settings, s)
			continue
		}
		if _, ok := own[s.Game]; !ok && !slices.ContainsFunc(list, func(g PlayerGame) bool { return g.ID == s.Game }) {
			list = append(list, PlayerGame{ID: s.Game})
		}
		own[s.Game] = append(own[s.Game], s)
	}
	out.AllGames = map[string]bool{}
	for _, k := range mailKinds {
		out.AllGames[k.ID] = effective(out.Settings, nil, k.ID)
	}
	out.Games = make([]GameMail, 0, len(list))
	for _, g := range list {
		gm := GameMail{Game: g, Mail: map[string]bool{}, Settings: own[g.ID]}
		for _, k := range mailKinds {
			if k.PerGame {
				gm.Mail[k.ID] = effective(out.Settings, gm.Settings, k.ID)
			}
		}
		out.Games = append(out.Games, gm)
	}
	return out, nil
}

// effective is Wants's precedence over settings already read: the game's
// setting of the kind, the game's for every kind, the setting of the kind
// for all games, the one for every kind; else on. Settings of a scope are
// sorted by kind, so "" (every kind) comes first.
func effective(all, game []MailSetting, kind string) bool {
	if offByDefault(kind) {
		for _, scope := range [][]MailSetting{game, all} {
			for _, s := range scope {
				if s.Kind == "" && !s.On {
					return false
				}
			}
		}
		for _, scope := range [][]MailSetting{game, all} {
			for _, s := range scope {
				if s.Kind == kind {
					return s.On
				}
			}
		}
		return false
	}
	for _, scope := range [][]MailSetting{game, all} {
		for _, want := range []string{kind, ""} {
			for _, s := range scope {
				if s.Kind == want {
					return s.On
				}
			}
		}
	}
	return true
}

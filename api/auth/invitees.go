package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Invitees finds or creates the accounts of the people a new game names
// (its invitees and its referee) inside the game's own transaction, so that
// a refused game leaves no account behind: play.Accounts, given to play
// with play.WithAccounts.
type Invitees struct{}

// NewInvitees returns the accounts of a new game's invitees.
func NewInvitees() Invitees { return Invitees{} }

// CheckAddress returns the address normalized (NormalizeEmail), or why it
// is not an email address.
func (Invitees) CheckAddress(address string) (string, error) {
	return NormalizeEmail(address)
}

// invitationKind is the kind of mail_preferences row that turns
// invitations off (notify's KindInvitation); "" turns every kind off.
const invitationKind = "invitation"

// Invitee returns the id of the account at address (checked by
// CheckAddress), creating it in tx the first time the address is seen, and
// whether that person asked for no invitations: their most specific
// preference for all games, invitations first, then every kind (the
// precedence of notify's preferences); none means they accept them.
func (Invitees) Invitee(ctx context.Context, tx pgx.Tx, address string) (string, bool, error) {
	for range 3 {
		var id string
		var off bool
		err := tx.QueryRow(ctx, `with found as (select id from users where lower(email) = lower($2)),
			made as (insert into users (id, email) select $1, $2 where not exists (select 1 from found)
				on conflict do nothing returning id),
			u as (select id from found union all select id from made)
			select u.id, coalesce((select not p.enabled from mail_preferences p
				where p.user_id = u.id and p.game_id = '' and p.kind in ($3, '')
				order by (p.kind <> '') desc limit 1), false)
			from u limit 1`, NewUserID(), address, invitationKind).Scan(&id, &off)
		if errors.Is(err, pgx.ErrNoRows) {
			// Another transaction created it meanwhile: the next statement
			// sees it.
			continue
		}
		if err != nil {
			return "", false, fmt.Errorf("find or create the account of an invitee: %w", err)
		}
		return id, off, nil
	}
	return "", false, errors.New("find or create the account of an invitee: it kept changing; try again")
}

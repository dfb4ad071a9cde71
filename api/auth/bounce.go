package auth

import (
	"context"
	"fmt"
)

// MarkBounced records that the mailbox of account id is gone (a relay
// refused a mail to it for good): courrier writes there no more, sign-in
// links aside, until its owner signs in or writes (ClearBounce). It
// reports whether the account was not marked already.
func (u *Users) MarkBounced(ctx context.Context, id string) (bool, error) {
	tag, err := u.pool.Exec(ctx, `update users set bounced_at = now() where id = $1 and bounced_at is null`, id)
	if err != nil {
		return false, fmt.Errorf("mark account %s bounced: %w", id, err)
	}
	return tag.RowsAffected() > 0, nil
}

// ClearBounce records that the mailbox of account id works again (its
// owner wrote from it); an account not marked bounced is left as it is.
func (u *Users) ClearBounce(ctx context.Context, id string) error {
	if _, err := u.pool.Exec(ctx, `update users set bounced_at = null where id = $1 and bounced_at is not null`, id); err != nil {
		return fmt.Errorf("clear the bounce of %s: %w", id, err)
	}
	return nil
}

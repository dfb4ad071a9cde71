package jobs

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// TxInserter inserts a job in a transaction (a River client is one).
type TxInserter interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// QueueLogin returns the function that queues, in the transaction that
// makes sign-in link linkID, the Login job mailing it to userID: the mail
// queue auth.NewSignIn takes.
func QueueLogin(c TxInserter) func(ctx context.Context, tx pgx.Tx, linkID int64, userID, lang string) error {
	return func(ctx context.Context, tx pgx.Tx, linkID int64, userID, lang string) error {
		if _, err := c.InsertTx(ctx, tx, Login{LinkID: linkID, User: userID, Lang: lang}, nil); err != nil {
			return fmt.Errorf("queue the mail of sign-in link %d: %w", linkID, err)
		}
		return nil
	}
}

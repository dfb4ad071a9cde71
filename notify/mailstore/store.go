// Package mailstore is the mail side's store: the tables notify owns and
// nothing else reads. It keeps the outbox log (mail_log: every mail begun,
// sent, failed or skipped), the inbound queue (inbound_mail, each message
// stored once and processed once), the dev mailbox (dev_mail), and the
// first-contact records (first_contact_mail budgets and the
// pending_commands waiting for an address to be confirmed). Its methods
// take and return plain Go values; a transaction that spans several
// statements begins and ends inside one method, so notify imports no pgx.
package mailstore

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Store reaches notify's tables on a pool.
type Store struct {
	pool *pgxpool.Pool
}

// New returns the store on pool.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// JobInserter inserts a job in a transaction; a River client is one. The
// store's methods that queue a job take one, so the job commits with the
// rows it names.
type JobInserter interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// InserterFrom returns the River client of the job being worked in ctx
// (River's ClientFromContext, whose type parameter is pgx.Tx: it lives
// here so that notify's workers need not name pgx). It panics outside a
// River job, as River's does.
func InserterFrom(ctx context.Context) JobInserter {
	return river.ClientFromContext[pgx.Tx](ctx)
}

// ErrNotFound is returned for a row that does not exist (or no longer
// does).
var ErrNotFound = errors.New("mailstore: not found")

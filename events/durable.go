package events

import (
	"context"
	"fmt"
)

// Durable makes the commit of the transaction q belongs to a barrier: it
// writes a record to the WAL (a transactional logical message, which any
// role may emit and nothing decodes), so its COMMIT, under synchronous
// replication, returns only once a standby has flushed the WAL up to it,
// and so every commit before it. (A transaction that only took an id
// writes nothing before its commit record and does not wait.)
//
// An answer that acknowledges what a read found, rather than what its own
// transaction wrote (a command replayed under its idempotency key, a mail
// received again), needs it. A primary that crashed while a commit waited
// for its standby replays that commit from its own WAL when it restarts:
// the commit is visible there and on no standby, and a failover loses it.
// A read that found it acknowledges nothing until a barrier after it has
// committed; while no standby answers, the barrier waits, as every write
// does, until the primary is demoted. (Once one barrier has committed after
// such a restart, every commit the restart made visible is on a standby.)
//
// Without synchronous standbys (synchronous_standby_names empty: a single
// server, or a primary whose standby is away) there is nothing to wait
// for, and Durable writes nothing.
func Durable(ctx context.Context, q Querier) error {
	if _, err := q.Exec(ctx, `select pg_logical_emit_message(true, 'courrier.durable', '')
		where current_setting('synchronous_standby_names') <> ''`); err != nil {
		return fmt.Errorf("make the answer durable: %w", err)
	}
	return nil
}

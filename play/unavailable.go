package play

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err means the database cannot be reached just
// now (no connection, a connection lost or closed, a timeout, the server
// shutting down or refusing connections): a door answers it with "try again
// in a few seconds" (503) rather than as a bug. Every door judges it here,
// so that none imports pgx to do so.
func Unavailable(err error) bool {
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		return true
	}
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		// 08: connection exception; 57P: operator intervention (shutdown,
		// cannot connect now).
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P")
	}
	if _, ok := errors.AsType[*net.OpError](err); ok {
		return true
	}
	// A connection that broke mid-command (the server crashed or restarted):
	// whether a COMMIT landed is unknown, and a client's retry with its
	// Idempotency-Key finds out.
	return pgconn.Timeout(err) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, pgconn.ErrConnClosed)
}

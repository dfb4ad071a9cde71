package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// DeliveryError is a mail the transport did not take. A mail job failing
// with it is retried (the same Message-ID each time) unless the relay
// refused the mail for good.
type DeliveryError struct {
	MessageID string
	Kind      string
	// Permanent: the relay answered 5xx to the message (no such mailbox,
	// message refused); no retry can deliver it.
	Permanent bool
	Err       error
}

// Error implements error.
func (e *DeliveryError) Error() string {
	return fmt.Sprintf("deliver %s mail %s: %v", e.Kind, e.MessageID, e.Err)
}

// Unwrap returns the transport's error.
func (e *DeliveryError) Unwrap() error { return e.Err }

// deliveryError classifies a transport's failure: the relay's 5xx to the
// message (a refusal) is permanent; everything else (4xx, a refused
// connection, a timeout, a relay that hung up, a 5xx to the session such
// as a wrong password) may pass.
func deliveryError(o outgoing, err error) *DeliveryError {
	_, refused := errors.AsType[*refusal](err)
	return &DeliveryError{MessageID: o.MessageID, Kind: o.Kind, Permanent: refused, Err: err}
}

// HandleError is River's error handler for the mail jobs: a mail the relay
// refused for good, or one still undelivered at its job's last attempt, is
// recorded as failed in the mail log (`courrier mail list -failed` shows
// it) and logged as an error; a permanent refusal is not retried. A failed
// TLS handshake with the relay (a certificate not trusted) is retried, and
// logged as an error at each attempt: the operator has a setting to fix.
func (s *Service) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	de, ok := errors.AsType[*DeliveryError](err)
	if !ok {
		return nil
	}
	if !de.Permanent && job.Attempt < job.MaxAttempts {
		if _, ok := errors.AsType[*tlsError](de.Err); ok {
			// Most often a certificate not trusted: a setting to fix, said
			// loudly at each attempt; the mail goes once it is fixed.
			s.log.ErrorContext(ctx, "mail waits for TLS with the relay to work: it will be tried again", "message_id", de.MessageID, "kind", de.Kind,
				"attempt", job.Attempt, "of", job.MaxAttempts, "err", de.Err)
			return nil
		}
		s.log.WarnContext(ctx, "mail not delivered yet: it will be tried again", "message_id", de.MessageID, "kind", de.Kind,
			"attempt", job.Attempt, "of", job.MaxAttempts, "err", de.Err)
		return nil
	}
	why := "refused by the relay"
	if !de.Permanent {
		why = fmt.Sprintf("undelivered after %d attempts", job.Attempt)
	}
	if err := s.store.MarkFailed(context.WithoutCancel(ctx), de.MessageID, why+": "+de.Err.Error()); err != nil {
		s.log.ErrorContext(ctx, "record a failed mail", "message_id", de.MessageID, "err", err)
	}
	s.log.ErrorContext(ctx, "mail failed for good", "message_id", de.MessageID, "kind", de.Kind, "why", why, "err", de.Err, "job_id", job.ID)
	if de.Permanent {
		if mailboxGone(de.Err) {
			s.suppress(context.WithoutCancel(ctx), de.MessageID)
		}
		return &river.ErrorHandlerResult{SetCancelled: true}
	}
	return nil
}

// mailboxGone reports whether a relay's refusal says the address itself
// does not take mail (an enhanced status 5.1.x: no such mailbox, bad
// domain, no mail exchanger).
func mailboxGone(err error) bool {
	se, ok := errors.AsType[*smtp.SMTPError](err)
	return ok && se.Code >= 500 && se.EnhancedCode[0] == 5 && se.EnhancedCode[1] == 1
}

// suppress marks the account that mail messageID went to as bounced: its
// mailbox is gone, and courrier writes there no more (sign-in links
// aside) until its owner signs in or writes to courrier.
func (s *Service) suppress(ctx context.Context, messageID string) {
	user, err := s.store.Recipient(ctx, messageID)
	if err != nil || user == "" {
		if err != nil {
			s.log.ErrorContext(ctx, "mark a bounced address", "message_id", messageID, "err", err)
		}
		return
	}
	marked, err := s.users.MarkBounced(ctx, user)
	if err != nil {
		s.log.ErrorContext(ctx, "mark a bounced address", "message_id", messageID, "err", err)
		return
	}
	if marked {
		s.log.WarnContext(ctx, "the address bounced: no more mail to it until its owner signs in or writes", "message_id", messageID)
	}
}

// jobKey is the context key of the River job being worked.
type jobKey struct{}

// JobIDMiddleware is River worker middleware that lets the mail log record
// which job tried to send each mail (so that a mail whose job ended
// without delivering it is listed as failed).
func JobIDMiddleware() rivertype.WorkerMiddleware {
	return river.WorkerMiddlewareFunc(func(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
		return doInner(context.WithValue(ctx, jobKey{}, job.ID))
	})
}

// jobID is the River job being worked in ctx, 0 outside one.
func jobID(ctx context.Context) int64 {
	id, _ := ctx.Value(jobKey{}).(int64)
	return id
}

// HandlePanic implements river.ErrorHandler: the panic is logged (River
// retries the job).
func (s *Service) HandlePanic(ctx context.Context, job *rivertype.JobRow, panicVal any, trace string) *river.ErrorHandlerResult {
	s.log.ErrorContext(ctx, "a job panicked", "kind", job.Kind, "job_id", job.ID, "panic", fmt.Sprint(panicVal), "trace", trace)
	return nil
}

// RetryPolicy spaces the attempts of a mail job: 1 s, 2 s, 4 s, … doubling
// up to an hour between attempts, spread by up to a tenth by job (a relay back
// after a short outage gets its mail within seconds; one down for a day is
// not hammered). Other jobs follow River's default.
type RetryPolicy struct {
	fallback river.DefaultClientRetryPolicy
}

// NextRetry implements river.ClientRetryPolicy.
func (p *RetryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	if !strings.HasPrefix(job.Kind, "mail.") {
		return p.fallback.NextRetry(job)
	}
	n := len(job.Errors) + 1 // River has not recorded this attempt's error yet
	wait := time.Hour
	if n <= 12 {
		wait = time.Second << (n - 1)
	}
	wait += wait / 10 * time.Duration(job.ID%10) / 10 // jobs failed together spread out
	return time.Now().Add(wait)
}

package notify_test

import (
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/notify"
)

// Mail is retried soon after a short outage and at most hourly after a
// long one; other jobs keep River's schedule.
func TestRetryPolicySpacesMailAttempts(t *testing.T) {
	p := &notify.RetryPolicy{}
	for _, tc := range []struct {
		kind     string
		failures int
		min, max time.Duration
	}{
		{"mail.prompt", 1, time.Second, 1100 * time.Millisecond},
		{"mail.prompt", 2, 2 * time.Second, 2200 * time.Millisecond},
		{"mail.login", 5, 16 * time.Second, 17600 * time.Millisecond},
		{"mail.receipt", 12, 2048 * time.Second, 2253 * time.Second},
		{"mail.receipt", 13, time.Hour, 66 * time.Minute},
		{"mail.receipt", 24, time.Hour, 66 * time.Minute},
		{"deadline", 2, 14 * time.Second, 18 * time.Second}, // River's default: failures^4 s ± 10%
	} {
		// River asks for the next retry before it records the failing
		// attempt's error: Errors holds the earlier failures only.
		job := &rivertype.JobRow{ID: 7, Kind: tc.kind, Attempt: tc.failures, Errors: make([]rivertype.AttemptError, tc.failures-1)}
		wait := time.Until(p.NextRetry(job))
		if wait < tc.min-50*time.Millisecond || wait > tc.max {
			t.Errorf("%s after %d failures: next in %v, want %v to %v", tc.kind, tc.failures, wait, tc.min, tc.max)
		}
	}
}

package jobs_test

import (
	"testing"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/jobs"
)

// mailJob is a mail job's arguments with their insert options.
type mailJob interface {
	river.JobArgs
	river.JobArgsWithInsertOpts
}

// Every mail kind is on the mail queue at the priority decision 9 gives
// it: a sign-in link and the answer to a person's own mail or move first,
// then the games' prompts, then reminders and lobby news (River works
// priority 1 first).
func TestMailPriorities(t *testing.T) {
	for _, tc := range []struct {
		job  mailJob
		want int
		name string
	}{
		{jobs.Login{}, jobs.PriorityWaiting, "waiting"},
		{jobs.Answer{}, jobs.PriorityWaiting, "waiting"},
		{jobs.Receipt{}, jobs.PriorityWaiting, "waiting"},
		{jobs.Prompt{}, jobs.PriorityGame, "game"},
		{jobs.GameOver{}, jobs.PriorityGame, "game"},
		{jobs.DisputeNotice{}, jobs.PriorityGame, "game"},
		{jobs.TakeBackNotice{}, jobs.PriorityGame, "game"},
		{jobs.Reminder{}, jobs.PriorityLater, "later"},
		{jobs.Invitation{}, jobs.PriorityLater, "later"},
		{jobs.AbsenceNotice{}, jobs.PriorityLater, "later"},
		{jobs.TalkNotice{}, jobs.PriorityLater, "later"},
	} {
		t.Run(tc.job.Kind(), func(t *testing.T) {
			o := tc.job.InsertOpts()
			if o.Queue != jobs.QueueMail {
				t.Errorf("on queue %q, not the mail queue", o.Queue)
			}
			if o.Priority != tc.want {
				t.Errorf("priority %d, want %d", o.Priority, tc.want)
			}
			if got := jobs.PriorityName(o.Priority); got != tc.name {
				t.Errorf("priority named %q, want %q", got, tc.name)
			}
		})
	}
}

// The priorities are listed first worked first, each with its own name;
// River's priorities run from 1 to 4.
func TestMailPrioritiesAreOrderedAndNamed(t *testing.T) {
	seen := map[string]bool{}
	last := 0
	for _, p := range jobs.MailPriorities() {
		if p <= last || p > 4 {
			t.Errorf("priority %d after %d: not in River's worked-first order 1…4", p, last)
		}
		last = p
		n := jobs.PriorityName(p)
		if n == "" || seen[n] {
			t.Errorf("priority %d named %q, empty or already used", p, n)
		}
		seen[n] = true
	}
	if len(seen) != 3 {
		t.Errorf("%d mail priorities, want 3 (waiting, game, later)", len(seen))
	}
	if got := jobs.PriorityName(4); got != "4" {
		t.Errorf("an unused priority is named %q, want its number", got)
	}
}

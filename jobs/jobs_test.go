package jobs_test

import (
	"testing"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/jobs"
)

// A sign-in link and the answer to someone's mail are worked before any
// of the games' own mail queued earlier (River works priority 1 first): a
// burst of prompts never makes a person wait for their link.
func TestPeopleWaitingComeFirst(t *testing.T) {
	type mailJob interface {
		river.JobArgs
		river.JobArgsWithInsertOpts
	}
	waiting := []mailJob{jobs.Login{}, jobs.Answer{}}
	games := []mailJob{jobs.Prompt{}, jobs.Receipt{}, jobs.GameOver{}, jobs.Invitation{}}
	for _, w := range waiting {
		for _, g := range games {
			wo, gopt := w.InsertOpts(), g.InsertOpts()
			if wo.Queue != jobs.QueueMail || gopt.Queue != jobs.QueueMail {
				t.Fatalf("%s on %q, %s on %q: mail belongs on the mail queue", w.Kind(), wo.Queue, g.Kind(), gopt.Queue)
			}
			if wo.Priority == 0 || wo.Priority >= gopt.Priority {
				t.Errorf("%s has priority %d, not before %s's %d", w.Kind(), wo.Priority, g.Kind(), gopt.Priority)
			}
		}
	}
}

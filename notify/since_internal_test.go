package notify

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/play"
)

// What the system played at a deadline is told as such in the next mail.
func TestSinceLinesSayWhatTheDeadlinePlayed(t *testing.T) {
	cases := []struct {
		name    string
		changes []play.Change
		want    []string
	}{
		{"a move", []play.Change{{Text: "Ana bid 3.", Meta: play.ServedMeta{Channel: play.ChannelAPI}}}, []string{"Ana bid 3."}},
		{"a default", []play.Change{{Text: "Bob called Coyote!", Meta: play.ServedMeta{Channel: play.ChannelSystem}}},
			[]string{"At the deadline, by default: Bob called Coyote!"}},
		{"nothing to say", []play.Change{{Text: ""}}, []string{}},
	}
	for _, c := range cases {
		if got := sinceLines(c.changes); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

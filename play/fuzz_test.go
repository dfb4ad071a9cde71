package play_test

import (
	"testing"

	"github.com/courrier-games/courrier/play"
)

// A duration is read from a stranger's reply, form or request: never a
// panic, and a duration it accepts is at least play.MinDuration.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"3d", " 36h ", "90m", "0d", "-2d", "1h30m", "d", "9223372036854775807d", "106752d", "2562047h", "1d12h", "2d -1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := play.ParseDuration(s)
		if err == nil && d < play.MinDuration {
			t.Fatalf("ParseDuration(%q) = %v, less than the minimum", s, d)
		}
	})
}

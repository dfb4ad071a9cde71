package play_test

import (
	"testing"

	"github.com/courrier-games/courrier/play"
)

// An absence is read from a stranger's reply or move box: never a panic,
// and a duration it accepts is positive.
func FuzzParseAbsence(f *testing.F) {
	for _, s := range []string{"3d", " 36h ", "90m", "0d", "-2d", "1h30m", "d", "9223372036854775807d", "106752d", "2562047h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := play.ParseAbsence(s)
		if err == nil && d <= 0 {
			t.Fatalf("ParseAbsence(%q) = %v, a duration that is not positive", s, d)
		}
	})
}

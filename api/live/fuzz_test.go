package live_test

import (
	"strconv"
	"testing"

	"github.com/courrier-games/courrier/api/live"
)

// Last-Event-ID is a header any client sends: never a panic, and a value
// it accepts is a version that reads back the same.
func FuzzParseLastEventID(f *testing.F) {
	for _, s := range []string{"0", "17", " 42 ", "-1", "", "x", "9223372036854775807", "99999999999999999999", "+5", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := live.ParseLastEventID(s)
		if !ok {
			return
		}
		if v < 0 {
			t.Fatalf("ParseLastEventID(%q) = %d, a negative version", s, v)
		}
		if back, ok := live.ParseLastEventID(strconv.Itoa(v)); !ok || back != v {
			t.Fatalf("ParseLastEventID(%q) = %d, which does not read back (%d, %v)", s, v, back, ok)
		}
	})
}

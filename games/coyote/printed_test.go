package coyote

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// [HOUSE] CY-34: the blue faces are shown as printed (×2, max→0) and read in
// both forms; a move that cannot be read is answered with the moves the
// game's options allow.
func TestFacesAsPrintedAndRefusals_CY34(t *testing.T) {
	r := Rules{}
	for _, c := range []struct{ in, want string }{
		{"declare ×2", "declare ×2"}, {"declare x2", "declare ×2"}, {"DECLARE X2", "declare ×2"},
		{"declare max→0", "declare max→0"}, {"declare max0", "declare max→0"}, {"declare -max", "declare -max"},
	} {
		m, err := r.Parse(State{}, c.in)
		if err != nil {
			t.Errorf("parse %q: %v", c.in, err)
			continue
		}
		if got := r.Format(State{}, m); got != c.want {
			t.Errorf("%q formats as %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		name    string
		variant bool
		says    string
		never   string
	}{
		{"tokens off", false, "bid <n> or coyote", "reveal"},
		{"tokens on", true, "reveal, reverse, skip, replace or declare <face>", "bid <n> or coyote"},
	} {
		_, err := r.Parse(State{Variant: c.variant}, "raise")
		if err == nil {
			t.Fatalf("%s: raise was read", c.name)
		}
		if msg := err.Error(); !strings.Contains(msg, c.says) || strings.Contains(msg, c.never) {
			t.Errorf("%s: %q, want it to say %q and not %q", c.name, msg, c.says, c.never)
		}
	}
	tb := rig(t, 3, games.Options{OptVariantTokens: "on"})
	for _, m := range r.Choices(tb.s, 0) {
		if strings.Contains(m, "x2") || strings.Contains(m, "max0") {
			t.Errorf("choice %q shows a face by its code", m)
		}
	}
}

package web

import (
	"fmt"
	"slices"
	"testing"
)

// Moves of a verb and a number are one number field when there are more
// than maxListed of them, whatever the verb; other moves keep their order.
func TestNumberMoves(t *testing.T) {
	many := func(verb string, from, to int) []string {
		var out []string
		for n := from; n <= to; n++ {
			out = append(out, fmt.Sprintf("%s %d", verb, n))
		}
		return out
	}
	tests := []struct {
		name  string
		legal []string
		rest  []string
		nums  []numberMove
	}{
		{"a few bids stay buttons", slices.Concat([]string{"coyote"}, many("bid", 3, 14)), slices.Concat([]string{"coyote"}, many("bid", 3, 14)), nil},
		{"many bids are a field", slices.Concat([]string{"coyote"}, many("bid", 3, 250)), []string{"coyote"}, []numberMove{{Verb: "bid", Min: 3, Max: 250}}},
		{"a verb of two words, negative numbers", slices.Concat(many("take from -20", -20, 0), []string{"pass"}), []string{"pass"}, []numberMove{{Verb: "take from -20", Min: -20, Max: 0}}},
		{"two verbs, one long", slices.Concat(many("raise", 1, 20), many("call", 1, 3)), many("call", 1, 3), []numberMove{{Verb: "raise", Min: 1, Max: 20}}},
		{"no number", []string{"income", "tax"}, []string{"income", "tax"}, nil},
	}
	for _, tt := range tests {
		rest, nums := numberMoves(tt.legal)
		if !slices.Equal(rest, tt.rest) || !slices.Equal(nums, tt.nums) {
			t.Errorf("%s: %v %v, want %v %v", tt.name, rest, nums, tt.rest, tt.nums)
		}
	}
}

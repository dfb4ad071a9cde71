package games

import (
	"fmt"
	"strconv"
	"strings"
)

// ExpandChoice returns the moves one line of Engine.Choices stands for: the
// line itself, or, for a range "bid 13 … 120", every line with an integer
// from 13 to 120 in the range's place. A line with a blank ("<card>") is
// returned as it is: only the state knows what fills it.
func ExpandChoice(line string) ([]string, error) {
	before, after, ok := strings.Cut(line, " … ")
	if !ok {
		return []string{line}, nil
	}
	i := strings.LastIndexByte(before, ' ') + 1
	lo, err := strconv.Atoi(before[i:])
	if err != nil {
		return nil, fmt.Errorf("range start %q is not an integer", before[i:])
	}
	j := strings.IndexByte(after, ' ')
	if j < 0 {
		j = len(after)
	}
	hi, err := strconv.Atoi(after[:j])
	if err != nil || hi < lo {
		return nil, fmt.Errorf("range end %q is not an integer at least %d", after[:j], lo)
	}
	out := make([]string, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		out = append(out, before[:i]+strconv.Itoa(n)+after[j:])
	}
	return out, nil
}

// ExpandChoices returns every move a list of choices stands for, in
// order, and false when the list cannot say them without the state: a line
// with a blank ("<card>") or a range that is not one.
func ExpandChoices(choices []string) ([]string, bool) {
	var out []string
	for _, c := range choices {
		if strings.ContainsAny(c, "<>") {
			return nil, false
		}
		moves, err := ExpandChoice(c)
		if err != nil {
			return nil, false
		}
		out = append(out, moves...)
	}
	return out, true
}

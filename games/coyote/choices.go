package coyote

import (
	"slices"
	"strconv"

	"github.com/courrier-games/courrier/games"
)

// Choices is Legal in compact form for a numbered prompt (RULES.md, "The
// list of choices"): the call first, then the lowest bid on its own line
// (the smallest raise), the other bids as one range "bid A … B", the tokens,
// and the declarations, numbers in ascending order with every run of three
// or more consecutive numbers as a range ("declare 1 … 10"), then the blue
// faces in table order. Should a replaced deck table still make more than
// games.MaxChoices lines, the declarations become the one line
// "declare <face>".
func (Rules) Choices(s State, seat games.Seat) []string {
	l, ok := legalMoves(s, seat)
	if !ok {
		return nil
	}
	var out []string
	if l.call {
		out = append(out, Rules{}.Format(s, Move{Kind: MoveCoyote}))
	}
	if l.low <= l.high {
		out = append(out, "bid "+strconv.Itoa(l.low))
		out = append(out, runs("bid ", l.low+1, l.high)...)
	}
	out = append(out, l.tokens...)
	var numbers []int
	var blues []string
	for _, f := range l.declare {
		if n, err := strconv.Atoi(f); err == nil && strconv.Itoa(n) == f {
			numbers = append(numbers, n)
		} else {
			blues = append(blues, "declare "+shown(f))
		}
	}
	slices.Sort(numbers)
	var declare []string
	for i := 0; i < len(numbers); {
		j := i + 1
		for j < len(numbers) && numbers[j] == numbers[j-1]+1 {
			j++
		}
		declare = append(declare, runs("declare ", numbers[i], numbers[j-1])...)
		i = j
	}
	declare = append(declare, blues...)
	if len(out)+len(declare) > games.MaxChoices {
		declare = []string{"declare <face>"}
	}
	return append(out, declare...)
}

// runs writes the moves prefix+n for n from lo to hi: one line each when
// there are one or two, else the range "prefix lo … hi"; none when hi < lo.
func runs(prefix string, lo, hi int) []string {
	switch {
	case hi < lo:
		return nil
	case hi-lo < 2:
		var out []string
		for n := lo; n <= hi; n++ {
			out = append(out, prefix+strconv.Itoa(n))
		}
		return out
	}
	return []string{prefix + strconv.Itoa(lo) + " … " + strconv.Itoa(hi)}
}

package coyote

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// countFeathers computes the total of the counted feathers (CY-8, CY-9,
// CY-16), step by step. The feathers turned by `?` are already among them
// (the turn events come before the count), so step 1 only reports them.
func countFeathers(s State, counted []countedFeather) Count {
	type line struct {
		f         Feather
		c         countedFeather
		discarded bool
		negated   bool
	}
	lines := make([]*line, len(counted))
	for i, c := range counted {
		lines[i] = &line{f: s.feather(c.id), c: c}
	}
	var steps []Step
	add := func(step int, face, format string, args ...any) {
		steps = append(steps, Step{Step: step, Face: face, Text: fmt.Sprintf(format, args...)})
	}
	if len(lines) > 0 {
		var names []string
		for _, l := range lines {
			names = append(names, l.f.Face)
		}
		add(0, "", "feathers counted: %s", strings.Join(names, ", "))
	}
	// highest returns the first green feather of the highest value among
	// those still in play and not negated.
	highest := func() *line {
		var best *line
		for _, l := range lines {
			if l.f.Colour == Green && !l.discarded && !l.negated && (best == nil || l.f.Value > best.f.Value) {
				best = l
			}
		}
		return best
	}
	// Step 1: `?` turned the top pile feather.
	for _, l := range lines {
		if l.c.from == FaceQuestion {
			add(1, FaceQuestion, "? turns %s from the pile; it is counted too", l.f.Face)
		}
	}
	if q := countFace(counted, s, FaceQuestion); q > turnedBy(counted, FaceQuestion) {
		add(1, FaceQuestion, "? finds no feather to turn: the pile and the discard are empty")
	}
	// Step 2: max0 discards itself and the highest green feather.
	for _, l := range lines {
		if l.f.Colour != Blue || l.f.Face != FaceMax0 || l.discarded {
			continue
		}
		l.discarded = true
		if h := highest(); h != nil {
			h.discarded = true
			add(2, FaceMax0, "max0 is discarded with the highest green feather, %s", h.f.Face)
		} else {
			add(2, FaceMax0, "max0 is discarded; there is no green feather to discard with it")
		}
	}
	// Step 3: -max makes the highest remaining green feather negative.
	for _, l := range lines {
		if l.f.Colour != Blue || l.f.Face != FaceMinusMax || l.discarded {
			continue
		}
		if h := highest(); h != nil {
			h.negated = true
			add(3, FaceMinusMax, "-max: the highest green feather, %s, counts as red: %d", h.f.Face, -h.f.Value)
		} else {
			add(3, FaceMinusMax, "-max: there is no green feather to turn negative")
		}
	}
	// Step 4: x2 doubles every green feather not made negative.
	factor := 1
	for _, l := range lines {
		if l.f.Colour == Blue && l.f.Face == FaceDouble && !l.discarded {
			factor *= 2
			add(4, FaceDouble, "x2 doubles every green feather not made negative")
		}
	}
	// Step 5: night is worth 0 and reshuffles after the round.
	nightSeen := false
	for _, l := range lines {
		if l.f.Colour == Blue && l.f.Face == FaceNight {
			nightSeen = true
			add(5, FaceNight, "night is worth 0; after the round all feathers are reshuffled")
		}
	}
	// Step 6: the sum.
	out := Count{Night: nightSeen}
	var terms []string
	for _, l := range lines {
		cl := CountLine{Feather: l.f, From: l.c.from, Seat: l.c.seat}
		switch {
		case l.discarded:
			cl.Note = noteDiscarded
		case l.f.Colour == Green && l.negated:
			cl.Value, cl.Note = -l.f.Value, noteNegative
		case l.f.Colour == Green:
			cl.Value = l.f.Value * factor
			if factor > 1 {
				cl.Note = noteDoubled
			}
		case l.f.Colour == Red:
			cl.Value = l.f.Value
		}
		if !l.discarded && l.f.Colour != Blue {
			terms = append(terms, signed(cl.Value, len(terms) == 0))
		}
		out.Total += cl.Value
		out.Lines = append(out.Lines, cl)
	}
	if len(terms) == 0 {
		terms = []string{"0"}
	}
	add(6, "", "total: %s = %d", strings.Join(terms, " "), out.Total)
	out.Steps = steps
	return out
}

// The notes of a count line (CY-8), as recorded in count events: codes
// that Describe says in the reader's words.
const (
	noteDoubled   = "doubled by x2"
	noteDiscarded = "discarded by max0"
	noteNegative  = "negative by -max"
)

func signed(v int, first bool) string {
	switch {
	case first:
		return strconv.Itoa(v)
	case v < 0:
		return "− " + strconv.Itoa(-v)
	default:
		return "+ " + strconv.Itoa(v)
	}
}

func countFace(counted []countedFeather, s State, face string) int {
	n := 0
	for _, c := range counted {
		if f := s.feather(c.id); f.Colour == Blue && f.Face == face {
			n++
		}
	}
	return n
}

func turnedBy(counted []countedFeather, by string) int {
	n := 0
	for _, c := range counted {
		if c.from == by {
			n++
		}
	}
	return n
}

// judge completes a count with the call it settles (CY-7): a total at least
// the bid makes the caller take the token, a lower one the bidder.
func judge(c Count, caller, bidder games.Seat, bid int) Count {
	c.Caller, c.Bidder, c.Bid = caller, bidder, bid
	if c.Total >= bid {
		c.Loser = caller
	} else {
		c.Loser = bidder
	}
	return c
}

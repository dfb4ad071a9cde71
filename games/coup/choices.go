package coup

import (
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Choices is Legal in compact form for a numbered prompt (RULES.md, "The
// prompt's choices"). Legal's moves are grouped by kind: the decision's own
// moves first, then each targeted action over its targets, then the
// auto-allow preferences. They are written out when they are at most
// games.MaxChoices lines; only a turn with many targets has more (up to 50:
// six players, Selective Coup, the Inquisitor and factions). Then the
// targeted actions are folded, one step at a time until the list fits, into
// lines with blanks: first each target's Selective Coups ("coup Bob
// <character>"), then the coups, examines, assassinations and steals over
// all targets ("steal <player>").
func (g Rules) Choices(s *State, seat games.Seat) []string {
	moves := g.legalMoves(s, int(seat))
	slices.SortStableFunc(moves, func(a, b Move) int { return choiceRank(a) - choiceRank(b) })
	var lines []string
	for level := range foldLevels + 1 {
		lines = lines[:0]
		seen := map[string]bool{}
		for _, m := range moves {
			if l := g.choiceLine(s, m, level); !seen[l] {
				seen[l] = true
				lines = append(lines, l)
			}
		}
		if len(lines) <= games.MaxChoices {
			break
		}
	}
	return lines
}

// choiceRank orders the lines of Choices: untargeted actions and the other
// moves of the decision, then steals, assassinations, examines and coups,
// then the auto-allow preferences.
func choiceRank(m Move) int {
	switch {
	case m.Kind == MAutoAllow:
		return 5
	case m.Kind != MAction:
		return 0
	}
	return map[Act]int{Steal: 1, Assassinate: 2, Examine: 3, CoupAct: 4}[m.Action]
}

// foldLevels is the number of folding steps of Choices.
const foldLevels = 5

// choiceLine writes m as a line of Choices at folding level level (0: the
// canonical notation).
func (g Rules) choiceLine(s *State, m Move, level int) string {
	if m.Kind != MAction || !m.Action.targeted() {
		return g.Format(s, m)
	}
	// The step at which each targeted action is folded over its targets.
	over := map[Act]int{CoupAct: 2, Examine: 3, Assassinate: 4, Steal: 5}[m.Action]
	target := "<player>"
	if level < over {
		target = strings.TrimPrefix(g.Format(s, Move{Kind: MAction, Action: Steal, Target: m.Target}), "steal ")
	}
	switch {
	case m.Action == CoupAct && m.Char != NoChar && level >= 1:
		return "coup " + target + " <character>"
	case level >= over:
		return m.Action.String() + " " + target
	}
	return g.Format(s, m)
}

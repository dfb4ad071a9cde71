package coupage

import (
	"slices"
	"strconv"

	"github.com/courrier-games/courrier/games"
)

// Choices implements games.Rules: the legal moves in at most
// games.MaxChoices lines for a numbered prompt (RULES.md, "Choices").
//
// Every legal move has a path of lines from the most general pattern of its
// kind ("bottle <barrel> <grapes>") through narrower ones ("bottle 2
// <grapes>") to the move itself ("bottle 2 xar2"). The list starts with one
// line per kind and, while it stays within the limit, replaces a line by
// the lines one step narrower, the line with the fewest of them first. A
// line that stands for one move only is written as that move, so a list of
// at most 20 legal moves is the moves themselves.
func (r Rules) Choices(s *State, seat games.Seat) []string {
	moves, texts := r.legal(s, seat)
	if len(moves) == 0 {
		return nil
	}
	paths := make([][]string, len(moves))
	for i, m := range moves {
		paths[i] = s.choicePath(m, texts[i])
	}
	// The roots: one node per kind, in order of usefulness, then of Legal.
	var front []*choiceNode
	for i := range moves {
		key := paths[i][0]
		j := slices.IndexFunc(front, func(n *choiceNode) bool { return n.key == key })
		if j < 0 {
			front = append(front, &choiceNode{key: key, rank: choiceRank(moves[i])})
			j = len(front) - 1
		}
		front[j].members = append(front[j].members, i)
	}
	slices.SortStableFunc(front, func(a, b *choiceNode) int { return a.rank - b.rank })
	for {
		best, bestKids := -1, []*choiceNode(nil)
		for i, n := range front {
			if len(n.members) < 2 {
				continue
			}
			kids := n.children(paths)
			if len(front)-1+len(kids) > games.MaxChoices {
				continue
			}
			if best < 0 || len(kids) < len(bestKids) {
				best, bestKids = i, kids
			}
		}
		if best < 0 {
			break
		}
		front = slices.Replace(front, best, best+1, bestKids...)
	}
	out := make([]string, len(front))
	for i, n := range front {
		if len(n.members) == 1 {
			out[i] = texts[n.members[0]]
		} else {
			out[i] = n.key
		}
	}
	return out
}

// choiceNode is a line of the list: a pattern at some depth of the paths
// and the legal moves (indices) it stands for.
type choiceNode struct {
	key     string
	depth   int
	rank    int
	members []int
	kids    []*choiceNode // children, once computed
}

// children splits a node one step narrower, in order of first appearance.
func (n *choiceNode) children(paths [][]string) []*choiceNode {
	if n.kids != nil {
		return n.kids
	}
	var kids []*choiceNode
	for _, i := range n.members {
		d := min(n.depth+1, len(paths[i])-1)
		key := paths[i][d]
		j := slices.IndexFunc(kids, func(k *choiceNode) bool { return k.key == key })
		if j < 0 {
			kids = append(kids, &choiceNode{key: key, depth: d, rank: n.rank})
			j = len(kids) - 1
		}
		kids[j].members = append(kids[j].members, i)
	}
	n.kids = kids
	return kids
}

// choiceRank orders the kinds of moves in a list: the moves of the phase
// (draw, pick, ability choice) first, then bottling, making, repairing,
// ageing, specials, discards, and end last.
func choiceRank(m Move) int {
	switch m.Kind {
	case mvBottle:
		return 1
	case mvMake:
		return 2
	case mvRepair:
		return 3
	case mvTime:
		return 4
	case mvSpecial:
		return 5
	case mvDiscard:
		return 6
	case mvEnd:
		return 7
	}
	return 0
}

// choicePath is the path of patterns of a legal move, from its kind's most
// general pattern to the move's text. The blanks are explained in RULES.md.
func (s *State) choicePath(m Move, text string) []string {
	b := strconv.Itoa
	grapes := s.aid.cardNames(m.Cards)
	wine := s.aid.wineName(m.Wine)
	form := "time"
	if m.FaceDown {
		form = "facedown"
	}
	switch m.Kind {
	case mvMake:
		return []string{"make <wine> <barrel> <grapes>", "make " + wine + " <barrel> <grapes>", "make " + wine + " <barrel> " + grapes, text}
	case mvRepair:
		return []string{"repair <barrel> <grapes>", "repair " + b(m.Barrel) + " <grapes>", text}
	case mvBottle:
		return []string{"bottle <barrel> <grapes>", "bottle " + b(m.Barrel) + " <grapes>", text}
	case mvTime:
		if len(m.Cards) == 0 {
			return []string{"time <barrel>", text}
		}
		return []string{"time <barrel> <grapes>", "time " + b(m.Barrel) + " <grapes>", text}
	case mvDiscard:
		return []string{"discard <card>", text}
	case mvAge:
		if m.Nothing {
			return []string{text}
		}
		return []string{"age <barrel> <card>", "age " + b(m.Barrel) + " <card>", text}
	case mvRecover:
		return []string{"recover <time/facedown> <grape>", "recover " + form + " <grape>", text}
	case mvSpecial:
		code := s.aid.verb(m.Special)
		switch s.aid.effect[m.Special] {
		case effYoung:
			return []string{code + " <barrel>", text}
		case effStealCard:
			return []string{code + " <player>", text}
		case effSpoil, effOenologue:
			p := s.seatName(m.Target)
			return []string{code + " <player> <barrel>", code + " " + p + " <barrel>", text}
		case effEvaporate:
			p := s.seatName(m.Target)
			return []string{code + " <player> <barrel> <grape>", code + " " + p + " <barrel> <grape>",
				code + " " + p + " " + b(m.Barrel) + " <grape>", text}
		case effStealTime:
			p := s.seatName(m.Target)
			return []string{code + " <player> <barrel> <time/facedown> <your-barrel>",
				code + " " + p + " <barrel> <time/facedown> <your-barrel>",
				code + " " + p + " " + b(m.Barrel) + " <time/facedown> <your-barrel>",
				code + " " + p + " " + b(m.Barrel) + " " + form + " <your-barrel>", text}
		}
	}
	return []string{text}
}

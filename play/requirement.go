package play

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Requirement is what a game's creator asks of the players who join it,
// over the last 12 months: a percentage of deadlines met and a number of
// finished games. A new player, with nothing due yet, has no percentage
// and meets any MinReliability; MinFinished refuses them until they have
// finished that many games.
type Requirement struct {
	MinReliability int `json:"min_reliability,omitempty"` // percent, 1–100
	MinFinished    int `json:"min_finished,omitempty"`
}

// MaxMinFinished bounds the finished games a creator may require.
const MaxMinFinished = 1000

// parseRequirement reads a creation's minimums (empty or "0": none).
func parseRequirement(minReliability, minFinished string) (*Requirement, error) {
	var r Requirement
	if v := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(minReliability), "%")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 100 {
			return nil, refuse(CodeInvalid, "refusal.min_reliability", strings.TrimSpace(minReliability))
		}
		r.MinReliability = n
	}
	if v := strings.TrimSpace(minFinished); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > MaxMinFinished {
			return nil, refuse(CodeInvalid, "refusal.min_finished", v, MaxMinFinished)
		}
		r.MinFinished = n
	}
	if r == (Requirement{}) {
		return nil, nil
	}
	return &r, nil
}

// text is the requirement in a command's idempotency hash.
func (r *Requirement) text() string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", r.MinReliability, r.MinFinished)
}

// meets refuses user's join when the table requires more than rel shows.
// The creator and the people they invited are not held to it; a join
// whose reliability was not read (the creator's own, at creation) neither.
func (t *Table) meets(rel *Reliability, user string) error {
	req := t.Requires
	if req == nil || rel == nil || user == t.Creator || slices.Contains(t.Invited, user) {
		return nil
	}
	if req.MinFinished > 0 && rel.Finished < req.MinFinished {
		return refuse(CodeForbidden, "refusal.below_finished", req.MinFinished, t.ID, rel.Finished)
	}
	if req.MinReliability > 0 && rel.Met != nil && *rel.Met < req.MinReliability {
		return refuse(CodeForbidden, "refusal.below_reliability", req.MinReliability, t.ID, *rel.Met)
	}
	return nil
}

package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play/archive"
)

// Disputes: a player flags an event of the game they doubt; the flag is an
// event, the other players and the referee are told, the audit lists it, and
// the referee's ruling is another event. Nothing is ever rewritten: a ruling
// that upholds a dispute says so for the record, and the players settle what
// follows (a new game, a resignation) themselves.
const (
	TypeDisputed = "game.disputed"
	TypeRuled    = "game.ruled"
)

// Ruling decisions.
const (
	RulingUpheld   = "upheld"
	RulingRejected = "rejected"
)

// Disputed is the data of a dispute: seat flags the event of version Move.
type Disputed struct {
	Seat   games.Seat `json:"seat"`
	Move   int        `json:"move"`
	Reason string     `json:"reason"`
}

// Ruled is the data of the referee's ruling on the dispute recorded at
// version Dispute.
type Ruled struct {
	Dispute  int    `json:"dispute"`
	Decision string `json:"decision"` // RulingUpheld or RulingRejected
	Text     string `json:"text"`
}

// Dispute is a dispute as folded: who flagged which version and why, and
// the ruling when there is one (the archive's type: one shape for the
// command side, the audit and the API).
type Dispute = archive.Dispute

// Ruling is a referee's decision on a dispute.
type Ruling = archive.Ruling

// maxDisputeText bounds a dispute's reason and a ruling's text (runes).
const maxDisputeText = 1000

// applyDispute folds a dispute or a ruling recorded at version.
func (t *Table) applyDispute(typ string, data []byte, version int, at time.Time) error {
	switch typ {
	case TypeDisputed:
		var d Disputed
		if err := json.Unmarshal(data, &d); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		t.Disputes = append(t.Disputes, Dispute{Version: version, Move: d.Move, Seat: d.Seat,
			By: t.nameOf(d.Seat), Reason: d.Reason, At: at})
	case TypeRuled:
		var r Ruled
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("decode %s: %w", typ, err)
		}
		for i := range t.Disputes {
			if t.Disputes[i].Version == r.Dispute {
				t.Disputes[i].Ruling = &Ruling{Version: version, Decision: r.Decision, Text: r.Text, At: at}
			}
		}
	}
	return nil
}

// Referee is the user who rules on disputes: the one the game named at its
// creation, else its creator when they hold no seat; "" for none (a game
// whose creator plays has no referee unless one was named: nobody with a
// seat ever sees hidden information before the end).
func (t *Table) Referee() string {
	if t.referee != "" {
		return t.referee
	}
	// A creator who held a seat, even one since handed to someone else,
	// saw that seat's cards: they never referee.
	if t.Creator != "" && !t.replacedUsers[t.Creator] && !slices.ContainsFunc(t.Joined, func(j Joined) bool { return j.User == t.Creator }) {
		return t.Creator
	}
	return ""
}

// FullReveal reports whether user may see everything of the game at every
// version: anyone after the end, and before it the referee when they hold no
// seat (a referee who plays sees what their seat sees, like everyone else).
func (t *Table) FullReveal(user string) bool {
	if t.Ended {
		return true
	}
	return user != "" && user == t.Referee() && t.SeatOf(user) == games.Spectator
}

// DisputeMove flags the event at version move of a game in which user plays
// (running or over), for reason.
func (s *Service) DisputeMove(ctx context.Context, actor Actor, gameID string, move int, reason string) (Outcome, error) {
	reason = strings.TrimSpace(reason)
	req := replyRequest(gameID, Reply{Verb: VerbDispute, Version: move, Reason: reason})
	return s.exec(ctx, actor, req, disputeCmd(actor, move, reason))
}

// disputeCmd is the decision of DisputeMove.
func disputeCmd(actor Actor, move int, reason string) command {
	return func(c *cmdCtx) error {
		t := c.table
		if !t.Started {
			return refuse(CodeConflict, "refusal.dispute_not_started", t.ID)
		}
		seat := t.SeatOf(actor.User)
		if seat == games.Spectator {
			return refuse(CodeForbidden, "refusal.not_player", t.ID)
		}
		if move < 1 || move > t.Version {
			return refuse(CodeInvalid, "refusal.dispute_no_version", t.ID, move, t.Version)
		}
		if reason == "" || utf8.RuneCountInString(reason) > maxDisputeText {
			return refuse(CodeInvalid, "refusal.dispute_reason", move, maxDisputeText)
		}
		if _, err := plainText(reason); err != nil {
			return err
		}
		for _, d := range t.Disputes {
			if d.Move == move && d.Seat == seat && d.Ruling == nil {
				return refuse(CodeConflict, "refusal.dispute_again", move, d.Version)
			}
		}
		c.disputed = true
		return c.stage(TypeDisputed, Disputed{Seat: seat, Move: move, Reason: reason}, "")
	}
}

// RuleDispute records the referee's ruling on the dispute recorded at
// version dispute: decision is RulingUpheld or RulingRejected.
func (s *Service) RuleDispute(ctx context.Context, actor Actor, gameID string, dispute int, decision, text string) (Outcome, error) {
	text = strings.TrimSpace(text)
	decision = strings.ToLower(strings.TrimSpace(decision))
	req := request{gameID: gameID, retry: true, hash: commandHash("rule", gameID, strconv.Itoa(dispute), decision, text)}
	return s.exec(ctx, actor, req, func(c *cmdCtx) error {
		t := c.table
		if t.Referee() == "" {
			return refuse(CodeConflict, "refusal.no_referee", t.ID)
		}
		if actor.User == "" || actor.User != t.Referee() {
			return refuse(CodeForbidden, "refusal.referee_only", t.ID)
		}
		if decision != RulingUpheld && decision != RulingRejected {
			return refuse(CodeInvalid, "refusal.ruling_word", RulingUpheld, RulingRejected, decision)
		}
		if text == "" || utf8.RuneCountInString(text) > maxDisputeText {
			return refuse(CodeInvalid, "refusal.ruling_text", maxDisputeText)
		}
		if _, err := plainText(text); err != nil {
			return err
		}
		for _, d := range t.Disputes {
			if d.Version != dispute {
				continue
			}
			if d.Ruling != nil {
				return refuse(CodeConflict, "refusal.ruled_already", d.Move, d.Ruling.Version)
			}
			c.disputed = true
			return c.stage(TypeRuled, Ruled{Dispute: dispute, Decision: decision, Text: text}, "")
		}
		return refuse(CodeNotFound, "refusal.no_dispute", t.ID, dispute)
	})
}

// disputeText says what a dispute or a ruling event is, in plain words.
func (t *Table) disputeText(typ string, data []byte, viewer games.Seat) (games.Phrase, error) {
	switch typ {
	case TypeDisputed:
		var d Disputed
		if err := json.Unmarshal(data, &d); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		if d.Seat == viewer && viewer != games.Spectator {
			return words.Phrase("change.you_disputed", d.Move, d.Reason), nil
		}
		return words.Phrase("change.disputed", t.nameText(d.Seat), d.Move, d.Reason), nil
	default:
		var r Ruled
		if err := json.Unmarshal(data, &r); err != nil {
			return games.Phrase{}, fmt.Errorf("decode %s: %w", typ, err)
		}
		switch r.Decision {
		case RulingUpheld:
			return words.Phrase("change.ruled_upheld", r.Dispute, r.Text), nil
		case RulingRejected:
			return words.Phrase("change.ruled_rejected", r.Dispute, r.Text), nil
		}
		return words.Phrase("change.ruled", r.Decision, r.Dispute, r.Text), nil
	}
}

// DisputesOf lists a game's disputes for user, and whether user is its
// referee; a *Error (CodeForbidden) when user neither plays nor referees it.
func (s *Service) DisputesOf(ctx context.Context, gameID, user string) ([]Dispute, bool, error) {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, false, err
	}
	if _, ok := t.ViewerOf(user); !ok {
		return nil, false, refuse(CodeForbidden, "refusal.disputes_not_yours")
	}
	return t.Disputes, user != "" && user == t.Referee(), nil
}

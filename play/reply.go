package play

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/games"
)

// The reply verbs: what a player may write about a game instead of a move,
// on the first line of a reply to its mail or of its page's text box.
const (
	VerbAway    = "away"    // "away 3d": the player's deadlines wait (AwayFor)
	VerbBack    = "back"    // "back": they run again (BackNow)
	VerbClaim   = "claim"   // "claim": the last player still in wins (Claim)
	VerbDispute = "dispute" // "dispute 12 why": flag version 12 (DisputeMove)
	VerbResign  = "resign"  // "resign": leave the game (Resign)
)

// Reply is a reply verb as ParseReply reads it.
type Reply struct {
	Verb    string        // one of the Verb constants
	For     time.Duration // VerbAway: how long
	Version int           // VerbDispute: the version disputed
	Reason  string        // VerbDispute: why (the rest of the first line and the lines after it)
}

// ParseReply reads what a player wrote, cleaned as moves are, as a reply
// verb. ok is false when it is no verb (it is moves); err is a *Error
// saying how to write the verb when it is one, written wrongly.
func ParseReply(lines []string) (r Reply, ok bool, err error) {
	return parseReply(cleanLines(lines))
}

// parseReply is ParseReply on cleaned lines.
func parseReply(lines []string) (Reply, bool, error) {
	if len(lines) == 0 {
		return Reply{}, false, nil
	}
	word, rest, _ := strings.Cut(lines[0], " ")
	verb := strings.ToLower(word)
	rest = strings.TrimSpace(rest)
	switch verb {
	case VerbAway:
		d, err := ParseAbsence(rest)
		if err != nil {
			return Reply{Verb: verb}, true, err
		}
		return Reply{Verb: verb, For: d}, true, nil
	case VerbBack, VerbClaim, VerbResign:
		// "back to the kitchen" may be a game's move; the verb stands alone.
		return Reply{Verb: verb}, rest == "", nil
	case VerbDispute:
		num, reason, _ := strings.Cut(rest, " ")
		v, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(num), "v"))
		if err != nil {
			return Reply{Verb: verb}, true, refuse(CodeInvalid, `write the version you dispute and why, as "dispute 12 the deal gave me two copies of the same card"`)
		}
		reason = strings.TrimSpace(strings.Join(append([]string{reason}, lines[1:]...), " "))
		return Reply{Verb: verb, Version: v, Reason: reason}, true, nil
	}
	return Reply{}, false, nil
}

// ParseAbsence reads how long a player will be away ("3d", "36h",
// "1d12h"), for every door: a written "away 3d" and the API's absence
// get the same refusal.
func ParseAbsence(s string) (time.Duration, error) {
	d, err := ParseDuration(s)
	if err != nil {
		return 0, refuse(CodeInvalid, "say how long you will be away, as 3d or 36h (%v)", err)
	}
	return d, nil
}

// replyRequest is the request of a reply verb on a game: the same whether
// the verb was written or sent to the API's own endpoint.
func replyRequest(gameID string, r Reply) request {
	parts := []string{gameID}
	switch r.Verb {
	case VerbAway:
		parts = append(parts, r.For.String())
	case VerbDispute:
		parts = append(parts, strconv.Itoa(r.Version), r.Reason)
	}
	return request{gameID: gameID, retry: true, hash: commandHash(r.Verb, parts...)}
}

// Text is what a player wrote about one game, in a reply to its mail or in
// its page's text box: move lines, or a reply verb.
type Text struct {
	GameID string
	// Seat is the seat the text answers when the door knows it (a reply
	// address names it): only that seat's player may write for it.
	// games.Spectator: the actor's own seat.
	Seat games.Seat
	// Expected is the version of the game the player saw; required. A move
	// against a version the game has left is stale (see Move); a reply
	// verb does not depend on it.
	Expected int
	// Lines is the text as written; Write cleans it.
	Lines []string
}

// NoVersion is the Expected of a text that came without the version its
// writer saw (a form sent without it): Write refuses it, saying so.
const NoVersion = -1

// Written is what Write did.
type Written struct {
	Outcome
	// Reply is the reply verb that ran; its Verb is empty for moves.
	Reply Reply
	// Lines is the text as cleaned.
	Lines []string
	// Until is when the absence declared ends (VerbAway).
	Until time.Time
	// Seen is the brief of the seat (without Since) at the version the
	// text was decided on, set when the text was refused and the actor
	// plays that seat: what a refusal needs to offer the moves again.
	Seen *Brief
}

// Write runs what a player wrote about a game, for every door that takes
// text (mail replies, the game page's box): a reply verb (ParseReply) runs
// as AwayFor, BackNow, Claim, DisputeMove or Resign would, anything else is
// played as move lines (Move), in one command on the game folded once.
// Every refusal is a *Error, a *StaleError or a game's rule error, with
// Written.Seen set when the actor plays the seat.
func (s *Service) Write(ctx context.Context, actor Actor, text Text) (Written, error) {
	lines := cleanLines(text.Lines)
	w := Written{Lines: lines}
	reply, isReply, err := parseReply(lines)
	// A text refused before any command still reserves its idempotency
	// key (rolled back with the refusal): it needs a hash of its own.
	req := request{gameID: text.GameID, retry: true, hash: commandHash("write", text.GameID, strconv.Itoa(text.Expected), strings.Join(lines, "\n"))}
	var decide command
	var v viewer
	switch {
	case len(lines) == 0:
		decide = refusal(refuse(CodeInvalid, "what you wrote has no move: write one as listed, or its number"))
	case text.Expected < 0:
		decide = refusal(refuse(CodeInvalid, "say which version of the game you saw: the game's page and every prompt give it"))
	case err != nil:
		decide = refusal(err)
	case !isReply:
		if err := checkMoves(lines, text.Expected); err != nil {
			decide = refusal(err)
			break
		}
		req, decide = moveRequest(text.GameID, text.Expected, lines), moveCmd(actor, text.Expected, lines, &v)
	default:
		w.Reply = reply
		req = replyRequest(text.GameID, reply)
		switch reply.Verb {
		case VerbAway:
			decide = awayCmd(actor, reply.For)
		case VerbBack:
			decide = backCmd(actor)
		case VerbClaim:
			decide = claimCmd(actor)
		case VerbDispute:
			decide = disputeCmd(actor, reply.Version, reply.Reason)
		default:
			decide = resignCmd(actor)
		}
	}
	out, err := s.exec(ctx, actor, req, func(c *cmdCtx) error {
		t := c.table
		w.Seen = nil
		seat := text.Seat
		if seat == games.Spectator {
			seat = t.SeatOf(actor.User)
		} else if actor.User == "" || t.UserAt(seat) != actor.User {
			// Said without the game's id or the seat: the writer may be a
			// stranger who holds a reply address.
			return refuse(CodeForbidden, "this was written for another player's seat: only that player can act with it")
		}
		err := decide(c)
		if err != nil && seat != games.Spectator && len(c.staged) == 0 {
			if b, berr := t.brief(seat); berr == nil {
				w.Seen = &b
			}
		}
		if err == nil && reply.Verb == VerbAway {
			w.Until, _ = t.awayUntil(seat, c.now)
		}
		return err
	})
	w.Outcome = out
	if !isReply {
		err = s.staleOr(ctx, actor, text.GameID, text.Expected, v, err)
	}
	return w, err
}

// refusal is a decision that refuses with err.
func refusal(err error) command {
	return func(*cmdCtx) error { return err }
}

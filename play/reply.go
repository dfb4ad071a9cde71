package play

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/games"
)

// The reply verbs: what a player may write about a game instead of a move,
// on the first line of a reply to its mail or of its page's text box. Each
// is read in every language courrier speaks, accents optional and case
// ignored: its forms are play's catalog's "verb.<verb>" (English: away,
// back, claim, dispute, resign, language; French: absent, retour,
// revendiquer, litige or réclamation, abandon, langue, and a few
// conjugated forms such as "je suis de retour"). No form
// may be a word of a game's notation (a test checks every game's catalog):
// "contester", the natural French for "dispute", is a move of Coup and
// Coyote, so a French player disputes with "litige".
const (
	VerbAway    = "away"    // "away 3d", "absent 3j": the player's deadlines wait (AwayFor)
	VerbBack    = "back"    // "back", "retour": they run again (BackNow)
	VerbClaim   = "claim"   // "claim", "revendiquer": the last player still in wins (Claim)
	VerbDispute = "dispute" // "dispute 12 why", "litige 12 pourquoi": flag version 12 (DisputeMove)
	VerbResign  = "resign"  // "resign", "abandon": leave the game (Resign)
	// VerbLanguage ("language fr", "langue français") chooses the language
	// the player reads. Accounts are api/auth's: play only reads the verb,
	// and the door sets the language (auth.Users.SetLanguage).
	VerbLanguage = "language"
	// VerbSay ("say good luck", "dis bonne chance") says something at the
	// table; "say to Ana: shall we?" ("dis à Ana : on s'allie ?") to one
	// player, where the game allows private messages (Say).
	VerbSay = "say"
	// Take-backs by consent: "takeback" or "undo" ("reprise", "annuler")
	// asks to take back the writer's last move (RequestTakeBack); "agree"
	// and "refuse" ("d'accord", "refuser") answer the open request
	// (AnswerTakeBack).
	VerbTakeBack = "takeback"
	VerbAgree    = "agree"
	VerbRefuse   = "refuse"
)

// Reply is a reply verb as ParseReply reads it.
type Reply struct {
	Verb    string        // one of the Verb constants
	For     time.Duration // VerbAway: how long
	Version int           // VerbDispute: the version disputed
	Reason  string        // VerbDispute: why (the rest of the first line and the lines after it)
	// Language is the language VerbLanguage chooses, one of
	// games.Languages.
	Language string
	// To is the player VerbSay speaks to privately ("" for the table);
	// Said is what it says.
	To   string
	Said string
	// Lang is the language the verb was written in, when only one
	// language has that word ("fr" for "absent", "en" for "away"); "" when
	// several have it.
	Lang string
}

// verbForm is a form of a reply verb: the verb and the languages that
// write it so.
type verbForm struct {
	verb  string
	langs []string
}

// verbTable is every form of every reply verb in every language, folded
// (FoldReply), and the most words a form has: read once from play's
// catalog, never changed.
var verbTable, verbWords = func() (map[string]verbForm, int) {
	table, longest := map[string]verbForm{}, 0
	for _, lang := range games.Languages() {
		for _, verb := range []string{VerbAway, VerbBack, VerbClaim, VerbDispute, VerbResign, VerbLanguage, VerbSay, VerbTakeBack, VerbAgree, VerbRefuse} {
			pats, _ := words.Patterns(lang, "verb."+verb)
			for _, pat := range pats {
				for form := range strings.SplitSeq(pat, "|") {
					f := FoldReply(form)
					if f == "" {
						continue
					}
					vf := table[f]
					vf.verb = verb
					if !slices.Contains(vf.langs, lang) {
						vf.langs = append(vf.langs, lang)
					}
					table[f] = vf
					longest = max(longest, len(strings.Fields(f)))
				}
			}
		}
	}
	return table, longest
}()

// FoldReply is a reply's words as they are compared: lower case, accents
// removed, the typographic apostrophe a straight one, runs of spaces one.
func FoldReply(s string) string {
	return strings.Join(strings.Fields(games.FoldWord(strings.ReplaceAll(s, "’", "'"))), " ")
}

// ReplyVerbs lists every form of every reply verb, folded, with its verb:
// for the test that no game's notation uses one.
func ReplyVerbs() map[string]string {
	out := make(map[string]string, len(verbTable))
	for f, vf := range verbTable {
		out[f] = vf.verb
	}
	return out
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
	fields := strings.Fields(lines[0])
	var vf verbForm
	n := 0
	for k := min(verbWords, len(fields)); k > 0; k-- {
		if f, ok := verbTable[FoldReply(strings.Join(fields[:k], " "))]; ok {
			vf, n = f, k
			break
		}
	}
	if n == 0 {
		return Reply{}, false, nil
	}
	r := Reply{Verb: vf.verb}
	if len(vf.langs) == 1 {
		r.Lang = vf.langs[0]
	}
	rest := strings.Join(fields[n:], " ")
	switch r.Verb {
	case VerbAway:
		d, err := ParseAbsence(rest)
		if err != nil {
			return r, true, err
		}
		r.For = d
		return r, true, nil
	case VerbBack, VerbClaim, VerbResign, VerbTakeBack, VerbAgree, VerbRefuse:
		// "back to the kitchen" may be a game's move; the verb stands alone.
		if rest != "" {
			return Reply{}, false, nil
		}
		return r, true, nil
	case VerbLanguage:
		if rest == "" {
			return r, true, refuse(CodeInvalid, "refusal.language_how")
		}
		lang, ok := ParseLanguage(rest)
		if !ok {
			return r, true, refuse(CodeInvalid, "refusal.language_unknown", rest, languageNames())
		}
		r.Language = lang
		return r, true, nil
	case VerbSay:
		return parseSay(r, rest, lines[1:])
	}
	num, reason, _ := strings.Cut(rest, " ")
	v, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(num), "v"))
	if err != nil {
		return r, true, refuse(CodeInvalid, "refusal.dispute_how")
	}
	r.Version = v
	r.Reason = strings.TrimSpace(strings.Join(append([]string{reason}, lines[1:]...), " "))
	return r, true, nil
}

// parseSay reads what follows the verb say: "to <name>: text" ("à <nom> :
// texte") says it to one player, anything else to the whole table; the
// lines after the first are part of the message.
func parseSay(r Reply, rest string, more []string) (Reply, bool, error) {
	text := strings.TrimSpace(strings.Join(append([]string{rest}, more...), "\n"))
	lower := strings.ToLower(text)
	for _, to := range []string{"to ", "à ", "a "} {
		if to == "a " && r.Lang != "fr" || !strings.HasPrefix(lower, to) {
			continue
		}
		name, said, ok := strings.Cut(text[len(to):], ":")
		if ok && !strings.Contains(name, "\n") {
			r.To, text = strings.TrimSpace(name), strings.TrimSpace(said)
		}
		break
	}
	// An empty message is refused by Say, in the words every door gives.
	r.Said = text
	return r, true, nil
}

// ParseLanguage reads the language a person names, in any language
// courrier speaks: a tag ("fr", "en-GB"), or a name ("français",
// "French", "anglais"), accents optional and case ignored. It returns one
// of games.Languages.
func ParseLanguage(s string) (string, bool) {
	s = strings.TrimRight(strings.TrimSpace(s), ".!")
	if l, ok := games.Language(s); ok {
		return l, true
	}
	f := FoldReply(s)
	for _, l := range games.Languages() {
		names := []string{words.In(l).Must(games.T("language.name"))}
		for _, in := range games.Languages() {
			names = append(names, words.In(in).Must(games.T("language."+l)))
		}
		for _, n := range names {
			if FoldReply(n) == f {
				return l, true
			}
		}
	}
	return "", false
}

// languageNames lists the languages courrier speaks, named in the
// reader's language.
func languageNames() games.Text {
	items := make([]any, 0, len(games.Languages()))
	for _, l := range games.Languages() {
		items = append(items, games.T("language."+l))
	}
	return games.List(items...)
}

// ParseAbsence reads how long a player will be away ("3d", "36h",
// "1d12h"), for every door: a written "away 3d" and the API's absence
// get the same refusal.
func ParseAbsence(s string) (time.Duration, error) {
	d, err := ParseDuration(s)
	if err != nil {
		return 0, &Error{Code: CodeInvalid, Message: words.Phrase("refusal.absence_how", phraseOf(err)), Err: err}
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
	// Lang is the language the text was written in, when its words say
	// it: a reply verb's (Reply.Lang), or the game's notation words of the
	// moves (games.Catalog.LanguageOf: "enchère 5" is French); "" when
	// nothing tells (numbers, words the languages share). A door applies
	// decision 5 with it: a player without a language setting is written
	// to in the language of the command they used.
	Lang string
	// Said is the message a VerbSay said.
	Said *Message
}

// Write runs what a player wrote about a game, for every door that takes
// text (mail replies, the game page's box): a reply verb (ParseReply) runs
// as AwayFor, BackNow, Claim, DisputeMove or Resign would, anything else is
// played as move lines (Move), in one command on the game folded once.
// Every refusal is a *Error, a *StaleError or a game's rule error, with
// Written.Seen set when the actor plays the seat. A language verb
// (VerbLanguage) runs nothing: Written.Reply carries it to the door, which
// sets the player's language through api/auth. Written.Lang is the
// language the text was written in, when it tells.
func (s *Service) Write(ctx context.Context, actor Actor, text Text) (Written, error) {
	lines := cleanLines(text.Lines)
	w := Written{Lines: lines}
	reply, isReply, err := parseReply(lines)
	if isReply {
		w.Lang = reply.Lang
		if reply.Verb == VerbLanguage && err == nil {
			w.Reply = reply
			return w, nil
		}
		if reply.Verb == VerbSay && err == nil {
			w.Reply = reply
			return s.writeSay(ctx, actor, text, w)
		}
	}
	// A text refused before any command still reserves its idempotency
	// key (rolled back with the refusal): it needs a hash of its own.
	req := request{gameID: text.GameID, retry: true, hash: commandHash("write", text.GameID, strconv.Itoa(text.Expected), strings.Join(lines, "\n"))}
	var decide command
	var v viewer
	switch {
	case len(lines) == 0:
		decide = refusal(refuse(CodeInvalid, "refusal.nothing_written"))
	case text.Expected < 0:
		decide = refusal(refuse(CodeInvalid, "refusal.no_version"))
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
		case VerbTakeBack:
			req = takeBackRequest(text.GameID, text.Expected)
			decide = takeBackCmd(actor, text.Expected)
		case VerbAgree, VerbRefuse:
			req = answerRequest(text.GameID, text.Expected, reply.Verb == VerbAgree)
			decide = answerCmd(actor, reply.Verb == VerbAgree, answerNames{seen: text.Expected})
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
			return refuse(CodeForbidden, "refusal.other_seat")
		}
		if !isReply && t.Engine != nil {
			w.Lang = t.Engine.Words().LanguageOf(strings.Join(lines, " "))
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

// writeSay runs a written say: the text's seat, when the door names one,
// must be the writer's.
func (s *Service) writeSay(ctx context.Context, actor Actor, text Text, w Written) (Written, error) {
	t, err := s.Load(ctx, text.GameID)
	if err != nil {
		return w, err
	}
	w.GameID, w.Version, w.From = t.ID, t.Version, t.Version
	if text.Seat != games.Spectator && (actor.User == "" || t.UserAt(text.Seat) != actor.User) {
		return w, refuse(CodeForbidden, "refusal.other_seat")
	}
	to, err := t.seatNamed(w.Reply.To)
	if err != nil {
		return w, err
	}
	said, err := talkText(w.Reply.Said)
	if err != nil {
		return w, err
	}
	m, err := s.say(ctx, actor, t, to, said)
	if err != nil {
		return w, err
	}
	w.Said = &m
	return w, nil
}

// refusal is a decision that refuses with err.
func refusal(err error) command {
	return func(*cmdCtx) error { return err }
}

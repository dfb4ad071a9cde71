package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify/incoming"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// inboundWorker processes one stored inbound mail: a move by reply, a join
// by reply to an invitation, or a lobby command to the service address.
type inboundWorker struct {
	river.WorkerDefaults[jobs.Inbound]
	s *Service
}

// inboundRow is a stored inbound mail.
type inboundRow = mailstore.Inbound

// handled is what processing one mail decided: its outcome in words, and
// the answers to send (none for ignored mail).
type handled struct {
	outcome string
	answers []jobs.Answer
	sender  string
	gameID  string
	refused bool // answered with a refusal
	// unverified is set when the mail failed the identity check: its From
	// may be forged, so it is answered once an hour at most.
	unverified bool
	// lang is the language the sender is answered in: their account's
	// setting, else the language of the command they wrote (decision 5);
	// "" until either is known (English).
	lang string
	// setting is set when lang is the account's own setting, which a
	// command's language does not change.
	setting bool
}

// speaker says the words of the answers to the mail, in its sender's
// language.
func (h handled) speaker() speaker { return speakerIn(h.lang) }

// saying is words said in any language: a refusal's reason, said in the
// sender's language (and in English for the mail's outcome in the log).
type saying func(lang string) string

// sayKey is the saying of notify's key with args.
func sayKey(key string, args ...any) saying {
	return func(lang string) string { return speakerIn(lang).t(key, args...) }
}

// noMoveHere refuses moves sent in reply to a mail that asked for none,
// naming the reply verbs it takes as play reads them in the language.
func noMoveHere(lang string) string {
	sp := speakerIn(lang)
	var verbs []string
	for _, v := range []string{play.VerbDispute, play.VerbAway, play.VerbBack, play.VerbClaim, play.VerbResign} {
		verbs = append(verbs, sp.q(sp.verb(v)))
	}
	return sp.t("refusal.no_move_here", sp.list(verbs))
}

// sayErr says an error in any language (games.Explain: a rule's reason with
// the closest move, play's refusals).
func sayErr(err error) saying {
	return func(lang string) string { return games.Explain(err, lang) }
}

// commandIn notes the language a command was written in ("" when its
// words do not tell): a sender whose account has no language setting is
// answered in it, and the account notes it (Users.NoteLanguage: only when
// unset), so their next mails are written in it too. user is "" for a
// sender without an account yet (newGame notes it once it made one).
func (s *Service) commandIn(ctx context.Context, h handled, user, lang string) (handled, error) {
	if lang == "" || h.setting {
		return h, nil
	}
	h.lang = lang
	if user == "" {
		return h, nil
	}
	if _, err := s.users.NoteLanguage(ctx, user, lang); err != nil {
		return h, err
	}
	h.setting = true
	return h, nil
}

// Work processes the mail once: the outcome and the answers are written in
// one transaction, so a retried job after a crash plays nothing twice (the
// move's idempotency key is the mail's Message-ID) and answers once.
func (w *inboundWorker) Work(ctx context.Context, job *river.Job[jobs.Inbound]) error {
	s := w.s
	r, err := s.store.Inbound(ctx, job.Args.ID)
	if errors.Is(err, mailstore.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if r.Processed {
		return nil
	}
	h, err := s.handle(ctx, r)
	if err != nil {
		return err
	}
	p := mailstore.Processed{Outcome: h.outcome, Sender: h.sender, GameID: h.gameID}
	if h.refused {
		p.Outcome = "refused: " + p.Outcome
	}
	for i, a := range h.answers {
		a.InboundID, a.Seq = r.ID, i+1
		p.Answers = append(p.Answers, a)
	}
	done, err := s.store.FinishInbound(ctx, mailstore.InserterFrom(ctx), r.ID, p)
	if err != nil {
		return err
	}
	if done {
		s.log.InfoContext(ctx, "inbound mail", "inbound_id", r.ID, "outcome", h.outcome, "answers", len(h.answers), "job_id", job.ID)
	}
	return nil
}

// handle decides what an inbound mail does. It returns an error only for
// what a retry may cure (the database); everything about the mail itself
// is an outcome.
func (s *Service) handle(ctx context.Context, r inboundRow) (handled, error) {
	in, err := incoming.Read(ctx, r.Raw, r.MailFrom, s.cfg.LookupTXT)
	if err != nil {
		return handled{outcome: "ignored: unreadable: " + err.Error()}, nil
	}
	if in.Automatic != "" {
		return handled{outcome: "ignored: " + in.Automatic}, nil
	}
	if in.From == nil || in.From.Address == "" {
		return handled{outcome: "ignored: no From address"}, nil
	}
	h := handled{sender: in.From.Address}
	// Every command acts in the From's name (a move, a join, a lobby
	// command): its envelope and the trusted relay must agree.
	id := s.checkIdentity(r.MailFrom, in, s.cfg.Inbound.Trusted.Contains(r.RemoteAddr))
	user, err := s.users.ByEmail(ctx, in.From.Address)
	if err != nil && !errors.Is(err, auth.ErrNoUser) {
		return h, err
	}
	h.lang, h.setting = user.Known(), user.Language != ""
	if s.cfg.RepliesPerHour > 0 {
		recent, until, err := s.store.RecentFrom(ctx, in.From.Address, s.cfg.RepliesPerHour)
		if err != nil {
			return h, err
		}
		if recent >= s.cfg.RepliesPerHour {
			return s.overHourly(ctx, h, id, recent, until)
		}
	}
	if id.problem != nil {
		// Say nothing of the game: the sender is not known to be its player.
		h.unverified = true
		return s.refuse(ctx, h, in, play.Brief{}, nil, id.problem, "")
	}
	// Mail from an address that bounced says its mailbox works again.
	if err := s.users.ClearBounce(ctx, user.ID); err != nil {
		return h, err
	}
	actor := play.Actor{
		User: user.ID, Channel: play.ChannelEmail, RequestID: "mail-" + strconv.FormatInt(r.ID, 10),
		MessageID: in.MessageID, Sender: in.From.Address, MailAuth: mailAuth(id, in),
	}
	if in.MessageID != "" && user.ID != "" {
		actor.IdempotencyKey = "mail:" + in.MessageID
	}
	local, _, _ := strings.Cut(r.Rcpt, "@")
	kind, token, _ := strings.Cut(strings.ToLower(local), "+")
	switch kind {
	case TokenMove, TokenInvite, TokenConfirm, TokenGame:
		tok, err := s.cfg.Signer.Verify(token)
		if err != nil || tok.Kind != kind {
			// The SMTP server refused such an address; it expired since.
			return s.refuse(ctx, h, in, play.Brief{}, nil, sayKey("refusal.expired"), "")
		}
		if kind == TokenConfirm {
			return s.confirmReply(ctx, h, in, tok, user)
		}
		if kind == TokenInvite {
			h, err = s.join(ctx, h, in, tok, actor)
		} else {
			h, err = s.move(ctx, h, in, tok, actor)
		}
		if err == nil && !h.refused {
			// A reply to an address courrier signed proves the sender
			// reads mail there.
			err = s.users.ConfirmAddress(ctx, in.From.Address)
		}
		return h, err
	default:
		return s.lobby(ctx, h, in, actor, r.ID, id)
	}
}

// mailAuth is what is kept of a mail's authentication: what checking its
// identity found, courrier's own DKIM result, then the
// Authentication-Results the receiving servers added, as received.
func mailAuth(id identity, in incoming.Message) string {
	out := id.checked + "; dkim=" + in.DKIM
	if in.AuthResults != "" {
		out += "\n" + in.AuthResults
	}
	return out
}

// move runs a reply to a prompt, moves or a reply verb, for the seat and
// against the version its reply address names: play decides it on the
// game folded once, and says what a refusal needs.
func (s *Service) move(ctx context.Context, h handled, in incoming.Message, tok Token, actor play.Actor) (handled, error) {
	lines := incoming.MoveLines(in.Text)
	if ok, lang, written, err := languageVerb(lines); ok {
		return s.setLanguage(ctx, h, in, actor, lang, written, err)
	}
	if _, verb, _ := play.ParseReply(lines); tok.Kind == TokenGame && !verb {
		// A reply to a mail that asked for no move (a receipt, the
		// game-over mail): it shows no moves to choose from.
		b, err := s.verbsBrief(ctx, tok, actor)
		if err != nil {
			return h, err
		}
		return s.refuse(ctx, h, in, b, lines, noMoveHere, "")
	}
	w, err := s.play.Write(ctx, actor, play.Text{GameID: tok.Game, Seat: games.Seat(tok.Seat), Expected: tok.Version, Lines: lines})
	// The words of the moves or of the reply verb tell the language they
	// were written in, when only one language has them (play's Written.Lang).
	var gerr error
	if h, gerr = s.commandIn(ctx, h, actor.User, w.Lang); gerr != nil {
		return h, gerr
	}
	if err != nil {
		b := play.Brief{GameID: tok.Game} // say nothing of the game to someone who is not its player
		if w.Seen != nil {
			b = *w.Seen
		}
		if pe, ok := errors.AsType[*play.Error](err); ok && pe.Code == play.CodeNotFound {
			b = play.Brief{}
		}
		return s.refuseMove(ctx, h, in, b, lines, err)
	}
	name := tok.Game
	if w.Game != nil {
		if eng, err := catalog.Registry().Get(w.Game.Kind); err == nil {
			name = eng.Info().Name + " " + tok.Game
		}
	}
	sp := h.speaker()
	var said []string
	switch w.Reply.Verb {
	case "":
		h.outcome = movedOutcome(len(w.Lines), tok.Game, w.Outcome)
		return h, nil
	case play.VerbClaim:
		h.outcome = "claimed game " + tok.Game
		return h, nil // the game-over mail says the rest
	case play.VerbBack:
		said = []string{sp.t("verb.back"), sp.t("verb.others_told")}
	case play.VerbAway:
		var loc *time.Location
		if u, uerr := s.users.ByID(ctx, actor.User); uerr == nil {
			loc = u.Location()
		}
		said = []string{sp.t("verb.away", sp.when(w.Until, loc)), sp.t("verb.others_told")}
	case play.VerbDispute:
		return s.verbNotice(h, fmt.Sprintf("disputed version %d of game %s", w.Reply.Version, tok.Game), tok, w.Version, NoticeData{
			Subject: sp.subject("verb.dispute_subject", name, w.Reply.Version),
			Paragraphs: []string{
				sp.t("verb.dispute", w.Reply.Version, w.Version),
				sp.t("verb.dispute_told"),
			},
		})
	case play.VerbResign:
		said = []string{sp.t("verb.resigned", tok.Game, w.Version, w.Head)}
	case play.VerbSay:
		return s.verbNotice(h, "said in game "+tok.Game, tok, w.Version, sayNotice(sp, name, w.Said))
	case play.VerbTakeBack:
		said = []string{sp.t("verb.takeback"), sp.t("verb.others_told")}
	case play.VerbAgree:
		said = []string{sp.t("verb.agree")}
		if w.TakeBackOutcome == play.TakeBackTaken {
			said = append(said, sp.t("verb.taken_back"))
		}
	case play.VerbRefuse:
		said = []string{sp.t("verb.refuse"), sp.t("verb.others_told")}
	}
	verb := w.Reply.Verb
	if v, err := sp.w.Say(games.T("verb.name." + verb)); err == nil {
		verb = v
	}
	return s.verbNotice(h, w.Reply.Verb+" in game "+tok.Game, tok, w.Version, NoticeData{
		Subject: sp.subject("verb.subject", name, verb), Paragraphs: said,
	})
}

// verbNotice answers a reply verb the player ran in the game tok names:
// its reply address takes the reply verbs for their seat, as the game's
// other mails that ask for no move do, so that "dispute 12 why" in reply
// to it reaches the game.
func (s *Service) verbNotice(h handled, outcome string, tok Token, version int, d NoticeData) (handled, error) {
	d.Paragraphs = append(d.Paragraphs, h.speaker().gameVerbs())
	h, err := s.notice(h, outcome, tok.Game, d)
	if err != nil {
		return h, err
	}
	h.answers[len(h.answers)-1].ReplyTo = s.replyTo(TokenGame, tok.Game, tok.Seat, version)
	return h, nil
}

// verbsBrief is what a refusal of a mail sent to a game's reply address
// (tok) may say of the game: the seat's brief without its moves when the
// sender plays the seat, so that the refusal takes the reply verbs too;
// else only the game's id.
func (s *Service) verbsBrief(ctx context.Context, tok Token, actor play.Actor) (play.Brief, error) {
	b, err := s.play.Brief(ctx, tok.Game, games.Seat(tok.Seat))
	if err != nil {
		if _, ok := errors.AsType[*play.Error](err); ok {
			return play.Brief{GameID: tok.Game}, nil
		}
		return play.Brief{}, fmt.Errorf("brief of game %s for a refusal: %w", tok.Game, err)
	}
	if actor.User == "" || b.User != actor.User {
		return play.Brief{GameID: tok.Game}, nil
	}
	b.Pending, b.Choices = nil, nil
	return b, nil
}

// movedOutcome says what a reply of n move lines played in game: every
// line, or the lines before the one that was refused (the receipt tells
// the player the same).
func movedOutcome(n int, game string, out play.Outcome) string {
	switch r := out.Refused; {
	case out.Replay:
		return "replayed: the same mail was already played"
	case r != nil:
		return fmt.Sprintf("played %d of %d line(s) in game %s: version %d → %d; not played: %v", r.Line-1, n, game, out.From, out.Version, r)
	}
	return fmt.Sprintf("played %d line(s) in game %s: version %d → %d", n, game, out.From, out.Version)
}

// refuseMove answers a move that was not played: stale, illegal or
// malformed.
func (s *Service) refuseMove(ctx context.Context, h handled, in incoming.Message, b play.Brief, lines []string, err error) (handled, error) {
	if stale, ok := errors.AsType[*play.StaleError](err); ok {
		// play's words, the same through every door, with what changed
		// since, in the seat's words.
		problem := func(lang string) string {
			sp := speakerIn(lang)
			out := games.Explain(stale, sp.lang())
			if !strings.HasSuffix(out, ".") {
				out += "."
			}
			var what []string
			for _, c := range stale.Changes {
				if !c.Text.IsZero() {
					what = append(what, c.Text.In(sp.lang()))
				}
			}
			if len(what) > 0 {
				out = sp.t("refusal.since_then", out, strings.Join(what, " "))
			}
			return sp.t("refusal.nothing_played", out)
		}
		return s.refuse(ctx, h, in, b, lines, problem, "")
	}
	if re, ok := games.AsRuleError(err); ok {
		return s.refuse(ctx, h, in, b, lines, sayErr(re), re.Rule)
	}
	if _, ok := errors.AsType[*play.Error](err); ok {
		return s.refuse(ctx, h, in, b, lines, sayErr(err), "")
	}
	return h, err
}

// refuse answers a mail that changed nothing, at most RefusalsPerHour
// times per sender per game per hour (a loop between two machines stops
// there), the last of them saying so and until when. b names the game
// when the sender may know it; lines are what they sent; problem says why,
// in the sender's language.
func (s *Service) refuse(ctx context.Context, h handled, in incoming.Message, b play.Brief, lines []string, problem saying, rule string) (handled, error) {
	h.outcome, h.gameID = "not played: "+problem(games.English), b.GameID
	limit := s.cfg.RefusalsPerHour
	if h.unverified {
		limit = 1
	}
	n, until, err := s.store.RecentRefusals(ctx, in.From.Address, b.GameID)
	if err != nil {
		return h, err
	}
	if limit > 0 && n >= limit {
		h.outcome += fmt.Sprintf(" (not answered: %d refusals were sent within the hour, the last saying so)", n)
		return h, nil
	}
	h.refused = true
	sp := h.speaker()
	why := problem(sp.lang())
	if limit > 0 && n == limit-1 {
		// The last refusal of the hour says so, and until when.
		why, rule = sp.because(why, rule)+" "+sp.refusalLimitWords(limit, b.GameID != "", until), ""
	}
	d := RefusalData{Lang: sp.lang(), Player: b.Player, Sent: lines, Problem: why, Rule: rule, Version: b.Version}
	if b.Kind != "" {
		d.Game = s.gameRef(b, sp.lang())
		// The rules link of a refusal opens the page at the rule it cites,
		// in the reader's language.
		d.Game.RulesURL = s.rulesURL(b.Kind, sp.lang(), rule)
	} else if b.GameID != "" {
		d.Game = GameRef{ID: b.GameID}
	}
	a := jobs.Answer{Mail: KindRefusal, GameID: b.GameID}
	switch {
	case b.User == "" || b.GameID == "" || b.Seat < 0:
		// The sender is not known to play a seat of the game: the
		// refusal is answered at the service address.
	case len(b.Pending) > 0:
		// The player may answer the refusal with a corrected move.
		d.Choices, d.Version = choicesIn(s.words(b.Kind, sp.lang()), b.Choices), b.Version
		a.ReplyTo = s.replyTo(TokenMove, b.GameID, int(b.Seat), b.Version)
	default:
		// Not their turn, or the game is over: the refusal takes the
		// reply verbs for the seat, as the game's other mails do.
		d.Verbs = true
		a.ReplyTo = s.replyTo(TokenGame, b.GameID, int(b.Seat), b.Version)
	}
	data, err := json.Marshal(d)
	if err != nil {
		return h, fmt.Errorf("encode refusal: %w", err)
	}
	a.Data = data
	h.answers = append(h.answers, a)
	return h, nil
}

// overHourly sets aside a mail from a sender who sent RepliesPerHour
// mails within the hour (recent), unread until until. The sender is told
// once an hour at most, and only when the mail passed the identity check
// (whose sender is who it says: a forged From gets no mail from courrier
// for it); the answer goes out within the first-contact budgets like any
// answer to an address not confirmed.
func (s *Service) overHourly(ctx context.Context, h handled, id identity, recent int, until time.Time) (handled, error) {
	what := fmt.Sprintf("hourly: %s sent %d mails in the last hour; read again from %s", h.sender, recent, until.UTC().Format(time.RFC3339))
	if id.problem != nil {
		h.outcome = mailstore.OverLimit + what + " (not answered: its sender is not known to be " + h.sender + ")"
		return h, nil
	}
	told, err := s.store.RecentlyTold(ctx, h.sender, "hourly")
	if err != nil {
		return h, err
	}
	if told > 0 {
		h.outcome = mailstore.OverLimit + what + " (not answered: told within the hour)"
		return h, nil
	}
	h, err = s.notice(h, what, "", h.speaker().hourlyLimitNotice(recent, until))
	h.outcome = mailstore.OverLimitTold + h.outcome
	return h, err
}

// notice answers a lobby command, in the sender's language unless d says
// another.
func (s *Service) notice(h handled, outcome, gameID string, d NoticeData) (handled, error) {
	h.outcome = outcome
	if d.Lang == "" {
		d.Lang = h.speaker().lang()
	}
	data, err := json.Marshal(d)
	if err != nil {
		return h, fmt.Errorf("encode notice: %w", err)
	}
	h.answers = append(h.answers, jobs.Answer{Mail: KindNotice, GameID: gameID, Data: data})
	return h, nil
}

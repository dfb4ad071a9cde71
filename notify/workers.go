package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/courrier-games/courrier/games/catalog"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/play"
)

// gameRef names a game in a mail in lang: its rules link is to the page
// in that language.
func (s *Service) gameRef(b play.Brief, lang string) GameRef {
	ref := GameRef{ID: b.GameID, Kind: b.Kind, Name: b.Name}
	if s.cfg.BaseURL != "" && b.Kind != "" {
		ref.RulesURL = s.rulesURL(b.Kind, lang, "")
	}
	return ref
}

// rulesURL is the link to a game's rules page in lang (at rule, when it
// is a rule id of the page).
func (s *Service) rulesURL(kind, lang, rule string) string {
	return strings.TrimRight(s.cfg.BaseURL, "/") + catalog.RulesPath(kind, mailLang(lang), rule)
}

// sinceLines are the sentences of what happened since a seat last acted,
// in lang; what the system played at a deadline says so.
func sinceLines(changes []play.Change, lang string) []string {
	sp := speakerIn(lang)
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		switch {
		case c.Text.IsZero():
		case c.Meta.Channel == play.ChannelSystem:
			out = append(out, sp.t("prompt.by_default", c.Text.In(sp.lang())))
		default:
			out = append(out, c.Text.In(sp.lang()))
		}
	}
	return out
}

// toDo says what a seat's pending entries ask of it, in the game's words
// (games.ToDo) and their language: "bid higher than the last bid or call
// Coyote (rule CY-30)".
func toDo(words games.Words, pending []games.Pending) []string {
	sp := speakerIn(words.Lang())
	out := make([]string, 0, len(pending))
	for _, p := range pending {
		line := games.ToDo(words, p.Kind)
		if p.Rule != "" {
			line = sp.t("prompt.todo_rule", line, p.Rule)
		}
		out = append(out, line)
	}
	return out
}

// choicesIn writes a seat's numbered moves in lang (games.Words.WriteMove):
// each notation word in the language's first form, the rest as it is. The
// numbers stay those of the canonical list, so a reply by number plays the
// same move.
func choicesIn(words games.Words, choices []string) []string {
	out := make([]string, len(choices))
	for i, c := range choices {
		out[i] = words.WriteMove(c)
	}
	return out
}

// promptWorker mails a seat whose pending entry opened: its view, what
// happened since it last acted, and its numbered moves, with a reply
// address bound to the version it shows.
type promptWorker struct {
	river.WorkerDefaults[jobs.Prompt]
	s *Service
}

// Work sends the prompt, unless the seat no longer has an entry that was
// open at the job's version (a later prompt supersedes it).
func (w *promptWorker) Work(ctx context.Context, job *river.Job[jobs.Prompt]) error {
	s, a := w.s, job.Args
	b, err := s.play.Brief(ctx, a.GameID, games.Seat(a.Seat))
	if err != nil {
		return err
	}
	current := false
	for _, p := range b.Pending {
		current = current || p.Since <= a.Version
	}
	if b.Ended || !current {
		return s.skip(ctx, s.messageID("g", b.GameID, "v"+strconv.Itoa(a.Version), "s"+strconv.Itoa(a.Seat), "prompt"),
			"the turn it prompted for was played or the game ended before it was sent")
	}
	return done(s.sendPrompt(ctx, b, KindPrompt, a.Version, a.Seat, "prompt"))
}

// tableText tells a seat's table in words: the game's own board, built
// from the seat's view only and told in the game's catalog (games.Board).
// A game without a board tells none: its prompt still has what happened and
// the moves, and a mail never carries a dump of the view.
func (s *Service) tableText(ctx context.Context, kind string, view json.RawMessage, lang string) string {
	eng, err := s.play.Registry().Get(kind)
	if err != nil {
		return ""
	}
	board, err := eng.Board(view)
	if err != nil {
		if !errors.Is(err, games.ErrNoBoard) {
			s.log.WarnContext(ctx, "a seat's board", "kind", kind, "err", err)
		}
		return ""
	}
	return strings.Join(board.Tell(eng.Words().In(lang)), "\n")
}

// words is the catalog of the game kind in lang (the words every board
// shares for a kind the registry does not know).
func (s *Service) words(kind, lang string) games.Words {
	if eng, err := s.play.Registry().Get(kind); err == nil {
		return eng.Words().In(lang)
	}
	return games.BoardWords().In(lang)
}

// sendPrompt mails seat its view, what happened since it last acted and
// its numbered moves, with a reply address bound to the brief's version:
// a prompt, or a reminder (the same, said again before the deadline).
func (s *Service) sendPrompt(ctx context.Context, b play.Brief, kind string, version, seat int, label string) error {
	r, err := s.reader(ctx, b.User)
	if err != nil {
		return err
	}
	r.to.Name = b.Player
	m := s.seatMail(b, kind, r, version, seat, label)
	m.ReplyTo = s.replyTo(TokenMove, b.GameID, seat, b.Version)
	words := s.words(b.Kind, m.Lang)
	data := PromptData{
		Game: s.gameRef(b, m.Lang), Player: b.Player, Version: b.Version, View: s.tableText(ctx, b.Kind, b.View, m.Lang),
		Since: sinceLines(b.Since, m.Lang), ToDo: toDo(words, b.Pending), Choices: choicesIn(words, b.Choices), Reminder: kind == KindReminder,
	}
	if b.Deadline != nil {
		data.Deadline = speakerIn(m.Lang).when(*b.Deadline, r.loc)
	}
	if tb := b.TakeBack; tb != nil {
		sp := speakerIn(m.Lang)
		switch {
		case tb.Seat == b.Seat:
			data.TakeBack = sp.t("prompt.takeback_yours", tb.To)
		case slices.Contains(tb.Waiting, b.Seat):
			data.TakeBack = sp.t("prompt.takeback_answer", tb.By, tb.To, sp.q(sp.t("example.agree")), sp.q(sp.t("example.refuse")), sp.when(tb.Deadline, r.loc))
		default:
			data.TakeBack = sp.t("prompt.takeback_open", tb.By, tb.To)
		}
	}
	if slices.ContainsFunc(b.Since, func(c play.Change) bool { return c.Type == play.TypeStarted }) {
		// The seat's first prompt: the game started since it last acted.
		data.Commitment = b.Commitment
	}
	m.Data = data
	m.Inline = s.boardPicture(ctx, b.Kind, b.View, "board."+m.MessageID, m.Lang)
	return s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: b.GameID})
}

// reminderWorker reminds a seat of its deadline, unless the entry it names
// is no longer pending (the player acted, or the game moved on) or the
// player turned reminders off.
type reminderWorker struct {
	river.WorkerDefaults[jobs.Reminder]
	s *Service
}

// Work implements river.Worker.
func (w *reminderWorker) Work(ctx context.Context, job *river.Job[jobs.Reminder]) error {
	a := job.Args
	b, err := w.s.play.Brief(ctx, a.GameID, games.Seat(a.Seat))
	if err != nil {
		return err
	}
	pending := slices.ContainsFunc(b.Pending, func(p games.Pending) bool { return p.Kind == a.Entry && p.Since == a.Since })
	if b.Ended || !pending {
		return w.s.skip(ctx, w.s.messageID("g", b.GameID, "v"+strconv.Itoa(a.Since), "s"+strconv.Itoa(a.Seat), "reminder-"+a.Label),
			"the turn it reminded of was played or the game ended before it was sent")
	}
	return done(w.s.sendPrompt(ctx, b, KindReminder, a.Since, a.Seat, "reminder-"+a.Label))
}

// replyTo is a reply address of kind (TokenMove, TokenGame) bound to a
// game's seat and the version its mail showed.
func (s *Service) replyTo(kind, gameID string, seat, version int) string {
	tok := s.cfg.Signer.Sign(Token{Kind: kind, Game: gameID, Seat: seat, Version: version, Expires: s.cfg.Now().Add(s.cfg.ReplyTTL)})
	return kind + "+" + tok + "@" + s.cfg.MailDomain
}

// toSeat begins a mail of kind to the player at seat: threaded in the
// game, its Message-ID fixed by game, version, seat and label so that a
// retry sends the same one.
func (s *Service) toSeat(ctx context.Context, b play.Brief, kind string, version, seat int, label string) (Mail, error) {
	r, err := s.reader(ctx, b.User)
	if err != nil {
		return Mail{}, err
	}
	r.to.Name = b.Player
	return s.seatMail(b, kind, r, version, seat, label), nil
}

// seatMail is a mail of kind to a seat's player, in their language:
// threaded in the game, its Message-ID fixed by game, version, seat and
// label.
func (s *Service) seatMail(b play.Brief, kind string, r reader, version, seat int, label string) Mail {
	return Mail{
		Kind: kind, To: r.to, Lang: r.langOr(""),
		MessageID: s.messageID("g", b.GameID, "v"+strconv.Itoa(version), "s"+strconv.Itoa(seat), label),
		InReplyTo: s.threadRoot(b.GameID), References: []string{s.threadRoot(b.GameID)},
	}
}

// receiptWorker confirms a move made by mail: what was played, the version
// and the hash of the log's head after it.
type receiptWorker struct {
	river.WorkerDefaults[jobs.Receipt]
	s *Service
}

// Work sends the receipt.
func (w *receiptWorker) Work(ctx context.Context, job *river.Job[jobs.Receipt]) error {
	s, a := w.s, job.Args
	// What the move caused, in the game's words for the mover's seat: the
	// events it wrote (the mover's own, then every consequence).
	b, caused, err := s.play.BriefAndCaused(ctx, a.GameID, games.Seat(a.Seat), a.From, a.Version)
	if err != nil {
		return err
	}
	m, err := s.toSeat(ctx, b, KindReceipt, a.Version, a.Seat, "receipt")
	if err != nil {
		return done(err)
	}
	m.ReplyTo = s.replyTo(TokenGame, b.GameID, a.Seat, a.Version)
	m.Data = ReceiptData{Game: s.gameRef(b, m.Lang), Player: b.Player, Moves: s.movesIn(b.Kind, m.Lang, a.Moves), Caused: sinceLines(caused, m.Lang), Version: a.Version, Head: a.Head, Refused: s.refusedLine(a, b.Kind, m.Lang)}
	return done(s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: a.GameID}))
}

// movesIn writes the moves played, as the player wrote them or as the
// choices they picked by number name them, in the words of the game (kind)
// in lang: each read in the game's canonical words (games.Catalog.ReadMove)
// and written in lang's (games.Words.WriteMove), so that a French player
// who answered "2" reads « enchère 4 », not the canonical "bid 4".
func (s *Service) movesIn(kind, lang string, moves []string) []string {
	eng, err := s.play.Registry().Get(kind)
	if err != nil {
		return moves
	}
	words := eng.Words().In(lang)
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = words.WriteMove(eng.Words().ReadMove(m))
	}
	return out
}

// refusedLine says, in lang, which line of a several-line move a receipt's
// job (a) says was not played and why: the rule's reason as play's
// MoveError carries it in every language, with the closest legal move in
// the words of the game (kind) in lang, and the rule. A job queued before
// the reason came in every language says it in English; "" when every
// line was played.
func (s *Service) refusedLine(a jobs.Receipt, kind, lang string) string {
	if len(a.RefusedLine) == 0 {
		return a.Refused
	}
	var me play.MoveError
	if err := json.Unmarshal(a.RefusedLine, &me); err != nil {
		return a.Refused
	}
	rule := ""
	if re, ok := games.AsRuleError(me.Err); ok {
		rule = re.Rule
		if eng, err := s.play.Registry().Get(kind); err == nil && a.RefusedSuggest != "" {
			re.Suggest, re.Notation = a.RefusedSuggest, eng.Words()
		}
	}
	sp := speakerIn(lang)
	return sp.because(sp.t("receipt.refused", me.Line, me.Text, games.Explain(me.Err, sp.lang())), rule)
}

// gameOverWorker tells every seat how the game ended, with its seed.
type gameOverWorker struct {
	river.WorkerDefaults[jobs.GameOver]
	s *Service
}

// Work sends the game-over mail.
func (w *gameOverWorker) Work(ctx context.Context, job *river.Job[jobs.GameOver]) error {
	s, a := w.s, job.Args
	b, err := s.play.Brief(ctx, a.GameID, games.Seat(a.Seat))
	if err != nil {
		return err
	}
	m, err := s.toSeat(ctx, b, KindGameOver, a.Version, a.Seat, "over")
	if err != nil {
		return done(err)
	}
	m.ReplyTo = s.replyTo(TokenGame, b.GameID, a.Seat, b.Version)
	d := GameOverData{
		Game: s.gameRef(b, m.Lang), Player: b.Player, Seed: b.Seed, Commitment: b.Commitment, Version: b.Version, Head: b.Head,
		Since: sinceLines(b.Since, m.Lang), View: s.tableText(ctx, b.Kind, b.View, m.Lang),
	}
	if d.View != "" {
		m.Inline = s.boardPicture(ctx, b.Kind, b.View, "board."+m.MessageID, m.Lang)
	}
	if b.Result != nil {
		d.Summary = b.Result.Summary.In(m.Lang)
		d.Scores = s.standings(b, m.Lang)
	}
	// The game's record for everyone: `courrier verify` re-plays it.
	var rec bytes.Buffer
	if err := s.cfg.Archive.RecordFor(ctx, &rec, a.GameID, b.User); err != nil {
		return err
	}
	name := "courrier-" + a.GameID + ".txt"
	d.RecordFile = name
	m.Data = d
	m.Attachments = []Attachment{{Name: name, ContentType: "text/plain; charset=utf-8", Data: rec.Bytes()}}
	return done(s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: a.GameID}))
}

// standings are the game's standings at its end in lang, best first, a
// line each: the board's scores (a team named with its players), else the
// result's scores by seat.
func (s *Service) standings(b play.Brief, lang string) []string {
	sp := speakerIn(lang)
	var out []string
	if eng, err := s.play.Registry().Get(b.Kind); err == nil {
		if board, err := eng.Board(b.View); err == nil && len(board.Scores) > 0 {
			say := eng.Words().In(lang).Must
			for _, sc := range board.Scores {
				names := make([]string, 0, len(sc.Seats))
				for _, seat := range sc.Seats {
					names = append(names, board.Name(seat))
				}
				who := sp.list(names)
				if !sc.Name.IsZero() {
					who = sp.t("over.team", say(sc.Name), who)
				}
				out = append(out, sp.t("over.standing", who, say(sc.Text)))
			}
			return out
		}
	}
	type line struct {
		seat, score int
	}
	var lines []line
	for seat, score := range b.Result.Scores {
		if seat < len(b.Players) {
			lines = append(lines, line{seat, score})
		}
	}
	slices.SortStableFunc(lines, func(x, y line) int { return y.score - x.score })
	for _, l := range lines {
		out = append(out, sp.t("over.standing", b.Players[l.seat], l.score))
	}
	return out
}

// invitationWorker invites a user to take a seat: they reply "join <name>".
type invitationWorker struct {
	river.WorkerDefaults[jobs.Invitation]
	s *Service
}

// Work sends the invitation, unless the game has started or the user
// already joined.
func (w *invitationWorker) Work(ctx context.Context, job *river.Job[jobs.Invitation]) error {
	s, a := w.s, job.Args
	b, err := s.play.Brief(ctx, a.GameID, games.Spectator)
	if err != nil {
		return err
	}
	messageID := s.messageID("g", a.GameID, "v"+strconv.Itoa(a.Version), a.User, "invite")
	if b.Started {
		return s.skip(ctx, messageID, "the game started before it was sent")
	}
	inviter := "" // the templates say "Someone"
	var players []string
	var standings []Standing
	for _, j := range b.Joined {
		if j.User == a.User {
			return s.skip(ctx, messageID, "the player joined before it was sent")
		}
		if j.User == b.Creator {
			inviter = j.Name
		}
		players = append(players, j.Name)
		card, err := s.play.Player(ctx, j.User)
		if pe, ok := errors.AsType[*play.Error](err); ok && pe.Code == play.CodeNotFound {
			continue // not in the game's row yet: no figures to tell
		}
		if err != nil {
			return err
		}
		st := Standing{Name: j.Name, Games: card.Reliability.Finished, Due: card.Reliability.Met != nil}
		if st.Due {
			st.Met = *card.Reliability.Met
		}
		standings = append(standings, st)
	}
	r, err := s.reader(ctx, a.User)
	if err != nil {
		return done(err)
	}
	// Someone without a language yet reads the invitation in the
	// inviter's: a French player invites people who read French.
	var creator reader
	if u, err := s.users.ByID(ctx, b.Creator); err == nil {
		creator.lang = u.Known()
	}
	lang := r.langOr(creator.langOr(""))
	tok := s.cfg.Signer.Sign(Token{Kind: TokenInvite, Game: a.GameID, Seat: -1, Version: b.Version, Expires: s.cfg.Now().Add(s.cfg.ReplyTTL)})
	m := Mail{
		Kind: KindInvitation, To: r.to, Lang: lang, ReplyTo: "i+" + tok + "@" + s.cfg.MailDomain,
		MessageID: messageID,
		InReplyTo: s.threadRoot(a.GameID), References: []string{s.threadRoot(a.GameID)},
		Data: InvitationData{
			Game: s.gameRef(b, lang), Inviter: inviter, Players: players, Name: suggestName(r.to.Address, ""), Commitment: b.Commitment,
			Standings: standings,
		},
	}
	if u, err := s.users.ByID(ctx, b.Creator); err == nil && u.ConfirmedAt != nil {
		d := m.Data.(InvitationData)
		d.InviterAddress = u.Email
		m.Data = d
	}
	return done(s.send(ctx, outgoing{Mail: m, userID: a.User, gameID: a.GameID}))
}

// suggestName makes a player name from a display name, else from the
// address's local part: letters, digits, spaces, '-', '_', '.', starting
// with a letter, at most 20 characters.
func suggestName(address, display string) string {
	src := strings.TrimSpace(display)
	if src == "" {
		src, _, _ = strings.Cut(address, "@")
		src, _, _ = strings.Cut(src, "+")
	}
	var b strings.Builder
	for _, r := range src {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" -_.", r) {
			if b.Len() == 0 && !unicode.IsLetter(r) {
				continue
			}
			if b.Len() == 0 {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
		}
		if len([]rune(b.String())) >= 20 {
			break
		}
	}
	name := strings.TrimSpace(b.String())
	if name == "" {
		return "Player"
	}
	return name
}

// answerWorker sends the answer to an inbound mail: a refusal or a lobby
// notice, to the mail's sender.
type answerWorker struct {
	river.WorkerDefaults[jobs.Answer]
	s *Service
}

// Work sends the answer.
func (w *answerWorker) Work(ctx context.Context, job *river.Job[jobs.Answer]) error {
	s, a := w.s, job.Args
	var userID string
	sender, messageID, err := s.store.Sender(ctx, a.InboundID)
	if err != nil {
		return err
	}
	if sender == "" {
		return nil
	}
	confirmed := false
	if u, err := s.users.ByEmail(ctx, sender); err == nil {
		userID, confirmed = u.ID, u.ConfirmedAt != nil
	}
	answerID := s.messageID("a", strconv.FormatInt(a.InboundID, 10), strconv.Itoa(a.Seq))
	if !confirmed {
		// The From of a mail may be forged: an answer to an address whose
		// owner never confirmed it is mail to a stranger, within budgets.
		ok, why, err := s.allowFirstContact(ctx, sender, userID, answerID)
		if err != nil {
			return err
		}
		if !ok {
			s.log.InfoContext(ctx, "answer not sent", "message_id", answerID, "why", why)
			return nil
		}
	}
	m := Mail{
		Kind: a.Mail, To: mail.Address{Address: sender},
		MessageID: answerID,
		InReplyTo: messageID, References: []string{messageID},
		ReplyTo: s.ServiceAddress().Address,
	}
	if a.GameID != "" {
		m.References = []string{s.threadRoot(a.GameID), messageID}
	}
	switch a.Mail {
	case KindRefusal:
		var d RefusalData
		if err := json.Unmarshal(a.Data, &d); err != nil {
			return river.JobCancel(fmt.Errorf("decode refusal: %w", err))
		}
		m.Data, m.Lang = d, d.Lang
	case KindNotice:
		var d NoticeData
		if err := json.Unmarshal(a.Data, &d); err != nil {
			return river.JobCancel(fmt.Errorf("decode notice: %w", err))
		}
		m.Data, m.Lang = d, d.Lang
	default:
		return river.JobCancel(fmt.Errorf("an answer of kind %q", a.Mail))
	}
	if a.ReplyTo != "" {
		m.ReplyTo = a.ReplyTo
	}
	return done(s.send(ctx, outgoing{Mail: m, userID: userID, gameID: a.GameID, answer: true}))
}

// loginWorker mails a sign-in link. The job names the link by id; its
// secret is derived here, so no job row holds one.
type loginWorker struct {
	river.WorkerDefaults[jobs.Login]
	s *Service
}

// Work sends the sign-in link.
func (w *loginWorker) Work(ctx context.Context, job *river.Job[jobs.Login]) error {
	s, a := w.s, job.Args
	if len(s.cfg.LoginKey) == 0 {
		return river.JobCancel(errors.New("no login key is configured: sign-in links cannot be mailed"))
	}
	r, err := s.reader(ctx, a.User)
	if err != nil {
		return done(err)
	}
	secret := auth.LinkSecret(s.cfg.LoginKey, a.LinkID)
	lang := r.langOr(a.Lang) // a first contact: the language of the page that asked
	m := Mail{
		Kind: KindLogin, To: r.to, Lang: lang,
		MessageID: s.messageID("login", strconv.FormatInt(a.LinkID, 10)),
		Data:      LoginData{URL: strings.TrimRight(s.cfg.BaseURL, "/") + "/login/" + secret, Expires: speakerIn(lang).t("login.minutes", 15)},
	}
	return done(s.send(ctx, outgoing{Mail: m, userID: a.User}))
}

package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/notify/incoming"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// lobbyVerbs are the commands the service address takes (notify's
// catalog's "command.<verb>" words, in every language).
// "langue fr" is play's reply verb (play.VerbLanguage), read before them.
var lobbyVerbs = []string{"new", "games", "resign", "reminders", "help"}

// helpText explains every command of the lobby by mail, in sp's language.
func (s *Service) helpText(sp speaker) []string {
	var names []string
	for _, l := range games.Languages() {
		names = append(names, sp.t("language.code", l, sp.t("language."+l)))
	}
	lines := strings.Split(sp.t("help.body", s.ServiceAddress().Address, strings.Join(names, ", ")), "\n")
	for _, id := range catalog.Registry().IDs() {
		eng, err := catalog.Registry().Get(id)
		if err != nil {
			continue
		}
		info := eng.Info()
		seats := sp.t("help.game", info.Name, info.MinSeats, info.MaxSeats)
		if info.MinSeats == info.MaxSeats {
			seats = sp.t("help.game_exactly", info.Name, info.MinSeats) // "Couillon, à 4 joueurs"
		}
		lines = append(lines, fmt.Sprintf("  %-11s %s", id, seats))
	}
	return lines
}

// lobby runs a command sent to the service address, in any language
// courrier speaks: "new coyote with …", "nouvelle partie coyote avec …".
func (s *Service) lobby(ctx context.Context, h handled, in incoming.Message, actor play.Actor, inboundID int64, id identity) (handled, error) {
	lines := incoming.MoveLines(in.Text)
	cmd := ""
	if len(lines) > 0 {
		cmd = lines[0]
	}
	if cmd == "" {
		// An empty body: the subject may hold the command.
		cmd = strings.TrimSpace(in.Subject)
	}
	if ok, lang, written, err := languageVerb([]string{cmd}); ok {
		return s.setLanguage(ctx, h, in, actor, lang, written, err)
	}
	fields := strings.Fields(cmd)
	verb, n, lang := commands.read(fields, lobbyVerbs...)
	h, err := s.commandIn(ctx, h, actor.User, lang)
	if err != nil {
		return h, err
	}
	args := fields[n:]
	sp := h.speaker()
	switch {
	case verb == "new":
		return s.newGame(ctx, h, in, actor, args, inboundID, id)
	case verb == "games":
		return s.listGames(ctx, h, actor)
	case verb == "resign":
		return s.resign(ctx, h, actor, args)
	case verb == "reminders":
		return s.reminders(ctx, h, actor, args)
	case verb == "help" || len(fields) == 0:
		return s.notice(h, "help sent", "", NoticeData{Subject: sp.subject("help.subject"), Lines: s.helpText(sp)})
	default:
		return s.notice(h, "unknown command "+strings.ToLower(fields[0]), "", NoticeData{
			Subject:    sp.subject("help.unknown_subject"),
			Paragraphs: []string{sp.t("help.unknown", sp.q(cmd))},
			Lines:      s.helpText(sp),
		})
	}
}

// setLanguage carries out a language verb ("langue fr", "language
// English"), which play's parser read (languageVerb): the sender's account
// reads lang from now on (api/auth's SetLanguage, as the settings page and
// the API set it), and the answer is written in it. refused is play's
// refusal of a verb that names no language courrier speaks: it is
// answered in the language the verb was written in (written) when the
// sender has no setting.
func (s *Service) setLanguage(ctx context.Context, h handled, in incoming.Message, actor play.Actor, lang, written string, refused error) (handled, error) {
	if refused != nil {
		var err error
		if h, err = s.commandIn(ctx, h, actor.User, written); err != nil {
			return h, err
		}
	}
	sp := h.speaker()
	var codes []string
	for _, l := range games.Languages() {
		codes = append(codes, sp.t("language.code", l, sp.t("language."+l)))
	}
	if refused != nil {
		return s.notice(h, "language: "+refused.Error(), "", NoticeData{
			Subject: sp.subject("language.subject_which"),
			Paragraphs: []string{
				msgSentence(games.Explain(refused, sp.lang())),
				sp.t("language.change", sp.q(sp.verb(play.VerbLanguage)), strings.Join(codes, ", ")),
			},
		})
	}
	user, err := s.users.Ensure(ctx, in.From.Address)
	if err != nil {
		return h, err
	}
	if err := s.users.SetLanguage(ctx, user.ID, lang); err != nil {
		return h, err
	}
	h.lang, h.setting = lang, true
	sp = h.speaker()
	codes = codes[:0]
	for _, l := range games.Languages() {
		codes = append(codes, sp.t("language.code", l, sp.t("language."+l)))
	}
	name := sp.t("language." + lang)
	return s.notice(h, "language set to "+lang, "", NoticeData{
		Subject:    sp.subject("language.subject", name),
		Paragraphs: []string{sp.t("language.set", name), sp.t("language.change", sp.q(sp.verb(play.VerbLanguage)), strings.Join(codes, ", "))},
	})
}

// newGame creates a game and invites the addresses named: "new <game>
// with <address> … [turn <duration>] [window <duration>] [weekdays
// <days>] [<option>=<value> …] [referee <address>] [unrated]
// [reliability <percent>] [finished <games>] [as <name>]", or the
// same in another language ("nouvelle partie <jeu> avec …"). play checks
// all of it, as for every door.
func (s *Service) newGame(ctx context.Context, h handled, in incoming.Message, actor play.Actor, words []string, inboundID int64, id identity) (handled, error) {
	sp := h.speaker()
	fail := func(problem string) (handled, error) {
		return s.notice(h, "new game refused: "+problem, "", NoticeData{
			Subject: sp.subject("new.refused_subject"), Paragraphs: []string{problem}, Lines: s.helpText(sp),
		})
	}
	form := sp.command
	if len(words) == 0 {
		return fail(sp.t("new.which_game", sp.q(sp.t("new.example"))))
	}
	req := play.GameRequest{Kind: strings.ToLower(words[0]), Name: suggestName(in.From.Address, in.From.Name), Deadlines: map[string]string{}}
	for i := 1; i < len(words); i++ {
		w := strings.Trim(words[i], ",;<>")
		next := func() string {
			if i+1 < len(words) {
				i++
				return strings.Trim(words[i], ",;<>")
			}
			return ""
		}
		word, n, _ := commands.read(words[i:], "with", "as", "turn", "window", "weekdays", "referee", "unrated", "reliability", "finished")
		if n > 0 {
			i += n - 1
		}
		switch {
		case word == "with" || w == "":
		case word == "as":
			req.Name = strings.Join(words[i+1:], " ")
			i = len(words)
		case word == "turn" || word == "window":
			if req.Deadlines[word] = next(); req.Deadlines[word] == "" {
				return fail(sp.t("new."+word+"_how", sp.q(form(word)), sp.q(form(word)+" 3"+form("days_unit"))))
			}
		case word == "weekdays":
			list := next()
			if list == "" {
				return fail(sp.t("new.weekdays_how", sp.q(form(word)), sp.q(sp.t("new.weekdays_example"))))
			}
			req.Weekdays = append(req.Weekdays, days(list)...)
		case strings.Contains(w, "=") && !strings.Contains(w, "@"):
			name, value, _ := strings.Cut(w, "=")
			if req.Options == nil {
				req.Options = map[string]string{}
			}
			req.Options[strings.TrimSpace(name)] = strings.TrimSpace(value)
		case word == "referee":
			if req.Referee = next(); req.Referee == "" {
				return fail(sp.t("new.referee_how", sp.q(form(word))))
			}
		case word == "unrated":
			req.Unrated = true
		case word == "reliability":
			req.MinReliability = next() // play checks it, in the words of every door
		case word == "finished":
			req.MinFinished = next()
		case strings.Contains(w, "@"):
			req.Invite = append(req.Invite, w)
		default:
			return fail(sp.t("new.not_understood", sp.q(w)))
		}
	}
	if len(req.Invite) == 0 {
		return fail(sp.t("new.name_players", sp.q(sp.t("new.example_of", req.Kind))))
	}
	creator, err := s.users.Ensure(ctx, in.From.Address)
	if err != nil {
		return h, err
	}
	if h, err = s.commandIn(ctx, h, creator.ID, h.lang); err != nil {
		return h, err
	}
	// Invitations write to other people: the sender must have shown the
	// address is theirs (first contact).
	if ok, err := s.mayWriteToOthers(ctx, creator, id); err != nil {
		return h, err
	} else if !ok {
		return s.askConfirmation(ctx, h, inboundID, creator, sp.t("confirm.what_create", strings.Join(req.Invite, ", ")))
	}
	actor.User = creator.ID
	out, err := s.play.CreateGame(ctx, actor, req)
	if err != nil {
		if _, ok := errors.AsType[*play.Error](err); ok {
			return fail(games.Explain(err, sp.lang()))
		}
		if re, ok := games.AsRuleError(err); ok {
			return fail(games.Explain(re, sp.lang()))
		}
		return h, err
	}
	h.gameID = out.GameID
	eng, _ := catalog.Registry().Get(req.Kind) // known above
	created, err := s.play.Brief(ctx, out.GameID, games.Spectator)
	if err != nil {
		return h, err
	}
	return s.notice(h, "created game "+out.GameID, out.GameID, NoticeData{
		Subject: sp.subject("new.created_subject", eng.Info().Name, out.GameID),
		Paragraphs: []string{
			sp.t("new.created", out.GameID, eng.Info().Name, req.Name),
			sp.t("new.invited", strings.Join(req.Invite, ", ")),
			sp.seedPromise(created.Commitment),
		},
	})
}

// listGames answers "games": the sender's games and whose turn it is.
func (s *Service) listGames(ctx context.Context, h handled, actor play.Actor) (handled, error) {
	sp := h.speaker()
	var lines []string
	if actor.User != "" {
		list, err := s.play.GamesOf(ctx, actor.User, 50)
		if err != nil {
			return h, err
		}
		var loc *time.Location
		if u, err := s.users.ByID(ctx, actor.User); err == nil {
			loc = u.Location()
		}
		for _, g := range list {
			lines = append(lines, gameLine(sp, g, loc))
		}
	}
	if len(lines) == 0 {
		lines = []string{sp.t("games.none", sp.q(sp.t("new.example")))}
	}
	return s.notice(h, "games listed", "", NoticeData{Subject: sp.subject("games.subject"), Lines: lines})
}

// gameLine is one game of a games list, in sp's language.
func gameLine(sp speaker, g projections.GameOfUser, loc *time.Location) string {
	eng, err := catalog.Registry().Get(g.Kind)
	name := g.Kind
	if err == nil {
		name = eng.Info().Name
	}
	status := g.Status
	if st, err := sp.w.Say(games.T("games.status." + g.Status)); err == nil {
		status = st
	}
	line := fmt.Sprintf("%s  %-10s %s", g.ID, name, status)
	switch {
	case g.Result != nil:
		line = sp.t("games.result", line, g.Result.Summary.In(sp.lang()))
	case len(g.ToAct) > 0:
		mine := false
		var others []string
		for _, t := range g.ToAct {
			if int(t.Seat) == g.Seat {
				mine = true
				continue
			}
			n := sp.t("games.seat", int(t.Seat))
			if int(t.Seat) < len(g.Players) {
				n = g.Players[t.Seat].Name
			}
			if !slices.Contains(others, n) {
				others = append(others, n)
			}
		}
		switch {
		case mine && len(others) > 0:
			line = sp.t("games.yours_and", line, sp.list(others))
		case mine:
			line = sp.t("games.yours", line)
		default:
			line = sp.t("games.waiting", line, sp.list(others))
		}
		var first *time.Time
		for _, t := range g.ToAct {
			if t.Deadline != nil && (first == nil || t.Deadline.Before(*first)) {
				first = t.Deadline
			}
		}
		if first != nil {
			line = sp.t("games.by", line, sp.when(*first, loc))
		}
	}
	return line
}

// resign answers "resign <game>".
func (s *Service) resign(ctx context.Context, h handled, actor play.Actor, words []string) (handled, error) {
	sp := h.speaker()
	if len(words) != 1 {
		return s.notice(h, "resign refused", "", NoticeData{Subject: sp.subject("resign.subject_refused"), Paragraphs: []string{sp.t("resign.how", sp.q(sp.t("resign.example")))}})
	}
	game := strings.ToLower(words[0])
	h.gameID = game
	out, err := s.play.Resign(ctx, actor, game)
	if err != nil {
		if _, ok := errors.AsType[*play.Error](err); ok {
			return s.notice(h, "resign refused: "+err.Error(), game, NoticeData{Subject: sp.subject("resign.subject_refused"), Paragraphs: []string{games.Explain(err, sp.lang())}})
		}
		return h, err
	}
	return s.notice(h, "resigned", game, NoticeData{
		Subject:    sp.subject("resign.subject", game),
		Paragraphs: []string{sp.t("verb.resigned", game, out.Version, out.Head)},
	})
}

// join answers a reply to an invitation: "join <name>" (or "join", which
// takes a name from the sender's), in any language ("rejoindre <nom>").
func (s *Service) join(ctx context.Context, h handled, in incoming.Message, tok Token, actor play.Actor) (handled, error) {
	h.gameID = tok.Game
	b, err := s.play.Brief(ctx, tok.Game, games.Spectator)
	if err != nil {
		return h, err
	}
	lines := incoming.MoveLines(in.Text)
	if ok, lang, written, err := languageVerb(lines); ok {
		return s.setLanguage(ctx, h, in, actor, lang, written, err)
	}
	var fields []string
	if len(lines) > 0 {
		fields = strings.Fields(lines[0])
	}
	word, n, lang := commands.read(fields, "join")
	if h, err = s.commandIn(ctx, h, actor.User, lang); err != nil {
		return h, err
	}
	if actor.User == "" || !slices.Contains(b.Invited, actor.User) {
		return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, nil, sayKey("refusal.other_invitee"), "")
	}
	name := ""
	if len(fields) > 0 {
		if word == "" {
			how := func(lang string) string {
				sp := speakerIn(lang)
				return sp.t("refusal.join_how", sp.q(sp.t("example.join", sp.t("refusal.your_name"))))
			}
			return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, lines, how, "")
		}
		name = strings.Join(fields[n:], " ")
	}
	if name == "" {
		name = suggestName(in.From.Address, in.From.Name)
	}
	out, err := s.play.Join(ctx, actor, tok.Game, name)
	if err != nil {
		if _, ok := errors.AsType[*play.Error](err); ok {
			return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, lines, sayErr(err), "")
		}
		return h, err
	}
	h.outcome = fmt.Sprintf("joined game %s as %s (version %d)", tok.Game, name, out.Version)
	return h, nil
}

// reminders turns the reminders before deadlines off or on, for all the
// sender's games.
func (s *Service) reminders(ctx context.Context, h handled, actor play.Actor, args []string) (handled, error) {
	sp := h.speaker()
	word, n, _ := commands.read(args, "on", "off")
	if n == 0 {
		return s.notice(h, "reminders: no on or off", "", NoticeData{
			Subject:    sp.subject("reminders.subject_which"),
			Paragraphs: []string{sp.t("reminders.which", sp.q(sp.t("reminders.off_example")), sp.q(sp.t("reminders.on_example")))},
		})
	}
	on := word == "on"
	if err := s.SetPreference(ctx, actor.User, "", KindReminder, on); err != nil {
		return h, err
	}
	return s.notice(h, "reminders "+word, "", NoticeData{
		Subject:    sp.subject("reminders.subject_" + word),
		Paragraphs: []string{sp.t("reminders." + word)},
	})
}

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

// helpText explains every command of the lobby by mail.
func (s *Service) helpText() []string {
	addr := s.ServiceAddress().Address
	lines := []string{
		"Write one command as the first line of a mail to " + addr + ":",
		"",
		"  new <game> with <address> <address> …",
		"      creates a game and invites those people; you take the first",
		"      seat under your name. The game starts when all have joined.",
		"      Add \"turn 3d\" or \"window 1d12h\" to set the time for a turn",
		"      or a window (at least an hour; 72h and 24h when not said),",
		"      \"weekdays mon,tue,wed,thu,fri\" for the only days deadlines run,",
		"      <option>=<value> for a game's option (as its rules page lists),",
		"      \"referee <address>\" to name a referee who does not play,",
		"      and, last, \"as <name>\" to choose your player name.",
		"  games",
		"      lists your games and whose turn it is.",
		"  resign <game id>",
		"      leaves a running game.",
		"  reminders off (or on)",
		"      stops (or resumes) the reminders sent before your deadlines.",
		"  help",
		"      this list.",
		"",
		"To join a game you were invited to, reply to the invitation with",
		"\"join <name>\". To move, reply to the prompt with your move. A reply",
		"may also say \"away 3d\" (your deadlines wait), \"back\", \"claim\"",
		"(when everyone else left), \"dispute <version> <why>\" or \"resign\".",
		"",
		"Games:",
	}
	for _, id := range catalog.Registry().IDs() {
		eng, err := catalog.Registry().Get(id)
		if err != nil {
			continue
		}
		info := eng.Info()
		lines = append(lines, fmt.Sprintf("  %-11s %s, %d to %d players", id, info.Name, info.MinSeats, info.MaxSeats))
	}
	return lines
}

// lobby runs a command sent to the service address.
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
	words := strings.Fields(cmd)
	verb := ""
	if len(words) > 0 {
		verb = strings.ToLower(words[0])
	}
	switch verb {
	case "new", "create":
		return s.newGame(ctx, h, in, actor, words[1:], inboundID, id)
	case "games", "list":
		return s.listGames(ctx, h, actor)
	case "resign":
		return s.resign(ctx, h, actor, words[1:])
	case "reminders", "reminder":
		return s.reminders(ctx, h, actor, words[1:])
	case "help", "":
		return s.notice(h, "help sent", "", NoticeData{Subject: "[courrier] how to play by mail", Lines: s.helpText()})
	default:
		return s.notice(h, "unknown command "+verb, "", NoticeData{
			Subject:    "[courrier] I did not understand your mail",
			Paragraphs: []string{fmt.Sprintf("The first line of your mail, %q, is not a command I know.", cmd)},
			Lines:      s.helpText(),
		})
	}
}

// newGame creates a game and invites the addresses named: "new <game>
// with <address> … [turn <duration>] [window <duration>] [weekdays
// <days>] [<option>=<value> …] [referee <address>] [as <name>]". play
// checks all of it, as for every door.
func (s *Service) newGame(ctx context.Context, h handled, in incoming.Message, actor play.Actor, words []string, inboundID int64, id identity) (handled, error) {
	fail := func(problem string) (handled, error) {
		return s.notice(h, "new game refused: "+problem, "", NoticeData{
			Subject: "[courrier] no game was created", Paragraphs: []string{problem}, Lines: s.helpText(),
		})
	}
	if len(words) == 0 {
		return fail("Say which game: for example \"new coyote with ana@example.org bob@example.org\".")
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
		switch lw := strings.ToLower(w); {
		case lw == "with" || lw == "and" || w == "":
		case lw == "as":
			req.Name = strings.Join(words[i+1:], " ")
			i = len(words)
		case lw == "turn" || lw == "window":
			if req.Deadlines[lw] = next(); req.Deadlines[lw] == "" {
				return fail(fmt.Sprintf("Write how long a %s lasts after %q: \"%s 3d\".", lw, lw, lw))
			}
		case lw == "weekdays":
			days := next()
			if days == "" {
				return fail("Write the days after \"weekdays\": \"weekdays mon,tue,wed,thu,fri\".")
			}
			req.Weekdays = append(req.Weekdays, strings.FieldsFunc(days, func(c rune) bool { return c == ',' })...)
		case strings.Contains(w, "=") && !strings.Contains(w, "@"):
			name, value, _ := strings.Cut(w, "=")
			if req.Options == nil {
				req.Options = map[string]string{}
			}
			req.Options[strings.TrimSpace(name)] = strings.TrimSpace(value)
		case lw == "referee":
			if req.Referee = next(); req.Referee == "" {
				return fail("Write the referee's email address after \"referee\".")
			}
		case strings.Contains(w, "@"):
			req.Invite = append(req.Invite, w)
		default:
			return fail(fmt.Sprintf("I did not understand %q: name the players by their email addresses.", w))
		}
	}
	if len(req.Invite) == 0 {
		return fail("Name the people you play with by their email addresses: \"new " + req.Kind + " with ana@example.org\".")
	}
	creator, err := s.users.Ensure(ctx, in.From.Address)
	if err != nil {
		return h, err
	}
	// Invitations write to other people: the sender must have shown the
	// address is theirs (first contact).
	if ok, err := s.mayWriteToOthers(ctx, creator, id); err != nil {
		return h, err
	} else if !ok {
		return s.askConfirmation(ctx, h, inboundID, creator, "create a game and invite "+strings.Join(req.Invite, ", "))
	}
	actor.User = creator.ID
	out, err := s.play.CreateGame(ctx, actor, req)
	if err != nil {
		if pe, ok := errors.AsType[*play.Error](err); ok {
			return fail(pe.Error())
		}
		if re, ok := games.AsRuleError(err); ok {
			return fail(re.Explain(games.English))
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
		Subject: fmt.Sprintf("[courrier] %s %s: game created", eng.Info().Name, out.GameID),
		Paragraphs: []string{
			fmt.Sprintf("You created game %s of %s and play in it as %s.", out.GameID, eng.Info().Name, req.Name),
			fmt.Sprintf("Invitations went to %s. The game starts when everyone has joined; you will get your first prompt then.", strings.Join(req.Invite, ", ")),
			seedPromise(created.Commitment),
		},
	})
}

// listGames answers "games": the sender's games and whose turn it is.
func (s *Service) listGames(ctx context.Context, h handled, actor play.Actor) (handled, error) {
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
			lines = append(lines, gameLine(g, loc))
		}
	}
	if len(lines) == 0 {
		lines = []string{"You have no games yet. Write \"new coyote with ana@example.org bob@example.org\" to start one."}
	}
	return s.notice(h, "games listed", "", NoticeData{Subject: "[courrier] your games", Lines: lines})
}

// gameLine is one game of a games list.
func gameLine(g projections.GameOfUser, loc *time.Location) string {
	eng, err := catalog.Registry().Get(g.Kind)
	name := g.Kind
	if err == nil {
		name = eng.Info().Name
	}
	line := fmt.Sprintf("%s  %-10s %s", g.ID, name, g.Status)
	switch {
	case g.Result != nil:
		line += ": " + g.Result.Summary.In(games.English)
	case len(g.ToAct) > 0:
		mine := false
		var others []string
		for _, t := range g.ToAct {
			if int(t.Seat) == g.Seat {
				mine = true
				continue
			}
			n := fmt.Sprintf("seat %d", t.Seat)
			if int(t.Seat) < len(g.Players) {
				n = g.Players[t.Seat].Name
			}
			if !slices.Contains(others, n) {
				others = append(others, n)
			}
		}
		switch {
		case mine && len(others) > 0:
			line += ": your turn (and " + strings.Join(others, ", ") + ")"
		case mine:
			line += ": your turn"
		default:
			line += ": waiting for " + strings.Join(others, ", ")
		}
		var first *time.Time
		for _, t := range g.ToAct {
			if t.Deadline != nil && (first == nil || t.Deadline.Before(*first)) {
				first = t.Deadline
			}
		}
		if first != nil {
			line += ", by " + readableTime(*first, loc)
		}
	}
	return line
}

// resign answers "resign <game>".
func (s *Service) resign(ctx context.Context, h handled, actor play.Actor, words []string) (handled, error) {
	if len(words) != 1 {
		return s.notice(h, "resign refused", "", NoticeData{Subject: "[courrier] nothing was done", Paragraphs: []string{"Write \"resign <game id>\"."}})
	}
	game := strings.ToLower(words[0])
	h.gameID = game
	out, err := s.play.Resign(ctx, actor, game)
	if err != nil {
		if pe, ok := errors.AsType[*play.Error](err); ok {
			return s.notice(h, "resign refused: "+pe.Error(), game, NoticeData{Subject: "[courrier] nothing was done", Paragraphs: []string{pe.Error()}})
		}
		return h, err
	}
	return s.notice(h, "resigned", game, NoticeData{
		Subject:    "[courrier] you left game " + game,
		Paragraphs: []string{fmt.Sprintf("You resigned from game %s (now at version %d). Receipt: %s", game, out.Version, out.Head)},
	})
}

// join answers a reply to an invitation: "join <name>" (or "join", which
// takes a name from the sender's).
func (s *Service) join(ctx context.Context, h handled, in incoming.Message, tok Token, actor play.Actor) (handled, error) {
	h.gameID = tok.Game
	b, err := s.play.Brief(ctx, tok.Game, games.Spectator)
	if err != nil {
		return h, err
	}
	if actor.User == "" || !slices.Contains(b.Invited, actor.User) {
		return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, nil,
			"this invitation was sent to another address: only the invited person can join with it", "")
	}
	lines := incoming.MoveLines(in.Text)
	name := ""
	if len(lines) > 0 {
		w := strings.Fields(lines[0])
		if len(w) > 0 && !strings.EqualFold(w[0], "join") {
			return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, lines, "to take your seat, reply \"join <your name>\"", "")
		}
		if len(w) > 1 {
			name = strings.Join(w[1:], " ")
		}
	}
	if name == "" {
		name = suggestName(in.From.Address, in.From.Name)
	}
	out, err := s.play.Join(ctx, actor, tok.Game, name)
	if err != nil {
		if pe, ok := errors.AsType[*play.Error](err); ok {
			return s.refuse(ctx, h, in, play.Brief{GameID: tok.Game}, lines, pe.Error(), "")
		}
		return h, err
	}
	h.outcome = fmt.Sprintf("joined game %s as %s (version %d)", tok.Game, name, out.Version)
	return h, nil
}

// reminders turns the reminders before deadlines off or on, for all the
// sender's games.
func (s *Service) reminders(ctx context.Context, h handled, actor play.Actor, args []string) (handled, error) {
	on := len(args) > 0 && strings.EqualFold(args[0], "on")
	if len(args) == 0 || !on && !strings.EqualFold(args[0], "off") {
		return s.notice(h, "reminders: no on or off", "", NoticeData{
			Subject:    "[courrier] reminders: on or off?",
			Paragraphs: []string{`Write "reminders off" to stop the reminders sent before your deadlines, or "reminders on" to have them again.`},
		})
	}
	if err := s.SetPreference(ctx, actor.User, "", KindReminder, on); err != nil {
		return h, err
	}
	word, state := "off", "off: you will get no reminder before a deadline (the prompts still come)"
	if on {
		word, state = "on", "on: you get a reminder at half the time allowed and 6 hours before each deadline"
	}
	return s.notice(h, "reminders "+word, "", NoticeData{
		Subject:    "[courrier] reminders are " + word,
		Paragraphs: []string{"Reminders are now " + state + "."},
	})
}

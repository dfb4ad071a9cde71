package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/projections"
)

// Layout is what every page shows around its content.
type Layout struct {
	Title   string
	User    auth.User
	Me      string // the signed-in player's display name
	CSRF    string
	DevMail bool
	// Lang is the page's language; Languages are the switch at its foot,
	// which sends the browser Back to this page.
	Lang      string
	Languages []languageChoice
	Back      string
}

// SignedIn reports whether someone is signed in.
func (l Layout) SignedIn() bool { return l.User.ID != "" }

func (h *Handler) layout(r *http.Request, title string) Layout {
	v := visitOf(r)
	lang := v.Lang
	if lang == "" {
		lang = games.English
	}
	return Layout{Title: title, User: v.User, Me: v.User.DisplayName(), CSRF: v.CSRF, DevMail: h.cfg.DevMail,
		Lang: lang, Languages: languageChoices(lang), Back: h.backTo(r)}
}

// backTo is the page to show again after the language switch: this one,
// or, for the answer to a form (a refused move), the page the form is on
// when the form's address has none of its own.
func (h *Handler) backTo(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.URL.RequestURI()
	}
	for p := r.URL.Path; p != "/" && p != "."; p = path.Dir(p) {
		probe := &http.Request{Method: http.MethodGet, Host: r.Host, URL: &url.URL{Path: p}, Header: http.Header{}}
		if _, pattern := h.routes.Handler(probe); pattern != "/" && pattern != "" {
			return p
		}
	}
	return "/"
}

type errorPage struct {
	Layout
	Status  int
	Message string
}

type homePage struct {
	Layout
	Message string
	Email   string
	Next    string
	Sent    bool
}

// home is the sign-in page, or the player's games when signed in.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	if userOf(r) != "" {
		seeOther(w, r, "/games")
		return
	}
	h.render(w, r, http.StatusOK, "home", homePage{Layout: h.layout(r, visitOf(r).say("title.sign_in"))})
}

// signOut ends the session, on the server: its token is refused from now
// on, here and on the API.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	if v := visitOf(r); v.Session != "" {
		if err := h.cfg.Sessions.Revoke(r.Context(), v.User.ID, v.Session); err != nil {
			h.failErr(w, r, err)
			return
		}
	}
	h.clearSession(w)
	seeOther(w, r, "/")
}

type accountPage struct {
	Layout
	Email    string
	TimeZone string
	Language string // the language of the player's pages and mail, in its own words
}

// account shows the signed-in account and its sign-out buttons.
func (h *Handler) account(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	v := visitOf(r)
	u := v.User
	h.render(w, r, http.StatusOK, "account", accountPage{Layout: h.layout(r, v.say("title.account")), Email: u.Email,
		TimeZone: u.Location().String(), Language: languageName(v.Lang)})
}

// signOutEverywhere ends every session of the account, on every device,
// the web's and the API's, this one included.
func (h *Handler) signOutEverywhere(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	n, err := h.cfg.Sessions.RevokeAll(r.Context(), userOf(r))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.log.InfoContext(r.Context(), "web: signed out everywhere", "user", userOf(r), "sessions", n)
	h.clearSession(w)
	seeOther(w, r, "/")
}

// gameRow is a game in a list.
type gameRow struct {
	ID, Name, Status string
	Players          string // the players' names, as a list in words
	ToAct            string // the names of who must act, as a list in words
	YourTurn         bool
	Deadline         string // the player's own deadline, in their time zone
	Updated          string
	Result           string
}

type gamesPage struct {
	Layout
	Mine []gameRow
	Open []gameRow
}

// myGames lists the player's games, newest activity first, and the games
// open to join.
func (h *Handler) myGames(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	ctx := r.Context()
	mine, err := h.cfg.Play.GamesOf(ctx, userOf(r), 100)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	open, err := h.cfg.Play.Lobby(ctx, 30)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	v := visitOf(r)
	page := gamesPage{Layout: h.layout(r, v.say("title.my_games"))}
	for _, g := range mine {
		page.Mine = append(page.Mine, h.row(v, g.Game, games.Seat(g.Seat)))
	}
	for _, g := range open {
		if !slices.ContainsFunc(mine, func(m projections.GameOfUser) bool { return m.ID == g.ID }) {
			page.Open = append(page.Open, h.lobbyRow(v, g))
		}
	}
	h.render(w, r, http.StatusOK, "games", page)
}

// row is game g as seat's player (games.Spectator: a game they may join)
// reads it in the list, in their language and time zone.
func (h *Handler) row(v visit, g projections.Game, seat games.Seat) gameRow {
	loc := v.User.Location()
	row := gameRow{ID: g.ID, Name: h.gameName(g.Kind), Status: g.Status, Updated: v.when(g.UpdatedAt, loc)}
	var players, toAct []string
	for _, p := range g.Players {
		players = append(players, p.Name)
	}
	for _, a := range g.ToAct {
		name := v.say("game.seat", int(a.Seat))
		if int(a.Seat) < len(g.Players) {
			name = g.Players[a.Seat].Name
		}
		if !slices.Contains(toAct, name) {
			toAct = append(toAct, name)
		}
		if a.Seat == seat && seat != games.Spectator {
			row.YourTurn = true
			if a.Deadline != nil {
				row.Deadline = v.when(*a.Deadline, loc)
			}
		}
	}
	row.Players, row.ToAct = v.list(players), v.list(toAct)
	if g.Result != nil {
		row.Result = g.Result.Summary.In(v.Lang)
	}
	return row
}

// gameWords are the words of the game of kind in lang (the words every
// game shares, for a kind the registry does not know).
func (h *Handler) gameWords(kind, lang string) games.Words {
	if eng, err := h.cfg.Play.Registry().Get(kind); err == nil {
		return eng.Words().In(lang)
	}
	return games.BoardWords().In(lang)
}

func (h *Handler) gameName(kind string) string {
	if eng, err := h.cfg.Play.Registry().Get(kind); err == nil {
		return eng.Info().Name
	}
	return kind
}

// catalogGame is a game of the new-game form with its options in the
// game's words.
type catalogGame struct {
	ID, Name           string
	MinSeats, MaxSeats int
	Seats              string // how many players, in words: "3 to 6 players"
	Options            []catalogOption
}

// catalogOption is one option of the form: its label and one line saying
// what it changes, both the game's words, and its values.
type catalogOption struct {
	Name, Label, Description, Default, Rules string
	Values                                   []optionValue
}

// optionValue is one value of an option, with its words (the value itself
// when the game gives none).
type optionValue struct {
	Value, Label string
}

// newGamePage is the new-game form in two steps: Games to choose from, then
// Game's own options with the players and deadlines.
type newGamePage struct {
	Layout
	Games   []catalogGame
	Game    *catalogGame
	Message string
	Form    url.Values
	// Weekdays are the days the form offers for deadlines to run on.
	Weekdays []optionValue
}

// weekdays are the days a game's deadlines may run on, as the form sends
// them, named in the visit's language.
func (v visit) weekdays() []optionValue {
	words := games.BoardWords().In(v.Lang)
	out := make([]optionValue, 0, 7)
	for i, day := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		out = append(out, optionValue{Value: day, Label: words.Must(games.T("date.weekday." + strconv.Itoa((i+1)%7)))})
	}
	return out
}

// newGame is the new-game form of the visit, in its language.
func (h *Handler) newGame(v visit, form url.Values) newGamePage {
	return newGamePage{Games: h.catalog(v), Form: form, Weekdays: v.weekdays()}
}

// DayPicked reports whether the form ticked day.
func (p newGamePage) DayPicked(day string) bool { return slices.Contains(p.Form["weekday"], day) }

// Field is the form's name of option o of the chosen game.
func (p newGamePage) Field(o catalogOption) string { return "opt-" + p.Game.ID + "-" + o.Name }

// Selected reports whether value is the one the form shows for option o:
// the one sent, or else the default.
func (p newGamePage) Selected(o catalogOption, value string) bool {
	if sent := p.Form.Get(p.Field(o)); sent != "" {
		return sent == value
	}
	return value == o.Default
}

// newGamePage asks for the game first (GET /games/new), then shows the
// chosen game's options and the rest of the form (GET /games/new?game=id):
// two plain pages, so that it works without JavaScript.
func (h *Handler) newGamePage(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	v := visitOf(r)
	page := h.newGame(v, url.Values{"name": {v.User.DisplayName()}, "play": {"on"}})
	page.Layout = h.layout(r, v.say("title.new_game"))
	status := http.StatusOK
	if id := r.URL.Query().Get("game"); id != "" {
		page.pick(v, id)
		if page.Game == nil {
			status, page.Message = http.StatusNotFound, v.say("new.no_game", id)
		}
	}
	h.render(w, r, status, "new", page)
}

// pick chooses game id of the catalog, if it is one, and titles the page
// after it.
func (p *newGamePage) pick(v visit, id string) {
	for i := range p.Games {
		if p.Games[i].ID == id {
			p.Game = &p.Games[i]
			p.Title = v.say("title.new_game_of", p.Game.Name)
		}
	}
}

// seats says how many players a game takes: "4 players", "2 to 6
// players".
func (v visit) seats(minSeats, maxSeats int) string {
	if minSeats == maxSeats {
		return v.say("new.seats", minSeats)
	}
	return v.say("new.seats_range", minSeats, maxSeats)
}

// catalog lists the games with their options, in each game's own words
// in the visit's language.
func (h *Handler) catalog(v visit) []catalogGame {
	reg := h.cfg.Play.Registry()
	var out []catalogGame
	for _, id := range reg.IDs() {
		eng, err := reg.Get(id)
		if err != nil {
			continue
		}
		info, words := eng.Info(), eng.Words().In(v.Lang)
		g := catalogGame{ID: id, Name: info.Name, MinSeats: info.MinSeats, MaxSeats: info.MaxSeats, Seats: v.seats(info.MinSeats, info.MaxSeats)}
		for _, o := range info.Options {
			opt := catalogOption{Name: o.Name, Label: words.Must(o.Label), Description: words.Must(o.Description), Default: o.Default, Rules: o.Rules}
			for i, value := range o.Values {
				label := words.Must(o.ValueLabel(i))
				opt.Values = append(opt.Values, optionValue{Value: value, Label: label})
			}
			g.Options = append(g.Options, opt)
		}
		out = append(out, g)
	}
	return out
}

// createGame creates a game from the form: its kind, options, whether the
// creator plays, the invitees, the referee, the deadlines and the weekdays
// they run on; play checks it all, as for every door.
func (h *Handler) createGame(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	_ = r.ParseForm() // checkCSRF parsed it already
	v := visitOf(r)
	page := h.newGame(v, r.PostForm)
	page.Layout = h.layout(r, v.say("title.new_game"))
	kind := r.PostFormValue("game")
	page.pick(v, kind)
	again := func(msg string) {
		page.Message = msg
		h.render(w, r, http.StatusBadRequest, "new", page)
	}
	spec := play.GameRequest{Kind: kind, Options: map[string]string{}, Deadlines: map[string]string{},
		Referee: r.PostFormValue("referee"), Weekdays: r.PostForm["weekday"]}
	// The form names each option after its game; play refuses a game it
	// does not know, in the words every door gives.
	prefix := "opt-" + kind + "-"
	for name, values := range r.PostForm {
		if opt, ok := strings.CutPrefix(name, prefix); ok && len(values) > 0 && values[0] != "" {
			spec.Options[opt] = values[0]
		}
	}
	// The talk options are play's, beside the game's own (play/talk.go).
	for _, opt := range []string{play.OptionPress, play.OptionPressReveal} {
		if v := r.PostFormValue(opt); v != "" {
			spec.Options[opt] = v
		}
	}
	if r.PostFormValue("play") != "" {
		spec.Name = strings.TrimSpace(r.PostFormValue("name"))
		if spec.Name == "" {
			again(v.say("new.need_name"))
			return
		}
	}
	for _, kindName := range []string{"turn", "window"} {
		spec.Deadlines[kindName] = r.PostFormValue("deadline-" + kindName)
	}
	spec.MinReliability, spec.MinFinished = r.PostFormValue("min-reliability"), r.PostFormValue("min-finished")
	spec.Unrated = r.PostFormValue("unrated") != ""
	spec.Invite = strings.FieldsFunc(r.PostFormValue("invite"), func(c rune) bool { return c == ',' || c == ';' || c == '\n' || c == '\r' || c == ' ' })
	out, err := h.cfg.Play.CreateGame(r.Context(), h.actor(r), spec)
	if err != nil {
		if re, ok := games.AsRuleError(err); ok {
			again(re.Explain(v.Lang))
			return
		}
		if pe, ok := errors.AsType[*play.Error](err); ok {
			again(games.Explain(pe, v.Lang))
			return
		}
		h.failErr(w, r, err)
		return
	}
	seeOther(w, r, "/games/"+out.GameID)
}

// actor is the signed-in player acting through the web.
func (h *Handler) actor(r *http.Request) play.Actor {
	return play.Actor{User: userOf(r), Channel: play.ChannelWeb, RequestID: "web-" + strconv.FormatInt(h.cfg.Now().UnixNano(), 36)}
}

// gamePageData is the game page.
type gamePageData struct {
	Layout
	ID, Kind, Name, Status string
	Version                int
	Players                []playerRow
	Seat                   int // -1: no seat
	// Open games.
	Joined, Creator, CanStart bool
	JoinURL                   string
	Needed                    string // how many players the game takes
	// Terms are what the game asks of a joining player and whether it is
	// rated, in words.
	Terms []string
	// Started games.
	Board     template.HTML
	BoardText string // the board in words, for screen readers and text browsers
	Since     []string
	SinceFrom int
	Legal     []legalMove
	Numbers   []numberMove // moves of a verb and a number, many of them: a number field each
	Choices   []string     // the numbered list of moves, in the player's words
	ToDo      []string     // what the seat is asked to decide
	Deadline  string
	Result    string
	Ended     bool
	// A refused move, shown with what was typed, and the rule it breaks
	// with the address of that rule on the game's rules page in the
	// player's language.
	Problem, Rule, Typed string
	RuleURL              string
	RulesURL             string // the game's rules page in the player's language
	Live                 bool
	// Commitment is the sha256 of the game's seed, published from its
	// creation (the end reveals the seed).
	Commitment string
	// Talk is the game's table talk this player may read and the talk box
	// (web/talk.go).
	Talk talkBox
	// TakeBack is the open take-back request, if any (running games).
	TakeBack *takeBackRow
}

// takeBackRow is the open take-back request as the game page shows it.
type takeBackRow struct {
	Version int
	Text    string // who asks to go back to which version
	// Deadline is when silence refuses, in the player's time zone.
	Deadline string
	// Asked: the visitor asked (they may withdraw); Answer: the visitor's
	// answer is awaited.
	Asked, Answer bool
}

type playerRow struct {
	Seat     int
	Name     string
	You, Act bool
	// ID is the player's id, for the link to their card.
	ID string
}

// legalMove is a move the player may make: Move as the game writes it
// (what the button sends), Label in the player's words.
type legalMove struct {
	Move, Label string
}

// rulesURL is the address of a game's rules page in lang, at rule when
// one is named.
func rulesURL(kind, lang, rule string) string { return catalog.RulesPath(kind, lang, rule) }

// gamePage shows a game to one of its players: to join, to start, or its
// board with the moves the player may make.
func (h *Handler) gamePage(w http.ResponseWriter, r *http.Request) {
	h.showGame(w, r, http.StatusOK, gamePageData{})
}

func (h *Handler) showGame(w http.ResponseWriter, r *http.Request, status int, d gamePageData) {
	if !h.requireUser(w, r) {
		return
	}
	ctx := r.Context()
	id := r.PathValue("id")
	user := userOf(r)
	who := visitOf(r)
	g, v, err := h.cfg.Play.GameAndViewFor(ctx, id, user)
	if errors.Is(err, projections.ErrNotFound) {
		h.fail(w, r, http.StatusNotFound, who.say("game.not_found", id))
		return
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if v.Seat == games.Spectator && g.Status != projections.StatusOpen {
		// A referee without a seat reads the game through its history.
		if _, _, err := h.cfg.Archive.ReplayAt(ctx, id, user, 0); err == nil {
			seeOther(w, r, "/games/"+id+"/history")
			return
		}
		h.fail(w, r, http.StatusForbidden, who.say("game.not_yours"))
		return
	}
	d.Layout = h.layout(r, h.gameName(g.Kind)+" "+id)
	d.ID, d.Kind, d.Name, d.Status, d.Version, d.Seat = id, g.Kind, h.gameName(g.Kind), g.Status, g.Version, int(v.Seat)
	d.Live = h.cfg.Live != nil
	d.RulesURL = rulesURL(g.Kind, who.Lang, "")
	if d.Rule != "" {
		d.RuleURL = rulesURL(g.Kind, who.Lang, d.Rule)
	}
	if d.Commitment, err = h.cfg.Play.Commitment(ctx, id); err != nil {
		h.failErr(w, r, err)
		return
	}
	loc := who.User.Location()
	for _, p := range g.Players {
		row := playerRow{Seat: p.Seat, Name: p.Name, You: p.Seat == int(v.Seat) && v.Seat != games.Spectator}
		for _, a := range g.ToAct {
			if int(a.Seat) == p.Seat {
				row.Act = true
				if row.You && a.Deadline != nil {
					d.Deadline = who.when(*a.Deadline, loc)
				}
			}
		}
		d.Players = append(d.Players, row)
	}
	ids, err := h.cfg.Play.PlayerIDs(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	for i := range d.Players {
		if i < len(ids) {
			d.Players[i].ID = ids[i]
		}
	}
	if g.Status == projections.StatusOpen {
		b, err := h.cfg.Play.Brief(ctx, id, games.Spectator)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		info, _ := h.cfg.Play.Registry().Get(g.Kind)
		d.Joined = slices.ContainsFunc(b.Joined, func(j play.Joined) bool { return j.User == user })
		d.Creator = b.Creator == user
		d.CanStart = d.Creator && len(b.Joined) >= info.Info().MinSeats
		d.Needed = who.seats(info.Info().MinSeats, info.Info().MaxSeats)
		d.JoinURL = strings.TrimRight(h.cfg.BaseURL, "/") + "/games/" + id
		d.Terms = terms(who, b)
		h.render(w, r, status, "game", d)
		return
	}
	if d.Board, d.BoardText, err = h.board(g.Kind, int(v.Seat), v.View, who.Lang); err != nil {
		h.failErr(w, r, err)
		return
	}
	if g.Result != nil {
		d.Ended, d.Result = true, g.Result.Summary.In(who.Lang)
	} else {
		if d.TakeBack, err = h.takeBackRow(r, id, int(v.Seat)); err != nil {
			h.failErr(w, r, err)
			return
		}
		words := h.gameWords(g.Kind, who.Lang)
		legal, numbers := numberMoves(v.Legal)
		for _, m := range legal {
			d.Legal = append(d.Legal, legalMove{Move: m, Label: words.WriteMove(m)})
		}
		for _, n := range numbers {
			n.Label = words.WriteMove(n.Verb)
			d.Numbers = append(d.Numbers, n)
		}
		for _, c := range v.Choices {
			d.Choices = append(d.Choices, words.WriteMove(c))
		}
		for _, a := range g.ToAct {
			if a.Seat == v.Seat {
				d.ToDo = append(d.ToDo, who.say("game.todo", games.ToDo(words, a.Kind), a.Rule))
			}
		}
	}
	seen, ok := h.lastSeen(r, id)
	if !ok {
		seen = max(g.Version-6, 0)
	}
	if seen < g.Version {
		changes, err := h.cfg.Play.History(ctx, id, user, seen)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		for _, c := range changes {
			if !c.Text.IsZero() {
				d.Since = append(d.Since, c.Text.In(who.Lang))
			}
		}
		d.SinceFrom = seen
	}
	if d.Talk, err = h.talkBox(r, id, d.Talk); err != nil {
		h.failErr(w, r, err)
		return
	}
	h.markSeen(w, r, id, g.Version)
	h.render(w, r, status, "game", d)
}

// join takes a place in an open game.
func (h *Handler) join(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" {
		name = visitOf(r).User.DisplayName()
	}
	h.command(w, r, func(ctx context.Context, id string) error {
		_, err := h.cfg.Play.Join(ctx, h.actor(r), id, name)
		return err
	})
}

// start starts an open game (its creator only).
func (h *Handler) start(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	h.command(w, r, func(ctx context.Context, id string) error {
		_, err := h.cfg.Play.Start(ctx, h.actor(r), id)
		return err
	})
}

// resign leaves a running game.
func (h *Handler) resign(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		h.showGame(w, r, http.StatusBadRequest, gamePageData{Problem: visitOf(r).say("game.resign_tick")})
		return
	}
	h.command(w, r, func(ctx context.Context, id string) error {
		_, err := h.cfg.Play.Resign(ctx, h.actor(r), id)
		return err
	})
}

// takeBackRow reads the game's open take-back request for the visitor at
// seat (nil: none).
func (h *Handler) takeBackRow(r *http.Request, id string, seat int) (*takeBackRow, error) {
	who := visitOf(r)
	tb, err := h.cfg.Play.TakeBackOf(r.Context(), id, userOf(r))
	if err != nil || tb == nil {
		return nil, err
	}
	row := &takeBackRow{Version: tb.Version, Deadline: who.when(tb.Deadline, who.User.Location()),
		Asked: int(tb.Seat) == seat, Answer: slices.Contains(tb.Waiting, games.Seat(seat))}
	if row.Asked {
		row.Text = who.say("game.takeback_you_asked", tb.To)
	} else {
		row.Text = who.say("game.takeback_asked", tb.By, tb.To)
	}
	return row, nil
}

// askTakeBack asks to take back the visitor's last move.
func (h *Handler) askTakeBack(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	version, err := strconv.Atoi(r.PostFormValue("version"))
	if err != nil {
		version = play.AnyVersion
	}
	h.command(w, r, func(ctx context.Context, id string) error {
		_, err := h.cfg.Play.RequestTakeBack(ctx, h.actor(r), id, version)
		return err
	})
}

// answerTakeBack agrees to or refuses the open take-back request.
func (h *Handler) answerTakeBack(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	asked, _ := strconv.Atoi(r.PostFormValue("asked")) // 0: whichever is open
	agree := r.PostFormValue("agree") == "yes"
	h.command(w, r, func(ctx context.Context, id string) error {
		_, err := h.cfg.Play.AnswerTakeBack(ctx, h.actor(r), id, asked, agree)
		return err
	})
}

// command runs a lobby command and shows the game again, with the problem
// when it was refused.
func (h *Handler) command(w http.ResponseWriter, r *http.Request, run func(ctx context.Context, id string) error) {
	id := r.PathValue("id")
	lang := visitOf(r).Lang
	if err := run(r.Context(), id); err != nil {
		if pe, ok := errors.AsType[*play.Error](err); ok {
			h.showGame(w, r, http.StatusConflict, gamePageData{Problem: games.Explain(pe, lang)})
			return
		}
		if re, ok := games.AsRuleError(err); ok {
			h.showGame(w, r, http.StatusUnprocessableEntity, gamePageData{Problem: re.Explain(lang), Rule: re.Rule})
			return
		}
		h.failErr(w, r, err)
		return
	}
	seeOther(w, r, "/games/"+id)
}

// maxListed is how many moves of one verb and a number (bid 12, bid 13 …)
// are listed as buttons; more are one number field with its bounds.
const maxListed = 12

// numberMove is a verb whose moves take a whole number between Min and
// Max ("bid" 5 to 250): one number field instead of a button each. Some
// numbers between the bounds may be illegal; play refuses them by the
// rules, as it refuses any move.
type numberMove struct {
	Verb     string
	Label    string // the verb in the player's words
	Min, Max int
}

// verbNumber is a move of a verb (one word or more) and a whole number.
var verbNumber = regexp.MustCompile(`^(\S.*?) (-?[0-9]+)$`)

// numberMoves takes out of legal each verb that comes with more than
// maxListed numbers, as a number field; rest keeps the other moves in
// their order. The web names no game: any game's "<verb> <n>" qualifies.
func numberMoves(legal []string) (rest []string, nums []numberMove) {
	count := map[string]int{}
	for _, m := range legal {
		if sub := verbNumber.FindStringSubmatch(m); sub != nil {
			count[sub[1]]++
		}
	}
	at := map[string]int{}
	for _, m := range legal {
		sub := verbNumber.FindStringSubmatch(m)
		if sub == nil || count[sub[1]] <= maxListed {
			rest = append(rest, m)
			continue
		}
		n, err := strconv.Atoi(sub[2])
		if err != nil { // too many digits: listed as it is
			rest = append(rest, m)
			continue
		}
		i, seen := at[sub[1]]
		if !seen {
			at[sub[1]] = len(nums)
			nums = append(nums, numberMove{Verb: sub[1], Min: n, Max: n})
			continue
		}
		nums[i].Min, nums[i].Max = min(nums[i].Min, n), max(nums[i].Max, n)
	}
	return rest, nums
}

// move runs what the player sent: a button's legal move, or what they typed
// (moves or a reply verb, as a reply by mail says them, or the number of a
// listed choice), against the version the page showed.
func (h *Handler) move(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	id := r.PathValue("id")
	text := r.PostFormValue("move")
	if verb := r.PostFormValue("verb"); verb != "" {
		// A number field: the verb and the number typed, as one move.
		text = verb + " " + strings.TrimSpace(r.PostFormValue("number"))
	}
	expected, err := strconv.Atoi(r.PostFormValue("version"))
	if err != nil {
		expected = play.NoVersion // play refuses a text without the version it was written against
	}
	_, err = h.cfg.Play.Write(r.Context(), h.actor(r), play.Text{GameID: id, Seat: games.Spectator, Expected: expected, Lines: []string{text}})
	if err == nil {
		seeOther(w, r, "/games/"+id)
		return
	}
	d := gamePageData{Typed: text}
	v := visitOf(r)
	if stale, ok := errors.AsType[*play.StaleError](err); ok {
		d.Problem = v.say("game.stale", games.Explain(stale, v.Lang))
		h.showGame(w, r, http.StatusConflict, d)
		return
	}
	if re, ok := games.AsRuleError(err); ok {
		d.Problem, d.Rule = re.Explain(v.Lang), re.Rule
		h.showGame(w, r, http.StatusUnprocessableEntity, d)
		return
	}
	if pe, ok := errors.AsType[*play.Error](err); ok {
		d.Problem = games.Explain(pe, v.Lang)
		h.showGame(w, r, http.StatusBadRequest, d)
		return
	}
	h.failErr(w, r, err)
}

// historyPage is a step of the step-through replay.
type historyPage struct {
	Layout
	ID, Name           string
	Version, Latest    int
	Text               string
	At                 string
	Board              template.HTML
	BoardText          string
	Reveal             []revealBoard
	Steps              []historyLine
	Prev, Next, Ended  int
	Started, Finished  bool
	Referee, HasReveal bool
	// Talk is the table talk the reader may read said at this version;
	// TalkBox, for a reader without a seat (the referee), all of it.
	Talk    []talkLine
	TalkBox talkBox
	// The list of versions is paged: From to To of Latest, with the first
	// versions of the pages before and after (0: none).
	From, To, EarlierFrom, EarlierTo, LaterFrom int
}

// historyPageSize is how many versions the history lists on a page.
const historyPageSize = 50

// pageOf returns the first version of the page of the history that holds
// version: pages start at 1, 51, 101 … whatever happens later, so that a
// link to one stays right as the game goes on.
func pageOf(version int) int { return (version-1)/historyPageSize*historyPageSize + 1 }

type historyLine struct {
	Version int
	Text    string
	Current bool
}

type revealBoard struct {
	Seat  int
	Name  string
	Board template.HTML
	Text  string
}

// history shows the game at one version as the player's seat saw it, with
// every version's sentence to step through; after the end (or for a
// referee without a seat) every seat's board too.
func (h *Handler) history(w http.ResponseWriter, r *http.Request) {
	h.showHistory(w, r, http.StatusOK, talkBox{})
}

// showHistory is history with status, and the talk box of a refused
// message or hiding (its Problem, what was typed).
func (h *Handler) showHistory(w http.ResponseWriter, r *http.Request, status int, box talkBox) {
	if !h.requireUser(w, r) {
		return
	}
	ctx := r.Context()
	id := r.PathValue("id")
	v := visitOf(r)
	version, _ := strconv.Atoi(r.URL.Query().Get("version"))
	from, _ := strconv.Atoi(r.URL.Query().Get("from"))
	g, err := h.cfg.Play.GameFor(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	latest := g.Version
	if latest < 1 {
		h.fail(w, r, http.StatusNotFound, v.say("history.none", id))
		return
	}
	if version <= 0 || version > latest {
		version = latest
	}
	if from <= 0 || from > latest {
		from = version
	}
	from = pageOf(from)
	to := min(from+historyPageSize-1, latest)
	// The steps up to the last one shown, not the whole game's.
	steps, err := h.cfg.Archive.Replay(ctx, id, userOf(r), max(version, to))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if len(steps) < to || len(steps) < version {
		h.failErr(w, r, fmt.Errorf("the history of %s: %d steps, not %d", id, len(steps), max(version, to)))
		return
	}
	st := steps[version-1]
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = p.Name
	}
	seat := -1
	if _, view, err := h.cfg.Play.GameAndViewFor(ctx, id, userOf(r)); err == nil {
		seat = int(view.Seat)
	}
	page := historyPage{Layout: h.layout(r, v.say("title.history", h.gameName(g.Kind), id)), ID: id, Name: h.gameName(g.Kind),
		Version: version, Latest: latest, Text: st.Text.In(v.Lang), At: v.when(st.At, v.User.Location()),
		Prev: version - 1, Finished: g.Status == projections.StatusFinished, From: from, To: to}
	if from > 1 {
		page.EarlierFrom, page.EarlierTo = from-historyPageSize, from-1
	}
	if to < latest {
		page.LaterFrom = to + 1
	}
	if version < latest {
		page.Next = version + 1
	}
	if string(st.View) != "null" && len(st.View) > 0 {
		page.Started = true
		if page.Board, page.BoardText, err = h.board(g.Kind, seat, st.View, v.Lang); err != nil {
			h.failErr(w, r, err)
			return
		}
	}
	if st.Reveal != nil {
		page.HasReveal = true
		for i, view := range st.Reveal.Views {
			b, text, err := h.board(g.Kind, i, view, v.Lang)
			if err != nil {
				h.failErr(w, r, err)
				return
			}
			name := v.say("game.seat", i)
			if i < len(names) {
				name = names[i]
			}
			page.Reveal = append(page.Reveal, revealBoard{Seat: i, Name: name, Board: b, Text: text})
		}
	}
	for _, s := range steps[from-1 : to] {
		page.Steps = append(page.Steps, historyLine{Version: s.Version, Text: s.Text.In(v.Lang), Current: s.Version == version})
	}
	for _, l := range st.Talk {
		page.Talk = append(page.Talk, talkLine{Heading: l.Heading.In(v.Lang), Text: l.Text.In(v.Lang), At: version})
	}
	if seat < 0 {
		// The referee without a seat reads the game here: the whole talk,
		// with a box to talk to the table and a button to hide a message.
		if page.TalkBox, err = h.talkBox(r, id, box); err != nil {
			h.failErr(w, r, err)
			return
		}
	}
	h.render(w, r, status, "history", page)
}

// auditPage is an audit report as its reader reads it: what the game's
// moves did and its result in their language, each move in their words.
type auditPage struct {
	Layout
	ID                 string
	Passed             bool
	FirstBad, Version  int
	Players            string
	Commitment, Seed   string
	Result             string
	Checked, Unchecked []string
	Problems           []auditProblem
	Disputes           []auditDispute
	Moves              []auditMove
}

// auditProblem is a problem of the audit report in the reader's words.
type auditProblem struct {
	Version int
	What    string
}

// auditDispute is a dispute of the audit report with the referee's
// decision in the reader's words (Decision "" when there is no ruling).
type auditDispute struct {
	archive.Dispute
	Decision string
}

// auditMove is a move of the audit report in the reader's words.
type auditMove struct {
	archive.AuditedMove
	Said []string
}

// audit shows the audit report of a finished game.
func (h *Handler) audit(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	rep, err := h.cfg.Archive.AuditFor(r.Context(), r.PathValue("id"), userOf(r))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	v := visitOf(r)
	words := h.gameWords(rep.Kind, v.Lang)
	page := auditPage{Layout: h.layout(r, v.say("title.audit", rep.Game)), ID: rep.Game, Passed: rep.Passed, FirstBad: rep.FirstBad,
		Version: rep.Version, Players: v.list(rep.Players), Commitment: rep.Commitment, Seed: rep.Seed,
		Checked: sayAll(rep.Checked, v.Lang), Unchecked: sayAll(rep.Unchecked, v.Lang)}
	for _, p := range rep.Problems {
		page.Problems = append(page.Problems, auditProblem{Version: p.Version, What: p.What.In(v.Lang)})
	}
	for _, d := range rep.Disputes {
		ad := auditDispute{Dispute: d}
		if d.Ruling != nil {
			ad.Decision = d.Ruling.Said().In(v.Lang)
		}
		page.Disputes = append(page.Disputes, ad)
	}
	if rep.Result != nil {
		page.Result = rep.Result.Summary.In(v.Lang)
	}
	for _, m := range rep.Moves {
		am := auditMove{AuditedMove: m}
		am.Move = words.WriteMove(m.Move)
		if s, err := pageWords.In(v.Lang).Say(games.T("audit.channel." + strings.ReplaceAll(m.Channel, " ", "_"))); err == nil {
			am.Channel = s
		}
		for _, said := range m.Said {
			if s := said.In(v.Lang); s != "" {
				am.Said = append(am.Said, s)
			}
		}
		page.Moves = append(page.Moves, am)
	}
	h.render(w, r, http.StatusOK, "audit", page)
}

// sayAll says phrases in lang.
func sayAll(phrases []games.Phrase, lang string) []string {
	out := make([]string, len(phrases))
	for i, p := range phrases {
		out[i] = p.In(lang)
	}
	return out
}

// record downloads the game's record as the player may have it (a file for
// archives: English, see archive.WriteRecord).
func (h *Handler) record(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	id := r.PathValue("id")
	var b bytes.Buffer
	if err := h.cfg.Archive.RecordFor(r.Context(), &b, id, userOf(r)); err != nil {
		h.failErr(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="courrier-`+id+`.txt"`)
	_, _ = w.Write(b.Bytes()) // the client went away: nothing to do
}

type rulesPage struct {
	Layout
	Game     string
	Markdown string // the address of the page as Markdown
	PageLang string // the language the rules are written in
	Blocks   []block
}

// rules shows a game's rules page in the page's language, or in the one
// its address names (?lang=fr: a link from a refusal or a mail), each rule
// anchored by its id (/rules/coyote?lang=fr#CY-6).
func (h *Handler) rules(w http.ResponseWriter, r *http.Request) {
	v := visitOf(r)
	if l, ok := games.Language(r.URL.Query().Get("lang")); ok {
		v.Lang = l
		r = r.WithContext(withSession(r.Context(), v))
		w.Header().Set("Content-Language", l)
	}
	game := r.PathValue("game")
	page, err := catalog.RulesPage(game, v.Lang)
	if err != nil {
		h.fail(w, r, http.StatusNotFound, v.say("error.no_game", game))
		return
	}
	written := v.Lang
	if english, _ := catalog.RulesPage(game, games.English); v.Lang != games.English && page == english {
		written = games.English // no page in the reader's language yet
	}
	if strings.Contains(r.Header.Get("Accept"), "text/markdown") || r.URL.Query().Get("format") == "md" {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Language", written)
		_, _ = w.Write([]byte(page)) //nolint:gosec // G705: our own embedded rules page, served as text/markdown with nosniff; the query only picks which
		return
	}
	h.render(w, r, http.StatusOK, "rules", rulesPage{Layout: h.layout(r, v.say("title.rules", h.gameName(game))), Game: h.gameName(game),
		Markdown: "?format=md&lang=" + url.QueryEscape(v.Lang), PageLang: written, Blocks: markdown(page)})
}

// setLanguage is the language switch at the foot of every page: it
// remembers the visitor's choice (a cookie, for a year), saves it as the
// signed-in player's setting, and shows the page again.
func (h *Handler) setLanguage(w http.ResponseWriter, r *http.Request) {
	v := visitOf(r)
	tag := r.PostFormValue("language")
	lang, ok := games.Language(tag)
	if !ok || tag == "" {
		h.fail(w, r, http.StatusBadRequest, v.say("error.language", tag, strings.Join(games.Languages(), ", ")))
		return
	}
	if v.User.ID != "" {
		if err := h.cfg.Users.SetLanguage(r.Context(), v.User.ID, lang); err != nil {
			h.failErr(w, r, err)
			return
		}
	}
	http.SetCookie(w, h.cookie(langCookie, lang, "/", 365*24*3600))
	back := r.PostFormValue("back")
	if !localPath(back) {
		back = "/"
	}
	seeOther(w, r, back)
}

// live streams the game's changes as Server-Sent Events: the page's script
// fetches the new board on each.
func (h *Handler) live(w http.ResponseWriter, r *http.Request) {
	user := userOf(r)
	if user == "" {
		http.Error(w, "sign in first", http.StatusUnauthorized)
		return
	}
	if h.cfg.Live == nil {
		http.Error(w, "live updates are not available", http.StatusServiceUnavailable)
		return
	}
	ctx := r.Context()
	id := r.PathValue("id")
	if _, v, err := h.cfg.Play.GameAndViewFor(ctx, id, user); err != nil || v.Seat == games.Spectator {
		http.Error(w, "not your game", http.StatusForbidden)
		return
	}
	after, _ := strconv.Atoi(r.URL.Query().Get("since"))
	if le, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil {
		after = le
	}
	updates, stop, err := h.cfg.Live.Follow(ctx, id, user, after)
	if err != nil {
		http.Error(w, "live updates are not available", http.StatusServiceUnavailable)
		return
	}
	defer stop()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	tick := time.NewTicker(25 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
		case u, ok := <-updates:
			if !ok {
				return
			}
			data, _ := json.Marshal(map[string]any{"version": u.Version, "text": u.Text.In(visitOf(r).Lang)}) // a map of a string and an int always encodes
			if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", u.Version, data); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

// The settings page: the language the player reads (api/auth's
// SetLanguage, as PATCH /v1/me does), and which mail they get, for all
// games (a checkbox per kind) and for each of their games (the game's own
// settings, which win). It reads and writes through api/auth's
// MailPreferences, as GET/PATCH /v1/me/mail and the mail's unsubscribe
// link do. One form, one Save.

// mailBox is a kind's checkbox for all games.
type mailBox struct {
	mailKind
	Name string // the form field
	On   bool
}

// mailKind is a kind of mail in the reader's words.
type mailKind struct {
	ID, Label, About string
}

// kindOf says kind k in the visit's language.
func (v visit) kindOf(k auth.MailKind) mailKind {
	return mailKind{ID: k.ID, Label: v.say("mail.kind." + k.ID + ".label"), About: v.say("mail.kind." + k.ID + ".about")}
}

// mailCell is a select of a game's own setting: "" (none: the broader
// setting applies), "on" or "off".
type mailCell struct {
	Name    string // the form field
	Label   string // what it sets, for screen readers
	Value   string
	Default bool // what applies with no setting here
}

// gameSettings is a game's row.
type gameSettings struct {
	ID, Name string
	Every    mailCell   // the game's setting for every kind
	Cells    []mailCell // its settings of single kinds, in the order of settingsPage.PerGame
}

type settingsPage struct {
	Layout
	All     []mailBox
	PerGame []mailKind // the kinds set per game: the columns of the games' table
	Games   []gameSettings
	Bounced bool
	Saved   bool
	Problem string
}

// settings shows the mail settings.
func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	h.renderSettings(w, r, http.StatusOK, r.URL.Query().Get("saved") == "1", "")
}

// renderSettings renders the page as the preferences now are.
func (h *Handler) renderSettings(w http.ResponseWriter, r *http.Request, status int, saved bool, problem string) {
	m, err := h.mailPrefs().Get(r.Context(), userOf(r))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	v := visitOf(r)
	page := settingsPage{Layout: h.layout(r, v.say("title.settings")), Bounced: m.Bounced, Saved: saved, Problem: problem}
	for _, k := range auth.MailKinds() {
		page.All = append(page.All, mailBox{mailKind: v.kindOf(k), Name: "all." + k.ID, On: m.AllGames[k.ID]})
		if k.PerGame {
			page.PerGame = append(page.PerGame, v.kindOf(k))
		}
	}
	for _, g := range m.Games {
		own := ownSettings(g.Settings)
		name := g.Game.Name
		if name == "" {
			name = v.say("settings.col.game")
		}
		row := gameSettings{ID: g.Game.ID, Name: name, Every: mailCell{
			Name: "g." + g.Game.ID + ".every", Label: v.say("settings.every_label", name, g.Game.ID), Value: own[""],
		}}
		for _, k := range page.PerGame {
			def := m.AllGames[k.ID]
			if v, ok := own[""]; ok {
				def = v == "on"
			}
			row.Cells = append(row.Cells, mailCell{Name: "g." + g.Game.ID + "." + k.ID,
				Label: v.say("settings.kind_label", k.Label, name, g.Game.ID), Value: own[k.ID], Default: def})
		}
		page.Games = append(page.Games, row)
	}
	h.render(w, r, status, "settings", page)
}

// saveSettings applies what the form changed: the mail settings in one
// call to auth (all or nothing), then the language when the form changed
// it; and shows the page again, in the language now chosen.
func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	ctx := r.Context()
	v := visitOf(r)
	prefs := h.mailPrefs()
	cur, err := prefs.Get(ctx, userOf(r))
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	lang := ""
	if tag := r.PostFormValue("language"); tag != "" {
		l, ok := games.Language(tag)
		if !ok {
			h.renderSettings(w, r, http.StatusBadRequest, false, v.say("error.language", tag, strings.Join(games.Languages(), ", ")))
			return
		}
		if l != v.User.Language {
			lang = l
		}
	}
	changes, err := formChanges(r, cur, v)
	if err == nil && len(changes) > 0 {
		err = prefs.Change(ctx, userOf(r), changes)
	}
	if me, ok := errors.AsType[*auth.MailError](err); ok {
		h.renderSettings(w, r, http.StatusBadRequest, false, games.Explain(me, v.Lang))
		return
	}
	if err == nil && lang != "" {
		err = h.cfg.Users.SetLanguage(ctx, userOf(r), lang)
		http.SetCookie(w, h.cookie(langCookie, lang, "/", 365*24*3600))
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	seeOther(w, r, "/settings?saved=1")
}

// formChanges are the changes the form asks against the preferences it
// showed: the checkboxes for all games that changed, and each game's
// selects that changed (all of them again after its setting for every
// kind changed, which replaces them).
func formChanges(r *http.Request, cur auth.MailSettings, v visit) ([]auth.MailChange, error) {
	if err := r.ParseForm(); err != nil {
		return nil, fmt.Errorf("read the form: %w", err)
	}
	var changes []auth.MailChange
	kinds := auth.MailKinds()
	for _, k := range kinds {
		if on := r.PostForm.Get("all."+k.ID) == "on"; on != cur.AllGames[k.ID] {
			changes = append(changes, auth.MailChange{Kind: k.ID, On: &on})
		}
	}
	var bad []string
	change := func(game, kind, value string) {
		c := auth.MailChange{Game: game, Kind: kind}
		switch value {
		case "on", "off":
			c.On = new(value == "on")
		case "":
		default:
			bad = append(bad, v.say("settings.bad_value", value))
			return
		}
		changes = append(changes, c)
	}
	for _, g := range cur.Games {
		prefix := "g." + g.Game.ID + "."
		if !r.PostForm.Has(prefix + "every") {
			continue // a game the form did not show
		}
		own := ownSettings(g.Settings)
		every := r.PostForm.Get(prefix + "every")
		if every != own[""] {
			change(g.Game.ID, "", every)
		}
		for _, k := range kinds {
			if !k.PerGame {
				continue
			}
			if value := r.PostForm.Get(prefix + k.ID); value != own[k.ID] || every != own[""] && value != "" {
				change(g.Game.ID, k.ID, value)
			}
		}
	}
	if len(bad) > 0 {
		return nil, &auth.MailError{Problems: bad}
	}
	return changes, nil
}

// ownSettings is a scope's settings by kind ("" for every kind): "on" or
// "off".
func ownSettings(list []auth.MailSetting) map[string]string {
	out := map[string]string{}
	for _, s := range list {
		out[s.Kind] = "off"
		if s.On {
			out[s.Kind] = "on"
		}
	}
	return out
}

// mailPrefs is the account store's mail preferences, knowing the player's
// games from play.
func (h *Handler) mailPrefs() *auth.MailPreferences {
	return h.cfg.Users.MailPreferences(h.playerGames)
}

// playerGames lists user's games for the mail preferences, by the names
// the pages give them.
func (h *Handler) playerGames(ctx context.Context, user string) ([]auth.PlayerGame, error) {
	list, err := h.cfg.Play.GamesOf(ctx, user, 200)
	if err != nil {
		return nil, fmt.Errorf("list the games of %s: %w", user, err)
	}
	out := make([]auth.PlayerGame, 0, len(list))
	for _, g := range list {
		out = append(out, auth.PlayerGame{ID: g.ID, Name: h.gameName(g.Kind)})
	}
	return out, nil
}

package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/courrier-games/courrier/api/auth"
)

// GetMailPreferences shows which mail the caller gets, for all games and
// for each of their games (api/auth's MailPreferences decide).
func (s *Server) GetMailPreferences(ctx context.Context, _ GetMailPreferencesRequestObject) (GetMailPreferencesResponseObject, error) {
	m, err := s.mailPrefs().Get(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return GetMailPreferences200JSONResponse(mailPreferences(m, langOf(ctx))), nil
}

// ChangeMailPreferences applies the caller's changes, all or none, and
// shows the result; an unknown kind or game is a 400 naming every problem
// and the valid kinds.
func (s *Server) ChangeMailPreferences(ctx context.Context, req ChangeMailPreferencesRequestObject) (ChangeMailPreferencesResponseObject, error) {
	changes := make([]auth.MailChange, 0, len(req.Body.Changes))
	for _, c := range req.Body.Changes {
		changes = append(changes, auth.MailChange{Game: orEmpty(c.Game), Kind: orEmpty(c.Kind), On: c.On})
	}
	prefs := s.mailPrefs()
	if err := prefs.Change(ctx, userOf(ctx), changes); err != nil {
		if me, ok := errors.AsType[*auth.MailError](err); ok {
			e := failWith(http.StatusBadRequest, codeMalformed, me)
			e.details = me.ProblemsIn
			return nil, e
		}
		return nil, err
	}
	m, err := prefs.Get(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return ChangeMailPreferences200JSONResponse(mailPreferences(m, langOf(ctx))), nil
}

// mailPrefs is the account store's mail preferences, knowing the player's
// games from play.
func (s *Server) mailPrefs() *auth.MailPreferences {
	return s.cfg.Users.MailPreferences(s.playerGames)
}

// playerGames lists user's games for the mail preferences, named as the
// API names them.
func (s *Server) playerGames(ctx context.Context, user string) ([]auth.PlayerGame, error) {
	list, err := s.cfg.Play.GamesOf(ctx, user, 200)
	if err != nil {
		return nil, fmt.Errorf("list the games of %s: %w", user, err)
	}
	out := make([]auth.PlayerGame, 0, len(list))
	for _, g := range list {
		name := g.Kind
		if eng, err := s.cfg.Play.Registry().Get(g.Kind); err == nil {
			name = eng.Info().Name
		}
		out = append(out, auth.PlayerGame{ID: g.ID, Name: name})
	}
	return out, nil
}

// mailPreferences is auth's MailSettings in the API's shape, the kinds
// named in lang.
func mailPreferences(m auth.MailSettings, lang string) MailPreferences {
	out := MailPreferences{
		Kinds:    []MailKind{},
		AllGames: MailScope{Mail: m.AllGames, Settings: mailSettings(m.Settings)},
		Games:    make([]GameMail, 0, len(m.Games)),
		Bounced:  m.Bounced,
	}
	for _, k := range auth.MailKinds() {
		out.Kinds = append(out.Kinds, MailKind{Id: k.ID, Label: k.LabelIn(lang), About: k.AboutIn(lang), PerGame: k.PerGame})
	}
	for _, g := range m.Games {
		out.Games = append(out.Games, GameMail{Game: g.Game.ID, Name: g.Game.Name, Mail: g.Mail, Settings: mailSettings(g.Settings)})
	}
	return out
}

// mailSettings is a scope's settings in the API's shape: no kind for
// every kind.
func mailSettings(list []auth.MailSetting) []MailSetting {
	out := make([]MailSetting, 0, len(list))
	for _, s := range list {
		m := MailSetting{On: s.On}
		if s.Kind != "" {
			m.Kind = &s.Kind
		}
		out = append(out, m)
	}
	return out
}

// orEmpty is *p, or "" for nil.
func orEmpty(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

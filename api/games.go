package api

import (
	"context"
	"github.com/courrier-games/courrier/games/catalog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// GetCatalog lists the games with their options, labelled and described in
// the caller's language, and a link to each rules page.
func (s *Server) GetCatalog(ctx context.Context, _ GetCatalogRequestObject) (GetCatalogResponseObject, error) {
	lang := langOf(ctx)
	out := GetCatalog200JSONResponse{Items: []CatalogGame{}}
	reg := s.cfg.Play.Registry()
	for _, id := range reg.IDs() {
		eng, err := reg.Get(id)
		if err != nil {
			return nil, err
		}
		info := eng.Info()
		g := CatalogGame{
			Game: info.ID, Name: info.Name, MinSeats: info.MinSeats, MaxSeats: info.MaxSeats,
			RulesUrl: strings.TrimRight(s.cfg.BaseURL, "/") + catalog.RulesPath(info.ID, lang, ""),
		}
		said := eng.Words().In(lang)
		for _, o := range info.Options {
			opt := CatalogOption{Default: o.Default, Name: o.Name, Label: said.Must(o.Label), Description: said.Must(o.Description)}
			if o.Rules != "" {
				opt.Rules = &o.Rules
			}
			if o.Values != nil {
				opt.Values = &o.Values
			}
			if o.Values != nil && o.Labelled() {
				labels := make([]string, len(o.Values))
				for i := range o.Values {
					labels[i] = said.Must(o.ValueLabel(i))
				}
				opt.ValueLabels = &labels
			}
			g.Options = append(g.Options, opt)
		}
		if g.Options == nil {
			g.Options = g.Options[:0]
		}
		out.Items = append(out.Items, g)
	}
	return out, nil
}

// ListGames lists the caller's games (or the open ones), with whose turn
// it is.
func (s *Server) ListGames(ctx context.Context, req ListGamesRequestObject) (ListGamesResponseObject, error) {
	user, p := userOf(ctx), req.Params
	limit := 50
	if p.Limit != nil {
		limit = *p.Limit
	}
	status := ""
	if p.Status != nil {
		status = string(*p.Status)
	}
	out := ListGames200JSONResponse{Items: []Game{}}
	if p.Mine != nil && *p.Mine == 0 {
		list, err := s.cfg.Play.Lobby(ctx, limit)
		if err != nil {
			return nil, err
		}
		for _, g := range list {
			item := s.game(g.Game, games.Spectator, langOf(ctx))
			// Each player's id (for their card) and rating for the title.
			for i := range item.Players {
				if i < len(g.Users) && g.Users[i] != "" {
					id := g.Users[i]
					item.Players[i].PlayerId = &id
				}
				if i < len(g.Ratings) && g.Ratings[i] != nil {
					item.Players[i].Rating = rounded(g.Ratings[i].Rating.Rating)
				}
			}
			out.Items = append(out.Items, item)
		}
		return out, nil
	}
	list, err := s.cfg.Play.GamesOf(ctx, user, 200)
	if err != nil {
		return nil, err
	}
	for _, g := range list {
		item := s.game(g.Game, games.Seat(g.Seat), langOf(ctx))
		if status != "" && string(item.Status) != status || p.ToAct != nil && *p.ToAct == ListGamesParamsToActMe && !item.YourTurn {
			continue
		}
		if len(out.Items) < limit {
			out.Items = append(out.Items, item)
		}
	}
	return out, nil
}

// game is a game's public summary for a caller at seat (games.Spectator for
// none), its result said in lang.
func (s *Server) game(g projections.Game, seat games.Seat, lang string) Game {
	out := Game{
		Id: g.ID, Game: g.Kind, Name: g.Kind, Status: GameStatus(g.Status), Version: g.Version,
		Players: make([]Player, 0, len(g.Players)), ToAct: make([]ToAct, 0, len(g.ToAct)),
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
	}
	if eng, err := s.cfg.Play.Registry().Get(g.Kind); err == nil {
		out.Name = eng.Info().Name
	}
	if len(g.Options) > 0 {
		opts := map[string]string(g.Options)
		out.Options = &opts
	}
	for _, p := range g.Players {
		out.Players = append(out.Players, Player{Seat: p.Seat, Name: p.Name})
	}
	for _, t := range g.ToAct {
		a := ToAct{Seat: int(t.Seat), Kind: t.Kind, Rule: t.Rule, Since: t.Since, Deadline: t.Deadline}
		if t.Deadline != nil && (out.Deadline == nil || t.Deadline.Before(*out.Deadline)) {
			out.Deadline = t.Deadline
		}
		if int(t.Seat) < len(g.Players) {
			name := g.Players[t.Seat].Name
			a.Name = &name
		}
		out.ToAct = append(out.ToAct, a)
		out.YourTurn = out.YourTurn || (seat != games.Spectator && t.Seat == seat)
	}
	if seat != games.Spectator {
		n := int(seat)
		out.Seat = &n
	}
	if g.Result != nil {
		r := Result{Summary: g.Result.Summary.In(lang)}
		if len(g.Result.Winners) > 0 {
			w := make([]int, len(g.Result.Winners))
			for i, x := range g.Result.Winners {
				w[i] = int(x)
			}
			r.Winners = &w
		}
		if len(g.Result.Scores) > 0 {
			sc := slices.Clone(g.Result.Scores)
			r.Scores = &sc
		}
		out.Result = &r
	}
	return out
}

// actor is the caller of a command.
func actor(ctx context.Context, channelKey string) play.Actor {
	a := play.Actor{User: userOf(ctx), Channel: "api"}
	if r, ok := ctx.Value(requestInfoKey{}).(requestInfo); ok {
		a.RequestID, a.RemoteAddr = r.id, r.addr
	}
	if channelKey != "" {
		a.IdempotencyKey = "api:" + a.User + ":" + channelKey
	}
	return a
}

// requestInfo is what the events' meta and context keep of a request: the
// id the server made for it (requestIDs; never the client's X-Request-Id)
// and the client's address (event_context only).
type requestInfo struct{ id, addr string }

// requestInfoKey is the request context's key of its requestInfo.
type requestInfoKey struct{}

// CreateGame creates a game; "me" in seats is the caller, an address an
// invitee. play checks the rest, as for every door.
func (s *Server) CreateGame(ctx context.Context, req CreateGameRequestObject) (CreateGameResponseObject, error) {
	b := req.Body
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	spec := play.GameRequest{Kind: b.Game, Name: me.Name}
	if d := b.Deadlines; d != nil {
		spec.Deadlines = map[string]string{}
		if d.Turn != nil {
			spec.Deadlines["turn"] = *d.Turn
		}
		if d.Window != nil {
			spec.Deadlines["window"] = *d.Window
		}
		if d.Weekdays != nil {
			spec.Weekdays = *d.Weekdays
		}
	}
	if b.Name != nil && strings.TrimSpace(*b.Name) != "" {
		spec.Name = strings.TrimSpace(*b.Name)
	}
	if b.Options != nil {
		spec.Options = *b.Options
	}
	if b.Seats != nil {
		plays := false
		for _, seat := range *b.Seats {
			if !strings.EqualFold(strings.TrimSpace(seat), "me") {
				spec.Invite = append(spec.Invite, seat)
				continue
			}
			if plays {
				return nil, fail(http.StatusBadRequest, codeMalformed, "error.me_twice")
			}
			plays = true
		}
		if !plays {
			spec.Name = ""
		}
	}
	if b.Referee != nil {
		spec.Referee = *b.Referee
	}
	if b.MinReliability != nil {
		spec.MinReliability = strconv.Itoa(*b.MinReliability)
	}
	if b.MinFinished != nil {
		spec.MinFinished = strconv.Itoa(*b.MinFinished)
	}
	spec.Unrated = b.Rated != nil && !*b.Rated
	out, err := s.cfg.Play.CreateGame(ctx, actor(ctx, ""), spec)
	if err != nil {
		return nil, err
	}
	return CreateGame201JSONResponse(s.gameAfter(ctx, out)), nil
}

// gameAfter is a game's summary for the caller after a command, as the
// command projected it, said in the caller's language.
func (s *Server) gameAfter(ctx context.Context, out play.Outcome) Game {
	res := Game{Id: out.GameID, Version: out.Version}
	if out.Game != nil && out.View != nil {
		res = s.game(*out.Game, out.View.Seat, langOf(ctx))
	}
	if out.Head != "" {
		res.Head = &out.Head
	}
	return res
}

// JoinGame takes a seat in an open game.
func (s *Server) JoinGame(ctx context.Context, req JoinGameRequestObject) (JoinGameResponseObject, error) {
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	name := me.Name
	if req.Body != nil && req.Body.Name != nil && strings.TrimSpace(*req.Body.Name) != "" {
		name = strings.TrimSpace(*req.Body.Name)
	}
	out, err := s.cfg.Play.Join(ctx, actor(ctx, ""), req.GameId, name)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return JoinGame200JSONResponse(g), nil
}

// StartGame starts a game with those who joined.
func (s *Server) StartGame(ctx context.Context, req StartGameRequestObject) (StartGameResponseObject, error) {
	out, err := s.cfg.Play.Start(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return StartGame200JSONResponse(g), nil
}

// ResignGame leaves a game.
func (s *Server) ResignGame(ctx context.Context, req ResignGameRequestObject) (ResignGameResponseObject, error) {
	out, err := s.cfg.Play.Resign(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return ResignGame200JSONResponse(g), nil
}

// GoAway declares the caller away from a game: their deadlines wait.
func (s *Server) GoAway(ctx context.Context, req GoAwayRequestObject) (GoAwayResponseObject, error) {
	d, err := play.ParseAbsence(req.Body.For)
	if err != nil {
		return nil, err
	}
	out, err := s.cfg.Play.AwayFor(ctx, actor(ctx, ""), req.GameId, d)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return GoAway200JSONResponse(g), nil
}

// ComeBack ends the caller's absence from a game.
func (s *Server) ComeBack(ctx context.Context, req ComeBackRequestObject) (ComeBackResponseObject, error) {
	out, err := s.cfg.Play.BackNow(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return ComeBack200JSONResponse(g), nil
}

// ClaimGame ends a game for the last player still in it.
func (s *Server) ClaimGame(ctx context.Context, req ClaimGameRequestObject) (ClaimGameResponseObject, error) {
	out, err := s.cfg.Play.Claim(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return ClaimGame200JSONResponse(g), nil
}

// ReplaceSeat hands an abandoned seat to another player (the creator only).
func (s *Server) ReplaceSeat(ctx context.Context, req ReplaceSeatRequestObject) (ReplaceSeatResponseObject, error) {
	out, err := s.cfg.Play.HandOver(ctx, actor(ctx, ""), req.GameId, games.Seat(req.Body.Seat), req.Body.Email)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return ReplaceSeat200JSONResponse(g), nil
}

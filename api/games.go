package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// GetCatalog lists the games with their options and a link to each rules
// page.
func (s *Server) GetCatalog(_ context.Context, _ GetCatalogRequestObject) (GetCatalogResponseObject, error) {
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
			RulesUrl: strings.TrimRight(s.cfg.BaseURL, "/") + "/rules/" + info.ID,
		}
		for _, o := range info.Options {
			opt := struct {
				Default string    `json:"default"`
				Name    string    `json:"name"`
				Rules   *string   `json:"rules,omitempty"`
				Values  *[]string `json:"values,omitempty"`
			}{Default: o.Default, Name: o.Name}
			if o.Rules != "" {
				opt.Rules = &o.Rules
			}
			if o.Values != nil {
				opt.Values = &o.Values
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
		list, err := s.cfg.Play.Games(ctx, projections.StatusOpen, limit)
		if err != nil {
			return nil, err
		}
		for _, g := range list {
			out.Items = append(out.Items, s.game(g, games.Spectator))
		}
		return out, nil
	}
	list, err := s.cfg.Play.GamesOf(ctx, user, 200)
	if err != nil {
		return nil, err
	}
	for _, g := range list {
		item := s.game(g.Game, games.Seat(g.Seat))
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
// none).
func (s *Server) game(g projections.Game, seat games.Seat) Game {
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
		r := Result{Summary: g.Result.Summary}
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
// invitee.
func (s *Server) CreateGame(ctx context.Context, req CreateGameRequestObject) (CreateGameResponseObject, error) {
	b := req.Body
	deadlines, err := checkDeadlines(b.Deadlines)
	if err != nil {
		return nil, err
	}
	me, err := s.me(ctx, userOf(ctx))
	if err != nil {
		return nil, err
	}
	if _, err := s.cfg.Play.Registry().Get(b.Game); err != nil {
		return nil, fail(http.StatusBadRequest, codeMalformed, fmt.Sprintf("there is no game %q: GET /v1/catalog lists them (%s)",
			b.Game, strings.Join(s.cfg.Play.Registry().IDs(), ", ")))
	}
	spec := play.NewGame{Kind: b.Game, Name: me.Name, Deadlines: deadlines}
	if b.Deadlines != nil && b.Deadlines.Weekdays != nil {
		spec.Weekdays = *b.Deadlines.Weekdays
	}
	if b.Name != nil && strings.TrimSpace(*b.Name) != "" {
		spec.Name = strings.TrimSpace(*b.Name)
	}
	if b.Options != nil {
		spec.Options = games.Options(*b.Options)
	}
	if b.Seats != nil {
		plays := false
		for _, seat := range *b.Seats {
			if strings.EqualFold(strings.TrimSpace(seat), "me") {
				if plays {
					return nil, fail(http.StatusBadRequest, codeMalformed, `"me" is in seats twice`)
				}
				plays = true
				continue
			}
			u, err := s.cfg.Users.Ensure(ctx, seat)
			if err != nil {
				if unavailable(err) {
					return nil, err
				}
				return nil, fail(http.StatusBadRequest, codeMalformed, "seats: "+err.Error()+` (write "me" for yourself, or an invitee's email address)`)
			}
			if u.ID == me.Id {
				return nil, fail(http.StatusBadRequest, codeMalformed, `seats: write "me" for your own seat, not your address`)
			}
			if slices.Contains(spec.Invite, u.ID) {
				return nil, fail(http.StatusBadRequest, codeMalformed, "seats: "+seat+" is invited twice")
			}
			spec.Invite = append(spec.Invite, u.ID)
		}
		if !plays {
			spec.Name = ""
		}
	}
	if b.Referee != nil && strings.TrimSpace(*b.Referee) != "" {
		u, err := s.cfg.Users.Ensure(ctx, *b.Referee)
		if err != nil {
			if unavailable(err) {
				return nil, err
			}
			return nil, fail(http.StatusBadRequest, codeMalformed, "referee: "+err.Error())
		}
		spec.Referee = u.ID
	}
	out, err := s.cfg.Play.CreateGame(ctx, actor(ctx, ""), spec)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return CreateGame201JSONResponse(g), nil
}

// checkDeadlines reads the deadlines a game is created with ("72h", "3d").
// They are checked now and applied once the time feature lands.
func checkDeadlines(d *Deadlines) (play.Deadlines, error) {
	if d == nil {
		return nil, nil
	}
	out := play.Deadlines{}
	for name, v := range map[string]*string{"turn": d.Turn, "window": d.Window} {
		if v == nil {
			continue
		}
		dur, err := parseDuration(*v)
		if err != nil {
			return nil, fail(http.StatusBadRequest, codeMalformed, fmt.Sprintf("deadlines.%s: %q is not a duration like \"72h\" or \"3d\"", name, *v))
		}
		out[name] = dur
	}
	return out, nil
}

// parseDuration reads a Go duration or a number of days ("3d").
func parseDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 {
			return 0, errors.New("not a number of days")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		err = errors.New("not positive")
	}
	return d, err
}

// gameAfter reads a game's summary for the caller after a command.
func (s *Server) gameAfter(ctx context.Context, out play.Outcome) (Game, error) {
	g, v, err := s.cfg.Play.GameAndViewFor(ctx, out.GameID, userOf(ctx))
	if err != nil {
		return Game{}, err
	}
	res := s.game(g, v.Seat)
	if out.Head != "" {
		res.Head = &out.Head
	}
	return res, nil
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
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return JoinGame200JSONResponse(g), nil
}

// StartGame starts a game with those who joined.
func (s *Server) StartGame(ctx context.Context, req StartGameRequestObject) (StartGameResponseObject, error) {
	out, err := s.cfg.Play.Start(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return StartGame200JSONResponse(g), nil
}

// ResignGame leaves a game.
func (s *Server) ResignGame(ctx context.Context, req ResignGameRequestObject) (ResignGameResponseObject, error) {
	out, err := s.cfg.Play.Resign(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return ResignGame200JSONResponse(g), nil
}

// GoAway declares the caller away from a game: their deadlines wait.
func (s *Server) GoAway(ctx context.Context, req GoAwayRequestObject) (GoAwayResponseObject, error) {
	d, err := parseDuration(strings.TrimSpace(req.Body.For))
	if err != nil {
		return nil, fail(http.StatusBadRequest, codeMalformed, fmt.Sprintf("for: %q is not a duration like \"3d\" or \"36h\"", req.Body.For))
	}
	out, err := s.cfg.Play.AwayFor(ctx, actor(ctx, ""), req.GameId, d)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return GoAway200JSONResponse(g), nil
}

// ComeBack ends the caller's absence from a game.
func (s *Server) ComeBack(ctx context.Context, req ComeBackRequestObject) (ComeBackResponseObject, error) {
	out, err := s.cfg.Play.BackNow(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return ComeBack200JSONResponse(g), nil
}

// ClaimGame ends a game for the last player still in it.
func (s *Server) ClaimGame(ctx context.Context, req ClaimGameRequestObject) (ClaimGameResponseObject, error) {
	out, err := s.cfg.Play.Claim(ctx, actor(ctx, ""), req.GameId)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return ClaimGame200JSONResponse(g), nil
}

// ReplaceSeat hands an abandoned seat to another player (the creator only).
func (s *Server) ReplaceSeat(ctx context.Context, req ReplaceSeatRequestObject) (ReplaceSeatResponseObject, error) {
	u, err := s.cfg.Users.Ensure(ctx, req.Body.Email)
	if err != nil {
		if unavailable(err) {
			return nil, err
		}
		return nil, fail(http.StatusBadRequest, codeMalformed, "email: "+err.Error())
	}
	out, err := s.cfg.Play.Replace(ctx, actor(ctx, ""), req.GameId, games.Seat(req.Body.Seat), u.ID)
	if err != nil {
		return nil, err
	}
	g, err := s.gameAfter(ctx, out)
	if err != nil {
		return nil, err
	}
	return ReplaceSeat200JSONResponse(g), nil
}

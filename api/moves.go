package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/projections"
)

// seatView reads the caller's view of a game. A game that started is shown
// to its players only; an open game to anyone who has its id (to join it).
func (s *Server) seatView(ctx context.Context, gameID string) (SeatView, error) {
	g, v, err := s.cfg.Play.GameAndViewFor(ctx, gameID, userOf(ctx))
	if errors.Is(err, projections.ErrNotFound) {
		return SeatView{}, fail(http.StatusNotFound, codeNotFound, "error.no_game", gameID)
	}
	if err != nil {
		return SeatView{}, err
	}
	if v.Seat == games.Spectator && g.Status != projections.StatusOpen {
		return SeatView{}, fail(http.StatusForbidden, codeForbidden, "error.not_your_game")
	}
	return s.seatViewOf(g, v, langOf(ctx)), nil
}

// seatViewOf is the answer of a seat's view of a game, its words said in
// lang.
func (s *Server) seatViewOf(g projections.Game, v projections.SeatView, lang string) SeatView {
	if v.View == nil {
		v.View = json.RawMessage("null") // not started: no view yet
	}
	out := SeatView{
		Game: s.game(g, v.Seat, lang), Version: v.Version, View: json.RawMessage(v.View),
		Pending: []Pending{}, Legal: nonNil(v.Legal), LegalCompact: nonNil(v.Choices),
	}
	if v.Seat != games.Spectator {
		n := int(v.Seat)
		out.Seat = &n
		for _, t := range g.ToAct {
			if t.Seat == v.Seat {
				out.Pending = append(out.Pending, Pending{Kind: t.Kind, Rule: t.Rule, Since: t.Since, Deadline: t.Deadline})
				if t.Deadline != nil && (out.Deadline == nil || t.Deadline.Before(*out.Deadline)) {
					out.Deadline = t.Deadline
				}
			}
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// GetSeatView returns the caller's view of a game.
func (s *Server) GetSeatView(ctx context.Context, req GetSeatViewRequestObject) (GetSeatViewResponseObject, error) {
	v, err := s.seatView(ctx, req.GameId)
	if err != nil {
		return nil, err
	}
	return GetSeatView200JSONResponse(v), nil
}

// PlayMove plays a move (or several lines, in turn) against the version
// the player saw.
func (s *Server) PlayMove(ctx context.Context, req PlayMoveRequestObject) (PlayMoveResponseObject, error) {
	key := ""
	if req.Params.IdempotencyKey != nil {
		key = *req.Params.IdempotencyKey
	}
	out, err := s.cfg.Play.Move(ctx, actor(ctx, key), req.GameId, req.Body.ExpectedVersion, []string{req.Body.Move})
	if err != nil {
		return nil, err
	}
	if out.Game == nil || out.View == nil {
		return nil, fmt.Errorf("move in game %s: play projected no view for the mover", req.GameId)
	}
	view := s.seatViewOf(*out.Game, *out.View, langOf(ctx))
	if !out.Replay {
		s.metrics.move(view.Game.Game)
	}
	r := Receipt{GameId: out.GameID, Version: out.Version, From: out.From, Head: out.Head, Replayed: out.Replay}
	if out.Refused != nil {
		r.Refused = refusedLine(out.Refused, langOf(ctx))
	}
	return PlayMove200JSONResponse{Receipt: r, View: view}, nil
}

// refusedLine is the receipt's account of a refused later line, said in
// lang.
func refusedLine(me *play.MoveError, lang string) *struct {
	Line    int     `json:"line"`
	Message string  `json:"message"`
	Move    *string `json:"move,omitempty"`
	Rule    *string `json:"rule,omitempty"`
} {
	out := &struct {
		Line    int     `json:"line"`
		Message string  `json:"message"`
		Move    *string `json:"move,omitempty"`
		Rule    *string `json:"rule,omitempty"`
	}{Line: me.Line, Message: games.Explain(me.Err, lang)}
	text := me.Text
	out.Move = &text
	if re, ok := games.AsRuleError(me.Err); ok {
		out.Rule = &re.Rule
	}
	return out
}

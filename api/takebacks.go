package api

import (
	"context"

	"github.com/courrier-games/courrier/play"
)

// Take-backs by consent: a player asks to take back their last move, the
// others agree or refuse (play/takeback.go decides everything).

// GetTakeBack returns the game's open take-back request.
func (s *Server) GetTakeBack(ctx context.Context, req GetTakeBackRequestObject) (GetTakeBackResponseObject, error) {
	tb, err := s.cfg.Play.TakeBackOf(ctx, req.GameId, userOf(ctx))
	if err != nil {
		return nil, err
	}
	return GetTakeBack200JSONResponse(TakeBackState{Open: takeBackOf(tb)}), nil
}

// AskTakeBack asks to take back the caller's last move.
func (s *Server) AskTakeBack(ctx context.Context, req AskTakeBackRequestObject) (AskTakeBackResponseObject, error) {
	out, err := s.cfg.Play.RequestTakeBack(ctx, actor(ctx, ""), req.GameId, req.Body.ExpectedVersion)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return AskTakeBack201JSONResponse(TakeBackState{Open: takeBackOf(out.TakeBack), Game: &g}), nil
}

// AnswerTakeBack agrees to or refuses the open take-back request.
func (s *Server) AnswerTakeBack(ctx context.Context, req AnswerTakeBackRequestObject) (AnswerTakeBackResponseObject, error) {
	out, err := s.cfg.Play.AnswerTakeBack(ctx, actor(ctx, ""), req.GameId, req.Takeback, req.Body.Agree)
	if err != nil {
		return nil, err
	}
	g := s.gameAfter(ctx, out)
	return AnswerTakeBack200JSONResponse(TakeBackState{Open: takeBackOf(out.TakeBack), Game: &g}), nil
}

// takeBackOf is play's open request in the API's shape (nil: none).
func takeBackOf(tb *play.TakeBack) *TakeBack {
	if tb == nil {
		return nil
	}
	out := &TakeBack{Version: tb.Version, Seat: int(tb.Seat), By: tb.By, To: tb.To, Deadline: tb.Deadline,
		Agreed: []int{}, Waiting: []int{}}
	for _, s := range tb.Agreed {
		out.Agreed = append(out.Agreed, int(s))
	}
	for _, s := range tb.Waiting {
		out.Waiting = append(out.Waiting, int(s))
	}
	return out
}

package api

import (
	"context"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// Table talk (issue 36, part 1): the handlers of /v1/games/{id}/messages,
// each one play call (Messages, Say, HideMessage).

// ListMessages lists the game's table talk the caller may read.
func (s *Server) ListMessages(ctx context.Context, req ListMessagesRequestObject) (ListMessagesResponseObject, error) {
	after := 0
	if req.Params.After != nil {
		after = *req.Params.After
	}
	tv, err := s.cfg.Play.Talk(ctx, req.GameId, userOf(ctx), after)
	if err != nil {
		return nil, err
	}
	out := MessageList{Items: make([]Message, len(tv.Messages)), Press: MessageListPress(tv.Press), MaySay: tv.MaySay}
	for i, m := range tv.Messages {
		out.Items[i] = messageOf(m, langOf(ctx))
	}
	out.To = make([]struct {
		Name string `json:"name"`
		Seat int    `json:"seat"`
	}, len(tv.To))
	for i, to := range tv.To {
		out.To[i].Name, out.To[i].Seat = to.Name, int(to.Seat)
	}
	return ListMessages200JSONResponse(out), nil
}

// SayMessage says something at the game's table, or to one seat.
func (s *Server) SayMessage(ctx context.Context, req SayMessageRequestObject) (SayMessageResponseObject, error) {
	to := play.ToTable
	if req.Body.To != nil {
		to = games.Seat(*req.Body.To)
	}
	m, err := s.cfg.Play.Say(ctx, actor(ctx, ""), req.GameId, to, req.Body.Text)
	if err != nil {
		return nil, err
	}
	return SayMessage201JSONResponse(messageOf(m, langOf(ctx))), nil
}

// HideMessage hides a message of the game's table (the referee only).
func (s *Server) HideMessage(ctx context.Context, req HideMessageRequestObject) (HideMessageResponseObject, error) {
	m, err := s.cfg.Play.HideMessage(ctx, actor(ctx, ""), req.GameId, req.MessageId, req.Body.Reason)
	if err != nil {
		return nil, err
	}
	return HideMessage200JSONResponse(messageOf(m, langOf(ctx))), nil
}

// messageOf is a message as the API serves it, its line said in lang.
func messageOf(m play.Message, lang string) Message {
	out := Message{
		Id: m.ID, Number: m.Number, From: int(m.From), FromName: m.FromName, To: int(m.To),
		Text: m.Text, Line: m.Line().In(lang), At: m.At, SaidAt: m.SaidAt,
	}
	if m.Referee {
		out.Referee = &m.Referee
		out.FromName = m.Speaker().In(lang)
	}
	if m.ToName != "" {
		out.ToName = &m.ToName
	}
	if m.Hidden {
		out.Hidden, out.Reason = &m.Hidden, &m.Reason
	}
	return out
}

package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/courrier-games/courrier/api/live"
	"github.com/courrier-games/courrier/play"
)

// event is a change as the API shows it, its text said in lang.
func event(c play.Change, lang string) Event {
	e := Event{Version: c.Version, Type: c.Type, Data: json.RawMessage(c.Data), Text: c.Text.In(lang), RecordedAt: c.RecordedAt}
	e.Meta.Seat = c.Meta.Seat
	if c.Meta.Channel != "" {
		ch := c.Meta.Channel
		e.Meta.Channel = &ch
	}
	if c.Meta.Move != "" {
		m := c.Meta.Move
		e.Meta.Move = &m
	}
	return e
}

// ListEvents returns the game's events after a version as the caller's
// seat may see them.
func (s *Server) ListEvents(ctx context.Context, req ListEventsRequestObject) (ListEventsResponseObject, error) {
	v, err := s.seatView(ctx, req.GameId)
	if err != nil {
		return nil, err
	}
	since := 0
	if req.Params.Since != nil {
		since = *req.Params.Since
	}
	changes, err := s.cfg.Play.History(ctx, req.GameId, userOf(ctx), since)
	if err != nil {
		return nil, err
	}
	out := ListEvents200JSONResponse{Items: make([]Event, 0, len(changes)), Version: v.Version}
	for _, c := range changes {
		out.Items = append(out.Items, event(c, langOf(ctx)))
		out.Version = max(out.Version, c.Version)
	}
	return out, nil
}

// StreamEvents subscribes the caller to the game's live events.
func (s *Server) StreamEvents(ctx context.Context, req StreamEventsRequestObject) (StreamEventsResponseObject, error) {
	if _, err := s.seatView(ctx, req.GameId); err != nil {
		return nil, err
	}
	if s.cfg.Hub == nil {
		e := fail(http.StatusServiceUnavailable, codeUnavailable, "error.no_live")
		e.header = http.Header{"Retry-After": {"30"}}
		return nil, e
	}
	after := 0
	if req.Params.Since != nil {
		after = *req.Params.Since
	}
	if req.Params.LastEventID != nil {
		if v, ok := live.ParseLastEventID(*req.Params.LastEventID); ok {
			after = v
		}
	}
	sub, err := s.cfg.Hub.Subscribe(ctx, req.GameId, userOf(ctx), after)
	if err != nil {
		return nil, err
	}
	return stream{ctx: ctx, sub: sub, log: s.log, lang: langOf(ctx)}, nil
}

// heartbeat is how often an idle stream writes a comment, so that proxies
// keep it open.
const heartbeat = 25 * time.Second

// stream writes a subscription as Server-Sent Events until the client
// leaves or the server closes it.
type stream struct {
	ctx  context.Context
	lang string // the caller's: the language of each event's text
	sub  *live.Subscription
	log  interface {
		DebugContext(ctx context.Context, msg string, args ...any)
	}
}

// VisitStreamEventsResponse implements StreamEventsResponseObject.
func (st stream) VisitStreamEventsResponse(w http.ResponseWriter) error {
	defer st.sub.Close()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Content-Language", st.lang)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(": courrier live events\n\n")); err != nil {
		return nil
	}
	for _, c := range st.sub.Backlog {
		if err := live.WriteEvent(w, c, st.lang); err != nil {
			return nil
		}
	}
	_ = rc.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-st.ctx.Done():
			return nil
		case <-tick.C:
			if err := live.WritePing(w); err != nil {
				return nil
			}
		case c, ok := <-st.sub.C:
			if !ok {
				return nil // the hub closed it: shutdown, or a client too slow
			}
			if err := live.WriteEvent(w, c, st.lang); err != nil {
				return nil
			}
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
	}
}

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	said, err := s.cfg.Play.TalkAt(ctx, req.GameId, userOf(ctx), since)
	if err != nil {
		return nil, err
	}
	out := ListEvents200JSONResponse{Items: make([]Event, 0, len(changes)), Version: v.Version, Messages: make([]Message, len(said))}
	for _, c := range changes {
		out.Items = append(out.Items, event(c, langOf(ctx)))
		out.Version = max(out.Version, c.Version)
	}
	for i, m := range said {
		out.Messages[i] = messageOf(m, langOf(ctx))
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
	after, said := 0, 0
	if req.Params.Since != nil {
		after = *req.Params.Since
	}
	if req.Params.LastEventID != nil {
		if v, m, ok := live.ParseEventID(*req.Params.LastEventID); ok {
			after, said = v, m
		}
	}
	sub, err := s.cfg.Hub.SubscribeTalk(ctx, req.GameId, userOf(ctx), after, said)
	if err != nil {
		return nil, err
	}
	return stream{ctx: ctx, sub: sub, log: s.log, lang: langOf(ctx), version: after, said: said}, nil
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
	// version and said are the last game version and the last message
	// number written: every event's id carries both (live.EventID).
	version, said int
}

// writeEvent writes a game event and notes its version.
func (st *stream) writeEvent(w io.Writer, c play.Change) error {
	st.version = max(st.version, c.Version)
	return live.WriteEventAs(w, c, st.lang, st.said)
}

// writeMessage writes a message of the table talk (the event "message",
// its data the API's Message) and notes its number; a message already
// written that the referee hid since comes again as the event
// "message_hidden" (its text empty), the id unchanged.
func (st *stream) writeMessage(w io.Writer, m play.Message) error {
	data, err := json.Marshal(messageOf(m, st.lang))
	if err != nil {
		return fmt.Errorf("encode message %d: %w", m.Number, err)
	}
	event := "message"
	if m.Hidden && m.Number <= st.said {
		event = "message_hidden"
	}
	st.said = max(st.said, m.Number)
	return live.WriteTalkEvent(w, st.version, st.said, event, data)
}

// VisitStreamEventsResponse implements StreamEventsResponseObject.
func (st stream) VisitStreamEventsResponse(w http.ResponseWriter) error {
	return (&st).visit(w)
}

// visit writes the stream.
func (st *stream) visit(w http.ResponseWriter) error {
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
		if err := st.writeEvent(w, c); err != nil {
			return nil
		}
	}
	for _, m := range st.sub.Said {
		if err := st.writeMessage(w, m); err != nil {
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
			if err := st.writeEvent(w, c); err != nil {
				return nil
			}
		case m, ok := <-st.sub.M:
			if !ok {
				return nil
			}
			if err := st.writeMessage(w, m); err != nil {
				return nil
			}
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
	}
}

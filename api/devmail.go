package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DevMailbox is the built-in dev mailbox, which holds the mail courrier
// sends when no relay is configured. cmd/courrier adapts notify's to it, so
// that the API names nothing of the mail side.
type DevMailbox interface {
	// Mail returns the messages to to (everyone's when to is empty),
	// newest first, at most limit.
	Mail(ctx context.Context, to string, limit int) ([]DevMessage, error)
}

// DevMessage is one message of the dev mailbox, as text.
type DevMessage struct {
	ID        int64
	To        []string
	Subject   string
	CreatedAt time.Time
	Text      string // the text/plain part (the whole body when it has none)
}

// ListDevMail lists the built-in dev mailbox: only when no relay is
// configured, and only to this machine (a sign-in link is in it).
func (s *Server) ListDevMail(ctx context.Context, req ListDevMailRequestObject) (ListDevMailResponseObject, error) {
	info, _ := ctx.Value(requestInfoKey{}).(requestInfo)
	ip := net.ParseIP(info.addr)
	if s.cfg.DevMail == nil || ip == nil || !ip.IsLoopback() {
		return nil, fail(http.StatusNotFound, codeNotFound, "error.no_devmail")
	}
	to := ""
	if req.Params.To != nil {
		to = *req.Params.To
	}
	list, err := s.cfg.DevMail.Mail(ctx, to, 100)
	if err != nil {
		return nil, fmt.Errorf("list the dev mailbox: %w", err)
	}
	out := ListDevMail200JSONResponse{Items: make([]DevMail, 0, len(list))}
	for _, m := range list {
		out.Items = append(out.Items, DevMail{Id: m.ID, To: m.To, Subject: m.Subject, CreatedAt: m.CreatedAt, Text: m.Text})
	}
	return out, nil
}

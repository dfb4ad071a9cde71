package api

import (
	"context"
	"net"
	"net/http"

	"github.com/courrier-games/courrier/notify"
)

// ListDevMail lists the built-in dev mailbox: only when no relay is
// configured, and only to this machine (a sign-in link is in it).
func (s *Server) ListDevMail(ctx context.Context, req ListDevMailRequestObject) (ListDevMailResponseObject, error) {
	info, _ := ctx.Value(requestInfoKey{}).(requestInfo)
	ip := net.ParseIP(info.addr)
	if s.cfg.DevMail == nil || ip == nil || !ip.IsLoopback() {
		return nil, fail(http.StatusNotFound, codeNotFound, "there is no dev mailbox here: it is served, to this machine only, when no mail relay is configured")
	}
	to := ""
	if req.Params.To != nil {
		to = *req.Params.To
	}
	list, err := s.cfg.DevMail.List(ctx, to, 100)
	if err != nil {
		return nil, err
	}
	out := ListDevMail200JSONResponse{Items: make([]DevMail, 0, len(list))}
	for _, m := range list {
		full, err := s.cfg.DevMail.Get(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, DevMail{Id: m.ID, To: m.To, Subject: m.Subject, CreatedAt: m.CreatedAt, Text: notify.TextOf(full.Raw)})
	}
	return out, nil
}

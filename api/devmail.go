package api

import (
	"context"
	"net"
	"net/http"
	"time"
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
	list, err := s.cfg.DevMail(ctx, to)
	if err != nil {
		return nil, err
	}
	out := ListDevMail200JSONResponse{}
	out.Items = make([]struct {
		CreatedAt time.Time `json:"created_at"`
		Id        int64     `json:"id"`
		Subject   string    `json:"subject"`
		Text      string    `json:"text"`
		To        []string  `json:"to"`
	}, 0, len(list))
	for _, m := range list {
		out.Items = append(out.Items, struct {
			CreatedAt time.Time `json:"created_at"`
			Id        int64     `json:"id"`
			Subject   string    `json:"subject"`
			Text      string    `json:"text"`
			To        []string  `json:"to"`
		}{m.CreatedAt, m.ID, m.Subject, m.Text, m.To})
	}
	return out, nil
}

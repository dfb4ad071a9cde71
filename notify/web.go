package notify

import (
	"encoding/json"
	"errors"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/notify/mailstore"
)

// Handler serves the mail side's pages:
//
//	GET  /u/{token}          the unsubscribe page of a game's mail (a button)
//	POST /u/{token}          one-click unsubscribe (RFC 8058), idempotent
//	GET  /c/{token}          the page of a confirmation request (a button)
//	POST /c/{token}          confirms the address and runs what waited for it
//	GET  /dev/mail           the dev mailbox, when it is the transport
//	GET  /dev/mail/{id}      one message of it (text, then the raw message)
//	GET  /dev/mail.json      the dev mailbox as JSON (?to=address)
//	GET  /dev/mail/{id}.eml  one message, raw
//
// jobs queues the commands a confirmation lets run.
func (s *Service) Handler(jobs JobInserter) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /u/{token}", s.unsubscribePage)
	mux.HandleFunc("POST /u/{token}", s.unsubscribe)
	mux.HandleFunc("GET /c/{token}", s.confirmPage)
	mux.HandleFunc("POST /c/{token}", func(w http.ResponseWriter, r *http.Request) { s.confirm(w, r, jobs) })
	if dev, ok := s.cfg.Transport.(*DevMailbox); ok {
		mux.Handle("GET /dev/mail", localOnly(func(w http.ResponseWriter, r *http.Request) { s.devList(w, r, dev) }))
		mux.Handle("GET /dev/mail.json", localOnly(func(w http.ResponseWriter, r *http.Request) { s.devJSON(w, r, dev) }))
		mux.Handle("GET /dev/mail/{id}", localOnly(func(w http.ResponseWriter, r *http.Request) { s.devShow(w, r, dev) }))
	}
	return secureHeaders(mux)
}

// localOnly serves the dev mailbox to this machine only: it holds sign-in
// links and every player's prompts.
func localOnly(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			render(w, http.StatusForbidden, page{Title: "Dev mailbox", Text: "The dev mailbox answers only on this machine (localhost): it holds everyone's mail. Configure COURRIER_SMTP_RELAY to deliver mail for real."})
			return
		}
		h(w, r)
	})
}

// secureHeaders sets the headers every page of ours carries.
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
		h.ServeHTTP(w, r)
	})
}

var pages = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{or .Lang "en"}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · courrier</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem;border-radius:4px}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top;overflow-wrap:anywhere}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>{{.Title}}</h1>
{{with .Text}}<p>{{.}}</p>{{end}}
{{if .Form}}<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">{{.Form}}</button></form>{{end}}
{{if .Mails}}<table data-testid="dev-mail"><tr><th>#</th><th>To</th><th>Subject</th><th>When</th></tr>
{{range .Mails}}<tr><td><a href="/dev/mail/{{.ID}}">{{.ID}}</a></td><td>{{range .To}}{{.}} {{end}}</td><td><a href="/dev/mail/{{.ID}}">{{.Subject}}</a></td><td>{{.CreatedAt.Format "2006-01-02 15:04:05"}}</td></tr>
{{end}}</table>{{else if .List}}<p>No mail here.</p>{{end}}
{{if or .Newer .Older}}<p data-testid="dev-pages">{{with .Newer}}<a href="{{.}}" rel="prev" data-testid="newer">← Newer mail</a> {{end}}{{with .Older}}<a href="{{.}}" rel="next" data-testid="older">Older mail →</a>{{end}}</p>{{end}}
{{with .Body}}<pre data-testid="mail-text">{{.}}</pre>{{end}}
{{with .Raw}}<details><summary>Raw message</summary><pre>{{.}}</pre></details>{{end}}
</body></html>`))

// page is a page of the mail side; the unsubscribe and confirmation pages
// are said in their reader's language (Lang), the dev mailbox's in
// English (it is for the people who run courrier).
type page struct {
	Lang                         string
	Title, Text, Form, Body, Raw string
	Newer, Older                 string // the dev mailbox's other pages
	List                         bool
	Mails                        []DevMail
}

func render(w http.ResponseWriter, status int, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pages.Execute(w, p) // the client may have gone
}

// pageSpeaker says a page in its reader's language: the account's setting
// (user "" for none known), else the browser's Accept-Language, else
// English.
func (s *Service) pageSpeaker(r *http.Request, user string) speaker {
	setting := ""
	if user != "" {
		if u, err := s.users.ByID(r.Context(), user); err == nil {
			setting = u.Language
		}
	}
	return speakerIn(auth.ChooseLanguage(setting, "", r.Header.Get("Accept-Language")))
}

// unsubscribePage shows what the link does, with a button: a GET changes
// nothing (mail scanners open links).
func (s *Service) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	user, game, err := s.cfg.Signer.VerifyUnsubscribe(r.PathValue("token"))
	if err != nil {
		sp := s.pageSpeaker(r, "")
		render(w, http.StatusNotFound, page{Lang: sp.lang(), Title: sp.t("page.unknown_title"), Text: sp.t("page.unknown_unsubscribe")})
		return
	}
	sp := s.pageSpeaker(r, user)
	if game == unsubscribeInvitations {
		render(w, http.StatusOK, page{
			Lang: sp.lang(), Title: sp.t("page.invitations_title"), Text: sp.t("page.invitations"), Form: sp.t("page.invitations_button"),
		})
		return
	}
	render(w, http.StatusOK, page{
		Lang: sp.lang(), Title: sp.t("page.game_title", game), Text: sp.t("page.game", game), Form: sp.t("page.game_button"),
	})
}

// unsubscribe turns the game's mail off for the link's player: the
// one-click POST of RFC 8058, authorised by the signed link alone.
func (s *Service) unsubscribe(w http.ResponseWriter, r *http.Request) {
	user, game, err := s.cfg.Signer.VerifyUnsubscribe(r.PathValue("token"))
	if err != nil {
		sp := s.pageSpeaker(r, "")
		render(w, http.StatusNotFound, page{Lang: sp.lang(), Title: sp.t("page.unknown_title"), Text: sp.t("page.unknown_unsubscribe")})
		return
	}
	sp := s.pageSpeaker(r, user)
	gameID, kind, done := game, "", sp.t("page.done_game", game)
	if game == unsubscribeInvitations {
		gameID, kind, done = "", KindInvitation, sp.t("page.done_invitations")
	}
	if err := s.SetPreference(r.Context(), user, gameID, kind, false); err != nil {
		s.log.ErrorContext(r.Context(), "unsubscribe", "err", err)
		render(w, http.StatusServiceUnavailable, page{Lang: sp.lang(), Title: sp.t("page.try_again_title"), Text: sp.t("page.try_again")})
		return
	}
	render(w, http.StatusOK, page{Lang: sp.lang(), Title: sp.t("page.done_title"), Text: sp.t("page.done_settings", done, s.cfg.BaseURL+"/settings")})
}

// devPageSize is how many messages a page of the dev mailbox lists.
const devPageSize = 50

// devList shows the dev mailbox a page at a time, newest first; ?before=id
// and ?after=id page by message id, so new mail moves no page.
func (s *Service) devList(w http.ResponseWriter, r *http.Request, dev *DevMailbox) {
	q := r.URL.Query()
	to := q.Get("to")
	before, _ := strconv.ParseInt(q.Get("before"), 10, 64)
	after, _ := strconv.ParseInt(q.Get("after"), 10, 64)
	if before > 0 {
		after = 0
	}
	list, err := dev.Page(r.Context(), to, max(before, 0), max(after, 0), devPageSize+1)
	if err != nil {
		render(w, http.StatusServiceUnavailable, page{Title: "Dev mailbox", Text: "The database did not answer; try again."})
		return
	}
	more := len(list) > devPageSize // one more beyond the page, in the direction paged
	if more && after > 0 {
		list = list[1:]
	} else if more {
		list = list[:devPageSize]
	}
	p := page{Title: "Dev mailbox", Text: "Every mail courrier sent while no relay is configured (COURRIER_SMTP_RELAY).", List: true, Mails: list}
	// What still waits to be sent, per priority (decision 9).
	if backlog, err := s.store.MailBacklog(r.Context()); err == nil {
		p.Text += " Waiting to be sent: " + mailstore.BacklogLine(backlog) + "."
	}
	link := func(key string, id int64) string {
		v := url.Values{key: {strconv.FormatInt(id, 10)}}
		if to != "" {
			v.Set("to", to)
		}
		return "/dev/mail?" + v.Encode()
	}
	if len(list) > 0 {
		if before > 0 || (after > 0 && more) {
			p.Newer = link("after", list[0].ID)
		}
		if after > 0 || (after == 0 && more) {
			p.Older = link("before", list[len(list)-1].ID)
		}
	}
	render(w, http.StatusOK, p)
}

func (s *Service) devJSON(w http.ResponseWriter, r *http.Request, dev *DevMailbox) {
	list, err := dev.List(r.Context(), r.URL.Query().Get("to"), 200)
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"code":"unavailable","message":"the database did not answer"}}`))
		return
	}
	type item struct {
		DevMail
		Text string `json:"text"`
	}
	out := make([]item, 0, len(list))
	for _, m := range list {
		full, err := dev.Get(r.Context(), m.ID)
		if err != nil {
			continue
		}
		out = append(out, item{DevMail: m, Text: TextOf(full.Raw)})
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"mail": out})
}

func (s *Service) devShow(w http.ResponseWriter, r *http.Request, dev *DevMailbox) {
	idText := r.PathValue("id")
	raw := false
	if n := len(idText); n > 4 && idText[n-4:] == ".eml" {
		idText, raw = idText[:n-4], true
	}
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		render(w, http.StatusNotFound, page{Title: "No such mail"})
		return
	}
	m, err := dev.Get(r.Context(), id)
	switch {
	case errors.Is(err, ErrNoMail):
		render(w, http.StatusNotFound, page{Title: "No such mail"})
		return
	case err != nil:
		render(w, http.StatusServiceUnavailable, page{Title: "Dev mailbox", Text: "The database did not answer; try again."})
		return
	}
	if raw {
		w.Header().Set("Content-Type", "message/rfc822")
		_, _ = w.Write(m.Raw)
		return
	}
	render(w, http.StatusOK, page{Title: m.Subject, Text: "To " + m.To[0] + " · " + m.CreatedAt.Format("2006-01-02 15:04:05"), Body: TextOf(m.Raw), Raw: string(m.Raw)})
}

// unsubscribeInvitations is the "game" of an invitation's unsubscribe
// link: it turns off every invitation, from anyone (not a game id, which
// has 10 characters).
const unsubscribeInvitations = "invitations"

// confirmation reads a confirmation link's token: the pending command's id.
func (s *Service) confirmation(token string) (int64, error) {
	tok, err := s.cfg.Signer.Verify(token)
	if err != nil {
		return 0, err
	}
	if tok.Kind != TokenConfirm {
		return 0, ErrBadToken
	}
	return strconv.ParseInt(tok.Game, 36, 64)
}

// confirmPage shows what the link does, with a button: a GET changes
// nothing (mail scanners open links).
func (s *Service) confirmPage(w http.ResponseWriter, r *http.Request) {
	sp := s.pageSpeaker(r, "")
	if _, err := s.confirmation(r.PathValue("token")); err != nil {
		render(w, http.StatusNotFound, page{Lang: sp.lang(), Title: sp.t("page.unknown_title"), Text: sp.t("page.unknown_confirm")})
		return
	}
	render(w, http.StatusOK, page{
		Lang: sp.lang(), Title: sp.t("page.confirm_title"), Text: sp.t("page.confirm"), Form: sp.t("page.confirm_button"),
	})
}

// confirm confirms the link's address and runs what waited for it.
func (s *Service) confirm(w http.ResponseWriter, r *http.Request, jobs JobInserter) {
	sp := s.pageSpeaker(r, "")
	id, err := s.confirmation(r.PathValue("token"))
	if err != nil {
		render(w, http.StatusNotFound, page{Lang: sp.lang(), Title: sp.t("page.unknown_title"), Text: sp.t("page.unknown_confirm")})
		return
	}
	n, err := s.confirmPending(r.Context(), jobs, id, "")
	switch {
	case errors.Is(err, errConfirmExpired), errors.Is(err, errConfirmOther):
		render(w, http.StatusGone, page{Lang: sp.lang(), Title: sp.t("page.too_late_title"), Text: msgSentence(sp.t(confirmKey(err)))})
		return
	case err != nil:
		s.log.ErrorContext(r.Context(), "confirm", "err", err)
		render(w, http.StatusServiceUnavailable, page{Lang: sp.lang(), Title: sp.t("page.try_again_title"), Text: sp.t("page.try_again")})
		return
	}
	text := sp.t("page.confirmed")
	if n == 0 {
		text = sp.t("page.confirmed_nothing")
	}
	render(w, http.StatusOK, page{Lang: sp.lang(), Title: sp.t("page.confirmed_title"), Text: text})
}

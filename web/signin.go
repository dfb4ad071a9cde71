package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
)

// The sign-in pages: they translate forms to auth.SignIn and its answers
// (and refusals, in auth's words) to pages.

// signIn mails a sign-in link (to the dev mailbox when there is no relay).
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	page := homePage{Layout: h.layout(r, "Sign in"), Email: strings.TrimSpace(r.PostFormValue("email"))}
	email, err := h.cfg.SignIn.Request(r.Context(), page.Email, r.PostFormValue("name"))
	if refusal, ok := errors.AsType[*auth.Refusal](err); ok {
		status := http.StatusBadRequest
		if errors.Is(refusal, auth.ErrTooManyLinks) {
			status = http.StatusTooManyRequests
		}
		page.Message = refusal.Message
		h.render(w, r, status, "home", page)
		return
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	page.Sent, page.Email = true, email
	h.render(w, r, http.StatusOK, "home", page)
}

type loginPage struct {
	Layout
	Problem string
}

// loginPage is what a sign-in link opens: a button, so that a mail scanner
// following the link signs nobody in.
func (h *Handler) loginPage(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, "login", loginPage{Layout: h.layout(r, "Sign in")})
}

// loginConfirm uses the link, starts a session and sets its cookie.
func (h *Handler) loginConfirm(w http.ResponseWriter, r *http.Request) {
	c, err := h.cfg.SignIn.Confirm(r.Context(), r.PathValue("secret"))
	if refusal, ok := errors.AsType[*auth.Refusal](err); ok {
		h.render(w, r, http.StatusUnauthorized, "login", loginPage{Layout: h.layout(r, "Sign in"), Problem: refusal.Message})
		return
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.setSession(w, c.Token)
	seeOther(w, r, "/games")
}

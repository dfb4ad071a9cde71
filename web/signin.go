package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
)

// The sign-in pages: they translate forms to auth.SignIn and its answers
// (and refusals, in the visitor's words) to pages.

// signIn mails a sign-in link (to the dev mailbox when there is no relay).
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	v := visitOf(r)
	page := homePage{Layout: h.layout(r, v.say("title.sign_in")), Email: strings.TrimSpace(r.PostFormValue("email"))}
	email, err := h.cfg.SignIn.Request(r.Context(), page.Email, r.PostFormValue("name"), v.Lang)
	if refusal, ok := errors.AsType[*auth.Refusal](err); ok {
		status := http.StatusBadRequest
		if errors.Is(refusal, auth.ErrTooManyLinks) {
			status = http.StatusTooManyRequests
		}
		page.Message = v.refusal(refusal, page.Email)
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

// refusal says why auth refused a sign-in (email is the address typed):
// in auth's own words when they can be said in the visitor's language,
// else in web's words for its reason.
func (v visit) refusal(r *auth.Refusal, email string) string {
	if e, ok := any(r).(games.Explainer); ok {
		return e.Explain(v.Lang)
	}
	for _, k := range []struct {
		reason error
		key    string
		args   []any
	}{
		{auth.ErrBadAddress, "signin.bad_address", []any{email}},
		{auth.ErrBadName, "signin.bad_name", []any{auth.MaxNameLength}},
		{auth.ErrTooManyLinks, "signin.too_many", nil},
		{auth.ErrLinkUsed, "signin.link_used", nil},
		{auth.ErrLinkExpired, "signin.link_expired", nil},
		{auth.ErrLinkUnknown, "signin.link_unknown", nil},
		{auth.ErrNoUser, "signin.no_user", nil},
	} {
		if errors.Is(r, k.reason) {
			return v.say(k.key, k.args...)
		}
	}
	return r.Message
}

type loginPage struct {
	Layout
	Problem string
}

// loginPage is what a sign-in link opens: a button, so that a mail scanner
// following the link signs nobody in.
func (h *Handler) loginPage(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, "login", loginPage{Layout: h.layout(r, visitOf(r).say("title.sign_in"))})
}

// loginConfirm uses the link, starts a session and sets its cookie. An
// account that has no language yet (its first sign-in) gets the one the
// visitor chose on the pages, else their browser's (Users.NoteLanguage):
// its owner proved, by the link, that the address is theirs.
func (h *Handler) loginConfirm(w http.ResponseWriter, r *http.Request) {
	v := visitOf(r)
	c, err := h.cfg.SignIn.Confirm(r.Context(), r.PathValue("secret"))
	if refusal, ok := errors.AsType[*auth.Refusal](err); ok {
		h.render(w, r, http.StatusUnauthorized, "login", loginPage{Layout: h.layout(r, v.say("title.sign_in")), Problem: v.refusal(refusal, "")})
		return
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if lang := h.firstLanguage(r); lang != "" && c.User.Language == "" {
		if _, err := h.cfg.Users.NoteLanguage(r.Context(), c.User.ID, lang); err != nil {
			h.log.WarnContext(r.Context(), "web: note the language of a first sign-in", "user", c.User.ID, "err", err)
		}
	}
	h.setSession(w, c.Token)
	seeOther(w, r, "/games")
}

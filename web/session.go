package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/api/auth"
)

// Cookies. The session is the same short-lived JWT the API issues (purpose
// session), kept HttpOnly; /v1 never reads it, so the API cannot be the
// target of a cross-site request.
const (
	sessionCookie = "courrier_session"
	csrfCookie    = "courrier_csrf"
	seenCookie    = "courrier_seen"
	csrfField     = "csrf"
)

// visit is who is asking: the signed-in user (zero when nobody) and the
// CSRF token their forms carry.
type visit struct {
	User auth.User
	CSRF string
}

type visitKey struct{}

func withSession(ctx context.Context, v visit) context.Context {
	return context.WithValue(ctx, visitKey{}, v)
}

// visitOf returns the visit of a request.
func visitOf(r *http.Request) visit {
	v, _ := r.Context().Value(visitKey{}).(visit)
	return v
}

// userOf is the signed-in user's id ("" for nobody).
func userOf(r *http.Request) string { return visitOf(r).User.ID }

// session reads the session cookie and makes sure the browser holds a CSRF
// token (a random value in its own cookie, which every form repeats).
func (h *Handler) session(w http.ResponseWriter, r *http.Request) visit {
	var v visit
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) >= 32 {
		v.CSRF = c.Value
	} else {
		var b [24]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
		v.CSRF = base64.RawURLEncoding.EncodeToString(b[:])
		http.SetCookie(w, h.cookie(csrfCookie, v.CSRF, "/", 0))
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return v
	}
	id, err := h.cfg.Sessions.Verify(c.Value, auth.PurposeSession)
	if err != nil {
		h.clearSession(w)
		return v
	}
	u, err := h.cfg.Users.ByID(r.Context(), id)
	if err != nil || u.Email == "" {
		if !errors.Is(err, auth.ErrNoUser) && err != nil {
			h.log.WarnContext(r.Context(), "web: read the session's user", "err", err)
		}
		return v
	}
	v.User = u
	return v
}

// startSession sets the session cookie for user.
func (h *Handler) startSession(w http.ResponseWriter, user string) error {
	tok, err := h.cfg.Sessions.Issue(user, auth.PurposeSession)
	if err != nil {
		return err
	}
	http.SetCookie(w, h.cookie(sessionCookie, tok, "/", int(h.cfg.Sessions.TTL().Seconds())))
	return nil
}

// clearSession removes the session cookie.
func (h *Handler) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, h.cookie(sessionCookie, "", "/", -1))
}

// checkCSRF refuses a form whose csrf field (or X-CSRF-Token header) is not
// the browser's CSRF cookie. (Cross-origin posts are refused before, by
// http.CrossOriginProtection.)
func (h *Handler) checkCSRF(fn func(http.ResponseWriter, *http.Request)) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		sent := r.Header.Get("X-CSRF-Token")
		if sent == "" {
			sent = r.PostFormValue(csrfField)
		}
		c, err := r.Cookie(csrfCookie)
		if err != nil || sent == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(c.Value)) != 1 {
			h.fail(w, r, http.StatusForbidden, "This form has expired or did not come from this site: nothing was done. Reload the page and send it again.")
			return
		}
		fn(w, r)
	}
}

// requireUser answers a visitor who is not signed in with the sign-in page.
func (h *Handler) requireUser(w http.ResponseWriter, r *http.Request) bool {
	if userOf(r) != "" {
		return true
	}
	h.render(w, r, http.StatusUnauthorized, "home", homePage{Layout: h.layout(r, "Sign in"),
		Message: "Sign in to see this page.", Next: r.URL.Path})
	return false
}

// lastSeen is the version of a game this browser last showed its player.
func lastSeen(r *http.Request, gameID string) (int, bool) {
	c, err := r.Cookie(seenCookie)
	if err != nil {
		return 0, false
	}
	for part := range strings.SplitSeq(c.Value, ".") {
		id, v, ok := strings.Cut(part, "-")
		if ok && id == gameID {
			n, err := strconv.Atoi(v)
			return n, err == nil
		}
	}
	return 0, false
}

// markSeen remembers that the player saw game at version (the 20 games
// seen last).
func (h *Handler) markSeen(w http.ResponseWriter, r *http.Request, gameID string, version int) {
	parts := []string{gameID + "-" + strconv.Itoa(version)}
	if c, err := r.Cookie(seenCookie); err == nil {
		for part := range strings.SplitSeq(c.Value, ".") {
			if id, _, ok := strings.Cut(part, "-"); ok && id != gameID && len(parts) < 20 {
				parts = append(parts, part)
			}
		}
	}
	http.SetCookie(w, h.cookie(seenCookie, strings.Join(parts, "."), "/games/", 90*24*3600))
}

// cookie is one of our cookies: HttpOnly, SameSite=Lax, and Secure when the
// service's base URL is https (a local http://localhost has no TLS, and a
// Secure cookie would never come back).
func (h *Handler) cookie(name, value, path string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge, HttpOnly: true, //nolint:gosec // G124: Secure follows the base URL, see above
		Secure: h.secure, SameSite: http.SameSiteLaxMode}
}

package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
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
// target of a cross-site request. When the base URL is https every cookie
// is named with the __Host- prefix (Secure, Path=/, no Domain), so that no
// other host of the domain can set or overwrite it (cookie tossing).
const (
	sessionCookie = "courrier_session"
	csrfCookie    = "courrier_csrf"
	seenCookie    = "courrier_seen"
	csrfField     = "csrf"
	hostPrefix    = "__Host-"
)

// visit is who is asking: the signed-in user (zero when nobody), their
// session's id, the CSRF token their forms carry, and the language their
// pages are in.
type visit struct {
	User    auth.User
	Session string
	CSRF    string
	Lang    string
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

// session reads the session cookie (a session still open on the server)
// and computes the CSRF token of the visit's forms.
func (h *Handler) session(w http.ResponseWriter, r *http.Request) visit {
	v := h.readSession(w, r)
	v.Lang = h.pageLanguage(r, v.User)
	return v
}

// readSession is session without the language.
func (h *Handler) readSession(w http.ResponseWriter, r *http.Request) visit {
	var v visit
	// A visitor's own random value, which binds the forms shown before
	// signing in (the sign-in form, a link's button).
	nonce := ""
	if c, err := r.Cookie(h.cookieName(csrfCookie)); err == nil && len(c.Value) >= 32 && len(c.Value) <= 64 {
		nonce = c.Value
	} else {
		var b [24]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
		nonce = base64.RawURLEncoding.EncodeToString(b[:])
		http.SetCookie(w, h.cookie(csrfCookie, nonce, "/", 0))
	}
	v.CSRF = h.csrfToken("visitor", nonce)
	c, err := r.Cookie(h.cookieName(sessionCookie))
	if err != nil || c.Value == "" {
		return v
	}
	sess, err := h.cfg.Sessions.Verify(r.Context(), c.Value)
	if err != nil {
		if errors.Is(err, auth.ErrInvalidToken) {
			h.clearSession(w) // expired, signed out or not ours
		} else {
			h.log.WarnContext(r.Context(), "web: check the session", "err", err)
		}
		return v
	}
	u, err := h.cfg.Users.ByID(r.Context(), sess.User)
	if err != nil || u.Email == "" {
		if !errors.Is(err, auth.ErrNoUser) && err != nil {
			h.log.WarnContext(r.Context(), "web: read the session's user", "err", err)
		}
		return v
	}
	v.User, v.Session = u, sess.ID
	v.CSRF = h.csrfToken("session", sess.ID)
	return v
}

// csrfToken is the CSRF token of a session (or, before signing in, of a
// visitor's random value): HMAC-SHA256 under the server's CSRF key, so a
// token cannot be made up, nor carried from one session to another.
func (h *Handler) csrfToken(kind, id string) string {
	mac := hmac.New(sha256.New, h.cfg.CSRFKey)
	mac.Write([]byte("courrier csrf " + kind + " " + id))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// setSession sets the cookie of a session just opened (its token).
func (h *Handler) setSession(w http.ResponseWriter, token string) {
	http.SetCookie(w, h.cookie(sessionCookie, token, "/", int(h.cfg.Sessions.TTL().Seconds())))
}

// clearSession removes the session cookie.
func (h *Handler) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, h.cookie(sessionCookie, "", "/", -1))
}

// checkCSRF refuses a form whose csrf field (or X-CSRF-Token header) is not
// the token of the visit's session (or, before signing in, of the
// browser's random value). Cross-origin posts are refused before, by
// http.CrossOriginProtection.
func (h *Handler) checkCSRF(fn func(http.ResponseWriter, *http.Request)) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		sent := r.Header.Get("X-CSRF-Token")
		if sent == "" {
			sent = r.PostFormValue(csrfField)
		}
		want := visitOf(r).CSRF
		if sent == "" || want == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(want)) != 1 {
			h.fail(w, r, http.StatusForbidden, visitOf(r).say("error.csrf"))
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
	v := visitOf(r)
	h.render(w, r, http.StatusUnauthorized, "home", homePage{Layout: h.layout(r, v.say("title.sign_in")),
		Message: v.say("home.need_sign_in"), Next: r.URL.Path})
	return false
}

// lastSeen is the version of a game this browser last showed its player.
func (h *Handler) lastSeen(r *http.Request, gameID string) (int, bool) {
	c, err := r.Cookie(h.cookieName(seenCookie))
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
	if c, err := r.Cookie(h.cookieName(seenCookie)); err == nil {
		for part := range strings.SplitSeq(c.Value, ".") {
			if id, _, ok := strings.Cut(part, "-"); ok && id != gameID && len(parts) < 20 {
				parts = append(parts, part)
			}
		}
	}
	http.SetCookie(w, h.cookie(seenCookie, strings.Join(parts, "."), "/games/", 90*24*3600))
}

// cookieName is the name of one of our cookies as the browser holds it:
// with the __Host- prefix when the base URL is https.
func (h *Handler) cookieName(name string) string {
	if h.secure {
		return hostPrefix + name
	}
	return name
}

// cookie is one of our cookies: HttpOnly, SameSite=Lax, and, when the
// service's base URL is https, Secure, prefixed __Host- and for the whole
// site (Path=/, which the prefix requires; no Domain). A local
// http://localhost has no TLS, and a Secure cookie would never come back:
// there the names and paths are the plain ones.
func (h *Handler) cookie(name, value, path string, maxAge int) *http.Cookie {
	if h.secure {
		name, path = hostPrefix+name, "/"
	}
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge, HttpOnly: true, //nolint:gosec // G124: Secure follows the base URL, see above
		Secure: h.secure, SameSite: http.SameSiteLaxMode}
}

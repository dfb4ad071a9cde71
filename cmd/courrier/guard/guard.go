// Package guard slows down the clients that keep sending what courrier
// refuses: malformed requests, forged or expired tokens, oversized bodies,
// unknown paths. It wraps the whole HTTP server that `courrier serve`
// assembles (the API, the web pages and the mail pages), which is why it
// lives beside serve and not in any one of them. Each address may be refused a few times a second at full
// speed (a person or a script with a bug sees its error at once); past
// that, each further refusal is answered only after a pause. A flood from a
// few connections then costs serve a few requests a second instead of
// thousands, and the players' requests keep their speed. Answers that
// succeed, and the refusals of a game's rules (409 stale, 422 illegal),
// are never delayed.
//
// The budget is per IPv4 address and per IPv6 /64. Clients that share an
// address (behind a NAT, or every client when serve sits behind a reverse
// proxy on its host) share one budget: during a flood from one of them,
// the others' refusals wait too, never their successes. A proxy in front
// should then limit by the real client itself.
package guard

import (
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// Config sets the budget of refusals per address and the pause past it.
type Config struct {
	// PerSecond is how many refusals a second an address gets at full
	// speed, with bursts of five times that (default 20).
	PerSecond rate.Limit
	// Pause is how long a refusal past the budget waits before it is sent
	// (default 1 s).
	Pause time.Duration
	// MaxHeld bounds the refusals held in their pause at once (default
	// 4,096); past it, a refusal is sent at once and its connection closed.
	MaxHeld int64
}

// Refusal reports whether an HTTP status is a refusal the guard counts:
// the request was malformed, unauthenticated, forbidden, too large, of an
// unknown path or method, or already rate-limited.
func Refusal(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType,
		http.StatusRequestHeaderFieldsTooLarge, http.StatusTooManyRequests:
		return true
	}
	return false
}

// Handler wraps next: a refusal past its address's budget is held for
// cfg.Pause (or until the client goes away) before its status is written.
func Handler(next http.Handler, cfg Config) http.Handler {
	if cfg.PerSecond <= 0 {
		cfg.PerSecond = 20
	}
	if cfg.Pause <= 0 {
		cfg.Pause = time.Second
	}
	if cfg.MaxHeld <= 0 {
		cfg.MaxHeld = 4096
	}
	budget := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: cfg.PerSecond, Burst: max(1, int(5*cfg.PerSecond)), ExpiresIn: 3 * time.Minute,
	})
	var held atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := client(r.RemoteAddr)
		next.ServeHTTP(&writer{ResponseWriter: w, pause: func() {
			if ok, _ := budget.Allow(addr); ok {
				return
			}
			if held.Add(1) > cfg.MaxHeld {
				held.Add(-1)
				w.Header().Set("Connection", "close")
				return
			}
			defer held.Add(-1)
			t := time.NewTimer(cfg.Pause)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
			}
		}}, r)
	})
}

// client is the budget's key for a remote address: the IPv4 address, or
// the /64 network of an IPv6 one (a single machine commonly holds a whole
// /64).
func client(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// writer holds a refusal's status until its pause is over.
type writer struct {
	http.ResponseWriter
	pause   func()
	written bool
}

// WriteHeader implements http.ResponseWriter.
func (w *writer) WriteHeader(status int) {
	if !w.written {
		w.written = true
		if Refusal(status) {
			w.pause()
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (w *writer) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher, for the live streams.
func (w *writer) Flush() {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

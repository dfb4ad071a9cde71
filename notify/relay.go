package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Relay delivers mail through an SMTP relay (COURRIER_SMTP_RELAY).
type Relay struct {
	addr     string // host:port
	user     string
	password string
	implicit bool // smtps://: TLS from the first byte
	insecure bool // smtp+insecure://: plain text allowed off loopback
	hello    string
	roots    *x509.CertPool // trusted roots; nil: the system's
}

// ParseRelay reads a relay URL: smtp://user:pass@host:port (STARTTLS
// required off the loopback interface; port 587 by default), smtps://… (TLS
// from the start; port 465 by default) or smtp+insecure://… (STARTTLS when
// offered, plain text allowed: an explicit choice for a relay on a trusted
// network). It fails closed: login links and reply tokens never go in clear
// to a relay off this machine unless the URL says so. hello is the name
// announced in EHLO.
func ParseRelay(raw, hello string) (*Relay, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY is not a URL: %w", err)
	}
	r := &Relay{hello: hello}
	port := "587"
	switch u.Scheme {
	case "smtp":
	case "smtp+insecure":
		r.insecure = true
	case "smtps":
		r.implicit, port = true, "465"
	default:
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY must start with smtp://, smtps:// or smtp+insecure://, not %q", u.Scheme+"://")
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY names no host")
	}
	if u.Port() != "" {
		port = u.Port()
	}
	r.addr = net.JoinHostPort(u.Hostname(), port)
	if u.User != nil {
		r.user = u.User.Username()
		r.password, _ = u.User.Password()
	}
	return r, nil
}

// Addr is the relay's host:port.
func (r *Relay) Addr() string { return r.addr }

// Send delivers one message (RFC 5322 bytes, CRLF lines) from the envelope
// sender to the recipients. The whole exchange is bounded by ctx, or by two
// minutes when ctx has no deadline. With smtp:// the connection is upgraded
// by STARTTLS when the relay offers it; credentials are never sent in clear
// to a relay that is not on the loopback interface.
func (r *Relay) Send(ctx context.Context, from string, to []string, msg []byte) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(2 * time.Minute)
	}
	c, secure, err := r.connect(ctx, deadline)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }() // after QUIT, or on a failure already reported
	if r.user != "" {
		if !secure && !r.loopback() {
			return fmt.Errorf("relay %s offers no TLS: refusing to send the password of %s in clear", r.addr, r.user)
		}
		if err := c.Auth(sasl.NewPlainClient("", r.user, r.password)); err != nil {
			return fmt.Errorf("relay %s: authenticate as %s: %w", r.addr, r.user, err)
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		err = fmt.Errorf("relay %s: send to %v: %w", r.addr, to, err)
		if refusedForGood(err) {
			return &refusal{err: err}
		}
		return err
	}
	// The relay took the message at its answer to DATA: a QUIT that fails
	// after it must not make the mail be sent again.
	_ = c.Quit()
	return nil
}

// connect opens a session with the relay: TLS from the start for smtps://;
// for smtp://, STARTTLS, required unless the relay is on the loopback
// interface or the URL is smtp+insecure://. The decision rests on the EHLO
// extensions the relay announces, never on the text of an error. (go-smtp
// upgrades only a fresh session, so a relay that offers STARTTLS is asked
// twice: once to learn it, once to use it.) secure tells whether the
// session is encrypted.
func (r *Relay) connect(ctx context.Context, deadline time.Time) (c *smtp.Client, secure bool, err error) {
	host, _, _ := net.SplitHostPort(r.addr)
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: r.roots}
	dial := func() (net.Conn, error) {
		d := net.Dialer{Deadline: deadline}
		conn, err := d.DialContext(ctx, "tcp", r.addr)
		if err != nil {
			return nil, fmt.Errorf("connect to relay %s: %w", r.addr, err)
		}
		if err := conn.SetDeadline(deadline); err != nil {
			_ = conn.Close() // the deadline error is the one to report
			return nil, fmt.Errorf("connect to relay %s: %w", r.addr, err)
		}
		return conn, nil
	}
	conn, err := dial()
	if err != nil {
		return nil, false, err
	}
	if r.implicit {
		conn = tls.Client(conn, tlsConfig)
	}
	c = smtp.NewClient(conn)
	fail := func(c *smtp.Client, format string, args ...any) (*smtp.Client, bool, error) {
		_ = c.Close() // the session failed; its error is the one to report
		return nil, false, fmt.Errorf(format, args...)
	}
	if err := c.Hello(r.hello); err != nil {
		return fail(c, "relay %s: EHLO: %w", r.addr, err)
	}
	if r.implicit {
		return c, true, nil
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		if !r.loopback() && !r.insecure {
			return fail(c, "relay %s offers no STARTTLS: refusing to send mail in clear off this machine "+
				"(use smtps:// for a relay with TLS from the start, or smtp+insecure:// to allow plain text)", r.addr)
		}
		return c, false, nil
	}
	_ = c.Quit() // the probe's answer is known; a failed QUIT changes nothing
	if conn, err = dial(); err != nil {
		return nil, false, err
	}
	if c, err = smtp.NewClientStartTLS(conn, tlsConfig); err != nil {
		return nil, false, fmt.Errorf("relay %s: STARTTLS: %w", r.addr, err)
	}
	if err := c.Hello(r.hello); err != nil {
		return fail(c, "relay %s: EHLO after STARTTLS: %w", r.addr, err)
	}
	return c, true, nil
}

// refusal is the relay's answer of class 5 to the message itself (its
// sender, a recipient, its content): no retry can deliver it. A 5xx to the
// session (EHLO, STARTTLS, AUTH: a relay or a password set wrong) is not
// one: the mail waits, retried, for the operator to fix the setting.
type refusal struct{ err error }

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// refusedForGood reports whether err is an SMTP reply of class 5 other
// than 552, which RFC 5321 (4.5.3.1.10) asks clients to treat as
// temporary at RCPT.
func refusedForGood(err error) bool {
	se, ok := errors.AsType[*smtp.SMTPError](err)
	return ok && se.Code >= 500 && se.Code < 600 && se.Code != 552
}

// loopback reports whether the relay is on this machine.
func (r *Relay) loopback() bool {
	host, _, _ := net.SplitHostPort(r.addr)
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"strings"
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
	hello    string
	roots    *x509.CertPool // trusted roots; nil: the system's
}

// ParseRelay reads a relay URL: smtp://user:pass@host:port (STARTTLS when
// the relay offers it; port 587 by default) or smtps://… (TLS from the
// start; port 465 by default). hello is the name announced in EHLO.
func ParseRelay(raw, hello string) (*Relay, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY is not a URL: %w", err)
	}
	r := &Relay{hello: hello}
	port := "587"
	switch u.Scheme {
	case "smtp":
	case "smtps":
		r.implicit, port = true, "465"
	default:
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY must start with smtp:// or smtps://, not %q", u.Scheme+"://")
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
	defer c.Close()
	if r.user != "" {
		if !secure && !r.loopback() {
			return fmt.Errorf("relay %s offers no TLS: refusing to send the password of %s in clear", r.addr, r.user)
		}
		if err := c.Auth(sasl.NewPlainClient("", r.user, r.password)); err != nil {
			return fmt.Errorf("relay %s: authenticate as %s: %w", r.addr, r.user, err)
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return fmt.Errorf("relay %s: send to %v: %w", r.addr, to, err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("relay %s: QUIT: %w", r.addr, err)
	}
	return nil
}

// connect opens a session with the relay, with TLS when it can: implicit
// for smtps://, by STARTTLS for smtp:// when offered (else a second, plain
// connection). secure tells whether the session is encrypted.
func (r *Relay) connect(ctx context.Context, deadline time.Time) (c *smtp.Client, secure bool, err error) {
	host, _, _ := net.SplitHostPort(r.addr)
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: r.roots}
	dial := func() (net.Conn, error) {
		d := net.Dialer{Deadline: deadline}
		conn, err := d.DialContext(ctx, "tcp", r.addr)
		if err != nil {
			return nil, fmt.Errorf("connect to relay %s: %w", r.addr, err)
		}
		return conn, conn.SetDeadline(deadline)
	}
	conn, err := dial()
	if err != nil {
		return nil, false, err
	}
	if r.implicit {
		c = smtp.NewClient(tls.Client(conn, tlsConfig))
		if err := c.Hello(r.hello); err != nil {
			c.Close()
			return nil, false, fmt.Errorf("relay %s: EHLO: %w", r.addr, err)
		}
		return c, true, nil
	}
	if c, err = smtp.NewClientStartTLS(conn, tlsConfig); err == nil {
		return c, true, nil
	}
	if !strings.Contains(err.Error(), "STARTTLS") {
		return nil, false, fmt.Errorf("relay %s: %w", r.addr, err)
	}
	if conn, err = dial(); err != nil {
		return nil, false, err
	}
	c = smtp.NewClient(conn)
	if err := c.Hello(r.hello); err != nil {
		c.Close()
		return nil, false, fmt.Errorf("relay %s: EHLO: %w", r.addr, err)
	}
	return c, false, nil
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

package notify

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"golang.org/x/net/idna"
)

// Relay delivers mail through an SMTP relay (COURRIER_SMTP_RELAY).
type Relay struct {
	scheme   string // smtp, smtps or smtp+insecure
	addr     string // host:port
	user     string
	password string
	implicit bool // smtps://: TLS from the first byte
	insecure bool // smtp+insecure://: plain text allowed off loopback; on loopback, the certificate is not checked
	hello    string
	roots    *x509.CertPool // trusted roots; nil: the system's
	caFile   string         // COURRIER_SMTP_RELAY_CA, named in the errors
}

// ParseRelay reads a relay URL: smtp://user:pass@host:port (STARTTLS
// required off the loopback interface; port 587 by default), smtps://… (TLS
// from the start; port 465 by default) or smtp+insecure://… (STARTTLS when
// offered, plain text allowed: an explicit choice for a relay on a trusted
// network; on the loopback interface, the relay's certificate is then not
// checked, for a local MTA with a self-signed one). It fails closed: login
// links and reply tokens never go in clear to a relay off this machine
// unless the URL says so, and a certificate is checked everywhere but on
// smtp+insecure:// to this machine. hello is the name announced in EHLO.
func ParseRelay(raw, hello string) (*Relay, error) {
	u, err := url.Parse(raw)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err // not the URL itself, which holds the password
		}
		return nil, fmt.Errorf("COURRIER_SMTP_RELAY is not a URL: %w", err)
	}
	r := &Relay{scheme: u.Scheme, hello: hello}
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
		return nil, errors.New("COURRIER_SMTP_RELAY names no host")
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

// TrustCAFile adds the PEM certificates of the file at path
// (COURRIER_SMTP_RELAY_CA) to the roots the relay's certificate is checked
// against, beside the system's: a private CA, or the relay's self-signed
// certificate itself (Debian's snakeoil, /etc/ssl/certs/ssl-cert-snakeoil.pem).
// The relay must still be named by a name (or IP address) its certificate
// holds. A file that cannot be read or holds no certificate is an error.
func (r *Relay) TrustCAFile(path string) error {
	pem, err := os.ReadFile(path) //nolint:gosec // G304: the operator's own setting names the file
	if err != nil {
		return fmt.Errorf("COURRIER_SMTP_RELAY_CA: %w", err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool() // no system roots here: the file's alone
	}
	if !roots.AppendCertsFromPEM(pem) {
		return fmt.Errorf("COURRIER_SMTP_RELAY_CA: %s holds no PEM certificate", path)
	}
	r.roots, r.caFile = roots, path
	return nil
}

// Addr is the relay's host:port.
func (r *Relay) Addr() string { return r.addr }

// String is the relay's URL without its password, for logs:
// smtp://user@host:port.
func (r *Relay) String() string {
	u := url.URL{Scheme: r.scheme, Host: r.addr}
	if r.user != "" {
		u.User = url.User(r.user)
	}
	return u.String()
}

// Send delivers one message (RFC 5322 bytes, CRLF lines) from the envelope
// sender to the recipients, over one connection. The whole exchange is
// bounded by ctx, or by two minutes when ctx has no deadline: the
// connection is closed when it ends. With smtp:// the session is upgraded
// by STARTTLS when the relay offers it; credentials are never sent in clear
// to a relay that is not on the loopback interface. A message whose
// addresses or header fields are not ASCII goes with SMTPUTF8 (RFC 6531)
// when the relay offers it; else an internationalized domain is sent as
// its A-labels (punycode), and a mailbox whose local part is not ASCII
// cannot be sent: that mail fails for good.
func (r *Relay) Send(ctx context.Context, from string, to []string, msg []byte) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
	}
	d := net.Dialer{}
	conn, err := d.DialContext(ctx, "tcp", r.addr)
	if err != nil {
		return fmt.Errorf("connect to relay %s: %w", r.addr, err)
	}
	// go-smtp sets and clears deadlines of its own around each command:
	// closing the connection when ctx ends is what bounds a relay that
	// hangs.
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	defer func() { _ = conn.Close() }() // after QUIT, or on a failure already reported
	err = r.session(ctx, conn, from, to, msg)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w (the relay was given up on: %w)", err, ctx.Err())
	}
	return err
}

// session runs one SMTP session on conn: hello, TLS, authentication, the
// message, QUIT.
func (r *Relay) session(ctx context.Context, conn net.Conn, from string, to []string, msg []byte) error {
	c, secure, err := r.open(ctx, conn)
	if err != nil {
		return err
	}
	if r.user != "" {
		if !secure && !r.loopback() {
			return fmt.Errorf("relay %s offers no TLS: refusing to send the password of %s in clear", r.addr, r.user)
		}
		if err := c.Auth(sasl.NewPlainClient("", r.user, r.password)); err != nil {
			return fmt.Errorf("relay %s: authenticate as %s: %w", r.addr, r.user, err)
		}
	}
	if err := r.transfer(c, from, to, msg); err != nil {
		return err
	}
	// The relay took the message at its answer to DATA: a QUIT that fails
	// after it must not make the mail be sent again.
	_ = c.Quit()
	return nil
}

// open greets the relay on conn: TLS from the start for smtps://; for
// smtp://, STARTTLS on the same connection, required unless the relay is on
// the loopback interface or the URL is smtp+insecure://. The decision rests
// on the EHLO extensions the relay announces, never on the text of an
// error. secure tells whether the session is encrypted.
func (r *Relay) open(ctx context.Context, conn net.Conn) (c *smtp.Client, secure bool, err error) {
	if r.implicit {
		tc, err := r.handshake(ctx, conn)
		if err != nil {
			return nil, false, err
		}
		c = smtp.NewClient(tc)
		if err := c.Hello(r.hello); err != nil {
			return nil, false, fmt.Errorf("relay %s: EHLO: %w", r.addr, err)
		}
		return c, true, nil
	}
	c = smtp.NewClient(conn)
	if err := c.Hello(r.hello); err != nil {
		return nil, false, fmt.Errorf("relay %s: EHLO: %w", r.addr, err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		if !r.loopback() && !r.insecure {
			return nil, false, fmt.Errorf("relay %s offers no STARTTLS: refusing to send mail in clear off this machine "+
				"(use smtps:// for a relay with TLS from the start, or smtp+insecure:// to allow plain text)", r.addr)
		}
		return c, false, nil
	}
	tc, err := r.startTLS(ctx, conn)
	if err != nil {
		return nil, false, err
	}
	// go-smtp's client begins by reading the server's greeting, which the
	// relay does not send again after STARTTLS: the session goes on over
	// TLS with a client that is handed one.
	c = smtp.NewClient(&resumed{Conn: tc, greeting: strings.NewReader("220 " + r.addr + " TLS\r\n")})
	if err := c.Hello(r.hello); err != nil {
		return nil, false, fmt.Errorf("relay %s: EHLO after STARTTLS: %w", r.addr, err)
	}
	return c, true, nil
}

// startTLS sends STARTTLS (RFC 3207) on conn, whose EHLO offered it, and
// shakes hands. go-smtp upgrades only a session it opened with STARTTLS
// in mind (and greets with "localhost" then), so the command is sent here,
// on the same connection. The relay's answer is read a byte at a time:
// nothing it sent after the answer is taken as part of the session, it
// goes to the TLS handshake, which fails (no plain-text injection).
func (r *Relay) startTLS(ctx context.Context, conn net.Conn) (*tls.Conn, error) {
	if _, err := io.WriteString(conn, "STARTTLS\r\n"); err != nil {
		return nil, fmt.Errorf("relay %s: STARTTLS: %w", r.addr, err)
	}
	if _, _, err := textproto.NewReader(bufio.NewReader(byteReader{conn})).ReadResponse(220); err != nil {
		if te, ok := errors.AsType[*textproto.Error](err); ok {
			err = &smtp.SMTPError{Code: te.Code, Message: te.Msg} // a 454 (TLS not available for now) is retried like any answer to the session
		}
		return nil, fmt.Errorf("relay %s: STARTTLS: %w", r.addr, err)
	}
	return r.handshake(ctx, conn)
}

// handshake begins TLS with the relay on conn.
func (r *Relay) handshake(ctx context.Context, conn net.Conn) (*tls.Conn, error) {
	host, _, _ := net.SplitHostPort(r.addr)
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: r.roots}
	if r.insecure && r.loopback() {
		// smtp+insecure:// to this machine: a local MTA's self-signed
		// certificate (Debian's snakeoil) is taken unchecked; what it
		// protects against is off the machine.
		cfg.InsecureSkipVerify = true //nolint:gosec // G402: the operator's explicit choice, on loopback only (ParseRelay)
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, &tlsError{addr: r.addr, err: err, hint: r.tlsHint(err)}
	}
	return tc, nil
}

// tlsHint is what the operator can do about a failed handshake.
func (r *Relay) tlsHint(err error) string {
	var hint string
	_, unknown := errors.AsType[x509.UnknownAuthorityError](err)
	_, misnamed := errors.AsType[x509.HostnameError](err)
	_, invalid := errors.AsType[x509.CertificateInvalidError](err)
	switch {
	case unknown && r.caFile == "":
		hint = "set COURRIER_SMTP_RELAY_CA to the relay's CA file"
	case unknown:
		hint = "no certificate of COURRIER_SMTP_RELAY_CA (" + r.caFile + ") signed the relay's"
	case misnamed:
		hint = "name the relay in COURRIER_SMTP_RELAY by a name its certificate holds"
	case invalid:
		hint = "the relay's certificate must be renewed or replaced"
	default:
		return ""
	}
	if r.loopback() && !r.insecure {
		hint += ", or use smtp+insecure:// (the certificate of a relay on this machine is then not checked)"
	}
	return hint
}

// tlsError is a failed TLS handshake with the relay: most often a
// certificate courrier does not trust, a setting to fix. The mail is
// retried (Service.HandleError logs each attempt as an error) so that it
// goes once the setting is fixed.
type tlsError struct {
	addr string
	err  error
	hint string // what to do; "" when nothing is known
}

func (e *tlsError) Error() string {
	s := fmt.Sprintf("TLS handshake with relay %s: %v", e.addr, e.err)
	if e.hint != "" {
		s += ": " + e.hint
	}
	return s
}

func (e *tlsError) Unwrap() error { return e.err }

// byteReader reads at most a byte at a time.
type byteReader struct{ r io.Reader }

func (b byteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return b.r.Read(p)
}

// resumed is a TLS connection on which an SMTP session goes on after
// STARTTLS: its first reads return greeting, then what the relay sends.
type resumed struct {
	net.Conn
	greeting *strings.Reader
}

func (c *resumed) Read(p []byte) (int, error) {
	if c.greeting.Len() > 0 {
		return c.greeting.Read(p)
	}
	return c.Conn.Read(p)
}

// transfer sends the message on an open session: MAIL (with SMTPUTF8 when
// it is needed), RCPT for each recipient, DATA.
func (r *Relay) transfer(c *smtp.Client, from string, to []string, msg []byte) error {
	opts := &smtp.MailOptions{Size: int64(len(msg))}
	if need := needsUTF8(from, to, msg); need != "" {
		if ok, _ := c.Extension("SMTPUTF8"); ok {
			opts.UTF8 = true
		} else {
			var err error
			if from, to, msg, err = asciiDomains(from, to, msg); err != nil {
				return &refusal{err: fmt.Errorf("relay %s does not offer SMTPUTF8, which %s needs: %w; "+
					"this mail cannot go through this relay (Postfix: smtputf8_enable = yes)", r.addr, need, err)}
			}
		}
	}
	fail := func(err error) error {
		err = fmt.Errorf("relay %s: send to %v: %w", r.addr, to, err)
		if refusedForGood(err) {
			return &refusal{err: err}
		}
		return err
	}
	if err := c.Mail(from, opts); err != nil {
		return fail(err)
	}
	for _, a := range to {
		if err := c.Rcpt(a, nil); err != nil {
			return fail(err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fail(err)
	}
	if _, err := w.Write(msg); err != nil {
		_ = w.Close() // the write's error is the one to report
		return fail(err)
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	return nil
}

// needsUTF8 names what makes the message need SMTPUTF8 (an address, or
// the header), or is "" when everything is ASCII. The body never needs it
// (the renderer writes it in quoted-printable or base64).
func needsUTF8(from string, to []string, msg []byte) string {
	for _, a := range append([]string{from}, to...) {
		if !isASCII(a) {
			return "the address " + a
		}
	}
	if !isASCII(string(headerSection(msg))) {
		return "the header"
	}
	return ""
}

// asciiDomains is the envelope and message with every internationalized
// domain of the envelope's addresses written as its A-labels, in the
// envelope and the header alike; it fails for a local part that is not
// ASCII, or a header that is still not ASCII then.
func asciiDomains(from string, to []string, msg []byte) (string, []string, []byte, error) {
	hdr := string(headerSection(msg))
	convert := func(a string) (string, error) {
		if isASCII(a) {
			return a, nil
		}
		at := strings.LastIndexByte(a, '@')
		if at < 0 || !isASCII(a[:at]) {
			return "", fmt.Errorf("the mailbox %s is not ASCII", a)
		}
		d, err := idna.Lookup.ToASCII(a[at+1:])
		if err != nil {
			return "", fmt.Errorf("the domain of %s has no ASCII form: %w", a, err)
		}
		hdr = strings.ReplaceAll(hdr, a[at:], "@"+d)
		return a[:at+1] + d, nil
	}
	from, err := convert(from)
	if err != nil {
		return "", nil, nil, err
	}
	ascii := make([]string, len(to))
	for i, a := range to {
		if ascii[i], err = convert(a); err != nil {
			return "", nil, nil, err
		}
	}
	if !isASCII(hdr) {
		return "", nil, nil, errors.New("a header field is not ASCII")
	}
	return from, ascii, append([]byte(hdr), msg[len(headerSection(msg)):]...), nil
}

// headerSection is the header section of msg, up to its blank line (the
// whole message when it has none).
func headerSection(msg []byte) []byte {
	if i := bytes.Index(msg, []byte("\r\n\r\n")); i >= 0 {
		return msg[:i+2]
	}
	return msg
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// refusal is the relay's answer of class 5 to the message itself (its
// sender, a recipient, its content), or a message the relay cannot take
// (SMTPUTF8): no retry can deliver it. A 5xx to the session (EHLO,
// STARTTLS, AUTH: a relay or a password set wrong) is not one: the mail
// waits, retried, for the operator to fix the setting.
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

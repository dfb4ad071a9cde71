package notify

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// catcher is a real SMTP server on loopback (go-smtp) that keeps what it
// receives.
type catcher struct {
	mu       sync.Mutex
	user     string // required credentials ("" = no auth)
	password string
	refuse   string // a recipient refused with 550
	full     string // a recipient refused with 552 (mailbox full)
	smtputf8 bool   // advertise SMTPUTF8
	implicit bool   // TLS from the first byte (smtps://)
	accepted atomic.Int32
	got      []delivery
}

type delivery struct {
	from, user string
	to         []string
	data       string
	tls        bool
	utf8       bool // MAIL had SMTPUTF8
}

func (c *catcher) NewSession(conn *smtp.Conn) (smtp.Session, error) {
	return &session{c: c, conn: conn}, nil
}

type session struct {
	c    *catcher
	conn *smtp.Conn
	d    delivery
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != s.c.user || pass != s.c.password {
			return errors.New("bad credentials")
		}
		s.d.user = user
		return nil
	}), nil
}

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	if s.c.user != "" && s.d.user == "" {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	s.d.from = from
	s.d.utf8 = opts != nil && opts.UTF8
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == s.c.refuse {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	if to == s.c.full {
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 2, 2}, Message: "mailbox full"}
	}
	s.d.to = append(s.d.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.d.data = string(b)
	_, s.d.tls = s.conn.TLSConnectionState()
	s.c.mu.Lock()
	s.c.got = append(s.c.got, s.d)
	s.c.mu.Unlock()
	return nil
}

func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

// start serves c on a loopback port, with STARTTLS when cert is given.
func (c *catcher) start(t *testing.T, cert *tls.Certificate) string {
	t.Helper()
	return c.startOn(t, "127.0.0.1", cert)
}

// startOn serves c on a port of host; it counts the connections it
// accepts.
func (c *catcher) startOn(t *testing.T, host string, cert *tls.Certificate) string {
	t.Helper()
	srv := smtp.NewServer(c)
	srv.Domain = "relay.test"
	srv.AllowInsecureAuth = true
	srv.EnableSMTPUTF8 = c.smtputf8
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS12}
	}
	var lc net.ListenConfig
	tcp, err := lc.Listen(context.Background(), "tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	var ln net.Listener = &counting{Listener: tcp, n: &c.accepted}
	if c.implicit {
		ln = tls.NewListener(ln, srv.TLSConfig)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close the test relay: %v", err)
		}
		if err := <-served; err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			t.Errorf("the test relay stopped: %v", err)
		}
	})
	return ln.Addr().String()
}

// counting is a listener that counts the connections it accepts.
type counting struct {
	net.Listener
	n *atomic.Int32
}

func (l *counting) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return conn, err
}

const message = "From: courrier <game@courrier.test>\r\nTo: ana@example.org\r\nSubject: your move\r\n\r\nbid or call\r\n"

func TestRelayDeliversOverLoopback(t *testing.T) {
	c := &catcher{}
	addr := c.start(t, nil)
	r, err := ParseRelay("smtp://"+addr, "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message)); err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 || c.got[0].from != "game@courrier.test" || c.got[0].to[0] != "ana@example.org" ||
		!strings.Contains(c.got[0].data, "Subject: your move") || c.got[0].tls {
		t.Fatalf("delivered %+v", c.got)
	}
}

func TestRelayUpgradesWithSTARTTLSAndAuthenticates(t *testing.T) {
	cert, roots := selfSigned(t)
	c := &catcher{user: "courrier", password: "s3cret"}
	addr := c.start(t, &cert)
	r, err := ParseRelay("smtp://courrier:s3cret@"+addr, "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	r.roots = roots
	ctx := context.Background()
	if err := r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message)); err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 1 || !c.got[0].tls || c.got[0].user != "courrier" {
		t.Fatalf("delivered %+v, want one message over TLS after AUTH", c.got)
	}
	bad, _ := ParseRelay("smtp://courrier:wrong@"+addr, "courrier.test")
	bad.roots = roots
	err = bad.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message))
	if err == nil || !strings.Contains(err.Error(), "authenticate as courrier") {
		t.Fatalf("wrong password: %v", err)
	}
	if _, refused := errors.AsType[*refusal](err); refused {
		t.Errorf("a wrong password (a 5xx to AUTH) failed the mail for good: it must wait, retried, for the operator's fix")
	}
	if len(c.got) != 1 {
		t.Fatalf("a message went through with a wrong password")
	}
}

// A recipient refused with 550 fails the mail for good; one refused with
// 552 (mailbox full, temporary at RCPT by RFC 5321) does not.
func TestRelayReportsARefusedRecipient(t *testing.T) {
	c := &catcher{refuse: "nobody@example.org", full: "full@example.org"}
	addr := c.start(t, nil)
	r, _ := ParseRelay("smtp://"+addr, "courrier.test")
	err := r.Send(context.Background(), "game@courrier.test", []string{"nobody@example.org"}, []byte(message))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 550 || !strings.Contains(err.Error(), "nobody@example.org") {
		t.Fatalf("err = %v, want the relay's 550 naming the recipient", err)
	}
	if _, refused := errors.AsType[*refusal](err); !refused {
		t.Errorf("a 550 at RCPT is not a refusal for good: %v", err)
	}
	err = r.Send(context.Background(), "game@courrier.test", []string{"full@example.org"}, []byte(message))
	if !errors.As(err, &se) || se.Code != 552 {
		t.Fatalf("err = %v, want the relay's 552", err)
	}
	if _, refused := errors.AsType[*refusal](err); refused {
		t.Errorf("a 552 at RCPT failed the mail for good: %v", err)
	}
}

// nonLoopback returns an address of this machine off the loopback
// interface; a test relay listens there to stand for a relay elsewhere.
func nonLoopback(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Fatal("this machine has no IPv4 address off the loopback interface to stand for a remote relay")
	return ""
}

// Off the loopback interface, a relay that offers no STARTTLS gets nothing,
// not even without a password, unless the URL opts out with
// smtp+insecure://.
func TestRelayFailsClosedWithoutSTARTTLSOffLoopback(t *testing.T) {
	c := &catcher{}
	addr := c.startOn(t, nonLoopback(t), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := ParseRelay("smtp://"+addr, "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	err = r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message))
	if err == nil || !strings.Contains(err.Error(), "offers no STARTTLS") || !strings.Contains(err.Error(), "smtp+insecure://") {
		t.Fatalf("plain relay off loopback: err = %v, want a refusal that names the way out", err)
	}
	if len(c.got) != 0 {
		t.Fatalf("a message went in clear: %+v", c.got)
	}
	r, err = ParseRelay("smtp+insecure://"+addr, "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message)); err != nil {
		t.Fatalf("smtp+insecure:// relay: %v", err)
	}
	if len(c.got) != 1 || c.got[0].tls {
		t.Fatalf("delivered %+v", c.got)
	}
}

func TestParseRelay(t *testing.T) {
	tests := []struct {
		url, addr, user string
		implicit, local bool
		err             string
	}{
		{url: "smtp://mail:1025", addr: "mail:1025"},
		{url: "smtp://u:p@smtp.example.org", addr: "smtp.example.org:587", user: "u"},                  //nolint:gosec // G101: a made-up password in a test URL
		{url: "smtps://u:p@smtp.example.org", addr: "smtp.example.org:465", user: "u", implicit: true}, //nolint:gosec // G101: a made-up password in a test URL
		{url: "smtp://127.0.0.1:2525", addr: "127.0.0.1:2525", local: true},
		{url: "smtp://localhost:25", addr: "localhost:25", local: true},
		{url: "smtp+insecure://relay.lan:25", addr: "relay.lan:25"},
		{url: "http://example.org", err: "must start with smtp://"},
		{url: "smtp://", err: "no host"},
	}
	for _, tt := range tests {
		r, err := ParseRelay(tt.url, "x")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want %q", tt.url, err, tt.err)
			}
			continue
		}
		if err != nil || r.Addr() != tt.addr || r.user != tt.user || r.implicit != tt.implicit || r.loopback() != tt.local {
			t.Errorf("%s → %+v, %v", tt.url, r, err)
		}
	}
}

// selfSigned makes a certificate for 127.0.0.1 (and the extra addresses)
// and a pool that trusts it.
func selfSigned(t *testing.T, extra ...net.IP) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "relay.test"},
		IPAddresses:  append([]net.IP{net.ParseIP("127.0.0.1")}, extra...),
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

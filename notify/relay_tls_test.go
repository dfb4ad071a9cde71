package notify

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// caFile writes the certificate of cert as a PEM file and returns its path.
func caFile(t *testing.T, der []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "relay-ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// How the relay's certificate is trusted, over STARTTLS and TLS from the
// start, against a real go-smtp server with a certificate made here: a CA
// file trusts it; without one the error names the TLS handshake, the relay
// and the setting; smtp+insecure:// takes it unchecked on loopback only.
// Every delivery is one connection.
func TestRelayTLSTrust(t *testing.T) {
	remote := nonLoopback(t)
	cert, _ := selfSigned(t, net.ParseIP(remote))
	other, _ := selfSigned(t)
	trusted := caFile(t, cert.Certificate[0])
	untrusted := caFile(t, other.Certificate[0])
	tests := []struct {
		name     string
		scheme   string // smtp, smtps or smtp+insecure
		host     string // where the relay listens; "" loopback
		dialHost string // how the URL names it; "" as it listens
		ca       string // COURRIER_SMTP_RELAY_CA
		want     []string
		wantTLS  bool // delivered over TLS (want empty)
	}{
		{name: "CA file, STARTTLS", scheme: "smtp", ca: trusted, wantTLS: true},
		{name: "CA file, TLS from the start", scheme: "smtps", ca: trusted, wantTLS: true},
		{name: "no CA file, STARTTLS", scheme: "smtp",
			want: []string{"TLS handshake with relay 127.0.0.1:", "certificate signed by unknown authority", "set COURRIER_SMTP_RELAY_CA", "or use smtp+insecure://"}},
		{name: "no CA file, TLS from the start", scheme: "smtps",
			want: []string{"TLS handshake with relay 127.0.0.1:", "certificate signed by unknown authority", "set COURRIER_SMTP_RELAY_CA"}},
		{name: "a CA file that did not sign it", scheme: "smtp", ca: untrusted,
			want: []string{"TLS handshake with relay 127.0.0.1:", "unknown authority", "no certificate of COURRIER_SMTP_RELAY_CA (" + untrusted + ")"}},
		{name: "named otherwise than its certificate", scheme: "smtp", dialHost: "localhost", ca: trusted,
			want: []string{"TLS handshake with relay localhost:", "wanted to match localhost", "by a name its certificate holds"}},
		{name: "smtp+insecure:// on loopback", scheme: "smtp+insecure", wantTLS: true},
		{name: "smtp+insecure:// off loopback is still checked", scheme: "smtp+insecure", host: remote,
			want: []string{"TLS handshake with relay ", "certificate signed by unknown authority", "set COURRIER_SMTP_RELAY_CA"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &catcher{implicit: tt.scheme == "smtps"}
			host := tt.host
			if host == "" {
				host = "127.0.0.1"
			}
			addr := c.startOn(t, host, &cert)
			if tt.dialHost != "" {
				_, port, _ := net.SplitHostPort(addr)
				addr = net.JoinHostPort(tt.dialHost, port)
			}
			r, err := ParseRelay(tt.scheme+"://"+addr, "courrier.test")
			if err != nil {
				t.Fatal(err)
			}
			if tt.ca != "" {
				if err := r.TrustCAFile(tt.ca); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message))
			if n := c.accepted.Load(); n != 1 {
				t.Errorf("the delivery opened %d connections, want 1", n)
			}
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if len(c.got) != 1 || c.got[0].tls != tt.wantTLS {
					t.Fatalf("delivered %+v, want one message, over TLS: %v", c.got, tt.wantTLS)
				}
				return
			}
			if err == nil {
				t.Fatalf("delivered %+v, want a TLS error", c.got)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant it to say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "EHLO") {
				t.Errorf("err = %v: a failed handshake blamed on EHLO", err)
			}
			if _, ok := errors.AsType[*tlsError](err); !ok {
				t.Errorf("err = %v is no tlsError", err)
			}
			if _, refused := errors.AsType[*refusal](err); refused {
				t.Errorf("a certificate not trusted failed the mail for good: it must wait, retried, for the operator's fix")
			}
			if len(c.got) != 0 {
				t.Fatalf("a message went through: %+v", c.got)
			}
		})
	}
}

// Every delivery opens one connection, with or without STARTTLS, with or
// without a password.
func TestRelayOneConnectionPerDelivery(t *testing.T) {
	cert, _ := selfSigned(t)
	for _, tt := range []struct {
		name string
		cert bool
		auth bool
	}{{"plain", false, false}, {"plain with AUTH", false, true}, {"STARTTLS", true, false}, {"STARTTLS with AUTH", true, true}} {
		t.Run(tt.name, func(t *testing.T) {
			c := &catcher{}
			creds := ""
			if tt.auth {
				c.user, c.password, creds = "courrier", "s3cret", "courrier:s3cret@"
			}
			var addr string
			if tt.cert {
				addr = c.start(t, &cert)
			} else {
				addr = c.start(t, nil)
			}
			r, err := ParseRelay("smtp://"+creds+addr, "courrier.test")
			if err != nil {
				t.Fatal(err)
			}
			if err := r.TrustCAFile(caFile(t, cert.Certificate[0])); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if err := r.Send(context.Background(), "game@courrier.test", []string{"ana@example.org"}, []byte(message)); err != nil {
					t.Fatalf("delivery %d: %v", i+1, err)
				}
			}
			if n := c.accepted.Load(); n != 3 || len(c.got) != 3 || c.got[2].tls != tt.cert {
				t.Fatalf("3 deliveries opened %d connections and delivered %+v; want 3 and 3", n, c.got)
			}
		})
	}
}

func TestTrustCAFileRefusesWhatHoldsNoCertificate(t *testing.T) {
	r, err := ParseRelay("smtp://127.0.0.1:25", "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(t.TempDir(), "junk.pem")
	if err := os.WriteFile(junk, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{junk: "holds no PEM certificate", filepath.Join(t.TempDir(), "none.pem"): "no such file"} {
		if err := r.TrustCAFile(path); err == nil || !strings.Contains(err.Error(), "COURRIER_SMTP_RELAY_CA") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q naming the setting", path, err, want)
		}
	}
}

// A relay that never answers is given up on when ctx ends, although
// go-smtp sets deadlines of its own (five minutes a command).
func TestRelayThatHangsIsGivenUpOnAtTheDeadline(t *testing.T) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = conn.Close() }) // accepted, never answered
		}
	}()
	r, err := ParseRelay("smtp://"+ln.Addr().String(), "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = r.Send(ctx, "game@courrier.test", []string{"ana@example.org"}, []byte(message))
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("after %v: err = %v, want the deadline", time.Since(start), err)
	}
}

// A failed TLS handshake is retried, and each attempt is logged as an
// error that says what to fix.
func TestTLSFailureIsLoggedAsAnErrorAndRetried(t *testing.T) {
	var logs bytes.Buffer
	s := &Service{log: slog.New(slog.NewTextHandler(&logs, nil))}
	err := &DeliveryError{MessageID: "m@courrier.test", Kind: "prompt",
		Err: &tlsError{addr: "127.0.0.1:25", err: errors.New("x509: certificate signed by unknown authority"), hint: "set COURRIER_SMTP_RELAY_CA to the relay's CA file"}}
	if res := s.HandleError(context.Background(), &rivertype.JobRow{Attempt: 1, MaxAttempts: 25}, err); res != nil {
		t.Fatalf("HandleError = %+v, want the job retried", res)
	}
	if got := logs.String(); !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "TLS handshake with relay 127.0.0.1:25") ||
		!strings.Contains(got, "COURRIER_SMTP_RELAY_CA") {
		t.Fatalf("logged %q", got)
	}
}

// A message whose address or header is not ASCII goes with SMTPUTF8 when
// the relay offers it; without it, an internationalized domain goes as its
// A-labels and a mailbox whose local part is not ASCII fails for good,
// saying why. An ASCII message never asks for SMTPUTF8.
func TestRelaySMTPUTF8(t *testing.T) {
	const zoe = "zoë@example.org"
	msgTo := func(to string) []byte {
		return []byte("From: courrier <game@courrier.test>\r\nTo: " + to + "\r\nSubject: =?utf-8?q?=C3=A0_toi?=\r\n\r\nbid or call\r\n")
	}
	tests := []struct {
		name     string
		smtputf8 bool // the relay offers it
		to       string
		msg      []byte
		wantTo   string // the RCPT the relay got; "" refused
		wantUTF8 bool
		wantData string // in the message the relay got
		wantErr  string
	}{
		{name: "UTF-8 mailbox, offered", smtputf8: true, to: zoe, msg: msgTo(zoe), wantTo: zoe, wantUTF8: true, wantData: "To: " + zoe},
		{name: "ASCII, offered", smtputf8: true, to: "ana@example.org", msg: []byte(message), wantTo: "ana@example.org"},
		{name: "UTF-8 display name in the header, offered", smtputf8: true, to: "zoe@example.org",
			msg: msgTo("Zoë <zoe@example.org>"), wantTo: "zoe@example.org", wantUTF8: true, wantData: "To: Zoë <zoe@example.org>"},
		{name: "UTF-8 mailbox, not offered", to: zoe, msg: msgTo(zoe),
			wantErr: "does not offer SMTPUTF8, which the address " + zoe + " needs: the mailbox " + zoe + " is not ASCII"},
		{name: "internationalized domain, not offered", to: "ana@exämple.org", msg: msgTo("ana@exämple.org"),
			wantTo: "ana@xn--exmple-cua.org", wantData: "To: ana@xn--exmple-cua.org\r\n"},
		{name: "internationalized domain, offered", smtputf8: true, to: "ana@exämple.org", msg: msgTo("ana@exämple.org"),
			wantTo: "ana@exämple.org", wantUTF8: true, wantData: "To: ana@exämple.org\r\n"},
		{name: "UTF-8 header, not offered", to: "zoe@example.org", msg: msgTo("Zoë <zoe@example.org>"),
			wantErr: "does not offer SMTPUTF8, which the header needs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &catcher{smtputf8: tt.smtputf8}
			r, err := ParseRelay("smtp://"+c.start(t, nil), "courrier.test")
			if err != nil {
				t.Fatal(err)
			}
			err = r.Send(context.Background(), "game@courrier.test", []string{tt.to}, tt.msg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if _, refused := errors.AsType[*refusal](err); !refused {
					t.Errorf("err = %v: a mail the relay cannot take is retried for ever", err)
				}
				if len(c.got) != 0 {
					t.Fatalf("delivered %+v", c.got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.got) != 1 || len(c.got[0].to) != 1 || c.got[0].to[0] != tt.wantTo || c.got[0].utf8 != tt.wantUTF8 ||
				!strings.Contains(c.got[0].data, tt.wantData) {
				t.Fatalf("delivered %+v\nwant RCPT %s, SMTPUTF8 %v, %q in the message", c.got, tt.wantTo, tt.wantUTF8, tt.wantData)
			}
		})
	}
}

// The relay is logged without its password; a URL that does not parse
// is reported without it too.
func TestRelayStringHidesThePassword(t *testing.T) {
	for raw, want := range map[string]string{
		"smtp://courrier:s3cret@127.0.0.1:25":  "smtp://courrier@127.0.0.1:25",
		"smtps://mail.example.org":             "smtps://mail.example.org:465",
		"smtp+insecure://[::1]:2525":           "smtp+insecure://[::1]:2525",
		"smtp://u:s3cret@smtp.example.org":     "smtp://u@smtp.example.org:587",
		"smtp://a%40b:s3cret@smtp.example.org": "smtp://a%40b@smtp.example.org:587",
	} {
		r, err := ParseRelay(raw, "x")
		if err != nil {
			t.Fatal(err)
		}
		if got := r.String(); got != want {
			t.Errorf("%s → %q, want %q", raw, got, want)
		}
	}
	if _, err := ParseRelay("smtp://u:s3cret@host:port", "x"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a bad URL: err = %v, want an error without the password", err)
	}
}

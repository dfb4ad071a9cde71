package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

// lockedBuffer is a buffer written by one goroutine and read by another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The start-up log names the relay by its URL without the password, and
// warns that an http base URL makes http unsubscribe links.
func TestStartUpLogNamesTheRelay(t *testing.T) {
	_, url := pgtest.NewWithURL(t)
	httpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	smtpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	relay := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-database-url", url, "-http-addr", httpAddr, "-smtp-addr", smtpAddr, "-data-dir", t.TempDir(),
			"-smtp-relay", "smtp://courrier:s3cret@" + relay, "-base-url", "http://play.example.org"}, io.Discard, &log)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "courrier is serving") {
		select {
		case err := <-done:
			t.Fatalf("serve ended at start: %v\n%s", err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never started:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	var serving, warned string
	for line := range strings.SplitSeq(log.String(), "\n") {
		switch {
		case strings.Contains(line, "courrier is serving"):
			serving = line
		case strings.Contains(line, "level=WARN") && strings.Contains(line, "COURRIER_BASE_URL is not https"):
			warned = line
		}
	}
	if !strings.Contains(serving, `mail="relay smtp://courrier@`+relay+`"`) {
		t.Errorf("the start-up line does not name the relay smtp://courrier@%s: %s", relay, serving)
	}
	if strings.Contains(log.String(), "s3cret") || strings.Contains(log.String(), "unparsable") {
		t.Errorf("the log holds the relay's password, or calls its URL unparsable:\n%s", log.String())
	}
	if !strings.Contains(warned, "RFC 8058") || !strings.Contains(warned, "http://play.example.org") {
		t.Errorf("no warning that the unsubscribe links are http: %q", warned)
	}
}

// What the start-up log says of the mail, and when it warns of http
// unsubscribe links (never for the dev mailbox).
func TestMailDescriptionAndWarning(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "relay-ca.pem")
	if err := os.WriteFile(ca, testCertificatePEM(t), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		cfg       config
		want      string
		warn      bool
		usageFail bool // mailRelay refuses the settings
	}{
		{name: "dev mailbox", cfg: config{BaseURL: "http://localhost:8080/"}, want: "dev mailbox (http://localhost:8080/dev/mail, courrier mail list)"},
		{name: "relay, http", cfg: config{SMTPRelay: "smtp://u:pw@127.0.0.1:25", BaseURL: "http://play.example.org"}, //nolint:gosec // G101: a made-up password in a test URL
			want: "relay smtp://u@127.0.0.1:25", warn: true},
		{name: "relay, https", cfg: config{SMTPRelay: "smtps://u:pw@mail.example.org", BaseURL: "https://play.example.org"}, //nolint:gosec // G101: a made-up password in a test URL
			want: "relay smtps://u@mail.example.org:465"},
		{name: "relay with a CA file", cfg: config{SMTPRelay: "smtp+insecure://relay.lan:25", SMTPRelayCA: ca, BaseURL: "HTTPS://play.example.org"},
			want: "relay smtp+insecure://relay.lan:25 (trusting the certificates of " + ca + ")"},
		{name: "a CA file without a relay", cfg: config{SMTPRelayCA: ca, BaseURL: "http://localhost:8080"}, usageFail: true},
		{name: "a CA file that is not one", cfg: config{SMTPRelay: "smtp://127.0.0.1:25", SMTPRelayCA: filepath.Join(t.TempDir(), "none.pem"), BaseURL: "https://play.example.org"},
			want: "relay (COURRIER_SMTP_RELAY_CA: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mailRelay(tt.cfg)
			if _, usage := errors.AsType[usageError](err); usage != tt.usageFail {
				t.Fatalf("mailRelay: %v, want a usage error: %v", err, tt.usageFail)
			}
			if tt.usageFail {
				return
			}
			if got := mailDescription(tt.cfg); !strings.HasPrefix(got, tt.want) || strings.Contains(got, "pw") {
				t.Errorf("described as %q, want %q", got, tt.want)
			}
			var logs bytes.Buffer
			warnHTTPUnsubscribe(tt.cfg, slog.New(slog.NewTextHandler(&logs, nil)))
			if warned := strings.Contains(logs.String(), "level=WARN"); warned != tt.warn {
				t.Errorf("warned %v (%q), want %v", warned, logs.String(), tt.warn)
			}
		})
	}
}

// testCertificatePEM is a self-signed certificate, PEM.
func testCertificatePEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "relay.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

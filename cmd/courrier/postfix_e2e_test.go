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
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/courrier-games/courrier/migrations/pgtest"
)

// postfixSkip names the variable that skips the Postfix test, saying so,
// where Postfix cannot run; without it a missing Postfix fails the test.
const postfixSkip = "COURRIER_SKIP_POSTFIX"

// mailDomain is courrier's mail domain in the test; the players are at
// playersDomain, which Postfix delivers into Maildirs.
const (
	mailDomain    = "courrier.test"
	playersDomain = "players.test"
)

// needPostfix fails the test, saying what to install, when Debian's
// Postfix is not here; it skips it, saying why, when postfixSkip is set.
func needPostfix(t *testing.T) {
	t.Helper()
	if v := os.Getenv(postfixSkip); v != "" {
		t.Skipf("%s=%s: the test of courrier behind Debian's Postfix is skipped", postfixSkip, v)
	}
	for _, name := range []string{"postfix", "postqueue"} {
		if _, err := os.Stat(sbin(name)); err != nil {
			t.Fatalf("this test runs Debian's Postfix (%s: %v): install the package postfix "+
				"(DEBIAN_FRONTEND=noninteractive apt-get install postfix; .ci/run does it), or set %s=1 to skip it", name, err, postfixSkip)
		}
	}
	if os.Geteuid() != 0 {
		t.Fatalf("Postfix's master runs as root: run this test as root (CI does), or set %s=1 to skip it", postfixSkip)
	}
	for _, name := range []string{"postfix", "nobody"} {
		if _, err := user.Lookup(name); err != nil {
			t.Fatalf("Postfix needs the user %s, which the package postfix creates: %v", name, err)
		}
	}
	if _, err := user.LookupGroup("postdrop"); err != nil {
		t.Fatalf("Postfix needs the group postdrop, which the package postfix creates: %v", err)
	}
}

// sbin is the path of a Postfix command: found in PATH, else in /usr/sbin.
func sbin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return "/usr/sbin/" + name
}

// postfix is one Postfix instance of the test's own.
type postfix struct {
	t     *testing.T
	dir   string // everything of the instance: conf/, queue/, data/, mail/, postfix.log
	conf  string // config_directory (main.cf, master.cf)
	mx    string // host:port of the MX listener, in front of courrier
	relay string // host:port of the relay listener, behind courrier (STARTTLS)
	ca    string // the relay's self-signed certificate, PEM: courrier's COURRIER_SMTP_RELAY_CA
	log   string // maillog_file
}

// newPostfix writes the configuration of an instance that takes mail for
// courrier.test and hands it to courrier at courrierSMTP, relays what
// courrier sends, and delivers mail for players.test into a Maildir per
// address of boxes (address → folder name; others go to "other").
func newPostfix(t *testing.T, courrierSMTP string, boxes map[string]string) *postfix {
	t.Helper()
	// Postfix's daemons run as its unprivileged user: every directory on
	// the way to its queue must be open to them (t.TempDir's is not).
	dir, err := os.MkdirTemp("", "courrier-postfix-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // G302: Postfix's user must traverse it
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	pf := &postfix{t: t, dir: dir, conf: filepath.Join(dir, "conf"), log: filepath.Join(dir, "postfix.log"),
		mx: fmt.Sprintf("127.0.0.1:%d", freePort(t)), relay: fmt.Sprintf("127.0.0.1:%d", freePort(t))}
	owner, err := user.Lookup("postfix")
	if err != nil {
		t.Fatal(err)
	}
	mailUser, err := user.Lookup("nobody") // the Maildirs' owner
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		name string
		u    *user.User
	}{{"conf", nil}, {"queue", nil}, {"data", owner}, {"mail", mailUser}} {
		p := filepath.Join(dir, d.name)
		if err := os.Mkdir(p, 0o755); err != nil { //nolint:gosec // G301: Postfix's own layout
			t.Fatal(err)
		}
		if d.u != nil {
			uid, _ := strconv.Atoi(d.u.Uid)
			gid, _ := strconv.Atoi(d.u.Gid)
			if err := os.Chown(p, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	certs := filepath.Join(pf.conf, "relay.pem")
	pf.ca = filepath.Join(dir, "relay-ca.pem")
	if err := selfSigned(certs, pf.ca); err != nil {
		t.Fatal(err)
	}
	var mailboxes strings.Builder
	for addr, box := range boxes {
		fmt.Fprintf(&mailboxes, "%s %s/%s/\n", addr, playersDomain, box)
	}
	fmt.Fprintf(&mailboxes, "@%s %s/other/\n", playersDomain, playersDomain)
	mailUID, mailGID := mailUser.Uid, mailUser.Gid
	_, courrierPort, _ := net.SplitHostPort(courrierSMTP)
	mainCF := `# courrier's Postfix interop test: an instance of its own, nothing system-wide.
compatibility_level = 3.6
queue_directory = ` + filepath.Join(dir, "queue") + `
data_directory = ` + filepath.Join(dir, "data") + `
maillog_file = ` + pf.log + `
maillog_file_prefixes = ` + dir + `
myhostname = mx.` + mailDomain + `
myorigin = $myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_transport = error:5.1.1 no local delivery here
notify_classes =

# The MX in front of courrier: README.md's lines.
relay_domains = ` + mailDomain + `
transport_maps = inline:{ ` + mailDomain + `=courrier:[127.0.0.1]:` + courrierPort + ` }
courrier_destination_recipient_limit = 10
smtpd_recipient_restrictions = check_recipient_access inline:{ ` + mailDomain + `=reject_unverified_recipient }
unverified_recipient_reject_code = 550
virtual_alias_maps = inline:{ postmaster@` + mailDomain + `=postmaster@` + playersDomain + ` }
# A new reply address waits for courrier's answer to Postfix's probe: a
# poll a second rather than every three (courrier answers at once).
address_verify_poll_delay = 1s

# The relay behind courrier: STARTTLS with the test's certificate.
smtpd_tls_chain_files = ` + certs + `
smtpd_tls_loglevel = 1
smtpd_tls_received_header = yes

# The players' mail programs: a Maildir per address.
virtual_mailbox_domains = ` + playersDomain + `
virtual_mailbox_base = ` + filepath.Join(dir, "mail") + `
virtual_mailbox_maps = texthash:` + filepath.Join(pf.conf, "mailboxes") + `
virtual_uid_maps = static:` + mailUID + `
virtual_gid_maps = static:` + mailGID + `
`
	_, mxPort, _ := net.SplitHostPort(pf.mx)
	_, relayPort, _ := net.SplitHostPort(pf.relay)
	masterCF := `# service type private unpriv chroot wakeup maxproc command
# The MX as the Internet sees it (here the Internet is this machine, so
# mynetworks may not relay), and the relay as courrier sees it (Debian's
# smtpd_relay_restrictions begin with permit_mynetworks).
127.0.0.1:` + mxPort + ` inet n - n - - smtpd
  -o syslog_name=postfix/mx
  -o smtpd_relay_restrictions=reject_unauth_destination
127.0.0.1:` + relayPort + ` inet n - n - - smtpd
  -o syslog_name=postfix/relay
  -o smtpd_tls_security_level=may
  -o smtpd_relay_restrictions=permit_mynetworks,reject
# README.md's line: courrier's own smtp client.
courrier  unix - - n - - smtp
  -o syslog_name=postfix/courrier
pickup    unix n - n 60 1 pickup
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
tlsmgr    unix - - n 1000? 1 tlsmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
virtual   unix - n n - - virtual
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
`
	for name, text := range map[string]string{"main.cf": mainCF, "master.cf": masterCF, "mailboxes": mailboxes.String()} {
		if err := os.WriteFile(filepath.Join(pf.conf, name), []byte(text), 0o644); err != nil { //nolint:gosec // G306: Postfix's daemons read them
			t.Fatal(err)
		}
	}
	return pf
}

// command runs a Postfix command on the instance's configuration.
func (pf *postfix) command(name string, args ...string) (string, error) {
	cmd := exec.CommandContext(context.Background(), sbin(name), append([]string{"-c", pf.conf}, args...)...) //nolint:gosec // G204: Postfix's own commands
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s -c %s %s: %w", name, pf.conf, strings.Join(args, " "), err)
	}
	return string(out), nil
}

// start starts the instance (`postfix start` checks the configuration
// and creates the queue's directories first); stop stops it at the test's
// end. Postfix's errors go to its log, which a failure quotes.
func (pf *postfix) start() error {
	if out, err := pf.command("postfix", "start"); err != nil {
		return fmt.Errorf("%w: %s\n%s", err, out, pf.tail(20))
	}
	pf.t.Cleanup(pf.stop)
	return nil
}

func (pf *postfix) stop() {
	if out, err := pf.command("postfix", "stop"); err != nil {
		pf.t.Errorf("stop Postfix: %v\n%s", err, out)
	}
	if pf.t.Failed() {
		pf.t.Logf("Postfix's log, its end:\n%s", pf.tail(100))
	}
}

// logText is Postfix's log so far.
func (pf *postfix) logText() string {
	b, err := os.ReadFile(pf.log)
	if err != nil {
		return ""
	}
	return string(b)
}

// tail is the last n lines of Postfix's log.
func (pf *postfix) tail(n int) string {
	lines := strings.Split(strings.TrimRight(pf.logText(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// grep returns the lines of Postfix's log that match re.
func (pf *postfix) grep(re *regexp.Regexp) []string {
	var out []string
	for l := range strings.SplitSeq(pf.logText(), "\n") {
		if re.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// queue is what `postqueue -p` says of the instance's queue.
func (pf *postfix) queue() string {
	out, err := pf.command("postqueue", "-p")
	if err != nil {
		pf.t.Fatalf("%v\n%s", err, out)
	}
	return strings.TrimSpace(out)
}

// send hands msg to the MX as a player's mail server would: one session,
// SMTPUTF8 when an address or a header field is not ASCII. A refusal is
// an *smtp.SMTPError, wrapped with the command it answered.
func (pf *postfix) send(from string, to []string, msg []byte) error {
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(context.Background(), "tcp", pf.mx)
	if err != nil {
		return fmt.Errorf("connect to the MX: %w", err)
	}
	c := smtp.NewClient(conn)
	defer func() { _ = c.Close() }()
	if err := c.Hello("mail." + playersDomain); err != nil {
		return fmt.Errorf("EHLO: %w", err)
	}
	head, _, _ := bytes.Cut(msg, []byte("\r\n\r\n"))
	utf8 := !isASCII([]byte(from+strings.Join(to, ""))) || !isASCII(head)
	if err := c.Mail(from, &smtp.MailOptions{UTF8: utf8}); err != nil {
		return fmt.Errorf("MAIL FROM:<%s>: %w", from, err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return fmt.Errorf("RCPT TO:<%s>: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of DATA: %w", err)
	}
	_ = c.Quit() // the message was taken at the end of DATA
	return nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// selfSigned writes a self-signed certificate shaped like Debian's
// snakeoil (for localhost alone, not a CA) with its key (Postfix's
// smtpd_tls_chain_files: the key, then the certificate), and the
// certificate alone (what courrier trusts).
func selfSigned(chainFile, certFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate the relay's key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return fmt.Errorf("draw a serial number: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost"},
		DNSNames:              []string{"localhost"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("sign the relay's certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("encode the relay's key: %w", err)
	}
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	chain := append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), cert...)
	if err := os.WriteFile(chainFile, chain, 0o600); err != nil {
		return fmt.Errorf("write the relay's key: %w", err)
	}
	if err := os.WriteFile(certFile, cert, 0o644); err != nil { //nolint:gosec // G306: a certificate is public
		return fmt.Errorf("write the relay's certificate: %w", err)
	}
	return nil
}

// player is someone at players.test with a Maildir of their own, read as
// their mail program would.
type player struct {
	name, addr string
	box        string // the Maildir's folder
	replyAll   bool   // answers to everyone: the Reply-To and the From
	pf         *postfix
	seen       map[string]bool // files read
	sent       []string        // the Message-IDs of the mails sent through the MX
	// prompt is the newest prompt not answered yet, and answered the
	// version of the newest answered.
	prompt   *delivered
	answered int
	over     bool // the game-over mail came
}

// delivered is one mail in a player's Maildir.
type delivered struct {
	file       string
	returnPath string // the envelope sender, as delivered
	from       string
	replyTo    string
	messageID  string
	kind       string // X-Courrier-Kind
	subject    string
	received   string // the topmost Received: Postfix's own, which names the TLS of the session it took the mail in
	text       string // the text/plain part, decoded
}

// bounce reports whether the mail is a delivery report: the null sender.
func (d delivered) bounce() bool {
	return d.returnPath == "<>" || strings.HasPrefix(d.from, "MAILER-DAEMON")
}

// fresh returns the mails that arrived since the last look, oldest first.
func (p *player) fresh(t *testing.T) []delivered {
	t.Helper()
	dir := filepath.Join(p.pf.dir, "mail", playersDomain, p.box, "new")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []delivered
	for _, e := range entries {
		if p.seen[e.Name()] {
			continue
		}
		d, err := readDelivered(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("%s's mail %s: %v", p.addr, e.Name(), err)
		}
		p.seen[e.Name()] = true
		out = append(out, d)
	}
	return out
}

// readDelivered parses a mail as a mail program would: the header's
// fields decoded, the text part's transfer encoding and charset undone.
func readDelivered(path string) (delivered, error) {
	f, err := os.Open(path) //nolint:gosec // G304: the test's own Maildir
	if err != nil {
		return delivered{}, err
	}
	defer func() { _ = f.Close() }()
	mr, err := mail.CreateReader(f)
	if err != nil && !message.IsUnknownCharset(err) {
		return delivered{}, fmt.Errorf("read the header: %w", err)
	}
	d := delivered{file: filepath.Base(path), returnPath: strings.TrimSpace(mr.Header.Get("Return-Path")),
		kind: mr.Header.Get("X-Courrier-Kind"), received: mr.Header.Get("Received")}
	d.subject, _ = mr.Header.Subject()
	d.messageID, _ = mr.Header.MessageID()
	if l, err := mr.Header.AddressList("From"); err == nil && len(l) > 0 {
		d.from = l[0].Address
	}
	if l, err := mr.Header.AddressList("Reply-To"); err == nil && len(l) > 0 {
		d.replyTo = l[0].Address
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) {
			return d, fmt.Errorf("read a part: %w", err)
		}
		if h, ok := part.Header.(*mail.InlineHeader); ok && d.text == "" {
			if ct, _, _ := h.ContentType(); ct == "text/plain" {
				b, err := io.ReadAll(part.Body)
				if err != nil {
					return d, fmt.Errorf("read the text: %w", err)
				}
				d.text = string(b)
			}
		}
	}
	return d, nil
}

// reply writes a reply to m as a person would: the answer above the
// quote, a UTF-8 subject, the thread's headers, to its Reply-To (and its
// From too, when the player answers everyone); msgID is the reply's
// Message-ID, to its recipients.
func (p *player) reply(m delivered, subject, answer string) (msgID string, raw []byte, to []string) {
	var quote strings.Builder
	for l := range strings.SplitSeq(strings.TrimRight(m.text, "\n"), "\n") {
		quote.WriteString("> " + strings.TrimRight(l, "\r") + "\r\n")
	}
	to = []string{m.replyTo}
	if p.replyAll {
		to = append(to, m.from)
	}
	msgID, raw = p.compose(to, subject, answer+"\r\n\r\nLe jeu. 26 nov. 2026 à 10:30, courrier <play@"+mailDomain+"> a écrit :\r\n"+quote.String(), m.messageID)
	return msgID, raw, to
}

// compose writes a mail from p: raw UTF-8 in the header and the body
// (RFC 6532), as mail programs send them.
func (p *player) compose(to []string, subject, body, inReplyTo string) (msgID string, raw []byte) {
	msgID = randomHex(8) + "@" + playersDomain
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s>\r\n",
		p.name, p.addr, strings.Join(to, ">, <"), subject, time.Now().Format(time.RFC1123Z), msgID)
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(body)
	return msgID, []byte(b.String())
}

// mailTo sends a mail from p through the MX: its Message-ID is id.
func (p *player) mailTo(t *testing.T, id string, raw []byte, to ...string) {
	t.Helper()
	if err := p.pf.send(p.addr, to, raw); err != nil {
		t.Fatalf("%s → %v through Postfix: %v", p.addr, to, err)
	}
	p.sent = append(p.sent, id)
}

// promptVersion reads a prompt's version from its Message-ID
// (g.<game>.v<version>.s<seat>.prompt@domain).
var promptVersion = regexp.MustCompile(`^g\.[a-z0-9]+\.v(\d+)\.s\d+\.`)

// serveLog is serve's standard error, readable while it runs.
type serveLog struct{ lockedBuffer }

func (l *serveLog) lines(words ...string) []string {
	var out []string
	for line := range strings.SplitSeq(l.String(), "\n") {
		ok := line != ""
		for _, w := range words {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			out = append(out, line)
		}
	}
	return out
}

// serveWithRelay runs `courrier serve` in this process for mail domain
// courrier.test, its inbound SMTP port at smtpAddr and its relay at
// relayURL; stop ends it (and the test's end does).
func serveWithRelay(t *testing.T, dbURL, dataDir, smtpAddr, relayURL string) (log *serveLog, stop func()) {
	t.Helper()
	httpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	log = &serveLog{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	args := []string{"serve", "-database-url", dbURL, "-data-dir", dataDir, "-http-addr", httpAddr, "-smtp-addr", smtpAddr,
		"-base-url", "http://" + httpAddr, "-mail-domain", mailDomain, "-smtp-relay", relayURL}
	go func() { done <- run(ctx, args, io.Discard, log) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve returned %v", err)
			}
			if t.Failed() {
				t.Logf("serve's warnings and errors:\n%s", strings.Join(append(log.lines("level=WARN"), log.lines("level=ERROR")...), "\n"))
			}
		})
	}
	t.Cleanup(stop)
	for range 200 {
		select {
		case err := <-done:
			t.Fatalf("serve ended at start: %v\n%s", err, log)
		default:
		}
		if len(log.lines("courrier is serving")) > 0 {
			return log, stop
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("serve did not start:\n%s", log)
	return nil, nil
}

// TestGameThroughPostfix runs courrier behind Debian's Postfix as
// README.md ("Behind Postfix") tells an operator to: one Postfix instance,
// configured by the test under a directory of its own with ports of its
// own (nothing system-wide changes), is both the MX in front of courrier
// (mail for courrier.test goes to courrier's SMTP port through a transport
// of its own, each recipient verified with courrier before Postfix says
// yes) and the relay behind it (STARTTLS with a self-signed certificate
// shaped like Debian's snakeoil, which courrier checks against
// COURRIER_SMTP_RELAY_CA); Postfix delivers the players' mail into
// Maildirs that the test reads as the players' mail programs would.
//
// Through it: a whole game of Coyote by mail to the end (created and
// invitations by mail, a confirmation when courrier asks for one, joins,
// every answer a reply with a raw UTF-8 subject and a quote; Zoë, at
// zoë@players.test, answers everyone: the reply address and play@ in one
// mail); meanwhile a forged reply address and an unknown one refused at
// RCPT, so that the forged sender gets no bounce; a burst of 50 mails in a
// few seconds, none deferred, all answered; the relay again as
// smtp+insecure:// on loopback, with no CA file. At the end nothing was
// deferred or bounced (Postfix's log), Postfix's queue is empty, every mail
// courrier logged was sent at its first attempt, over one TLS connection
// each, and serve logged no error.
func TestGameThroughPostfix(t *testing.T) {
	needPostfix(t)
	begin := time.Now()
	ctx := t.Context()
	ana := &player{name: "Ana", addr: "ana@" + playersDomain, box: "ana"}
	bob := &player{name: "Bob", addr: "bob@" + playersDomain, box: "bob"}
	zoe := &player{name: "Zoë", addr: "zoë@" + playersDomain, box: "zoe", replyAll: true}
	victim := &player{name: "Victim", addr: "victim@" + playersDomain, box: "victim"}
	postmaster := &player{name: "Postmaster", addr: "postmaster@" + playersDomain, box: "postmaster"}
	everyone := []*player{ana, bob, zoe, victim, postmaster}
	boxes := map[string]string{}
	for _, p := range everyone {
		boxes[p.addr] = p.box
	}
	courrierSMTP := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	pf := newPostfix(t, courrierSMTP, boxes)
	for _, p := range everyone {
		p.pf, p.seen = pf, map[string]bool{}
	}
	// Postfix's start (its checks take seconds) beside serve's.
	started := make(chan error, 1)
	go func() { started <- pf.start() }()
	pool, dbURL := pgtest.NewWithURL(t)
	dataDir := t.TempDir()
	t.Setenv("COURRIER_SMTP_RELAY_CA", pf.ca)
	// The certificate names localhost, as Debian's snakeoil names the host:
	// courrier must call the relay by that name to check it.
	_, relayPort, _ := net.SplitHostPort(pf.relay)
	relayURL := "smtp://localhost:" + relayPort
	log, stop := serveWithRelay(t, dbURL, dataDir, courrierSMTP, relayURL)
	if err := <-started; err != nil {
		t.Fatalf("start Postfix: %v", err)
	}
	if l := log.lines("courrier is serving"); len(l) != 1 || !strings.Contains(l[0], `mail="relay `+relayURL) {
		t.Errorf("the start-up log does not name the relay %s:\n%s", relayURL, strings.Join(l, "\n"))
	}
	t.Logf("Postfix (MX %s, relay %s) and serve (SMTP %s) up in %v", pf.mx, pf.relay, courrierSMTP, time.Since(begin).Round(time.Millisecond))

	// A whole game by mail.
	gameStart := time.Now()
	lobby := "play@" + mailDomain
	id, raw := ana.compose([]string{lobby}, "Nouvelle partie — à vous", "new coyote with bob@"+playersDomain+" zoë@"+playersDomain+"\r\n", "")
	ana.mailTo(t, id, raw, lobby)
	players := []*player{ana, bob, zoe}
	// Strangers write meanwhile (see refuseStrangers), to a reply address
	// forged from the first prompt's.
	var strangers sync.WaitGroup
	t.Cleanup(strangers.Wait)
	var forged string
	moves := 0
	last := time.Now()
	for !ana.over || !bob.over || !zoe.over {
		if time.Since(last) > 20*time.Second {
			t.Fatalf("no mail for 20 s (%d moves played): %s", moves, stalled(t, pf, pool))
		}
		for _, p := range players {
			for _, m := range p.fresh(t) {
				last = time.Now()
				switch {
				case m.bounce():
					t.Fatalf("Postfix bounced a mail of %s's (%q):\n%s", p.addr, m.subject, m.text)
				case m.returnPath != "<play@"+mailDomain+">":
					t.Errorf("%s got a mail from %s, not from courrier: %q", p.addr, m.returnPath, m.subject)
				case strings.HasPrefix(m.replyTo, "c+"): // courrier asks the sender to confirm their address
					id, raw, to := p.reply(m, "Re: confirmation — c'est bien moi", "oui")
					p.mailTo(t, id, raw, to...)
				case m.kind == "invitation":
					id, raw, to := p.reply(m, "Re: invitation — ça marche", "join "+p.name)
					p.mailTo(t, id, raw, to...)
				case m.kind == "prompt" || m.kind == "reminder":
					v := promptVersion.FindStringSubmatch(m.messageID)
					if v == nil {
						t.Fatalf("a prompt's Message-ID %q names no version", m.messageID)
					}
					version, _ := strconv.Atoi(v[1])
					if version > p.answered {
						p.prompt, p.answered = &m, version
					}
					if forged == "" {
						forged = tamper(m.replyTo)
						strangers.Go(func() { refuseStrangers(t, pf, victim, forged) })
					}
				case m.kind == "game_over":
					p.over = true
				}
			}
			// Line 1 of a Coyote prompt calls Coyote when it may be called,
			// else makes the lowest bid: two moves a round.
			if p.prompt != nil {
				id, raw, to := p.reply(*p.prompt, "Re: à toi", "1")
				p.mailTo(t, id, raw, to...)
				p.prompt = nil
				moves++
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	var status string
	if err := pool.QueryRow(ctx, `select string_agg(status, ',') from games`).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "finished" {
		t.Errorf("the games are %q, want one finished", status)
	}
	sent := slices.Concat(ana.sent, bob.sent, zoe.sent)
	checkInbound(t, pool, sent)
	t.Logf("a game of Coyote by mail through Postfix: %d moves, %d mails from the players, in %v",
		moves, len(sent), time.Since(gameStart).Round(time.Millisecond))

	strangers.Wait()

	// A burst: 50 mails to the service address in a few seconds, from the
	// three players, taken by courrier at once and answered.
	const burst = 50
	burstStart := time.Now()
	ids := make([]string, burst)
	var wg sync.WaitGroup
	errs := make(chan error, burst)
	for w := range 10 {
		wg.Go(func() {
			for i := w; i < burst; i += 10 {
				p := players[i%3]
				id, raw := p.compose([]string{lobby}, "Où en sont mes parties ?", "games\r\n", "")
				ids[i] = id
				if err := pf.send(p.addr, []string{lobby}, raw); err != nil {
					errs <- fmt.Errorf("%s: %w", p.addr, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("the burst: Postfix refused %v", err)
	}
	sentIn := time.Since(burstStart)
	var taken int
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if err := pool.QueryRow(ctx, `select count(*) from inbound_mail where message_id = any($1) and processed_at is not null`, ids).Scan(&taken); err != nil {
			t.Fatal(err)
		}
		if taken == burst {
			break
		}
	}
	takenIn := time.Since(burstStart)
	if taken != burst {
		t.Errorf("the burst: courrier took and processed %d of %d mails in %v", taken, burst, takenIn)
	}
	checkInbound(t, pool, ids)
	answers := 0
	for end := time.Now().Add(30 * time.Second); answers < burst && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		for _, p := range players {
			answers += len(p.fresh(t))
		}
	}
	if answers < burst {
		t.Errorf("the burst: %d of %d answers reached the players", answers, burst)
	}
	t.Logf("a burst of %d mails: sent through Postfix in %v, all taken and processed by courrier after %v, answered after %v",
		burst, sentIn.Round(time.Millisecond), takenIn.Round(time.Millisecond), time.Since(burstStart).Round(time.Millisecond))

	// smtp+insecure:// on loopback: STARTTLS, Postfix's certificate not
	// checked, no CA file.
	stop()
	t.Setenv("COURRIER_SMTP_RELAY_CA", "")
	log2, _ := serveWithRelay(t, dbURL, dataDir, courrierSMTP, "smtp+insecure://"+pf.relay)
	if l := log2.lines("courrier is serving"); len(l) != 1 || !strings.Contains(l[0], `mail="relay smtp+insecure://`+pf.relay+`"`) {
		t.Errorf("the start-up log does not name the relay smtp+insecure://%s:\n%s", pf.relay, strings.Join(l, "\n"))
	}
	id, raw = ana.compose([]string{lobby}, "aide", "help\r\n", "")
	ana.mailTo(t, id, raw, lobby)
	var help *delivered
	for end := time.Now().Add(20 * time.Second); help == nil && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		for _, m := range ana.fresh(t) {
			if strings.Contains(m.subject, "how to play") {
				help = &m
			}
		}
	}
	switch {
	case help == nil:
		t.Errorf("with smtp+insecure:// on loopback, no answer to help came")
	case !strings.Contains(help.received, "using TLS"):
		t.Errorf("with smtp+insecure:// on loopback, the answer to help came without TLS: %s", help.received)
	}

	checkAfterPostfix(t, pf, pool, everyone, forged)
	for _, l := range append(log.lines("level=ERROR"), log2.lines("level=ERROR")...) {
		t.Errorf("serve logged: %s", l)
	}
	t.Logf("the whole test in %v", time.Since(begin).Round(time.Millisecond))
}

// stalled says where mail stopped: what Postfix deferred, bounced or
// refused, its queue, what courrier made of the mail it took and the mail
// it has not sent.
func stalled(t *testing.T, pf *postfix, pool *pgxpool.Pool) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\nPostfix deferred, bounced or refused:\n%s\nits queue: %s\ncourrier took:\n",
		strings.Join(pf.grep(regexp.MustCompile(`status=(deferred|bounced)|reject:`)), "\n"), pf.queue())
	rows, err := pool.Query(t.Context(), `select format('%s → %s: %s', mail_from, rcpt, coalesce(outcome, '(not processed)')) from inbound_mail order by id`)
	if err != nil {
		t.Fatal(err)
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	rows, err = pool.Query(t.Context(), `select format('%s to %s: %s attempts, %s', message_id, recipient, attempts, coalesce(last_error, '')) from mail_log
		where sent_at is null and skipped is null order by created_at`)
	if err != nil {
		t.Fatal(err)
	}
	unsent, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	rows, err = pool.Query(t.Context(), `select format('%s %s attempt %s at %s: %s', kind, state, attempt, scheduled_at, errors::text) from river_job
		where state not in ('completed', 'cancelled') order by id`)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "%s\ncourrier has not sent:\n%s\nits jobs not done:\n%s", strings.Join(taken, "\n"), strings.Join(unsent, "\n"), strings.Join(jobs, "\n"))
	return b.String()
}

// tamper is a reply address courrier never signed: addr with the last
// character of its token changed.
func tamper(addr string) string {
	at := strings.IndexByte(addr, '@')
	c := "a"
	if addr[at-1] == 'a' {
		c = "b"
	}
	return addr[:at-1] + c + addr[at:]
}

// refuseStrangers has a stranger write to the forged reply address and to
// an unknown one, with the envelope sender of victim (a spammer's pick):
// Postfix refuses both at RCPT with 550, so it queues nothing and bounces
// nobody; and to the postmaster, a person's mailbox, verified like any
// address.
func refuseStrangers(t *testing.T, pf *postfix, victim *player, forged string) {
	for _, to := range []string{forged, "nobody@" + mailDomain} {
		_, raw := victim.compose([]string{to}, "Re: à toi", "coyote\r\n", "")
		err := pf.send(victim.addr, []string{to}, raw)
		if se, ok := errors.AsType[*smtp.SMTPError](err); !ok || se.Code != 550 || !strings.HasPrefix(err.Error(), "RCPT TO:") {
			t.Errorf("a mail to %s through Postfix: %v; want 550 at RCPT", to, err)
		}
	}
	postmaster := []string{"postmaster@" + mailDomain}
	_, raw := victim.compose(postmaster, "abuse?", "hello\r\n", "")
	if err := pf.send(victim.addr, postmaster, raw); err != nil {
		t.Errorf("a mail to the postmaster through Postfix: %v", err)
	}
}

// checkInbound checks that courrier took each mail the players sent
// through Postfix (by its Message-ID), and played or answered it: none
// refused or ignored.
func checkInbound(t *testing.T, pool *pgxpool.Pool, sent []string) {
	t.Helper()
	rows, err := pool.Query(t.Context(), `select message_id, rcpt, mail_from, coalesce(outcome, '(not processed)') from inbound_mail
		where message_id = any($1) order by id`, sent)
	if err != nil {
		t.Fatal(err)
	}
	type inbound struct{ id, rcpt, from, outcome string }
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (inbound, error) {
		var in inbound
		return in, r.Scan(&in.id, &in.rcpt, &in.from, &in.outcome)
	})
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]int{}
	for _, in := range all {
		taken[in.id]++
		if strings.HasPrefix(in.outcome, "refused") || strings.HasPrefix(in.outcome, "ignored") || strings.Contains(in.outcome, "not played") || in.outcome == "(not processed)" {
			t.Errorf("the mail of %s to %s: %s", in.from, in.rcpt, in.outcome)
		}
	}
	for _, id := range sent {
		if taken[id] == 0 {
			t.Errorf("courrier never took the mail %s", id)
		}
	}
}

// checkAfterPostfix checks what the whole test left: every mail courrier
// logged sent at its first attempt, Postfix's queue empty, nothing
// deferred or bounced, every delivery to the relay over one TLS connection
// of its own, every mail the players got from courrier taken over TLS,
// no bounce to the forged sender, nothing taken for the forged address.
func checkAfterPostfix(t *testing.T, pf *postfix, pool *pgxpool.Pool, everyone []*player, forged string) {
	t.Helper()
	ctx := t.Context()
	var open, sent int
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if err := pool.QueryRow(ctx, `select count(*) filter (where sent_at is null and failed_at is null and skipped is null),
			count(*) filter (where sent_at is not null) from mail_log`).Scan(&open, &sent); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			break
		}
	}
	if open > 0 {
		t.Errorf("%d mails of courrier's are still not sent", open)
	}
	var retried []string
	if err := pool.QueryRow(ctx, `select coalesce(array_agg(message_id || ': ' || attempts || ' attempts, ' || coalesce(last_error, '')), '{}')
		from mail_log where attempts > 1 or failed_at is not null`).Scan(&retried); err != nil {
		t.Fatal(err)
	}
	for _, r := range retried {
		t.Errorf("a mail of courrier's not sent at its first attempt: %s", r)
	}
	var queue string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if queue = pf.queue(); queue == "Mail queue is empty" {
			break
		}
	}
	if queue != "Mail queue is empty" {
		t.Errorf("Postfix's queue is not empty:\n%s", queue)
	}
	// `postfix start` checked the instance (postfix check): its warnings,
	// and any later one, are in the log.
	// The machine's clock against its file system's (cleanup's "file system
	// clock is 1 seconds ahead of local clock", then "resetting file time
	// stamps", seen on a busy machine) says nothing of courrier's mail.
	machine := regexp.MustCompile(`warning: (file system clock is \d+ seconds? ahead of local clock|resetting file time stamps)`)
	var warned []string
	for _, l := range pf.grep(regexp.MustCompile(`(warning|error|fatal|panic):`)) {
		if !machine.MatchString(l) {
			warned = append(warned, l)
		}
	}
	if len(warned) > 0 {
		t.Errorf("Postfix warned %d times:\n%s", len(warned), strings.Join(warned[:min(len(warned), 10)], "\n"))
	}
	if l := pf.grep(regexp.MustCompile(`status=(deferred|bounced)`)); len(l) > 0 {
		t.Errorf("Postfix deferred or bounced %d mails:\n%s", len(l), strings.Join(l[:min(len(l), 10)], "\n"))
	}
	for _, to := range []string{forged, "nobody@" + mailDomain} {
		re := regexp.MustCompile(`NOQUEUE: reject: RCPT from \S+: 550 5\.1\.1 <` + regexp.QuoteMeta(to) + `>: Recipient address rejected`)
		if len(pf.grep(re)) != 1 {
			t.Errorf("Postfix's log has no refusal at RCPT of %s", to)
		}
	}
	connects := len(pf.grep(regexp.MustCompile(`postfix/relay/smtpd\[\d+\]: connect from`)))
	tlsConnects := len(pf.grep(regexp.MustCompile(`postfix/relay/smtpd\[\d+\]: Anonymous TLS connection established`)))
	if connects == 0 || tlsConnects != connects {
		t.Errorf("courrier opened %d connections to the relay, %d of them with TLS: want all with TLS", connects, tlsConnects)
	}
	if connects > sent {
		t.Errorf("courrier opened %d connections to the relay for %d mails: want one a mail at most", connects, sent)
	}
	delivered := 0
	for _, p := range everyone {
		dir := filepath.Join(pf.dir, "mail", playersDomain, p.box, "new")
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			d, err := readDelivered(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case p.box == "victim":
				t.Errorf("the forged sender got a mail: %q from %s", d.subject, d.returnPath)
			case p.box == "postmaster":
				if d.returnPath != "<"+"victim@"+playersDomain+">" {
					t.Errorf("the postmaster got a mail from %s", d.returnPath)
				}
			case !strings.Contains(d.received, "using TLS"):
				t.Errorf("%s's mail %q was taken without TLS: %s", p.addr, d.subject, d.received)
			default:
				delivered++
			}
		}
	}
	if delivered != sent {
		t.Errorf("the players got %d mails from courrier, its log says it sent %d", delivered, sent)
	}
	var forgedTaken int
	if err := pool.QueryRow(ctx, `select count(*) from inbound_mail where lower(rcpt) = lower($1) or mail_from = $2`, forged, "victim@"+playersDomain).Scan(&forgedTaken); err != nil {
		t.Fatal(err)
	}
	if forgedTaken > 0 {
		t.Errorf("courrier took %d mails of the forger's", forgedTaken)
	}
	t.Logf("courrier sent %d mails through the relay in %d TLS connections; Postfix deferred none, bounced none; its queue is empty", sent, connects)
}

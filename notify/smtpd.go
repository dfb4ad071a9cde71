package notify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-smtp"

	"github.com/courrier-games/courrier/notify/mailstore"
)

// Inbound limits.
const (
	// MaxInboundBytes bounds an inbound mail: a reply is a few lines, and
	// the quoted prompt a few kilobytes; attachments are not moves.
	MaxInboundBytes = 512 << 10
	// maxLineBytes bounds a line, a command's or the message's: mail
	// programs and servers pass lines far longer than RFC 5321's 1,000
	// octets (HTML on one line), so a message's lines are bounded by its
	// size alone, which is checked first (552).
	maxLineBytes = MaxInboundBytes + 64<<10
)

// JobInserter inserts a job in a transaction; a River client is one. Its
// transaction is the mail store's (pgx), so the type is the store's.
type JobInserter = mailstore.JobInserter

// InboundServer is courrier's SMTP server: it accepts mail for reply
// addresses it signed and for the service address, stores each message
// once, and queues a job to process it. It never processes mail itself:
// storing is all an SMTP session waits for.
type InboundServer struct {
	srv  *smtp.Server
	s    *Service
	jobs JobInserter
	log  *slog.Logger
	now  func() time.Time

	limits InboundLimits

	mu      sync.Mutex
	conns   *window // connections by remote IP (relays not trusted)
	senders *window // messages by envelope sender
	replies *window // messages by reply address
}

// NewInboundServer returns the SMTP server; serve it with Serve.
func (s *Service) NewInboundServer(jobs JobInserter) *InboundServer {
	limits := s.cfg.Inbound.withDefaults()
	in := &InboundServer{s: s, jobs: jobs, log: s.log, now: s.cfg.Now, limits: limits,
		conns: newWindow(limits.ConnectionsPerMinute), senders: newWindow(limits.MailsPerSender), replies: newWindow(limits.MailsPerReplyAddress)}
	srv := smtp.NewServer(in)
	srv.Domain = s.cfg.MailDomain
	srv.MaxMessageBytes = MaxInboundBytes
	srv.MaxLineLength = maxLineBytes
	// EHLO says LIMITS RCPTMAX=maxRecipients, and Rcpt takes as many.
	srv.MaxRecipients = maxRecipients
	// 8BITMIME is always offered; SMTPUTF8 (RFC 6531) too: addresses and
	// header fields in UTF-8 are stored as they come, and incoming.Read
	// reads them.
	srv.EnableSMTPUTF8 = true
	// The read timeout bounds a command's wait and a whole message's:
	// go-smtp sets the deadline as it reads the DATA command, and Data
	// answers a message that has not ended by then (dataError).
	srv.ReadTimeout = limits.ReadTimeout
	srv.WriteTimeout = 2 * time.Minute
	srv.ErrorLog = slogAdapter{s.log}
	in.srv = srv
	s.log.Info("inbound SMTP limits", "trusted_relays", limits.Trusted.String(),
		"connections_a_minute", limitText(limits.ConnectionsPerMinute), "mails_a_minute_per_sender", limitText(limits.MailsPerSender),
		"mails_a_minute_per_reply_address", limitText(limits.MailsPerReplyAddress), "read_timeout", limits.ReadTimeout)
	return in
}

// limitText is a limit for the log: the number, or "none".
func limitText(n int) string {
	if n < 0 {
		return "none"
	}
	return strconv.Itoa(n)
}

// slogAdapter logs go-smtp's errors through slog.
type slogAdapter struct{ log *slog.Logger }

func (a slogAdapter) Printf(format string, v ...any) { a.log.Warn(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Println(v ...any)               { a.log.Warn(fmt.Sprint(v...)) }

// Serve accepts connections on l until Close.
func (in *InboundServer) Serve(l net.Listener) error {
	err := in.srv.Serve(sequenceListener{Listener: l, timeout: in.limits.ReadTimeout})
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting and waits for open sessions until ctx ends.
func (in *InboundServer) Shutdown(ctx context.Context) error { return in.srv.Shutdown(ctx) }

// NewSession implements smtp.Backend: one session per connection. A
// connection from an address that is not a trusted relay is refused when
// its address opened too many in the last minute.
func (in *InboundServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	remote := ""
	if c.Conn() != nil {
		remote, _, _ = net.SplitHostPort(c.Conn().RemoteAddr().String())
	}
	trusted := in.limits.Trusted.Contains(remote)
	if !trusted {
		in.mu.Lock()
		now := in.now()
		ok := in.conns.take(remote, now)
		until := in.conns.until(remote, now)
		in.mu.Unlock()
		if !ok {
			return nil, connectionLimitReply(in.limits.ConnectionsPerMinute, remote, until)
		}
	}
	return &inboundSession{in: in, remote: remote}, nil
}

// inboundSession is one SMTP conversation. The mail it counts against the
// sender's and the reply addresses' limits (at MAIL and RCPT, so that
// sessions at once cannot pass a limit together) is uncounted when the
// transaction ends without a stored message.
type inboundSession struct {
	in     *InboundServer
	remote string

	mu      sync.Mutex // go-smtp may run Data beside Reset (BDAT)
	from    string
	rcpts   []string  // accepted recipients, in order, without repeats
	counted []counted // what this transaction counted against a limit
}

// counted is one count taken against a limit, to give back.
type counted struct {
	w   *window
	key string
	at  time.Time
}

// Reset ends the transaction: what it counted is given back unless its
// message was stored.
func (ss *inboundSession) Reset() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.release()
	ss.from, ss.rcpts = "", nil
}

// Logout ends the session.
func (ss *inboundSession) Logout() error {
	ss.Reset()
	return nil
}

// release gives back the counts of the transaction; ss.mu is held.
func (ss *inboundSession) release() {
	if len(ss.counted) == 0 {
		return
	}
	ss.in.mu.Lock()
	for _, c := range ss.counted {
		c.w.release(c.key, c.at)
	}
	ss.in.mu.Unlock()
	ss.counted = nil
}

// count counts one mail for key against w; false when w's limit is
// reached, with when it may be counted again.
func (ss *inboundSession) count(w *window, key string) (bool, time.Time) {
	ss.in.mu.Lock()
	now := ss.in.now()
	ok := w.take(key, now)
	until := w.until(key, now)
	ss.in.mu.Unlock()
	if ok {
		ss.counted = append(ss.counted, counted{w: w, key: key, at: now})
	}
	return ok, until
}

// Mail records the envelope sender ("" for the null sender), within its
// limit of mails a minute.
func (ss *inboundSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.release() // a MAIL without RSET starts a new transaction
	if !utf8.ValidString(from) || strings.ContainsFunc(from, unicode.IsControl) {
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 7},
			Message: "the sender address holds a control character or bytes that are not UTF-8"}
	}
	ss.from, ss.rcpts = from, nil
	if ok, until := ss.count(ss.in.senders, "<"+strings.ToLower(from)+">"); !ok {
		return senderLimitReply(ss.in.limits.MailsPerSender, from, until)
	}
	return nil
}

var errNoMailbox = &smtp.SMTPError{
	Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
	Message: "no such mailbox: courrier takes mail only at the reply address of a mail it sent, or at its service address",
}

// Rcpt accepts the service address and reply addresses courrier signed and
// that have not expired; anything else is 550 5.1.1. A message may name
// several (up to maxRecipients): it is processed once (see Data). A reply
// address takes its limit of mails a minute.
func (ss *inboundSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.in.s
	local, domain, ok := strings.Cut(to, "@")
	if !ok || !strings.EqualFold(domain, s.cfg.MailDomain) {
		return errNoMailbox
	}
	kind, token, plus := strings.Cut(strings.ToLower(local), "+")
	switch {
	case !plus && kind == "play":
	case plus && tokenKind(kind):
		tok, err := s.cfg.Signer.Verify(token)
		if errors.Is(err, ErrExpiredToken) {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
				Message: "this reply address has expired: answer the latest mail about the game, or write \"games\" to " + s.ServiceAddress().Address}
		}
		if err != nil || tok.Kind != kind {
			return errNoMailbox
		}
	default:
		return errNoMailbox
	}
	for _, r := range ss.rcpts {
		if strings.EqualFold(r, to) {
			return nil // named twice: one recipient
		}
	}
	if plus {
		if ok, until := ss.count(ss.in.replies, strings.ToLower(to)); !ok {
			return replyLimitReply(ss.in.limits.MailsPerReplyAddress, until)
		}
	}
	ss.rcpts = append(ss.rcpts, to)
	return nil
}

// target is the recipient a message is processed for: its first reply
// address, else the service address. A reply (a move, a join) answers one
// mail of courrier's: the service address beside it, or a second reply
// address, is not processed as well; aside is how many were set aside.
func target(rcpts []string) (rcpt string, aside int) {
	for _, r := range rcpts {
		if strings.Contains(r, "+") {
			return r, len(rcpts) - 1
		}
	}
	return rcpts[0], len(rcpts) - 1
}

// Data stores the message once (by Message-ID and the recipient it is
// processed for, see target) and queues its processing, in one
// transaction.
func (ss *inboundSession) Data(r io.Reader) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.rcpts) == 0 { // go-smtp answers DATA so before calling Data
		return &smtp.SMTPError{Code: 503, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "no recipient was accepted"}
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return dataError(err, ss.in.limits.ReadTimeout)
	}
	id := messageIDOf(raw)
	rcpt, aside := target(ss.rcpts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = ss.in.s.store.StoreInbound(ctx, ss.in.jobs, mailstore.Inbound{
		MessageID: id, Rcpt: rcpt, MailFrom: ss.from, RemoteAddr: ss.remote, Raw: raw,
	})
	if err != nil {
		ss.in.log.Error("inbound mail not stored", "err", err, "remote_addr", ss.remote)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "courrier cannot store mail right now; your server will try again"}
	}
	if aside > 0 {
		ss.in.log.Info("inbound mail to several of courrier's addresses, processed once", "recipients", len(ss.rcpts), "set_aside", aside)
	}
	ss.counted = nil // the message is in: its counts stand
	return nil
}

// dataError is the answer to a message whose reading failed: too large,
// a line too long, or no end within the read timeout (the connection is
// then closed). A client gone has no answer to read.
func dataError(err error, timeout time.Duration) error {
	if errors.Is(err, smtp.ErrDataTooLarge) {
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
			Message: fmt.Sprintf("your mail is larger than courrier takes (%d KB): send your move as plain text, without attachments", MaxInboundBytes>>10)}
	}
	if errors.Is(err, smtp.ErrTooLongLine) {
		return &smtp.SMTPError{Code: 500, EnhancedCode: smtp.EnhancedCode{5, 5, 6},
			Message: fmt.Sprintf("a line of your mail is longer than courrier takes (%d KB)", maxLineBytes>>10)}
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return dataTimeoutReply(timeout)
	}
	return fmt.Errorf("read the message: %w", err)
}

// messageIDOf returns the message's Message-ID without brackets, or one
// made from its content when it has none (the same bytes twice are then
// one mail).
func messageIDOf(raw []byte) string {
	hdr, _ := readHeader(raw)
	// A Message-ID is stored as text: one that is not UTF-8, or holds a
	// control character (NUL), is replaced like a missing one.
	if id := strings.Trim(strings.TrimSpace(hdr.Get("Message-Id")), "<>"); id != "" && utf8.ValidString(id) && !strings.ContainsFunc(id, unicode.IsControl) {
		return id
	}
	sum := sha256.Sum256(raw)
	return "sha256." + hex.EncodeToString(sum[:16]) + "@courrier.invalid"
}

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
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/jobs"
)

// Inbound limits.
const (
	// MaxInboundBytes bounds an inbound mail: a reply is a few lines, and
	// the quoted prompt a few kilobytes; attachments are not moves.
	MaxInboundBytes = 512 << 10
	// connectionsPerMinute bounds the connections one address may open.
	connectionsPerMinute = 30
)

// JobInserter inserts a job in a transaction; a River client is one.
type JobInserter interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

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

	mu     sync.Mutex
	recent map[string][]time.Time // connection times by remote IP
}

// NewInboundServer returns the SMTP server; serve it with Serve.
func (s *Service) NewInboundServer(jobs JobInserter) *InboundServer {
	in := &InboundServer{s: s, jobs: jobs, log: s.log, now: s.cfg.Now, recent: map[string][]time.Time{}}
	srv := smtp.NewServer(in)
	srv.Domain = s.cfg.MailDomain
	srv.MaxMessageBytes = MaxInboundBytes
	srv.MaxRecipients = 5
	srv.ReadTimeout = 2 * time.Minute
	srv.WriteTimeout = 2 * time.Minute
	srv.ErrorLog = slogAdapter{s.log}
	in.srv = srv
	return in
}

// slogAdapter logs go-smtp's errors through slog.
type slogAdapter struct{ log *slog.Logger }

func (a slogAdapter) Printf(format string, v ...any) { a.log.Warn(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Println(v ...any)               { a.log.Warn(fmt.Sprint(v...)) }

// Serve accepts connections on l until Close.
func (in *InboundServer) Serve(l net.Listener) error {
	err := in.srv.Serve(l)
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting and waits for open sessions until ctx ends.
func (in *InboundServer) Shutdown(ctx context.Context) error { return in.srv.Shutdown(ctx) }

// NewSession implements smtp.Backend: one session per connection, refused
// when its address opened too many in the last minute.
func (in *InboundServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	remote := ""
	if c.Conn() != nil {
		remote, _, _ = net.SplitHostPort(c.Conn().RemoteAddr().String())
	}
	if !in.allow(remote) {
		return nil, &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "too many connections from your address; try again in a minute"}
	}
	return &inboundSession{in: in, remote: remote}, nil
}

// allow counts a connection from ip and reports whether it is within the
// rate.
func (in *InboundServer) allow(ip string) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	now := in.now()
	kept := in.recent[ip][:0]
	for _, t := range in.recent[ip] {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	if len(kept) >= connectionsPerMinute {
		in.recent[ip] = kept
		return false
	}
	in.recent[ip] = append(kept, now)
	if len(in.recent) > 10000 { // forget idle addresses
		for k, v := range in.recent {
			if len(v) == 0 || now.Sub(v[len(v)-1]) >= time.Minute {
				delete(in.recent, k)
			}
		}
	}
	return true
}

// inboundSession is one SMTP conversation.
type inboundSession struct {
	in     *InboundServer
	remote string
	from   string
	rcpt   string
}

func (ss *inboundSession) Reset()        { ss.from, ss.rcpt = "", "" }
func (ss *inboundSession) Logout() error { return nil }

// Mail records the envelope sender ("" for the null sender).
func (ss *inboundSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

var errNoMailbox = &smtp.SMTPError{
	Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
	Message: "no such mailbox: courrier takes mail only at the reply address of a mail it sent, or at its service address",
}

// Rcpt accepts the service address and reply addresses courrier signed and
// that have not expired; anything else is 550 5.1.1. One recipient a
// message: a reply answers one mail.
func (ss *inboundSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s := ss.in.s
	local, domain, ok := strings.Cut(to, "@")
	if !ok || !strings.EqualFold(domain, s.cfg.MailDomain) {
		return errNoMailbox
	}
	kind, token, plus := strings.Cut(strings.ToLower(local), "+")
	switch {
	case !plus && kind == "play":
	case plus && (kind == "m" || kind == "i"):
		tok, err := s.cfg.Signer.Verify(token)
		if errors.Is(err, ErrExpiredToken) {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
				Message: "this reply address has expired: answer the latest mail about the game, or write \"games\" to " + s.ServiceAddress().Address}
		}
		if err != nil || (kind == "m") != (tok.Kind == TokenMove) {
			return errNoMailbox
		}
	default:
		return errNoMailbox
	}
	if ss.rcpt != "" {
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 5, 3}, Message: "one recipient a message: send to each reply address apart"}
	}
	ss.rcpt = to
	return nil
}

// Data stores the message once (by Message-ID and recipient) and queues
// its processing, in one transaction.
func (ss *inboundSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		if se, ok := errors.AsType[*smtp.SMTPError](err); ok {
			return &smtp.SMTPError{Code: se.Code, EnhancedCode: se.EnhancedCode,
				Message: fmt.Sprintf("your mail is larger than courrier takes (%d KB): send your move as plain text, without attachments", MaxInboundBytes>>10)}
		}
		return err
	}
	id := messageIDOf(raw)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = pgx.BeginFunc(ctx, ss.in.s.pool, func(tx pgx.Tx) error {
		var rowID int64
		err := tx.QueryRow(ctx, `insert into inbound_mail (message_id, rcpt, mail_from, remote_addr, raw)
			values ($1, $2, $3, nullif($4, ''), $5) on conflict (message_id, rcpt) do nothing returning id`,
			id, ss.rcpt, ss.from, ss.remote, raw).Scan(&rowID)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // the same mail again: accepted, processed once
		}
		if err != nil {
			return fmt.Errorf("store inbound mail: %w", err)
		}
		if _, err := ss.in.jobs.InsertTx(ctx, tx, jobs.Inbound{ID: rowID}, nil); err != nil {
			return fmt.Errorf("queue inbound mail: %w", err)
		}
		return nil
	})
	if err != nil {
		ss.in.log.Error("inbound mail not stored", "err", err, "remote_addr", ss.remote)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "courrier cannot store mail right now; your server will try again"}
	}
	return nil
}

// messageIDOf returns the message's Message-ID without brackets, or one
// made from its content when it has none (the same bytes twice are then
// one mail).
func messageIDOf(raw []byte) string {
	hdr, _ := readHeader(raw)
	if id := strings.Trim(strings.TrimSpace(hdr.Get("Message-Id")), "<>"); id != "" {
		return id
	}
	sum := sha256.Sum256(raw)
	return "sha256." + hex.EncodeToString(sum[:16]) + "@courrier.invalid"
}

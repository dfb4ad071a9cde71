package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"mime"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
	"golang.org/x/time/rate"
)

// The mail side of `courrier load -mail`: the load command is the relay on
// both sides of the embedded server. Behind it, a sink on a loopback port
// takes every mail the server sends, as its outbound relay
// (COURRIER_SMTP_RELAY); the bots, one address each, read their prompts
// there and reply through the server's inbound SMTP port as the trusted
// relay in front of it would hand their mail over: from a loopback address
// (COURRIER_SMTP_TRUSTED local), with an Authentication-Results header of
// the configured authserv-id (COURRIER_MAIL_AUTHSERV_ID) saying DMARC
// passed for the bots' domain, the envelope sender the From address.

// loadAuthservID is the authserv-id the load command's relay writes in the
// Authentication-Results of the bots' mail, and the embedded server's
// COURRIER_MAIL_AUTHSERV_ID.
const loadAuthservID = "mx.load.test"

// botsDomain is the domain of the bots' addresses.
const botsDomain = "bots.test"

// sinkMail is one mail taken at the sink, read as a mail program would.
type sinkMail struct {
	at        time.Time // its end of DATA at the sink
	to        string    // the recipient (one a sinkMail: a mail to several is one each)
	nullFrom  bool      // the envelope sender is <>: a bounce
	kind      string    // X-Courrier-Kind
	messageID string
	replyTo   string
	subject   string
	text      string // the text/plain part, decoded
	game      string // from the Message-ID (g.<game>.v<version>.s<seat>.<kind>), "" when it names none
}

// courrierMessageID reads a game mail's Message-ID.
var courrierMessageID = regexp.MustCompile(`^g\.([a-z0-9]+)\.v\d+\.s\d+\.`)

// signInSecret finds a sign-in link's secret in a mail's text.
var signInSecret = regexp.MustCompile(`/login/([a-z2-7]{20,})`)

// numberedChoice is a line of a prompt's numbered moves ("  3. bid 5"),
// and rangedChoice one that stands for a range of values ("2. bid 2 … 250").
var (
	numberedChoice = regexp.MustCompile(`^\s*(\d+)\.\s+\S`)
	rangedChoice   = regexp.MustCompile(`(-?\d+)\s*…\s*(-?\d+)\s*$`)
)

// promptChoice is one of a prompt's numbered moves: a range of values
// (from lo to hi) when ranged.
type promptChoice struct {
	n, lo, hi int
	ranged    bool
}

// reply is the line that plays it: its number, and for a range a value
// picked in it ("2 137", as the mail asks).
func (c promptChoice) reply(pick *mrand.Rand) string {
	if !c.ranged {
		return strconv.Itoa(c.n)
	}
	return fmt.Sprintf("%d %d", c.n, c.lo+botChoice(pick, c.hi-c.lo+1))
}

// choices returns the last run of numbered lines of a prompt's text: its
// moves (notify's "numbered" template function).
func choices(text string) []promptChoice {
	var last, run []promptChoice
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimRight(l, "\r")
		m := numberedChoice.FindStringSubmatch(l)
		if m == nil {
			if len(run) > 0 {
				last, run = run, nil
			}
			continue
		}
		c := promptChoice{}
		c.n, _ = strconv.Atoi(m[1]) // digits
		if r := rangedChoice.FindStringSubmatch(l); r != nil {
			lo, errLo := strconv.Atoi(r[1])
			hi, errHi := strconv.Atoi(r[2])
			if errLo == nil && errHi == nil && lo <= hi {
				c.lo, c.hi, c.ranged = lo, hi, true
			}
		}
		run = append(run, c)
	}
	if len(run) > 0 {
		last = run
	}
	return last
}

// readSinkMail parses raw as a mail program would.
func readSinkMail(raw []byte) (sinkMail, error) {
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return sinkMail{}, fmt.Errorf("read the header: %w", err)
	}
	defer func() { _ = mr.Close() }() // read from memory
	m := sinkMail{kind: mr.Header.Get("X-Courrier-Kind")}
	m.subject, _ = mr.Header.Subject()
	m.messageID, _ = mr.Header.MessageID()
	if l, err := mr.Header.AddressList("Reply-To"); err == nil && len(l) > 0 {
		m.replyTo = l[0].Address
	}
	if sm := courrierMessageID.FindStringSubmatch(m.messageID); sm != nil {
		m.game = sm[1]
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) {
			return m, fmt.Errorf("read a part: %w", err)
		}
		if h, ok := part.Header.(*mail.InlineHeader); ok && m.text == "" {
			if ct, _, _ := h.ContentType(); ct == "text/plain" {
				b, err := io.ReadAll(part.Body)
				if err != nil {
					return m, fmt.Errorf("read the text: %w", err)
				}
				m.text = string(b)
			}
		}
	}
	return m, nil
}

// relaySink is an SMTP server on a loopback port that takes every mail,
// as the embedded server's outbound relay, and hands each to deliver, once
// a recipient.
type relaySink struct {
	addr    string
	srv     *smtp.Server
	served  chan error
	deliver func(sinkMail)
	// unreadable counts the mails that could not be parsed.
	unreadable atomic.Int64
}

// startRelaySink serves a sink on 127.0.0.1:0; deliver is called from the
// SMTP sessions' goroutines, at each mail's end of DATA.
func startRelaySink(ctx context.Context, deliver func(sinkMail)) (*relaySink, error) {
	s := &relaySink{served: make(chan error, 1), deliver: deliver}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "relay.load.test"
	s.srv.ReadTimeout, s.srv.WriteTimeout = time.Minute, time.Minute
	s.srv.MaxMessageBytes = 32 << 20
	s.srv.EnableSMTPUTF8 = true
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the relay sink: %w", err)
	}
	s.addr = ln.Addr().String()
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// stop closes the sink and waits for it.
func (s *relaySink) stop() error {
	if err := s.srv.Close(); err != nil {
		return fmt.Errorf("close the relay sink: %w", err)
	}
	if err := <-s.served; err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("the relay sink: %w", err)
	}
	return nil
}

// NewSession implements smtp.Backend.
func (s *relaySink) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &sinkSession{sink: s}, nil
}

// sinkSession is one SMTP session at the sink.
type sinkSession struct {
	sink     *relaySink
	nullFrom bool
	to       []string
}

// Mail implements smtp.Session.
func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.nullFrom = from == ""
	return nil
}

// Rcpt implements smtp.Session.
func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

// Data implements smtp.Session: the mail is read, then delivered to each
// recipient.
func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read the mail: %w", err)
	}
	at := time.Now()
	m, err := readSinkMail(raw)
	if err != nil {
		ss.sink.unreadable.Add(1)
	}
	m.at, m.nullFrom = at, ss.nullFrom
	for _, to := range ss.to {
		m.to = strings.ToLower(to)
		ss.sink.deliver(m)
	}
	return nil
}

// Reset implements smtp.Session.
func (ss *sinkSession) Reset() { ss.to, ss.nullFrom = nil, false }

// Logout implements smtp.Session.
func (ss *sinkSession) Logout() error { return nil }

// mailKinds counts the mails the sink took during the games, by kind.
type mailKinds struct {
	prompts, receipts, refusals, gameOvers, bounces, other atomic.Int64
}

func (k *mailKinds) total() int64 {
	return k.prompts.Load() + k.receipts.Load() + k.refusals.Load() + k.gameOvers.Load() + k.bounces.Load() + k.other.Load()
}

// replyJob is a prompt a bot answers.
type replyJob struct {
	prompt sinkMail
}

// mailPlay is the state of a `-mail` run.
type mailPlay struct {
	o        loadOptions
	inbound  string // the embedded server's inbound SMTP address
	replies  chan replyJob
	replaces chan string   // games over, to replace
	stopped  chan struct{} // closed when the games end: prompts are no longer queued
	limiter  *rate.Limiter
	sink     *relaySink
	// backlogURL is the server's database, where the set-up's mail is
	// waited for.
	backlogURL string
	// replaceMu keeps a client's games replaced one at a time (its bots'
	// rand is not safe for concurrent use).
	replaceMu []sync.Mutex

	mu sync.Mutex
	// signIns are the bots waiting for their sign-in link.
	signIns *signInBox
	// sent is when the last reply of each game was handed over (just
	// before its end of DATA), until the game's next prompt arrives.
	sent map[string]time.Time
	// over are the games whose game-over mail came.
	over map[string]bool
	// owner is the client whose bots play each game.
	owner map[string]int
	// playing is set while the games are timed: mails are counted then.
	playing bool

	kinds      mailKinds
	hist       *hdrhistogram.Histogram // µs from a reply's end of DATA to the game's next prompt at the sink
	repliesOK  atomic.Int64
	smtpErrors errorLog // replies refused or failed at the inbound SMTP port
	otherErrs  errorLog // prompts without moves, games not replaced
	// refusalTexts keeps the first refusals' words.
	refusalTexts errorLog
}

// deliver is the sink's hand-over: a sign-in link to the bot waiting for
// it, a prompt to the reply queue, a game-over to the replacements; every
// mail counted by kind while the games are timed.
func (p *mailPlay) deliver(m sinkMail) {
	p.signIns.deliver(m)
	p.mu.Lock()
	playing := p.playing
	var latency time.Duration
	if m.kind == "prompt" && m.game != "" {
		if t, ok := p.sent[m.game]; ok {
			latency = m.at.Sub(t)
			delete(p.sent, m.game)
		}
	}
	replace := false
	if m.kind == "game_over" && m.game != "" && !p.over[m.game] {
		p.over[m.game] = true
		replace = true
	}
	if playing && latency > 0 {
		_ = p.hist.RecordValue(latency.Microseconds()) // beyond an hour: not recorded
	}
	p.mu.Unlock()

	if playing {
		switch {
		case m.nullFrom:
			p.kinds.bounces.Add(1)
		case m.kind == "prompt":
			p.kinds.prompts.Add(1)
		case m.kind == "receipt":
			p.kinds.receipts.Add(1)
		case m.kind == "refusal":
			p.kinds.refusals.Add(1)
			p.refusalTexts.add(fmt.Errorf("refusal to %s: %s", m.to, refusalGist(m.text)))
		case m.kind == "game_over":
			p.kinds.gameOvers.Add(1)
		default:
			p.kinds.other.Add(1)
		}
	}
	switch {
	case m.kind == "prompt" && !m.nullFrom:
		select {
		case p.replies <- replyJob{prompt: m}: // sized for every seat of every game: not full while playing
		case <-p.stopped:
		}
	case replace:
		select {
		case p.replaces <- m.game:
		default: // a replacement queue full: the game is not replaced
		}
	}
}

// replyText is a bot's reply to a prompt: the number of one of its moves,
// above the prompt quoted, as a mail program writes a reply.
func replyText(from, msgID string, prompt sinkMail, choice string) []byte {
	var b strings.Builder
	subject := prompt.subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	fmt.Fprintf(&b, "Authentication-Results: %s; spf=pass smtp.mailfrom=%s; dmarc=pass header.from=%s\r\n", loadAuthservID, botsDomain, botsDomain)
	fmt.Fprintf(&b, "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s>\r\n",
		from, prompt.replyTo, mime.QEncoding.Encode("utf-8", subject), time.Now().Format(time.RFC1123Z), msgID)
	if prompt.messageID != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", prompt.messageID, prompt.messageID)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(choice + "\r\n\r\n")
	for l := range strings.SplitSeq(strings.TrimRight(prompt.text, "\r\n"), "\n") {
		b.WriteString("> " + strings.TrimRight(l, "\r") + "\r\n")
	}
	return []byte(b.String())
}

// inboundSender is a connection to the embedded server's inbound SMTP
// port, kept open from mail to mail as a relay keeps its connections.
type inboundSender struct {
	addr string
	c    *smtp.Client
	conn net.Conn
}

// send hands one mail over; mark is called just before its end of DATA.
// A kept connection the server closed meanwhile (its read timeout: a 421,
// or none at all) fails at MAIL FROM, and the mail goes on a new one.
func (s *inboundSender) send(ctx context.Context, from, to string, raw []byte, mark func()) error {
	reused := s.c != nil
	err := s.attempt(ctx, from, to, raw, mark)
	if errors.Is(err, errMailFromOnKept) && reused {
		err = s.attempt(ctx, from, to, raw, mark)
	}
	return err
}

// errMailFromOnKept marks a failure at MAIL FROM, the first command of a
// mail on a connection kept from the one before.
var errMailFromOnKept = errors.New("MAIL FROM failed")

func (s *inboundSender) attempt(ctx context.Context, from, to string, raw []byte, mark func()) error {
	if s.c == nil {
		d := net.Dialer{Timeout: 5 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", s.addr)
		if err != nil {
			return fmt.Errorf("connect to the inbound SMTP port: %w", err)
		}
		c := smtp.NewClient(conn)
		if err := c.Hello("mx.load.test"); err != nil {
			_ = conn.Close()
			return fmt.Errorf("EHLO: %w", err)
		}
		s.c, s.conn = c, conn
	}
	_ = s.conn.SetDeadline(time.Now().Add(30 * time.Second)) // a write or read past it fails, and is reported
	err := func() error {
		if err := s.c.Mail(from, nil); err != nil {
			return fmt.Errorf("MAIL FROM:<%s>: %w: %w", from, errMailFromOnKept, err)
		}
		if err := s.c.Rcpt(to, nil); err != nil {
			return fmt.Errorf("RCPT TO:<%s>: %w", to, err)
		}
		w, err := s.c.Data()
		if err != nil {
			return fmt.Errorf("DATA: %w", err)
		}
		if _, err := w.Write(raw); err != nil {
			return fmt.Errorf("DATA: %w", err)
		}
		mark()
		if err := w.Close(); err != nil {
			return fmt.Errorf("end of DATA: %w", err)
		}
		return nil
	}()
	if err != nil {
		if se, refused := errors.AsType[*smtp.SMTPError](err); refused && se.Code != 421 && !errors.Is(err, errMailFromOnKept) {
			_ = s.c.Reset() // the session goes on after a refusal
		} else {
			s.close()
		}
	}
	return err
}

func (s *inboundSender) close() {
	if s.c != nil {
		_ = s.c.Close() // the connection is given up
		s.c, s.conn = nil, nil
	}
}

// replier answers prompts from the queue until ctx ends: a random
// numbered move, through its own connection to the inbound SMTP port.
func (p *mailPlay) replier(ctx context.Context, pick *mrand.Rand, run string, n int) {
	sender := &inboundSender{addr: p.inbound}
	defer sender.close()
	for seq := 0; ; seq++ {
		var job replyJob
		select {
		case <-ctx.Done():
			return
		case job = <-p.replies:
		}
		if p.limiter != nil && p.limiter.Wait(ctx) != nil {
			return
		}
		m := job.prompt
		moves := choices(m.text)
		if len(moves) == 0 || m.replyTo == "" {
			p.otherErrs.add(fmt.Errorf("prompt %s to %s: no numbered move or no Reply-To", m.messageID, m.to))
			continue
		}
		choice := moves[botChoice(pick, len(moves))].reply(pick)
		msgID := fmt.Sprintf("r.%s.%d.%d@%s", run, n, seq, botsDomain)
		raw := replyText(m.to, msgID, m, choice)
		err := sender.send(ctx, m.to, m.replyTo, raw, func() {
			p.mu.Lock()
			p.sent[m.game] = time.Now()
			p.mu.Unlock()
		})
		if err != nil {
			p.mu.Lock()
			delete(p.sent, m.game)
			p.mu.Unlock()
			if ctx.Err() == nil {
				p.smtpErrors.add(fmt.Errorf("reply to %s for %s: %w", m.messageID, m.to, err))
			}
			continue
		}
		p.repliesOK.Add(1)
	}
}

// newMailPlay is the state of a `-mail` run of o.
func newMailPlay(o loadOptions) *mailPlay {
	p := &mailPlay{
		o:         o,
		replies:   make(chan replyJob, 4*o.games*o.seats+64),
		replaces:  make(chan string, o.games+64),
		stopped:   make(chan struct{}),
		signIns:   newSignInBox(),
		sent:      map[string]time.Time{},
		over:      map[string]bool{},
		owner:     map[string]int{},
		hist:      newLatencyHistogram(),
		replaceMu: make([]sync.Mutex, o.clients),
	}
	if o.rate > 0 {
		p.limiter = rate.NewLimiter(rate.Limit(o.rate), 1)
	}
	return p
}

// mailResult is what a `-mail` run measured.
type mailResult struct {
	setup, elapsed time.Duration
	// drain is how long the set-up's mail took to go out before the games
	// were timed, drainFirst the backlog then, drained false when it had
	// not gone out in the time allowed.
	drain                                                  time.Duration
	drainFirst                                             int64
	drained                                                bool
	moves                                                  int64 // receipts at the sink: moves the server applied and answered
	replies                                                int64 // replies the inbound SMTP port took
	mails                                                  int64 // mails at the sink during the games
	prompts, receipts, refusals, gameOvers, bounces, other int64
	unreadable                                             int64
	replaced                                               int64
	hist                                                   *hdrhistogram.Histogram // µs from a reply's end of DATA to the game's next prompt at the sink
	smtpErrors                                             int64
	otherErrors                                            int64
	firstErrors                                            []string
}

// playMail signs the bots in by mail, starts the games over the API (as
// the HTTP load does), then lets the bots play by mail for the duration:
// every prompt at the sink is answered through the inbound SMTP port, a
// finished game replaced by a new one. began is called when the games
// begin to be timed.
func (p *mailPlay) play(ctx context.Context, base string, stdout io.Writer, began func()) (mailResult, error) {
	o := p.o
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.clients}}
	defer httpc.CloseIdleConnections()
	api, err := newAPIClient(base, httpc)
	if err != nil {
		return mailResult{}, err
	}
	run := randomHex(3)
	setupStart := time.Now()
	clients, err := setUpClients(ctx, o, stdout, "signing in by mail, starting games", func(c, s int) (*bot, error) {
		return p.signIns.signIn(ctx, api, fmt.Sprintf("load-%s-%d-%d@%s", run, c, s, botsDomain))
	})
	if err != nil {
		return mailResult{}, err
	}
	p.mu.Lock()
	for c, lc := range clients {
		for _, m := range lc.matches {
			p.owner[m.id] = c
		}
	}
	p.mu.Unlock()
	res := mailResult{setup: time.Since(setupStart)}
	// The set-up's burst of mail (a sign-in link a bot, invitations, the
	// first prompts) is delivered before the games are timed, so that the
	// run measures the games' own pace; the first prompts wait at the
	// sink meanwhile and are answered first.
	if p.backlogURL != "" {
		limit := max(time.Minute, o.duration)
		waited, first, drained, err := waitMailDrained(ctx, p.backlogURL, 100*time.Millisecond, limit)
		if err != nil {
			return mailResult{}, err
		}
		res.drain, res.drainFirst, res.drained = waited, first, drained
	}

	var wg sync.WaitGroup
	playCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	p.mu.Lock()
	p.playing = true
	p.mu.Unlock()
	start := time.Now()
	began()
	bar := newLoadBar(stdout, o.duration.Milliseconds(), "playing by mail")
	var replaced atomic.Int64
	wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-playCtx.Done():
				return
			case <-tick.C:
				el := time.Since(start)
				n := p.kinds.receipts.Load()
				bar.Describe(fmt.Sprintf("%d moves by mail, %.0f/s", n, float64(n)/el.Seconds()))
				_ = bar.Set64(el.Milliseconds()) // a bar that cannot draw changes nothing
			}
		}
	})
	for c := range o.clients {
		wg.Go(func() {
			p.replier(playCtx, mrand.New(mrand.NewPCG(uint64(c), 7)), run, c) //nolint:gosec // G115: c ≥ 0; G404: bots are not games
		})
		// The games over are replaced by the client that owns them; each
		// client's rand is its own goroutine's.
		wg.Go(func() {
			for {
				var game string
				select {
				case <-playCtx.Done():
					return
				case game = <-p.replaces:
				}
				p.mu.Lock()
				owner, ok := p.owner[game]
				p.mu.Unlock()
				if !ok {
					continue
				}
				p.replaceMu[owner].Lock()
				m, err := startMatch(playCtx, o.game, clients[owner].bots, clients[owner].pick)
				p.replaceMu[owner].Unlock()
				if err != nil {
					if playCtx.Err() == nil {
						p.otherErrs.add(fmt.Errorf("replace finished game %s: %w", game, err))
					}
					continue
				}
				p.mu.Lock()
				p.owner[m.id] = owner
				p.mu.Unlock()
				replaced.Add(1)
			}
		})
	}
	<-playCtx.Done()
	p.mu.Lock()
	p.playing = false
	p.mu.Unlock()
	res.elapsed = time.Since(start)
	close(p.stopped)
	wg.Wait()
	_ = bar.Finish() // a bar that cannot draw changes nothing

	p.mu.Lock()
	res.hist = newLatencyHistogram()
	res.hist.Merge(p.hist)
	p.mu.Unlock()
	k := &p.kinds
	res.prompts, res.receipts, res.refusals = k.prompts.Load(), k.receipts.Load(), k.refusals.Load()
	res.gameOvers, res.bounces, res.other = k.gameOvers.Load(), k.bounces.Load(), k.other.Load()
	res.mails, res.moves, res.replies, res.replaced = k.total(), res.receipts, p.repliesOK.Load(), replaced.Load()
	res.unreadable = p.sink.unreadable.Load()
	p.smtpErrors.mu.Lock()
	res.smtpErrors = p.smtpErrors.n
	res.firstErrors = append(res.firstErrors, p.smtpErrors.first...)
	p.smtpErrors.mu.Unlock()
	p.refusalTexts.mu.Lock()
	res.firstErrors = append(res.firstErrors, p.refusalTexts.first...)
	p.refusalTexts.mu.Unlock()
	p.otherErrs.mu.Lock()
	res.otherErrors = p.otherErrs.n
	res.firstErrors = append(res.firstErrors, p.otherErrs.first...)
	p.otherErrs.mu.Unlock()
	return res, nil
}

// The goals of a `-mail` run (issue 34): at half the peak, a reply's next
// prompt at the relay within a second at the median and five at the p99.
const (
	mailGoalP50 = time.Second
	mailGoalP99 = 5 * time.Second
)

// reportMail plays the games by mail and prints what it measured; the
// error says why the run fails.
func reportMail(ctx context.Context, p *mailPlay, base string, insertsPerSec float64, stdout io.Writer, began func()) error {
	o := p.o
	res, err := p.play(ctx, base, stdout, began)
	if err != nil {
		return err
	}
	secs := res.elapsed.Seconds()
	movesPerSec, mailsPerSec := float64(res.moves)/secs, float64(res.mails)/secs
	_, _ = fmt.Fprintf(stdout, "set-up: %d players signed in by mail (their links read at the relay sink) and %d games started in %v\n",
		o.clients*o.seats, o.games, res.setup.Round(time.Millisecond))
	if res.drained {
		_, _ = fmt.Fprintf(stdout, "set-up's mail: %d mail jobs waiting after the set-up went out in %v, before the games were timed\n",
			res.drainFirst, res.drain.Round(time.Millisecond))
	} else if p.backlogURL != "" {
		_, _ = fmt.Fprintf(stdout, "set-up's mail: %d mail jobs waiting after the set-up had not all gone out after %v: the games were timed anyway\n",
			res.drainFirst, res.drain.Round(time.Millisecond))
	}
	_, _ = fmt.Fprintf(stdout, "moves: %d in %v: %.0f moves/s (receipts at the relay sink); %d replies taken by the inbound SMTP port; %d games finished and replaced\n",
		res.moves, res.elapsed.Round(time.Millisecond), movesPerSec, res.replies, res.replaced)
	_, _ = fmt.Fprintf(stdout, "mails at the relay sink: %d: %.0f mails/s (%d prompts, %d receipts, %d refusals, %d game-overs, %d bounces, %d other)\n",
		res.mails, mailsPerSec, res.prompts, res.receipts, res.refusals, res.gameOvers, res.bounces, res.other)
	_, _ = fmt.Fprintf(stdout, "reply → next prompt at the relay: %s (%d replies followed by a prompt)\n",
		secondsPercentiles(res.hist), res.hist.TotalCount())
	errs := res.smtpErrors + res.otherErrors + res.refusals + res.bounces + res.unreadable
	_, _ = fmt.Fprintf(stdout, "errors: %d (%d replies refused or failed at the inbound SMTP port, %d moves refused by mail, %d bounces, %d unreadable mails, %d other)\n",
		errs, res.smtpErrors, res.refusals, res.bounces, res.unreadable, res.otherErrors)
	for _, e := range res.firstErrors {
		_, _ = fmt.Fprintln(stdout, "  error:", e)
	}
	if insertsPerSec > 0 {
		_, _ = fmt.Fprintf(stdout, "ratio: %.2f (%.0f moves/s by mail ÷ %.0f inserts/s); mails/s ÷ moves/s: %.2f\n",
			movesPerSec/insertsPerSec, movesPerSec, insertsPerSec, mailsPerSec/max(movesPerSec, 1e-9))
	}
	p50 := time.Duration(res.hist.ValueAtQuantile(50)) * time.Microsecond
	p99 := time.Duration(res.hist.ValueAtQuantile(99)) * time.Microsecond
	_, _ = fmt.Fprintln(stdout, "verdict:", mailVerdict(o.rate, float64(res.replies)/secs, p50, p99))
	switch {
	case res.moves == 0:
		return errors.New("load: no move was played by mail")
	case errs > 0:
		return fmt.Errorf("load: %d errors by mail (the first are printed above)", errs)
	}
	return nil
}

// mailVerdict judges a `-mail` run against the latency goal, which is set
// at half the peak: at full speed (asked 0) it says which -rate to run;
// at an asked rate of replies it judges p50 and p99.
func mailVerdict(asked, repliesPerSec float64, p50, p99 time.Duration) string {
	s := func(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }
	if asked == 0 {
		return fmt.Sprintf("reply → prompt p50 %s, p99 %s at full speed: run again with -rate %.0f (half this peak) to judge the goal of p50 ≤ %s and p99 ≤ %s",
			s(p50), s(p99), math.Max(1, math.Round(repliesPerSec/2)), s(mailGoalP50), s(mailGoalP99))
	}
	met := "meets"
	if p50 > mailGoalP50 || p99 > mailGoalP99 {
		met = "misses"
	}
	v := fmt.Sprintf("reply → prompt p50 %s, p99 %s at %.0f replies/s asked %s the goal of p50 ≤ %s and p99 ≤ %s at half the peak",
		s(p50), s(p99), asked, met, s(mailGoalP50), s(mailGoalP99))
	if repliesPerSec < 0.9*asked {
		v += fmt.Sprintf(" (but only %.0f replies/s were sent: the asked rate is above this setup's peak)", repliesPerSec)
	}
	return v
}

// secondsPercentiles prints p50/p95/p99 of a histogram of microseconds in
// seconds.
func secondsPercentiles(h *hdrhistogram.Histogram) string {
	s := func(q float64) string { return fmt.Sprintf("%.3f s", float64(h.ValueAtQuantile(q))/1e6) }
	return fmt.Sprintf("p50 %s, p95 %s, p99 %s", s(50), s(95), s(99))
}

// refusalGist is a refusal's text in one line, without its greeting and
// its signature: what it says was wrong.
func refusalGist(text string) string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "-- ") || l == "--" {
			break
		}
		if l != "" && !strings.HasPrefix(l, "##") && !strings.HasPrefix(l, "Hello") {
			out = append(out, l)
		}
	}
	g := strings.Join(out, " ")
	if len(g) > 300 {
		g = g[:300] + "…"
	}
	return g
}

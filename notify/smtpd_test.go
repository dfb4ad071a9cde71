package notify_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/courrier-games/courrier/notify"
)

// Inbound SMTP as a real mail server in front of courrier speaks it: the
// MX (Postfix) relays everyone's mail from one address, in UTF-8 when it
// must, to several recipients at once, with lines of any length.

// utf8Player is a player whose address is not ASCII (RFC 6531): Zoë.
const utf8Player = "zoë@players.test"

// smtpSend sends raw (LF lines) from one SMTP session with go-smtp's client,
// as an MTA does: BODY=8BITMIME when offered, SMTPUTF8 when utf8 is set,
// every recipient in one transaction. It returns the first refusal.
func smtpSend(addr, from string, to []string, raw string, utf8 bool) error {
	c, err := gosmtp.Dial(addr)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }()
	if err := c.Hello("mx.players.test"); err != nil {
		return err
	}
	if err := c.Mail(from, &gosmtp.MailOptions{UTF8: utf8}); err != nil {
		return err
	}
	for _, r := range to {
		if err := c.Rcpt(r, nil); err != nil {
			return err
		}
	}
	wc, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := wc.Write([]byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		return err
	}
	if err := wc.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// smtpCode is the reply code of an SMTP refusal, 0 for none, -1 for
// another error.
func smtpCode(err error) int {
	var se *gosmtp.SMTPError
	var te *textproto.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &se):
		return se.Code
	case errors.As(err, &te):
		return te.Code
	}
	return -1
}

// startByAPI creates a Coyote game over the API by creator inviting the
// others, who join by replying to their invitation (send sends each
// join); it returns the first prompt and who got it.
func startByAPI(t *testing.T, w *world, send func(from, to, raw string), creator string, invitees ...string) (string, message) {
	t.Helper()
	w.inviteByAPI(t, creator, invitees...)
	for _, a := range invitees {
		inv := w.waitKind(a, "invitation", 1)
		send(a, inv.ReplyTo, reply(a, inv, "join "+nameOf(a), "gmail"))
	}
	answered := map[string]bool{}
	return w.nextPrompt(append([]string{creator}, invitees...), answered)
}

// utf8Reply is a reply as a French mail program writes it: raw UTF-8 in
// the From (name and address), the Subject and the 8-bit body.
func utf8Reply(from, name string, m message, body string) string {
	return fmt.Sprintf("From: %s <%s>\nTo: %s\nSubject: Re: à toi\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\n"+
		"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n\nÀ toi, %s ! Ça va ?\n\n%s\n",
		name, from, m.ReplyTo, newMessageID(), m.MessageID, body, name, quote(m, "french"))
}

// SMTPUTF8 and 8BITMIME are offered and honoured: a join and moves in
// mail with a UTF-8 sender address, a raw UTF-8 subject and an 8-bit body
// are played; none costs a move.
func TestUTF8MailIsPlayed(t *testing.T) {
	w := newWorld(t, 21)
	c, err := gosmtp.Dial(w.inbound)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("mx.players.test"); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"SMTPUTF8", "8BITMIME"} {
		if ok, _ := c.Extension(ext); !ok {
			t.Errorf("EHLO does not offer %s", ext)
		}
	}
	_ = c.Close()

	sendUTF8 := func(from, to, raw string) {
		t.Helper()
		if err := smtpSend(w.inbound, from, []string{to}, raw, true); err != nil {
			t.Fatalf("send from %s with SMTPUTF8: %v", from, err)
		}
	}
	ana, bob := players[0], players[1]
	addrs := []string{ana, utf8Player, bob}
	joinUTF8 := func(from, to, raw string) {
		if from == utf8Player {
			raw = strings.Replace(raw, "From: "+utf8Player, "From: Zoë <"+utf8Player+">", 1)
		}
		sendUTF8(from, to, raw)
	}
	who, prompt := startByAPI(t, w, joinUTF8, ana, utf8Player, bob)
	var outcome string
	if err := w.pool.QueryRow(t.Context(), `select outcome from inbound_mail where sender = $1`, utf8Player).Scan(&outcome); err != nil || !strings.Contains(outcome, "joined") {
		t.Fatalf("Zoë's join: %q, %v\n%s", outcome, err, w.trace())
	}

	// Every player moves once in raw UTF-8 mail (Zoë from her UTF-8
	// address), in turn as the game asks.
	moved := map[string]bool{}
	answered := map[string]bool{}
	for i := 0; len(moved) < len(addrs); i++ {
		if i > 0 {
			who, prompt = w.nextPrompt(addrs, answered)
		}
		answered[prompt.MessageID] = true
		game := gameIDOf(prompt.Subject)
		events := w.countEvents(game)
		move := choose(t, nil, numbered(prompt.Text))
		sendUTF8(who, prompt.ReplyTo, utf8Reply(who, nameOf(who), prompt, move))
		if out := w.inboundDone(); !strings.Contains(out, "played 1 line(s)") {
			t.Fatalf("%s's move %q in UTF-8 mail: %q\n%s", who, move, out, w.trace())
		}
		if n := w.countEvents(game); n <= events {
			t.Fatalf("%s's move wrote no event", who)
		}
		moved[who] = true
		if i > 10 {
			t.Fatalf("only %v moved after %d prompts", moved, i)
		}
	}
	if got := w.waitKind(utf8Player, "receipt", 1); got.To[0] != utf8Player {
		t.Fatalf("Zoë's receipt went to %v", got.To)
	}
}

// A trusted relay (this machine's own address, the default) brings
// everyone's mail from one address: a burst of it is all taken, where a
// stranger at that address is held to its connections a minute.
func TestTrustedRelayBurstIsTaken(t *testing.T) {
	const burst = 50
	none, err := notify.ParseTrustedRelays("none")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		trusted *notify.TrustedRelays // nil: the default, this machine
		refused int                   // connections answered 421
	}{
		{"from a trusted relay on this machine, none is deferred", nil, 0},
		{"from a stranger, past 30 connections a minute", none, burst - notify.DefaultConnectionsPerMinute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 22, func(c *notify.Config) { c.Inbound.Trusted = tc.trusted })
			// 50 replies of one player to one reply address, each on its
			// own connection, all at once: the worst case for the limits
			// per sender and per reply address, whose defaults take it.
			to := "m+" + w.signer.Sign(notify.Token{Kind: notify.TokenMove, Game: "g1", Seat: 0, Version: 3, Expires: time.Now().Add(time.Hour)}) + "@" + domain
			from := players[0]
			var wg sync.WaitGroup
			codes := make([]int, burst)
			start := time.Now()
			for i := range burst {
				wg.Go(func() {
					raw := fmt.Sprintf("From: %s\nTo: %s\nSubject: Re: your move\nMessage-ID: <%s>\n\nbid %d\n", from, to, newMessageID(), i+1)
					codes[i] = smtpCode(smtpSend(w.inbound, from, []string{to}, raw, false))
				})
			}
			wg.Wait()
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the burst took %v", took)
			}
			refused := 0
			for i, c := range codes {
				switch c {
				case 0:
				case 421:
					refused++
				default:
					t.Errorf("mail %d: answered %d", i, c)
				}
			}
			var stored int
			if err := w.pool.QueryRow(t.Context(), `select count(*) from inbound_mail`).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if refused != tc.refused || stored != burst-tc.refused {
				t.Fatalf("%d of %d mails deferred with 421 and %d stored; want %d deferred", refused, burst, stored, tc.refused)
			}
		})
	}
}

// Through a trusted relay, mail is limited per envelope sender and per
// reply address; a transaction without a message (an MTA's recipient
// verification probe, RSET) costs nothing; every limit can be turned off.
func TestSenderAndReplyAddressLimits(t *testing.T) {
	for _, tc := range []struct {
		name     string
		limits   notify.InboundLimits
		probes   int                // MAIL, RCPT, RSET first, from the one sender
		senders  func(i int) string // the envelope sender of mail i
		sameRcpt bool               // all to one reply address, else each to its own
		mails    int
		want     int // mails taken; the others answered 450 4.7.1
	}{
		{"one sender past its limit", notify.InboundLimits{MailsPerSender: 3}, 0, oneSender, false, 5, 3},
		{"one reply address past its limit", notify.InboundLimits{MailsPerReplyAddress: 3}, 0, manySenders, true, 5, 3},
		{"probes without a message cost nothing", notify.InboundLimits{MailsPerSender: 3, MailsPerReplyAddress: 3}, 6, oneSender, true, 3, 3},
		{"limits off", notify.InboundLimits{MailsPerSender: -1, MailsPerReplyAddress: -1}, 0, oneSender, true, 80, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 23, func(c *notify.Config) { c.Inbound = tc.limits })
			rcpt := func(i int) string {
				if tc.sameRcpt {
					i = 0
				}
				return "m+" + w.signer.Sign(notify.Token{Kind: notify.TokenMove, Game: fmt.Sprintf("g%d", i), Seat: 0, Version: 3, Expires: time.Now().Add(time.Hour)}) + "@" + domain
			}
			if tc.probes > 0 {
				c, err := gosmtp.Dial(w.inbound)
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = c.Close() }()
				for range tc.probes {
					if err := c.Mail(tc.senders(0), nil); err != nil {
						t.Fatalf("probe: %v", err)
					}
					if err := c.Rcpt(rcpt(0), nil); err != nil {
						t.Fatalf("probe: %v", err)
					}
					if err := c.Reset(); err != nil {
						t.Fatal(err)
					}
				}
				_ = c.Quit()
			}
			taken := 0
			for i := range tc.mails {
				from := tc.senders(i)
				raw := fmt.Sprintf("From: %s\nSubject: Re: your move\nMessage-ID: <%s>\n\nbid 3\n", from, newMessageID())
				err := smtpSend(w.inbound, from, []string{rcpt(i)}, raw, false)
				var se *gosmtp.SMTPError
				switch {
				case err == nil:
					taken++
				case errors.As(err, &se) && se.Code == 450 && se.EnhancedCode == gosmtp.EnhancedCode{4, 7, 1}:
				default:
					t.Fatalf("mail %d: %v", i, err)
				}
			}
			if taken != tc.want {
				t.Fatalf("%d of %d mails taken, want %d", taken, tc.mails, tc.want)
			}
		})
	}
}

func oneSender(int) string     { return players[0] }
func manySenders(i int) string { return fmt.Sprintf("p%d@players.test", i) }

// rawSMTP is an SMTP conversation line by line, for what a client library
// would not send.
type rawSMTP struct {
	t *testing.T
	c *textproto.Conn
}

func dialRaw(t *testing.T, addr string) *rawSMTP {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(t.Context(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	r := &rawSMTP{t: t, c: textproto.NewConn(conn)}
	t.Cleanup(func() { _ = r.c.Close() })
	if code, msg := r.read(); code != 220 {
		t.Fatalf("greeting %d %s", code, msg)
	}
	return r
}

// read reads one reply; a broken connection fails the test.
func (r *rawSMTP) read() (int, string) {
	r.t.Helper()
	code, msg, err := r.c.ReadResponse(0)
	if err != nil {
		r.t.Fatalf("reading a reply: %v", err)
	}
	return code, msg
}

// cmd sends a command line and reads its reply.
func (r *rawSMTP) cmd(line string) (int, string) {
	r.t.Helper()
	if err := r.c.PrintfLine("%s", line); err != nil {
		r.t.Fatalf("send %.40q: %v", line, err)
	}
	return r.read()
}

// data sends a message after a 354 to DATA and reads the final reply.
func (r *rawSMTP) data(raw string) (int, string) {
	r.t.Helper()
	if code, msg := r.cmd("DATA"); code != 354 {
		r.t.Fatalf("DATA: %d %s", code, msg)
	}
	dw := r.c.DotWriter()
	if _, err := dw.Write([]byte(raw)); err != nil {
		r.t.Fatal(err)
	}
	if err := dw.Close(); err != nil {
		r.t.Fatal(err)
	}
	return r.read()
}

// The server answers what RFC 5321 says: RCPTMAX as it is (and takes that
// many recipients), 503 for commands out of sequence, and long lines are
// taken, the session going on.
func TestInboundProtocol(t *testing.T) {
	w := newWorld(t, 24)
	reply := func(game string) string {
		return "m+" + w.signer.Sign(notify.Token{Kind: notify.TokenMove, Game: game, Seat: 0, Version: 3, Expires: time.Now().Add(time.Hour)}) + "@" + domain
	}
	long := strings.Repeat("x", 10000)
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, r *rawSMTP)
	}{
		{"EHLO's RCPTMAX is what RCPT takes", func(t *testing.T, r *rawSMTP) {
			code, ehlo := r.cmd("EHLO mx.players.test")
			if code != 250 || !strings.Contains(ehlo, "LIMITS RCPTMAX=10") {
				t.Fatalf("EHLO: %d %s", code, ehlo)
			}
			r.cmd("MAIL FROM:<ana@players.test>")
			for i := range 10 {
				if code, msg := r.cmd("RCPT TO:<" + reply(fmt.Sprint("g", i)) + ">"); code != 250 {
					t.Fatalf("recipient %d of RCPTMAX=10: %d %s", i+1, code, msg)
				}
			}
			if code, msg := r.cmd("RCPT TO:<play@" + domain + ">"); code != 452 {
				t.Fatalf("recipient 11 of RCPTMAX=10: %d %s, want 452", code, msg)
			}
		}},
		{"DATA after every RCPT was refused is 503", func(t *testing.T, r *rawSMTP) {
			r.cmd("EHLO mx.players.test")
			r.cmd("MAIL FROM:<ana@players.test>")
			if code, _ := r.cmd("RCPT TO:<nobody@" + domain + ">"); code != 550 {
				t.Fatalf("RCPT to nobody: %d", code)
			}
			if code, msg := r.cmd("DATA"); code != 503 || !strings.HasPrefix(msg, "5.5.1 ") {
				t.Fatalf("DATA with no recipient: %d %s, want 503 5.5.1", code, msg)
			}
		}},
		{"RCPT before MAIL is 503", func(t *testing.T, r *rawSMTP) {
			r.cmd("EHLO mx.players.test")
			if code, msg := r.cmd("RCPT TO:<play@" + domain + ">"); code != 503 {
				t.Fatalf("RCPT before MAIL: %d %s, want 503", code, msg)
			}
		}},
		{"a 10,000-character line in a message is taken", func(t *testing.T, r *rawSMTP) {
			r.cmd("EHLO mx.players.test")
			r.cmd("MAIL FROM:<ana@players.test>")
			r.cmd("RCPT TO:<play@" + domain + ">")
			id := newMessageID()
			code, msg := r.data("From: ana@players.test\r\nMessage-ID: <" + id + ">\r\nContent-Type: text/html\r\n\r\n<p>games</p>" + long + "\r\n")
			if code != 250 {
				t.Fatalf("a message with a 10,000-character line: %d %s", code, msg)
			}
			var raw []byte
			if err := w.pool.QueryRow(t.Context(), `select raw from inbound_mail where message_id = $1`, id).Scan(&raw); err != nil || !strings.Contains(string(raw), long) {
				t.Fatalf("stored %d bytes, %v", len(raw), err)
			}
			if code, _ := r.cmd("NOOP"); code != 250 {
				t.Fatalf("NOOP after it: %d", code)
			}
		}},
		{"a 10,000-character command gets an answer, and the session goes on", func(t *testing.T, r *rawSMTP) {
			r.cmd("EHLO mx.players.test")
			r.cmd("MAIL FROM:<ana@players.test>")
			if code, msg := r.cmd("RCPT TO:<" + long + "@" + domain + ">"); code != 550 {
				t.Fatalf("a 10,000-character RCPT: %d %s, want 550", code, msg)
			}
			if code, _ := r.cmd("NOOP"); code != 250 {
				t.Fatalf("NOOP after it: %d", code)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, dialRaw(t, w.inbound)) })
	}
}

// A message to the service address and a reply address at once (one
// transaction, as an MTA sends it) is taken whole and processed once, as
// the reply: the move is played and the lobby answers nothing.
func TestSeveralRecipientsAreProcessedOnce(t *testing.T) {
	w := newWorld(t, 25)
	addrs := players[:3]
	who, prompt := startByAPI(t, w, w.mustSend, addrs[0], addrs[1:]...)
	move := choose(t, nil, numbered(prompt.Text))
	raw := reply(who, prompt, move, "gmail")
	raw = strings.Replace(raw, "To: "+prompt.ReplyTo, "To: "+prompt.ReplyTo+", play@"+domain, 1)
	had := len(w.mailTo(who))
	if err := smtpSend(w.inbound, who, []string{"play@" + domain, prompt.ReplyTo}, raw, false); err != nil {
		t.Fatalf("a mail to the service address and a reply address: %v", err)
	}
	if out := w.inboundDone(); !strings.Contains(out, "played 1 line(s)") {
		t.Fatalf("outcome %q\n%s", out, w.trace())
	}
	id := messageIDRe.FindStringSubmatch(raw)[1]
	var n int
	var rcpt string
	if err := w.pool.QueryRow(context.Background(), `select count(*), coalesce(max(rcpt), '') from inbound_mail where message_id = $1`, id).Scan(&n, &rcpt); err != nil {
		t.Fatal(err)
	}
	if n != 1 || !strings.EqualFold(rcpt, prompt.ReplyTo) {
		t.Fatalf("processed %d times, for %s", n, rcpt)
	}
	w.waitKind(who, "receipt", 1)
	time.Sleep(500 * time.Millisecond)
	for _, m := range w.mailTo(who)[had:] {
		if m.Kind != "receipt" && m.Kind != "prompt" {
			t.Fatalf("%s also got a %s: %s", who, m.Kind, m.Subject)
		}
	}
}

var messageIDRe = regexp.MustCompile(`(?m)^Message-ID: <([^>]+)>`)

// A reply whose lines are split by a bare CR is two lines: the first is
// played, the second refused, and the record and the receipt say so.
func TestBareCRReplyIsReportedAsPlayed(t *testing.T) {
	w := newWorld(t, 26)
	addrs := players[:3]
	who, prompt := startByAPI(t, w, w.mustSend, addrs[0], addrs[1:]...)
	move := choose(t, nil, numbered(prompt.Text))
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, move+"\rcoyote", "gmail"))
	out := w.inboundDone()
	if !strings.Contains(out, "played 1 of 2 line(s)") || !strings.Contains(out, `line 2 "coyote"`) {
		t.Fatalf("outcome %q, want 1 of 2 lines played and line 2 refused\n%s", out, w.trace())
	}
	rec := w.waitKind(who, "receipt", 1)
	if !strings.Contains(rec.Subject, "one line not played") || !strings.Contains(rec.Text, `Line 2 "coyote"`) {
		t.Fatalf("the receipt does not say line 2 was not played: %s\n%s", rec.Subject, rec.Text)
	}
}

// Trusted relays are this machine's own addresses by default, those the
// operator lists, or none.
func TestTrustedRelays(t *testing.T) {
	own, mine := "", map[string]bool{}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				mine[n.IP.String()] = true
				if own == "" && !n.IP.IsLoopback() && n.IP.To4() != nil {
					own = n.IP.String()
				}
			}
		}
	}
	for _, tc := range []struct {
		setting  string
		trusted  []string
		stranger []string
	}{
		{"", []string{"127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1", own}, []string{"192.0.2.1", "2001:db8::1", "", "mx.example.org"}},
		{"local", []string{"127.0.0.1", own}, []string{"192.0.2.1"}},
		{"none", nil, []string{"127.0.0.1", "::1", own, "192.0.2.1"}},
		{"192.0.2.0/24, 2001:db8::1", []string{"192.0.2.77", "::ffff:192.0.2.77", "2001:db8::1"}, []string{"127.0.0.1", "192.0.3.1", "2001:db8::2"}},
		{"local,198.51.100.7", []string{"::1", "198.51.100.7"}, []string{"198.51.100.8"}},
	} {
		tr, err := notify.ParseTrustedRelays(tc.setting)
		if err != nil {
			t.Fatalf("%q: %v", tc.setting, err)
		}
		for _, ip := range tc.trusted {
			if ip != "" && !tr.Contains(ip) {
				t.Errorf("%q (%s) does not trust %s", tc.setting, tr, ip)
			}
		}
		for _, ip := range tc.stranger {
			if mine[ip] && tc.setting != "none" {
				continue // this machine's, in the test networks
			}
			if ip != "" && tr.Contains(ip) {
				t.Errorf("%q (%s) trusts %s", tc.setting, tr, ip)
			}
		}
	}
	for _, bad := range []string{"mx.example.org", "10.0.0.0/33", "fe80::1%eth0", "local, 300.1.1.1"} {
		if _, err := notify.ParseTrustedRelays(bad); err == nil {
			t.Errorf("%q is taken as trusted relays", bad)
		}
	}
}

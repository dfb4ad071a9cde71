package notify

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Inbound limits: what courrier's SMTP server takes from whom. A stranger
// connecting from the Internet is limited by its address; the relays that
// hand courrier its mail (the MX in front of it, usually this machine's
// own Postfix) bring everyone's mail from one address, so they are not:
// mail through them is limited per envelope sender and per reply address,
// which bound any one sender whoever relays it.

// Default inbound limits (InboundLimits' and Config's zero values). A
// brisk game between friends meets none of them. In a whole Coupage game
// whose players each answer within 3 seconds (TestBriskCoupageMeetsNoLimit),
// a player sends 61 mails (four players) to 76 (three) in 11 minutes: at
// that pace, kept up for an hour, some 330 to 420 mails an hour, at most
// 20 in a minute (a player moving several times in a row), each to its own
// reply address.
const (
	// DefaultMailsPerHour bounds the mails read from one From address in
	// an hour (Config.RepliesPerHour): the fastest play kept up for an
	// hour, with half as much again to spare.
	DefaultMailsPerHour = 600
	// DefaultRefusalsPerHour bounds the refusals one sender gets about one
	// game in an hour (Config.RefusalsPerHour): enough for every slip of a
	// game, few enough that two mail programs answering each other stop.
	DefaultRefusalsPerHour = 10
	// DefaultReadTimeout bounds the wait for a command, and for a whole
	// message from DATA to its end (InboundLimits.ReadTimeout).
	DefaultReadTimeout = 2 * time.Minute
	// DefaultConnectionsPerMinute bounds the connections one address that
	// is not a trusted relay may open in a minute.
	DefaultConnectionsPerMinute = 30
	// DefaultMailsPerSender bounds the mails one envelope sender may send
	// courrier in a minute, whoever relays them.
	DefaultMailsPerSender = 60
	// DefaultMailsPerReplyAddress bounds the mails to one reply address in
	// a minute.
	DefaultMailsPerReplyAddress = 60
)

// maxRecipients is the RCPT limit of a message, advertised in EHLO as
// LIMITS RCPTMAX (RFC 9422). Mail to courrier names at most a few of its
// addresses (the service address, a reply address); taking several in one
// message spares a relay that sends them together a deferral.
const maxRecipients = 10

// InboundLimits bounds the mail the inbound SMTP server takes (the
// COURRIER_SMTP_* settings). A limit of zero is its default; a negative
// one is no limit. Past a limit the sending server is told to try again
// later (4xx): nothing is lost.
type InboundLimits struct {
	// Trusted are the relays whose connections are not limited by address
	// (COURRIER_SMTP_TRUSTED); nil: this machine's own addresses.
	Trusted *TrustedRelays
	// ConnectionsPerMinute bounds the connections one address that is not
	// trusted may open in a minute (default 30).
	ConnectionsPerMinute int
	// MailsPerSender bounds the mails one envelope sender (MAIL FROM) may
	// send in a minute, through a trusted relay or not (default 60).
	MailsPerSender int
	// MailsPerReplyAddress bounds the mails to one reply address (m+…,
	// i+…, c+…) in a minute (default 60).
	MailsPerReplyAddress int
	// ReadTimeout bounds the wait for a client's next command and for a
	// whole message, from DATA to its final dot (default 2 minutes); past
	// it the client is told 421 and the connection closed.
	ReadTimeout time.Duration
}

// withDefaults fills the zero limits with their defaults.
func (l InboundLimits) withDefaults() InboundLimits {
	if l.Trusted == nil {
		l.Trusted = &TrustedRelays{local: true}
	}
	if l.ConnectionsPerMinute == 0 {
		l.ConnectionsPerMinute = DefaultConnectionsPerMinute
	}
	if l.MailsPerSender == 0 {
		l.MailsPerSender = DefaultMailsPerSender
	}
	if l.MailsPerReplyAddress == 0 {
		l.MailsPerReplyAddress = DefaultMailsPerReplyAddress
	}
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = DefaultReadTimeout
	}
	return l
}

// What a limit says, in one place: every limit, when met, says which it
// is and until when, once (an SMTP reply to the sending server, or one
// mail to a sender whose mail passed the identity check).

// clockText is a time of day in UTC for a limit's SMTP answer (read by the
// sending server and put in its bounce, in English), rounded up to
// the second (a minute's limits) or to the minute (an hour's), so that it
// is never early.
func clockText(t time.Time, to time.Duration) string {
	t = roundUp(t, to)
	if to >= time.Minute {
		return t.Format("15:04 UTC")
	}
	return t.Format("15:04:05 UTC")
}

// roundUp is t in UTC rounded up to a multiple of to.
func roundUp(t time.Time, to time.Duration) time.Time {
	t = t.UTC()
	if r := t.Truncate(to); !r.Equal(t) {
		t = r.Add(to)
	}
	return t
}

// connectionLimitReply answers a connection past the connection limit.
func connectionLimitReply(limit int, remote string, until time.Time) *smtp.SMTPError {
	return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: fmt.Sprintf(
		"courrier takes %s a minute from one address, and had them from %s; connect again from %s",
		howMany(limit, "connection"), remote, clockText(until, time.Second))}
}

// senderLimitReply answers a MAIL past the sender's limit.
func senderLimitReply(limit int, from string, until time.Time) *smtp.SMTPError {
	return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: fmt.Sprintf(
		"courrier takes %s a minute from one sender, and had them from <%s>; send again from %s",
		howMany(limit, "mail"), from, clockText(until, time.Second))}
}

// replyLimitReply answers a RCPT past the reply address's limit.
func replyLimitReply(limit int, until time.Time) *smtp.SMTPError {
	return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: fmt.Sprintf(
		"courrier takes %s a minute at one reply address, and had them at this one; send again from %s",
		howMany(limit, "mail"), clockText(until, time.Second))}
}

// dataTimeoutReply answers a message whose end did not come in time: the
// connection is closed after it (see sequenceConn).
func dataTimeoutReply(timeout time.Duration) *smtp.SMTPError {
	return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: fmt.Sprintf(
		"courrier waits %s for a whole message, and this one did not end (a line with a single dot); closing the connection", timeout)}
}

// refusalLimitWords ends the last refusal a sender gets within the hour
// (about a game, when inGame), in sp's language.
func (sp speaker) refusalLimitWords(limit int, inGame bool, until time.Time) string {
	key := "limit.refusals"
	if inGame {
		key = "limit.refusals_game"
	}
	return sp.t(key, sp.ordinal(limit), limit, sp.clock(roundUp(until, time.Minute)))
}

// hourlyLimitNotice tells a sender, in sp's language, that their mail is
// set aside unread.
func (sp speaker) hourlyLimitNotice(sent int, until time.Time) NoticeData {
	at := sp.clock(roundUp(until, time.Minute))
	return NoticeData{
		Lang:    sp.lang(),
		Subject: sp.subject("limit.hourly_subject", at),
		Paragraphs: []string{
			sp.t("limit.hourly", sp.t("limit.mails", sent), at),
			sp.t("limit.hourly_unread", at),
			sp.t("limit.hourly_once"),
		},
	}
}

// howMany is n things: "1 mail", "60 mails".
func howMany(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// TrustedRelays is a set of addresses that relay mail to courrier: this
// machine's own (loopback and its interfaces' addresses) and networks the
// operator names. The zero value trusts nothing.
type TrustedRelays struct {
	local bool
	nets  []netip.Prefix

	mu      sync.Mutex
	own     []netip.Addr // this machine's interface addresses
	ownRead time.Time    // when own was read
}

// ParseTrustedRelays reads COURRIER_SMTP_TRUSTED: a comma-separated list
// of IP addresses, networks in CIDR notation and the word "local" (this
// machine's own addresses); "none" trusts nothing; empty is "local".
func ParseTrustedRelays(s string) (*TrustedRelays, error) {
	t := &TrustedRelays{}
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		t.local = true
		return t, nil
	case strings.EqualFold(s, "none"):
		return t, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case strings.EqualFold(item, "local"):
			t.local = true
		case strings.Contains(item, "/"):
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return nil, fmt.Errorf("trusted relay %q: not a network (such as 10.0.0.0/8 or 2001:db8::/32): %w", item, err)
			}
			t.nets = append(t.nets, p.Masked())
		default:
			a, err := netip.ParseAddr(item)
			if err != nil || a.Zone() != "" {
				return nil, fmt.Errorf("trusted relay %q: give IP addresses, networks (10.0.0.0/8), local (this machine's own addresses) or none", item)
			}
			a = a.Unmap()
			t.nets = append(t.nets, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return t, nil
}

// String lists what is trusted, for the log: "local, 192.0.2.0/24", or
// "none".
func (t *TrustedRelays) String() string {
	var out []string
	if t.local {
		out = append(out, "local")
	}
	for _, p := range t.nets {
		if p.IsSingleIP() {
			out = append(out, p.Addr().String())
		} else {
			out = append(out, p.String())
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// Contains reports whether ip (as net.SplitHostPort gives it) is a
// trusted relay.
func (t *TrustedRelays) Contains(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range t.nets {
		if p.Contains(a) {
			return true
		}
	}
	if !t.local {
		return false
	}
	if a.IsLoopback() {
		return true
	}
	return t.isOwn(a, time.Now())
}

// isOwn reports whether a is one of this machine's interface addresses,
// read again when the list is more than a minute old (addresses change).
func (t *TrustedRelays) isOwn(a netip.Addr, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now.Sub(t.ownRead) > time.Minute {
		t.own, t.ownRead = interfaceAddrs(), now
	}
	return slices.Contains(t.own, a)
}

// interfaceAddrs returns this machine's interface addresses (none when
// they cannot be read: then only loopback is this machine).
func interfaceAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}

// window counts events by key over the last minute, up to a limit.
// Callers hold the server's lock.
type window struct {
	limit  int // at most this many a minute; <= 0: no limit
	seen   map[string][]time.Time
	pruned time.Time // when idle keys were last forgotten
}

// Bounds of a window's memory: past windowKeys keys, idle ones are
// forgotten (every ten seconds at most); past windowMaxKeys active ones
// (a flood of made-up senders), every count is.
const (
	windowKeys    = 10000
	windowMaxKeys = 100000
)

func newWindow(limit int) *window { return &window{limit: limit, seen: map[string][]time.Time{}} }

// take counts one event for key at now, and reports false (counting
// nothing) when key already had its limit within the minute.
func (w *window) take(key string, now time.Time) bool {
	if w.limit <= 0 {
		return true
	}
	kept := w.seen[key][:0]
	for _, t := range w.seen[key] {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	if len(kept) >= w.limit {
		w.seen[key] = kept
		return false
	}
	w.seen[key] = append(kept, now)
	if len(w.seen) > windowKeys && now.Sub(w.pruned) >= 10*time.Second {
		w.pruned = now
		for k, v := range w.seen {
			if len(v) == 0 || now.Sub(v[len(v)-1]) >= time.Minute {
				delete(w.seen, k)
			}
		}
	}
	if len(w.seen) > windowMaxKeys {
		w.seen = map[string][]time.Time{key: w.seen[key]}
	}
	return true
}

// until is when key, refused by take at now, may be counted again: when
// the oldest of its events within the minute leaves it.
func (w *window) until(key string, now time.Time) time.Time {
	v := w.seen[key]
	if len(v) == 0 {
		return now
	}
	return v[0].Add(time.Minute)
}

// release uncounts the event take counted for key at at: a transaction
// that ended without a message (a verification probe, RSET) costs
// nothing.
func (w *window) release(key string, at time.Time) {
	if w.limit <= 0 {
		return
	}
	v := w.seen[key]
	for i, seen := range slices.Backward(v) {
		if seen.Equal(at) {
			w.seen[key] = slices.Delete(v, i, i+1)
			return
		}
	}
}

// sequenceConn corrects go-smtp's answers to commands out of sequence:
// it says 502 (not implemented) where RFC 5321 (section 4.2.4 and
// 4.3.2) expects 503 (bad sequence of commands), such as DATA after every
// RCPT was refused. It answers a BDAT chunk that did not come within the
// read timeout as Data answers such a DATA, and closes the connection
// after a 421, as the reply says (RFC 5321, section 3.8): go-smtp would
// read on. go-smtp writes each reply line in one Write.
type sequenceConn struct {
	net.Conn
	timeout time.Duration // the server's read timeout
}

// outOfSequence are go-smtp's 502 replies to commands out of sequence,
// and what courrier says instead.
var outOfSequence = []struct{ from, to []byte }{
	{[]byte("502 5.5.1 Missing RCPT TO command.\r\n"), []byte("503 5.5.1 No recipient was accepted: send RCPT TO with an address courrier takes first\r\n")},
	{[]byte("502 5.5.1 Missing MAIL FROM command.\r\n"), []byte("503 5.5.1 Send MAIL FROM first\r\n")},
	{[]byte("502 5.5.1 Please introduce yourself first.\r\n"), []byte("503 5.5.1 Send EHLO first\r\n")},
}

// chunkFailed begins go-smtp's answer to a BDAT chunk it could not read.
var chunkFailed = []byte("554 5.0.0 Error: transaction failed: ")

// Write implements net.Conn.
func (c sequenceConn) Write(p []byte) (int, error) {
	out := p
	if bytes.HasPrefix(p, chunkFailed) && bytes.Contains(p, []byte("i/o timeout")) {
		r := dataTimeoutReply(c.timeout)
		out = fmt.Appendf(nil, "%d %d.%d.%d %s\r\n", r.Code, r.EnhancedCode[0], r.EnhancedCode[1], r.EnhancedCode[2], r.Message)
	}
	for _, r := range outOfSequence {
		if bytes.Equal(p, r.from) {
			out = r.to
		}
	}
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	if bytes.HasPrefix(out, []byte("421 ")) {
		_ = c.Close()
	}
	return len(p), nil
}

// sequenceListener hands go-smtp sequenceConns.
type sequenceListener struct {
	net.Listener
	timeout time.Duration
}

// Accept implements net.Listener.
func (l sequenceListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return sequenceConn{Conn: c, timeout: l.timeout}, nil
}

package notify

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// Inbound limits: what courrier's SMTP server takes from whom. A stranger
// connecting from the Internet is limited by its address; the relays that
// hand courrier its mail (the MX in front of it, usually this machine's
// own Postfix) bring everyone's mail from one address, so they are not:
// mail through them is limited per envelope sender and per reply address,
// which bound any one sender whoever relays it.

// Default inbound limits (InboundLimits' zero values).
const (
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
	return l
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
// RCPT was refused. go-smtp writes each reply line in one Write.
type sequenceConn struct{ net.Conn }

// outOfSequence are go-smtp's 502 replies to commands out of sequence,
// and what courrier says instead.
var outOfSequence = []struct{ from, to []byte }{
	{[]byte("502 5.5.1 Missing RCPT TO command.\r\n"), []byte("503 5.5.1 No recipient was accepted: send RCPT TO with an address courrier takes first\r\n")},
	{[]byte("502 5.5.1 Missing MAIL FROM command.\r\n"), []byte("503 5.5.1 Send MAIL FROM first\r\n")},
	{[]byte("502 5.5.1 Please introduce yourself first.\r\n"), []byte("503 5.5.1 Send EHLO first\r\n")},
}

// Write implements net.Conn.
func (c sequenceConn) Write(p []byte) (int, error) {
	for _, r := range outOfSequence {
		if bytes.Equal(p, r.from) {
			if _, err := c.Conn.Write(r.to); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// sequenceListener hands go-smtp sequenceConns.
type sequenceListener struct{ net.Listener }

// Accept implements net.Listener.
func (l sequenceListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return sequenceConn{c}, nil
}

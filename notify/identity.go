package notify

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"golang.org/x/net/idna"

	"github.com/courrier-games/courrier/notify/incoming"
)

// Whose mail is this? The From header names the player; before courrier
// acts on a mail in their name it checks two more things, and keeps what
// it checked beside the events the mail wrote (event_context.mail_auth):
//
//   - The envelope sender (SMTP MAIL FROM, where bounces go and what SPF
//     checks) must be the From address: the same domain (case-insensitive,
//     IDNA-normalised) and the same local part, compared without case and
//     without a subaddress tag ("ana+games" is ana's mailbox; mail servers
//     treat local parts so, though RFC 5321 would let them not to). A
//     forwarder's SRS address (SRS0=hash=tt=domain=local@forwarder, and
//     SRS1) stands for the address it encodes; its hash cannot be checked
//     here (the forwarder's secret), which costs nothing: an envelope is
//     as easily forged as a From. The null sender <> is a bounce, ignored
//     before this check (incoming.Message.Automatic).
//   - The Authentication-Results header of the trusted relay (the topmost
//     one whose authserv-id is Config.AuthservID): a dmarc=fail there,
//     or a DMARC result about another From domain than the one courrier
//     reads, refuses the mail. Other results (pass, none, temperror, …)
//     are recorded, and so is the absence of any. The relay must remove
//     headers claiming its authserv-id from the mail it receives (RFC
//     8601, section 5) and add its own at the top; headers with another
//     authserv-id are kept as received and trusted for nothing.
//
// Neither check authenticates alone: an envelope is forged as easily as a
// From. Together with a relay that checks SPF and DMARC, they tie the
// From to a sender its domain vouches for.

// identity is what checking a mail's identity found.
type identity struct {
	// checked says what was checked and found: "envelope=match;
	// dmarc=pass header.from=example.org (by mx.example.org)".
	checked string
	// problem says, to the sender, why the mail is refused; nil when it
	// is not.
	problem saying
	// vouched is set when the trusted relay's Authentication-Results say
	// dmarc=pass for the From's domain: the sender's domain vouches for the
	// address, which counts as a confirmation of it (first contact).
	vouched bool
}

// checkIdentity checks a mail whose envelope sender is envelope (not
// null: bounces are set aside before) and whose From header is in.From.
//
// The Authentication-Results are read only when relayed is set: the mail
// was handed over by a trusted relay (COURRIER_SMTP_TRUSTED), the server
// that added them. From anyone else they are the sender's own words.
func (s *Service) checkIdentity(envelope string, in incoming.Message, relayed bool) identity {
	from := in.From.Address
	var id identity
	same, how := sameMailbox(envelope, from)
	if !same {
		id.checked = "envelope=mismatch"
		id.problem = sayKey("identity.envelope", strings.Trim(strings.TrimSpace(envelope), "<>"), from)
		return id
	}
	id.checked = "envelope=match"
	if how != "" {
		id.checked += " (" + how + ")"
	}
	dmarc, problem := "dmarc=unchecked (not handed over by a trusted relay)", saying(nil)
	if relayed {
		dmarc, problem = s.checkDMARC(in.AuthResults, from)
	}
	id.checked += "; " + dmarc
	id.problem = problem
	id.vouched = problem == nil && strings.HasPrefix(dmarc, "dmarc=pass header.from=")
	return id
}

// checkDMARC reads the DMARC result of the trusted relay's
// Authentication-Results in values (the header's values top first, one a
// line). It returns what it found, and why the mail is refused ("" when
// it is not).
func (s *Service) checkDMARC(values, from string) (checked string, problem saying) {
	trusted := s.cfg.AuthservID
	if trusted == AuthservIDOff {
		return "dmarc=unchecked (no trusted relay)", nil
	}
	results, ok := trustedResults(values, trusted)
	if !ok {
		return "dmarc=unchecked (no Authentication-Results by " + trusted + ")", nil
	}
	var dm *authres.DMARCResult
	for _, r := range results {
		if d, isDMARC := r.(*authres.DMARCResult); isDMARC {
			dm = d
			break
		}
	}
	if dm == nil {
		return "dmarc=unchecked (" + trusted + " gave no dmarc result)", nil
	}
	checked = "dmarc=" + string(dm.Value)
	if dm.From != "" {
		checked += " header.from=" + dm.From
	}
	checked += " (by " + trusted + ")"
	_, fromDomain, _ := strings.Cut(from, "@")
	if dm.From != "" && normDomain(dm.From) != normDomain(fromDomain) {
		return checked, sayKey("identity.other_domain", dm.From, from)
	}
	if dm.Value == authres.ResultFail {
		return checked, sayKey("identity.dmarc_fail", fromDomain)
	}
	return checked, nil
}

// AuthservIDOff as Config.AuthservID trusts no Authentication-Results
// header: DMARC is not checked.
const AuthservIDOff = "off"

// trustedResults returns the results of the topmost Authentication-Results
// value (values: top first, one a line) whose authserv-id is id
// (case-insensitive), and whether there is one. A value is read with its
// comments removed and the semicolons within its quoted strings made
// commas: the parser splits on every semicolon.
func trustedResults(values, id string) ([]authres.Result, bool) {
	if values == "" {
		return nil, false
	}
	for v := range strings.SplitSeq(values, "\n") {
		// An unknown version gives no identifier; a result that cannot be
		// read ends the ones that could.
		ident, results, _ := authres.Parse(authresClean(v))
		if ident != "" && strings.EqualFold(ident, id) {
			return results, true
		}
	}
	return nil, false
}

// authresClean removes the comments of an Authentication-Results value
// (nested parentheses, outside quoted strings) and turns the semicolons
// within its quoted strings into commas.
func authresClean(v string) string {
	var b strings.Builder
	depth, quoted, escaped := 0, false, false
	for _, r := range v {
		switch {
		case escaped:
			escaped = false
			if depth == 0 {
				b.WriteRune(r)
			}
			continue
		case r == '\\' && (quoted || depth > 0):
			escaped = true
			if depth == 0 {
				b.WriteRune(r)
			}
			continue
		case quoted:
			if r == '"' {
				quoted = false
			}
			if r == ';' {
				r = ','
			}
		case r == '(':
			depth++
			continue
		case r == ')' && depth > 0:
			depth--
			if depth == 0 {
				b.WriteRune(' ')
			}
			continue
		case depth > 0:
			continue
		case r == '"':
			quoted = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sameMailbox reports whether the envelope sender and the From address
// name one mailbox, and how, when not written alike: "subaddress",
// "SRS via <forwarder>".
func sameMailbox(envelope, from string) (same bool, how string) {
	envelope = strings.Trim(strings.TrimSpace(envelope), "<>")
	eLocal, eDomain, ok := cutAddress(envelope)
	fLocal, fDomain, ok2 := cutAddress(from)
	if !ok || !ok2 {
		return false, ""
	}
	var notes []string
	if local, domain, ok := unSRS(eLocal); ok {
		notes = append(notes, "SRS via "+strings.ToLower(eDomain))
		eLocal, eDomain = local, domain
	}
	if normDomain(eDomain) != normDomain(fDomain) {
		return false, ""
	}
	if strings.EqualFold(eLocal, fLocal) {
		return true, strings.Join(notes, ", ")
	}
	if normLocal(eLocal) == normLocal(fLocal) {
		return true, strings.Join(append(notes, "subaddress"), ", ")
	}
	return false, ""
}

// cutAddress splits an address at its last "@".
func cutAddress(a string) (local, domain string, ok bool) {
	i := strings.LastIndexByte(a, '@')
	if i <= 0 || i == len(a)-1 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}

// normDomain is a domain lower-cased, without a final dot, in its ASCII
// (IDNA) form when it has one.
func normDomain(d string) string {
	d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
	if a, err := idna.Lookup.ToASCII(d); err == nil {
		return a
	}
	return d
}

// normLocal is a local part lower-cased, without quotes and without its
// subaddress tag (from the first "+").
func normLocal(l string) string {
	l = strings.ToLower(strings.Trim(l, `"`))
	if base, _, found := strings.Cut(l, "+"); found && base != "" {
		return base
	}
	return l
}

// unSRS decodes a local part rewritten by a forwarder with the Sender
// Rewriting Scheme: SRS0=hash=tt=domain=local and
// SRS1=hash=forwarder=<SRS0 part without "SRS0">. The separator after
// SRS0 or SRS1 may be "=", "+" or "-".
func unSRS(local string) (origLocal, origDomain string, ok bool) {
	if len(local) < 5 {
		return "", "", false
	}
	tag, sep, rest := strings.ToUpper(local[:4]), local[4], local[5:]
	if sep != '=' && sep != '+' && sep != '-' {
		return "", "", false
	}
	switch tag {
	case "SRS1":
		// hash=forwarder=<sep>hash=tt=domain=local
		parts := strings.SplitN(rest, "=", 3)
		if len(parts) != 3 || parts[2] == "" {
			return "", "", false
		}
		rest = parts[2][1:]
	case "SRS0":
	default:
		return "", "", false
	}
	parts := strings.SplitN(rest, "=", 4) // hash, tt, domain, local (which may hold "=")
	if len(parts) != 4 || parts[2] == "" || parts[3] == "" {
		return "", "", false
	}
	return parts[3], parts[2], true
}

// Package incoming reads the mail people send to courrier: the MIME
// structure, charsets, HTML-only replies rendered as text, the reply cut
// from the quoted mail and signatures under it, the DKIM signatures, and
// whether a machine sent it (auto-replies, bounces, mailing lists). It
// knows nothing of games, tokens or the database: notify hands it the raw
// message and acts on the Message it returns.
package incoming

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	replytrim "github.com/dimiro1/reply"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	msgmail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/courrier-games/courrier/notify/words"
)

// Reading a reply: what the library does and what this file adds.
//
// github.com/dimiro1/reply (a port of Discourse's email_reply_trimmer)
// classifies each line of a text body (empty, delimiter, signature,
// embedded quote header, mail header, ">" quote, text) and trims by
// patterns over that classification: it cuts at the first delimiter line
// ("-- ", "____", "---", "==="), drops mobile signature lines ("Sent from
// my …", "Von meinem … gesendet", "Inviato da …", "Get Outlook for …"),
// cuts before the quote headers it knows ("On … wrote", "Le … a écrit :",
// "Am … schrieb …:", "El … escribió:", "Il … ha scritto:", Dutch, Polish,
// Portuguese, Chinese, "-----Original Message-----"), joins such headers
// wrapped over lines, cuts before three or more mail header lines, drops
// lone header lines and trailing quotes, keeps a reply written below a
// quote, and removes PGP armour and unsubscribe footers.
//
// It misses, and this file adds:
//   - the MIME side: headers, the text/plain part (not an attachment),
//     charsets (undeclared or mislabelled 8-bit text read as windows-1252),
//     and HTML-only replies rendered to text, their quote containers
//     (blockquote, gmail_quote, moz-cite-prefix, yahoo_quoted) as ">"
//     lines and everything from an Outlook reply header (divRplyFwdMsg,
//     OutlookMessageHeader, the bordered header div) on as quoted;
//   - ReplyMarker: courrier's first line cuts wherever it shows, quoted,
//     lower-cased or stripped of its "#";
//   - Outlook's header block without ">" in its localised forms (the
//     library knows neither "Envoyé :", "Inviato:", "Enviado el:" nor
//     "Verzonden:") and the separators it lacks ("-----Message
//     d'origine-----", "----- Mail original -----" of the French
//     providers' Zimbra, "-----Messaggio originale-----", "Begin forwarded
//     message:" and kin);
//   - quote headers wrapped over three lines (Gmail breaks inside the
//     address), and any line ending "…<address>:" or "…<date>:" just above
//     a quote, whatever its language;
//   - signatures it lacks ("Envoyé de mon iPhone", "Obtenir Outlook pour
//     iOS", "Envoyé à partir de Courrier pour Windows", …), cut with
//     everything under them;
//   - normalisation: CR and CRLF, no-break, narrow and zero-width spaces;
//   - bottom-posting, itself, and guards: the library sees only the text
//     above the quote, and only a short one (its patterns backtrack), and
//     its verdict is taken only as to where the text ends: a line it drops
//     from within the person's text ("Sent by the king: 3 armies"), or a
//     lone "Word: value" line at the end it takes for a stray mail header
//     ("a: 3", "To: Paris"), stays.

// ReplyMarker is the first line of every mail a person may answer (a prompt,
// a refusal, an invitation, a lobby answer), in English: what they write
// above it is their reply, and everything from it down is the quoted mail,
// which Read cuts off even when a mail program quotes without ">". A mail
// in another language starts with the marker in that language (notify's
// catalog, "mail.marker"): Read knows the marker in every language
// (words.Markers).
const ReplyMarker = "## Reply above this line ##"

// Message is an inbound message as courrier reads it.
type Message struct {
	From       *mail.Address // the From header; nil when absent or unparsable
	Subject    string
	MessageID  string   // without angle brackets; "" when absent
	InReplyTo  string   // without angle brackets
	References []string // without angle brackets
	// Automatic is non-empty when the message was sent by a machine and
	// must never be answered: it says why ("auto-reply (Auto-Submitted:
	// auto-replied)", "delivery report (…)", "mailing list (List-Id: …)",
	// "null sender", …).
	Automatic string
	// Text is what the person wrote above the quoted mail, decoded to
	// UTF-8, with quotes, quote headers and signatures removed; trimmed.
	Text string
	// AuthResults are the message's Authentication-Results header values,
	// as received (joined with "\n").
	AuthResults string
	// DKIM summarises the DKIM verification: "none" (no signature),
	// "pass d=<domain>", "fail d=<domain>: <reason>", "temperror
	// d=<domain>: <reason>"; several signatures joined by "; ".
	DKIM string
}

// maxDKIM bounds the DKIM signatures verified (each costs a DNS query).
const maxDKIM = 5

// The text handed to the reply library is bounded: its patterns backtrack,
// in time cubic in the text's length (4 KB of "x wrote on x wrote on …"
// take 45 s), and its date patterns cost about a millisecond per
// four-digit number. Bounded so, it takes a few milliseconds at worst. A
// longer reply is trimmed by this file's rules alone.
const (
	maxLibraryLines    = 60
	maxLibraryBytes    = 1 << 10
	maxLibraryLineSize = 200
	maxLibraryAnchors  = 12
)

// anchorRe finds where the library's costly patterns start from.
var anchorRe = regexp.MustCompile(`(?i)\d{4}|\bwrote\b|\bschrieb\b`)

// Read reads raw (bounded by the caller) sent with envelope sender
// envelopeFrom ("" for the null sender <>). lookupTXT resolves DKIM keys
// (nil: net.DefaultResolver's LookupTXT with ctx). It fails only when the
// header cannot be read, or the body has no readable part at all.
func Read(ctx context.Context, raw []byte, envelopeFrom string, lookupTXT func(ctx context.Context, domain string) ([]string, error)) (Message, error) {
	mr, err := msgmail.CreateReader(bytes.NewReader(raw))
	if mr == nil && gomessage.IsUnknownEncoding(err) {
		// A transfer encoding nobody knows ("Content-Transfer-Encoding: 0"):
		// read the body as it is.
		mr, err = msgmail.CreateReader(bytes.NewReader(dropEncoding(raw)))
	}
	if err != nil && !unknownCoding(err) {
		return Message{}, fmt.Errorf("read the mail header: %w", err)
	}
	if mr == nil {
		return Message{}, fmt.Errorf("read the mail header: %w", err)
	}
	defer func() { _ = mr.Close() }()
	h := mr.Header
	subject, _ := h.Subject() // undecodable: the raw value
	ids := msgIDs(h.Get("Message-Id"))
	replyTo := msgIDs(h.Get("In-Reply-To"))
	in := Message{
		From:        parseFrom(h.Get("From")),
		Subject:     strings.TrimSpace(subject),
		References:  msgIDs(h.Get("References")),
		AuthResults: strings.Join(h.Values("Authentication-Results"), "\n"),
	}
	if len(ids) > 0 {
		in.MessageID = ids[0]
	}
	if len(replyTo) > 0 {
		in.InReplyTo = replyTo[0]
	}
	body, err := readParts(mr)
	if err != nil {
		return in, fmt.Errorf("read the mail body: %w", err)
	}
	in.Automatic = automatic(h, envelopeFrom, in, body.report)
	in.Text = replyText(body.plain)
	if in.Text == "" && body.html != "" {
		in.Text = replyText(htmlText(body.html))
	}
	in.DKIM = checkDKIM(ctx, raw, lookupTXT)
	return in, nil
}

// MoveLines returns the move lines of a reply's text: the first block of
// consecutive non-empty lines (trimmed), stopping at the first blank line
// after it; at most 20 lines.
func MoveLines(text string) []string {
	var out []string
	for l := range strings.SplitSeq(normalize(text), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(out) > 0 {
				break
			}
			continue
		}
		out = append(out, l)
		if len(out) == 20 {
			break
		}
	}
	return out
}

// unknownCoding reports an unknown charset or transfer encoding, which leaves
// the text readable as it came.
func unknownCoding(err error) bool {
	return gomessage.IsUnknownCharset(err) || gomessage.IsUnknownEncoding(err)
}

// dropEncoding removes the Content-Transfer-Encoding fields of a
// message's top-level header.
func dropEncoding(raw []byte) []byte {
	end := bytes.Index(raw, []byte("\n\n"))
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 && (end < 0 || i < end) {
		end = i
	}
	if end < 0 {
		end = len(raw)
	}
	var out bytes.Buffer
	skipping := false
	for _, line := range bytes.SplitAfter(raw[:end], []byte("\n")) {
		folded := len(line) > 0 && (line[0] == ' ' || line[0] == '\t')
		if !folded {
			skipping = bytes.HasPrefix(bytes.ToLower(line), []byte("content-transfer-encoding:"))
		}
		if !skipping {
			out.Write(line)
		}
	}
	out.Write(raw[end:])
	return out.Bytes()
}

// angleRe finds <message-id> tokens.
var angleRe = regexp.MustCompile(`<([^<>\s]+)>`)

// msgIDs returns the message identifiers of a Message-ID, In-Reply-To
// or References value, without angle brackets; leniently: bare words when
// no angle brackets are found.
func msgIDs(v string) []string {
	var out []string
	for _, m := range angleRe.FindAllStringSubmatch(v, -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 && strings.TrimSpace(v) != "" {
		out = strings.Fields(v)
	}
	return out
}

// addrRe finds an angle address in a From value the parser refused.
var addrRe = regexp.MustCompile(`^(.*?)<([^<>\s@]+@[^<>\s@]+)>`)

// parseFrom parses a From value: the first address, its name decoded; an
// unquoted name with a comma ("Dupont, Jean <j@x>") is taken as is.
func parseFrom(v string) *mail.Address {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	p := mail.AddressParser{WordDecoder: &mime.WordDecoder{CharsetReader: charset.Reader}}
	if a, err := p.Parse(v); err == nil {
		return a
	}
	if l, err := p.ParseList(v); err == nil && len(l) > 0 {
		return l[0]
	}
	m := addrRe.FindStringSubmatch(v)
	if m == nil {
		return nil
	}
	a, err := p.Parse("<" + m[2] + ">")
	if err != nil {
		return nil
	}
	name := strings.Trim(strings.TrimSpace(m[1]), `"`)
	if dec, err := p.WordDecoder.DecodeHeader(name); err == nil {
		name = dec
	}
	a.Name = name
	return a
}

// parts is what the parts of a message hold for courrier.
type parts struct {
	plain  string // the first text/plain part that is no attachment
	html   string // the first such text/html part
	report string // the media type of a delivery or disposition report part
}

// readParts reads the parts of a message.
func readParts(mr *msgmail.Reader) (parts, error) {
	var b parts
	havePlain, haveHTML := false, false
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil && !unknownCoding(err) {
			if havePlain || haveHTML {
				return b, nil // a broken end: the text came before it
			}
			return b, err
		}
		t, params, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if t == "" {
			t = "text/plain"
		}
		if isReport(t) {
			if b.report == "" {
				b.report = t
			}
			continue
		}
		disp, dparams, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
		if disp == "attachment" || dparams["filename"] != "" || params["name"] != "" {
			continue
		}
		if (t == "text/plain" && havePlain) || (t == "text/html" && haveHTML) || (t != "text/plain" && t != "text/html") {
			continue
		}
		data, rerr := io.ReadAll(p.Body)
		if rerr != nil && len(data) == 0 {
			continue
		}
		s := decodeText(data, params["charset"])
		if t == "text/plain" {
			b.plain, havePlain = s, true
		} else {
			b.html, haveHTML = s, true
		}
	}
}

// isReport reports the media types of delivery, disposition and
// abuse reports.
func isReport(t string) bool {
	switch t {
	case "message/delivery-status", "message/global-delivery-status",
		"message/disposition-notification", "message/global-disposition-notification",
		"message/feedback-report":
		return true
	default:
		return false
	}
}

// decodeText returns a part's text as valid UTF-8. go-message decoded a
// known charset already; undeclared, unknown or mislabelled 8-bit text is
// taken for windows-1252, the usual culprit.
func decodeText(data []byte, declared string) string {
	if utf8.Valid(data) {
		return string(data)
	}
	cs := strings.ToLower(strings.TrimSpace(declared))
	_, unknown := charset.Reader(cs, bytes.NewReader(nil))
	if unknown != nil || cs == "" || cs == "us-ascii" || cs == "utf-8" || cs == "utf8" {
		if r, err := charset.Reader("windows-1252", bytes.NewReader(data)); err == nil {
			if out, err := io.ReadAll(r); err == nil && utf8.Valid(out) {
				return string(out)
			}
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

// automatic says why a message was sent by a machine, or "".
func automatic(h msgmail.Header, envelopeFrom string, in Message, reportPart string) string {
	if strings.Trim(strings.TrimSpace(envelopeFrom), "<>") == "" {
		return "null sender"
	}
	if rp := h.Get("Return-Path"); rp != "" && strings.Trim(strings.TrimSpace(rp), "<> ") == "" {
		return "null sender (Return-Path: <>)"
	}
	if v := strings.TrimSpace(h.Get("Auto-Submitted")); v != "" {
		kw := strings.ToLower(v)
		if i := strings.IndexAny(kw, " \t;("); i >= 0 {
			kw = kw[:i]
		}
		switch kw {
		case "no":
		case "auto-replied":
			return "auto-reply (Auto-Submitted: " + v + ")"
		default:
			return "automatic (Auto-Submitted: " + v + ")"
		}
	}
	ct, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	if ct == "multipart/report" || reportPart != "" {
		kind := strings.ToLower(params["report-type"])
		if kind == "" {
			kind = strings.TrimPrefix(reportPart, "message/")
		}
		what := "report"
		switch kind {
		case "delivery-status", "global-delivery-status":
			what = "delivery report"
		case "disposition-notification", "global-disposition-notification":
			what = "read receipt"
		case "feedback-report":
			what = "feedback report"
		}
		if ct == "multipart/report" {
			return fmt.Sprintf("%s (%s; report-type=%s)", what, ct, kind)
		}
		return fmt.Sprintf("%s (a %s part)", what, reportPart)
	}
	if v := h.Get("X-Failed-Recipients"); v != "" {
		return "delivery report (X-Failed-Recipients: " + v + ")"
	}
	addrs := []string{envelopeFrom}
	if in.From != nil {
		addrs = append(addrs, in.From.Address)
	}
	for _, a := range addrs {
		local, _, _ := strings.Cut(strings.ToLower(strings.Trim(strings.TrimSpace(a), "<>")), "@")
		switch local {
		case "mailer-daemon", "mailer_daemon", "mailerdaemon", "mail-daemon", "postmaster":
			return "mailer daemon (" + a + ")"
		case "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply":
			return "no-reply sender (" + a + ")"
		}
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Autoreply-From", "X-Mail-Autoreply", "X-Autogenerated"} {
		if v := strings.TrimSpace(h.Get(k)); v != "" && !strings.EqualFold(v, "no") && !strings.EqualFold(v, "false") {
			return "auto-reply (" + k + ": " + v + ")"
		}
	}
	if v := h.Get("X-Ms-Exchange-Inbox-Rules-Loop"); v != "" {
		return "auto-reply (X-MS-Exchange-Inbox-Rules-Loop: " + v + ")"
	}
	for _, k := range []string{"Precedence", "X-Precedence"} {
		v := strings.ToLower(strings.TrimSpace(h.Get(k)))
		switch v {
		case "bulk", "junk":
			return "bulk mail (" + k + ": " + v + ")"
		case "list":
			return "mailing list (" + k + ": " + v + ")"
		case "auto_reply", "auto-reply", "autoreply":
			return "auto-reply (" + k + ": " + v + ")"
		}
	}
	for _, k := range []string{"List-Id", "List-Unsubscribe"} {
		if v := h.Get(k); v != "" {
			return "mailing list (" + k + ": " + v + ")"
		}
	}
	if v := h.Get("X-Loop"); v != "" {
		return "mail loop (X-Loop: " + v + ")"
	}
	// Backup signs: a subject in an autoresponder's words counts only with
	// Outlook's suppression request (which Outlook also sends on a person's
	// mail) or without any In-Reply-To (which a person's reply has).
	if p := autoSubject(in.Subject); p != "" {
		ars := strings.ToLower(h.Get("X-Auto-Response-Suppress"))
		switch {
		case strings.Contains(ars, "all") || strings.Contains(ars, "oof") || strings.Contains(ars, "autoreply"):
			return fmt.Sprintf("auto-reply (Subject: %q, X-Auto-Response-Suppress: %s)", p, h.Get("X-Auto-Response-Suppress"))
		case in.InReplyTo == "" && len(in.References) == 0:
			return fmt.Sprintf("auto-reply (Subject: %q, no In-Reply-To)", p)
		}
	}
	return ""
}

// autoSubject returns the autoresponder's prefix a subject starts with
// (lower-cased), or "".
func autoSubject(subject string) string {
	s := strings.ToLower(strings.TrimSpace(subject))
	for _, p := range []string{
		"out of office", "out of the office", "out-of-office", "ooo:", "automatic reply", "automatic response",
		"auto reply", "auto-reply", "autoreply", "auto response", "auto-response", "autoresponse", "auto:",
		"vacation reply", "away from the office",
		"réponse automatique", "reponse automatique", //nolint:misspell // French without its accent
		"absence du bureau", "absent du bureau",
		"abwesenheitsnotiz", "automatische antwort", "abwesend",
		"respuesta automática", "respuesta automatica", "fuera de la oficina", "fuera de oficina",
		"risposta automatica", "fuori ufficio", "fuori sede",
		"automatisch antwoord", "afwezig", "resposta automática", "resposta automatica",
		"autosvar", "automatyczna odpowiedź",
	} {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

// checkDKIM verifies the message's DKIM signatures.
func checkDKIM(ctx context.Context, raw []byte, lookupTXT func(ctx context.Context, domain string) ([]string, error)) string {
	if lookupTXT == nil {
		lookupTXT = net.DefaultResolver.LookupTXT
	}
	opts := &dkim.VerifyOptions{
		MaxVerifications: maxDKIM,
		LookupTXT: func(domain string) ([]string, error) {
			txt, err := lookupTXT(ctx, domain)
			if err == nil {
				return txt, nil
			}
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				return nil, err // no key: a permanent failure
			}
			// Anything else may pass: the library calls it temporary only
			// when told so.
			return nil, &net.DNSError{Err: err.Error(), Name: domain, IsTemporary: true}
		},
	}
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), opts)
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		return "fail: " + dkimReason(err)
	}
	if len(vs) == 0 {
		return "none"
	}
	out := make([]string, 0, len(vs)+1)
	for _, v := range vs {
		d := v.Domain
		if d == "" {
			d = "?"
		}
		switch {
		case v.Err == nil:
			out = append(out, "pass d="+d)
		case dkim.IsTempFail(v.Err):
			out = append(out, "temperror d="+d+": "+dkimReason(v.Err))
		default:
			out = append(out, "fail d="+d+": "+dkimReason(v.Err))
		}
	}
	if err != nil {
		out = append(out, fmt.Sprintf("more than %d signatures: the rest not verified", maxDKIM))
	}
	return strings.Join(out, "; ")
}

// dkimReason is a DKIM error without the library's prefix.
func dkimReason(err error) string {
	return strings.TrimPrefix(err.Error(), "dkim: ")
}

// ---- Text: trimming a reply ----

// spaces normalises line ends and the spaces mail programs insert.
var spaces = strings.NewReplacer(
	"\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n",
	"\u00a0", " ", "\u202f", " ", "\u2007", " ", "\u2009", " ",
	"\u200b", "", "\ufeff", "", "\u2060", "", "\u00ad", "",
)

// normalize normalises line ends and spaces, and trims each line's end.
func normalize(s string) string {
	lines := strings.Split(spaces.Replace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// replyText returns what a person wrote in a text body: above the quote,
// or, when nothing is above it, below the leading quote (bottom-posting).
func replyText(body string) string {
	if strings.TrimSpace(body) == "" {
		return ""
	}
	lines := stripPGP(strings.Split(normalize(body), "\n"))
	end := quoteStart(lines, 0)
	start := 0
	if allBlank(lines[:end]) && end < len(lines) {
		start = skipQuoted(lines, end)
		end = quoteStart(lines, start)
	}
	top := lines[start:end]
	if end < len(lines) {
		top = dropAttribution(top)
	}
	top = trimBlank(cutSignature(top))
	top = trimBlank(withLibrary(top))
	return strings.TrimSpace(strings.Join(top, "\n"))
}

// allBlank reports whether lines hold no text.
func allBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// trimBlank drops leading and trailing blank lines.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// stripPGP removes the armour of a clear-signed message.
func stripPGP(lines []string) []string {
	out := make([]string, 0, len(lines))
	signed := false
	for i := 0; i < len(lines); i++ {
		switch strings.TrimSpace(lines[i]) {
		case "-----BEGIN PGP SIGNED MESSAGE-----":
			signed = true
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				i++ // Hash: headers
			}
			continue
		case "-----BEGIN PGP SIGNATURE-----":
			signed = false
			for i < len(lines) && strings.TrimSpace(lines[i]) != "-----END PGP SIGNATURE-----" {
				i++
			}
			continue
		}
		l := lines[i]
		if after, ok := strings.CutPrefix(l, "- "); signed && ok {
			l = after // dash-escaped
		}
		out = append(out, l)
	}
	return out
}

var (
	// quoteLineRe is a line quoted with ">".
	quoteLineRe = regexp.MustCompile(`^\s*>`)
	// markerRe is ReplyMarker however a mail program rendered it.
	markerRe = markerRegexp()
	// separatorRe are the lines mail programs put above a quoted mail.
	separatorRe = regexp.MustCompile(`(?i)^\s*[>*]*\s*(?:` +
		`[-=]{2,}\s*(?:original message|message d['’]origine|message original|mail original|courriel original|ursprüngliche nachricht|originalnachricht|mensaje original|` +
		`messaggio originale|oorspronkelijk bericht|oorspronkelijke bericht|mensagem original|ursprungligt meddelande|` +
		`opprinnelig melding|oprindelig meddelelse|forwarded message|message transféré|weitergeleitete nachricht|` +
		`mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada|reply message)\s*[-=]{2,}\s*\*?` +
		`|(?:begin forwarded message|début du message (?:réexpédié|transféré)|anfang der weitergeleiteten nachricht|` +
		`inicio del mensaje reenviado|comienzo del mensaje reenviado|inizio messaggio inoltrato|begin doorgestuurd bericht|` +
		`início da mensagem reencaminhada)\s*:` +
		`|_{10,})\s*$`)
	// datedHeaderRe are quote headers that open with a date: English,
	// French, German, Spanish, Italian, Dutch, Portuguese, Nordic, Polish.
	datedHeaderRe = regexp.MustCompile(`(?i)^\s*(?:` +
		`(?:on|at)\s.{4,300}\b(?:wrote|writes|said)` +
		`|le\s.{4,300}\ba\s+écrit` +
		`|am\s.{4,300}\b(?:schrieb\b.{0,300}|geschrieben)` +
		`|(?:el|en)\s.{4,300}\bescribió` +
		`|il\s.{4,300}\bha\s+scritto` +
		`|op\s.{4,300}\b(?:schreef\b.{0,300}|het\s+volgende\s+geschreven)` +
		`|(?:em|no\s+dia)\s.{4,300}\bescreveu` +
		`|den\s.{4,300}\bskrev\b.{0,300}` +
		`|(?:dnia|w\s+dniu)\s.{4,300}\bnapisał(?:\(a\))?` +
		`)\s*:\s*$`)
	// addressHeaderRe are quote headers naming the sender's address:
	// "Ana <a@x> wrote:", "courrier <p@x> schrieb am Mo., 23. Nov.:",
	// "23 Nov 2026 10:00 courrier <p@x>:" (FairEmail).
	addressHeaderRe = regexp.MustCompile(`(?i)^(?:` +
		`.{0,200}(?:<[^<>\s@]+@[^<>\s]+>|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+)\)?\s*(?:wrote|writes|a\s+écrit|schrieb|escribió|ha\s+scritto|escreveu|schreef|skrev|napisał(?:\(a\))?|kirjoitti)` +
		`|.{1,200}\b(?:schrieb\s+am|wrote\s+on)\s.{4,200}` +
		`|\s*\d.{0,100}<[^<>\s@]+@[^<>\s]+>` +
		`)\s*:\s*$`)
	// wroteRe is a header with neither date nor address ("Ana wrote:"),
	// a quote header only when a quote follows.
	wroteRe = regexp.MustCompile(`(?i)^.{1,120}\b(?:wrote|writes|a\s+écrit|schrieb|escribió|ha\s+scritto|escreveu|schreef|skrev)\s*:\s*$`)
	// digitRe finds a digit: every dated header has one.
	digitRe = regexp.MustCompile(`\d`)
	// dateishRe finds a date or a time.
	dateishRe = regexp.MustCompile(`\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b`)
	// openerRe are the words a dated quote header opens with.
	openerRe = regexp.MustCompile(`(?i)^\s*(?:on|at|le|am|el|en|il|op|em|no\s+dia|den|dnia|w\s+dniu)\s`)
	// signatureRe are the lines mail programs add under what a person wrote.
	signatureRe = regexp.MustCompile(`(?i)^\s*(?:` +
		`sent from my \S.{0,60}` +
		`|sent from (?:mail|outlook|yahoo mail|aol|gmail|proton ?mail|samsung|windows mail|bluemail|spark|edison mail|the \S+ app)\b.{0,60}` +
		`|sent (?:with|via|using) (?:proton ?mail|tuta(?:nota)?|spark|bluemail|blackberry|samsung|superhuman|airmail|fastmail|fairemail)\b.{0,60}` +
		`|get outlook for (?:ios|android)\b.{0,80}` +
		`|(?:obtenir|télécharger) outlook pour (?:ios|android)\b.{0,80}` +
		`|outlook für (?:ios|android) (?:beziehen|herunterladen)\b.{0,80}` +
		`|(?:obtener|descargar) outlook para (?:ios|android)\b.{0,80}` +
		`|(?:ottieni|scarica) outlook per (?:ios|android)\b.{0,80}` +
		`|envoyé (?:de|depuis|avec|à partir de) (?:mon|ma|l['’]application|courrier|outlook|yahoo|mail|gmail)\b.{0,60}` +
		`|von meinem .{1,60} gesendet\.?` +
		`|gesendet (?:von|mit) (?:meinem|mail|outlook|yahoo|gmx|web\.de)\b.{0,60}` +
		`|diese nachricht wurde (?:von|mit) .{1,80} gesendet\b.{0,80}` +
		`|enviado (?:desde|de|do|com) (?:mi|meu|el|o|outlook|yahoo|correo|mail)\b.{0,60}` +
		`|inviato da (?:iphone|ipad|il mio|android|outlook|mail|yahoo|libero|smartphone|samsung|huawei)\b.{0,60}` +
		`|(?:verzonden|verstuurd) (?:vanaf|met|van) (?:mijn )?\S.{0,60}` +
		`|sendt fra min \S.{0,60}|skickat från min \S.{0,60}` +
		`)$`)
)

// markerRegexp matches the reply marker's words, in any language
// courrier writes it in, between "#"s anywhere in a line, or alone on a
// line whatever decorates them (quote signs, "#" a program dropped or
// escaped), in any case.
func markerRegexp() *regexp.Regexp {
	var cores []string
	for _, m := range append([]string{ReplyMarker}, words.Markers()...) {
		ws := strings.Fields(strings.Trim(m, "# "))
		for i, w := range ws {
			ws[i] = regexp.QuoteMeta(w)
		}
		cores = append(cores, strings.Join(ws, `\s+`))
	}
	core := "(?:" + strings.Join(cores, "|") + ")"
	return regexp.MustCompile(`(?i)#+\s*` + core + `\s*#+|^[\s>|*_#\\-]*` + core + `[\s*_#\\-]*$`)
}

// isQuoteLine reports a ">" line or the marker.
func isQuoteLine(l string) bool {
	return quoteLineRe.MatchString(l) || markerRe.MatchString(l)
}

// quoteStart returns the index of the first line from which on lines
// are quoted mail: a ">" line, the marker, a separator, a quote header or
// an Outlook header block; len(lines) when there is none.
func quoteStart(lines []string, from int) int {
	for i := from; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if isQuoteLine(l) || separatorRe.MatchString(l) || headerLen(lines, i) > 0 || outlookBlock(lines, i) {
			return i
		}
	}
	return len(lines)
}

// skipQuoted returns the index of the first line from i that is neither
// blank, nor quoted, nor a quote header.
func skipQuoted(lines []string, i int) int {
	for i < len(lines) {
		switch {
		case strings.TrimSpace(lines[i]) == "" || isQuoteLine(lines[i]):
			i++
		case headerLen(lines, i) > 0:
			i += headerLen(lines, i)
		default:
			return i
		}
	}
	return i
}

// headerLen returns the number of lines (up to 3: Gmail wraps long
// ones, even inside the address) of the quote header at lines[i], or 0.
// Every header ends with a colon, which is tested before any pattern.
func headerLen(lines []string, i int) int {
	first := strings.TrimSpace(lines[i])
	if first == "" {
		return 0
	}
	if addressHeader(first) || (endsColon(first) && quoteFollows(lines, i+1) && wroteRe.MatchString(first)) {
		return 1
	}
	n := datedLen(lines, i)
	for k := i + 1; k < i+n; k++ {
		if datedLen(lines, k) > 0 || addressHeader(strings.TrimSpace(lines[k])) {
			return 0 // the header starts below
		}
	}
	return n
}

// endsColon reports whether a line ends with a colon.
func endsColon(l string) bool {
	return strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：")
}

// addressHeader reports a one-line quote header naming an address.
func addressHeader(l string) bool {
	return endsColon(l) && strings.Contains(l, "@") && addressHeaderRe.MatchString(l)
}

// datedLen returns the number of lines (up to 3) that joined from
// lines[i] make a dated quote header, or 0.
func datedLen(lines []string, i int) int {
	if !openerRe.MatchString(lines[i]) {
		return 0
	}
	joined := ""
	for n := 1; n <= 3 && i+n <= len(lines); n++ {
		l := strings.TrimSpace(lines[i+n-1])
		if l == "" {
			return 0
		}
		joined = strings.TrimSpace(joined + " " + l)
		if endsColon(l) && datedHeaderRe.MatchString(joined) && digitRe.MatchString(joined) {
			return n
		}
	}
	return 0
}

// quoteFollows reports whether the next non-blank line from i is quoted.
func quoteFollows(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return isQuoteLine(lines[i])
		}
	}
	return false
}

// The kinds of the fields of a quoted mail's header block.
const (
	noField = iota
	senderField
	otherField
)

// fieldKind classifies a header block's key, in the languages Outlook
// writes it in.
func fieldKind(key string) int {
	switch strings.ToLower(strings.Join(strings.Fields(key), " ")) {
	case "from", "de", "von", "da", "van", "från", "fra", "od", "expéditeur", "remitente", "absender":
		return senderField
	case "sent", "date", "envoyé", "envoyé le", "gesendet", "datum", "enviado", "enviado el", "enviada em", "enviada",
		"fecha", "inviato", "data", "verzonden", "skickat", "sendt", "wysłano",
		"to", "à", "a", "an", "para", "aan", "till", "til", "do", "destinataire",
		"cc", "cci", "bcc", "kopie", "subject", "objet", "sujet", "betreff", "asunto", "oggetto", "onderwerp", "ämne", "emne",
		"temat", "assunto", "reply-to", "répondre à", "antwort an", "responder a", "rispondi a",
		"importance", "priorité", "wichtigkeit", "importancia", "priorità":
		return otherField
	default:
		return noField
	}
}

// outlookBlock reports whether an Outlook header block ("From: … Sent:
// … To: … Subject: …", in any of its languages) starts at lines[i]: a
// sender field followed by at least two more fields, with an address or a
// date among them.
func outlookBlock(lines []string, i int) bool {
	key, value, ok := splitField(lines[i])
	if !ok || fieldKind(key) != senderField || value == "" {
		return false
	}
	fields, evidence := 0, strings.Contains(value, "@") || dateishRe.MatchString(value)
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		key, value, ok := splitField(lines[j])
		if !ok || fieldKind(key) != otherField {
			break
		}
		fields++
		evidence = evidence || strings.Contains(value, "@") || dateishRe.MatchString(value)
	}
	return fields >= 2 && evidence
}

// splitField splits a "Key: value" line of a quoted mail's header, bold or
// not ("*From:* …", "De : …"): a key of up to 25 letters, spaces,
// apostrophes and hyphens.
func splitField(l string) (key, value string, ok bool) {
	k, v, found := strings.Cut(l, ":")
	if !found || len(k) > 60 {
		return "", "", false
	}
	key = strings.TrimSpace(strings.Trim(strings.TrimSpace(k), "*"))
	n := 0
	for i, r := range key {
		n++
		letter := unicode.IsLetter(r)
		if n > 25 || (i == 0 && !letter) || (!letter && r != ' ' && r != '\'' && r != '-') {
			return "", "", false
		}
	}
	if key == "" {
		return "", "", false
	}
	return key, strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*")), true
}

// dropAttribution drops the last line above a quote when it introduces
// it: it ends with a colon and names an address or a date, in whatever
// language ("Op 23 nov. 2026 heeft courrier <p@x> het volgende
// geschreven:", "在 2026年11月23日 10:00，courrier <p@x> 写道：").
func dropAttribution(lines []string) []string {
	lines = trimBlank(lines)
	if len(lines) == 0 {
		return lines
	}
	last := strings.TrimSpace(lines[len(lines)-1])
	if endsColon(last) && (strings.Contains(last, "@") || dateishRe.MatchString(last)) {
		return lines[:len(lines)-1]
	}
	return lines
}

// isSignature reports a signature delimiter or a mail program's line.
func isSignature(l string) bool {
	return strings.TrimRight(l, " \t") == "--" || signatureRe.MatchString(l)
}

// cutSignature cuts at the first signature line.
func cutSignature(lines []string) []string {
	for i, l := range lines {
		if isSignature(l) {
			return lines[:i]
		}
	}
	return lines
}

// withLibrary runs the reply library over what is left, and takes only
// the end it finds: it may drop lines from within the person's text (a
// line it takes for a signature or a stray header), which stay, and a
// "Word: value" line it drops from the end ("a: 3") stays too.
func withLibrary(lines []string) (out []string) {
	joined := strings.Join(lines, "\n")
	if len(lines) == 0 || len(lines) > maxLibraryLines || len(joined) > maxLibraryBytes ||
		len(anchorRe.FindAllStringIndex(joined, maxLibraryAnchors+1)) > maxLibraryAnchors {
		return lines
	}
	for _, l := range lines {
		if len(l) > maxLibraryLineSize {
			return lines
		}
	}
	defer func() {
		if recover() != nil {
			out = lines // the library's slicing failed: keep ours
		}
	}()
	return reconcile(lines, replytrim.FromText(joined))
}

// reconcile maps the library's output back onto lines (see
// withLibrary).
func reconcile(lines []string, trimmed string) []string {
	last, j := -1, 0
	var kept []string
	for l := range strings.SplitSeq(trimmed, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			kept = append(kept, t)
		}
	}
	for i, l := range lines {
		if j < len(kept) && strings.TrimSpace(l) == kept[j] {
			last = i
			j++
		}
	}
	if len(kept) == 0 || j < len(kept) {
		return lines // it saw nothing written, or rewrote lines: keep ours
	}
	out := slices.Clone(lines[:last+1])
	// After the last line it kept: lone field lines are the person's; a
	// run of three is a header block.
	tail := lines[last+1:]
	settled := 0
	for k := 0; k < len(tail); {
		if strings.TrimSpace(tail[k]) == "" {
			k++
			continue
		}
		e := k
		for e < len(tail) && restorable(tail[e]) {
			e++
		}
		if e == k || e-k >= 3 {
			break
		}
		out = append(out, tail[settled:e]...)
		settled, k = e, e
	}
	return out
}

// restorable reports a "Word: value" line that is no quote header nor
// signature.
func restorable(l string) bool {
	t := strings.TrimSpace(l)
	_, _, field := splitField(t)
	dated := endsColon(t) && datedHeaderRe.MatchString(t) && digitRe.MatchString(t)
	return field && !dated && !isSignature(t) && !addressHeader(t)
}

// ---- HTML: rendering an HTML-only reply to text ----

// htmlText renders an HTML body to text: block elements on their own
// lines, quotes as ">" lines, signatures dropped.
func htmlText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return ""
	}
	var w htmlWriter
	w.walk(doc)
	w.endLine(false)
	return strings.Join(w.out, "\n")
}

// htmlWriter accumulates the lines of a rendered HTML body.
type htmlWriter struct {
	out   []string
	cur   strings.Builder
	curQ  bool // the current line is quoted
	space bool // the current line ends with a collapsible space
	quote int  // depth of quoting elements
	rest  bool // an Outlook reply header was met: the rest is quoted
	pre   int
	lists []int // item counters of the open lists; -1 for bullets
}

func (w *htmlWriter) quoted() bool { return w.quote > 0 || w.rest }

// endLine ends the current line; an empty one only when forced (<br>).
func (w *htmlWriter) endLine(force bool) {
	if w.cur.Len() == 0 && !force {
		return
	}
	q := w.curQ
	if w.cur.Len() == 0 {
		q = w.quoted()
	}
	line := strings.TrimRight(w.cur.String(), " ")
	if q {
		line = strings.TrimRight("> "+line, " ")
	}
	w.out = append(w.out, line)
	w.cur.Reset()
	w.space = false
}

// blankLine ends the paragraph with one blank line.
func (w *htmlWriter) blankLine() {
	w.endLine(false)
	if n := len(w.out); n > 0 && strings.Trim(w.out[n-1], "> ") != "" {
		w.endLine(true)
	}
}

// put writes s to the current line.
func (w *htmlWriter) put(s string) {
	if s == "" {
		return
	}
	if w.cur.Len() > 0 && w.curQ != w.quoted() {
		w.endLine(false)
	}
	if w.cur.Len() == 0 {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return
		}
		w.curQ = w.quoted()
	} else if w.space && s[0] == ' ' {
		s = s[1:]
	}
	if s == "" {
		return
	}
	w.cur.WriteString(s)
	w.space = s[len(s)-1] == ' '
}

// text writes a text node, its white space collapsed outside <pre>.
func (w *htmlWriter) text(s string) {
	if w.pre > 0 {
		for i, l := range strings.Split(s, "\n") {
			if i > 0 {
				w.endLine(true)
			}
			w.put(l)
		}
		return
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	w.put(b.String())
}

// attr returns an element's attribute, lower-cased.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.ToLower(a.Val)
		}
	}
	return ""
}

// blockElement reports the elements that stand on their own lines.
func blockElement(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Dd, atom.Div, atom.Dl, atom.Dt,
		atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Header, atom.Li, atom.Main, atom.Nav, atom.Ol, atom.P, atom.Pre, atom.Section,
		atom.Table, atom.Tr, atom.Ul, atom.Body, atom.Caption:
		return true
	default:
		return false
	}
}

// unseenElement reports the elements whose content a reader does not
// see.
func unseenElement(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template, atom.Noscript, atom.Svg, atom.Math,
		atom.Object, atom.Iframe, atom.Img:
		return true
	default:
		return false
	}
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs ...string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// walk renders n and its descendants.
func (w *htmlWriter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.DocumentNode:
		w.children(n)
		return
	case html.ElementNode:
	default:
		return
	}
	if unseenElement(n.DataAtom) {
		return
	}
	names := attr(n, "class") + " " + attr(n, "id")
	style := strings.Join(strings.Fields(attr(n, "style")), "")
	if containsAny(style, "display:none", "mso-hide:all") || strings.Contains(names, "signature") {
		return
	}
	if containsAny(names, "divrplyfwdmsg", "outlookmessageheader", "appendonsend", "reference-message-container") ||
		containsAny(style, "border-top:solid#e1e1e1", "border-top:solid#b5c4df") {
		w.endLine(false)
		w.rest = true
	}
	quoting := n.DataAtom == atom.Blockquote ||
		containsAny(names, "gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote", "zmail_extra")
	if quoting {
		w.endLine(false)
		w.quote++
	}
	switch n.DataAtom {
	case atom.Br:
		w.endLine(true)
	case atom.Hr:
		w.endLine(false)
		w.put("________________________________")
		w.endLine(false)
	case atom.Td, atom.Th:
		if w.cur.Len() > 0 {
			w.put(" ")
		}
		w.children(n)
	case atom.Ol, atom.Ul:
		start := -1
		if n.DataAtom == atom.Ol {
			start = 1
			if s, err := strconv.Atoi(attr(n, "start")); err == nil && s >= 0 {
				start = s
			}
		}
		w.lists = append(w.lists, start)
		w.block(n)
		w.lists = w.lists[:len(w.lists)-1]
	case atom.Li:
		w.endLine(false)
		if k := len(w.lists) - 1; k >= 0 && w.lists[k] >= 0 {
			w.put(strconv.Itoa(w.lists[k]) + ". ")
			w.lists[k]++
		} else {
			w.put("- ")
		}
		w.children(n)
		w.endLine(false)
	case atom.Pre:
		w.pre++
		w.block(n)
		w.pre--
	case atom.P:
		w.block(n)
		// Outlook's paragraphs are its lines; others are paragraphs.
		cls := attr(n, "class")
		if !strings.Contains(cls, "mso") && !containsAny(style, "margin:0", "margin-bottom:0", "margin-block-end:0") {
			w.blankLine()
		}
	default:
		if blockElement(n.DataAtom) {
			w.block(n)
		} else {
			w.children(n)
		}
	}
	if quoting {
		w.endLine(false)
		w.quote--
	}
}

// block renders a block element on its own lines.
func (w *htmlWriter) block(n *html.Node) {
	w.endLine(false)
	w.children(n)
	w.endLine(false)
}

// children renders n's children.
func (w *htmlWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

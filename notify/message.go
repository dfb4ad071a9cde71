package notify

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"mime"
	"net/mail"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"
	"unicode"
	"unicode/utf8"

	gomessage "github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/notify/mailtext"
	"github.com/courrier-games/courrier/notify/words"
)

// Mail is one message to render.
type Mail struct {
	Kind string // one of the Kind* constants
	// Lang is the language the mail is written in, its recipient's (one of
	// games.Languages; empty or another: English). Its Data's sentences
	// must be said in it too.
	Lang string
	From mail.Address // e.g. {Name: "courrier", Address: "play@example.org"}
	To   mail.Address
	// ReplyTo is a bare address (m+TOKEN@example.org); empty: no Reply-To.
	ReplyTo string
	// MessageID is the mail's id without angle brackets, e.g.
	// g.abc123.v12.s1.prompt@example.org.
	MessageID string
	// InReplyTo is the id answered (a game's thread root), without
	// brackets; empty: no In-Reply-To.
	InReplyTo string
	// References are the ids of the thread, without brackets; empty: no
	// References.
	References []string
	// Unsubscribe is the one-click https URL (RFC 8058); empty: no
	// List-Unsubscribe header fields.
	Unsubscribe string
	// UnsubscribeMailto is a bare address offered as the mailto: way to
	// unsubscribe, next to Unsubscribe; may be empty.
	UnsubscribeMailto string
	Date              time.Time
	// Data is the Kind's data, a value (not a pointer): PromptData for
	// KindPrompt, ReceiptData for KindReceipt, and so on.
	Data any
	// Attachments are files sent with the mail (a game's record with the
	// game-over mail).
	Attachments []Attachment
	// Inline are pictures the HTML part shows by their cid: URL (the
	// board drawn, in a prompt): the HTML and they go in one
	// multipart/related part, after the complete text/plain part.
	Inline []InlineImage
	// Talk is the game's table talk the recipient had not been mailed
	// yet, said in Lang (notify/talk.go): every mail about a game carries
	// it, in a section of its own.
	Talk []TalkLine
}

// InlineImage is a picture shown inside a mail's HTML part: the templates
// place it with <img src="{{cid .CID}}" alt=...>, the alt being the
// template's words.
type InlineImage struct {
	CID         string // its Content-ID without brackets: "board.v12@example.org"
	ContentType string // "image/png"
	// Width and Height are the size it is shown at in CSS pixels (the PNG
	// may be denser).
	Width, Height int
	Data          []byte
}

// Attachment is a file attached to a mail.
type Attachment struct {
	Name        string // the file name, "game-abc.txt"
	ContentType string // "text/plain; charset=utf-8"
	Data        []byte
}

// The kinds of mail courrier sends. Those a player may turn off are
// api/auth's MailKinds, under the same names; a refusal and a sign-in link
// are always sent, as is any answer to a person's own mail.
const (
	KindPrompt     = auth.MailPrompt     // a seat's turn: its view and its moves (PromptData)
	KindReceipt    = auth.MailReceipt    // a move by mail was played (ReceiptData)
	KindRefusal    = "refusal"           // a mail changed nothing, and why (RefusalData)
	KindGameOver   = auth.MailGameOver   // the result and the seed (GameOverData)
	KindInvitation = auth.MailInvitation // an invitation to take a seat (InvitationData)
	KindLogin      = "login"             // a sign-in link (LoginData)
	KindNotice     = auth.MailNotice     // an answer to a lobby command, or a dispute in a game (NoticeData)
	KindReminder   = auth.MailReminder   // a seat's turn again, before its deadline (PromptData, Reminder set)
	KindTalk       = auth.MailTalk       // table talk, each message at once, for who asked (NoticeData)
)

// GameRef names a game in a mail.
type GameRef struct {
	ID       string
	Kind     string // the game's kind, "coyote"
	Name     string // its display name, "Coyote"
	URL      string // the game's page; empty: not shown
	RulesURL string // its rules; empty: not shown
}

// PromptData is a seat's turn: what happened, what it sees, what it may do.
type PromptData struct {
	Game    GameRef
	Player  string
	Version int
	View    string   // the table as the seat sees it, in words (the game's board, games.Board.Tell)
	Since   []string // what happened since the player last acted, a sentence each
	ToDo    []string // what the seat may do now, "bid or call Coyote (CY-12)"
	Choices []string // the moves, numbered 1..n in the mail
	// Deadline is when the seat should have moved, as a person reads it;
	// empty: none.
	Deadline string
	// Reminder is set in a reminder (KindReminder): the same mail, said
	// again before the deadline.
	Reminder bool
	// Commitment is the sha256 of the game's seed, set in a seat's first
	// prompt; empty: not said.
	Commitment string
	// TakeBack says the game's open take-back request, if any, as the seat
	// reads it (what to answer); empty: none.
	TakeBack string
}

// ReceiptData confirms moves played by mail.
type ReceiptData struct {
	Game   GameRef
	Player string
	Moves  []string
	// Caused is what the moves did, a sentence each, in the game's words
	// for the mover's seat: the moves themselves and every consequence.
	Caused  []string
	Version int    // the game's version after the moves
	Head    string // the receipt of the game's log after them (archive.ReceiptHead), in hex
	// Refused says which line was not played and why, as a sentence in the
	// mail's language; empty: every line was.
	Refused string
}

// RefusalData answers a mail that changed nothing.
type RefusalData struct {
	// Lang is the language the refusal is written in (its sentences are
	// said in it): an answer is queued with its data, and its Mail.Lang is
	// this.
	Lang    string
	Game    GameRef // may be zero: the mail named no game
	Player  string
	Sent    []string // the lines the mail held
	Problem string   // why nothing was played
	Rule    string   // the rule's id; may be empty
	Choices []string // the legal moves now, numbered; empty: not their turn
	Version int      // the version Choices (or Verbs) belong to
	// Verbs says the refusal's reply address takes the reply verbs
	// (dispute, away, …) for the player's seat: it lists no moves.
	Verbs bool
}

// GameOverData tells a seat how a game ended and reveals its seed.
type GameOverData struct {
	Game    GameRef
	Player  string
	Summary string   // "Ana wins"
	Since   []string // what happened since the player last acted, a sentence each
	Scores  []string // the standings, best first: "Ana: 3", "Team 1 (Ana and Cleo): …"
	// View is the table at the end as the seat sees it, told in words (the
	// game's board); empty for a game without a board.
	View       string
	Seed       string // the game's secret seed, now revealed
	Commitment string // the sha256 of the seed, published at creation
	Version    int
	Head       string
	RecordURL  string // the full record; may be empty
	// RecordFile names the record attached to the mail; empty: none.
	RecordFile string
}

// InvitationData invites someone to take a seat in a game.
type InvitationData struct {
	Game    GameRef
	Inviter string
	// InviterAddress is the inviter's confirmed address, so that the
	// invitee knows who invites them; empty when unconfirmed.
	InviterAddress string
	Players        []string // who is invited or seated, by display name or "someone"
	Name           string   // a suggested player name, for "join <name>"
	Commitment     string   // the sha256 of the game's seed, published at creation
	// Standings are the seated players' figures over the last 12 months
	// ("Bob: 23 games, 96% of deadlines met").
	Standings []Standing
}

// Standing is a player's reliability as an invitation tells it.
type Standing struct {
	Name  string
	Games int  // games finished
	Due   bool // whether any deadline was due (else Met means nothing)
	Met   int  // percent of deadlines met
}

// LoginData carries a sign-in link.
type LoginData struct {
	URL     string
	Expires string // how long the link works, as a person reads it: "15 minutes"
}

// NoticeData is a free-form answer: paragraphs, then a preformatted block.
type NoticeData struct {
	// Lang is the language the notice is written in, as RefusalData's.
	Lang       string
	Subject    string // "[courrier] " is put in front when missing
	Paragraphs []string
	Lines      []string // preformatted lines, a games list or the help
}

// Renderer turns a Mail into the bytes of an RFC 5322 message: a
// multipart/alternative of a text/plain and a text/html part, written in
// the mail's language. It is safe for concurrent use.
type Renderer struct {
	// The templates by language, then by kind: each language's set is
	// parsed with the template functions that say its words.
	text map[string]map[string]*texttemplate.Template
	html map[string]map[string]*htmltemplate.Template
}

//go:embed templates
var msgTemplates embed.FS

// msgKinds are the kinds a Renderer knows.
func msgKinds() []string {
	return []string{KindPrompt, KindReceipt, KindRefusal, KindGameOver, KindInvitation, KindLogin, KindNotice, KindReminder, KindTalk}
}

// msgFile is the template file of a kind: a reminder is a prompt said again.
func msgFile(kind string) string {
	switch kind {
	case KindReminder:
		return KindPrompt
	case KindTalk:
		return KindNotice
	}
	return kind
}

// NewRenderer parses the mail templates, once for each language courrier
// speaks.
func NewRenderer() (*Renderer, error) {
	r := &Renderer{text: map[string]map[string]*texttemplate.Template{}, html: map[string]map[string]*htmltemplate.Template{}}
	for _, lang := range games.Languages() {
		sp := speakerIn(lang)
		r.text[lang], r.html[lang] = map[string]*texttemplate.Template{}, map[string]*htmltemplate.Template{}
		for _, kind := range msgKinds() {
			t, err := texttemplate.New(kind).Funcs(sp.textFuncs()).ParseFS(msgTemplates, "templates/layout.txt", "templates/"+msgFile(kind)+".txt")
			if err != nil {
				return nil, fmt.Errorf("mail templates of %s: %w", kind, err)
			}
			h, err := htmltemplate.New(kind).Funcs(sp.htmlFuncs()).ParseFS(msgTemplates, "templates/layout.html", "templates/"+msgFile(kind)+".html")
			if err != nil {
				return nil, fmt.Errorf("mail templates of %s: %w", kind, err)
			}
			for _, name := range []string{"layout", "subject", "body"} {
				if t.Lookup(name) == nil || h.Lookup(name) == nil {
					return nil, fmt.Errorf("mail templates of %s: no %q template", kind, name)
				}
			}
			r.text[lang][kind], r.html[lang][kind] = t, h
		}
	}
	return r, nil
}

// mailPage is what the templates see.
type mailPage struct {
	Kind        string
	Lang        string // the language the mail is written in
	Marker      string // the reply marker in Lang for the kinds a person may answer, else ""
	Subject     string // the Subject header field (in the HTML's title)
	Unsubscribe string
	Data        any
	Inline      []InlineImage // the pictures the HTML part may show
	Talk        []TalkLine    // the table talk section (Mail.Talk)
}

// msgAnswerable reports whether a person may answer a mail of kind: those
// start with the reply marker.
func msgAnswerable(kind string) bool {
	return kind == KindPrompt || kind == KindReminder || kind == KindRefusal || kind == KindInvitation || kind == KindNotice ||
		kind == KindReceipt || kind == KindGameOver || kind == KindTalk
}

// msgCheckData says what is wrong when data is not the data of kind.
func msgCheckData(kind string, data any) error {
	var want any
	switch kind {
	case KindPrompt, KindReminder:
		want = PromptData{}
	case KindReceipt:
		want = ReceiptData{}
	case KindRefusal:
		want = RefusalData{}
	case KindGameOver:
		want = GameOverData{}
	case KindInvitation:
		want = InvitationData{}
	case KindLogin:
		want = LoginData{}
	case KindNotice, KindTalk:
		want = NoticeData{}
	default:
		return fmt.Errorf("render mail: unknown kind %q", kind)
	}
	if reflect.TypeOf(data) != reflect.TypeOf(want) {
		return fmt.Errorf("render %s mail: Data is %T, want %T", kind, data, want)
	}
	return nil
}

// prepare checks m's kind and data and makes the templates' input.
func (r *Renderer) prepare(m Mail) (mailPage, error) {
	if err := msgCheckData(m.Kind, m.Data); err != nil {
		return mailPage{}, err
	}
	lang := mailLang(m.Lang)
	p := mailPage{Kind: m.Kind, Lang: lang, Unsubscribe: m.Unsubscribe, Data: m.Data, Inline: m.Inline, Talk: m.Talk}
	if msgAnswerable(m.Kind) {
		p.Marker = speakerIn(lang).t(words.MarkerKey)
	}
	var b strings.Builder
	if err := r.text[lang][m.Kind].ExecuteTemplate(&b, "subject", p); err != nil {
		return mailPage{}, fmt.Errorf("render %s mail: subject: %w", m.Kind, err)
	}
	p.Subject = strings.Join(strings.Fields(b.String()), " ")
	return p, nil
}

// mailLang is the language of Languages a mail is written in: lang, or
// English for none or another.
func mailLang(lang string) string {
	if l, ok := games.Language(lang); ok {
		return l
	}
	return games.English
}

// Subject returns the Subject of m, decoded: what Render puts in the
// header.
func (r *Renderer) Subject(m Mail) (string, error) {
	p, err := r.prepare(m)
	return p.Subject, err
}

// Render renders m as the bytes of a message, with CRLF line ends. The same
// Mail always renders to the same bytes (the MIME boundary derives from the
// Message-ID). Errors name the kind.
func (r *Renderer) Render(m Mail) ([]byte, error) {
	p, err := r.prepare(m)
	if err != nil {
		return nil, err
	}
	h, err := msgHeader(m, p.Subject)
	if err != nil {
		return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
	}
	var text, html bytes.Buffer
	if err := r.text[p.Lang][m.Kind].ExecuteTemplate(&text, "layout", p); err != nil {
		return nil, fmt.Errorf("render %s mail: text: %w", m.Kind, err)
	}
	if err := r.html[p.Lang][m.Kind].ExecuteTemplate(&html, "layout", p); err != nil {
		return nil, fmt.Errorf("render %s mail: html: %w", m.Kind, err)
	}
	var out bytes.Buffer
	top, err := gomessage.CreateWriter(&out, msgMixed(h, m))
	if err != nil {
		return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
	}
	w := top
	if len(m.Attachments) > 0 {
		// multipart/mixed: the alternative of text and HTML, then the files.
		var ah gomessage.Header
		ah.SetContentType("multipart/alternative", msgBoundary(m.MessageID, ""))
		if w, err = top.CreatePart(ah); err != nil {
			return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
		}
	}
	for _, part := range []struct {
		typ  string
		body string
	}{{"text/plain", msgTidy(text.String())}, {"text/html", msgTidy(html.String())}} {
		pw := w
		if part.typ == "text/html" && len(m.Inline) > 0 {
			// multipart/related: the HTML, then the pictures it shows.
			var rh gomessage.Header
			rh.SetContentType("multipart/related", map[string]string{"boundary": msgBoundary(m.MessageID, "related_")["boundary"], "type": "text/html"})
			if pw, err = w.CreatePart(rh); err != nil {
				return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
			}
		}
		if err := msgText(pw, part.typ, part.body); err != nil {
			return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
		}
		if pw != w {
			for _, img := range m.Inline {
				if err := msgInline(pw, img); err != nil {
					return nil, fmt.Errorf("render %s mail: picture %s: %w", m.Kind, img.CID, err)
				}
			}
			if err := pw.Close(); err != nil {
				return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
	}
	if len(m.Attachments) > 0 {
		for _, a := range m.Attachments {
			if err := msgAttach(top, a); err != nil {
				return nil, fmt.Errorf("render %s mail: attachment %s: %w", m.Kind, a.Name, err)
			}
		}
		if err := top.Close(); err != nil {
			return nil, fmt.Errorf("render %s mail: %w", m.Kind, err)
		}
	}
	return out.Bytes(), nil
}

// msgBoundary is a part boundary fixed by the message's id (and a suffix
// per level): "=_" never occurs in quoted-printable or base64 text, so no
// body holds it.
func msgBoundary(messageID, suffix string) map[string]string {
	sum := sha256.Sum256([]byte(messageID))
	return map[string]string{"boundary": "=_courrier_" + suffix + hex.EncodeToString(sum[:12])}
}

// msgMixed turns the header of a mail with attachments into a
// multipart/mixed one.
func msgMixed(h gomessage.Header, m Mail) gomessage.Header {
	if len(m.Attachments) == 0 {
		return h
	}
	h = h.Copy()
	h.SetContentType("multipart/mixed", msgBoundary(m.MessageID, "mixed_"))
	return h
}

// msgText writes a text part of type typ (quoted-printable UTF-8).
func msgText(w *gomessage.Writer, typ, body string) error {
	var ph gomessage.Header
	ph.SetContentType(typ, map[string]string{"charset": "utf-8"})
	ph.Set("Content-Transfer-Encoding", "quoted-printable")
	pw, err := w.CreatePart(ph)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(pw, body); err != nil {
		return err
	}
	return pw.Close()
}

// msgInline writes one picture of a multipart/related part, named by its
// Content-ID.
func msgInline(w *gomessage.Writer, img InlineImage) error {
	if !msgValidID(img.CID) {
		return fmt.Errorf("bad Content-ID %q", img.CID)
	}
	ct := img.ContentType
	if ct == "" {
		ct = "image/png"
	}
	var h gomessage.Header
	h.SetContentType(ct, nil)
	h.Set("Content-ID", "<"+img.CID+">")
	h.SetContentDisposition("inline", nil)
	h.Set("Content-Transfer-Encoding", "base64")
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := pw.Write(img.Data); err != nil {
		return err
	}
	return pw.Close()
}

// msgAttach writes one attachment part.
func msgAttach(w *gomessage.Writer, a Attachment) error {
	var h gomessage.Header
	ct := a.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	t, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return err
	}
	params["name"] = a.Name
	h.SetContentType(t, params)
	h.SetContentDisposition("attachment", map[string]string{"filename": a.Name})
	h.Set("Content-Transfer-Encoding", "base64")
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := pw.Write(a.Data); err != nil {
		return err
	}
	return pw.Close()
}

// msgHeader makes the message's header fields, in the order they are
// written.
func msgHeader(m Mail, subject string) (gomessage.Header, error) {
	for _, f := range []struct{ name, v string }{
		{"From", m.From.Address}, {"To", m.To.Address}, {"Message-ID", m.MessageID},
	} {
		if f.v == "" {
			return gomessage.Header{}, fmt.Errorf("no %s", f.name)
		}
	}
	if m.Date.IsZero() {
		return gomessage.Header{}, errors.New("no Date")
	}
	for _, a := range []string{m.From.Address, m.To.Address, m.ReplyTo, m.UnsubscribeMailto} {
		if a != "" && !msgValidAddress(a) {
			return gomessage.Header{}, fmt.Errorf("bad address %q", a)
		}
	}
	ids := append([]string{m.MessageID, m.InReplyTo}, m.References...)
	for _, id := range ids {
		if id != "" && !msgValidID(id) {
			return gomessage.Header{}, fmt.Errorf("bad message id %q", id)
		}
	}
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{&m.From})
	h.SetAddressList("To", []*gomail.Address{&m.To})
	if m.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*gomail.Address{{Name: m.From.Name, Address: m.ReplyTo}})
	}
	h.Set("Subject", msgEncodeSubject(subject))
	h.SetDate(m.Date)
	h.SetMessageID(m.MessageID)
	if m.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{m.InReplyTo})
	}
	if len(m.References) > 0 {
		h.SetMsgIDList("References", m.References)
	}
	h.Set("Auto-Submitted", "auto-generated")
	// Asks Exchange and Outlook not to answer with an out-of-office note.
	h.Set("X-Auto-Response-Suppress", "OOF, AutoReply")
	if m.Unsubscribe != "" {
		u, err := url.Parse(m.Unsubscribe)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(m.Unsubscribe, "<>, \t\r\n") {
			return gomessage.Header{}, fmt.Errorf("bad unsubscribe URL %q", m.Unsubscribe)
		}
		v := "<" + m.Unsubscribe + ">"
		if m.UnsubscribeMailto != "" {
			v += ", <mailto:" + m.UnsubscribeMailto + "?subject=unsubscribe>"
		}
		h.Set("List-Unsubscribe", v)
		h.Set("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h.Set("X-Courrier-Kind", m.Kind)
	h.Set("MIME-Version", "1.0")
	h.SetContentType("multipart/alternative", msgBoundary(m.MessageID, ""))

	// go-message writes the fields last added first: add them again in the
	// order it would write them, so they come out in the order set above.
	var out gomessage.Header
	for f := h.Fields(); f.Next(); {
		out.Add(f.Key(), f.Value())
	}
	return out, nil
}

// msgEncodeSubject encodes the words of s that are not plain ASCII (RFC
// 2047), each run of them as one piece, and leaves the rest readable, so
// that the field folds between words.
func msgEncodeSubject(s string) string {
	words := strings.Fields(s)
	var out, run []string
	flush := func() {
		if len(run) > 0 {
			out = append(out, mime.QEncoding.Encode("utf-8", strings.Join(run, " ")))
			run = nil
		}
	}
	for _, w := range words {
		if strings.ContainsFunc(w, func(r rune) bool { return r < ' ' || r > '~' }) {
			run = append(run, w)
			continue
		}
		flush()
		out = append(out, w)
	}
	flush()
	return strings.Join(out, " ")
}

// msgValidAddress reports whether a is a bare addr-spec.
func msgValidAddress(a string) bool {
	_, err := mail.ParseAddress("<" + a + ">")
	return err == nil && !strings.ContainsAny(a, "<>,\r\n")
}

// msgValidID reports whether id can go between angle brackets.
func msgValidID(id string) bool {
	return strings.Contains(id, "@") && !strings.ContainsFunc(id, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || r == '<' || r == '>' || r == ','
	})
}

// msgTidy cleans what a template made: trailing blanks off each line
// (except the "-- " signature separator), no leading blank lines, no runs
// of blank lines, one final newline.
func msgTidy(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l != "-- " {
			l = strings.TrimRightFunc(l, unicode.IsSpace)
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n") + "\n"
}

// msgWrap fills each line of s to about 72 characters.
func msgWrap(s string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		out = append(out, mailtext.Fill("", "", msgAtoms(l), "")...)
	}
	return strings.Join(out, "\n")
}

// msgSaid wraps what a person said (a message of the table talk) with
// every line after its first indented, so that no line of it can pass for
// a heading of the mail ("the referee to the table:"); its blank lines stay
// blank.
func msgSaid(s string) string {
	var out []string
	for i, l := range strings.Split(s, "\n") {
		first := "  "
		if i == 0 {
			first = ""
		}
		if strings.TrimSpace(l) == "" {
			out = append(out, "")
			continue
		}
		out = append(out, mailtext.Fill(first, "  ", msgAtoms(l), "")...)
	}
	return strings.Join(out, "\n")
}

// msgBullets makes a "- " list, each item wrapped under itself.
func msgBullets(items []string) string {
	var out []string
	for _, it := range items {
		out = append(out, mailtext.Fill("- ", "  ", msgAtoms(it), "")...)
	}
	return strings.Join(out, "\n")
}

// msgNumbered makes the list "  1. bid 4", numbers aligned.
func msgNumbered(items []string) string {
	w := len(strconv.Itoa(len(items)))
	var out []string
	for i, it := range items {
		first := fmt.Sprintf("  %*d. ", w, i+1)
		out = append(out, mailtext.Fill(first, strings.Repeat(" ", len(first)), msgAtoms(it), "")...)
	}
	return strings.Join(out, "\n")
}

// msgAtoms are the words of s as lines are filled with them: a French
// mark that a space sets apart (":", ";", "?", "!", "»") stays with the
// word before it, "«" with the word after it, and a short quotation
// between « and » (a command: « away 3d ») is kept whole, so that no line
// starts with a colon or ends with an opening quote, and a command is not
// cut.
func msgAtoms(s string) []string {
	const shortQuote = 40 // runes
	fields := strings.Fields(s)
	var out []string
	glue := false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "«" {
			// A short quotation is one atom.
			for j := i + 1; j < len(fields) && j <= i+6; j++ {
				if strings.HasPrefix(fields[j], "»") {
					if q := strings.Join(fields[i:j+1], " "); utf8.RuneCountInString(q) <= shortQuote {
						f, i = q, j
					}
					break
				}
			}
		}
		switch {
		case glue && len(out) > 0:
			out[len(out)-1] += " " + f
		case len(out) > 0 && (f == ":" || f == ";" || f == "?" || f == "!" || strings.HasPrefix(f, "»")):
			out[len(out)-1] += " " + f
		default:
			out = append(out, f)
		}
		glue = f == "«"
	}
	return out
}

// msgIndent puts n spaces before each line.
func msgIndent(n int, lines []string) string {
	pad := strings.Repeat(" ", n)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = pad + l
	}
	return strings.Join(out, "\n")
}

// msgShort cuts s at a word to about 60 characters, for a subject.
func msgShort(s string) string {
	const limit = 60
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	cut := string([]rune(s)[:limit])
	if i := strings.LastIndexByte(cut, ' '); i > limit/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}

// msgSentence starts s with a capital and ends it with a full stop, unless it
// already ends with one, a "?" or a "!" (maybe inside quotes or brackets).
func msgSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = msgCapital(s)
	if !strings.ContainsAny(msgLastRune(strings.TrimRight(s, ")]\"'»”’")), ".!?…") {
		s += "."
	}
	return s
}

// msgCapital starts s with a capital letter.
func msgCapital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func msgLastRune(s string) string {
	r, _ := utf8.DecodeLastRuneInString(s)
	return string(r)
}

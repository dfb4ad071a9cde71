package incoming_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/courrier-games/courrier/notify/incoming"
)

// incomingRead reads a fixture of testdata/incoming.
func incomingRead(t *testing.T, name, envelope string) incoming.Message {
	t.Helper()
	raw, err := fs.ReadFile(os.DirFS(filepath.Join("testdata", "incoming")), name)
	if err != nil {
		t.Fatal(err)
	}
	return incomingParse(t, raw, envelope)
}

// incomingParse reads raw with no DNS (every key lookup fails as absent).
func incomingParse(t *testing.T, raw []byte, envelope string) incoming.Message {
	t.Helper()
	in, err := incoming.Read(context.Background(), raw, envelope, incomingNoDNS)
	if err != nil {
		t.Fatalf("ReadIncoming: %v", err)
	}
	return in
}

func incomingNoDNS(_ context.Context, domain string) ([]string, error) {
	return nil, &net.DNSError{Err: "no such host", Name: domain, IsNotFound: true}
}

// incomingMail wraps a UTF-8 text body as a reply, with extra header lines.
func incomingMail(extra, body string) []byte {
	msg := "From: Ana Lima <ana@example.org>\nTo: courrier <m+AbC123@courrier.example>\n" +
		"Subject: Re: [courrier] Coyote g7k2: your move\nMessage-ID: <r1@example.org>\n" +
		"In-Reply-To: <prompt.g7k2.12@courrier.example>\nMIME-Version: 1.0\n" + extra +
		"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + body + "\n"
	return []byte(strings.ReplaceAll(msg, "\n", "\r\n"))
}

// incomingPrompt is courrier's prompt as the fixtures quote it.
const incomingPrompt = incoming.ReplyMarker + `

Ana, it is your turn in Coyote g7k2 (version 12).

Bob bid 4.

Reply with your move, as written or by its number:
1. bid 5
2. coyote

Play on the web: https://courrier.example/g/g7k2`

// quotedPrompt is the prompt quoted as mail programs do: "> " before
// every line.
func quotedPrompt() string {
	lines := strings.Split(incomingPrompt, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestReadIncomingMailPrograms(t *testing.T) {
	for _, tc := range []struct {
		file  string
		text  string
		moves []string
	}{
		{"gmail_en.eml", "bid 5", []string{"bid 5"}},
		{"gmail_en_us.eml", "2\n\nThanks, good game so far!\nAna", []string{"2"}},
		{"apple_mail_en.eml", "Bid 5 please.", []string{"Bid 5 please."}},
		{"ios_mail_en.eml", "1", []string{"1"}},
		{"thunderbird_top.eml", "bid 5\nand good luck, Bob", []string{"bid 5", "and good luck, Bob"}},
		{"thunderbird_bottom.eml", "coyote", []string{"coyote"}},
		{"outlook_desktop.eml", "bid 5", []string{"bid 5"}},
		{"outlook_plain.eml", "coyote", []string{"coyote"}},
		{"outlook_web.eml", "bid 5", []string{"bid 5"}},
		{"outlook_fr.eml", "2\n\nMerci, à bientôt", []string{"2"}},
		{"outlook_fr_plain.eml", "coyote", []string{"coyote"}},
		{"outlook_de.eml", "Gebot 5", []string{"Gebot 5"}},
		{"outlook_de_plain.eml", "Kojote!", []string{"Kojote!"}},
		{"outlook_es.eml", "1", []string{"1"}},
		{"outlook_it.eml", "coyote", []string{"coyote"}},
		{"k9.eml", "bid 5", []string{"bid 5"}},
		{"fairemail.eml", "coyote", []string{"coyote"}},
		{"gmail_fr.eml", "1", []string{"1"}},
		{"apple_fr.eml", "Je passe : coyote !", []string{"Je passe : coyote !"}},
		{"gmail_de.eml", "2", []string{"2"}},
		{"apple_de.eml", "Ich sage: Kojote", []string{"Ich sage: Kojote"}},
		{"gmail_es.eml", "coyote", []string{"coyote"}},
		{"apple_es.eml", "Subo a 5", []string{"Subo a 5"}},
		{"gmail_it.eml", "bid 5", []string{"bid 5"}},
		{"apple_it.eml", "coyote", []string{"coyote"}},
		{"html_gmail.eml", "bid 5\n\nBonne chance & merci !", []string{"bid 5"}},
		{"html_outlook.eml", "Coyote !\n(désolé Bob)\n\nAna", []string{"Coyote !", "(désolé Bob)"}},
		{"html_owa.eml", "2", []string{"2"}},
		{"windows1252.eml", "J’enchéris : 5 €\n« coyote » au prochain tour", []string{"J’enchéris : 5 €", "« coyote » au prochain tour"}},
		{"latin1.eml", "Enchère : 5\nÀ toi, Gaëlle.", []string{"Enchère : 5", "À toi, Gaëlle."}},
		{"latin9.eml", "Mise : 5 €, œuf corse", []string{"Mise : 5 €, œuf corse"}},
		{"undeclared_8bit.eml", "coyote, très bien", []string{"coyote, très bien"}},
		{"base64_utf8.eml", "coyote ☺", []string{"coyote ☺"}},
		{"attachment_first.eml", "bid 5", []string{"bid 5"}},
		{"top_quoted.eml", "coyote", []string{"coyote"}},
		{"top_unquoted.eml", "bid 5", []string{"bid 5"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := incomingRead(t, tc.file, "ana@example.org")
			if in.Text != tc.text {
				t.Errorf("Text = %q, want %q", in.Text, tc.text)
			}
			if got := incoming.MoveLines(in.Text); !slices.Equal(got, tc.moves) {
				t.Errorf("MoveLines = %q, want %q", got, tc.moves)
			}
			if in.Automatic != "" {
				t.Errorf("Automatic = %q for a person's reply", in.Automatic)
			}
			if in.From == nil || !strings.HasSuffix(in.From.Address, "@example.org") {
				t.Errorf("From = %v", in.From)
			}
			if in.InReplyTo != "prompt.g7k2.12@courrier.example" {
				t.Errorf("InReplyTo = %q", in.InReplyTo)
			}
		})
	}
}

func TestReplyTextTrimming(t *testing.T) {
	gmail := "On Mon, 23 Nov 2026 at 10:00, courrier <play@courrier.example> wrote:\n\n" + quotedPrompt()
	for _, tc := range []struct {
		name, body, text string
		moves            []string
	}{
		{"signature dash", "bid 5\n\n-- \nAna Lima\n+33 6 00 00 00 00\n\n" + gmail, "bid 5", []string{"bid 5"}},
		{"signature dash no space", "bid 5\n--\nAna\n\n" + gmail, "bid 5", []string{"bid 5"}},
		{"sent from my iphone", "coyote\n\nSent from my iPhone\n\n" + gmail, "coyote", []string{"coyote"}},
		{"envoyé de mon iphone", "coyote\n\nEnvoyé de mon iPhone\n\n" + gmail, "coyote", []string{"coyote"}},
		{"von meinem iphone", "coyote\n\nVon meinem iPhone gesendet\n\n" + gmail, "coyote", []string{"coyote"}},
		{"enviado desde mi iphone", "coyote\n\nEnviado desde mi iPhone\n\n" + gmail, "coyote", []string{"coyote"}},
		{"inviato da iphone", "coyote\n\nInviato da iPhone\n\n" + gmail, "coyote", []string{"coyote"}},
		{"get outlook for android", "coyote\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n\n" + gmail, "coyote", []string{"coyote"}},
		{"sent from mail for windows", "coyote\n\nSent from Mail for Windows\n\n" + gmail, "coyote", []string{"coyote"}},
		{"marker unquoted", "bid 5\n\n" + incomingPrompt, "bid 5", []string{"bid 5"}},
		{"marker lower-cased", "bid 5\n\n" + strings.ToLower(incomingPrompt), "bid 5", []string{"bid 5"}},
		{"marker without hashes", "bid 5\nReply above this line\n1. bid 5\n2. coyote", "bid 5", []string{"bid 5"}},
		{"marker inside a line", "bid 5\n*## REPLY ABOVE THIS LINE ##*\n1. bid 5", "bid 5", []string{"bid 5"}},
		{"quoted twice", "2\n>> " + incoming.ReplyMarker + "\n>> 1. bid 5", "2", []string{"2"}},
		{"no quote at all", "new coyote bob@example.org cleo@example.org\n\nSee you there", "new coyote bob@example.org cleo@example.org\n\nSee you there", []string{"new coyote bob@example.org cleo@example.org"}},
		{"several move lines", "bid 5\npass\n\nthanks\n\n" + gmail, "bid 5\npass\n\nthanks", []string{"bid 5", "pass"}},
		{"case kept", "Bid Five, Please\n\n" + gmail, "Bid Five, Please", []string{"Bid Five, Please"}},
		{"bare CR and no-break spaces", "bid\u00a05\r\r" + strings.ReplaceAll(gmail, "\n", "\r\n"), "bid 5", []string{"bid 5"}},
		{"field-like move lines kept", "a: 3\nTo: Paris\n\n" + gmail, "a: 3\nTo: Paris", []string{"a: 3", "To: Paris"}},
		{"a line like a signature within the text", "Sent by the king: 3 armies\nbid 5\n\n" + gmail, "Sent by the king: 3 armies\nbid 5", []string{"Sent by the king: 3 armies", "bid 5"}},
		{"field-like line last", "bid 5\nSubject: the coyote\n\n" + gmail, "bid 5\nSubject: the coyote", []string{"bid 5", "Subject: the coyote"}},
		{"interleaved", "> Reply with your move:\ncoyote\n\n> Play on the web\n", "coyote", []string{"coyote"}},
		{"turkish header (an attribution above a quote)", "2\n\n23 Kas 2026 Pzt 10:00 tarihinde courrier <play@courrier.example> şunu yazdı:\n\n" + quotedPrompt(), "2", []string{"2"}},
		{"dutch header", "2\n\nOp ma 23 nov. 2026 om 10:00 schreef courrier <play@courrier.example>:\n\n" + quotedPrompt(), "2", []string{"2"}},
		{"polish header", "2\n\nW dniu 23.11.2026 o 10:00, courrier <play@courrier.example> napisał:\n" + quotedPrompt(), "2", []string{"2"}},
		{"begin forwarded message", "bid 5\n\nBegin forwarded message:\n\nFrom: courrier <play@courrier.example>\nSubject: x\n\n" + incomingPrompt, "bid 5", []string{"bid 5"}},
		{"pgp clear-signed", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\ncoyote\n-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----\n\n" + gmail, "coyote", []string{"coyote"}},
		{"header without colon (library)", "bid 5\n\nOn 2026-11-23 courrier wrote\n\n> q", "bid 5", []string{"bid 5"}},
		{"delimiter ends the reply (library)", "bid 5\n---\nthanks", "bid 5", []string{"bid 5"}},
		{"chinese header", "bid 5\n\n在 2026年11月23日 10:00，courrier <play@courrier.example> 写道：\n> q", "bid 5", []string{"bid 5"}},
		{"dutch outlook block", "bid 5\n\nVan: courrier <play@courrier.example>\nVerzonden: maandag 23 november 2026 10:00\nAan: Ana\nOnderwerp: x\n\n" + incomingPrompt, "bid 5", []string{"bid 5"}},
		{"user lines like a header", "From: Paris\nTo: Lyon\n\nFrom: courrier <play@courrier.example>\nSent: Monday, 23 November 2026 10:00\nTo: Ana\nSubject: x\n\n" + incomingPrompt, "From: Paris\nTo: Lyon", []string{"From: Paris", "To: Lyon"}},
		{"a line like a header start", "On Monday I attack.\nOn Mon, 23 Nov 2026 at 10:00, courrier <play@courrier.example>\nwrote:\n> q", "On Monday I attack.", []string{"On Monday I attack."}},
		{"only the quote", gmail, "", nil},
		{"empty", "", "", nil},
		{"more than 20 lines", strings.Repeat("x\n", 25) + "\n" + gmail, strings.TrimSuffix(strings.Repeat("x\n", 25), "\n"), slices.Repeat([]string{"x"}, 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := incomingParse(t, incomingMail("", tc.body), "ana@example.org")
			if in.Text != tc.text {
				t.Errorf("Text = %q, want %q", in.Text, tc.text)
			}
			if got := incoming.MoveLines(in.Text); !slices.Equal(got, tc.moves) {
				t.Errorf("MoveLines = %q, want %q", got, tc.moves)
			}
		})
	}
}

func TestMoveLines(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"\n\n  bid 5  \n  pass\n\nthanks", []string{"bid 5", "pass"}},
		{"bid 5\r\ncoyote\r\n\r\nlater", []string{"bid 5", "coyote"}},
		{"\u00a0\nbid\u00a05", []string{"bid 5"}},
	} {
		if got := incoming.MoveLines(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("MoveLines(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestReadIncomingHeaders(t *testing.T) {
	raw := []byte("From: =?ISO-8859-1?Q?Ga=EBlle_L=E9vy?= <gaelle@example.org>\r\n" +
		"Subject: =?UTF-8?B?UmU6IFtjb3Vycmllcl0gw6AgdG9p?=\r\n" +
		"Message-ID: <abc@example.org>\r\nIn-Reply-To: <p1@courrier.example> (Ana's mail)\r\n" +
		"References: <g@courrier.example>\r\n\t<p1@courrier.example>\r\n" +
		"Authentication-Results: mx2.courrier.example; dkim=pass header.d=example.org\r\n" +
		"Authentication-Results: mx1.courrier.example; spf=pass smtp.mailfrom=example.org\r\n" +
		"\r\nbid 5\r\n")
	in := incomingParse(t, raw, "gaelle@example.org")
	if in.From == nil || in.From.Name != "Gaëlle Lévy" || in.From.Address != "gaelle@example.org" {
		t.Errorf("From = %+v", in.From)
	}
	if in.Subject != "Re: [courrier] à toi" || in.MessageID != "abc@example.org" || in.InReplyTo != "p1@courrier.example" {
		t.Errorf("Subject %q, MessageID %q, InReplyTo %q", in.Subject, in.MessageID, in.InReplyTo)
	}
	if !slices.Equal(in.References, []string{"g@courrier.example", "p1@courrier.example"}) {
		t.Errorf("References = %q", in.References)
	}
	if want := "mx2.courrier.example; dkim=pass header.d=example.org\nmx1.courrier.example; spf=pass smtp.mailfrom=example.org"; in.AuthResults != want {
		t.Errorf("AuthResults = %q, want %q", in.AuthResults, want)
	}
	if in.Text != "bid 5" || in.DKIM != "none" || in.Automatic != "" {
		t.Errorf("Text %q, DKIM %q, Automatic %q", in.Text, in.DKIM, in.Automatic)
	}

	in = incomingParse(t, []byte("From: Dupont, Jean <jean@example.org>\r\nSubject: x\r\n\r\nbid 5\r\n"), "jean@example.org")
	if in.From == nil || in.From.Address != "jean@example.org" || in.From.Name != "Dupont, Jean" {
		t.Errorf("unquoted comma: From = %+v", in.From)
	}
	if in.MessageID != "" || in.InReplyTo != "" || in.References != nil {
		t.Errorf("absent ids: %q %q %q", in.MessageID, in.InReplyTo, in.References)
	}
	in = incomingParse(t, []byte("Subject: x\r\n\r\nbid 5\r\n"), "jean@example.org")
	if in.From != nil {
		t.Errorf("no From: %+v", in.From)
	}
	if _, err := incoming.Read(context.Background(), []byte(" bad\r\nheader\r\n\r\n"), "x@example.org", incomingNoDNS); err == nil {
		t.Error("an unreadable header was read")
	}
}

func TestReadIncomingAutomatic(t *testing.T) {
	for _, tc := range []struct {
		file, envelope, want string
	}{
		{"auto_gmail_vacation.eml", "ana@example.org", "auto-reply (Auto-Submitted: auto-replied)"},
		{"auto_exchange_oof.eml", "ana@corp.example", "automatic (Auto-Submitted: auto-generated)"},
		{"auto_exchange_oof_fr.eml", "ana@corp.example", "auto-reply (Subject:"},
		{"auto_icloud_vacation.eml", "ana@icloud.com", "auto-reply (Auto-Submitted: auto-replied (vacation))"},
		{"auto_bounce_dsn.eml", "", "null sender"},
		{"auto_bounce_dsn.eml", "MAILER-DAEMON@mx.example.org", "null sender (Return-Path: <>)"},
		{"auto_exchange_ndr.eml", "postmaster@corp.example", "delivery report (multipart/report; report-type=delivery-status)"},
		{"auto_read_receipt.eml", "ana@example.org", "read receipt (multipart/report; report-type=disposition-notification)"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := incomingRead(t, tc.file, tc.envelope)
			if !strings.HasPrefix(in.Automatic, tc.want) {
				t.Errorf("Automatic = %q, want it to start with %q", in.Automatic, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name, extra, envelope, want string
	}{
		{"auto-submitted no", "Auto-Submitted: no\n", "ana@example.org", ""},
		{"outlook suppression alone", "X-Auto-Response-Suppress: All\n", "ana@example.org", ""},
		{"auto-generated", "Auto-Submitted: auto-generated\n", "ana@example.org", "automatic (Auto-Submitted: auto-generated)"},
		{"x-autoreply", "X-Autoreply: yes\n", "ana@example.org", "auto-reply (X-Autoreply: yes)"},
		{"x-autorespond", "X-Autorespond: Out of office\n", "ana@example.org", "auto-reply (X-Autorespond: Out of office)"},
		{"inbox rules loop", "X-MS-Exchange-Inbox-Rules-Loop: ana@corp.example\n", "ana@example.org", "auto-reply (X-MS-Exchange-Inbox-Rules-Loop: ana@corp.example)"},
		{"precedence bulk", "Precedence: bulk\n", "ana@example.org", "bulk mail (Precedence: bulk)"},
		{"precedence junk", "Precedence: junk\n", "ana@example.org", "bulk mail (Precedence: junk)"},
		{"precedence list", "Precedence: list\n", "ana@example.org", "mailing list (Precedence: list)"},
		{"precedence auto_reply", "Precedence: auto_reply\n", "ana@example.org", "auto-reply (Precedence: auto_reply)"},
		{"list-id", "List-Id: Players <players.lists.example.org>\n", "ana@example.org", "mailing list (List-Id: Players <players.lists.example.org>)"},
		{"list-unsubscribe", "List-Unsubscribe: <mailto:leave@lists.example.org>\n", "ana@example.org", "mailing list (List-Unsubscribe: <mailto:leave@lists.example.org>)"},
		{"x-loop", "X-Loop: ana@example.org\n", "ana@example.org", "mail loop (X-Loop: ana@example.org)"},
		{"null sender", "", "", "null sender"},
		{"null sender brackets", "", "<>", "null sender"},
		{"postmaster", "", "postmaster@example.org", "mailer daemon (postmaster@example.org)"},
		{"failed recipients", "X-Failed-Recipients: ana@example.org\n", "ana@example.org", "delivery report (X-Failed-Recipients: ana@example.org)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := incomingParse(t, incomingMail(tc.extra, "bid 5"), tc.envelope)
			if in.Automatic != tc.want {
				t.Errorf("Automatic = %q, want %q", in.Automatic, tc.want)
			}
		})
	}

	for _, from := range []string{"MAILER-DAEMON@mx.example.org", "Mail Delivery Subsystem <mailer-daemon@googlemail.com>", "no-reply@example.org"} {
		in := incomingParse(t, []byte("From: "+from+"\r\nSubject: x\r\n\r\nbid 5\r\n"), "bounces@example.org")
		if in.Automatic == "" {
			t.Errorf("From %s: not automatic", from)
		}
	}

	// The subject only backs another sign up.
	subject := func(s, extra string, reply bool) []byte {
		irt := "In-Reply-To: <prompt.g7k2.12@courrier.example>\r\n"
		if !reply {
			irt = ""
		}
		return []byte("From: Ana <ana@example.org>\r\nSubject: " + s + "\r\n" + irt + extra + "\r\nbid 5\r\n")
	}
	for _, tc := range []struct {
		raw  []byte
		auto bool
	}{
		{subject("Out of Office: [courrier] your move", "", true), false},
		{subject("Automatic reply: [courrier] your move", "X-Auto-Response-Suppress: DR, OOF, AutoReply\r\n", true), true},
		{subject("Abwesenheitsnotiz: [courrier] your move", "", false), true},
		{subject("Respuesta automática: [courrier] your move", "X-Auto-Response-Suppress: All\r\n", true), true},
		{subject("Risposta automatica: [courrier] your move", "", false), true},
		{subject("Re: [courrier] Out of office? No: bid 5", "X-Auto-Response-Suppress: All\r\n", true), false},
	} {
		in := incomingParse(t, tc.raw, "ana@example.org")
		if (in.Automatic != "") != tc.auto {
			t.Errorf("%q: Automatic = %q, want automatic %v", in.Subject, in.Automatic, tc.auto)
		}
	}
}

func TestReadIncomingDKIM(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(_ context.Context, domain string) ([]string, error) {
		if domain == "sel._domainkey.example.org" {
			return []string{record}, nil
		}
		return incomingNoDNS(context.Background(), domain)
	}
	sign := func(raw []byte, domain string) []byte {
		var out bytes.Buffer
		if err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: "sel", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	read := func(raw []byte, lookup func(context.Context, string) ([]string, error)) incoming.Message {
		t.Helper()
		in, err := incoming.Read(context.Background(), raw, "ana@example.org", lookup)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	signed := sign(incomingMail("", "bid 5"), "example.org")

	if in := read(signed, lookup); in.DKIM != "pass d=example.org" || in.Text != "bid 5" {
		t.Errorf("signed: DKIM %q, Text %q", in.DKIM, in.Text)
	}
	tampered := bytes.Replace(signed, []byte("bid 5"), []byte("bid 9"), 1)
	if in := read(tampered, lookup); in.DKIM != "fail d=example.org: body hash did not verify" {
		t.Errorf("tampered: DKIM %q", in.DKIM)
	}
	if in := read(incomingMail("", "bid 5"), lookup); in.DKIM != "none" {
		t.Errorf("unsigned: DKIM %q", in.DKIM)
	}
	failing := func(context.Context, string) ([]string, error) { return nil, errors.New("SERVFAIL") }
	if in := read(signed, failing); !strings.HasPrefix(in.DKIM, "temperror d=example.org: ") || !strings.Contains(in.DKIM, "SERVFAIL") {
		t.Errorf("lookup error: DKIM %q", in.DKIM)
	}
	if in := read(sign(incomingMail("", "bid 5"), "other.example"), lookup); !strings.HasPrefix(in.DKIM, "fail d=other.example: no key for signature") {
		t.Errorf("no key: DKIM %q", in.DKIM)
	}
	twice := sign(signed, "other.example")
	if in := read(twice, lookup); !strings.HasPrefix(in.DKIM, "fail d=other.example: no key") || !strings.HasSuffix(in.DKIM, "; pass d=example.org") {
		t.Errorf("two signatures: DKIM %q", in.DKIM)
	}
	// A nil lookup uses the system resolver, here cut off by the context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in, err := incoming.Read(ctx, signed, "ana@example.org", nil)
	if err != nil || !strings.HasPrefix(in.DKIM, "temperror d=example.org: ") {
		t.Errorf("system resolver, cancelled: DKIM %q, err %v", in.DKIM, err)
	}
}

func TestReadIncomingHTMLReply(t *testing.T) {
	html := func(body string) []byte {
		return []byte(strings.ReplaceAll("From: Ana <ana@example.org>\nSubject: Re: x\nMIME-Version: 1.0\n"+
			"Content-Type: text/html; charset=utf-8\n\n"+body+"\n", "\n", "\r\n"))
	}
	for _, tc := range []struct {
		name, body, text string
	}{
		{"paragraphs and breaks", "<p>bid 5<br>pass</p><p>thanks &lt;3</p>", "bid 5\npass\n\nthanks <3"},
		{"lists", "<ol><li>bid 5</li><li>pass</li></ol><ul><li>note</li></ul>", "1. bid 5\n2. pass\n- note"},
		{"hidden, scripts and styles", "<style>p{}</style><span style=\"display: none\">preview</span><script>x()</script><div>coyote</div>", "coyote"},
		{"inline elements", "<div><b>bid</b> <i>5</i>\n   now</div>", "bid 5 now"},
		{"apple blockquote", "<div>coyote</div><div><br><blockquote type=\"cite\"><div>On 23 Nov 2026, at 10:00, courrier &lt;play@courrier.example&gt; wrote:</div><div>## Reply above this line ##</div></blockquote></div>", "coyote"},
		{"thunderbird", "<p>bid 5</p><div class=\"moz-cite-prefix\">On 23/11/2026 10:00, courrier wrote:<br></div><blockquote type=\"cite\">## Reply above this line ##</blockquote><pre class=\"moz-signature\" cols=\"72\">-- \nAna</pre>", "bid 5"},
		{"yahoo", "<div class=\"ydp1\"><div>2</div></div><div id=\"yahoo_quoted_123\" class=\"yahoo_quoted\"><div>On Monday, 23 November 2026, 10:00, courrier &lt;play@courrier.example&gt; wrote:</div><div>## Reply above this line ##</div></div>", "2"},
		{"marker in a plain div", "<div>bid 5</div><div><br></div><div>## Reply above this line ##</div><div>1. bid 5</div>", "bid 5"},
		{"table", "<table><tr><td>bid</td><td>5</td></tr><tr><td>pass</td></tr></table>", "bid 5\npass"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if in := incomingParse(t, html(tc.body), "ana@example.org"); in.Text != tc.text {
				t.Errorf("Text = %q, want %q", in.Text, tc.text)
			}
		})
	}

	// An empty text/plain alternative: the HTML one is read.
	alt := strings.ReplaceAll("From: Ana <ana@example.org>\nSubject: Re: x\nMIME-Version: 1.0\n"+
		"Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain; charset=utf-8\n\n\n"+
		"--b\nContent-Type: text/html; charset=utf-8\n\n<div>coyote</div>\n--b--\n", "\n", "\r\n")
	if in := incomingParse(t, []byte(alt), "ana@example.org"); in.Text != "coyote" {
		t.Errorf("empty text/plain: Text = %q", in.Text)
	}
}

func TestReadIncomingCharsets(t *testing.T) {
	raw := func(ct string, body []byte) []byte {
		return append([]byte("From: Ana <ana@example.org>\r\nSubject: Re: x\r\nMIME-Version: 1.0\r\n"+
			"Content-Type: "+ct+"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"), body...)
	}
	latin1 := []byte("ench\xe8re : 5\r\n\r\n> ## Reply above this line ##\r\n")
	utf16le := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune("enchère : 5\r\n")) {
		utf16le = binary.LittleEndian.AppendUint16(utf16le, u)
	}
	for _, tc := range []struct {
		name, ct string
		body     []byte
	}{
		{"unknown charset", "text/plain; charset=x-unknown-8bit", latin1},
		{"mislabelled utf-8", "text/plain; charset=utf-8", latin1},
		{"mislabelled us-ascii", "text/plain; charset=us-ascii", latin1},
		{"utf-16 with a byte order mark", "text/plain; charset=utf-16", utf16le},
	} {
		if in := incomingParse(t, raw(tc.ct, tc.body), "ana@example.org"); in.Text != "enchère : 5" {
			t.Errorf("%s: Text = %q", tc.name, in.Text)
		}
	}
}

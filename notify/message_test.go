package notify_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"io/fs"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gomail "github.com/emersion/go-message/mail"

	"github.com/courrier-games/courrier/notify"
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/")

var (
	msgDate = time.Date(2026, 11, 24, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	msgGame = notify.GameRef{
		ID: "k7m2p9q4rs", Kind: "coyote", Name: "Coyote",
		URL: "https://courrier.example/g/k7m2p9q4rs", RulesURL: "https://courrier.example/rules/coyote",
	}
	// msgBoard is a table told in words, as a game's board tells it.
	msgBoard = "Whose turn: Bob.\nThe bid: 3 by Ana.\nAna: 0 coyote tokens; feather 5.\nBob (you): 1 coyote token; feather hidden from you.\nThe pile: 20 feathers."
	msgHead  = "9f2c4e1ab77d03c6e58f2b1d4a6c90e3f1b2d3c4a5e6f708192a3b4c5d6e7f80"
)

// msgMail is a mail of kind with data, addressed as courrier addresses
// its mails.
func msgMail(kind string, data any) notify.Mail {
	root := "g.k7m2p9q4rs@courrier.example"
	return notify.Mail{
		Kind: kind, Data: data, Date: msgDate,
		From:      netmail.Address{Name: "courrier", Address: "play@courrier.example"},
		To:        netmail.Address{Name: "Ana Lima", Address: "ana@example.org"},
		MessageID: "g.k7m2p9q4rs.v12.s1." + kind + "@courrier.example",
		InReplyTo: root, References: []string{root},
	}
}

// msgSamples are one mail of each kind, as the goldens hold them.
func msgSamples() []notify.Mail {
	prompt := msgMail(notify.KindPrompt, notify.PromptData{
		Game: msgGame, Player: "Bob", Version: 12, View: msgBoard,
		Since: []string{
			"Ana bid 3.",
			"Cleo called Coyote: the sum was 21, not under 3, so Cleo takes a coyote and a new round begins.",
		},
		ToDo:     []string{"bid or call Coyote (CY-12)"},
		Choices:  []string{"bid 4", "bid 5", "bid 6", "bid 7", "bid 8", "bid 9", "bid 10", "bid 11", "bid 12", "bid 13", "call coyote"},
		Deadline: "Friday 28 November, 18:00 UTC",
	})
	prompt.To = netmail.Address{Name: "Bob Martin", Address: "bob@example.org"}
	prompt.ReplyTo = "m+1a2b3c4d5e.k7m2p9q4rs.1.12.xyz@courrier.example"
	prompt.Unsubscribe = "https://courrier.example/u/abc123"
	prompt.UnsubscribeMailto = "unsubscribe+abc123@courrier.example"

	receipt := msgMail(notify.KindReceipt, notify.ReceiptData{
		Game: msgGame, Player: "Ana", Moves: []string{"bid 4"}, Version: 13, Head: msgHead,
		Caused:  []string{"You bid 4."},
		Refused: `line 2 "bid 3" was not played: it is no longer your turn`,
	})
	receipt.Unsubscribe = "https://courrier.example/u/abc123"

	refusal := msgMail(notify.KindRefusal, notify.RefusalData{
		Game: msgGame, Player: "Ana", Sent: []string{"bid 2"}, Problem: "a bid must be higher than the last one, 3",
		Rule: "CY-7", Choices: []string{"bid 4", "bid 5", "call coyote"}, Version: 12,
	})
	refusal.ReplyTo = "m+1a2b3c4d5e.k7m2p9q4rs.0.12.xyz@courrier.example"

	over := msgMail(notify.KindGameOver, notify.GameOverData{
		Game: msgGame, Player: "Ana", Summary: "Bob wins with one coyote", Scores: []string{"Bob: 1 coyote", "Ana: 2 coyotes"},
		Since: []string{"You called \"Coyote!\" against Bob's bid of 9.", "The total is 12, reaching Bob's bid of 9.", "You took a coyote token (2 of 2)."},
		Seed:  "5d41402abc4b2a76b9719d911017c592", Commitment: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
		Version: 57, Head: msgHead, RecordURL: "https://courrier.example/g/k7m2p9q4rs/record",
	})

	invitation := msgMail(notify.KindInvitation, notify.InvitationData{
		Game: msgGame, Inviter: "Ana", Players: []string{"Ana", "Bob", "someone"}, Name: "Cleo",
		Commitment: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
	})
	invitation.ReplyTo = "i+9z8y7x.k7m2p9q4rs@courrier.example"

	login := msgMail(notify.KindLogin, notify.LoginData{URL: "https://courrier.example/login?t=Qx7bYk2", Expires: "15 minutes"})
	login.MessageID, login.InReplyTo, login.References = "login.1234@courrier.example", "", nil

	notice := msgMail(notify.KindNotice, notify.NoticeData{
		Subject:    "[courrier] your games",
		Paragraphs: []string{"You play in two games. Those marked * wait for your move; reply to their latest prompt to play."},
		Lines:      []string{"* k7m2p9q4rs  Coyote   version 12, your turn", "  b3c4d5e6f7  Coyote   version 40, Cleo's turn"},
	})
	notice.MessageID, notice.InReplyTo, notice.References = "a.77.1@courrier.example", "ana.1@example.org", []string{"ana.1@example.org"}
	notice.ReplyTo = "play@courrier.example"

	return []notify.Mail{prompt, receipt, refusal, over, invitation, login, notice}
}

func msgRenderer(t *testing.T) *notify.Renderer {
	t.Helper()
	r, err := notify.NewRenderer()
	if err != nil {
		t.Fatalf("NewRenderer: %v", err)
	}
	return r
}

// msgPart is one decoded part of a rendered mail.
type msgPart struct {
	Type, Charset, Encoding, Body string
}

// msgParse reads a rendered mail back with go-message.
func msgParse(t *testing.T, raw []byte) (gomail.Header, []msgPart) {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("read the mail: %v\n%s", err, raw)
	}
	defer func() { _ = mr.Close() }()
	var parts []msgPart
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("read a part: %v", err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			t.Fatalf("a part that is not inline: %T", p.Header)
		}
		typ, params, _ := h.ContentType()
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("read a %s part: %v", typ, err)
		}
		body = bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))
		parts = append(parts, msgPart{typ, params["charset"], h.Get("Content-Transfer-Encoding"), string(body)})
	}
	return mr.Header, parts
}

func TestRenderGolden(t *testing.T) {
	r := msgRenderer(t)
	for _, m := range msgSamples() {
		t.Run(m.Kind, func(t *testing.T) {
			raw, err := r.Render(m)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if again, _ := r.Render(m); !bytes.Equal(raw, again) {
				t.Error("two renderings of one mail differ")
			}
			name := m.Kind + ".eml"
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(path, raw, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			want, err := fs.ReadFile(os.DirFS("testdata"), name)
			if err != nil {
				t.Fatalf("%v (write it with: go test ./notify -run Golden -update)", err)
			}
			if !bytes.Equal(raw, want) {
				t.Errorf("the %s mail differs from %s (go test ./notify -run Golden -update); got:\n%s", m.Kind, path, raw)
			}
		})
	}
}

func TestRenderMessageHeadersAndParts(t *testing.T) {
	r := msgRenderer(t)
	for _, m := range msgSamples() {
		t.Run(m.Kind, func(t *testing.T) {
			raw, err := r.Render(m)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			h, parts := msgParse(t, raw)
			subject, err := r.Subject(m)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := h.Subject()
			date, _ := h.Date()
			id, _ := h.MessageID()
			from, _ := h.AddressList("From")
			to, _ := h.AddressList("To")
			if got != subject || !strings.HasPrefix(got, "[courrier] ") || !date.Equal(m.Date) || id != m.MessageID ||
				len(from) != 1 || *from[0] != m.From || len(to) != 1 || *to[0] != m.To {
				t.Errorf("Subject %q (want %q), Date %v, Message-ID %q, From %v, To %v", got, subject, date, id, from, to)
			}
			for k, want := range map[string]string{
				"MIME-Version": "1.0", "Auto-Submitted": "auto-generated", "X-Courrier-Kind": m.Kind,
			} {
				if v := h.Get(k); v != want {
					t.Errorf("%s: %q, want %q", k, v, want)
				}
			}
			replyTo, _ := h.AddressList("Reply-To")
			if m.ReplyTo == "" && len(replyTo) != 0 || m.ReplyTo != "" && (len(replyTo) != 1 || replyTo[0].Address != m.ReplyTo) {
				t.Errorf("Reply-To %v, want %q", replyTo, m.ReplyTo)
			}
			inReplyTo, _ := h.MsgIDList("In-Reply-To")
			refs, _ := h.MsgIDList("References")
			if strings.Join(inReplyTo, " ") != m.InReplyTo || strings.Join(refs, " ") != strings.Join(m.References, " ") {
				t.Errorf("In-Reply-To %v, References %v; want %q, %v", inReplyTo, refs, m.InReplyTo, m.References)
			}
			unsub, post := h.Get("List-Unsubscribe"), h.Get("List-Unsubscribe-Post")
			switch {
			case m.Unsubscribe == "" && (unsub != "" || post != ""):
				t.Errorf("List-Unsubscribe %q without an unsubscribe URL", unsub)
			case m.Unsubscribe != "" && post != "List-Unsubscribe=One-Click":
				t.Errorf("List-Unsubscribe-Post %q", post)
			case m.Unsubscribe != "" && m.UnsubscribeMailto != "" &&
				unsub != "<"+m.Unsubscribe+">, <mailto:"+m.UnsubscribeMailto+"?subject=unsubscribe>":
				t.Errorf("List-Unsubscribe %q", unsub)
			case m.Unsubscribe != "" && m.UnsubscribeMailto == "" && unsub != "<"+m.Unsubscribe+">":
				t.Errorf("List-Unsubscribe %q", unsub)
			}
			if typ, _, _ := h.ContentType(); typ != "multipart/alternative" {
				t.Errorf("Content-Type %q", typ)
			}
			if len(parts) != 2 || parts[0].Type != "text/plain" || parts[1].Type != "text/html" {
				t.Fatalf("parts %+v, want text/plain then text/html", parts)
			}
			for _, p := range parts {
				if p.Charset != "utf-8" || p.Encoding != "quoted-printable" {
					t.Errorf("%s part: charset %q, encoding %q", p.Type, p.Charset, p.Encoding)
				}
			}
			text, html := parts[0].Body, parts[1].Body
			first, _, _ := strings.Cut(text, "\n")
			switch m.Kind {
			case notify.KindPrompt, notify.KindRefusal, notify.KindInvitation, notify.KindNotice, notify.KindReceipt, notify.KindGameOver:
				if first != notify.ReplyMarker || !strings.Contains(html, notify.ReplyMarker) {
					t.Errorf("the first text line is %q, want the reply marker (in the HTML too)", first)
				}
			default:
				if strings.Contains(text, notify.ReplyMarker) || strings.Contains(html, notify.ReplyMarker) {
					t.Errorf("a %s mail, which nobody answers, holds the reply marker", m.Kind)
				}
			}
			for l := range strings.SplitSeq(text, "\n") {
				if utf8.RuneCountInString(l) > 76 && strings.Contains(l, " ") && !strings.Contains(l, "://") {
					t.Errorf("a long text line: %q", l)
				}
			}
			if !strings.Contains(html, `max-width:600px`) || !strings.Contains(html, `name="viewport"`) {
				t.Error("the HTML is not a phone-sized column")
			}
		})
	}
}

func TestRenderSubjects(t *testing.T) {
	r := msgRenderer(t)
	want := map[string]string{
		notify.KindPrompt:     "[courrier] Coyote k7m2p9q4rs: your move (version 12)",
		notify.KindReceipt:    "[courrier] Coyote k7m2p9q4rs: move received, one line not played (version 13)",
		notify.KindRefusal:    "[courrier] Coyote k7m2p9q4rs: your move was not played",
		notify.KindGameOver:   "[courrier] Coyote k7m2p9q4rs: game over — Bob wins with one coyote",
		notify.KindInvitation: "[courrier] Coyote k7m2p9q4rs: Ana invites you to a game",
		notify.KindLogin:      "[courrier] your sign-in link",
		notify.KindNotice:     "[courrier] your games",
	}
	for _, m := range msgSamples() {
		if got, err := r.Subject(m); err != nil || got != want[m.Kind] {
			t.Errorf("%s: %q, %v; want %q", m.Kind, got, err, want[m.Kind])
		}
	}
	for _, tc := range []struct {
		name string
		m    notify.Mail
		want string
	}{
		{"refusal without a game", msgMail(notify.KindRefusal, notify.RefusalData{Problem: "no game at this address"}), "[courrier] your mail changed nothing"},
		{"receipt of two moves", msgMail(notify.KindReceipt, notify.ReceiptData{Game: msgGame, Moves: []string{"a", "b"}, Version: 3}), "[courrier] Coyote k7m2p9q4rs: moves received (version 3)"},
		{"notice without the tag", msgMail(notify.KindNotice, notify.NoticeData{Subject: "help"}), "[courrier] help"},
		{"long summary", msgMail(notify.KindGameOver, notify.GameOverData{Game: msgGame, Summary: strings.Repeat("Ana and Bob ", 10)}),
			"[courrier] Coyote k7m2p9q4rs: game over — Ana and Bob Ana and Bob Ana and Bob Ana and Bob Ana and Bob…"},
	} {
		if got, err := r.Subject(tc.m); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestRenderNonASCIISubjectIsEncoded(t *testing.T) {
	r := msgRenderer(t)
	subject := "[courrier] Zoë a créé la partie « Coyote » — à toi de jouer, 東京"
	m := msgMail(notify.KindNotice, notify.NoticeData{Subject: subject, Paragraphs: []string{"Ça marche."}})
	m.To.Name = "Zoë Ålund"
	raw, err := r.Render(m)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	for i, c := range head {
		if c >= 0x80 {
			t.Fatalf("a raw byte %#x in the header at %d:\n%s", c, i, head)
		}
	}
	h, parts := msgParse(t, raw)
	to, _ := h.AddressList("To")
	if got, _ := h.Subject(); got != subject || len(to) != 1 || to[0].Name != "Zoë Ålund" {
		t.Errorf("Subject %q, To %v", got, to)
	}
	if !strings.Contains(parts[0].Body, "Ça marche.") {
		t.Errorf("text %q", parts[0].Body)
	}
}

func TestRenderEscapesHTML(t *testing.T) {
	r := msgRenderer(t)
	m := msgMail(notify.KindPrompt, notify.PromptData{
		Game: notify.GameRef{ID: "k7m2p9q4rs", Name: "Coyote", URL: "javascript:alert(1)"}, Player: "<b>Ana</b>", Version: 1,
		View: "name: <script>x</script>", Choices: []string{"bid <3>"},
	})
	raw, err := r.Render(m)
	if err != nil {
		t.Fatal(err)
	}
	_, parts := msgParse(t, raw)
	text, html := parts[0].Body, parts[1].Body
	for _, bad := range []string{"<b>Ana</b>", "<script>", "javascript:", "bid <3>"} {
		if strings.Contains(html, bad) {
			t.Errorf("the HTML holds %q unescaped", bad)
		}
	}
	for _, want := range []string{"Hello &lt;b&gt;Ana&lt;/b&gt;,", "&lt;script&gt;", "bid &lt;3&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	if !strings.Contains(text, "Hello <b>Ana</b>,") || !strings.Contains(text, "  1. bid <3>") {
		t.Errorf("the text is not as written:\n%s", text)
	}
}

func TestRenderMessageLinksAreLinks(t *testing.T) {
	r := msgRenderer(t)
	want := map[string][]string{
		notify.KindPrompt:   {msgGame.URL, msgGame.RulesURL, "https://courrier.example/u/abc123"},
		notify.KindGameOver: {"https://courrier.example/g/k7m2p9q4rs/record"},
		notify.KindLogin:    {"https://courrier.example/login?t=Qx7bYk2"},
	}
	for _, m := range msgSamples() {
		raw, err := r.Render(m)
		if err != nil {
			t.Fatal(err)
		}
		_, parts := msgParse(t, raw)
		for _, u := range want[m.Kind] {
			if !strings.Contains(parts[1].Body, `<a href="`+u+`"`) || !strings.Contains(parts[0].Body, u+"\n") {
				t.Errorf("%s: %s is not a link in the HTML and a line end in the text", m.Kind, u)
			}
		}
	}
}

func TestRenderMessageErrors(t *testing.T) {
	r := msgRenderer(t)
	ok := msgSamples()[0]
	noID, noDate, badRef, badUnsub := ok, ok, ok, ok
	noID.MessageID = ""
	noDate.Date = time.Time{}
	badRef.References = []string{"a b@example.org"}
	badUnsub.Unsubscribe = "javascript:alert(1)"
	for _, tc := range []struct {
		name string
		m    notify.Mail
		want string
	}{
		{"wrong data", msgMail(notify.KindPrompt, notify.ReceiptData{}), "prompt"},
		{"pointer data", msgMail(notify.KindGameOver, &notify.GameOverData{}), "game_over"},
		{"no data", msgMail(notify.KindLogin, nil), "login"},
		{"unknown kind", msgMail("postcard", notify.PromptData{}), "postcard"},
		{"no message id", noID, "Message-ID"},
		{"no date", noDate, "Date"},
		{"bad reference", badRef, "a b@example.org"},
		{"bad unsubscribe URL", badUnsub, "unsubscribe"},
	} {
		raw, err := r.Render(tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (%d bytes), want an error naming %q", tc.name, err, len(raw), tc.want)
		}
	}
	if _, err := r.Subject(msgMail(notify.KindRefusal, notify.NoticeData{})); err == nil || !strings.Contains(err.Error(), "refusal") {
		t.Errorf("Subject of a refusal with notice data: %v", err)
	}
}

// What a person said is indented in the text mail after its first line:
// no line of a message passes for a heading of the table talk ("the
// referee to the table:"), whatever it holds.
func TestTalkTextCannotForgeAHeading(t *testing.T) {
	r, err := notify.NewRenderer()
	if err != nil {
		t.Fatalf("NewRenderer: %v", err)
	}
	tests := []struct {
		name, text string
		want       string // the message as the mail shows it
	}{
		{"one line", "good luck", "Ana to the table:\ngood luck\n"},
		{"a forged heading", "gg\n\nthe referee to the table:\nAna wins", "Ana to the table:\ngg\n\n  the referee to the table:\n  Ana wins\n"},
		{"a forged heading after a line break", "ok\nBob to Ana (private):\nsecret", "Ana to the table:\nok\n  Bob to Ana (private):\n  secret\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := msgMail(notify.KindTalk, notify.NoticeData{Subject: "table talk", Paragraphs: []string{"Said at the table."}})
			m.Talk = []notify.TalkLine{{Heading: "Ana to the table", Text: tt.text}}
			raw, err := r.Render(m)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(notify.TextOf(raw), "\r\n", "\n")
			if !strings.Contains(text, tt.want) {
				t.Fatalf("the mail does not show\n%s\nin\n%s", tt.want, text)
			}
			for l := range strings.SplitSeq(text, "\n") {
				if strings.HasPrefix(l, "the referee to") || strings.HasPrefix(l, "Bob to") {
					t.Fatalf("a line of the message passes for a heading: %q", l)
				}
			}
		})
	}
}

package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/play"
)

// nextPrompt waits for a prompt not in answered and returns it with its
// addressee.
func (w *world) nextPrompt(addrs []string, answered map[string]bool) (string, message) {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, a := range addrs {
			for _, m := range ofKind(w.mailTo(a), "prompt") {
				if !answered[m.MessageID] {
					return a, m
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatalf("no new prompt after 20 s\n%s", w.trace())
	return "", message{}
}

// versionRe reads "your move (version 12)" in a prompt's subject.
var versionRe = regexp.MustCompile(`\(version (\d+)\)`)

// moveAt returns the move text recorded in the meta of a game's event at
// version.
func (w *world) moveAt(game string, version int) string {
	w.t.Helper()
	var move string
	if err := w.pool.QueryRow(context.Background(), `select coalesce(meta->>'move', '') from events where stream = $1 and version = $2`,
		play.Stream(game), version).Scan(&move); err != nil {
		w.t.Fatalf("event %d of %s: %v", version, game, err)
	}
	return move
}

// htmlReply is a reply with no text part: the move in a div, the prompt
// quoted in a blockquote, as Gmail's HTML-only replies are.
func htmlReply(from string, m message, body string) string {
	var q strings.Builder
	for l := range strings.SplitSeq(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n") {
		q.WriteString(l + "<br>\n")
	}
	return fmt.Sprintf("From: %s\nTo: %s\nSubject: Re: %s\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"+
		"<div dir=\"ltr\">%s</div><br><div class=\"gmail_quote\"><div class=\"gmail_attr\">On Tue, 24 Nov 2026 at 10:00, courrier &lt;play@courrier.test&gt; wrote:<br></div>"+
		"<blockquote class=\"gmail_quote\">%s</blockquote></div>\n",
		from, m.ReplyTo, m.Subject, newMessageID(), m.MessageID, body, q.String())
}

// Every mail program's way of quoting the whole prompt, numbered list
// included, still plays exactly the move written above the quote: the
// quoted list's lines are never read as more moves.
func TestQuotedRepliesMakeExactlyTheWrittenMove(t *testing.T) {
	w := newWorld(t, 4)
	addrs := players[:3]
	startByMail(t, w, addrs)
	answered := map[string]bool{}
	styles := []string{"gmail", "outlook", "french", "german", "spanish", "italian", ">", "signature", "html"}
	for i, style := range styles {
		who, prompt := w.nextPrompt(addrs, answered)
		answered[prompt.MessageID] = true
		game := gameIDOf(prompt.Subject)
		sm := versionRe.FindStringSubmatch(prompt.Subject)
		if sm == nil {
			t.Fatalf("prompt subject %q has no version", prompt.Subject)
		}
		version, _ := strconv.Atoi(sm[1])
		list := numbered(prompt.Text)
		var plain []string
		for n := 1; n <= len(list); n++ {
			if !strings.ContainsAny(list[n], "…<") {
				plain = append(plain, list[n])
			}
		}
		if len(plain) == 0 {
			t.Fatalf("no plain move in %v", list)
		}
		move := plain[i%len(plain)]
		if move == "coyote!" && len(plain) > 1 && i < len(styles)-1 {
			move = plain[(i+1)%len(plain)] // keep the round going through every style
		}
		raw := reply(who, prompt, move, style)
		if style == "html" {
			raw = htmlReply(who, prompt, move)
		}
		w.mustSend(who, prompt.ReplyTo, raw)
		if out := w.inboundDone(); !strings.Contains(out, "played 1 line(s)") {
			t.Fatalf("%s: the reply %q was %q\n%s", style, move, out, w.trace())
		}
		if got := w.moveAt(game, version+1); got != move {
			t.Fatalf("%s: played %q, want %q", style, got, move)
		}
		// The mail's identity and authentication are kept beside the event.
		var msgID, sender, auth string
		if err := w.pool.QueryRow(context.Background(), `select coalesce(c.message_id, ''), coalesce(c.sender, ''), coalesce(c.mail_auth, '')
			from event_context c join events e using (position) where e.stream = $1 and e.version = $2`,
			play.Stream(game), version+1).Scan(&msgID, &sender, &auth); err != nil {
			t.Fatalf("%s: the move's context: %v", style, err)
		}
		if msgID == "" || sender != who || !strings.Contains(auth, "dkim=") {
			t.Fatalf("%s: the move's context is message %q from %q, auth %q", style, msgID, sender, auth)
		}
	}
}

func TestLobbyByMail(t *testing.T) {
	w := newWorld(t, 5)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	ask := func(from, command string) message {
		t.Helper()
		had := len(ofKind(w.mailTo(from), "notice"))
		w.mustSend(from, "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\n%s\n", from, domain, newMessageID(), command))
		w.inboundDone()
		return w.waitKind(from, "notice", had+1)
	}

	help := ask(addrs[1], "help")
	for _, want := range []string{"new <game> with", "games", "resign <game id>", "join <name>", "help", "coyote", "kramercoup"} {
		if !strings.Contains(help.Text, want) {
			t.Errorf("help lacks %q:\n%s", want, help.Text)
		}
	}

	for _, a := range addrs {
		list := ask(a, "games")
		if !strings.Contains(list.Text, game) {
			t.Fatalf("games for %s does not list %s:\n%s", a, game, list.Text)
		}
		if a == who && !strings.Contains(list.Text, "your turn") {
			t.Errorf("games for %s, whose turn it is, does not say so:\n%s", a, list.Text)
		}
		if deadline := "by " + time.Now().Add(72*time.Hour).UTC().Format("Monday 2 January"); !strings.Contains(strings.Join(strings.Fields(list.Text), " "), deadline) {
			t.Errorf("games for %s does not say %q:\n%s", a, deadline, list.Text)
		}
		if a != who && !strings.Contains(list.Text, nameOf(who)) {
			t.Errorf("games for %s does not say it is %s's turn:\n%s", a, nameOf(who), list.Text)
		}
		for _, other := range addrs {
			if strings.Contains(list.Text, other) {
				t.Errorf("games for %s shows the address %s:\n%s", a, other, list.Text)
			}
		}
	}

	stranger := "zoe@players.test"
	if list := ask(stranger, "games"); strings.Contains(list.Text, game) {
		t.Errorf("a stranger's games list %s:\n%s", game, list.Text)
	}

	unknown := ask(addrs[2], "dance a jig")
	if !strings.Contains(unknown.Text, "help") {
		t.Errorf("an unknown command is not pointed to help:\n%s", unknown.Text)
	}
	bad := ask(addrs[2], "new chess with "+addrs[0])
	if !strings.Contains(bad.Text, "chess") || !strings.Contains(bad.Text, "coyote") {
		t.Errorf("a new game of an unknown kind:\n%s", bad.Text)
	}
	events := w.countEvents(game)
	resigned := ask(addrs[2], "resign "+game)
	if !strings.Contains(resigned.Text, game) || w.countEvents(game) <= events {
		t.Errorf("resign by mail: %d events after, text:\n%s", w.countEvents(game)-events, resigned.Text)
	}
}

func TestOddMailIsAnsweredClearly(t *testing.T) {
	w := newWorld(t, 6)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	events := w.countEvents(game)

	t.Run("an expired reply address is refused at RCPT", func(t *testing.T) {
		tok, err := w.signer.Verify(strings.TrimPrefix(strings.Split(prompt.ReplyTo, "@")[0], "m+"))
		if err != nil {
			t.Fatal(err)
		}
		tok.Expires = time.Now().Add(-2 * time.Hour)
		err = w.send(who, "m+"+w.signer.Sign(tok)+"@"+domain, "Subject: x\n\n1\n")
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 550 || !strings.Contains(te.Msg, "5.1.1") || !strings.Contains(strings.ToLower(te.Msg), "expired") {
			t.Errorf("an expired reply address: %v, want 550 5.1.1 saying it expired", err)
		}
	})

	t.Run("an oversized mail is refused at DATA and not stored", func(t *testing.T) {
		var stored int
		_ = w.pool.QueryRow(context.Background(), `select count(*) from inbound_mail`).Scan(&stored)
		big := reply(who, prompt, "1", "gmail") + strings.Repeat(strings.Repeat("x", 76)+"\n", notify.MaxInboundBytes/76+100)
		err := w.send(who, prompt.ReplyTo, big)
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 552 {
			t.Fatalf("an oversized mail: %v, want 552", err)
		}
		var after int
		_ = w.pool.QueryRow(context.Background(), `select count(*) from inbound_mail`).Scan(&after)
		if after != stored {
			t.Fatalf("%d oversized mails stored", after-stored)
		}
	})

	t.Run("an empty reply is refused with how to move", func(t *testing.T) {
		w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "", "gmail"))
		w.inboundDone()
		ref := w.waitKind(who, "refusal", 1)
		if !strings.Contains(ref.Text, "no move") || len(numbered(ref.Text)) == 0 {
			t.Errorf("refusal of an empty reply:\n%s", ref.Text)
		}
	})

	t.Run("a reply in ISO-8859-1 is decoded and played", func(t *testing.T) {
		list := numbered(prompt.Text)
		raw := strings.Replace(reply(who, prompt, "1", "french"), "charset=utf-8", "charset=iso-8859-1", 1)
		raw = strings.ReplaceAll(raw, "à", "\xe0")
		raw = strings.Replace(raw, "a écrit", "a \xe9crit", 1)
		w.mustSend(who, prompt.ReplyTo, raw)
		if out := w.inboundDone(); !strings.Contains(out, "played 1 line(s)") {
			t.Fatalf("a Latin-1 reply: %q\n%s", out, w.trace())
		}
		if got := w.moveAt(game, events+1); got != list[1] {
			t.Fatalf("a Latin-1 reply played %q, want %q", got, list[1])
		}
	})

	if n := w.countEvents(game); n != events+1 {
		t.Fatalf("%d events written, want the one move", n-events)
	}
}

// A new user with nothing configured reads their mail in the dev mailbox:
// its page, its JSON and each message, from loopback only.
func TestDevMailboxPages(t *testing.T) {
	w := newWorld(t, 7, func(c *notify.Config) { c.Transport = nil })
	w.mustSend("ana@players.test", "play@"+domain, fmt.Sprintf("From: Ana <ana@players.test>\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\nhelp\n", domain, newMessageID()))
	w.inboundDone()
	if got := w.relay.all(); len(got) != 0 {
		t.Fatalf("with no relay, %d mails went to a relay", len(got))
	}
	h := w.mail.Handler(w.jobs)
	get := func(path, remote string) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	var list []struct {
		ID      int64    `json:"id"`
		To      []string `json:"to"`
		Subject string   `json:"subject"`
		Text    string   `json:"text"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(list) == 0 {
		rec := get("/dev/mail.json", "127.0.0.1:5000")
		if rec.Code != http.StatusOK {
			t.Fatalf("/dev/mail.json: %d %s", rec.Code, rec.Body)
		}
		var box struct {
			Mail []struct {
				ID      int64    `json:"id"`
				To      []string `json:"to"`
				Subject string   `json:"subject"`
				Text    string   `json:"text"`
			} `json:"mail"`
		}
		if err := jsonDecode(rec.Body, &box); err != nil {
			t.Fatal(err)
		}
		list = box.Mail
		if time.Now().After(deadline) {
			t.Fatal("the dev mailbox stayed empty")
		}
		time.Sleep(20 * time.Millisecond)
	}
	m := list[0]
	if !slices.Contains(m.To, "ana@players.test") || !strings.Contains(m.Text, "new <game> with") {
		t.Fatalf("dev mail %+v", m)
	}
	page := get("/dev/mail", "127.0.0.1:5000")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), m.Subject) {
		t.Fatalf("/dev/mail: %d\n%s", page.Code, page.Body)
	}
	one := get(fmt.Sprintf("/dev/mail/%d", m.ID), "[::1]:5000")
	if one.Code != http.StatusOK || !strings.Contains(one.Body.String(), "new &lt;game&gt; with") {
		t.Fatalf("/dev/mail/%d: %d\n%s", m.ID, one.Code, one.Body)
	}
	eml := get(fmt.Sprintf("/dev/mail/%d.eml", m.ID), "127.0.0.1:5000")
	if eml.Code != http.StatusOK || !strings.Contains(eml.Body.String(), "Message-Id:") && !strings.Contains(eml.Body.String(), "Message-ID:") {
		t.Fatalf("/dev/mail/%d.eml: %d\n%s", m.ID, eml.Code, eml.Body)
	}
	for _, path := range []string{"/dev/mail", "/dev/mail.json", fmt.Sprintf("/dev/mail/%d", m.ID)} {
		if rec := get(path, "203.0.113.9:5000"); rec.Code == http.StatusOK || strings.Contains(rec.Body.String(), "ana@players.test") {
			t.Errorf("%s from another machine: %d", path, rec.Code)
		}
	}
	if rec := get("/dev/mail/999999", "127.0.0.1:5000"); rec.Code != http.StatusNotFound {
		t.Errorf("a missing dev mail: %d", rec.Code)
	}
}

func jsonDecode(r io.Reader, v any) error {
	return json.NewDecoder(r).Decode(v)
}

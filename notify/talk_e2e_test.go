package notify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/play"
)

// htmlPart is the decoded HTML part of a mail ("" for none).
func htmlPart(t *testing.T, m message) string {
	t.Helper()
	var out string
	var walk func(n mimeNode)
	walk = func(n mimeNode) {
		if n.Type == "text/html" {
			out += string(n.Body)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(mimeTree(t, m.Raw))
	return out
}

// A table talks by mail, through a real SMTP loopback: the player whose
// prompt it is writes "say …" to the table, "say to <name>: …" to one
// player and "dis à Zed : …" to nobody (refused, nothing written). The
// player who asked for table talk at once gets it at once, in a mail of
// its own; the one who did not gets it in the "À la table" section of the
// next mail about the game (here the dispute notice), in French; the
// private message reaches its addressee only; the speaker's own words are
// never mailed back to them as news; and a message with markup is escaped
// in the HTML part.
func TestTableTalkByMail(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 36)
	addrs := players[:3]
	creator, err := w.users.Ensure(ctx, addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.play.CreateGame(ctx, play.Actor{User: creator.ID, Channel: play.ChannelAPI}, play.GameRequest{
		Kind: "coyote", Name: nameOf(addrs[0]), Invite: addrs[1:], Options: map[string]string{"press": "private"},
	}); err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs[1:] {
		inv := w.waitKind(a, "invitation", 1)
		w.mustSend(a, inv.ReplyTo, reply(a, inv, "join "+nameOf(a), "gmail"))
	}
	speaker, prompt := w.nextPrompt(addrs, map[string]bool{})
	var others []string
	for _, a := range addrs {
		if a != speaker {
			others = append(others, a)
		}
	}
	confidant, atOnce := others[0], others[1]
	user := func(a string) auth.User {
		u, err := w.users.ByEmail(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if err := w.users.SetLanguage(ctx, user(confidant).ID, "fr"); err != nil {
		t.Fatal(err)
	}
	if err := w.mail.SetPreference(ctx, user(atOnce).ID, "", auth.MailTalk, true); err != nil {
		t.Fatal(err)
	}
	game := gameIDOf(prompt.Subject)
	talkEvents := func() int {
		var n int
		if err := w.pool.QueryRow(ctx, `select count(*) from events where stream = $1`, play.TalkStream(game)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	steps := []struct {
		body, outcome, kind, says string
		events                    int
	}{
		{"say good luck <all>", "said in game " + game, "notice", "You said to the table", 1},
		{"say to " + nameOf(confidant) + ": psst, shall we?", "said in game " + game, "notice", "You said to " + nameOf(confidant), 2},
		{"dis à Zed : coucou", "not played: ", "refusal", "pas de joueur « Zed »", 2}, // a French verb: answered in French
	}
	for _, st := range steps {
		had := len(ofKind(w.mailTo(speaker), st.kind))
		w.mustSend(speaker, prompt.ReplyTo, reply(speaker, prompt, st.body, "gmail"))
		if out := w.inboundDone(); !strings.Contains(out, st.outcome) {
			t.Fatalf("%q: outcome %q, want %q\n%s", st.body, out, st.outcome, w.trace())
		}
		m := w.waitKind(speaker, st.kind, had+1)
		if text := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(text, st.says) {
			t.Errorf("%q was answered without %q:\n%s", st.body, st.says, m.Text)
		}
		if n := talkEvents(); n != st.events {
			t.Fatalf("after %q the talk stream has %d events, want %d", st.body, n, st.events)
		}
	}

	// At once, to who asked: the table's message, not the private one.
	talk := w.waitKind(atOnce, "talk", 1)
	if !strings.Contains(talk.Text, "Table talk") || !strings.Contains(talk.Text, "good luck <all>") {
		t.Fatalf("the talk mail:\n%s", talk.Text)
	}
	if h := htmlPart(t, talk); strings.Contains(h, "<all>") || !strings.Contains(h, "&lt;all&gt;") {
		t.Fatalf("the talk mail's HTML does not escape the message:\n%s", h)
	}

	// The next mail about the game carries what was not mailed yet.
	w.mustSend(speaker, prompt.ReplyTo, reply(speaker, prompt, "dispute 1 I doubt the deal", "gmail"))
	if out := w.inboundDone(); !strings.Contains(out, "disputed version 1") {
		t.Fatalf("dispute: %q\n%s", out, w.trace())
	}
	notice := w.waitKind(confidant, "notice", 1)
	text := strings.Join(strings.Fields(notice.Text), " ")
	for _, want := range []string{"À la table", nameOf(speaker) + " à la table", "good luck <all>", nameOf(speaker) + " à " + nameOf(confidant) + " (en privé)", "psst, shall we?"} {
		if !strings.Contains(text, want) {
			t.Errorf("the French notice to %s does not say %q:\n%s", confidant, want, notice.Text)
		}
	}
	onlyIn(t, "the French notice with table talk", mailReadable(t, notice), "fr")
	w.waitKind(atOnce, "notice", 1)
	w.mailQueueDone()
	for _, m := range w.mailTo(atOnce) {
		if strings.Contains(m.Text, "psst") || strings.Contains(string(m.Raw), "psst") {
			t.Fatalf("the third seat got the private message in a %s mail:\n%s", m.Kind, m.Text)
		}
		if m.Kind == "notice" && strings.Contains(m.Text, "Table talk") {
			t.Errorf("the talk mailed at once is mailed again:\n%s", m.Text)
		}
	}
	for _, m := range w.mailTo(speaker) {
		if strings.Contains(m.Text, "Table talk") || strings.Contains(m.Text, "À la table") {
			t.Errorf("the speaker's own words came back as news in a %s mail:\n%s", m.Kind, m.Text)
		}
		if m.Kind == "talk" {
			t.Errorf("the speaker got a talk mail:\n%s", m.Text)
		}
	}
}

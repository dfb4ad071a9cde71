package notify_test

import (
	"strings"
	"testing"
)

// A take-back by mail: the mover replies "takeback" to their receipt, each
// other player is mailed a notice asking them to answer and replies
// "agree" (or "d'accord") to it, and then everyone is told the move was
// taken back.
func TestTakeBackByMail(t *testing.T) {
	w := newWorld(t, 4)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "bid 1", "gmail"))
	w.inboundDone()
	receipt := w.waitKind(who, "receipt", 1)
	before := map[string]int{}
	for _, a := range addrs {
		before[a] = len(ofKind(w.mailTo(a), "notice"))
	}
	w.mustSend(who, receipt.ReplyTo, reply(who, receipt, "takeback", "gmail"))
	if out := w.inboundDone(); out != "takeback in game "+game {
		t.Fatalf("takeback in reply to a receipt: %q\n%s", out, w.trace())
	}
	ack := w.waitKind(who, "notice", before[who]+1)
	if text := strings.Join(strings.Fields(ack.Text), " "); !strings.Contains(text, "Your request to take back your last move is recorded") {
		t.Fatalf("the asker's answer:\n%s", ack.Text)
	}
	answers := []string{"agree", "d'accord"}
	i := 0
	for _, a := range addrs {
		if a == who {
			continue
		}
		ask := w.waitKind(a, "notice", before[a]+1)
		text := strings.Join(strings.Fields(ask.Text), " ")
		for _, want := range []string{"asks to take back their last move", `Answer this mail with "agree" or "refuse"`} {
			if !strings.Contains(text, want) {
				t.Fatalf("the notice to %s does not say %q:\n%s", a, want, ask.Text)
			}
		}
		w.mustSend(a, ask.ReplyTo, reply(a, ask, answers[i], "gmail"))
		if out := w.inboundDone(); out != "agree in game "+game {
			t.Fatalf("%q in reply to the notice: %q\n%s", answers[i], out, w.trace())
		}
		i++
	}
	for _, a := range addrs {
		want := "Everyone agreed: the last move is taken back"
		w.waitFor(a, "the take-back's outcome", func(ms []message) bool {
			for _, m := range ofKind(ms, "notice") {
				if strings.Contains(strings.Join(strings.Fields(m.Text), " "), want) {
					return true
				}
			}
			return false
		})
	}
}

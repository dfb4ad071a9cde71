package notify_test

import (
	"strings"
	"testing"
)

// A take-back by mail, with readers of English and of French: the mover
// replies "takeback" ("reprise") to their receipt, each other player is
// mailed a notice in their language asking them to answer and replies
// "agree" ("d'accord") to it, and then everyone is told, in their language,
// that the move was taken back.
func TestTakeBackByMail(t *testing.T) {
	for _, tc := range []struct {
		lang, ask, agree string
		acked, asked     []string // what the asker's answer and the others' notices say
		outcome          string
		// taken is what the answer to the last "agree" says, and only it;
		// ack is what every answer to an "agree" says.
		taken, ack string
	}{
		{"en", "takeback", "agree", []string{"Your request to take back your last move is recorded"},
			[]string{"asks to take back their last move", `Answer this mail with "agree" or "refuse"`},
			"Everyone agreed: the last move is taken back", "the move is taken back, and the game goes on from before it",
			"Your agreement to the take-back is recorded"},
		{"fr", "reprise", "d'accord", []string{"Votre demande de reprendre votre dernier coup est inscrite"},
			[]string{"demande à reprendre son dernier coup", "Répondez à ce message par « d’accord » ou « refuser »"},
			"Tout le monde a accepté : le dernier coup est repris", "le coup est repris, et la partie reprend d’avant lui",
			"Votre accord à la reprise est inscrit"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			w := newWorld(t, 4)
			addrs := players[:3]
			who, prompt := startByMail(t, w, addrs)
			game := gameIDOf(prompt.Subject)
			for _, a := range addrs {
				u, err := w.users.ByEmail(t.Context(), a)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.users.SetLanguage(t.Context(), u.ID, tc.lang); err != nil {
					t.Fatal(err)
				}
			}
			w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "bid 1", "gmail"))
			w.inboundDone()
			receipt := w.waitKind(who, "receipt", 1)
			before := map[string]int{}
			for _, a := range addrs {
				before[a] = len(ofKind(w.mailTo(a), "notice"))
			}
			w.mustSend(who, receipt.ReplyTo, reply(who, receipt, tc.ask, "gmail"))
			if out := w.inboundDone(); out != "takeback in game "+game {
				t.Fatalf("%s in reply to a receipt: %q\n%s", tc.ask, out, w.trace())
			}
			says := func(m message, want []string) {
				t.Helper()
				text := strings.Join(strings.Fields(m.Text), " ")
				for _, s := range want {
					if !strings.Contains(text, s) {
						t.Fatalf("the mail does not say %q:\n%s", s, m.Text)
					}
				}
			}
			says(w.waitKind(who, "notice", before[who]+1), tc.acked)
			agreed := 0
			for _, a := range addrs {
				if a == who {
					continue
				}
				ask := w.waitKind(a, "notice", before[a]+1)
				says(ask, tc.asked)
				w.mustSend(a, ask.ReplyTo, reply(a, ask, tc.agree, "gmail"))
				if out := w.inboundDone(); out != "agree in game "+game {
					t.Fatalf("%q in reply to the notice: %q\n%s", tc.agree, out, w.trace())
				}
				agreed++
				// The answer to the "agree" says the move is taken back
				// when play says it is: after the last agreement only.
				var answer message
				w.waitFor(a, "the answer to the agreement", func(ms []message) bool {
					for _, m := range ofKind(ms, "notice") {
						if strings.Contains(strings.Join(strings.Fields(m.Text), " "), tc.ack) {
							answer = m
							return true
						}
					}
					return false
				})
				if got := strings.Contains(strings.Join(strings.Fields(answer.Text), " "), tc.taken); got != (agreed == 2) {
					t.Fatalf("answer to agreement %d says %q: %v\n%s", agreed, tc.taken, got, answer.Text)
				}
			}
			for _, a := range addrs {
				w.waitFor(a, "the take-back's outcome", func(ms []message) bool {
					for _, m := range ofKind(ms, "notice") {
						if strings.Contains(strings.Join(strings.Fields(m.Text), " "), tc.outcome) {
							return true
						}
					}
					return false
				})
			}
		})
	}
}

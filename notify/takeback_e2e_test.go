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
	}{
		{"en", "takeback", "agree", []string{"Your request to take back your last move is recorded"},
			[]string{"asks to take back their last move", `Answer this mail with "agree" or "refuse"`},
			"Everyone agreed: the last move is taken back"},
		{"fr", "reprise", "d'accord", []string{"Votre demande de reprendre votre dernier coup est inscrite"},
			[]string{"demande à reprendre son dernier coup", "Répondez à ce message par « d’accord » ou « refuser »"},
			"Tout le monde a accepté : le dernier coup est repris"},
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

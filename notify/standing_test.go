package notify_test

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/notify"
)

// An invitation names each seated player's figures, in the invitee's
// language, in its text and its HTML.
func TestInvitationShowsThePlayersReliability(t *testing.T) {
	r := msgRenderer(t)
	standings := []notify.Standing{{Name: "Bob", Games: 23, Due: true, Met: 96}, {Name: "Ana", Games: 1}}
	cases := []struct {
		lang string
		want []string
	}{
		{"en", []string{"Bob: 23 games finished, 96% of deadlines met (last 12 months).", "Ana: 1 game finished, no deadline due yet (last 12 months)."}},
		{"fr", []string{"Bob : 23 parties terminées, 96 % des délais respectés (12 derniers mois).", "Ana : 1 partie terminée, aucun délai encore dû (12 derniers mois)."}},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			m := msgMail(notify.KindInvitation, notify.InvitationData{Game: msgGame, Inviter: "Bob", Players: []string{"Bob", "Ana"}, Name: "Cleo", Standings: standings})
			m.Lang = tc.lang
			raw, err := r.Render(m)
			if err != nil {
				t.Fatal(err)
			}
			_, parts := msgParse(t, raw)
			if len(parts) < 2 {
				t.Fatalf("%d parts", len(parts))
			}
			for _, p := range parts {
				body := strings.Join(strings.Fields(p.Body), " ")
				for _, w := range tc.want {
					if !strings.Contains(body, w) {
						t.Errorf("the %s part does not say %q:\n%s", p.Type, w, p.Body)
					}
				}
			}
		})
	}
}

package notify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/play"
)

// Every answer to a mail about a player's own seat takes "dispute": the
// answer to their own "away", the "not your turn" refusal and the refusal
// of a move sent to a receipt carry a game reply address (g+), not the
// lobby's, and a dispute sent in reply to each is recorded in the game,
// playing nothing.
func TestAnswersToASeatTakeDispute(t *testing.T) {
	w := newWorld(t, 4)
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	// disputeByMail sends from its list's second address and expects a
	// notice at every address.
	var others []string
	for _, a := range addrs {
		if a != who {
			others = append(others, a)
		}
	}
	order := append([]string{others[0], who}, others[1:]...)

	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, choose(t, nil, numbered(prompt.Text)), "gmail"))
	w.inboundDone()
	receipt := w.waitKind(who, "receipt", 1)

	for i, tc := range []struct {
		name string
		// answer sends a mail from who and returns the answer to it.
		answer func() message
		want   string // what the answer says
	}{
		{"the refusal of a move out of turn", func() message {
			w.mustSend(who, prompt.ReplyTo, reply(who, prompt, "1", "gmail"))
			w.inboundDone()
			return w.waitKind(who, "refusal", 1)
		}, "It is not your turn"},
		{"the refusal of a move sent to a receipt", func() message {
			w.mustSend(who, receipt.ReplyTo, reply(who, receipt, "1", "outlook"))
			w.inboundDone()
			return w.waitKind(who, "refusal", 2)
		}, "not moves: send your move in reply to your latest prompt"},
		{"the answer to the player's own away", func() message {
			had := len(ofKind(w.mailTo(who), "notice"))
			w.mustSend(who, receipt.ReplyTo, reply(who, receipt, "away 3d", "french"))
			if out := w.inboundDone(); !strings.HasPrefix(out, "away in game "+game) {
				t.Fatalf("away in reply to a receipt: %q", out)
			}
			return w.waitKind(who, "notice", had+1)
		}, "Your deadlines in this game wait until"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.answer()
			if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), tc.want) {
				t.Fatalf("the answer does not say %q:\n%s", tc.want, m.Text)
			}
			if !strings.HasPrefix(m.ReplyTo, "g+") {
				t.Fatalf("the answer's reply address is %q, not the game's:\n%s", m.ReplyTo, m.Text)
			}
			if !strings.Contains(m.Text, `"dispute`) {
				t.Fatalf("the answer does not say it takes a dispute:\n%s", m.Text)
			}
			played := w.countPlayed(game)
			disputeByMail(t, w, game, order, m, 1+i)
			var last string
			if err := w.pool.QueryRow(context.Background(), `select type from events where stream = $1 order by version desc limit 1`, play.Stream(game)).Scan(&last); err != nil {
				t.Fatal(err)
			}
			if last != play.TypeDisputed || w.countPlayed(game) != played {
				t.Fatalf("a dispute in reply to %s wrote %s and moved the game", tc.name, last)
			}
		})
	}
}

// countPlayed counts a game's events other than disputes: what moves the
// game on.
func (w *world) countPlayed(game string) int {
	w.t.Helper()
	var n int
	if err := w.pool.QueryRow(context.Background(), `select count(*) from events where stream = $1 and type <> $2`, play.Stream(game), play.TypeDisputed).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

package notify_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// players of the games by mail.
var players = []string{"ana@players.test", "bob@players.test", "cleo@players.test", "dan@players.test"}

// nameOf is a player's name: the capitalised local part.
func nameOf(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return strings.ToUpper(local[:1]) + local[1:]
}

// choose picks a reply from a prompt's numbered list: a move written out
// (at random), else the first range with its lowest value, as a number.
func choose(t *testing.T, r *rand.Rand, list map[int]string) string {
	t.Helper()
	var plain []int
	for n, line := range list {
		// Coup's standing settings ("auto-allow … on") change no turn.
		if !strings.Contains(line, "…") && !strings.Contains(line, "<") && !strings.HasPrefix(line, "auto-") {
			plain = append(plain, n)
		}
	}
	slices.Sort(plain)
	if len(plain) > 0 && r == nil {
		return fmt.Sprint(plain[0])
	}
	if len(plain) > 0 {
		return fmt.Sprint(plain[r.IntN(len(plain))]) //nolint:forbidigo // the test's own choices, not a game's draw
	}
	for n := 1; n <= len(list); n++ {
		if lo, _, ok := strings.Cut(list[n], " … "); ok {
			f := strings.Fields(lo)
			return fmt.Sprintf("%d %s", n, f[len(f)-1])
		}
	}
	t.Fatalf("no move to choose in %v", list)
	return ""
}

// playByMail plays a whole game of kind among addrs purely by SMTP: the
// new-game command, the invitations answered with "join", then every
// prompt answered by reply (a number from its list, the whole prompt
// quoted below in turn in each mail program's style) until every player
// has the game-over mail. It returns the game's id and the number of
// moves sent.
func playByMail(t *testing.T, w *world, kind string, addrs []string, seed uint64) (string, int) {
	t.Helper()
	with := addrs[1:]
	w.mustSend(addrs[0], "play@"+domain, fmt.Sprintf("From: Ana <%s>\nTo: play@%s\nSubject: new game\nMessage-ID: <%s>\n\nnew %s with %s\n",
		addrs[0], domain, newMessageID(), kind, strings.Join(with, " ")))
	created := w.waitKind(addrs[0], "notice", 1)
	if !strings.Contains(created.Subject, "game created") {
		t.Fatalf("the new-game command got %q:\n%s", created.Subject, created.Text)
	}
	for _, a := range addrs[1:] {
		inv := w.waitKind(a, "invitation", 1)
		w.mustSend(a, inv.ReplyTo, reply(a, inv, "join "+nameOf(a), "gmail"))
	}
	r := rand.New(rand.NewPCG(seed, 1))
	styles := []string{"gmail", "outlook", "french", "german", ">"}
	answered := map[string]bool{}
	moves := 0
	for {
		over := 0
		var next []struct {
			addr string
			m    message
		}
		for _, a := range addrs {
			ms := w.mailTo(a)
			if len(ofKind(ms, "game_over")) > 0 {
				over++
			}
			for _, m := range ofKind(ms, "prompt") {
				if !answered[m.MessageID] {
					next = append(next, struct {
						addr string
						m    message
					}{a, m})
				}
			}
		}
		if over == len(addrs) {
			break
		}
		if len(next) == 0 {
			w.waitFor(addrs[0], "a prompt or the end", func([]message) bool {
				for _, a := range addrs {
					for _, m := range w.mailTo(a) {
						if (m.Kind == "prompt" && !answered[m.MessageID]) || m.Kind == "game_over" {
							return true
						}
					}
				}
				return false
			})
			continue
		}
		slices.SortStableFunc(next, func(a, b struct {
			addr string
			m    message
		}) int {
			return a.m.At.Compare(b.m.At)
		})
		p := next[0]
		answered[p.m.MessageID] = true
		pick := choose(t, r, numbered(p.m.Text))
		w.mustSend(p.addr, p.m.ReplyTo, reply(p.addr, p.m, pick, styles[moves%len(styles)]))
		moves++
		w.inboundDone()
		if moves > 3000 {
			t.Fatalf("the game of %s did not end after %d moves", kind, moves)
		}
	}
	over := w.waitKind(addrs[0], "game_over", 1)
	game := gameIDOf(over.Subject)
	return game, moves
}

// gameIDOf reads the game id from a game mail's subject "[courrier] Coyote <id>: …".
func gameIDOf(subject string) string {
	for w := range strings.FieldsSeq(strings.TrimPrefix(subject, "[courrier] ")) {
		w = strings.TrimSuffix(w, ":")
		if len(w) == 10 && strings.ToLower(w) == w {
			return w
		}
	}
	return ""
}

func TestWholeGamesArePlayedByMail(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		players int
	}{
		{"coyote", 3},
		{"coup", 2},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, 1)
			addrs := players[:tc.players]
			start := time.Now()
			game, moves := playByMail(t, w, tc.kind, addrs, 7)
			if game == "" {
				t.Fatal("the game-over mail names no game")
			}
			for _, a := range addrs {
				over := ofKind(w.mailTo(a), "game_over")
				if len(over) != 1 {
					t.Fatalf("%s got %d game-over mails", a, len(over))
				}
				if !strings.Contains(over[0].Text, "seed") {
					t.Errorf("the game-over mail to %s does not reveal the seed:\n%s", a, over[0].Text)
				}
			}
			receipts := 0
			for _, a := range addrs {
				receipts += len(ofKind(w.mailTo(a), "receipt"))
			}
			if receipts == 0 || receipts > moves {
				t.Errorf("%d receipts for %d moves sent", receipts, moves)
			}
			t.Logf("%s: game %s played by mail in %d replies (%d receipts), %v", tc.kind, game, moves, receipts, time.Since(start).Round(time.Millisecond))
		})
	}
}

package notify_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
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
	return playByMailIn(t, w, kind, addrs, seed, nil)
}

// frenchStyles are the quoting styles of the mail programs French players
// use (see quote).
var frenchStyles = []string{"gmail-fr", "outlook-fr", "apple-fr", "thunderbird-fr", "zimbra-fr"}

// playByMailIn is playByMail where each address writes in its language
// (langs; "" or absent: English): a French player writes the new-game
// command, the confirmation and the join in French ("nouvelle partie …
// avec …", "rejoindre …"), quotes as French mail programs do, and replies
// every other time with the move written out as its French prompt lists it.
func playByMailIn(t *testing.T, w *world, kind string, addrs []string, seed uint64, langs map[string]string) (string, int) {
	t.Helper()
	french := func(a string) bool { return langs[a] == "fr" }
	with := addrs[1:]
	command, confirm, created := fmt.Sprintf("new %s with %s", kind, strings.Join(with, " ")), "confirm your address", "game created"
	if french(addrs[0]) {
		// A French creator writes the turn's time and the days in French
		// too: play reads them (every day, so the game is the same).
		command, confirm, created = fmt.Sprintf("nouvelle partie %s avec %s tour 3j jours lun,mar,mer,jeu,ven,sam,dim", kind, strings.Join(with, " ")), "confirmez votre adresse", "partie créée"
	}
	w.mustSend(addrs[0], "play@"+domain, fmt.Sprintf("From: Ana <%s>\nTo: play@%s\nSubject: new game\nMessage-ID: <%s>\n\n%s\n",
		addrs[0], domain, newMessageID(), command))
	// A first game by mail costs one confirmation round.
	ask := w.waitKind(addrs[0], "notice", 1)
	if !strings.Contains(ask.Subject, confirm) || !strings.HasPrefix(ask.ReplyTo, "c+") {
		t.Fatalf("a new sender's new-game command got %q:\n%s", ask.Subject, ask.Text)
	}
	w.mustSend(addrs[0], ask.ReplyTo, reply(addrs[0], ask, "oui, c'est moi", "french"))
	if n := w.waitKind(addrs[0], "notice", 2); !strings.Contains(n.Subject, created) {
		t.Fatalf("the new-game command got %q:\n%s", n.Subject, n.Text)
	}
	for _, a := range addrs[1:] {
		inv := w.waitKind(a, "invitation", 1)
		join, style := "join "+nameOf(a), "gmail"
		if french(a) {
			join, style = "rejoindre "+nameOf(a), "thunderbird-fr"
		}
		w.mustSend(a, inv.ReplyTo, reply(a, inv, join, style))
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
		list := numbered(p.m.Text)
		pick, style := choose(t, r, list), styles[moves%len(styles)]
		if french(p.addr) {
			style = frenchStyles[moves%len(frenchStyles)]
			if n, err := strconv.Atoi(pick); err == nil && moves%2 == 1 {
				pick = list[n] // the move as the French prompt writes it
			}
		}
		w.mustSend(p.addr, p.m.ReplyTo, reply(p.addr, p.m, pick, style))
		moves++
		w.inboundDone()
		if w.afterMove != nil {
			w.afterMove(gameIDOf(p.m.Subject))
		}
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
				checkAttachedRecord(t, over[0])
				checkCommitment(t, w, a, over[0])
			}
			// A dispute in reply to any game mail: a prompt, a receipt, the
			// game-over mail.
			for i, kind := range []string{"prompt", "receipt", "game_over"} {
				mails := ofKind(w.mailTo(addrs[1]), kind)
				if len(mails) == 0 {
					t.Fatalf("%s got no %s mail to answer", addrs[1], kind)
				}
				disputeByMail(t, w, game, addrs, mails[0], 9+i)
			}
			moveToReceipt(t, w, game, addrs[1])
			receipts := 0
			for _, a := range addrs {
				for _, m := range ofKind(w.mailTo(a), "receipt") {
					receipts++
					checkSealedReceipt(t, w, game, m)
					// The receipt tells what the move did, in the game's
					// words for the mover, and takes a dispute.
					if !strings.Contains(strings.ReplaceAll(m.Text, "\r\n", "\n"), "What it did:\n- You ") || !strings.HasPrefix(m.ReplyTo, "g+") {
						t.Fatalf("a receipt without what the move did, or a game reply address (%q):\n%s", m.ReplyTo, m.Text)
					}
				}
				over := ofKind(w.mailTo(a), "game_over")[0]
				over.Text = strings.ReplaceAll(over.Text, "\r\n", "\n")
				if !strings.Contains(over.Text, "Since your last move:\n- ") || !strings.HasPrefix(over.ReplyTo, "g+") {
					t.Fatalf("the game-over mail to %s tells nothing since their last move, or has no game reply address (%q):\n%s", a, over.ReplyTo, over.Text)
				}
				checkFinalTable(t, over)
				if tc.kind == "coyote" && !strings.Contains(over.Text, "Standings:\n  1. ") {
					t.Fatalf("the game-over mail of coyote has no standings:\n%s", over.Text)
				}
			}
			if tc.kind == "coyote" {
				checkCallReceipts(t, w, game, addrs)
			}
			if receipts == 0 || receipts > moves {
				t.Errorf("%d receipts for %d moves sent", receipts, moves)
			}
			t.Logf("%s: game %s played by mail in %d replies (%d receipts), %v", tc.kind, game, moves, receipts, time.Since(start).Round(time.Millisecond))
		})
	}
}

// checkAttachedRecord checks that a game-over mail carries the game's
// record for everyone, and that it verifies with no database.
func checkAttachedRecord(t *testing.T, m message) {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			t.Fatalf("the game-over mail has no attachment: %v\n%s", err, m.Text)
		}
		h, ok := p.Header.(*gomail.AttachmentHeader)
		if !ok {
			continue
		}
		name, _ := h.Filename()
		data, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := archive.ParseRecord(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("attachment %s: %v", name, err)
		}
		rep, err := archive.VerifyRecord(play.Folder(catalog.Registry()), rec)
		if err != nil || !rep.Passed {
			t.Fatalf("the attached record %s does not verify: %v %+v", name, err, rep)
		}
		if !strings.Contains(m.Text, name) {
			t.Fatalf("the game-over mail does not name its attachment %s:\n%s", name, m.Text)
		}
		return
	}
}

// disputeByMail: a player replies "dispute <version> <reason>" to one of
// the game's mails (m, theirs); the dispute is an event, the player gets a
// notice, and every other player is told.
func disputeByMail(t *testing.T, w *world, game string, addrs []string, m message, version int) {
	t.Helper()
	before := w.countEvents(game)
	others := map[string]int{}
	for _, a := range addrs {
		others[a] = len(ofKind(w.mailTo(a), "notice"))
	}
	w.mustSend(addrs[1], m.ReplyTo, reply(addrs[1], m, fmt.Sprintf("dispute %d the shuffle gave two players the same card", version), "gmail"))
	if out := w.inboundDone(); out != fmt.Sprintf("disputed version %d of game %s", version, game) {
		t.Fatalf("a dispute in reply to a %s mail: %q\n%s", m.Kind, out, w.trace())
	}
	if got := w.countEvents(game); got != before+1 {
		t.Fatalf("a dispute by mail in reply to a %s mail wrote %d events", m.Kind, got-before)
	}
	for _, a := range addrs {
		n := w.waitKind(a, "notice", others[a]+1)
		want := fmt.Sprintf("disputes version %d: the shuffle gave two players the same card", version)
		if a == addrs[1] {
			want = fmt.Sprintf("Your dispute of version %d is recorded", version)
		}
		if !strings.Contains(strings.Join(strings.Fields(n.Text), " "), want) {
			t.Fatalf("the notice to %s does not say %q:\n%s", a, want, n.Text)
		}
	}
}

// moveToReceipt: a move in reply to a receipt (which lists no moves) is
// refused, saying where moves go, and plays nothing.
func moveToReceipt(t *testing.T, w *world, game, addr string) {
	t.Helper()
	receipt := ofKind(w.mailTo(addr), "receipt")[0]
	before := w.countEvents(game)
	w.mustSend(addr, receipt.ReplyTo, reply(addr, receipt, "1", "gmail"))
	if out := w.inboundDone(); !strings.Contains(out, "not moves: send your move in reply to your latest prompt") {
		t.Fatalf("a move in reply to a receipt: %q", out)
	}
	if got := w.countEvents(game); got != before {
		t.Fatalf("a move in reply to a receipt wrote %d events", got-before)
	}
}

// checkSealedReceipt checks that a receipt mail carries the log's head
// sealed under the game's key (archive.ReceiptHead), never the raw hash a
// player could test candidate cards against.
func checkSealedReceipt(t *testing.T, w *world, game string, m message) {
	t.Helper()
	r, err := archive.ParseReceipt(m.Text)
	if err != nil || r.Game != game {
		t.Fatalf("a receipt mail without a receipt of game %s: %+v, %v\n%s", game, r, err, m.Text)
	}
	var raw string
	if err := w.pool.QueryRow(t.Context(), `select encode(hash, 'hex') from events where stream = $1 and version = $2`, play.Stream(game), r.Version).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if r.Hash == raw {
		t.Fatalf("the receipt mail serves the log's raw hash at version %d", r.Version)
	}
	if err := w.archive.CheckReceipt(t.Context(), r); err != nil {
		t.Fatalf("the receipt mail's head is not the sealed head: %v", err)
	}
}

// commitmentRe reads the seed's sha256 where a mail says it.
var commitmentRe = regexp.MustCompile(`sha256 (?:is )?([0-9a-f]{64})`)

// checkCommitment checks that the seed's sha256, which the game-over mail
// says was published when the game was created, was: in the game-created
// notice to the creator, in each invitation and in each seat's first
// prompt, and that the revealed seed hashes to it.
func checkCommitment(t *testing.T, w *world, addr string, over message) {
	t.Helper()
	text := strings.Join(strings.Fields(over.Text), " ")
	m := regexp.MustCompile(`The seed was ([0-9a-f]+); its sha256 ([0-9a-f]{64})`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the game-over mail reveals no seed and sha256:\n%s", over.Text)
	}
	seed, err := hex.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != m[2] {
		t.Fatalf("the revealed seed does not hash to the commitment %s", m[2])
	}
	var first []message
	for _, k := range []string{"invitation", "prompt"} {
		if ms := ofKind(w.mailTo(addr), k); len(ms) > 0 {
			first = append(first, ms[0])
		}
	}
	for _, n := range ofKind(w.mailTo(addr), "notice") {
		if strings.Contains(n.Subject, "game created") {
			first = append(first, n)
		}
	}
	if len(first) < 2 {
		t.Fatalf("%s got %d of the mails that publish the commitment", addr, len(first))
	}
	for _, f := range first {
		c := commitmentRe.FindStringSubmatch(strings.Join(strings.Fields(f.Text), " "))
		if c == nil || c[1] != m[2] {
			t.Fatalf("the %s mail to %s does not publish the seed's sha256 %s:\n%s", f.Kind, addr, m[2], f.Text)
		}
	}
}

// checkFinalTable checks that a game-over mail tells the table at the end in
// words and shows it drawn: multipart/mixed of the alternative (text/plain,
// then the HTML related to its PNG) and the record.
func checkFinalTable(t *testing.T, over message) {
	t.Helper()
	if !strings.Contains(over.Text, "The table at the end:\n\n") {
		t.Fatalf("the game-over mail does not tell the table at the end:\n%s", over.Text)
	}
	top := mimeTree(t, over.Raw)
	if top.Type != "multipart/mixed" || len(top.Children) != 2 || top.Children[0].Type != "multipart/alternative" {
		t.Fatalf("the game-over mail is %s of %d parts, want multipart/mixed of the alternative and the record", top.Type, len(top.Children))
	}
	alt := top.Children[0]
	if len(alt.Children) != 2 || alt.Children[0].Type != "text/plain" || alt.Children[1].Type != "multipart/related" {
		t.Fatalf("the game-over mail's alternative is not text/plain then multipart/related")
	}
	rel := alt.Children[1]
	if len(rel.Children) != 2 || rel.Children[1].Type != "image/png" ||
		!strings.Contains(string(rel.Children[0].Body), `src="cid:`+strings.Trim(rel.Children[1].Header.Get("Content-Id"), "<>")+`"`) {
		t.Fatalf("the game-over mail's HTML does not show its PNG by cid:")
	}
}

// whatItDid reads a receipt's "What it did" list: a line per item, its
// wrapped lines joined.
func whatItDid(text string) []string {
	_, list, ok := strings.Cut(strings.ReplaceAll(text, "\r\n", "\n"), "What it did:\n")
	if !ok {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(list, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			out = append(out, strings.TrimPrefix(line, "- "))
		case strings.HasPrefix(line, "  ") && len(out) > 0:
			out[len(out)-1] += " " + strings.TrimSpace(line)
		default:
			return out
		}
	}
	return out
}

// checkCallReceipts checks the receipts of Coyote's calls: each tells
// what the call caused beyond the caller's own move (the count against the
// bid, who took a coyote token), in the words of the caller's redacted
// history and nothing more, so never a feather hidden from the caller
// (which only another seat's history names, as "<caller>'s …").
func checkCallReceipts(t *testing.T, w *world, game string, addrs []string) {
	t.Helper()
	calls := 0
	countRe := regexp.MustCompile(`^The count: .*The total is -?\d+(?: with [^,]+)?, (?:under|reaching) (?:your|\w+'s) bid of \d+\.$`)
	tookRe := regexp.MustCompile(`^(?:You|\w+) took a coyote token \(\d+ of \d+\)`)
	for _, a := range addrs {
		u, err := w.users.ByEmail(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		history, err := w.play.History(t.Context(), game, u.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ofKind(w.mailTo(a), "receipt") {
			did := whatItDid(m.Text)
			if len(did) == 0 || !strings.HasPrefix(did[0], `You called "Coyote!" against `) {
				continue
			}
			calls++
			r, err := archive.ParseReceipt(m.Text)
			if err != nil {
				t.Fatal(err)
			}
			// The caller's history from the call to the receipt's version.
			var want []string
			for _, c := range history {
				if c.Version > r.Version || c.Text.IsZero() {
					continue
				}
				if strings.HasPrefix(c.Text.String(), `You called "Coyote!" against `) {
					want = want[:0]
				}
				want = append(want, c.Text.String())
			}
			if len(did) < 3 || !countRe.MatchString(did[1]) || !tookRe.MatchString(did[2]) {
				t.Fatalf("the receipt of a call does not tell the count and who took a coyote token:\n%s", m.Text)
			}
			for i := range want {
				want[i] = strings.Join(strings.Fields(want[i]), " ")
			}
			if !slices.Equal(did, want) {
				t.Fatalf("the receipt of a call tells\n  %q\nbut the caller's history from the call to version %d is\n  %q", did, r.Version, want)
			}
			if mine := nameOf(a) + "'s "; strings.Contains(strings.Join(did, "\n"), mine) {
				t.Fatalf("the receipt to %s names %q, as only another seat's history does:\n%s", a, mine, m.Text)
			}
		}
	}
	if calls == 0 {
		t.Fatal("no receipt of a call to check")
	}
}

package notify_test

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/play/archive"
)

// mailReadable is what a person reads of a mail the relay received: its
// subject, its text part and the text of its HTML part.
func mailReadable(t *testing.T, m message) string {
	t.Helper()
	out := []string{m.Subject, m.Text}
	var walk func(n mimeNode)
	walk = func(n mimeNode) {
		if n.Type == "text/html" {
			out = append(out, html.UnescapeString(tagRe.ReplaceAllString(string(n.Body), " ")))
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(mimeTree(t, m.Raw))
	return strings.Join(out, "\n")
}

// checkLanguageOfMail checks that every mail address received is written
// in lang only: the reply marker of lang first when it is answerable, the
// HTML's lang, and no sentence of any catalog (notify's, play's,
// api/auth's, the games') in another language.
func checkLanguageOfMail(t *testing.T, w *world, address, lang string) int {
	t.Helper()
	marker := map[string]string{"en": notify.ReplyMarker, "fr": "## Répondez au-dessus de cette ligne ##"}[lang]
	hello := map[string]string{"en": "Hello", "fr": "Bonjour"}[lang]
	mails := w.mailTo(address)
	for _, m := range mails {
		what := fmt.Sprintf("the %s mail %q to %s", m.Kind, m.Subject, address)
		text := mailReadable(t, m)
		onlyIn(t, what, text, lang)
		if first, _, _ := strings.Cut(m.Text, "\n"); m.Kind != "login" && strings.TrimSpace(first) != marker {
			t.Errorf("%s starts %q, not the %s marker", what, first, lang)
		}
		if m.Kind != "notice" && !strings.Contains(m.Text, hello) {
			t.Errorf("%s does not say %q:\n%s", what, hello, m.Text)
		}
		if !strings.Contains(string(m.Raw), `lang=3D"`+lang+`"`) {
			t.Errorf("%s: its HTML is not lang=%s", what, lang)
		}
	}
	return len(mails)
}

// frenchCommitRe reads the seed and its sha256 where the French game-over
// mail reveals them.
var frenchCommitRe = regexp.MustCompile(`La graine était ([0-9a-f]+) ; son empreinte sha256 ([0-9a-f]{64})`)

// Whole games by mail, played in French by French players: the creator
// writes "nouvelle partie …", each invitee "rejoindre …", and every reply
// is quoted as a French mail program quotes (Gmail, Outlook, Apple Mail,
// Thunderbird, Zimbra), half of them the move written as the French prompt
// lists it; one of them answers a receipt with French reply verbs
// (frenchVerbsByMail). Every mail each player gets is French only: no
// sentence of any catalog's English. One game of each of the five, to its
// end.
func TestWholeGamesArePlayedInFrenchByMail(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		players int
	}{
		{"coyote", 3},
		{"coup", 2},
		{"coupage", 2},
		{"couillon", 4},
		{"kramercoup", 2},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			// The players answer at a machine's pace: more than the 60 mails a
			// minute a person's mail program sends.
			w := newWorld(t, 5, func(c *notify.Config) { c.Inbound.MailsPerSender = -1 })
			addrs := players[:tc.players]
			langs := map[string]string{}
			for _, a := range addrs {
				langs[a] = "fr"
			}
			start := time.Now()
			// Once Ana has a receipt, she answers it with play's French
			// reply verbs; the game goes on.
			verbs := false
			w.afterMove = func(game string) {
				if receipts := ofKind(w.mailTo(addrs[0]), "receipt"); !verbs && len(receipts) > 0 {
					verbs = true
					frenchVerbsByMail(t, w, game, addrs[0], receipts[0])
				}
			}
			game, moves := playByMailIn(t, w, tc.kind, addrs, 13, langs)
			if game == "" {
				t.Fatal("the game-over mail names no game")
			}
			if !verbs {
				t.Fatalf("%s got no receipt to answer with reply verbs", addrs[0])
			}
			for _, a := range addrs {
				u, err := w.users.ByEmail(t.Context(), a)
				if err != nil || u.Known() != "fr" {
					t.Errorf("%s wrote French commands and reads %q (%v): their account does not note French", a, u.Known(), err)
				}
				n := checkLanguageOfMail(t, w, a, "fr")
				over := ofKind(w.mailTo(a), "game_over")
				if len(over) != 1 {
					t.Fatalf("%s got %d game-over mails", a, len(over))
				}
				text := strings.Join(strings.Fields(over[0].Text), " ")
				for _, want := range []string{"est terminée", "La table à la fin :", "Depuis votre dernier coup :"} {
					if !strings.Contains(text, want) {
						t.Errorf("the French game-over mail to %s does not say %q:\n%s", a, want, over[0].Text)
					}
				}
				if tc.kind == "coyote" && !strings.Contains(text, "Classement : 1. ") {
					t.Errorf("the French game-over mail of coyote has no standings:\n%s", over[0].Text)
				}
				if m := frenchCommitRe.FindStringSubmatch(text); m == nil {
					t.Errorf("the French game-over mail reveals no seed:\n%s", over[0].Text)
				}
				checkAttachedRecord(t, over[0])
				for _, m := range ofKind(w.mailTo(a), "receipt") {
					checkSealedReceipt(t, w, game, m)
					if !strings.Contains(m.Text, "Ce que votre coup a fait :") {
						t.Fatalf("a French receipt without what the move did:\n%s", m.Text)
					}
				}
				prompts := ofKind(w.mailTo(a), "prompt")
				if len(prompts) == 0 || !strings.Contains(prompts[0].Subject, "à vous de jouer") || !strings.Contains(prompts[0].Text, "Vos coups :") {
					t.Fatalf("%s got no French prompt: %d prompts", a, len(prompts))
				}
				t.Logf("%s read %d mails, all in French", a, n)
			}
			for _, inv := range ofKind(w.mailTo(addrs[1]), "invitation") {
				if !strings.Contains(inv.Subject, "vous invite") || !strings.Contains(inv.Text, "rejoindre") {
					t.Errorf("the invitation of a French player's game to someone without a language is not French:\n%s", inv.Text)
				}
			}
			t.Logf("%s: game %s played in French by mail in %d replies, %v", tc.kind, game, moves, time.Since(start).Round(time.Millisecond))
		})
	}
}

// frenchVerbsByMail: a French player answers a receipt of game (a reply
// address that takes reply verbs) with play's French reply verbs, each
// quoted as a French mail program quotes: "absent 3j", "je suis de
// retour", "revendiquer" (refused: the others still play), "litige …" of
// the receipt's version, read from the French receipt (archive.ParseReceipt),
// and "langue fr". Each is read as play reads it and answered in French.
func frenchVerbsByMail(t *testing.T, w *world, game, addr string, receipt message) {
	t.Helper()
	r, err := archive.ParseReceipt(receipt.Text)
	if err != nil || r.Game != game || r.Version < 1 {
		t.Fatalf("the French receipt reads as %+v, %v; want game %s:\n%s", r, err, game, receipt.Text)
	}
	for i, tc := range []struct {
		body, outcome, kind, says string
	}{
		{"absent 3j", "away in game " + game, "notice", "Vos échéances dans cette partie attendent jusqu’au"}, //nolint:misspell // French
		{"Je suis de retour", "back in game " + game, "notice", "Bon retour : vos échéances dans cette partie courent de nouveau."},
		{"revendiquer", "not played: ", "refusal", "Vous ne pouvez revendiquer la partie que lorsque tous les autres joueurs ont abandonné ou sont partis"},
		{fmt.Sprintf("litige %d la donne m’a donné deux fois la même carte", r.Version), fmt.Sprintf("disputed version %d of game %s", r.Version, game), "notice",
			fmt.Sprintf("Votre contestation de la version %d est inscrite", r.Version)},
		{"langue fr", "language set to fr", "notice", "Désormais, courrier vous écrit en français."},
	} {
		had := len(ofKind(w.mailTo(addr), tc.kind))
		w.mustSend(addr, receipt.ReplyTo, reply(addr, receipt, tc.body, frenchStyles[i%len(frenchStyles)]))
		if out := w.inboundDone(); !strings.Contains(out, tc.outcome) {
			t.Fatalf("%q in reply to a receipt: %q, want %q\n%s", tc.body, out, tc.outcome, w.trace())
		}
		m := w.waitKind(addr, tc.kind, had+1)
		if text := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(text, tc.says) {
			t.Errorf("%q was answered without %q:\n%s", tc.body, tc.says, m.Text)
		}
	}
}

// The receipt of a reply whose second line was refused says so in its
// reader's French: the line, the rule's reason in play's and the game's
// French words, and the rule; its game, version and hash read back
// (archive.ParseReceipt).
func TestFrenchReceiptOfARefusedLine(t *testing.T) {
	w := newWorld(t, 27)
	addrs := players[:3]
	who, prompt := startByAPI(t, w, w.mustSend, addrs[0], addrs[1:]...)
	u, err := w.users.ByEmail(t.Context(), who)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.SetLanguage(t.Context(), u.ID, "fr"); err != nil {
		t.Fatal(err)
	}
	move := choose(t, nil, numbered(prompt.Text))
	w.mustSend(who, prompt.ReplyTo, reply(who, prompt, move+"\nenchère 1", "outlook-fr"))
	if out := w.inboundDone(); !strings.Contains(out, "played 1 of 2 line(s)") {
		t.Fatalf("outcome %q, want 1 of 2 lines played\n%s", out, w.trace())
	}
	rec := w.waitKind(who, "receipt", 1)
	text := strings.Join(strings.Fields(rec.Text), " ")
	if !strings.Contains(rec.Subject, "une ligne non jouée") || !strings.Contains(text, "La ligne 2 « enchère 1 » n’a pas été jouée, ni aucune ligne après elle : ") ||
		!regexp.MustCompile(`\(règle CY-\d+\)\.`).MatchString(text) {
		t.Fatalf("the French receipt does not say line 2 was not played, why and by which rule: %s\n%s", rec.Subject, rec.Text)
	}
	if played := strings.TrimSpace(strings.SplitN(strings.SplitN(rec.Text, "a été joué :", 2)[1], "\n", 3)[1]); !strings.HasPrefix(played, "enchère ") {
		t.Errorf("the French receipt writes the move played (%s, picked by number) as %q, not in French words", move, played)
	}
	onlyIn(t, "the French receipt of a refused line", mailReadable(t, rec), "fr")
	checkSealedReceipt(t, w, gameIDOf(rec.Subject), rec)
}

// One table, two languages: Ana writes in French, Bob set English with
// "language en" before he was invited, Cleo writes "rejoindre" and, once
// she has a receipt, French reply verbs (her absence and her dispute are
// told to Bob in English). A whole short game of Coyote: each reads every
// mail of it (invitation, prompts, receipts, notices, the game over) in
// their own language only, with no sentence of any catalog in the other,
// and the game's own words (Coyote's catalog) in their language.
func TestOneTableTwoLanguages(t *testing.T) {
	w := newWorld(t, 6)
	ana, bob, cleo := players[0], players[1], players[2]
	w.mustSend(bob, "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\nlanguage en\n", bob, domain, newMessageID()))
	if n := w.waitKind(bob, "notice", 1); !strings.Contains(n.Text, "From now on courrier writes to you in English.") {
		t.Fatalf("the answer to \"language en\":\n%s", n.Text)
	}
	verbs := false
	w.afterMove = func(game string) {
		if receipts := ofKind(w.mailTo(cleo), "receipt"); !verbs && len(receipts) > 0 {
			verbs = true
			frenchVerbsByMail(t, w, game, cleo, receipts[0])
		}
	}
	game, moves := playByMailIn(t, w, "coyote", []string{ana, bob, cleo}, 3, map[string]string{ana: "fr", cleo: "fr"})
	if !verbs {
		t.Fatal("Cleo got no receipt to answer with reply verbs")
	}
	other := map[string]string{"fr": "en", "en": "fr"}
	for addr, lang := range map[string]string{ana: "fr", bob: "en", cleo: "fr"} {
		u, err := w.users.ByEmail(t.Context(), addr)
		if err != nil || u.Known() != lang {
			t.Errorf("%s reads %q (%v), want %q", addr, u.Known(), err, lang)
		}
		n := checkLanguageOfMail(t, w, addr, lang)
		if len(ofKind(w.mailTo(addr), "game_over")) != 1 || len(ofKind(w.mailTo(addr), "prompt")) == 0 {
			t.Fatalf("%s did not get the game's prompts and its end", addr)
		}
		// The check sees the game's words: the sentences of Coyote's
		// catalog in the reader's language (those the other language says
		// otherwise) are in their mail.
		var all []string
		for _, m := range w.mailTo(addr) {
			all = append(all, mailReadable(t, m))
		}
		text, seen := normalizeText(strings.Join(all, "\n")), 0
		for frag, where := range foreignSentences(t, other[lang]) {
			if slices.Contains(where, "coyote") && strings.Contains(text, frag) {
				seen++
			}
		}
		if seen < 3 {
			t.Errorf("%s's mails hold %d sentences of Coyote's words in %s: the game does not speak to them in it", addr, seen, lang)
		}
		t.Logf("%s read %d mails in %s (%d sentences of Coyote's own words)", addr, n, lang, seen)
	}
	if inv := ofKind(w.mailTo(bob), "invitation"); len(inv) != 1 || !strings.Contains(inv[0].Subject, "invites you to a game") {
		t.Errorf("Bob's invitation to Ana's game is not in his English: %v", inv)
	}
	told := 0
	for _, n := range ofKind(w.mailTo(bob), "notice") {
		if strings.Contains(n.Subject, "a player is away") || strings.Contains(n.Text, "Cleo disputes version") {
			told++
		}
	}
	if told < 2 {
		t.Errorf("Bob was told %d times in English of Cleo's French absence and dispute", told)
	}
	t.Logf("game %s: %d replies in two languages", game, moves)
}

// The lobby by mail in French: "aide", "mes parties", "rappels non",
// "nouvelle partie" without players or a window's length, an unknown
// command and "langue …": each is answered in French (decision 5: the command's
// language, noted on the account), until "langue en" sets English, which
// a French command no longer changes.
func TestLobbyInFrench(t *testing.T) {
	w := newWorld(t, 8)
	zoe := "zoe@players.test"
	w.confirmed(zoe)
	ask := func(body string, n int) message {
		t.Helper()
		w.mustSend(zoe, "play@"+domain, fmt.Sprintf("From: Zoé <%s>\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\n%s\n", zoe, domain, newMessageID(), body))
		w.inboundDone()
		return w.waitKind(zoe, "notice", n)
	}
	n := 0
	for _, tc := range []struct {
		command string
		lang    string // the language of the answer
		says    []string
	}{
		{"aide", "fr", []string{"nouvelle partie <jeu> avec <adresse>", "Jeux :", "coyote", "de 2 à", "Couillon, à 4 joueurs", "langue fr (ou en)"}},
		{"mes parties", "fr", []string{"Vous n’avez encore aucune partie.", "« nouvelle partie coyote avec"}},
		{"Rappels non", "fr", []string{"Les rappels sont désormais désactivés"}},
		{"rappels", "fr", []string{"« rappels non »", "« rappels oui »"}},
		{"nouvelle partie coyote", "fr", []string{"aucune partie n’a été créée", "Nommez les personnes avec qui vous jouez par leur adresse électronique : « nouvelle partie coyote avec ana@example.org »."}},
		{"nouvelle partie coyote avec bob@players.test fenêtre", "fr", []string{"Écrivez la durée d’une fenêtre après « fenêtre » : « fenêtre 3j »."}},
		{"bonjour", "fr", []string{"je n’ai pas compris", "La première ligne de votre courriel, « bonjour »"}},
		{"langue klingon", "fr", []string{"quelle langue ?", "« klingon » n’est pas une langue que courrier parle", "écrivez « langue » suivi de son code : en (anglais), fr (français)."}},
		{"langue", "fr", []string{"Dites quelle langue vous lisez, comme « langue fr »"}},
		{"langue anglais", "en", []string{"your mails are now in English", "From now on courrier writes to you in English."}},
		{"aide", "en", []string{"new <game> with <address>", "language en (or fr)"}},
		{"langue fr", "fr", []string{"vos courriels sont désormais en français", "Désormais, courrier vous écrit en français."}},
	} {
		n++
		m := ask(tc.command, n)
		text := mailReadable(t, m)
		joined := strings.Join(strings.Fields(text), " ")
		for _, want := range tc.says {
			if !strings.Contains(joined, want) {
				t.Errorf("%q was answered without %q:\n%s", tc.command, want, text)
			}
		}
		onlyIn(t, fmt.Sprintf("the answer to %q", tc.command), text, tc.lang)
		u, err := w.users.ByEmail(context.Background(), zoe)
		if err != nil || u.Known() != tc.lang {
			t.Errorf("after %q Zoé reads %q (%v), want %q", tc.command, u.Known(), err, tc.lang)
		}
	}
	// A language noted from a browser is no choice: Yan first signed in
	// with an English browser, then writes "aide": the command's own
	// language wins (decision 5), and French answers.
	yan := "yan@players.test"
	w.confirmed(yan)
	if u, err := w.users.ByEmail(context.Background(), yan); err != nil {
		t.Fatal(err)
	} else if set, err := w.users.NoteLanguage(context.Background(), u.ID, "en"); err != nil || !set {
		t.Fatalf("note English for Yan: %v %v", set, err)
	}
	w.mustSend(yan, "play@"+domain, fmt.Sprintf("From: Yan <%s>\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\naide\n", yan, domain, newMessageID()))
	w.inboundDone()
	if m := w.waitKind(yan, "notice", 1); !strings.Contains(mailReadable(t, m), "nouvelle partie <jeu> avec <adresse>") {
		t.Errorf("Yan, whose English was only noted, wrote \"aide\" and got:\n%s", mailReadable(t, m))
	}
	// A game courrier does not have: the answer is French, its reason is
	// play's refusal said in French (games.Explain; play's own words are
	// French once play's catalog says them).
	n++
	if m := ask("nouvelle partie échecs avec bob@players.test", n); !strings.Contains(m.Subject, "aucune partie n’a été créée") || !strings.Contains(m.Text, "échecs") {
		t.Errorf("a game courrier does not have got %q:\n%s", m.Subject, m.Text)
	}
	// A stranger (no account) who writes "aide" is answered in French, and
	// gets no account for it.
	stranger := "inconnu@players.test"
	w.mustSend(stranger, "play@"+domain, fmt.Sprintf("From: %s\nTo: play@%s\nSubject: x\nMessage-ID: <%s>\n\naide\n", stranger, domain, newMessageID()))
	w.inboundDone()
	help := w.waitKind(stranger, "notice", 1)
	onlyIn(t, "the help to a stranger", mailReadable(t, help), "fr")
	if !strings.Contains(help.Text, "nouvelle partie") {
		t.Errorf("a stranger's \"aide\" got:\n%s", help.Text)
	}
	if _, err := w.users.ByEmail(context.Background(), stranger); !errors.Is(err, auth.ErrNoUser) {
		t.Errorf("a stranger's \"aide\" made an account: %v", err)
	}
}

// The pages of the mail side (unsubscribe, confirm) are in their reader's
// language: the account's setting for an unsubscribe link, else the
// browser's Accept-Language.
func TestMailPagesInTheReadersLanguage(t *testing.T) {
	w := newWorld(t, 9)
	u, err := w.users.Ensure(t.Context(), "zoe@players.test")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.SetLanguage(t.Context(), u.ID, "fr"); err != nil {
		t.Fatal(err)
	}
	h := w.mail.Handler(w.jobs)
	path := "/u/" + w.signer.UnsubscribeToken(u.ID, "k7m2p9q4rs")
	for _, tc := range []struct {
		method, path, accept string
		status               int
		lang                 string
		says                 string
	}{
		{http.MethodGet, path, "en", http.StatusOK, "fr", "Arrêter les courriels de la partie k7m2p9q4rs"},
		{http.MethodPost, path, "", http.StatusOK, "fr", "Vous ne recevrez plus de courriel sur la partie k7m2p9q4rs."},
		{http.MethodGet, "/u/forged", "fr-FR,fr;q=0.9,en;q=0.5", http.StatusNotFound, "fr", "courrier n’a jamais donné ce lien de désabonnement."},
		{http.MethodGet, "/u/forged", "de, en;q=0.5", http.StatusNotFound, "en", "This unsubscribe link is not one courrier gave out."},
		{http.MethodGet, "/c/forged", "fr", http.StatusNotFound, "fr", "Ce lien de confirmation a expiré, ou courrier ne l’a jamais donné."},
		{http.MethodPost, "/c/forged", "", http.StatusNotFound, "en", "This confirmation link has expired or is not one courrier gave out."},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequestWithContext(t.Context(), tc.method, tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept-Language", tc.accept)
		}
		h.ServeHTTP(rec, req)
		body := html.UnescapeString(rec.Body.String())
		if rec.Code != tc.status || !strings.Contains(body, `<html lang="`+tc.lang+`">`) || !strings.Contains(body, tc.says) {
			t.Errorf("%s %s (Accept-Language %q): %d, want %d in %s saying %q:\n%s", tc.method, tc.path, tc.accept, rec.Code, tc.status, tc.lang, tc.says, body)
		}
		onlyIn(t, tc.method+" "+tc.path, tagRe.ReplaceAllString(body, " "), tc.lang)
	}
}

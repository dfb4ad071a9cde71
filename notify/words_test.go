package notify_test

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/incoming"
	mailwords "github.com/courrier-games/courrier/notify/words"
	"github.com/courrier-games/courrier/play"
)

// notify's catalog has every key in every language, each placing the same
// arguments as English, and a reply marker the inbound side reads in each.
func TestMailCatalogIsComplete(t *testing.T) {
	if err := mailwords.Own().Complete(); err != nil {
		t.Fatal(err)
	}
	if got := mailwords.Own().Languages(); !slices.Equal(got, games.Languages()) {
		t.Fatalf("notify's catalog speaks %v, courrier %v", got, games.Languages())
	}
	markers := mailwords.Markers()
	if len(markers) != len(games.Languages()) || markers[0] != notify.ReplyMarker {
		t.Fatalf("markers %q: want one per language, English first (%q)", markers, notify.ReplyMarker)
	}
	for _, m := range markers {
		body := "enchère 5\n\n> " + m + "\n> Bonjour Ana,\n> bid 4"
		in, err := incoming.Read(t.Context(), []byte("From: a@example.org\r\nSubject: Re\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
			strings.ReplaceAll(body, "\n", "\r\n")), "a@example.org", nil)
		if err != nil || in.Text != "enchère 5" {
			t.Errorf("a reply above the marker %q reads as %q, %v", m, in.Text, err)
		}
		unquoted := "coyote\n\n" + m + "\n\nBonjour Ana,\n1. bid 4"
		in, err = incoming.Read(t.Context(), []byte("From: a@example.org\r\nSubject: Re\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
			strings.ReplaceAll(unquoted, "\n", "\r\n")), "a@example.org", nil)
		if err != nil || in.Text != "coyote" {
			t.Errorf("a reply above the marker %q quoted without \">\" reads as %q, %v", m, in.Text, err)
		}
	}
}

// wordCatalogs are every catalog whose words a mail may say: notify's,
// play's, api/auth's, the words every board shares, and each game's.
func wordCatalogs() (map[string]*games.Catalog, error) {
	out := map[string]*games.Catalog{"notify": mailwords.Own(), "play": play.Words(), "auth": auth.Words(), "games": games.BoardWords()}
	for _, id := range catalog.Registry().IDs() {
		eng, err := catalog.Registry().Get(id)
		if err != nil {
			return nil, err
		}
		out[id] = eng.Words()
	}
	return out, nil
}

// catalogSentences are, for each language, the sentences of every catalog
// that a mail in it must not hold (see foreignSentences), worked out once,
// for the catalogs are read once and never change; and whether every
// catalog is complete.
var catalogSentences = sync.OnceValues(func() (map[string]map[string][]string, error) {
	cats, err := wordCatalogs()
	if err != nil {
		return nil, err
	}
	var incomplete []error
	for _, name := range slices.Sorted(maps.Keys(cats)) {
		if err := cats[name].Complete(); err != nil {
			incomplete = append(incomplete, fmt.Errorf("%s: %w", name, err))
		}
	}
	out := map[string]map[string][]string{}
	for _, lang := range games.Languages() {
		frags := map[string][]string{}
		for _, name := range slices.Sorted(maps.Keys(cats)) {
			for _, frag := range cats[name].Foreign(lang) {
				frag = normalizeText(frag)
				frags[frag] = append(frags[frag], name)
			}
		}
		out[lang] = frags
	}
	return out, errors.Join(incomplete...)
})

// foreignSentences are the sentences of every catalog that a mail in lang
// must not hold (games.Catalog.Foreign: each run of three or more words of
// a pattern in another language that lang's pattern of the same key does
// not hold too), normalized as normalizeText does, each with the names of
// the catalogs it is foreign in. Every message of every catalog is in every
// language: a catalog that is not complete fails t.
func foreignSentences(t *testing.T, lang string) map[string][]string {
	t.Helper()
	all, err := catalogSentences()
	if err != nil {
		t.Fatal(err)
	}
	out := all[lang]
	if len(out) == 0 {
		t.Fatalf("no sentence foreign to %s to look for", lang)
	}
	return out
}

// normalizeText is s in lower case with one space between words and the
// typographic apostrophe as '.
func normalizeText(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(s), "’", "'")), " ")
}

// tagRe is an HTML tag.
var tagRe = regexp.MustCompile(`<[^>]*>`)

// readable is what a person reads of a rendered mail: its subject, its
// text part and its HTML part's text.
func readable(t *testing.T, raw []byte) string {
	t.Helper()
	h, parts := msgParse(t, raw)
	subject, _ := h.Subject()
	out := []string{subject}
	for _, p := range parts {
		body := p.Body
		if p.Type == "text/html" {
			body = html.UnescapeString(tagRe.ReplaceAllString(body, " "))
		}
		out = append(out, body)
	}
	return strings.Join(out, "\n")
}

// onlyIn fails t when text (a mail or a page) holds a sentence of any
// catalog in a language other than lang.
func onlyIn(t *testing.T, what, text, lang string) {
	t.Helper()
	norm := normalizeText(text)
	for frag, where := range foreignSentences(t, lang) {
		if strings.Contains(norm, frag) {
			t.Errorf("%s, in %s, holds %q (foreign words of %s)", what, lang, frag, strings.Join(where, ", "))
		}
	}
}

// msgFrenchSamples are one mail of each kind (and of each variant of it),
// in French, with French data as the workers write it.
func msgFrenchSamples() []notify.Mail {
	fr := func(m notify.Mail) notify.Mail {
		m.Lang = "fr"
		m.MessageID = strings.Replace(m.MessageID, "@", ".fr@", 1)
		return m
	}
	choices := []string{"enchère 4", "enchère 5", "enchère 6", "coyote"}
	prompt := fr(msgMail(notify.KindPrompt, notify.PromptData{
		Game: msgGame, Player: "Bob", Version: 12,
		View:  "À qui de jouer : Bob.\nL’enchère : 3 par Ana.\nAna : 0 jeton coyote ; plume 5.\nBob (vous) : 1 jeton coyote ; plume cachée.",
		Since: []string{"Ana a enchéri 3.", "Cleo a crié « Coyote ! » : la somme était 21, pas sous 3 ; Cleo prend un coyote et une nouvelle manche commence."},
		ToDo:  []string{"surenchérir ou crier Coyote (règle CY-12)"}, Choices: choices,
		Deadline: "vendredi 28 novembre à 18 h 00 (UTC)", Commitment: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
	}))
	prompt.Unsubscribe = "https://courrier.example/u/abc123"
	prompt.ReplyTo = "m+1a2b3c4d5e.k7m2p9q4rs.1.12.xyz@courrier.example"
	reminder := prompt
	reminder.Kind = notify.KindReminder
	d := reminder.Data.(notify.PromptData)
	d.Reminder, d.ToDo = true, []string{"surenchérir (règle CY-12)", "crier Coyote (règle CY-13)"}
	reminder.Data = d

	receipt := fr(msgMail(notify.KindReceipt, notify.ReceiptData{
		Game: msgGame, Player: "Ana", Moves: []string{"enchère 4"}, Version: 13, Head: msgHead,
		Caused: []string{"Vous avez enchéri 4."},
	}))
	receipts := fr(msgMail(notify.KindReceipt, notify.ReceiptData{Game: msgGame, Player: "Ana", Moves: []string{"enchère 4", "coyote"}, Version: 14}))
	nothing := fr(msgMail(notify.KindReceipt, notify.ReceiptData{Game: msgGame, Player: "Ana", Version: 14}))

	refusal := fr(msgMail(notify.KindRefusal, notify.RefusalData{
		Lang: "fr", Game: msgGame, Player: "Ana", Sent: []string{"enchère 2"}, Problem: "une enchère doit dépasser la dernière, 3",
		Rule: "CY-7", Choices: choices, Version: 12,
	}))
	verbs := fr(msgMail(notify.KindRefusal, notify.RefusalData{
		Lang: "fr", Game: msgGame, Player: "Ana", Sent: []string{"1"}, Problem: "ce n’est pas votre tour", Verbs: true, Version: 12,
	}))
	stranger := fr(msgMail(notify.KindRefusal, notify.RefusalData{Lang: "fr", Problem: "cette adresse de réponse a expiré"}))

	over := fr(msgMail(notify.KindGameOver, notify.GameOverData{
		Game: msgGame, Player: "Ana", Summary: "Bob gagne avec un coyote", Scores: []string{"Bob : 1 coyote", "Ana : 2 coyotes"},
		Since: []string{"Vous avez crié « Coyote ! » contre l’enchère 9 de Bob."}, View: "La pioche : 20 plumes.",
		Seed: "5d41402abc4b2a76b9719d911017c592", Commitment: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
		Version: 57, Head: msgHead, RecordURL: "https://courrier.example/g/k7m2p9q4rs/record", RecordFile: "courrier-k7m2p9q4rs.txt",
	}))
	overPlain := fr(msgMail(notify.KindGameOver, notify.GameOverData{Game: notify.GameRef{ID: "k7m2p9q4rs"}, Player: "Ana", Version: 3}))

	invitation := fr(msgMail(notify.KindInvitation, notify.InvitationData{
		Game: msgGame, Inviter: "Ana", InviterAddress: "ana@example.org", Players: []string{"Ana", "Bob"}, Name: "Cleo",
		Commitment: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
	}))
	invitation.ReplyTo = "i+9z8y7x.k7m2p9q4rs@courrier.example"
	anonymous := fr(msgMail(notify.KindInvitation, notify.InvitationData{Game: msgGame}))

	login := fr(msgMail(notify.KindLogin, notify.LoginData{URL: "https://courrier.example/login?t=Qx7bYk2", Expires: "15 minutes"}))
	login.MessageID, login.InReplyTo, login.References = "login.1234.fr@courrier.example", "", nil

	notice := fr(msgMail(notify.KindNotice, notify.NoticeData{
		Lang: "fr", Subject: "[courrier] vos parties", Paragraphs: []string{"Vous jouez deux parties."},
		Lines: []string{"k7m2p9q4rs  Coyote     en cours : à vous"},
	}))
	return []notify.Mail{prompt, reminder, receipt, receipts, nothing, refusal, verbs, stranger, over, overPlain, invitation, anonymous, login, notice}
}

// A French mail of each kind is French: its fixed words are the French
// catalog's, and it holds no sentence of any catalog's English (nor an
// English mail any French one); the goldens show them whole.
func TestRenderFrenchMails(t *testing.T) {
	r := msgRenderer(t)
	want := map[string][]string{
		notify.KindPrompt:     {"[courrier] Coyote k7m2p9q4rs : à vous de jouer (version 12)", "Bonjour Bob,", "C’est à vous de jouer dans la partie k7m2p9q4rs de Coyote.", "Vos coups :", "« Répondez au-dessus de cette ligne »", "Merci de jouer avant le vendredi 28 novembre à 18 h 00 (UTC).", "Règles de Coyote :", "Vous pouvez maintenant surenchérir ou crier Coyote (règle CY-12).", "son empreinte sha256 est 2cf24dba"},
		notify.KindReminder:   {"rappel : à vous de jouer (version 12)", "Pour rappel : c’est toujours à vous de jouer", "et l’échéance est le vendredi 28 novembre", "Vous pouvez maintenant :"},
		notify.KindReceipt:    {"Reçu : " + msgHead, "Ce que votre coup a fait :", "La partie en est maintenant à la version", "« litige 13 pourquoi »", "« absent 3j », « retour », « revendiquer » et « abandon » marchent aussi"},
		notify.KindRefusal:    {"Vous avez envoyé :", "Une enchère doit dépasser la dernière, 3 (règle CY-7).", "Vos coups possibles maintenant (version 12) :"},
		notify.KindGameOver:   {"partie terminée — Bob gagne avec un coyote", "Classement :", "La table à la fin :", "La graine était 5d41402abc4b2a76b9719d911017c592 ;", "« courrier verify courrier-k7m2p9q4rs.txt »"},
		notify.KindInvitation: {"Ana (ana@example.org) vous invite à jouer la partie k7m2p9q4rs de Coyote.", "rejoindre Cleo", "(ou « rejoindre » suivi d’un autre nom)"},
		notify.KindLogin:      {"[courrier] votre lien de connexion", "Il fonctionne pendant 15 minutes.", "Se connecter à courrier"},
		notify.KindNotice:     {"[courrier] vos parties", "Vous jouez deux parties."},
	}
	for _, m := range msgFrenchSamples() {
		raw, err := r.Render(m)
		if err != nil {
			t.Fatalf("%s: %v", m.Kind, err)
		}
		text := readable(t, raw)
		joined := strings.Join(strings.Fields(text), " ")
		for _, w := range want[m.Kind] {
			if !strings.Contains(joined, w) {
				t.Errorf("the French %s mail %s does not say %q:\n%s", m.Kind, m.MessageID, w, text)
			}
		}
		delete(want, m.Kind)
		onlyIn(t, "the French "+m.Kind+" mail "+m.MessageID, text, "fr")
		if !strings.Contains(string(raw), `lang=3D"fr"`) {
			t.Errorf("the French %s mail's HTML is not lang=fr", m.Kind)
		}
		for _, bad := range []string{"[games:", "Hello", "Reply above"} {
			if strings.Contains(text, bad) {
				t.Errorf("the French %s mail holds %q:\n%s", m.Kind, bad, text)
			}
		}
	}
	seen := 0
	english := foreignSentences(t, "fr")
	for _, m := range msgSamples() {
		raw, err := r.Render(m)
		if err != nil {
			t.Fatal(err)
		}
		text := readable(t, raw)
		onlyIn(t, "the English "+m.Kind+" mail", text, "en")
		for frag := range english {
			if strings.Contains(normalizeText(text), frag) {
				seen++
			}
		}
	}
	if seen < 20 {
		t.Errorf("the English mails hold %d of the English sentences the check looks for: it sees nothing", seen)
	}
	for _, m := range msgFrenchSamples()[:1] {
		// One golden French mail, for a reader to see it whole.
		raw, _ := r.Render(m)
		path := filepath.Join("testdata", "prompt.fr.eml")
		if *update {
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		golden, err := fs.ReadFile(os.DirFS("testdata"), "prompt.fr.eml")
		if err != nil || !bytes.Equal(golden, raw) {
			t.Errorf("the French prompt differs from %s (%v; go test ./notify -run French -update); got:\n%s", path, err, raw)
		}
	}
}

// The same mail in English and in French differs only in its words: both
// are answerable with the marker of their language first, and a mail in a
// language courrier does not speak is written in English.
func TestRenderLanguageOfAMail(t *testing.T) {
	r := msgRenderer(t)
	m := msgSamples()[0]
	for _, tc := range []struct {
		lang, marker, hello string
	}{
		{"", notify.ReplyMarker, "Hello Bob,"},
		{"en", notify.ReplyMarker, "Hello Bob,"},
		{"fr", "## Répondez au-dessus de cette ligne ##", "Bonjour Bob,"},
		{"fr-BE", "## Répondez au-dessus de cette ligne ##", "Bonjour Bob,"},
		{"tlh", notify.ReplyMarker, "Hello Bob,"},
	} {
		m.Lang = tc.lang
		raw, err := r.Render(m)
		if err != nil {
			t.Fatal(err)
		}
		_, parts := msgParse(t, raw)
		first, rest, _ := strings.Cut(parts[0].Body, "\n")
		if first != tc.marker || !strings.Contains(rest, tc.hello) || !strings.Contains(parts[1].Body, tc.marker) {
			t.Errorf("a mail in %q starts %q, says %q: want %q and %q", tc.lang, first, rest[:40], tc.marker, tc.hello)
		}
	}
}

package incoming_test

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/notify/incoming"
)

// frenchPrompt is courrier's prompt in French, as a French player's mail
// program quotes it.
const frenchPrompt = `## Répondez au-dessus de cette ligne ##

Bonjour Ana,

C’est à vous de jouer dans la partie k7m2p9q4rs de Coyote.

Vos coups :
  1. enchère 5
  2. coyote

Répondez par votre coup au-dessus de la ligne « Répondez au-dessus de
cette ligne » : écrivez-le comme dans la liste, ou seulement son numéro.

Merci de jouer avant le vendredi 28 novembre à 19 h 00 (CET).

-- 
courrier, des jeux par courriel
Ne plus recevoir ces courriels : https://courrier.example/u/Zt9`

// quotedFrench is frenchPrompt quoted with "> ".
func quotedFrench() string {
	lines := strings.Split(frenchPrompt, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// A reply written in French, quoted as the mail programs French players
// use quote it, is read as the move above the quote: Gmail ("Le ven. 28
// nov. 2026 à 19:00, … a écrit :", wrapped, with a no-break space before
// the colon), Apple Mail and iOS ("Le 28 nov. 2026 à 19:00, … a écrit :"),
// Thunderbird ("Le 28/11/2026 à 19:00, courrier a écrit :", above and
// below), Outlook ("De : … Envoyé : … À : … Objet :", with its rule or its
// "Message d'origine"), Windows Mail, Yahoo, and the webmails of French
// providers (Zimbra's "----- Mail original -----", Roundcube).
func TestReadFrenchReplies(t *testing.T) {
	gmail := "Le ven. 28 nov. 2026 à 19:00, courrier <play@courrier.example> a écrit\u00a0:\n\n" + quotedFrench()
	gmailWrapped := "Le ven. 28 nov. 2026 à 19:00, courrier <play@courrier.example> a\nécrit\u00a0:\n\n" + quotedFrench()
	apple := "> Le 28 nov. 2026 à 19:00, courrier <play@courrier.example> a écrit :\n> \n" + quotedFrench()
	thunderbird := "Le 28/11/2026 à 19:00, courrier a écrit :\n" + quotedFrench()
	thunderbirdLong := "Le vendredi 28 novembre 2026 à 19:00, courrier <play@courrier.example> a écrit :\n" + quotedFrench()
	outlookBlock := "De : courrier <play@courrier.example>\nEnvoyé : vendredi 28 novembre 2026 19:00\nÀ : Ana Lima <ana@example.org>\n" +
		"Objet : [courrier] Coyote k7m2p9q4rs : à vous de jouer (version 12)\n\n" + frenchPrompt
	yahoo := "Le vendredi 28 novembre 2026, 19:00:00 UTC+1, courrier <play@courrier.example> a écrit :\n\n\n" + quotedFrench()
	zimbra := "----- Mail original -----\nDe: \"courrier\" <play@courrier.example>\nÀ: \"Ana Lima\" <ana@example.org>\n" +
		"Envoyé: Vendredi 28 Novembre 2026 19:00:00\nObjet: [courrier] Coyote k7m2p9q4rs : à vous de jouer (version 12)\n\n" + frenchPrompt
	roundcube := "Le 2026-11-28 19:00, courrier a écrit :\n" + quotedFrench()
	for _, tc := range []struct {
		name, body, text string
		moves            []string
	}{
		{"gmail", "enchère 5\n\n" + gmail, "enchère 5", []string{"enchère 5"}},
		{"gmail wrapped", "Je passe.\n\n" + gmailWrapped, "Je passe.", []string{"Je passe."}},
		{"gmail, a note under the move", "valet de trèfle\n\nBonne partie à tous !\nAna\n\n" + gmail, "valet de trèfle\n\nBonne partie à tous !\nAna", []string{"valet de trèfle"}},
		{"apple mail", "Enchère 5\n\nEnvoyé de mon iPhone\n\n" + apple, "Enchère 5", []string{"Enchère 5"}},
		{"apple mail, ipad", "coyote\n\nEnvoyé de mon iPad\n\n" + apple, "coyote", []string{"coyote"}},
		{"thunderbird above", "je passe\n\n" + thunderbird, "je passe", []string{"je passe"}},
		{"thunderbird below", thunderbird + "\n\nenchère 6\n\n-- \nAna Lima", "enchère 6", []string{"enchère 6"}},
		{"thunderbird, the long date", "aide étrangère\n\n" + thunderbirdLong, "aide étrangère", []string{"aide étrangère"}},
		{"outlook", "2\n\n" + outlookBlock, "2", []string{"2"}},
		{"outlook with its rule", "je passe\n\n________________________________\n" + outlookBlock, "je passe", []string{"je passe"}},
		{"outlook, message d'origine", "valet de trèfle\n\n-----Message d'origine-----\n" + outlookBlock, "valet de trèfle", []string{"valet de trèfle"}},
		{"outlook for android", "enchère 5\n\nObtenir Outlook pour Android<https://aka.ms/AAb9ysg>\n\n" + outlookBlock, "enchère 5", []string{"enchère 5"}},
		{"windows mail", "coyote\n\nEnvoyé à partir de Courrier pour Windows\n\n" + outlookBlock, "coyote", []string{"coyote"}},
		{"yahoo", "enchère 7\n\n" + yahoo, "enchère 7", []string{"enchère 7"}},
		{"zimbra (orange, free)", "valet de trèfle\n\n" + zimbra, "valet de trèfle", []string{"valet de trèfle"}},
		{"roundcube", "taxe\n\n" + roundcube, "taxe", []string{"taxe"}},
		{"thunderbird forward header", "enchère 5\n\n-------- Message original --------\nSujet : x\nDate : 28/11/2026 19:00\nDe : courrier <play@courrier.example>\n\n" + frenchPrompt, "enchère 5", []string{"enchère 5"}},
		{"the French marker alone", "contester Ana\n\n" + frenchPrompt, "contester Ana", []string{"contester Ana"}},
		{"the French marker lower-cased", "enchère 5\n\n" + strings.ToLower(frenchPrompt), "enchère 5", []string{"enchère 5"}},
		{"the French marker without its hashes", "enchère 5\nRépondez au-dessus de cette ligne\n1. enchère 5", "enchère 5", []string{"enchère 5"}},
		{"a French line with a colon", "Enchère : 5\n\n" + gmail, "Enchère : 5", []string{"Enchère : 5"}},
		{"a French move that opens like a header", "Le valet de trèfle\n\n" + gmail, "Le valet de trèfle", []string{"Le valet de trèfle"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := incomingParse(t, incomingMail("", tc.body), "ana@example.org")
			if in.Text != tc.text {
				t.Errorf("Text = %q, want %q", in.Text, tc.text)
			}
			if got := incoming.MoveLines(in.Text); !slices.Equal(got, tc.moves) {
				t.Errorf("MoveLines = %q, want %q", got, tc.moves)
			}
		})
	}
}

// An HTML-only reply from a French Gmail or Outlook is read the same.
func TestReadFrenchHTMLReplies(t *testing.T) {
	quote := strings.ReplaceAll(frenchPrompt, "\n", "<br>\n")
	for _, tc := range []struct {
		name, html, text string
	}{
		{"gmail", `<div dir="ltr">enchère 5</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">Le ven. 28 nov. 2026 à 19:00, courrier &lt;<a href="mailto:play@courrier.example">play@courrier.example</a>&gt; a écrit&nbsp;:<br></div><blockquote class="gmail_quote">` + quote + `</blockquote></div>`, "enchère 5"},
		{"outlook", `<div>je passe</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>De :</b> courrier &lt;play@courrier.example&gt;<br><b>Envoyé :</b> vendredi 28 novembre 2026 19:00<br><b>À :</b> Ana Lima<br><b>Objet :</b> [courrier] Coyote</div><div>` + quote + `</div>`, "je passe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := base64.StdEncoding.EncodeToString([]byte(tc.html))
			raw := "From: Ana Lima <ana@example.org>\r\nTo: courrier <m+AbC123@courrier.example>\r\nSubject: Re: x\r\nMIME-Version: 1.0\r\n" +
				"Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + body + "\r\n"
			in := incomingParse(t, []byte(raw), "ana@example.org")
			if in.Text != tc.text {
				t.Errorf("Text = %q, want %q", in.Text, tc.text)
			}
		})
	}
}

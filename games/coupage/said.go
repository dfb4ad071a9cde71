package coupage

import (
	"strings"
	"unicode/utf8"

	"github.com/courrier-games/courrier/games"
)

// The pieces of the game's sentences (refusals, descriptions) as texts of
// its catalog, so that each is said in the reader's language.

// of is the player at seat as the owner of what follows: "Ana's" in
// English; in French "d’Ana" or "de Bob", as the name begins.
func (s *State) of(seat games.Seat) games.Text { return ofName(s.name(seat)) }

// ofName is of for a name.
func ofName(name string) games.Text {
	if elides(name) {
		return games.T("said.of_vowel", name)
	}
	return games.T("said.of", name)
}

// elides tells whether a name begins with a vowel sound, before which
// French writes "d’" for "de": a vowel, accents aside, or a y before a
// consonant (Yves, not Yann). A name beginning with h is taken as
// beginning with a consonant ("de Hugo").
func elides(name string) bool {
	f := games.FoldWord(strings.TrimSpace(name))
	r, size := utf8.DecodeRuneInString(f)
	if r == 'y' {
		next, _ := utf8.DecodeRuneInString(f[size:])
		return next != utf8.RuneError && !strings.ContainsRune("aeiouy", next)
	}
	return strings.ContainsRune("aeiouœæ", r)
}

// cardText is a card as a refusal names it: a grape or a special by its
// name, the same in every language ("Macabeu ★★", "Vin piqué"), Time in
// the catalog's words.
func (a *Aid) cardText(code string) games.Text {
	if code == timeCard {
		return games.T("card.time")
	}
	return games.Plain(a.cardName(code))
}

// cardList is cardText of each code, separated by commas: "Macabeu ★,
// Trepat ★★".
func (a *Aid) cardList(codes []string) games.Text {
	if len(codes) == 0 {
		return games.Plain("")
	}
	t := a.cardText(codes[len(codes)-1])
	for i := len(codes) - 2; i >= 0; i-- {
		t = games.T("board.commas", a.cardText(codes[i]), t)
	}
	return t
}

// stateText is a barrel's state in words ("in production").
func stateText(state string) games.Text { return games.T("state." + state) }

// formText is a Time card of a barrel in words by its form: "face-up Time
// card" or "face-down card counting as Time".
func formText(faceDown bool) games.Text {
	if faceDown {
		return games.T("form.face_down")
	}
	return games.T("form.face_up")
}

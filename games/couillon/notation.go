package couillon

import (
	"strconv"
	"strings"
)

// MoveKind is what a move does.
type MoveKind uint8

// The three kinds of move (section 7).
const (
	// Accept takes the proposed trump (CO-4).
	Accept MoveKind = iota + 1
	// Pass refuses the proposed trump (CO-4, CO-5).
	Pass
	// Play plays a card to the trick (CO-7, CO-18).
	Play
)

// Move is one move in Couillon: accept, pass or play a card.
type Move struct {
	Kind MoveKind
	Card Card // for Play
}

// fold lowercases s, removes accents and turns separators into spaces.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case 'à', 'á', 'â', 'ä', 'ã':
			b.WriteRune('a')
		case 'é', 'è', 'ê', 'ë':
			b.WriteRune('e')
		case 'î', 'ï', 'í', 'ì':
			b.WriteRune('i')
		case 'ô', 'ö', 'ó', 'ò':
			b.WriteRune('o')
		case 'û', 'ü', 'ú', 'ù':
			b.WriteRune('u')
		case 'ç':
			b.WriteRune('c')
		case 'œ':
			b.WriteString("oe")
		case '\t', '\n', '\r', ',', '.', '!', ':', ';', '_', '-', '\'', '’':
			b.WriteRune(' ')
		case '\uFE0E', '\uFE0F': // text/emoji presentation selectors ("♥️" from phones): dropped
		default:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// suitWord reads a suit code, symbol or word (English or French).
func suitWord(w string) (Suit, bool) {
	switch w {
	case "c", "♣", "♧", "club", "clubs", "trefle", "trefles":
		return Clubs, true
	case "d", "♦", "♢", "diamond", "diamonds", "carreau", "carreaux":
		return Diamonds, true
	case "h", "♥", "♡", "heart", "hearts", "coeur", "coeurs":
		return Hearts, true
	case "s", "♠", "♤", "spade", "spades", "pique", "piques":
		return Spades, true
	}
	return NoSuit, false
}

// frenchRank reads the letter a French card prints for a rank: R (roi),
// D (dame), V (valet); with a suit symbol or a French suit word only, as
// "d" alone is the English code of diamonds.
func frenchRank(w string) (Rank, bool) {
	switch w {
	case "r":
		return King, true
	case "d":
		return Queen, true
	case "v":
		return Jack, true
	}
	return 0, false
}

// frenchSuit reports whether w is a suit symbol or a French suit word.
func frenchSuit(w string) bool {
	switch w {
	case "c", "d", "h", "s", "club", "clubs", "diamond", "diamonds", "heart", "hearts", "spade", "spades":
		return false
	}
	_, ok := suitWord(w)
	return ok
}

// rankWord reads a rank code or word (English or French).
func rankWord(w string) (Rank, bool) {
	switch w {
	case "9", "nine", "neuf":
		return Nine, true
	case "10", "t", "ten", "dix":
		return Ten, true
	case "j", "jack", "knave", "valet":
		return Jack, true
	case "q", "queen", "dame", "reine":
		return Queen, true
	case "k", "king", "roi":
		return King, true
	case "a", "ace", "as":
		return Ace, true
	}
	return 0, false
}

// parseCard reads a card: code ("kh", "10d", "td"), rank code and suit symbol
// ("k♥"), or words ("king of hearts", "roi de coeur"). s may be unfolded.
func parseCard(s string) (Card, bool) {
	s = fold(s)
	words := strings.Fields(s)
	switch len(words) {
	case 1:
		w := words[0]
		for _, rk := range []string{"10", "9", "t", "j", "q", "k", "a", "r", "d", "v"} {
			if rest, ok := strings.CutPrefix(w, rk); ok {
				k, ok := rankWord(rk)
				if !ok { // R♥, D♠, V♣: a French letter and a symbol
					k, ok = frenchRank(rk)
					ok = ok && frenchSuit(rest)
				}
				if u, isSuit := suitWord(rest); ok && isSuit && len([]rune(rest)) == 1 {
					return NewCard(k, u), true
				}
			}
		}
	case 2, 3:
		if len(words) == 3 {
			if words[1] != "of" && words[1] != "de" && words[1] != "d" {
				return NoCard, false
			}
			words = []string{words[0], words[2]}
		}
		k, ok1 := rankWord(words[0])
		u, ok2 := suitWord(words[1])
		if !ok1 { // "R cœur", "V de trèfle"
			k, ok1 = frenchRank(words[0])
			ok1 = ok1 && frenchSuit(words[1])
		}
		if ok1 && ok2 {
			return NewCard(k, u), true
		}
	}
	return NoCard, false
}

// parseMove reads one move in the notation of section 7: the canonical
// words, with the English and French words of section 7 beside them (the
// engine has already written the catalog's forms of every language in the
// canonical words: "jouer roi de cœur" arrives as "accept K♥").
func parseMove(text string) (Move, error) {
	if m, ok := quickMove(text); ok {
		return m, nil
	}
	s := fold(text)
	switch s {
	case "":
		return Move{}, words.Unparsable("refusal.empty")
	case "accept", "play", "take", "jouer", "prendre":
		return Move{Kind: Accept}, nil
	case "pass", "passer", "passe":
		return Move{Kind: Pass}, nil
	}
	rest := s
	// "accept <card>" is a play: French "jouer" is both accepting trump
	// (alone, CO-4's word) and playing a card, as English "play" is.
	for _, verb := range []string{"play ", "accept ", "jouer ", "joue "} {
		if r, ok := strings.CutPrefix(s, verb); ok {
			rest = r
			break
		}
	}
	for _, article := range []string{"le ", "la ", "l "} { // "le roi de cœur", "l’as de pique"
		if r, ok := strings.CutPrefix(rest, article); ok {
			rest = r
			break
		}
	}
	if c, ok := parseCard(rest); ok {
		return Move{Kind: Play, Card: c}, nil
	}
	return Move{}, words.Unparsable("refusal.not_a_move", words.Written(quoted(text)))
}

// quoted is text as %q writes it, without its quotation marks: a move a
// person wrote, said back with its control characters escaped.
func quoted(text string) string {
	q := strconv.Quote(strings.TrimSpace(text))
	return q[1 : len(q)-1]
}

// formatMove writes a move in canonical notation: accept, pass, play K♥
// (the card as the board prints it; its code "kh" is read too).
func formatMove(m Move) string {
	switch m.Kind {
	case Accept:
		return "accept"
	case Pass:
		return "pass"
	case Play:
		return "play " + m.Card.String()
	}
	return "?"
}

// symbolCards are the cards by their printed form ("K♥").
var symbolCards = func() map[string]Card {
	out := map[string]Card{}
	for c := Card(1); c <= NumCards; c++ {
		out[c.String()] = c
	}
	return out
}()

// quickMove reads the canonical forms without folding (the common case).
func quickMove(text string) (Move, bool) {
	switch text {
	case "accept":
		return Move{Kind: Accept}, true
	case "pass":
		return Move{Kind: Pass}, true
	}
	if code, ok := strings.CutPrefix(text, "play "); ok {
		var c Card
		if c.UnmarshalText([]byte(code)) == nil && c.Valid() {
			return Move{Kind: Play, Card: c}, true
		}
		if c, ok := symbolCards[code]; ok {
			return Move{Kind: Play, Card: c}, true
		}
	}
	return Move{}, false
}

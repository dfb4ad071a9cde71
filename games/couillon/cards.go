package couillon

import (
	"fmt"
	"math/bits"
	"strings"
)

// Suit is one of the four suits, 1..4 in suit order (clubs lowest, spades
// highest); 0 means "no suit".
type Suit uint8

// The suits in suit order (CO-2, section 2).
const (
	NoSuit Suit = iota
	Clubs
	Diamonds
	Hearts
	Spades
)

// suitsInOrder are the four suits in suit order, by index 0..3 (the order of
// the codes "cdhs").
var suitsInOrder = [4]Suit{Clubs, Diamonds, Hearts, Spades}

// Code is the suit's one-letter code: c, d, h or s ("" for NoSuit).
func (u Suit) Code() string {
	if u < Clubs || u > Spades {
		return ""
	}
	return string("cdhs"[u-1])
}

// Symbol is the suit's symbol: ♣ ♦ ♥ ♠.
func (u Suit) Symbol() string {
	switch u {
	case Clubs:
		return "♣"
	case Diamonds:
		return "♦"
	case Hearts:
		return "♥"
	case Spades:
		return "♠"
	}
	return ""
}

// Name is the suit's English name in the plural (clubs, diamonds, hearts,
// spades), as the English notation reads it; a reader reads the catalog's
// "suit.<code>" in their language.
func (u Suit) Name() string {
	switch u {
	case Clubs:
		return "clubs"
	case Diamonds:
		return "diamonds"
	case Hearts:
		return "hearts"
	case Spades:
		return "spades"
	}
	return "no suit"
}

// String is the suit's symbol.
func (u Suit) String() string { return u.Symbol() }

// MarshalText writes the suit as its code ("h"); NoSuit is "".
func (u Suit) MarshalText() ([]byte, error) { return []byte(u.Code()), nil }

// UnmarshalText reads a suit code.
func (u *Suit) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "" {
		*u = NoSuit
		return nil
	}
	i := strings.Index("cdhs", s)
	if len(s) != 1 || i < 0 {
		return fmt.Errorf("suit: unknown code %q", s)
	}
	*u = suitsInOrder[i]
	return nil
}

// Rank is a card's rank by strength, 1 (nine, lowest) .. 6 (ace, highest).
type Rank uint8

// The ranks by strength (section 2).
const (
	Nine Rank = iota + 1
	Ten
	Jack
	Queen
	King
	Ace
)

// Code is the rank's notation code: 9, 10, j, q, k, a.
func (k Rank) Code() string {
	switch k {
	case Nine:
		return "9"
	case Ten:
		return "10"
	case Jack:
		return "j"
	case Queen:
		return "q"
	case King:
		return "k"
	case Ace:
		return "a"
	}
	return "?"
}

// Label is the rank as printed on a card: 9, 10, J, Q, K, A.
func (k Rank) Label() string { return strings.ToUpper(k.Code()) }

// Name is the rank's English name, as the English notation reads it ("king
// of hearts"); a reader reads the catalog's "rank.<code>".
func (k Rank) Name() string {
	switch k {
	case Nine:
		return "nine"
	case Ten:
		return "ten"
	case Jack:
		return "jack"
	case Queen:
		return "queen"
	case King:
		return "king"
	case Ace:
		return "ace"
	}
	return "?"
}

// Points are the rank's card points (CO-2): A 4, K 3, Q 2, J 1, 10 and 9 none.
func (k Rank) Points() int {
	switch k {
	case Ace:
		return 4
	case King:
		return 3
	case Queen:
		return 2
	case Jack:
		return 1
	}
	return 0
}

// Card is one of the 24 cards, 1..24 in canonical order (rank strength
// ascending, then suit order); 0 means "no card". So the lowest card is 1
// (9♣) and the highest 24 (A♠); comparing two cards compares their draw
// strength (CO-17).
type Card uint8

// NoCard is the zero Card.
const NoCard Card = 0

// NumCards is the size of the pack (CO-2).
const NumCards = 24

// NewCard returns the card of rank k (Nine … Ace) and suit u (Clubs …
// Spades); the arithmetic stays in the cards' 8 bits, where it fits (24 at
// most).
func NewCard(k Rank, u Suit) Card { return Card(k-1)*4 + Card(u) }

// Rank is the card's rank (0 if c is not one of the 24 cards).
func (c Card) Rank() Rank {
	if !c.Valid() {
		return 0
	}
	return Rank((c-1)/4 + 1)
}

// Suit is the card's suit (NoSuit if c is not one of the 24 cards).
func (c Card) Suit() Suit {
	if !c.Valid() {
		return NoSuit
	}
	return Suit((c-1)%4 + 1)
}

// Valid reports whether c is one of the 24 cards.
func (c Card) Valid() bool { return c >= 1 && c <= NumCards }

// Points are the card points of c (CO-2).
func (c Card) Points() int { return c.Rank().Points() }

// Code is the card in notation: rank code then suit code ("kh", "10d").
func (c Card) Code() string {
	if !c.Valid() {
		return ""
	}
	return cardCodes[c]
}

// cardCodes is the constant table of card codes by card (never modified).
var cardCodes = [NumCards + 1]string{"",
	"9c", "9d", "9h", "9s", "10c", "10d", "10h", "10s", "jc", "jd", "jh", "js",
	"qc", "qd", "qh", "qs", "kc", "kd", "kh", "ks", "ac", "ad", "ah", "as"}

// String is the card for people: "K♥", "10♦".
func (c Card) String() string {
	if !c.Valid() {
		return "?"
	}
	return c.Rank().Label() + c.Suit().Symbol()
}

// MarshalText writes the card as its code ("kh"); NoCard is "".
func (c Card) MarshalText() ([]byte, error) { return []byte(c.Code()), nil }

// UnmarshalText reads a card code.
func (c *Card) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = NoCard
		return nil
	}
	var k Rank
	switch string(b[:len(b)-1]) {
	case "9":
		k = Nine
	case "10":
		k = Ten
	case "j":
		k = Jack
	case "q":
		k = Queen
	case "k":
		k = King
	case "a":
		k = Ace
	default:
		return fmt.Errorf("card: unknown code %q", b)
	}
	i := strings.IndexByte("cdhs", b[len(b)-1])
	if i < 0 {
		return fmt.Errorf("card: unknown code %q", b)
	}
	*c = NewCard(k, suitsInOrder[i])
	return nil
}

// Pack returns the 24 cards in canonical order.
func Pack() []Card {
	out := make([]Card, 0, NumCards)
	for c := Card(1); c <= NumCards; c++ {
		out = append(out, c)
	}
	return out
}

// cardSet is a set of cards as a bit mask (bit c for card c).
type cardSet uint32

const fullSet cardSet = ((1 << (NumCards + 1)) - 1) &^ 1

func setOf(cards ...Card) cardSet {
	var s cardSet
	for _, c := range cards {
		s |= 1 << c
	}
	return s
}

func (s cardSet) has(c Card) bool     { return s&(1<<c) != 0 }
func (s cardSet) with(c Card) cardSet { return s | 1<<c }
func (s cardSet) without(c Card) cardSet {
	return s &^ (1 << c)
}
func (s cardSet) len() int { return bits.OnesCount32(uint32(s)) }

// cards lists the set in canonical order.
func (s cardSet) cards() []Card {
	out := make([]Card, 0, s.len())
	for c := Card(1); c <= NumCards; c++ {
		if s.has(c) {
			out = append(out, c)
		}
	}
	return out
}

// ofSuit is the subset of s in suit u.
func (s cardSet) ofSuit(u Suit) cardSet {
	var out cardSet
	for k := Nine; k <= Ace; k++ {
		c := NewCard(k, u)
		if s.has(c) {
			out |= 1 << c
		}
	}
	return out
}

// above is the subset of s that beats card c in c's suit (higher rank, same suit).
func (s cardSet) above(c Card) cardSet {
	var out cardSet
	for k := c.Rank() + 1; k <= Ace; k++ {
		d := NewCard(k, c.Suit())
		if s.has(d) {
			out |= 1 << d
		}
	}
	return out
}

// points is the card points in s.
func (s cardSet) points() int {
	n := 0
	for _, c := range s.cards() {
		n += c.Points()
	}
	return n
}

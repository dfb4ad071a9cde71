package coupage

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Describe implements games.Rules: what event e (which applies to s) did,
// in plain words, as seat may know it. It describes the seat's redacted
// event, so it never tells more than Redact shows: a card drawn, stolen or
// put face down is named only for the seats that may see it (section 5).
func (r Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	return games.Said(r.describeEN(s, e, seat))
}

// describeEN is Describe in English (until the game's catalog says it).
func (r Rules) describeEN(s *State, e Event, seat games.Seat) string {
	e = r.Redact(s, e, seat)
	t := teller{s: s, seat: seat}
	switch e.Type {
	case evSeated:
		return t.seated(e)
	case evShuffled:
		if e.Reason == "reshuffle" {
			return fmt.Sprintf("The discard pile was shuffled into a new deck of %s.", count(e.N, "card"))
		}
		return fmt.Sprintf("The deck of %s was shuffled.", count(e.N, "card"))
	case evDrew:
		return t.drew(e)
	case evMarket:
		return fmt.Sprintf("Market slot %d now shows %s.", e.Slot, t.card(e.Card))
	case evTook:
		out := fmt.Sprintf("%s took %s from market slot %d", t.who(e.Seat), t.card(e.Card), e.Slot)
		if e.Reason == "ability" {
			out += " (" + t.abilityWine(abTake) + " ability)"
		}
		return out + "."
	case evMade:
		return fmt.Sprintf("%s started a %s on %s with %s.", t.who(e.Seat), s.wineName(e.Wine), t.barrel(e.Seat, e.Seat, e.Barrel), t.cards(e.Cards))
	case evRepaired:
		return fmt.Sprintf("%s repaired %s with %s.", t.who(e.Seat), t.barrel(e.Seat, e.Seat, e.Barrel), t.cards(e.Cards))
	case evAged:
		return t.aged(e)
	case evBottled:
		return t.bottled(e)
	case evCleared:
		if len(e.Cards) == 0 {
			return ""
		}
		return fmt.Sprintf("The contents of %s went to the discard pile: %s.", t.barrel(-2, e.Seat, e.Barrel), t.cards(e.Cards))
	case evRecovered:
		what := "a face-down card"
		if e.Card != "" {
			what = t.card(e.Card)
		}
		if len(e.Cards) > 0 {
			what += " and " + t.cards(e.Cards)
		}
		return fmt.Sprintf("%s took %s back into %s hand from the bottled %s (%s ability).", t.who(e.Seat), what, t.whoseOwn(e.Seat), t.barrelWine(e.Seat, e.Barrel), t.abilityWine(abRecover))
	case evDeclined:
		return fmt.Sprintf("%s declined the %s ability.", t.who(e.Seat), t.abilityWine(e.Ability))
	case evAbility:
		return fmt.Sprintf("%s may now use the %s ability.", t.who(e.Seat), t.abilityWine(e.Ability))
	case evDiscarded:
		switch e.Reason {
		case "special":
			return "" // the special was announced when played (evPlayed)
		case "harvest":
			return fmt.Sprintf("The Récolte cards nobody could pick went to the discard pile: %s.", t.cards(e.Cards))
		}
		return fmt.Sprintf("%s discarded %s.", t.who(e.Seat), t.cards(e.Cards))
	case evPlayed:
		return fmt.Sprintf("%s played %s.", t.who(e.Seat), t.card(e.Card))
	case evSpoiled:
		return fmt.Sprintf("%s put a Vin piqué on %s.", t.who(e.Seat), t.barrel(e.Seat, e.Target, e.Barrel))
	case evSpoilMoved:
		return fmt.Sprintf("The Vin piqué on %s turned to %d.", t.barrel(-2, e.Target, e.Barrel), e.Counter)
	case evSpoilGone:
		if e.Reason == "oenologue" {
			return fmt.Sprintf("%s removed the Vin piqué from %s (Œnologue).", t.who(e.Seat), t.barrel(e.Seat, e.Target, e.Barrel))
		}
		return fmt.Sprintf("The Vin piqué on %s wore off and was discarded.", t.barrel(-2, e.Target, e.Barrel))
	case evStole:
		what := "a card"
		if e.Card != "" {
			what = t.card(e.Card)
		}
		return fmt.Sprintf("%s took %s at random from %s hand.", t.who(e.Seat), what, t.whose(e.Target))
	case evEvaporated:
		return fmt.Sprintf("%s evaporated %s from %s.", t.who(e.Seat), t.card(e.Card), t.barrel(e.Seat, e.Target, e.Barrel))
	case evTimeStolen:
		what := "a Time card"
		if e.FaceDown {
			what = "a face-down card counting as Time"
		}
		return fmt.Sprintf("%s moved %s from %s to %s.", t.who(e.Seat), what, t.barrel(e.Seat, e.Target, e.Barrel), t.barrel(-2, e.Seat, e.Own))
	case evRevealed:
		return fmt.Sprintf("The Récolte revealed %s.", t.cards(e.Cards))
	case evPicked:
		return fmt.Sprintf("%s picked %s from the Récolte.", t.who(e.Seat), t.card(e.Card))
	case evTurnEnded:
		return ""
	case evTurnStarted:
		if e.Extra {
			return fmt.Sprintf("%s took an extra turn (%s).", t.who(e.Seat), t.abilityWine(abExtra))
		}
		if e.Seat == seat {
			return "It is your turn."
		}
		return fmt.Sprintf("It is %s's turn.", s.name(e.Seat))
	case evResigned:
		out := fmt.Sprintf("%s left the game", t.who(e.Seat))
		if len(e.Cards) > 0 {
			out += fmt.Sprintf("; %s cards went to the discard pile: %s", t.whose(e.Seat), t.cards(e.Cards))
		}
		return out + "."
	case evGameOver:
		return t.gameOver(e)
	}
	return ""
}

// teller writes names, cards and barrels as one seat reads them.
type teller struct {
	s    *State
	seat games.Seat
}

// who is a player at the start of a sentence: "You" or the name.
func (t teller) who(p games.Seat) string {
	if p == t.seat {
		return "You"
	}
	return t.s.name(p)
}

// whose is a player's possessive: "your" or "Ana's".
func (t teller) whose(p games.Seat) string {
	if p == t.seat {
		return "your"
	}
	return t.s.name(p) + "'s"
}

// whoseOwn is the possessive of the sentence's subject: "your" for the
// seat itself, else "their" (names carry no grammatical gender).
func (t teller) whoseOwn(p games.Seat) string {
	if p == t.seat {
		return "your"
	}
	return "their"
}

// barrel is owner's barrel n as told in a sentence whose subject is actor:
// "your barrel 2", "barrel 2" (the subject's own) or "Ana's barrel 2".
// An actor of -2 is nobody.
func (t teller) barrel(actor, owner games.Seat, n int) string {
	switch owner {
	case t.seat:
		return "your barrel " + strconv.Itoa(n)
	case actor:
		return "barrel " + strconv.Itoa(n)
	}
	return t.s.name(owner) + "'s barrel " + strconv.Itoa(n)
}

// barrelWine is "Cava blanc of barrel 4" (the wine of owner's barrel).
func (t teller) barrelWine(owner games.Seat, n int) string {
	wine := "wine"
	if owner >= 0 && int(owner) < len(t.s.Barrels) && n >= 1 && n <= len(t.s.Barrels[owner]) {
		wine = t.s.wineName(t.s.Barrels[owner][n-1].Wine)
	}
	return wine + " of " + t.barrel(owner, owner, n)
}

// card is a card in words, by its name as the board shows it: a grape by
// its variety and stars ("Macabeu ★★"), a Time card, a special by its name.
func (t teller) card(c string) string {
	if c == timeCard {
		return "a Time card"
	}
	if a := t.s.aid; a != nil {
		return a.cardName(c)
	}
	return c
}

// cards lists cards in words: "Macabeu ★, 2 Time cards and Vin piqué" (the
// Time cards counted where the first one is).
func (t teller) cards(cs []string) string {
	words := make([]string, 0, len(cs))
	times := 0
	for _, c := range cs {
		if c == timeCard {
			times++
		}
	}
	for _, c := range cs {
		switch {
		case c != timeCard:
			words = append(words, t.card(c))
		case times == 1:
			words = append(words, t.card(c))
		case times > 1:
			words = append(words, strconv.Itoa(times)+" Time cards")
			times = 0
		}
	}
	return list(words)
}

// abilityWine is the name of the wine that has an ability ("Rosé").
func (t teller) abilityWine(ability string) string {
	if a := t.s.aid; a != nil {
		for _, w := range a.Wines {
			if w.Ability == ability {
				return w.Name
			}
		}
	}
	return ability
}

func (t teller) seated(e Event) string {
	names := make([]string, len(e.Players))
	for i, n := range e.Players {
		names[i] = n
		if games.Seat(i) == t.seat {
			names[i] += " (you)"
		}
	}
	out := fmt.Sprintf("The game began with %s, in this order of play", list(names))
	if e.Options["wine_abilities"] == "off" {
		out += "; wine abilities are off"
	}
	return out + "."
}

func (t teller) drew(e Event) string {
	who := t.who(e.Seat)
	if e.N == 0 {
		return who + " could not draw: the deck and the discard pile are empty."
	}
	what := count(e.N, "card")
	if e.Cards != nil {
		what = t.cards(e.Cards)
	}
	switch e.Reason {
	case "deal":
		if e.Seat == t.seat {
			return "You were dealt " + what + "."
		}
		return who + " was dealt " + what + "."
	case "turn":
		return who + " drew " + what + " from the deck."
	case "refill":
		return who + " drew " + what + " at the end of the turn."
	}
	return who + " drew " + what + "."
}

func (t teller) aged(e Event) string {
	who := t.who(e.Seat)
	where := t.barrel(e.Seat, e.Seat, e.Barrel)
	switch e.Reason {
	case "stars":
		what := "a grape card"
		if e.Card != "" {
			what = t.card(e.Card)
		}
		out := fmt.Sprintf("%s put %s face down under %s as Time", who, what, where)
		if len(e.Paid) > 0 {
			out += " and discarded " + t.cards(e.Paid)
		}
		return out + "."
	case "rouge":
		what := "a card from " + t.whoseOwn(e.Seat) + " hand"
		if e.Card != "" {
			what = t.card(e.Card)
		}
		return fmt.Sprintf("%s put %s face down under %s as Time (%s ability).", who, what, where, t.abilityWine(abAge))
	}
	return fmt.Sprintf("%s added a Time card to %s.", who, where)
}

func (t teller) bottled(e Event) string {
	out := fmt.Sprintf("%s bottled the %s of %s", t.who(e.Seat), t.s.wineName(e.Wine), t.barrel(e.Seat, e.Seat, e.Barrel))
	if len(e.Paid) > 0 {
		out += ", paying " + t.cards(e.Paid)
	} else if !e.Action {
		out += " without paying stars (Vin jeune)"
	}
	if e.Cava {
		out += ", and took a Cava card for it"
	}
	out += "."
	if e.Extra {
		out += fmt.Sprintf(" %s will play an extra turn (%s).", t.who(e.Seat), t.abilityWine(abExtra))
	}
	return out
}

func (t teller) gameOver(e Event) string {
	if len(e.Winners) == 0 {
		switch e.Reason {
		case "deadlock":
			return "The game is over without a winner: no wine or cava can be finished any more."
		case "idle":
			return fmt.Sprintf("The game is over without a winner: no barrel was made, repaired or bottled in %d rounds.", idleRounds)
		}
		return "The game is over."
	}
	names := make([]string, len(e.Winners))
	won := false
	for i, w := range e.Winners {
		names[i] = t.s.name(w)
		if w == t.seat {
			names[i], won = "you", true
		}
	}
	verb := "wins"
	if won || len(names) > 1 {
		verb = "win"
	}
	how := "with 2 wines and 1 cava bottled"
	left := 0
	for _, r := range t.s.Resigned {
		if r {
			left++
		}
	}
	if left == len(t.s.Players)-1 {
		how = "as every other player left the game"
	}
	return fmt.Sprintf("The game is over: %s %s %s.", list(names), verb, how)
}

// list joins words as "a, b and c".
func list(words []string) string {
	switch len(words) {
	case 0:
		return "nothing"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// count is "a card" or "3 cards".
func count(n int, noun string) string {
	if n == 1 {
		return "a " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

package coup

import (
	"fmt"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Describe says in one or two sentences what event e (which applies to s,
// the state before it) did, as seat may know it. It describes seat's
// redacted copy of e and reads only what seat sees of s (public data, and
// seat's own cards while it is in the game), so it never tells more than
// Redact shows: a hidden card is named only to its owner, or to the player
// the rules show it to (Selective Coup's miss, Examine).
func (g Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	return games.Said(g.describeEN(s, e, seat))
}

// describeEN is Describe in English (until the game's catalog says it).
func (g Rules) describeEN(s *State, e Event, seat games.Seat) string {
	e = g.Redact(s, e, seat)
	t := teller{s: s, me: int(seat)}
	if e.Type == evSetup {
		t.names = e.Players
	}
	if !s.inGame(e, t.me) {
		t.own = -1 // out or spectator: no private knowledge of s
	} else {
		t.own = t.me
	}
	switch e.Type {
	case evSetup:
		return t.setup(e)
	case evKept:
		if e.Char != NoChar {
			return t.say("%s and set the other four cards of your set aside.", t.do(e.Seat, "keep")+" "+the(e.Char))
		}
		return t.say("%s one card of their set and sets the other four aside.", t.do(e.Seat, "keep"))
	case evDealt:
		out := "Each player is dealt one card from the Court."
		if t.me >= 0 && t.me < len(e.Hands) && len(e.Hands[t.me]) > 0 {
			out += " You are dealt " + cardList(e.Hands[t.me]) + "."
		}
		return out
	case evFactionChose:
		if e.Seat == t.own {
			return "You put your faction card " + upDown(e.On) + "."
		}
		return t.say("%s a faction.", t.do(e.Seat, "choose"))
	case evFactions:
		return t.factions(e)
	case evAutoAllow:
		w := e.Window + " windows"
		if e.Window == "all" {
			w = "every window"
		}
		return t.say("%s auto-allow %s for %s.", t.do(e.Seat, "turn"), onOff(e.On), w)
	case evAction:
		return t.action(e)
	case evAllow:
		if e.Auto {
			return t.say("%s (auto-allow).", t.do(e.Seat, "allow"))
		}
		return t.say("%s.", t.do(e.Seat, "allow"))
	case evChallenge:
		c := &s.Ctx
		if e.Window == W3.String() {
			return t.say("%s %s block with %s.", t.do(e.Seat, "challenge"), t.poss(c.Blocker), the(c.Block))
		}
		return t.say("%s %s claim of %s.", t.do(e.Seat, "challenge"), t.poss(c.Actor), the(s.claimOf(c.Action)))
	case evBlock:
		return t.say("%s %s to block %s %s.", t.do(e.Seat, "claim"), the(e.Char), t.poss(s.Ctx.Actor), actNoun(s.Ctx.Action))
	case evRevealed:
		return t.revealed(e)
	case evLost:
		out := t.say("%s an influence and %s face up.", t.do(e.Seat, "lose"), t.verb(e.Seat, "turn")+" "+the(e.Char))
		if t.last(e.Seat) {
			out += " " + t.say("%s out.", t.do(e.Seat, "be"))
		}
		return out
	case evReplaced:
		if e.Drew != NoChar {
			return t.say("%s %s into the Court and draw %s.", t.do(e.Seat, "shuffle"), the(e.Char), the(e.Drew))
		}
		return t.say("%s %s into the Court and %s a replacement.", t.do(e.Seat, "shuffle"), the(e.Char), t.verb(e.Seat, "draw"))
	case evResolved:
		return t.resolved(e)
	case evExchDrawn:
		if e.Cards != nil {
			return t.say("%s %s from the Court.", t.do(e.Seat, "draw"), cardList(e.Cards))
		}
		return t.say("%s %s from the Court.", t.do(e.Seat, "draw"), count(e.N, "card"))
	case evExchanged:
		return t.exchanged(e)
	case evCoupShown:
		miss := t.say("%s no %s and %s nothing", t.do(e.Seat, "have"), s.Ctx.Named.Title(), t.verb(e.Seat, "lose"))
		if e.Cards != nil {
			return t.say("%s: %s %s to %s.", miss, t.who(e.Seat), t.verb(e.Seat, "show")+" "+cardList(e.Cards), t.who(e.Viewer))
		}
		return t.say("%s: %s their cards to %s.", miss, t.do(e.Seat, "show"), t.who(e.Viewer))
	case evShown:
		if e.Char != NoChar {
			return t.say("%s %s to %s.", t.do(e.Seat, "show"), the(e.Char), t.who(e.Viewer))
		}
		return t.say("%s a card to %s.", t.do(e.Seat, "show"), t.who(e.Viewer))
	case evReturned:
		return t.say("%s %s card.", t.do(e.Seat, "return"), t.poss(e.Target))
	case evChanged:
		card := "the card shown"
		if e.Char != NoChar {
			card = the(e.Char)
		}
		first := t.say("%s %s change %s", t.do(e.Viewer, "have"), t.who(e.Seat), card)
		if e.Drew != NoChar {
			return t.say("%s: %s it into the Court and %s %s.", first, t.do(e.Seat, "shuffle"), t.verb(e.Seat, "draw"), the(e.Drew))
		}
		return t.say("%s: %s it into the Court and %s a new card.", first, t.do(e.Seat, "shuffle"), t.verb(e.Seat, "draw"))
	case evResigned:
		if len(e.Cards) == 0 {
			return t.say("%s and %s out.", t.do(e.Seat, "resign"), t.verb(e.Seat, "be"))
		}
		return t.say("%s and %s out: %s face up.", t.do(e.Seat, "resign"), t.verb(e.Seat, "be"), cardList(e.Cards)+" "+are(len(e.Cards))+" turned")
	case evEnded:
		if e.Seat < 0 || e.Seat >= len(s.Players) {
			return "The game is over, with no winner; every card is shown."
		}
		return t.say("The game is over: %s, and every card is shown.", t.do(e.Seat, "win"))
	}
	return ""
}

// teller words sentences for one reader: "you" for the reader's own seat,
// names for the others.
type teller struct {
	s     *State
	me    int      // the reader's seat (Spectator: nobody's)
	own   int      // the seat whose private cards the reader knows (-1: none)
	names []string // player names when s has none yet (the setup event)
}

func (t teller) name(i int) string {
	if t.names != nil && i >= 0 && i < len(t.names) {
		return t.names[i]
	}
	return t.s.name(i)
}

// who is player i as a subject or an object: "you" or a name (say
// capitalizes a leading "you").
func (t teller) who(i int) string {
	if i == t.me {
		return "you"
	}
	return t.name(i)
}

// poss is i's possessive: "your" or "Ana's".
func (t teller) poss(i int) string {
	if i == t.me {
		return "your"
	}
	return t.name(i) + "'s"
}

// verb conjugates a verb for subject i: "take" for "you", "takes" for a name.
func (t teller) verb(i int, base string) string {
	if i == t.me {
		if base == "be" {
			return "are"
		}
		return base
	}
	switch {
	case base == "be":
		return "is"
	case base == "have":
		return "has"
	case strings.HasSuffix(base, "s"), strings.HasSuffix(base, "sh"), strings.HasSuffix(base, "ch"):
		return base + "es"
	}
	return base + "s"
}

// do is subject and verb: "you take", "Ana takes".
func (t teller) do(i int, base string) string { return t.who(i) + " " + t.verb(i, base) }

// say formats a sentence and capitalizes a leading "you"/"your".
func (t teller) say(format string, args ...any) string {
	out := fmt.Sprintf(format, args...)
	if strings.HasPrefix(out, "you") {
		out = "Y" + out[1:]
	}
	return out
}

// last reports whether seat is losing its last unrevealed card (a public count).
func (t teller) last(seat int) bool {
	return seat >= 0 && seat < len(t.s.Players) && len(t.s.Players[seat].Hidden) == 1
}

func (t teller) setup(e Event) string {
	names := make([]string, len(e.Players))
	for i := range e.Players {
		names[i] = t.who(i)
	}
	var out string
	if len(e.Players) == 2 && len(e.Coins) == 2 && parseOptions(e.Options).TwoPlayerOfficial {
		out = t.say("%s sit down in this order; %s with %s and %s with %s, and each keeps one card of a set of five.",
			join(names), t.do(0, "start"), count(e.Coins[0], "coin"), t.who(1), count(e.Coins[1], "coin"))
	} else {
		coins := 2
		if len(e.Coins) > 0 {
			coins = e.Coins[0]
		}
		out = t.say("%s sit down in this order with %s each, and %s.", join(names), count(coins, "coin"), t.do(0, "start"))
	}
	if t.me >= 0 && t.me < len(e.Hands) && len(e.Hands[t.me]) > 0 {
		out += " You are dealt " + cardList(e.Hands[t.me]) + "."
	}
	return out
}

func (t teller) factions(e Event) string {
	var up, down []string
	for i, u := range e.Factions {
		if !t.s.alive(i) {
			continue
		}
		if u {
			up = append(up, t.who(i))
		} else {
			down = append(down, t.who(i))
		}
	}
	var parts []string
	if len(up) > 0 {
		parts = append(parts, join(up)+" face up")
	}
	if len(down) > 0 {
		parts = append(parts, join(down)+" face down")
	}
	return "The factions are revealed: " + strings.Join(parts, ", ") + "."
}

func (t teller) action(e Event) string {
	a := actFromID(e.Action)
	claim := t.s.claimOf(a)
	switch a {
	case Income:
		return t.say("%s income.", t.do(e.Seat, "take"))
	case ForeignAid:
		return t.say("%s for foreign aid.", t.do(e.Seat, "ask"))
	case CoupAct:
		if e.Char != NoChar {
			return t.say("%s 7 coins to coup %s, naming %s.", t.do(e.Seat, "pay"), t.who(e.Target), the(e.Char))
		}
		return t.say("%s 7 coins to coup %s.", t.do(e.Seat, "pay"), t.who(e.Target))
	case Tax:
		return t.say("%s %s to take tax.", t.do(e.Seat, "claim"), the(claim))
	case Assassinate:
		return t.say("%s %s and %s 3 coins to assassinate %s.", t.do(e.Seat, "claim"), the(claim), t.verb(e.Seat, "pay"), t.who(e.Target))
	case Steal:
		return t.say("%s %s to steal from %s.", t.do(e.Seat, "claim"), the(claim), t.who(e.Target))
	case Exchange:
		return t.say("%s %s to exchange cards with the Court.", t.do(e.Seat, "claim"), the(claim))
	case Examine:
		return t.say("%s %s to examine %s.", t.do(e.Seat, "claim"), the(claim), t.who(e.Target))
	case Defect:
		return t.say("%s 1 coin to defect.", t.do(e.Seat, "pay"))
	}
	return ""
}

func (t teller) revealed(e Event) string {
	c := &t.s.Ctx
	if e.Proven {
		return t.say("%s %s: the claim is proven, and %s must lose an influence.", t.do(e.Seat, "reveal"), the(e.Char), t.who(c.Challenger))
	}
	what := "the block fails"
	if c.Phase == 1 {
		what = t.poss(c.Actor) + " " + actNoun(c.Action) + " does not happen"
	}
	out := t.say("%s %s, not %s, and %s it; %s.", t.do(e.Seat, "reveal"), the(e.Char), the(c.Claim), t.verb(e.Seat, "lose"), what)
	if t.last(e.Seat) {
		out = strings.TrimSuffix(out, ".") + t.say(", and %s out.", t.who(e.Seat)+" "+t.verb(e.Seat, "be"))
	}
	if e.N > 0 {
		out += " " + t.say("%s %s back.", t.do(e.Seat, "get"), count(e.N, "coin"))
	}
	return out
}

func (t teller) resolved(e Event) string {
	c := &t.s.Ctx
	a := actFromID(e.Action)
	if a.targeted() && !t.s.alive(c.Target) {
		return t.say("%s %s has no effect: %s out.", t.poss(e.Seat), actNoun(a), t.do(c.Target, "be"))
	}
	switch a {
	case Income:
		return t.say("%s 1 coin.", t.do(e.Seat, "take"))
	case ForeignAid:
		return t.say("%s 2 coins of foreign aid.", t.do(e.Seat, "take"))
	case Tax:
		return t.say("%s 3 coins of tax.", t.do(e.Seat, "take"))
	case Steal:
		if e.N == 0 {
			return t.say("%s nothing from %s, who %s no coins.", t.do(e.Seat, "take"), t.who(c.Target), t.verb(c.Target, "have"))
		}
		return t.say("%s %s from %s.", t.do(e.Seat, "take"), count(e.N, "coin"), t.who(c.Target))
	case Defect:
		return t.say("%s faction card is now %s.", t.poss(e.Seat), upDown(!t.s.Players[e.Seat].FactionUp))
	case CoupAct:
		return t.say("%s coup against %s goes ahead.", t.poss(e.Seat), t.who(c.Target))
	case Assassinate, Examine:
		return t.say("%s %s of %s goes ahead.", t.poss(e.Seat), actNoun(a), t.who(c.Target))
	case Exchange:
		return t.say("%s exchange goes ahead.", t.poss(e.Seat))
	}
	return ""
}

func (t teller) exchanged(e Event) string {
	if e.Cards == nil || e.Seat != t.own {
		kept := len(t.s.Players[e.Seat].Hidden)
		return t.say("%s %s and %s %s to the Court.", t.do(e.Seat, "keep"), count(kept, "card"), t.verb(e.Seat, "return"), count(e.N, "card"))
	}
	pool := append(append([]Char(nil), t.s.Players[e.Seat].Hidden...), t.s.Ctx.Drawn...)
	for _, k := range e.Cards {
		pool = removeOne(pool, k)
	}
	return t.say("%s %s and %s %s to the Court.", t.do(e.Seat, "keep"), cardList(e.Cards), t.verb(e.Seat, "return"), cardList(pool))
}

// actNoun names an action after a possessive: "Ana's steal".
func actNoun(a Act) string {
	switch a {
	case ForeignAid:
		return "foreign aid"
	case CoupAct:
		return "coup"
	case Assassinate:
		return "assassination"
	case Examine:
		return "examination"
	case NoAct:
		return "action"
	}
	return a.String()
}

// the is a character with its article: "the Duke".
func the(c Char) string { return "the " + c.Title() }

// cardList writes cards in canonical order: "the Duke and the Captain",
// "two Dukes".
func cardList(cs []Char) string {
	var n [nChars]int
	for _, c := range cs {
		if c > NoChar && c < nChars {
			n[c]++
		}
	}
	var words []string
	for c := Duke; c < nChars; c++ {
		switch n[c] {
		case 0:
		case 1:
			words = append(words, the(c))
		case 2:
			words = append(words, "two "+c.Title()+"s")
		default:
			words = append(words, fmt.Sprintf("%d %ss", n[c], c.Title()))
		}
	}
	return join(words)
}

// join writes a list: "a", "a and b", "a, b and c".
func join(words []string) string {
	switch len(words) {
	case 0:
		return "nobody"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// count writes "1 coin", "2 coins".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func are(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func upDown(up bool) string {
	if up {
		return "face up"
	}
	return "face down"
}

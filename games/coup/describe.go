package coup

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Describe says in one or two sentences of the catalog ("said.*") what
// event e (which applies to s, the state before it) did, as seat may know
// it. It describes seat's redacted copy of e and reads only what seat sees
// of s (public data, and seat's own cards while it is in the game), so it
// never tells more than Redact shows, in any language: a hidden card is
// named only to its owner, or to the player the rules show it to (Selective
// Coup's miss, Examine).
func (g Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	t := g.tell(s, e, seat)
	if t.IsZero() {
		return games.Phrase{}
	}
	return words.Phrase(t.Key, t.Args...)
}

// tell is Describe's text.
func (g Rules) tell(s *State, e Event, seat games.Seat) games.Text {
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
		if e.Char != NoChar && t.is(e.Seat) {
			return games.T("said.kept.you", theChar(e.Char))
		}
		return games.T("said.kept", t.name(e.Seat))
	case evDealt:
		if hand := t.hand(e); len(hand) > 0 {
			return games.T("said.then", games.T("said.dealt"), games.T("said.dealt_you", cardList(hand)))
		}
		return games.T("said.dealt")
	case evFactionChose:
		if e.Seat == t.own {
			return games.T("said.faction_side.you", face(e.On))
		}
		return t.by("said.faction_chosen", e.Seat)
	case evFactions:
		return t.factions(e)
	case evAutoAllow:
		return t.by("said.auto_allow."+onOff(e.On), e.Seat, games.T("auto_allow.windows."+e.Window))
	case evAction:
		return t.action(e)
	case evAllow:
		if e.Auto {
			return t.by("said.allow_auto", e.Seat)
		}
		return t.by("said.allow", e.Seat)
	case evChallenge:
		c := &s.Ctx
		if e.Window == W3.String() {
			return t.to("said.challenge_block", e.Seat, c.Blocker, theChar(c.Block))
		}
		return t.to("said.challenge", e.Seat, c.Actor, theChar(s.claimOf(c.Action)))
	case evBlock:
		return t.by("said.block", e.Seat, theChar(e.Char), t.poss(s.Ctx.Actor, s.Ctx.Action))
	case evRevealed:
		return t.revealed(e)
	case evLost:
		lost := t.by("said.lost", e.Seat, theChar(e.Char))
		if t.last(e.Seat) {
			return games.T("said.then", lost, t.by("said.out", e.Seat))
		}
		return lost
	case evReplaced:
		if e.Drew != NoChar {
			return t.by("said.replaced_drew", e.Seat, theChar(e.Char), theChar(e.Drew))
		}
		return t.by("said.replaced", e.Seat, theChar(e.Char))
	case evResolved:
		return t.resolved(e)
	case evExchDrawn:
		if e.Cards != nil {
			return t.by("said.draw", e.Seat, cardList(e.Cards))
		}
		return t.by("said.draw", e.Seat, games.T("cards", e.N))
	case evExchanged:
		return t.exchanged(e)
	case evCoupShown:
		none := games.T("card.none." + s.Ctx.Named.String())
		if e.Cards != nil {
			return t.to("said.coup_shown_cards", e.Seat, e.Viewer, none, cardList(e.Cards))
		}
		return t.to("said.coup_shown", e.Seat, e.Viewer, none)
	case evShown:
		if e.Char != NoChar {
			return t.to("said.shown_card", e.Seat, e.Viewer, theChar(e.Char))
		}
		return t.to("said.shown", e.Seat, e.Viewer)
	case evReturned:
		return t.to("said.returned", e.Seat, e.Target)
	case evChanged:
		card := games.T("card.shown")
		if e.Char != NoChar {
			card = theChar(e.Char)
		}
		if e.Drew != NoChar {
			return t.to("said.changed_drew", e.Viewer, e.Seat, card, theChar(e.Drew))
		}
		return t.to("said.changed", e.Viewer, e.Seat, card)
	case evResigned:
		switch len(e.Cards) {
		case 0:
			return t.by("said.resigned", e.Seat)
		case 1:
			return t.by("said.resigned_card", e.Seat, cardList(e.Cards))
		}
		return t.by("said.resigned_cards", e.Seat, cardList(e.Cards))
	case evEnded:
		if e.Seat < 0 || e.Seat >= len(s.Players) {
			return games.T("said.ended_no_winner")
		}
		return t.by("said.ended", e.Seat)
	}
	return games.Text{}
}

// teller words sentences for one reader: a sentence about the reader is
// the catalog's ".you" form of its key (or ".to_you" when the reader is
// the one it is done to), names for the others.
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

// is reports whether seat i is the reader.
func (t teller) is(i int) bool { return i >= 0 && i == t.me }

// by is key's text about subject, with args after the subject's name; its
// ".you" form, without the name, when the subject is the reader.
func (t teller) by(key string, subject int, args ...any) games.Text {
	if t.is(subject) {
		return games.T(key+".you", args...)
	}
	return games.T(key, append([]any{t.name(subject)}, args...)...)
}

// to is key's text about subject acting on object: the subject's and the
// object's names, then args. Its ".you" form, said to the subject, places
// the object's name then args; its ".to_you" form, said to the object, the
// subject's name then args.
func (t teller) to(key string, subject, object int, args ...any) games.Text {
	switch {
	case t.is(subject):
		return games.T(key+".you", append([]any{t.name(object)}, args...)...)
	case t.is(object):
		return games.T(key+".to_you", append([]any{t.name(subject)}, args...)...)
	}
	return games.T(key, append([]any{t.name(subject), t.name(object)}, args...)...)
}

// poss is seat's action a after a verb: "Ana's steal", "your steal".
func (t teller) poss(seat int, a Act) games.Text {
	key := "poss.none"
	if a.String() != "" {
		key = "poss." + a.String()
	}
	if t.is(seat) {
		return games.T(key + ".you")
	}
	return games.T(key, t.name(seat))
}

// hand is the reader's cards dealt by a setup or deal event (redacted:
// only the reader's own are left).
func (t teller) hand(e Event) []Char {
	if t.me >= 0 && t.me < len(e.Hands) {
		return e.Hands[t.me]
	}
	return nil
}

// last reports whether seat is losing its last unrevealed card (a public count).
func (t teller) last(seat int) bool {
	return seat >= 0 && seat < len(t.s.Players) && len(t.s.Players[seat].Hidden) == 1
}

func (t teller) setup(e Event) games.Text {
	seated := make([]any, len(e.Players))
	for i := range e.Players {
		switch {
		case t.is(i) && i == 0:
			seated[i] = games.T("you.first")
		case t.is(i):
			seated[i] = games.T("you.listed")
		default:
			seated[i] = t.name(i)
		}
	}
	list := games.List(seated...)
	var out games.Text
	if len(e.Players) == 2 && len(e.Coins) == 2 && parseOptions(e.Options).TwoPlayerOfficial {
		first, second := games.T("coins", e.Coins[0]), games.T("coins", e.Coins[1])
		switch {
		case t.is(0):
			out = games.T("said.setup2.you_start", list, first, t.name(1), second)
		case t.is(1):
			out = games.T("said.setup2.you_second", list, t.name(0), first, second)
		default:
			out = games.T("said.setup2", list, t.name(0), first, t.name(1), second)
		}
	} else {
		coins := 2
		if len(e.Coins) > 0 {
			coins = e.Coins[0]
		}
		each := games.T("coins", coins)
		switch {
		case t.is(0):
			out = games.T("said.setup.you_start", list, each)
		case t.me > 0 && t.me < len(e.Players):
			out = games.T("said.setup.you", list, each, t.name(0))
		default:
			out = games.T("said.setup", list, each, t.name(0))
		}
	}
	if hand := t.hand(e); len(hand) > 0 {
		out = games.T("said.then", out, games.T("said.dealt_you", cardList(hand)))
	}
	return out
}

func (t teller) factions(e Event) games.Text {
	var up, down []any
	for i, u := range e.Factions {
		if !t.s.alive(i) {
			continue
		}
		var who any = t.name(i)
		if t.is(i) {
			who = games.T("you.listed")
		}
		if u {
			up = append(up, who)
		} else {
			down = append(down, who)
		}
	}
	var sides []games.Text
	if len(up) > 0 {
		sides = append(sides, games.T("said.factions.side", games.List(up...), face(true)))
	}
	if len(down) > 0 {
		sides = append(sides, games.T("said.factions.side", games.List(down...), face(false)))
	}
	switch len(sides) {
	case 0:
		return games.T("said.factions", games.T("board.nothing"))
	case 1:
		return games.T("said.factions", sides[0])
	}
	return games.T("said.factions", games.T("board.comma", sides[0], sides[1]))
}

func (t teller) action(e Event) games.Text {
	a := actFromID(e.Action)
	claim := func() games.Text { return theChar(t.s.claimOf(a)) }
	switch a {
	case Income:
		return t.by("said.income", e.Seat)
	case ForeignAid:
		return t.by("said.aid", e.Seat)
	case CoupAct:
		if e.Char != NoChar {
			return t.to("said.coup_named", e.Seat, e.Target, theChar(e.Char))
		}
		return t.to("said.coup", e.Seat, e.Target)
	case Tax:
		return t.by("said.tax", e.Seat, claim())
	case Assassinate:
		return t.to("said.assassinate", e.Seat, e.Target, claim())
	case Steal:
		return t.to("said.steal", e.Seat, e.Target, claim())
	case Exchange:
		return t.by("said.exchange", e.Seat, claim())
	case Examine:
		return t.to("said.examine", e.Seat, e.Target, claim())
	case Defect:
		return t.by("said.defect", e.Seat)
	}
	return games.Text{}
}

func (t teller) revealed(e Event) games.Text {
	c := &t.s.Ctx
	if e.Proven {
		return t.to("said.proven", e.Seat, c.Challenger, theChar(e.Char))
	}
	what := games.T("said.block_fails")
	if c.Phase == 1 {
		what = games.T("said.fails", t.poss(c.Actor, c.Action))
	}
	key := "said.failed"
	if t.last(e.Seat) {
		key = "said.failed_out"
	}
	out := t.by(key, e.Seat, theChar(e.Char), theChar(c.Claim), what)
	if e.N > 0 {
		out = games.T("said.then", out, t.by("said.refund", e.Seat, games.T("coins", e.N)))
	}
	return out
}

func (t teller) resolved(e Event) games.Text {
	c := &t.s.Ctx
	a := actFromID(e.Action)
	if a.targeted() && !t.s.alive(c.Target) {
		return t.to("said.no_effect."+a.String(), e.Seat, c.Target)
	}
	switch a {
	case Income:
		return t.by("said.took", e.Seat, games.T("coins", e.N))
	case ForeignAid:
		return t.by("said.took_aid", e.Seat)
	case Tax:
		return t.by("said.took_tax", e.Seat)
	case Steal:
		if e.N == 0 {
			return t.to("said.stole_nothing", e.Seat, c.Target)
		}
		return t.to("said.stole", e.Seat, c.Target, games.T("coins", e.N))
	case Defect:
		return t.by("said.defected", e.Seat, face(!t.s.Players[e.Seat].FactionUp))
	case CoupAct, Assassinate, Examine:
		return t.to("said.goes_ahead."+a.String(), e.Seat, c.Target)
	case Exchange:
		return t.by("said.goes_ahead.exchange", e.Seat)
	}
	return games.Text{}
}

func (t teller) exchanged(e Event) games.Text {
	if e.Cards == nil || e.Seat != t.own {
		kept := len(t.s.Players[e.Seat].Hidden)
		return t.by("said.exchanged", e.Seat, games.T("cards", kept), games.T("cards", e.N))
	}
	pool := append(slices.Clone(t.s.Players[e.Seat].Hidden), t.s.Ctx.Drawn...)
	for _, k := range e.Cards {
		pool = removeOne(pool, k)
	}
	return t.by("said.exchanged", e.Seat, cardList(e.Cards), cardList(pool))
}

// cardList writes cards in canonical order: "the Duke and the Captain",
// "two Dukes".
func cardList(cs []Char) games.Text {
	var n [nChars]int
	for _, c := range cs {
		if c > NoChar && c < nChars {
			n[c]++
		}
	}
	var items []any
	for c := Duke; c < nChars; c++ {
		plural := games.T("card.plural." + c.String())
		switch n[c] {
		case 0:
		case 1:
			items = append(items, theChar(c))
		case 2:
			items = append(items, games.T("cards.two", plural))
		default:
			items = append(items, games.T("cards.many", n[c], plural))
		}
	}
	return games.List(items...)
}

// face is a card's side: "face up", "face down".
func face(up bool) games.Text {
	if up {
		return games.T("face.up")
	}
	return games.T("face.down")
}

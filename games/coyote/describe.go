package coyote

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Describe says in plain words what event e (which applies to s) did, as
// seat may know it. It describes seat's redacted copy of the event, so it
// never tells more than Redact shows: a seat is never told its own feather
// before the round is settled, a spectator or an eliminated player no worn
// feather (section 5).
func (r Rules) Describe(s State, e Event, seat games.Seat) games.Phrase {
	return games.Said(r.describeEN(s, e, seat))
}

// describeEN is Describe in English (until the game's catalog says it).
func (r Rules) describeEN(s State, e Event, seat games.Seat) string {
	e = r.Redact(s, e, seat)
	d := describer{s: s, seat: seat}
	switch {
	case e.Setup != nil:
		return d.setup(e.Setup)
	case e.Shuffle != nil:
		return d.shuffle(e.Shuffle)
	case e.Deal != nil:
		return d.deal(e.Deal)
	case e.Bid != nil:
		return fmt.Sprintf("%s bid %d.", d.name(e.Bid.Seat, true), e.Bid.Bid)
	case e.Flip != nil:
		return d.flip(e.Flip)
	case e.Call != nil:
		return fmt.Sprintf("%s called \"Coyote!\" against %s bid of %d.", d.name(e.Call.Seat, true), d.poss(e.Call.Against), e.Call.Bid)
	case e.Turn != nil:
		return fmt.Sprintf("The ? feather turned the %s over from the pile; it is counted too.", shown(e.Turn.Feather.Face))
	case e.Count != nil:
		return d.count(e.Count)
	case e.Coyote != nil:
		return d.coyote(e.Coyote)
	case e.RoundEnd != nil:
		return d.roundEnd(e.RoundEnd)
	case e.Resign != nil:
		return fmt.Sprintf("%s resigned and %s out of the game.", d.name(e.Resign.Seat, true), d.be(e.Resign.Seat))
	case e.GameOver != nil:
		return fmt.Sprintf("%s won the game.", d.name(e.GameOver.Winner, true))
	}
	return ""
}

// describer writes the names of one seat's descriptions: "You"/"you" for
// the seat itself, the player's name for the others.
type describer struct {
	s    State
	seat games.Seat
}

func (d describer) name(p games.Seat, capital bool) string {
	switch {
	case p == d.seat && capital:
		return "You"
	case p == d.seat:
		return "you"
	case d.s.valid(p):
		return d.s.Players[p]
	}
	return "seat " + strconv.Itoa(int(p))
}

// poss is the possessive inside a sentence: "your", "Bob's".
func (d describer) poss(p games.Seat) string {
	if p == d.seat {
		return "your"
	}
	return d.name(p, false) + "'s"
}

// be is "are" for the seat itself, "is" for another player.
func (d describer) be(p games.Seat) string {
	if p == d.seat {
		return "are"
	}
	return "is"
}

// list joins items as "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func (d describer) setup(e *SetupEvent) string {
	var names []string
	for p := range e.Players {
		n := e.Players[p]
		if games.Seat(p) == d.seat {
			n += " (you)"
		}
		names = append(names, n)
	}
	tokens := "off"
	if e.Variant {
		tokens = "on"
	}
	return fmt.Sprintf("The game begins with %s, in seat order. Deck %s, %d coyote tokens eliminate, variant tokens %s.",
		list(names), e.Deck, e.Elimination, tokens)
}

func (d describer) shuffle(e *ShuffleEvent) string {
	switch e.Reason {
	case "short":
		return fmt.Sprintf("The pile was too short for the deal: the pile and the discard were shuffled into a new pile of %d feathers.", e.Size)
	case "night":
		return fmt.Sprintf("Night was among the round's feathers: all %d feathers were shuffled into a new pile.", e.Size)
	case "empty":
		return fmt.Sprintf("The pile was empty: the discard was shuffled into a new pile of %d feathers.", e.Size)
	}
	return fmt.Sprintf("The %d feathers were shuffled face down into the pile.", e.Size)
}

// deal tells who starts and the feathers seat sees (its redacted copy has
// no feather of its own, and none at all for a seat not dealt in).
func (d describer) deal(e *DealEvent) string {
	verb := "bids"
	if e.First == d.seat {
		verb = "bid"
	}
	head := fmt.Sprintf("Round %d began; %s %s first.", e.Round, d.name(e.First, false), verb)
	var seen []string
	dealtIn := false
	for _, w := range e.Worn {
		if w.Seat == d.seat && seesTable(d.s, d.seat) {
			dealtIn = true
		}
		if w.Feather != nil {
			seen = append(seen, d.poss(w.Seat)+" "+shown(w.Feather.Face))
		}
	}
	switch {
	case dealtIn && len(seen) > 0:
		return head + " You see " + list(seen) + "; your own feather is hidden from you."
	case dealtIn:
		return head + " Your own feather is hidden from you."
	}
	return head + " Each player wears a feather hidden from you."
}

func (d describer) flip(e *FlipEvent) string {
	who := d.name(e.Seat, true)
	switch e.Token {
	case TokenReveal:
		if e.Feather == nil {
			return who + " flipped reveal, but there was no feather to turn."
		}
		return fmt.Sprintf("%s flipped reveal and turned the %s face up from the pile; it is counted.", who, shown(e.Feather.Face))
	case TokenReverse:
		way := "counter-clockwise"
		if d.s.Dir < 0 {
			way = "clockwise"
		}
		return fmt.Sprintf("%s flipped reverse: play goes %s for the rest of the round.", who, way)
	case TokenSkip:
		return who + " flipped skip and passed the turn without bidding."
	case TokenReplace:
		// The feather left behind is named only to the seats that see the
		// new one (the other living players), who saw the old one too.
		old := d.poss(e.Seat)
		if e.Seat == d.seat {
			old = "yours"
		}
		if e.Feather != nil && d.s.valid(e.Seat) && d.s.Worn[e.Seat] >= 0 {
			return fmt.Sprintf("%s flipped replace: the %s from the pile now stands in front of %s %s, which no longer counts.",
				who, shown(e.Feather.Face), old, shown(d.s.feather(d.s.Worn[e.Seat]).Face))
		}
		return fmt.Sprintf("%s flipped replace: a feather from the pile now stands in front of %s, which no longer counts.", who, old)
	case TokenDeclare:
		if e.Feather == nil || e.Right == nil {
			return fmt.Sprintf("%s declared %s.", who, e.Named)
		}
		if *e.Right {
			return fmt.Sprintf("%s declared %s and %s right: the %s lies face up and is counted, and %s %s out of the round.",
				who, shown(e.Named), d.was(e.Seat), shown(e.Feather.Face), d.name(e.Seat, false), d.be(e.Seat))
		}
		return fmt.Sprintf("%s declared %s but wore the %s; the round ends without a count.", who, shown(e.Named), shown(e.Feather.Face))
	}
	return fmt.Sprintf("%s flipped %s.", who, e.Token)
}

// was is "were" for the seat itself, "was" for another player.
func (d describer) was(p games.Seat) string {
	if p == d.seat {
		return "were"
	}
	return "was"
}

// count lists every counted feather (all are public at the count, section
// 5) and the total against the bid.
func (d describer) count(c *Count) string {
	var items []string
	doubled := ""
	for _, l := range c.Lines {
		var it string
		switch l.From {
		case FaceQuestion:
			it = "the " + shown(l.Feather.Face) + " turned by ?"
		case TokenReveal:
			it = "the " + shown(l.Feather.Face) + " revealed by " + d.name(l.Seat, false)
		default:
			it = d.poss(l.Seat) + " " + shown(l.Feather.Face)
		}
		switch {
		case l.Note == noteDoubled:
			doubled = " with the green feathers doubled by x2"
		case l.Note != "":
			it += " (" + l.Note + ")"
		}
		items = append(items, it)
	}
	head := "The count: no feather."
	if len(items) > 0 {
		head = "The count: " + list(items) + "."
	}
	cmp := "under"
	if c.Total >= c.Bid {
		cmp = "reaching"
	}
	return fmt.Sprintf("%s The total is %d%s, %s %s bid of %d.", head, c.Total, doubled, cmp, d.poss(c.Bidder), c.Bid)
}

func (d describer) coyote(e *TakeEvent) string {
	who := d.name(e.Seat, true)
	if e.Eliminated {
		return fmt.Sprintf("%s took a coyote token (%d of %d) and %s out of the game.", who, e.Coyotes, d.s.Elimination, d.be(e.Seat))
	}
	return fmt.Sprintf("%s took a coyote token (%d of %d).", who, e.Coyotes, d.s.Elimination)
}

func (d describer) roundEnd(e *RoundEndEvent) string {
	faces := make([]string, 0, len(e.Feathers))
	for _, f := range e.Feathers {
		faces = append(faces, shown(f.Face))
	}
	head := fmt.Sprintf("Round %d is over", e.Round)
	if e.Abandoned {
		head = fmt.Sprintf("Round %d was abandoned without a count", e.Round)
	}
	switch {
	case len(faces) == 0:
		return head + "."
	case e.Night:
		return fmt.Sprintf("%s; its feathers were %s, and with night among them all feathers are reshuffled.", head, list(faces))
	}
	return fmt.Sprintf("%s; its feathers (%s) go face up to the discard pile.", head, list(faces))
}

package coyote

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Describe says in words of the game's catalog (words/*.toml, keys
// "said.…") what event e (which applies to s) did, as seat may know it. It
// describes seat's redacted copy of the event, so it never tells more than
// Redact shows, in any language: a seat is never told its own feather
// before the round is settled, a spectator or an eliminated player no worn
// feather (section 5).
func (r Rules) Describe(s State, e Event, seat games.Seat) games.Phrase {
	t := r.describe(s, e, seat)
	if t.IsZero() {
		return games.Phrase{}
	}
	return words.Phrase(t.Key, t.Args...)
}

// describe is Describe as a text of the catalog (zero for an event that
// says nothing).
func (r Rules) describe(s State, e Event, seat games.Seat) games.Text {
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
		return d.by(e.Bid.Seat, "said.bid", e.Bid.Bid)
	case e.Flip != nil:
		return d.flip(e.Flip)
	case e.Call != nil:
		return d.call(e.Call)
	case e.Turn != nil:
		return games.T("said.turned", face(e.Turn.Feather.Face))
	case e.Count != nil:
		return d.count(e.Count)
	case e.Coyote != nil:
		return d.coyote(e.Coyote)
	case e.RoundEnd != nil:
		return d.roundEnd(e.RoundEnd)
	case e.Resign != nil:
		return d.by(e.Resign.Seat, "said.resign")
	case e.GameOver != nil:
		return d.by(e.GameOver.Winner, "said.won")
	}
	return games.Text{}
}

// describer says one seat's descriptions: the catalog's "…_you" form of a
// sentence for the seat itself (French conjugates "Vous annoncez" where
// it says "Ana annonce"), the player's name for the others.
type describer struct {
	s    State
	seat games.Seat
}

// by is the text of key about what player p did: key+"_you" with args
// for the seat itself, else key with p's name before args.
func (d describer) by(p games.Seat, key string, args ...any) games.Text {
	if p == d.seat {
		return games.T(key+"_you", args...)
	}
	return games.T(key, append([]any{d.name(p)}, args...)...)
}

// name is a player's name ("seat 4" for a seat the game does not have).
func (d describer) name(p games.Seat) any {
	if d.s.valid(p) {
		return d.s.Players[p]
	}
	return games.T("said.seat", int(p))
}

// face is a feather's face as the feather prints it (CY-34), night in the
// reader's words.
func face(f string) games.Text {
	if f == FaceNight {
		return games.T("face.night")
	}
	return games.Plain(shown(f))
}

// faceList is the faces of fs as a list ("1, 2 and night").
func faceList(fs []Feather) games.Text {
	items := make([]any, len(fs))
	for i, f := range fs {
		items[i] = face(f.Face)
	}
	return games.List(items...)
}

// faceCodes are faces as the list of a refusal: "-10, -5, 1, …, night",
// night in the reader's words.
func faceCodes(fs []string) games.Text {
	if len(fs) == 0 {
		return games.T("board.nothing")
	}
	out := face(fs[len(fs)-1])
	for i := len(fs) - 2; i >= 0; i-- {
		out = games.T("board.commas", face(fs[i]), out)
	}
	return out
}

// then is two sentences, one after the other.
func then(first, second games.Text) games.Text { return games.T("said.then", first, second) }

func (d describer) setup(e *SetupEvent) games.Text {
	names := make([]any, len(e.Players))
	for p, n := range e.Players {
		names[p] = n
		if games.Seat(p) == d.seat {
			names[p] = games.T("board.tagged", n, games.T("board.you_tag"))
		}
	}
	tokens := games.T("said.variant_off")
	if e.Variant {
		tokens = games.T("said.variant_on")
	}
	var deck any = e.Deck // a deck this code does not name, as recorded
	if _, ok := words.Patterns(games.English, "option.deck."+e.Deck); ok {
		deck = games.T("option.deck." + e.Deck) // "30 plumes (l’édition actuelle)"
	}
	return games.T("said.setup", games.List(names...), deck, e.Elimination, tokens)
}

func (d describer) shuffle(e *ShuffleEvent) games.Text {
	switch e.Reason {
	case "short", "night", "empty":
		return games.T("said.shuffle_"+e.Reason, e.Size)
	}
	return games.T("said.shuffle", e.Size)
}

// deal tells who starts and the feathers seat sees (its redacted copy has
// no feather of its own, and none at all for a seat not dealt in).
func (d describer) deal(e *DealEvent) games.Text {
	head := d.by(e.First, "said.deal", e.Round)
	var seen []any
	dealtIn := false
	for _, w := range e.Worn {
		if w.Seat == d.seat && seesTable(d.s, d.seat) {
			dealtIn = true
		}
		if w.Feather != nil {
			seen = append(seen, d.by(w.Seat, "said.worn", face(w.Feather.Face)))
		}
	}
	switch {
	case dealtIn && len(seen) > 0:
		return then(head, games.T("said.deal_see", games.List(seen...)))
	case dealtIn:
		return then(head, games.T("said.deal_own_hidden"))
	}
	return then(head, games.T("said.deal_all_hidden"))
}

func (d describer) flip(e *FlipEvent) games.Text {
	switch e.Token {
	case TokenReveal:
		if e.Feather == nil {
			return d.by(e.Seat, "said.reveal_none")
		}
		return d.by(e.Seat, "said.reveal", face(e.Feather.Face))
	case TokenReverse:
		way := games.T("said.counter_clockwise")
		if d.s.Dir < 0 {
			way = games.T("clockwise")
		}
		return d.by(e.Seat, "said.reverse", way)
	case TokenSkip:
		return d.by(e.Seat, "said.skip")
	case TokenReplace:
		// The feather left behind is named only to the seats that see the
		// new one (the other living players), who saw the old one too.
		if e.Feather != nil && e.Seat != d.seat && d.s.valid(e.Seat) && d.s.Worn[e.Seat] >= 0 {
			return games.T("said.replace_seen", d.name(e.Seat), face(e.Feather.Face), face(d.s.feather(d.s.Worn[e.Seat]).Face))
		}
		return d.by(e.Seat, "said.replace")
	case TokenDeclare:
		switch {
		case e.Feather == nil || e.Right == nil:
			return d.by(e.Seat, "said.declared", face(e.Named))
		case *e.Right:
			return d.by(e.Seat, "said.declare_right", face(e.Named), face(e.Feather.Face))
		}
		return d.by(e.Seat, "said.declare_wrong", face(e.Named), face(e.Feather.Face))
	}
	return d.by(e.Seat, "said.flipped", token(e.Token))
}

// token is a variant token's name in the reader's words.
func token(kind string) games.Text {
	if slices.Contains(tokenKinds(), kind) {
		return games.T("variant." + kind)
	}
	return games.Plain(kind)
}

func (d describer) call(e *CallEvent) games.Text {
	switch {
	case e.Seat == d.seat:
		return games.T("said.call_you", d.name(e.Against), e.Bid)
	case e.Against == d.seat:
		return games.T("said.call_on_you", d.name(e.Seat), e.Bid)
	}
	return games.T("said.call", d.name(e.Seat), d.name(e.Against), e.Bid)
}

// count lists every counted feather (all are public at the count, section
// 5) and the total against the bid.
func (d describer) count(c *Count) games.Text {
	var items []any
	doubled := false
	for _, l := range c.Lines {
		var key string
		var args []any
		switch l.From {
		case FaceQuestion:
			key, args = "said.count_question", []any{face(l.Feather.Face)}
		case TokenReveal:
			t := d.by(l.Seat, "said.count_revealed", face(l.Feather.Face))
			key, args = t.Key, t.Args
		default:
			t := d.by(l.Seat, "said.worn", face(l.Feather.Face))
			key, args = t.Key, t.Args
		}
		switch {
		case l.Note == noteDoubled:
			doubled = true
		case l.Note != "":
			key, args = key+"_noted", append(args, note(l.Note))
		}
		items = append(items, games.T(key, args...))
	}
	head := games.T("said.count_none")
	if len(items) > 0 {
		head = games.T("said.count", games.List(items...))
	}
	cmp := "said.under"
	if c.Total >= c.Bid {
		cmp = "said.reaching"
	}
	total := "said.total"
	if doubled {
		total = "said.total_doubled"
	}
	return then(head, games.T(total, c.Total, d.by(c.Bidder, cmp, c.Bid)))
}

// note is a count line's note in the reader's words; a note this code
// does not know (none is written today) is said as it was recorded.
func note(n string) games.Text {
	switch n {
	case noteDiscarded:
		return games.T("said.note_discarded")
	case noteNegative:
		return games.T("said.note_negative")
	}
	return games.Plain(n)
}

func (d describer) coyote(e *TakeEvent) games.Text {
	if e.Eliminated {
		return d.by(e.Seat, "said.take_out", e.Coyotes, d.s.Elimination)
	}
	return d.by(e.Seat, "said.take", e.Coyotes, d.s.Elimination)
}

func (d describer) roundEnd(e *RoundEndEvent) games.Text {
	head := games.T("said.round_over", e.Round)
	if e.Abandoned {
		head = games.T("said.round_abandoned", e.Round)
	}
	switch {
	case len(e.Feathers) == 0:
		return games.T("said.round_end", head)
	case e.Night:
		return games.T("said.round_end_night", head, faceList(e.Feathers))
	}
	return games.T("said.round_end_feathers", head, faceList(e.Feathers))
}

package couillon

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/courrier-games/courrier/games"
)

// Describe says in plain English what event e (applied to s, the state
// before it) did, as seat may know it. Only the "dealt" event holds hidden
// cards, and it names only seat's own hand, which Redact keeps; every other
// event is public (section 5).
func (r Rules) Describe(s State, e Event, seat games.Seat) games.Phrase {
	return games.Said(r.describeEN(s, e, seat))
}

// describeEN is Describe in English (until the game's catalog says it).
func (r Rules) describeEN(s State, e Event, seat games.Seat) string {
	d := describer{players: s.Players, viewer: seat}
	switch e.Type {
	case EvSeated:
		d.players = e.Players
		return d.seated(e)
	case EvDealt:
		return d.dealt(e)
	case EvTurned:
		if e.Pos == 24 && s.Set.AllPassGerver { // CO-5 all_pass = gerver: it makes trump
			return fmt.Sprintf("The bottom card of the stock, %s, is turned.", e.Card)
		}
		return fmt.Sprintf("The %dth card, %s, is turned: %s are proposed as trump.", e.Pos, e.Card, e.Card.Suit().Name())
	case EvAccepted:
		return fmt.Sprintf("%s accepted %s as trump.", d.who(e.Seat, true), s.proposedSuit(e.Pos).Name())
	case EvPassed:
		return fmt.Sprintf("%s passed on %s.", d.who(e.Seat, true), s.proposedSuit(e.Pos).Name())
	case EvTrump:
		var b strings.Builder
		fmt.Fprintf(&b, "%s are trump", capitalize(e.Suit.Name()))
		if e.NoDeclare {
			b.WriteString(", with no declaring team")
		} else {
			fmt.Fprintf(&b, "; %s declare", d.team(team(e.Declarer)))
		}
		fmt.Fprintf(&b, ". %s the first trick.", d.does(e.Leader, "lead"))
		return b.String()
	case EvPlayed:
		return fmt.Sprintf("%s played %s.", d.who(e.Seat, true), e.Card)
	case EvTrick:
		return fmt.Sprintf("%s won the trick (%s).", d.who(e.Winner, true), plural(e.Points, "point"))
	case EvScored:
		return d.scored(e.Score)
	case EvResigned:
		return fmt.Sprintf("%s resigned.", d.who(e.Seat, true))
	case EvOver:
		if e.Team < 0 || e.Team > 1 {
			return "The match is over."
		}
		return fmt.Sprintf("%s win the match; every card is now shown.", capitalize(d.team(e.Team)))
	}
	return ""
}

// proposedSuit is the suit of the face-up stock card at position pos (17..24).
func (s *State) proposedSuit(pos int) Suit {
	if i := pos - 17; i >= 0 && i < len(s.Stock) && s.Turned&(1<<i) != 0 {
		return s.Stock[i].Suit()
	}
	return NoSuit
}

// describer names players as the viewer knows them: "You"/"you" for the
// viewer's own seat, the player's name otherwise.
type describer struct {
	players []string
	viewer  games.Seat
}

func (d describer) who(seat games.Seat, start bool) string {
	if seat == d.viewer && seat >= 0 {
		if start {
			return "You"
		}
		return "you"
	}
	if seat >= 0 && int(seat) < len(d.players) {
		return d.players[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// does is "You win" or "Ana wins": seat and a verb that agrees with it.
func (d describer) does(seat games.Seat, verb string) string {
	if seat == d.viewer {
		return d.who(seat, true) + " " + verb
	}
	return d.who(seat, true) + " " + verb + "s"
}

// team names team t by its players: "Ana and Cleo", "you and Cleo".
func (d describer) team(t int) string {
	return d.who(games.Seat(t), false) + " and " + d.who(games.Seat(t+2), false)
}

func (d describer) seated(e Event) string {
	draw := func(seat games.Seat) string {
		if int(seat) < len(e.Draws) {
			return fmt.Sprintf("%s (%s)", d.who(seat, false), e.Draws[seat])
		}
		return d.who(seat, false)
	}
	return fmt.Sprintf("The draw seats %s and %s against %s and %s; the first dealer is %s.",
		draw(0), draw(2), draw(1), draw(3), d.who(0, false))
}

func (d describer) dealt(e Event) string {
	out := fmt.Sprintf("Deal %d: %s dealt 4 cards to each player.", e.Deal, d.who(e.Dealer, false))
	if d.viewer >= 0 && int(d.viewer) < len(e.Hands) && len(e.Hands[d.viewer]) > 0 {
		names := make([]string, len(e.Hands[d.viewer]))
		for i, c := range e.Hands[d.viewer] {
			names[i] = c.String()
		}
		out += " Your hand: " + strings.Join(names, ", ") + "."
	}
	return out
}

func (d describer) scored(rec *DealRecord) string {
	if rec == nil {
		return "The deal is scored."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Deal %d: %s took %s, %s %s", rec.Deal, d.team(0), plural(rec.Points[0], "point"), d.team(1), plural(rec.Points[1], "point"))
	w := rec.Winner
	if w < 0 || w > 1 {
		fmt.Fprintf(&b, "; a tie, nobody erases a line (the next winners erase %s).", plural(1+rec.B, "line"))
	} else {
		fmt.Fprintf(&b, "; %s win the deal and erase %s", d.team(w), plural(-rec.Change[w], "line"))
		if l := rec.Declarers; l >= 0 && l <= 1 && l != w && rec.Change[l] > 0 {
			fmt.Fprintf(&b, ", and %s, the declarers, take %s", d.team(l), plural(rec.Change[l], "loop"))
		}
		b.WriteString(".")
	}
	fmt.Fprintf(&b, " Lines still to erase: %s %d, %s %d.", d.team(0), rec.R[0], d.team(1), rec.R[1])
	return capitalize(b.String())
}

// plural is "1 point", "0 points", "3 lines".
func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// capitalize upper-cases the first letter.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

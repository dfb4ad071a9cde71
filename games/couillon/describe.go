package couillon

import (
	"github.com/courrier-games/courrier/games"
)

// Describe says in words of the game's catalog ("said.*") what event e
// (applied to s, the state before it) did, as seat may know it. Only the
// "dealt" event holds hidden cards, and it names only seat's own hand, which
// Redact keeps; every other event is public (section 5). A sentence whose
// subject is the seat itself, or a team the seat plays in, has its own key
// ("said.played_you"): French conjugates it ("Vous avez joué", "Ben et vous
// gagnez").
func (r Rules) Describe(s State, e Event, seat games.Seat) games.Phrase {
	key, args := r.describe(s, e, seat)
	if key == "" {
		return games.Said("")
	}
	return words.Phrase(key, args...)
}

// describe is Describe's key and arguments ("" for an event of no known
// type).
func (r Rules) describe(s State, e Event, seat games.Seat) (string, []any) {
	d := describer{players: s.Players, viewer: seat}
	switch e.Type {
	case EvSeated:
		d.players = e.Players
		return d.seated(e)
	case EvDealt:
		return d.dealt(e)
	case EvTurned:
		if e.Pos == 24 && s.Set.AllPassGerver { // CO-5 all_pass = gerver: it makes trump
			return "said.turned_bottom", []any{cardText(e.Card)}
		}
		return "said.turned", []any{e.Pos, cardText(e.Card), suitText(e.Card.Suit())}
	case EvAccepted:
		return d.says(e.Seat, "said.accepted", suitText(s.proposedSuit(e.Pos)))
	case EvPassed:
		return d.says(e.Seat, "said.passed", suitText(s.proposedSuit(e.Pos)))
	case EvTrump:
		lead, leadArgs := d.says(e.Leader, "said.lead")
		leads := games.T(lead, leadArgs...)
		suit := games.T("said.trump_suit." + e.Suit.Code())
		switch {
		case e.NoDeclare:
			return "said.trump_none", []any{suit, leads}
		case d.in(team(e.Declarer)):
			return "said.trump_you", []any{suit, d.team(team(e.Declarer), false), leads}
		}
		return "said.trump", []any{suit, d.team(team(e.Declarer), false), leads}
	case EvPlayed:
		return d.says(e.Seat, "said.played", cardText(e.Card))
	case EvTrick:
		return d.says(e.Winner, "said.trick", games.T("said.points", e.Points))
	case EvScored:
		return d.scored(e.Score)
	case EvResigned:
		return d.says(e.Seat, "said.resigned")
	case EvOver:
		if e.Team < 0 || e.Team > 1 {
			return "said.over_none", nil
		}
		return d.teamSays(e.Team, "said.over", d.team(e.Team, true))
	}
	return "", nil
}

// proposedSuit is the suit of the face-up stock card at position pos (17..24).
func (s *State) proposedSuit(pos int) Suit {
	if i := pos - 17; i >= 0 && i < len(s.Stock) && s.Turned&(1<<i) != 0 {
		return s.Stock[i].Suit()
	}
	return NoSuit
}

// suitText is a suit's name in the catalog ("spades", "pique").
func suitText(u Suit) games.Text {
	if u == NoSuit {
		return games.T("suit.none")
	}
	return games.T("suit." + u.Code())
}

// cardText is a card as the board prints it, in the reader's words: "K♥",
// "R♥".
func cardText(c Card) games.Text {
	if !c.Valid() {
		return games.T("said.no_card")
	}
	return games.T("short", games.T("rank."+c.Rank().Code()), c.Suit().Symbol())
}

// describer names players as the viewer knows them: "you" for the viewer's
// own seat, the player's name otherwise.
type describer struct {
	players []string
	viewer  games.Seat
}

// who is seat's player as an argument: its name, "you" ("You" at the start
// of a sentence) for the viewer, "seat n" for a seat with no player.
func (d describer) who(seat games.Seat, start bool) any {
	if seat == d.viewer && seat >= 0 {
		if start {
			return games.T("said.you_start")
		}
		return games.T("said.you")
	}
	if seat >= 0 && int(seat) < len(d.players) {
		return d.players[seat]
	}
	return games.T("said.seat", int(seat))
}

// says is the sentence key of seat doing something, with args after the
// doer: key with the doer's name first, or key+"_you" without it when the
// doer is the viewer.
func (d describer) says(seat games.Seat, key string, args ...any) (string, []any) {
	if seat == d.viewer && seat >= 0 {
		return key + "_you", args
	}
	return key, append([]any{d.who(seat, true)}, args...)
}

// in reports whether the viewer plays in team t.
func (d describer) in(t int) bool { return d.viewer >= 0 && team(d.viewer) == t }

// teamSays is key for team t as the subject (key+"_you" when the viewer
// plays in it), with args.
func (d describer) teamSays(t int, key string, args ...any) (string, []any) {
	if d.in(t) {
		return key + "_you", args
	}
	return key, args
}

// team names team t by its players: "Ana and Cleo", "you and Cleo" ("You
// and Cleo" at the start of a sentence).
func (d describer) team(t int, start bool) games.Text {
	return games.T("said.team", d.who(games.Seat(t), start), d.who(games.Seat(t+2), false))
}

func (d describer) seated(e Event) (string, []any) {
	draw := func(seat games.Seat) any {
		if int(seat) < len(e.Draws) {
			return games.T("said.drew", d.who(seat, false), cardText(e.Draws[seat]))
		}
		return d.who(seat, false)
	}
	args := []any{draw(0), draw(2), draw(1), draw(3)}
	if d.viewer == 0 {
		return "said.seated_you", args
	}
	return "said.seated", append(args, d.who(0, false))
}

func (d describer) dealt(e Event) (string, []any) {
	key, args := "said.dealt", []any{e.Deal, d.who(e.Dealer, false)}
	if e.Dealer == d.viewer && d.viewer >= 0 {
		key, args = "said.dealt_you", []any{e.Deal}
	}
	if d.viewer >= 0 && int(d.viewer) < len(e.Hands) && len(e.Hands[d.viewer]) > 0 {
		return "said.with_hand", []any{games.T(key, args...), cardList(e.Hands[d.viewer])}
	}
	return key, args
}

// cardList is cards separated by commas: "9♦, 10♣, J♥, Q♠".
func cardList(cards []Card) games.Text {
	out := cardText(cards[len(cards)-1])
	for i := len(cards) - 2; i >= 0; i-- {
		out = games.T("board.commas", cardText(cards[i]), out)
	}
	return out
}

func (d describer) scored(rec *DealRecord) (string, []any) {
	if rec == nil {
		return "said.scored_none", nil
	}
	took, tookArgs := d.teamSays(0, "said.took", d.team(0, false), games.T("said.points", rec.Points[0]), d.team(1, false), games.T("said.points", rec.Points[1]))
	var outcome games.Text
	w := rec.Winner
	switch {
	case w < 0 || w > 1:
		outcome = games.T("said.tie", games.T("said.lines", 1+rec.B))
	case rec.Declarers >= 0 && rec.Declarers <= 1 && rec.Declarers != w && rec.Change[rec.Declarers] > 0:
		l := rec.Declarers
		k, args := d.teamSays(w, "said.won_deal_loop", d.team(w, false), games.T("said.lines", -rec.Change[w]), d.team(l, false), games.T("said.loops", rec.Change[l]))
		outcome = games.T(k, args...)
	default:
		k, args := d.teamSays(w, "said.won_deal", d.team(w, false), games.T("said.lines", -rec.Change[w]))
		outcome = games.T(k, args...)
	}
	return "said.scored", []any{rec.Deal, games.T(took, tookArgs...), outcome, d.team(0, false), rec.R[0], d.team(1, false), rec.R[1]}
}

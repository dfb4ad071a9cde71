package coyote

import (
	"encoding/json"
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Rules draws a board (web and mail show it).
var _ games.Boards = Rules{}

// words is the English of Coyote's boards.
var words = games.Catalog{
	"round":             "Round {0}",
	"bid":               "bid {0} by {1}",
	"no_bid":            "no bid yet",
	"direction":         "play goes {0}",
	"clockwise":         "clockwise",
	"reversed":          "reversed",
	"pile.one":          "{0} feather in the pile",
	"pile.other":        "{0} feathers in the pile",
	"elimination.one":   "{0} coyote token puts a player out",
	"elimination.other": "{0} coyote tokens put a player out",
	"coyotes.one":       "{0} coyote token",
	"coyotes.other":     "{0} coyote tokens",
	"feather":           "feather {0}",
	"discard":           "Discard pile",
	"to_bid":            "to bid",
}

// Words is the English of Coyote's boards.
func (Rules) Words() games.Catalog { return allWords }

// Board lays out the table from one seat's view: the round and the bid,
// every feather the seat may see (its own face down), the coyote tokens
// and the discard pile.
func (Rules) Board(raw json.RawMessage) (games.Board, error) {
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return games.Board{}, err
	}
	b := games.Board{Viewer: games.Spectator, TurnTag: games.T("to_bid")}
	for _, p := range v.Players {
		b.Players = append(b.Players, p.Name)
	}
	if v.Seat >= 0 && int(v.Seat) < len(v.Players) {
		b.Viewer = v.Seat
	}
	if !v.Over && v.Turn >= 0 && int(v.Turn) < len(v.Players) {
		b.Turn = []games.Seat{v.Turn}
	}
	bid := games.T("no_bid")
	if v.Bidder >= 0 {
		bid = games.T("bid", v.Bid, b.Name(v.Bidder))
	}
	direction := "clockwise"
	if v.Direction == "reversed" {
		direction = "reversed"
	}
	table := games.Section{Counters: []games.Counter{
		{Text: games.T("round", v.Round), Value: v.Round},
		{Text: bid, Value: v.Bid},
		{Text: games.T("direction", games.T(direction))},
		{Text: games.T("pile", v.PileSize), Value: v.PileSize},
		{Text: games.T("elimination", v.Elimination), Value: v.Elimination},
	}}
	b.Sections = append(b.Sections, table)

	seats := games.Section{}
	for _, p := range v.Players {
		a := games.Area{Seat: p.Seat, Out: p.Eliminated || p.Withdrawn,
			Counters: []games.Counter{{Text: games.T("coyotes", p.Coyotes), Value: p.Coyotes, Token: "coyote"}}}
		switch {
		case p.Feather != nil:
			a.Piles = []games.Pile{{Cards: []games.Card{feather(*p.Feather)}}}
		case p.Hidden:
			a.Piles = []games.Pile{{Owner: new(p.Seat), Cards: []games.Card{{Face: games.Down}}}}
		}
		seats.Areas = append(seats.Areas, a)
		b.Scores = append(b.Scores, games.Score{Seats: []games.Seat{p.Seat}, Text: games.T("coyotes", p.Coyotes)})
	}
	slices.SortStableFunc(b.Scores, func(x, y games.Score) int {
		return v.Players[x.Seats[0]].Coyotes - v.Players[y.Seats[0]].Coyotes
	})
	b.Sections = append(b.Sections, seats)

	if len(v.Discard) > 0 {
		discard := games.Pile{Label: games.T("discard")}
		for _, f := range v.Discard {
			discard.Cards = append(discard.Cards, feather(f))
		}
		b.Sections = append(b.Sections, games.Section{Piles: []games.Pile{discard}})
	}
	return b, nil
}

// feather is a feather face up: its face printed, its colour.
func feather(f Feather) games.Card {
	return games.Card{Name: games.T("feather", f.Face), Short: games.Plain(f.Face), Face: games.Up, Colour: f.Colour}
}

package coyote

import (
	"embed"
	"encoding/json"
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Rules draws a board (web and mail show it).
var _ games.Boards = Rules{}

//go:embed words/*.toml
var wordFiles embed.FS

// words is the game's catalog, every word it says in every language
// (words/<language>.toml), over the words all games share; read once,
// never changed.
var words = games.GameCatalog(wordFiles, "words")

// Words is the game's catalog.
func (Rules) Words() *games.Catalog { return words }

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
	if v.Over && v.Winner >= 0 && int(v.Winner) < len(v.Players) {
		b.Sections = slices.Insert(b.Sections, 0, games.Section{Notes: []games.Note{{Text: games.T("wins", b.Name(v.Winner)), Emphasis: true}}})
	}
	if c := v.LastCount; c != nil && c.Bidder >= 0 && c.Loser >= 0 {
		table.Notes = append(table.Notes, games.Note{Text: games.T("last_count", c.Total, b.Name(c.Bidder), c.Bid, b.Name(c.Loser))})
		b.Sections[len(b.Sections)-1] = table
	}
	if len(v.Tokens) > 0 {
		var toks []any
		for _, t := range v.Tokens {
			key := "variant_down"
			if t.FaceUp {
				key = "variant_up"
			}
			toks = append(toks, games.T(key, games.T("variant."+t.Kind)))
		}
		b.Sections = append(b.Sections, games.Section{Notes: []games.Note{{Text: games.T("variant_list", games.List(toks...))}}})
	}
	if len(v.FaceUp) > 0 {
		turned := games.Pile{Label: games.T("turned")}
		for _, f := range v.FaceUp {
			c := feather(f.Feather)
			if f.Seat >= 0 && int(f.Seat) < len(v.Players) {
				c.Name = games.T("turned_by", c.Name, b.Name(f.Seat))
			}
			turned.Cards = append(turned.Cards, c)
		}
		b.Sections = append(b.Sections, games.Section{Piles: []games.Pile{turned}})
	}

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
			c := feather(f)
			c.Name = c.Short // the pile says they are feathers
			discard.Cards = append(discard.Cards, c)
		}
		b.Sections = append(b.Sections, games.Section{Piles: []games.Pile{discard}})
	}
	return b, nil
}

// feather is a feather face up: its face printed (night in the reader's
// words), its colour.
func feather(f Feather) games.Card {
	printed := face(f.Face)
	return games.Card{Name: games.T("feather", printed), Short: printed, Face: games.Up, Colour: f.Colour}
}

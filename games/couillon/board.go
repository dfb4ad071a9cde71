package couillon

import (
	"embed"
	"encoding/json"

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

// Board lays out the table from one seat's view: the deal and trump, the
// turned-up stock cards, the trick, the seat's own hand, the players and
// the score sheet.
func (Rules) Board(raw json.RawMessage) (games.Board, error) {
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return games.Board{}, err
	}
	b := games.Board{Viewer: v.Viewer, Players: v.Players, TurnTag: games.T("to_play")}
	if v.Phase == "trump" || v.Phase == "play" {
		b.TurnTag = games.T("to." + v.Phase)
	}
	if v.Viewer < 0 || int(v.Viewer) >= len(v.Players) {
		b.Viewer = games.Spectator
	}
	if v.ToAct >= 0 && int(v.ToAct) < len(v.Players) {
		b.Turn = []games.Seat{v.ToAct}
	}
	team := func(t int) games.Text { return games.T("team", [2]string{"A", "B"}[t%2]) }

	if v.Winner == 0 || v.Winner == 1 {
		b.Sections = append(b.Sections, games.Section{Notes: []games.Note{{Text: games.T("wins", [2]string{"A", "B"}[v.Winner], partners(b, v.Winner)), Emphasis: true}}})
	}
	deal := games.Section{Counters: []games.Counter{
		{Text: games.T("deal", v.Deal), Value: v.Deal},
		{Text: games.T("phase." + v.Phase)},
	}}
	if v.Trump != NoSuit {
		deal.Counters = append(deal.Counters, games.Counter{Text: games.T("trump", games.T("suit."+v.Trump.Code()))})
	}
	if v.Declarers == 0 || v.Declarers == 1 {
		deal.Counters = append(deal.Counters, games.Counter{Text: games.T("declarers", team(v.Declarers))})
	}
	if len(v.Turned) > 0 {
		turned := games.Pile{Label: games.T("turned")}
		for _, t := range v.Turned {
			turned.Cards = append(turned.Cards, card(t.Card))
		}
		deal.Piles = append(deal.Piles, turned)
	}
	b.Sections = append(b.Sections, deal)

	trick := games.Section{Title: games.T("table")}
	for _, t := range v.Trick {
		trick.Piles = append(trick.Piles, games.Pile{Label: games.Plain(b.Name(t.Seat)), Cards: []games.Card{card(t.Card)}})
	}
	if len(v.Trick) == 0 {
		trick.Piles = []games.Pile{{Empty: games.T("no_card_yet")}}
	}
	b.Sections = append(b.Sections, trick)

	if b.Viewer != games.Spectator {
		hand := games.Pile{Owner: new(b.Viewer), Empty: games.T("no_cards")}
		for _, c := range v.Hand {
			hand.Cards = append(hand.Cards, card(c))
		}
		b.Sections = append(b.Sections, games.Section{Title: games.T("hand"), Piles: []games.Pile{hand}})
	}

	seats := games.Section{}
	for i := range v.Players {
		a := games.Area{Seat: games.Seat(i), Counters: []games.Counter{
			{Text: team(i)},
			{Text: games.T("cards", v.HandSizes[i%4]), Value: v.HandSizes[i%4]},
		}}
		if games.Seat(i) == v.Dealer {
			a.Counters = append(a.Counters, games.Counter{Text: games.T("dealer")})
		}
		seats.Areas = append(seats.Areas, a)
	}
	b.Sections = append(b.Sections, seats)

	sheet := &games.Table{
		Caption:  games.T("sheet", v.DealScore[0], v.DealScore[1]),
		TellRows: 2,
		Head:     []games.Text{games.T("sheet_deal"), games.T("team_of", "A", partners(b, 0)), games.T("team_of", "B", partners(b, 1)), games.T("won_by")},
	}
	for i, l := range v.History {
		row := games.Row{Head: games.T("deal_row", i+1), Cells: []games.Cell{
			{Text: games.T("points_needs", l.Points[0], l.R[0])},
			{Text: games.T("points_needs", l.Points[1], l.R[1])},
			{},
		}}
		if l.Winner == 0 || l.Winner == 1 {
			row.Cells[2].Text = team(l.Winner)
		}
		sheet.Rows = append(sheet.Rows, row)
	}
	sheet.Rows = append(sheet.Rows, games.Row{Head: games.T("now"), Cells: []games.Cell{
		{Text: games.T("needs", v.R[0])}, {Text: games.T("needs", v.R[1])}, {},
	}})
	b.Sections = append(b.Sections, games.Section{Table: sheet})

	for t := range 2 {
		if len(v.Players) < 4 {
			break
		}
		b.Scores = append(b.Scores, games.Score{Seats: []games.Seat{games.Seat(t), games.Seat(t + 2)},
			Name: games.T("team_of", [2]string{"A", "B"}[t], partners(b, t)), Text: needs(v.R[t])})
	}
	if v.R[1] < v.R[0] {
		b.Scores[0], b.Scores[1] = b.Scores[1], b.Scores[0]
	}
	return b, nil
}

// needs is a team's standing: the deals it still needs to win.
func needs(r int) games.Text {
	if r <= 0 {
		return games.T("won")
	}
	return games.T("needs_deals", r)
}

// partners are the two players of team t.
func partners(b games.Board, t int) games.Text {
	return games.List(b.Name(games.Seat(t)), b.Name(games.Seat(t+2)))
}

// card is a playing card, named as it is printed and as a move names it:
// "J♥" (play J♥).
func card(c Card) games.Card {
	if !c.Valid() {
		return games.Card{Face: games.Down}
	}
	u := c.Suit()
	out := games.Card{
		Name: games.T("short", games.T("rank."+c.Rank().Code()), u.Symbol()),
		Face: games.Up,
	}
	if u == Hearts || u == Diamonds {
		out.Colour = "red"
	}
	return out
}

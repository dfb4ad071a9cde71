package kramercoup

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

// Board lays out the table from one seat's view: the six number series, the
// players' money and chips, the seat's own tiles and the pool.
func (Rules) Board(raw json.RawMessage) (games.Board, error) {
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return games.Board{}, err
	}
	b := games.Board{Viewer: games.Spectator}
	for _, p := range v.Players {
		b.Players = append(b.Players, p.Name)
	}
	if v.Seat >= 0 && v.Seat < len(v.Players) {
		b.Viewer = games.Seat(v.Seat)
	}
	if v.Turn >= 0 && v.Turn < len(v.Players) {
		b.Turn = []games.Seat{games.Seat(v.Turn)}
		if _, ok := words.Patterns(games.English, "todo."+string(v.Phase)); ok {
			b.TurnTag = games.T("board.to", games.T("todo."+string(v.Phase)))
		}
	}
	if s := boardSummary(v, b); !s.IsZero() {
		b.Sections = append(b.Sections, games.Section{Notes: []games.Note{{Text: s}}})
	}

	top := 20
	for _, r := range v.Rows {
		for _, c := range r.Chains {
			top = max(top, c[1])
		}
	}
	series := &games.Table{Caption: games.T("series"), Head: []games.Text{games.T("series_head")}}
	for n := 1; n <= top; n++ {
		series.Head = append(series.Head, games.Plain(n))
	}
	series.Head = append(series.Head, games.T("chip_value"), games.T("chips_left"))
	for _, r := range v.Rows {
		row := games.Row{Head: games.T("colour." + r.Colour), Colour: r.Colour}
		for n := 1; n <= top; n++ {
			placed := slices.ContainsFunc(r.Chains, func(c [2]int) bool { return n >= c[0] && n <= c[1] })
			cell := games.Cell{Mark: placed}
			if placed {
				cell.Text = games.Plain(n)
			}
			row.Cells = append(row.Cells, cell)
		}
		row.Cells = append(row.Cells, games.Cell{Text: games.Plain(r.TokenValue)}, games.Cell{Text: games.Plain(r.Supply)})
		series.Rows = append(series.Rows, row)
	}
	b.Sections = append(b.Sections, games.Section{Table: series})

	players := &games.Table{Caption: games.T("players"), Head: []games.Text{games.T("player"), games.T("cash"), games.T("capital")}}
	for _, r := range v.Rows {
		players.Head = append(players.Head, games.T("colour."+r.Colour))
	}
	players.Head = append(players.Head, games.T("hand_size"))
	for i, p := range v.Players {
		row := games.Row{Head: games.Plain(p.Name), Seat: new(games.Seat(i)),
			Cells: []games.Cell{{Text: games.Plain(p.Cash)}, {Text: games.Plain(p.Capital)}}}
		for _, r := range v.Rows {
			row.Cells = append(row.Cells, games.Cell{Text: games.Plain(chips(p.Tokens, r.Colour))})
		}
		row.Cells = append(row.Cells, games.Cell{Text: games.Plain(p.HandSize)})
		players.Rows = append(players.Rows, row)
		b.Scores = append(b.Scores, games.Score{Seats: []games.Seat{games.Seat(i)}, Text: games.T("capital_of", p.Capital)})
	}
	slices.SortStableFunc(b.Scores, func(x, y games.Score) int {
		return v.Players[y.Seats[0]].Capital - v.Players[x.Seats[0]].Capital
	})
	b.Sections = append(b.Sections, games.Section{Table: players})

	table := games.Section{}
	if b.Viewer != games.Spectator {
		if hand := v.Players[b.Viewer].Hand; len(hand) > 0 {
			pile := games.Pile{Label: games.T("your_tiles"), Owner: new(b.Viewer)}
			for _, t := range hand {
				colour := ColourName(t.Colour())
				pile.Cards = append(pile.Cards, games.Card{Name: games.T("tile", games.T("colour."+colour), t.Number()), Face: games.Up, Colour: colour})
			}
			table.Piles = append(table.Piles, pile)
		}
	}
	table.Notes = append(table.Notes, games.Note{Text: games.T("pool", v.PoolSize)})
	b.Sections = append(b.Sections, table)
	return b, nil
}

// chips is a holding's chips of one colour.
func chips(h Holding, colour string) int {
	switch colour {
	case "yellow":
		return h.Yellow
	case "orange":
		return h.Orange
	case "red":
		return h.Red
	case "violet":
		return h.Violet
	case "blue":
		return h.Blue
	case "green":
		return h.Green
	}
	return 0
}

// boardSummary is the state of play in words, as the view tells it.
func boardSummary(v View, b games.Board) games.Text {
	name := func(i int) string { return b.Name(games.Seat(i)) }
	switch {
	case v.Phase == PhaseSetup || v.Phase == "":
		return games.Text{}
	case v.Finished:
		switch len(v.Winners) {
		case 0:
			return games.T("nobody_wins")
		case 1:
			return games.T("wins", name(v.Winners[0]), v.Players[v.Winners[0]].Capital)
		}
		names := make([]any, len(v.Winners))
		for i, w := range v.Winners {
			names[i] = name(w)
		}
		return games.T("share", games.List(names...), v.Players[v.Winners[0]].Capital)
	case v.Turn < 0:
		return games.T("scoring")
	case v.Phase == PhaseLast:
		return games.T("last_tile", name(v.CoupMaker), name(v.Turn))
	}
	return games.T("round", v.Round, games.T("phase."+string(v.Phase)))
}

package coup

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

// Board lays out the table from one seat's view: every player's coins,
// influence and cards (face down unless the view shows them), the court
// deck, the stage and the action in progress.
func (Rules) Board(raw json.RawMessage) (games.Board, error) {
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return games.Board{}, err
	}
	b := games.Board{Viewer: games.Seat(v.Seat)}
	seats := games.Section{}
	for i, p := range v.Players {
		b.Players = append(b.Players, p.Name)
		a := games.Area{Seat: games.Seat(i), Out: p.Out || p.Resigned,
			Counters: []games.Counter{
				{Text: games.T("coins", p.Coins), Value: p.Coins, Token: "coin"},
				{Text: games.T("influence", p.Influence), Value: p.Influence},
			}}
		if p.Faction != "" {
			a.Counters = append(a.Counters, games.Counter{Text: games.T("faction", games.T("faction."+p.Faction))})
		}
		cards := games.Pile{}
		if len(p.Cards) > 0 {
			owner := games.Seat(i)
			cards.Owner = &owner
		}
		for _, c := range p.Cards {
			cards.Cards = append(cards.Cards, games.Card{Name: charName(c), Face: games.Up})
		}
		if len(p.Cards) == 0 {
			for range p.Influence {
				cards.Cards = append(cards.Cards, games.Card{Face: games.Down})
			}
		}
		for _, c := range p.Lost {
			cards.Cards = append(cards.Cards, games.Card{Name: charName(c), Face: games.Spent})
		}
		a.Piles = []games.Pile{cards}
		seats.Areas = append(seats.Areas, a)
	}
	if v.Winner == nil && v.Turn >= 0 && v.Turn < len(v.Players) {
		b.Turn = []games.Seat{games.Seat(v.Turn)}
	}
	if v.Stage == "turn" {
		b.TurnTag = games.T("board.to", games.T("todo.turn"))
	}
	table := games.Section{Notes: []games.Note{{Text: games.T("court", games.T("court_cards", v.CourtSize))}}}
	if v.Stage != "" && v.Stage != "turn" && v.Stage != "over" { // the turn line and the winner say these
		table.Notes = append(table.Notes, games.Note{Text: games.T("stage", games.T("stage."+v.Stage))})
	}
	if a := v.Action; a != nil {
		name := func(i int) string { return b.Name(games.Seat(i)) }
		what := games.T("act", name(a.Actor), games.T("action."+a.Action))
		if a.Target != nil {
			what = games.T("act_on", name(a.Actor), games.T("action."+a.Action), name(*a.Target))
		}
		if a.Claim != NoChar {
			what = games.T("claiming", what, theChar(a.Claim))
		}
		if a.Blocker != nil {
			what = games.T("blocks", what, name(*a.Blocker), theChar(a.Block))
		}
		if a.Challenger != nil {
			what = games.T("challenges", what, name(*a.Challenger))
		}
		if a.Window != "" {
			what = games.T("window", games.T("window."+a.Window), what)
		}
		table.Notes = append(table.Notes, games.Note{Text: what, Emphasis: true})
		if len(a.Drawn) > 0 {
			drawn := games.Pile{Label: games.T("drawn"), Owner: new(games.Seat(a.Actor))}
			for _, c := range a.Drawn {
				drawn.Cards = append(drawn.Cards, games.Card{Name: charName(c), Face: games.Up})
			}
			table.Piles = append(table.Piles, drawn)
		}
	}
	b.Sections = []games.Section{seats, table}
	if v.Winner != nil && *v.Winner >= 0 && *v.Winner < len(v.Players) {
		b.Sections = append([]games.Section{{Notes: []games.Note{{Text: games.T("wins", b.Name(games.Seat(*v.Winner))), Emphasis: true}}}}, b.Sections...)
	}
	return b, nil
}

// charName is a character's name in the catalog ("Duke").
func charName(c Char) games.Text { return games.T("card." + c.String()) }

// theChar is a character with its article ("the Duke", "la Comtesse").
func theChar(c Char) games.Text { return games.T("card.the." + c.String()) }

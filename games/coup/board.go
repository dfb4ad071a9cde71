package coup

import (
	"encoding/json"

	"github.com/courrier-games/courrier/games"
)

// Rules draws a board (web and mail show it).
var _ games.Boards = Rules{}

// words is the English of Coup's boards.
var words = func() games.Catalog {
	c := games.Catalog{
		"coins.one":            "{0} coin",
		"coins.other":          "{0} coins",
		"influence":            "{0} influence",
		"faction":              "faction {0}",
		"faction.up":           "up",
		"faction.down":         "down",
		"court":                "Court deck: {0}",
		"court_cards.one":      "{0} card",
		"court_cards.other":    "{0} cards",
		"stage":                "Now: {0}",
		"drawn":                "You drew",
		"act":                  "{0}: {1}",
		"act_on":               "{0}: {1} on {2}",
		"claiming":             "{0}, claiming the {1}",
		"blocks":               "{0}; {1} blocks with the {2}",
		"challenges":           "{0}; {1} challenges",
		"window":               "Open {0} window: {1}",
		"todo.keep":            "choose the cards you keep",
		"todo.faction":         "choose your faction",
		"todo.turn":            "take an action",
		"todo.challenge":       "challenge or allow the claim",
		"todo.block":           "block or allow the action",
		"todo.block-challenge": "challenge or allow the block",
		"todo.answer":          "reveal a card to answer the challenge",
		"todo.lose":            "choose the influence you lose",
		"todo.exchange":        "choose the cards you keep from the exchange",
		"todo.show":            "show a card to the inquisitor",
		"todo.examine":         "return the card or make the player change it",
	}
	for i, name := range charNames() {
		if name != "" {
			c["card."+name] = charTitles()[i]
		}
	}
	for _, id := range actIDs() {
		if id != "" {
			c["action."+id] = id
		}
	}
	c["action.aid"] = "foreign aid"
	for _, w := range windowNames() {
		c["window."+w] = w
	}
	for st, words := range map[string]string{
		"keep": "choosing the cards to keep", "deal": "dealing", "faction": "choosing factions",
		"turn": "an action to take", "challenge": "the claim may be challenged", "block": "the action may be blocked",
		"block-challenge": "the block may be challenged", "answer": "the challenged player answers",
		"lose": "a player loses influence", "replace": "a revealed card is replaced", "resolve": "the action is resolved",
		"exchange": "the exchange", "show": "a card is shown to the inquisitor", "examine": "the inquisitor decides",
		"over": "the game is over",
	} {
		c["stage."+st] = words
	}
	c["wins"] = "{0} wins the game"
	return c
}()

// Words is the English of Coup's boards.
func (Rules) Words() games.Catalog { return allWords }

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
			what = games.T("claiming", what, charName(a.Claim))
		}
		if a.Blocker != nil {
			what = games.T("blocks", what, name(*a.Blocker), charName(a.Block))
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

// charName is a character's name in the catalog.
func charName(c Char) games.Text { return games.T("card." + c.String()) }

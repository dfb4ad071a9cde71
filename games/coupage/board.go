package coupage

import (
	"embed"
	"encoding/json"
	"strconv"

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

// Board lays out the table from one seat's view: the market, the decks, the
// seat's own hand and every player's cellar of barrels.
func (Rules) Board(raw json.RawMessage) (games.Board, error) {
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return games.Board{}, err
	}
	card := namer(v)
	b := games.Board{Viewer: v.Seat, Players: v.Players}
	if v.Seat < 0 || int(v.Seat) >= len(v.Players) {
		b.Viewer = games.Spectator
	}
	var harvest *games.Pile
	switch h := v.Harvest; {
	case v.Over:
	case h != nil && h.Next >= 0 && h.Next < len(h.Order):
		b.Turn, b.TurnTag = []games.Seat{h.Order[h.Next]}, games.T("to_pick")
		pile := games.Pile{Label: games.T("harvest")}
		for _, c := range h.Cards {
			pile.Cards = append(pile.Cards, card(c))
		}
		harvest = &pile
	case v.Active >= 0 && int(v.Active) < len(v.Players):
		b.Turn, b.TurnTag = []games.Seat{v.Active}, games.T("to_act")
		if !v.Drawn {
			b.TurnTag = games.T("to_draw")
		}
	}
	if v.Over {
		b.Sections = append(b.Sections, games.Section{Notes: []games.Note{{Text: result(v), Emphasis: true}}})
	}

	table := games.Section{}
	market := games.Pile{Label: games.T("market"), Empty: games.T("state.empty")}
	for _, c := range v.Market {
		if c != "" {
			market.Cards = append(market.Cards, card(c))
		}
	}
	table.Piles = append(table.Piles, market)
	if harvest != nil {
		table.Piles = append(table.Piles, *harvest)
	}
	table.Counters = append(table.Counters, games.Counter{Text: games.T("deck", v.DeckSize), Value: v.DeckSize})
	if n := len(v.Discard); n > 0 {
		table.Counters = append(table.Counters, games.Counter{Text: games.T("discard_top", n, card(v.Discard[n-1]).Name), Value: n})
	} else {
		table.Counters = append(table.Counters, games.Counter{Text: games.T("discard", 0)})
	}
	table.Counters = append(table.Counters, games.Counter{Text: games.T("cava_left", v.CavaLeft), Value: v.CavaLeft})
	if v.ActionsLeft > 0 && !v.Over {
		table.Counters = append(table.Counters, games.Counter{Text: games.T("actions", v.ActionsLeft), Value: v.ActionsLeft})
	}
	if len(v.Hand) > 0 {
		hand := games.Pile{Label: games.T("your_hand"), Owner: new(v.Seat)}
		for _, c := range v.Hand {
			hand.Cards = append(hand.Cards, card(c))
		}
		table.Piles = append(table.Piles, hand)
	}
	b.Sections = append(b.Sections, table)

	cellars := games.Section{}
	for i, name := range v.Players {
		a := games.Area{Seat: games.Seat(i), Title: games.T("cellar", ofName(name))}
		if i < len(v.Resigned) {
			a.Out = v.Resigned[i]
		}
		hand, bottled := 0, 0
		if i < len(v.HandSizes) {
			hand = v.HandSizes[i]
		}
		if i < len(v.Barrels) {
			for _, br := range v.Barrels[i] {
				if br.State == Bottled {
					bottled++
				}
				label := games.T("barrel", br.Number, games.T("state."+br.State))
				if br.Wine != "" {
					label = games.T("barrel_wine", br.Number, games.T("state."+br.State), wineName(v, br.Wine))
				}
				if br.Ready {
					label = games.T("ready", label)
				}
				if br.Spoil > 0 {
					label = games.T("spoiling", label)
				}
				pile := games.Pile{Label: label}
				for _, g := range br.Grapes {
					pile.Cards = append(pile.Cards, card(g))
				}
				for _, t := range br.Time {
					switch {
					case !t.FaceDown:
						pile.Cards = append(pile.Cards, games.Card{Name: games.T("time"), Face: games.Up})
					case t.Card != "":
						pile.Cards = append(pile.Cards, games.Card{Name: card(t.Card).Name, Face: games.Down})
					default:
						pile.Cards = append(pile.Cards, games.Card{Face: games.Down})
					}
				}
				a.Piles = append(a.Piles, pile)
			}
		}
		a.Counters = []games.Counter{
			{Text: games.T("hand_size", hand), Value: hand},
			{Text: games.T("bottled", bottled), Value: bottled},
		}
		cellars.Areas = append(cellars.Areas, a)
	}
	b.Sections = append(b.Sections, cellars)
	return b, nil
}

// wineName is a wine by its name in the view's data set ("Cava rosé").
func wineName(v View, code string) string {
	a := boardAids[v.Options["aid_tables"]]
	if a == nil {
		a = boardAids["house"]
	}
	if w, ok := a.wine(code); ok {
		return w.Name
	}
	return code
}

// boardAids are the data sets by name, for the cards' names on boards.
var boardAids = mustAids()

// namer is card for one game's data set (the view's option aid_tables).
func namer(v View) func(string) games.Card {
	a := boardAids[v.Options["aid_tables"]]
	if a == nil {
		a = boardAids["house"]
	}
	return func(code string) games.Card { return card(a, code) }
}

// card is a card of the deck by its name, as the moves name it ("Macabeu
// ★★", "Vin piqué"); the Time card by the catalog's word; a grape has its
// variety's colour.
func card(a *Aid, code string) games.Card {
	if code == timeCard {
		return games.Card{Name: games.T("time"), Face: games.Up}
	}
	out := games.Card{Name: games.Plain(code), Face: games.Up}
	if a != nil {
		out.Name = games.Plain(a.cardName(code))
		switch a.colour[code] {
		case "red":
			out.Colour = "red"
		case "white":
			out.Colour = "yellow"
		}
	}
	return out
}

// result is the end of the game in words, as the view tells it.
func result(v View) games.Text {
	if len(v.Winners) == 0 {
		return games.T("over")
	}
	return won(v.Players, v.Winners, v.Resigned)
}

// won says who won and how: with 2 wines and 1 cava bottled (CP-6), or
// as the last player left in the game (CP-42).
func won(players []string, winners []games.Seat, resigned []bool) games.Text {
	names := make([]any, len(winners))
	for i, w := range winners {
		names[i] = strconv.Itoa(int(w))
		if w >= 0 && int(w) < len(players) {
			names[i] = players[w]
		}
	}
	left := 0
	for _, r := range resigned {
		if r {
			left++
		}
	}
	if left == len(players)-1 {
		return games.T("wins_left", games.List(names...))
	}
	return games.T("wins", games.List(names...))
}

package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A board is what one seat sees of the table, laid out by the game: its
// sections, cards, tokens, whose turn and the scores. A game builds it from
// a seat's view (the JSON its View made for that seat) and nothing else, so
// a board never shows what the seat may not see. The web draws a board and
// mail tells it, both generically: no door knows a game's view.
//
// Every word on a board is a [Text]: a message key of the game's
// [Catalog] with its arguments, never an English sentence, so that another
// language is one more catalog.

// ErrNoBoard is returned by [Engine.Board] for a game that draws no board.
var ErrNoBoard = errors.New("games: this game draws no board")

// Boards is what a game that draws a board adds to its [Rules]: the board
// of a seat's view and the words it uses. [Adapt] passes it on; a game
// without it has [ErrNoBoard].
type Boards interface {
	// Board lays out the table from view, the JSON that View made for one
	// seat (or the spectator); it reads nothing else.
	Board(view json.RawMessage) (Board, error)
	// Words is the game's English catalog: every key its boards use.
	Words() *Catalog
}

// Board is the table as one seat sees it (see the package's comment on
// boards).
type Board struct {
	// Viewer is the seat whose view the board was built from (Spectator for
	// the public's).
	Viewer Seat `json:"viewer"`
	// Players are the players' names by seat.
	Players []string `json:"players"`
	// Turn lists the seats that may act now (empty when the game is over or
	// between turns).
	Turn []Seat `json:"turn,omitempty"`
	// TurnTag is what acting means in this game ("to bid"); zero: "turn".
	TurnTag Text `json:"turn_tag,omitzero"`
	// Sections are the board's parts, in the order they are shown.
	Sections []Section `json:"sections"`
	// Scores are the standings when the game keeps them, best first; each
	// is also shown in a section, so a drawing may leave them out.
	Scores []Score `json:"scores,omitempty"`
}

// Section is one part of the board: the table's centre, the seats side by
// side, a score sheet. A drawing shows its parts in the order of the fields.
type Section struct {
	// Title heads the section; zero for none.
	Title Text `json:"title,omitzero"`
	// Counters are the section's numbers, told on one line: the deck's
	// size, actions left.
	Counters []Counter `json:"counters,omitempty"`
	// Notes are lines of words about the section.
	Notes []Note `json:"notes,omitempty"`
	// Piles are rows of cards: a hand, the cards on the table, a barrel.
	Piles []Pile `json:"piles,omitempty"`
	// Areas are the seats' places, drawn side by side.
	Areas []Area `json:"areas,omitempty"`
	// Table is a grid: number series, a score sheet, players by column.
	Table *Table `json:"table,omitempty"`
}

// Area is one seat's place at the table.
type Area struct {
	// Seat is whose place it is.
	Seat Seat `json:"seat"`
	// Title heads it; zero: the player's name.
	Title Text `json:"title,omitzero"`
	// Out tells that the seat is out of the game (eliminated or resigned).
	Out bool `json:"out,omitempty"`
	// Counters are the seat's numbers: coins, tokens, cards in hand.
	Counters []Counter `json:"counters,omitempty"`
	// Piles are the seat's cards.
	Piles []Pile `json:"piles,omitempty"`
	// Notes are further lines of words.
	Notes []Note `json:"notes,omitempty"`
}

// Counter is a number with its words: Text is the whole phrase, its first
// argument Value ("{0} coins"), and Token names what a drawing may show
// Value of ("coin"); empty for a plain number.
type Counter struct {
	Text  Text   `json:"text"`
	Value int    `json:"value"`
	Token string `json:"token,omitempty"`
}

// Note is a line of words; Emphasis marks the one that matters now (an open
// window, the game's result).
type Note struct {
	Text     Text `json:"text"`
	Emphasis bool `json:"emphasis,omitempty"`
}

// Pile is a row of cards with its label.
type Pile struct {
	// Label names the pile ("Your hand", "Barrel 2: in production"); zero
	// for none.
	Label Text `json:"label,omitzero"`
	// Owner is the seat whose hidden cards these are (a hand), nil for
	// cards every seat sees the same way.
	Owner *Seat `json:"owner,omitempty"`
	// Cards are the cards, in order.
	Cards []Card `json:"cards"`
	// Empty is said when there is no card; zero: the label alone (and an
	// empty pile without a label is not shown).
	Empty Text `json:"empty,omitzero"`
}

// Face is how a card lies as the viewer sees it.
type Face string

// The faces of a card.
const (
	// Up: the viewer sees the card.
	Up Face = "up"
	// Down: a card face down; the viewer knows it only when it has a Name
	// (one's own face-down card).
	Down Face = "down"
	// Spent: shown face up but out of play (lost influence, a revealed card).
	Spent Face = "spent"
)

// Card is a card, tile or feather.
type Card struct {
	// Name is the card in words ("the 9 of clubs", "Duke"); zero for a card
	// face down the viewer does not know.
	Name Text `json:"name,omitzero"`
	// Short is what is printed on the card's face ("9♣", "+15"); zero: Name.
	Short Text `json:"short,omitzero"`
	// Face is how it lies.
	Face Face `json:"face"`
	// Colour is a drawing hint: a suit's or a series' colour ("red",
	// "green", "yellow"); empty for none.
	Colour string `json:"colour,omitempty"`
}

// Table is a grid with headings.
type Table struct {
	Caption Text   `json:"caption"`
	Head    []Text `json:"head"`
	Rows    []Row  `json:"rows"`
	// TellRows is how many of the last rows Tell says (a mail tells the
	// latest deals of a long score sheet); 0: every row.
	TellRows int `json:"tell_rows,omitempty"`
}

// Row is a row of a table: its heading cell, then its cells.
type Row struct {
	Head Text `json:"head"`
	// Seat is the seat the row is about, nil for none.
	Seat *Seat `json:"seat,omitempty"`
	// Colour is a drawing hint, as on a card.
	Colour string `json:"colour,omitempty"`
	Cells  []Cell `json:"cells"`
}

// Cell is one cell of a row; Mark says it is filled (a placed tile of a
// number series). A zero Text is an empty cell.
type Cell struct {
	Text Text `json:"text,omitzero"`
	Mark bool `json:"mark,omitempty"`
}

// Score is one line of the standings: a seat or a team (Seats), its name
// (zero: the seat's player) and the score in words ("capital 120").
type Score struct {
	Seats []Seat `json:"seats"`
	Name  Text   `json:"name,omitzero"`
	Text  Text   `json:"text"`
}

// Texts lists every text of b, arguments included, for checks such as
// [Catalog.Check].
func (b Board) Texts() []Text {
	var out []Text
	add := func(ts ...Text) {
		for _, t := range ts {
			if !t.IsZero() {
				out = append(out, t)
			}
		}
	}
	piles := func(ps []Pile) {
		for _, p := range ps {
			add(p.Label, p.Empty)
			for _, c := range p.Cards {
				add(c.Name, c.Short)
			}
		}
	}
	notes := func(ns []Note) {
		for _, n := range ns {
			add(n.Text)
		}
	}
	add(b.TurnTag)
	for _, s := range b.Sections {
		add(s.Title)
		for _, c := range s.Counters {
			add(c.Text)
		}
		notes(s.Notes)
		piles(s.Piles)
		for _, a := range s.Areas {
			add(a.Title)
			for _, c := range a.Counters {
				add(c.Text)
			}
			piles(a.Piles)
			notes(a.Notes)
		}
		if t := s.Table; t != nil {
			add(t.Caption)
			add(t.Head...)
			for _, r := range t.Rows {
				add(r.Head)
				for _, c := range r.Cells {
					add(c.Text)
				}
			}
		}
	}
	for _, s := range b.Scores {
		add(s.Name, s.Text)
	}
	return out
}

// Check builds nothing: it checks that every text of b is said exactly by
// words (see [Catalog.Check]) and that every seat b names is one of its
// players.
func (b Board) Check(words Words) error {
	for _, t := range b.Texts() {
		if err := words.Check(t); err != nil {
			return err
		}
	}
	seat := func(s Seat, what string) error {
		if s < 0 || int(s) >= len(b.Players) {
			return fmt.Errorf("games: the board names seat %d (%s) but has %d players", s, what, len(b.Players))
		}
		return nil
	}
	if b.Viewer != Spectator {
		if err := seat(b.Viewer, "viewer"); err != nil {
			return err
		}
	}
	for _, s := range b.Turn {
		if err := seat(s, "turn"); err != nil {
			return err
		}
	}
	for _, sec := range b.Sections {
		for _, a := range sec.Areas {
			if err := seat(a.Seat, "area"); err != nil {
				return err
			}
			for _, p := range a.Piles {
				if p.Owner != nil {
					if err := seat(*p.Owner, "pile"); err != nil {
						return err
					}
				}
			}
		}
		for _, p := range sec.Piles {
			if p.Owner != nil {
				if err := seat(*p.Owner, "pile"); err != nil {
					return err
				}
			}
		}
		if t := sec.Table; t != nil {
			for _, r := range t.Rows {
				if r.Seat != nil {
					if err := seat(*r.Seat, "row"); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, s := range b.Scores {
		for _, x := range s.Seats {
			if err := seat(x, "score"); err != nil {
				return err
			}
		}
	}
	return nil
}

// Name is the player at seat s, or "?" for a seat the board does not seat.
func (b Board) Name(s Seat) string {
	if s >= 0 && int(s) < len(b.Players) {
		return b.Players[s]
	}
	return "?"
}

// Tell writes b as lines of plain words in words' language: for a screen
// reader, a text browser or a mail. The first line says whose turn it is
// and, with the board's TurnTag, what they are to do; then each section in
// a line or a few: its title with its cards, its numbers, its notes, each
// seat's place ("Ana (you, out): …"), a table's rows (its last TellRows);
// then the standings. Cards face down that the viewer does not know are
// told as such.
func (b Board) Tell(words Words) []string {
	say := words.Must
	var lines []string
	line := func(s string) { lines = sentence(lines, s) }
	if len(b.Turn) > 0 {
		names := make([]any, len(b.Turn))
		for i, s := range b.Turn {
			names[i] = b.Name(s)
			if s == b.Viewer {
				names[i] = T("board.tagged", b.Name(s), T("board.you_tag"))
			}
		}
		if b.TurnTag.IsZero() {
			line(say(T("board.turn_of", List(names...))))
		} else {
			line(say(T("board.turn_of_tag", List(names...), b.TurnTag)))
		}
	}
	for _, s := range b.Sections {
		lines = append(lines, b.tellSection(s, say)...)
	}
	if len(b.Scores) > 0 {
		parts := make([]any, len(b.Scores))
		for i, s := range b.Scores {
			var name any = "?"
			switch {
			case !s.Name.IsZero():
				name = s.Name
			case len(s.Seats) > 0:
				name = b.Name(s.Seats[0])
			}
			parts[i] = T("board.score", name, s.Text)
		}
		line(say(T("board.labelled", T("board.scores"), joined("board.semicolons", parts))))
	}
	return lines
}

// sentence appends s to lines as a sentence (a full stop added unless it
// ends one already); an empty s adds nothing.
func sentence(lines []string, s string) []string {
	if s == "" {
		return lines
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return append(lines, s)
}

// tellSection is Tell of one section.
func (b Board) tellSection(s Section, say func(Text) string) []string {
	var lines []string
	line := func(s string) { lines = sentence(lines, s) }
	cards := func(cs []Card) string {
		out := make([]string, len(cs))
		for i, c := range cs {
			switch {
			case c.Face == Down && c.Name.IsZero():
				out[i] = say(T("board.face_down"))
			case c.Face == Down:
				out[i] = say(T("board.known", c.Name))
			case c.Face == Spent:
				out[i] = say(T("board.spent", c.Name))
			default:
				out[i] = say(c.Name)
			}
		}
		return strings.Join(out, ", ")
	}
	pile := func(p Pile) string {
		what := cards(p.Cards)
		if len(p.Cards) == 0 {
			what = ""
			if !p.Empty.IsZero() {
				what = say(p.Empty)
			}
		}
		switch {
		case p.Label.IsZero():
			return what
		case what == "":
			return say(p.Label)
		}
		return say(T("board.labelled", p.Label, what))
	}
	piles := s.Piles
	if !s.Title.IsZero() {
		// The title heads the first pile when it has no label of its own:
		// "On the table: no card yet".
		title := say(s.Title)
		if len(piles) > 0 && piles[0].Label.IsZero() && pile(piles[0]) != "" {
			title = say(T("board.labelled", s.Title, pile(piles[0])))
			piles = piles[1:]
		}
		line(title)
	}
	// semicolons joins parts with the language's semicolon ("; ", " ; ").
	semicolons := func(parts []string) string {
		items := make([]any, len(parts))
		for i, p := range parts {
			items[i] = p
		}
		return say(joined("board.semicolons", items))
	}
	if len(s.Counters) > 0 {
		parts := make([]string, len(s.Counters))
		for i, c := range s.Counters {
			parts[i] = say(c.Text)
		}
		line(semicolons(parts))
	}
	for _, n := range s.Notes {
		line(say(n.Text))
	}
	for _, p := range piles {
		line(pile(p))
	}
	for _, a := range s.Areas {
		var head any = b.Name(a.Seat)
		if !a.Title.IsZero() {
			head = a.Title
		}
		var tags []any
		if a.Seat == b.Viewer {
			tags = append(tags, T("board.you_tag"))
		}
		if a.Out {
			tags = append(tags, T("board.out"))
		}
		if len(tags) > 0 {
			head = T("board.tagged", head, joined("board.commas", tags))
		}
		var parts []string
		for _, c := range a.Counters {
			parts = append(parts, say(c.Text))
		}
		for _, p := range a.Piles {
			if l := pile(p); l != "" {
				parts = append(parts, l)
			}
		}
		for _, n := range a.Notes {
			parts = append(parts, say(n.Text))
		}
		if len(parts) == 0 {
			line(say(toText(head)))
			continue
		}
		line(say(T("board.labelled", head, semicolons(parts))))
	}
	if t := s.Table; t != nil {
		line(say(t.Caption))
		rows := t.Rows
		if t.TellRows > 0 && len(rows) > t.TellRows {
			rows = rows[len(rows)-t.TellRows:]
		}
		for _, r := range rows {
			var cells []string
			for i, c := range r.Cells {
				if c.Text.IsZero() {
					continue
				}
				cell := say(c.Text)
				if i+1 < len(t.Head) && !t.Head[i+1].IsZero() && say(t.Head[i+1]) != cell {
					cell = say(T("board.labelled", t.Head[i+1], cell))
				}
				cells = append(cells, cell)
			}
			told := strings.Join(cells, ", ")
			for _, c := range cells {
				if strings.Contains(c, ", ") {
					told = semicolons(cells) // cells that hold lists of their own
				}
			}
			line(say(T("board.labelled", r.Head, told)))
		}
	}
	return lines
}

// joined is items as one text, each pair joined by key's pattern ("{0},
// {1}"), nested from the right.
func joined(key string, items []any) Text {
	switch len(items) {
	case 0:
		return T("board.nothing")
	case 1:
		return toText(items[0])
	}
	return T(key, items[0], joined(key, items[1:]))
}

// toText is a name or a text as a text.
func toText(v any) Text {
	if t, ok := v.(Text); ok {
		return t
	}
	return Plain(v)
}

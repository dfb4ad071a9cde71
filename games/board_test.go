package games_test

import (
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

var testWords = games.CatalogOf("en", map[string]string{
	"coins.one":   "{0} coin",
	"coins.other": "{0} coins",
	"bid":         "{1} bids {0}",
	"card":        "{0} of {1}",
	"rank.k":      "King",
	"suit.h":      "hearts",
	"lonely":      "nobody",
	"broken":      "{0} and {",
})

// A board's words are said from the game's catalog: arguments placed by
// number in any order, nested texts said in turn, names as they are, the
// plural form chosen by the first number, and the words all boards share.
func TestBoardCatalogSays(t *testing.T) {
	for _, c := range []struct {
		text games.Text
		want string
	}{
		{games.T("coins", 1), "1 coin"},
		{games.T("coins", 0), "0 coins"},
		{games.T("coins", 7), "7 coins"},
		{games.T("bid", 14, "Ana"), "Ana bids 14"},
		{games.T("card", games.T("rank.k"), games.T("suit.h")), "King of hearts"},
		{games.Plain("Zoé"), "Zoé"},
		{games.Plain(12), "12"},
		{games.T("board.you"), "(you)"},
		{games.List("Ana"), "Ana"},
		{games.List("Ana", "Bob"), "Ana and Bob"},
		{games.List("Ana", "Bob", games.T("rank.k")), "Ana, Bob and King"},
		{games.List(), "nothing"},
	} {
		got, err := testWords.In("en").Say(c.text)
		if err != nil || got != c.want {
			t.Errorf("Say(%v) = %q, %v; want %q", c.text, got, err, c.want)
		}
		if err := testWords.In("en").Check(c.text); err != nil {
			t.Errorf("Check(%v) = %v", c.text, err)
		}
	}
}

// Check refuses what a translation could not say right: an unknown key,
// an argument the pattern does not place or a place with no argument, a
// value that is not a name, a number or a text, plural forms without a
// number, a malformed pattern.
func TestBoardCatalogChecks(t *testing.T) {
	for _, text := range []games.Text{
		games.T("nope"),
		games.T("lonely", "Ana"),
		games.T("bid", 14),
		games.T("card", games.T("rank.k"), games.T("suit.x")),
		games.T("coins", "many"),
		games.T("coins", 2.5),
		games.T("broken", "x"),
		{Args: []any{"a", "b"}},
	} {
		if err := testWords.In("en").Check(text); err == nil {
			t.Errorf("Check(%v) passed", text)
		}
	}
	if s := testWords.In("en").Must(games.T("nope")); !strings.Contains(s, "nope") {
		t.Errorf("Must of an unknown key = %q, want the error in place", s)
	}
}

// A board is checked whole (every text, every seat it names) and told in
// words: whose turn, each seat's place with the viewer's marked, face-down
// cards as such, tables by row, the scores.
func TestBoardCheckAndTell(t *testing.T) {
	you := games.Seat(0)
	b := games.Board{
		Viewer:  0,
		Players: []string{"Ana", "Bob"},
		Turn:    []games.Seat{1},
		Sections: []games.Section{
			{Counters: []games.Counter{{Text: games.T("coins", 3), Value: 3}}},
			{Areas: []games.Area{
				{Seat: 0, Piles: []games.Pile{{Owner: &you, Cards: []games.Card{{Name: games.T("rank.k"), Face: games.Up}}}}},
				{Seat: 1, Out: true, Piles: []games.Pile{{Cards: []games.Card{{Face: games.Down}, {Name: games.T("rank.k"), Face: games.Spent}}}}},
			}},
			{Table: &games.Table{Caption: games.Plain("Sheet"), Head: []games.Text{games.Plain("Deal"), games.Plain("A")},
				Rows: []games.Row{{Head: games.Plain(1), Cells: []games.Cell{{Text: games.T("coins", 2)}}}}}},
		},
		Scores: []games.Score{{Seats: []games.Seat{1}, Text: games.T("coins", 1)}},
	}
	if err := b.Check(testWords.In("en")); err != nil {
		t.Fatal(err)
	}
	told := strings.Join(b.Tell(testWords.In("en")), " ")
	want := "Whose turn: Bob. 3 coins. Ana (you): King. Bob (out): a face-down card, King (lost). Sheet. 1: A: 2 coins. Standings: Bob, 1 coin."
	if told != want {
		t.Errorf("Tell =\n%s\nwant\n%s", told, want)
	}
	b.Turn = []games.Seat{2}
	if err := b.Check(testWords.In("en")); err == nil {
		t.Error("a board naming seat 2 of two players passed")
	}
}

// Tell says what the turn is for (the board's TurnTag) and marks the
// viewer among those to act, heads a section's first unlabelled pile with
// its title, tags a seat that is the viewer and out in one bracket, tells
// only a table's last TellRows rows, ends each line in one full stop and
// gives each standing its name.
func TestTellSaysTheTurnTitlesAndLastRows(t *testing.T) {
	words := games.CatalogOf("en", map[string]string{
		"to_bid": "to bid", "hand": "Your hand", "none": "no card yet.", "sheet": "Sheet", "deal": "Deal {0}",
		"team": "Team {0}", "needs": "needs {0}",
	})
	rows := []games.Row{}
	for i := 1; i <= 4; i++ {
		rows = append(rows, games.Row{Head: games.T("deal", i), Cells: []games.Cell{{Text: games.T("needs", 5-i)}}})
	}
	for _, c := range []struct {
		name  string
		board games.Board
		want  string
	}{
		{"the viewer's turn, with what it is for", games.Board{Viewer: 1, Players: []string{"Ana", "Bob"}, Turn: []games.Seat{0, 1}, TurnTag: games.T("to_bid")},
			"Whose turn: Ana and Bob (you), to bid."},
		{"a title heads its first unlabelled pile; one full stop", games.Board{Viewer: 0, Players: []string{"Ana"},
			Sections: []games.Section{{Title: games.T("hand"), Piles: []games.Pile{{Empty: games.T("none")}}}}},
			"Your hand: no card yet."},
		{"you and out in one bracket", games.Board{Viewer: 0, Players: []string{"Ana"},
			Sections: []games.Section{{Areas: []games.Area{{Seat: 0, Out: true}}}}},
			"Ana (you, out)."},
		{"the last rows of a table", games.Board{Viewer: games.Spectator, Players: []string{"Ana"},
			Sections: []games.Section{{Table: &games.Table{Caption: games.T("sheet"), Head: []games.Text{games.Plain("#"), games.Plain("A")}, Rows: rows, TellRows: 2}}}},
			"Sheet. Deal 3: A: needs 2. Deal 4: A: needs 1."},
		{"standings by name", games.Board{Viewer: games.Spectator, Players: []string{"Ana", "Bob"},
			Scores: []games.Score{{Seats: []games.Seat{1}, Name: games.T("team", "B"), Text: games.T("needs", 0)}, {Seats: []games.Seat{0}, Text: games.T("needs", 2)}}},
			"Standings: Team B, needs 0; Ana, needs 2."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.board.Check(words.In("en")); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.board.Tell(words.In("en")), " "); got != c.want {
				t.Errorf("Tell = %q, want %q", got, c.want)
			}
		})
	}
}

// ToDo says a pending kind in the game's words, or the kind itself with
// spaces when the catalog does not name it.
func TestToDoSaysAPendingKind(t *testing.T) {
	words := games.CatalogOf("en", map[string]string{"todo.turn": "bid higher or call Coyote"})
	for kind, want := range map[string]string{"turn": "bid higher or call Coyote", "block-challenge": "block challenge", "last_tile": "last tile"} {
		if got := games.ToDo(words.In("en"), kind); got != want {
			t.Errorf("ToDo(%q) = %q, want %q", kind, got, want)
		}
	}
}

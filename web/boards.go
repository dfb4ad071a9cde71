package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/draw"
)

// A game's board is drawn from a seat's view by the game itself: its
// package lays the table out as a games.Board (sections, seats, cards,
// counters, tables, in message keys of its catalog), built from that seat's
// view alone, so it holds nothing the seat may not see. Here the board's
// words are said in the game's catalog and the template "board" draws any
// game's board the same way; no code here knows a game. Every board is also
// told in words (games.Board.Tell), for screen readers and text browsers,
// and drawn as a picture (package games/draw's SVG) above the lists, which
// fold away under it.

// board renders the board of a game of kind from seat's view (seat -1: the
// public's), in lang: the game's words and web's around them.
func (h *Handler) board(kind string, seat int, view json.RawMessage, lang string) (template.HTML, string, error) {
	eng, err := h.cfg.Play.Registry().Get(kind)
	if err != nil {
		return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
	}
	b, err := eng.Board(view)
	if err != nil {
		return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
	}
	words := eng.Words().In(lang)
	model := drawBoard(kind, b, words, games.Seat(seat))
	for _, d := range []struct {
		width int
		class string
		out   *template.HTML
	}{{drawingWide, "wide", &model.Wide}, {drawingNarrow, "narrow", &model.Narrow}} {
		pic, err := draw.Draw(b, words, draw.Options{Width: d.width})
		if err != nil {
			return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
		}
		// aria-hidden: the page says the board in words next to it.
		*d.out = template.HTML(pic.SVG(draw.SVG{Class: d.class})) //nolint:gosec // G203: package draw escapes every word it writes
	}
	var out bytes.Buffer
	if err := h.pagesIn(lang)["boards"].ExecuteTemplate(&out, "board", model); err != nil {
		return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
	}
	return template.HTML(out.String()), strings.Join(b.Tell(words), " "), nil //nolint:gosec // G203: html/template wrote and escaped it
}

// The widths the board is drawn at: the wide drawing for a desk (shown at
// its size, narrower when the page is), the narrow one for a phone, where
// the seats' places stand one under another.
const (
	drawingWide   = 760
	drawingNarrow = 360
)

// The board as the template draws it: every word said, every mark decided.
type (
	boardModel struct {
		Kind string // the game's id, a class for its style
		// Wide and Narrow are the board drawn (SVG) for a desk and a phone.
		Wide, Narrow template.HTML
		Sections     []sectionModel
		Words        boardWords
	}
	sectionModel struct {
		Title    string
		Counters string // "2 coins · 2 influence"
		Notes    []noteModel
		Piles    []pileModel
		Areas    []areaModel
		Table    *tableModel
	}
	noteModel struct {
		Text     string
		Emphasis bool
	}
	areaModel struct {
		Title          string
		You, Turn, Out bool
		Counters       string
		Piles          []pileModel
		Notes          []noteModel
	}
	pileModel struct {
		Label, Empty string
		Mine         bool // the viewer's own hand
		Cards        []cardModel
	}
	cardModel struct {
		Face   string // up, down or lost: the card's class
		Colour string
		Short  string // printed on the card
		Name   string // the card in words, when Short is not
	}
	tableModel struct {
		Caption string
		Series  bool // cells marked in a grid of numbers
		Head    []string
		Rows    []rowModel
	}
	rowModel struct {
		Head      string
		Colour    string
		You, Turn bool
		Cells     []cellModel
	}
	cellModel struct {
		Text string
		Mark bool
	}
	// boardWords are the words the template writes around a board's own.
	boardWords struct {
		You, Turn, Out, Empty string
	}
)

// drawBoard says b's words in words and marks the viewer's and the acting
// seats.
func drawBoard(kind string, b games.Board, words games.Words, viewer games.Seat) boardModel {
	say := words.Must
	turnTag := say(games.T("board.turn"))
	if !b.TurnTag.IsZero() {
		turnTag = say(b.TurnTag)
	}
	counters := func(cs []games.Counter) string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = say(c.Text)
		}
		return strings.Join(out, " · ")
	}
	notes := func(ns []games.Note) []noteModel {
		out := make([]noteModel, len(ns))
		for i, n := range ns {
			out[i] = noteModel{Text: say(n.Text), Emphasis: n.Emphasis}
		}
		return out
	}
	text := func(t games.Text) string {
		if t.IsZero() {
			return ""
		}
		return say(t)
	}
	piles := func(ps []games.Pile) []pileModel {
		var out []pileModel
		for _, p := range ps {
			if len(p.Cards) == 0 && p.Label.IsZero() && p.Empty.IsZero() {
				continue
			}
			pm := pileModel{Label: text(p.Label), Empty: text(p.Empty)}
			for _, c := range p.Cards {
				cm := cardModel{Face: string(c.Face), Colour: c.Colour, Short: text(c.Short), Name: text(c.Name)}
				switch {
				case c.Face == games.Down && c.Name.IsZero():
					cm.Short, cm.Name = "?", say(games.T("board.face_down"))
				case c.Face == games.Down:
					cm.Short, cm.Name = say(games.T("board.known", c.Name)), ""
				case c.Face == games.Spent:
					cm.Face, cm.Name = "lost", say(games.T("board.spent", c.Name))
					if cm.Short == "" {
						cm.Short = text(c.Name)
					}
				case cm.Short == "":
					cm.Short, cm.Name = cm.Name, ""
				}
				if c.Face == games.Up && p.Owner != nil && *p.Owner == viewer {
					pm.Mine = true
				}
				pm.Cards = append(pm.Cards, cm)
			}
			out = append(out, pm)
		}
		return out
	}
	m := boardModel{Kind: kind, Words: boardWords{You: say(games.T("board.you")), Turn: turnTag,
		Out: say(games.T("board.out")), Empty: say(games.T("board.empty"))}}
	for _, s := range b.Sections {
		sm := sectionModel{Title: text(s.Title), Counters: counters(s.Counters), Notes: notes(s.Notes), Piles: piles(s.Piles)}
		for _, a := range s.Areas {
			am := areaModel{Title: b.Name(a.Seat), You: a.Seat == viewer, Turn: slices.Contains(b.Turn, a.Seat), Out: a.Out,
				Counters: counters(a.Counters), Piles: piles(a.Piles), Notes: notes(a.Notes)}
			if !a.Title.IsZero() {
				am.Title = say(a.Title)
			}
			sm.Areas = append(sm.Areas, am)
		}
		if t := s.Table; t != nil {
			tm := &tableModel{Caption: text(t.Caption)}
			for _, h := range t.Head {
				tm.Head = append(tm.Head, text(h))
			}
			for _, r := range t.Rows {
				rm := rowModel{Head: text(r.Head), Colour: r.Colour}
				if r.Seat != nil {
					rm.You, rm.Turn = *r.Seat == viewer, slices.Contains(b.Turn, *r.Seat)
				}
				for _, c := range r.Cells {
					rm.Cells = append(rm.Cells, cellModel{Text: text(c.Text), Mark: c.Mark})
					tm.Series = tm.Series || c.Mark
				}
				tm.Rows = append(tm.Rows, rm)
			}
			sm.Table = tm
		}
		m.Sections = append(m.Sections, sm)
	}
	return m
}

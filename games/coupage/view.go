package coupage

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// TimeView is a Time card as a seat sees it: a face-down card shows its Card
// only to the seat that put it there, and to everyone once the game is over.
type TimeView struct {
	FaceDown bool   `json:"face_down,omitempty"`
	Card     string `json:"card,omitempty"`
}

// BarrelView is a barrel as everyone sees it (face-down cards aside).
type BarrelView struct {
	Number   int        `json:"number"`
	State    string     `json:"state"`
	Wine     string     `json:"wine,omitempty"`
	Grapes   []string   `json:"grapes,omitempty"`
	Time     []TimeView `json:"time,omitempty"`
	FaceDown int        `json:"face_down,omitempty"`
	Complete bool       `json:"complete,omitempty"`
	Ready    bool       `json:"ready,omitempty"`
	Spoil    int        `json:"spoil,omitempty"`
	Cava     bool       `json:"cava,omitempty"`
}

// View is what one seat may see (section 5).
type View struct {
	Seat games.Seat `json:"seat"`
	// Rules is the rules version the game is played under.
	Rules int `json:"rules_version"`
	// IdleTurns counts the turns since a barrel was last made, repaired or
	// bottled (rules version 2, CP-51).
	IdleTurns   int            `json:"idle_turns,omitempty"`
	Players     []string       `json:"players"`
	Options     games.Options  `json:"options"`
	Active      games.Seat     `json:"active"`
	Turn        int            `json:"turn"`
	Drawn       bool           `json:"drawn"`
	ActionsLeft int            `json:"actions_left"`
	Ability     string         `json:"ability,omitempty"`
	ExtraTurn   bool           `json:"extra_turn,omitempty"`
	Hand        []string       `json:"hand,omitempty"`
	HandSizes   []int          `json:"hand_sizes"`
	Hands       [][]string     `json:"hands,omitempty"` // every hand, at game end
	Market      [2]string      `json:"market"`
	DeckSize    int            `json:"deck_size"`
	Deck        []string       `json:"deck,omitempty"` // at game end
	Discard     []string       `json:"discard"`
	Barrels     [][]BarrelView `json:"barrels"`
	Harvest     *Harvest       `json:"harvest,omitempty"`
	CavaLeft    int            `json:"cava_left"`
	Resigned    []bool         `json:"resigned"`
	Over        bool           `json:"over,omitempty"`
	Winners     []games.Seat   `json:"winners,omitempty"`
	// End is why the game ended without a winner: "deadlock" (CP-50) or
	// "idle" (CP-51).
	End string `json:"end,omitempty"`
}

// View implements games.Rules.
func (Rules) View(s *State, seat games.Seat) any {
	if s.aid == nil {
		return View{Seat: seat}
	}
	v := View{
		Seat: seat, Rules: s.Rules, Players: slices.Clone(s.Players), Options: s.Options,
		Active: s.Turn.Seat, Turn: s.Turn.Number, Drawn: s.Turn.Drawn, ActionsLeft: s.Turn.Actions,
		Ability: s.Turn.Ability, ExtraTurn: s.Turn.Extra,
		Market: s.Market, DeckSize: len(s.Deck), Discard: slices.Clone(s.Discard),
		CavaLeft: s.CavaLeft, Resigned: slices.Clone(s.Resigned),
		Over: s.Over, Winners: slices.Clone(s.Winners), End: s.End,
	}
	if s.Rules >= rulesV2 {
		v.IdleTurns = s.Idle
	}
	// A player who left sees the public part only (CP-42).
	if seat >= 0 && int(seat) < len(s.Resigned) && s.Resigned[seat] && !s.Over {
		seat = games.Spectator
	}
	if v.Discard == nil {
		v.Discard = []string{}
	}
	v.HandSizes = make([]int, 0, len(s.Hands))
	v.Barrels = make([][]BarrelView, 0, len(s.Barrels))
	for i, h := range s.Hands {
		v.HandSizes = append(v.HandSizes, len(h))
		if games.Seat(i) == seat {
			v.Hand = slices.Clone(h)
		}
	}
	if s.Over {
		v.Hands = make([][]string, len(s.Hands))
		for i, h := range s.Hands {
			v.Hands[i] = slices.Clone(h)
		}
		v.Deck = slices.Clone(s.Deck)
	}
	// Every barrel, grape list and Time list of the view shares one backing
	// array per kind (a view is built for every seat after every move).
	nb, ng, nt := 0, 0, 0
	for _, bs := range s.Barrels {
		nb += len(bs)
		for _, b := range bs {
			ng += len(b.Grapes)
			nt += len(b.Time)
		}
	}
	cells := make([]BarrelView, 0, nb)
	grapes := make([]string, 0, ng)
	times := make([]TimeView, 0, nt)
	for _, bs := range s.Barrels {
		start := len(cells)
		for j, b := range bs {
			bv := BarrelView{Number: j + 1, State: b.State, Wine: b.Wine, Spoil: b.Spoil, Cava: b.Cava}
			var w Wine
			if b.State == Production {
				w, _ = s.aid.wine(b.Wine)
				bv.Complete = s.aid.matches(w, b.Grapes)
			}
			if b.Grapes != nil {
				g := len(grapes)
				grapes = append(grapes, b.Grapes...)
				bv.Grapes = grapes[g:len(grapes):len(grapes)]
			}
			if len(b.Time) > 0 {
				bv.Time = times[len(times) : len(times) : len(times)+len(b.Time)]
				times = times[:len(times)+len(b.Time)]
			}
			for _, t := range b.Time {
				tv := TimeView{FaceDown: t.FaceDown}
				if !t.FaceDown || t.Knower == seat || s.Over {
					tv.Card = t.Card
				}
				if t.FaceDown {
					bv.FaceDown++
				}
				bv.Time = append(bv.Time, tv)
			}
			bv.Ready = bv.Complete && b.Spoil == 0 && len(b.Time) >= w.Time
			cells = append(cells, bv)
		}
		v.Barrels = append(v.Barrels, cells[start:len(cells):len(cells)])
	}
	if h := s.Harvest; h != nil {
		c := *h
		c.Cards = slices.Clone(h.Cards)
		c.Order = slices.Clone(h.Order)
		v.Harvest = &c
	}
	return v
}

// Redact implements games.Rules: a seat's version of event e, which applies
// to s (section 5). A player who left sees the public part only (CP-42), as
// a spectator does.
func (Rules) Redact(s *State, e Event, seat games.Seat) Event {
	if seat >= 0 && int(seat) < len(s.Resigned) && s.Resigned[seat] && !s.Over {
		seat = games.Spectator
	}
	switch e.Type {
	case evShuffled:
		e.Cards = nil // the deck order is nobody's to see
	case evDrew:
		if seat != e.Seat {
			e.Cards = nil
		}
	case evStole:
		if seat != e.Seat && seat != e.Target {
			e.Card, e.Index = "", 0
		}
	case evAged, evRecovered:
		if e.FaceDown && seat != e.Seat {
			e.Card = ""
		}
	}
	return e
}

// Pending implements games.Rules (section 6).
func (Rules) Pending(s *State) []games.Pending {
	if s.aid == nil || s.Over {
		return nil
	}
	if h := s.Harvest; h != nil && h.Next < len(h.Order) && len(h.Cards) > 0 {
		return []games.Pending{{Seat: h.Order[h.Next], Kind: "pick", Rule: "CP-41", Default: "pick " + h.Cards[0]}}
	}
	return []games.Pending{{Seat: s.Turn.Seat, Kind: "turn", Rule: "CP-40", Default: "end"}}
}

// Result implements games.Rules. The summary is said from the winners, the
// reason of an end without a winner and the players who left, for the
// games recorded with an English summary in their last event too.
func (Rules) Result(s *State) games.Result {
	if !s.Over {
		return games.Result{}
	}
	var sum games.Text
	switch {
	case len(s.Winners) > 0:
		sum = won(s.Players, s.Winners, s.Resigned)
	case s.End == endDeadlock:
		sum = games.T("summary.deadlock")
	case s.End == endIdle:
		sum = games.T("summary.idle", idleRounds)
	default:
		sum = games.T("summary.over")
	}
	return games.Result{Finished: true, Winners: slices.Clone(s.Winners), Summary: words.Phrase(sum.Key, sum.Args...)}
}

// Players implements games.Rules: the player names by seat.
func (Rules) Players(s *State) []string { return slices.Clone(s.Players) }

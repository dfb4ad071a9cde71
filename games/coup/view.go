package coup

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// View is what one seat may see (section 5 of the rules file).
type View struct {
	Seat           int           `json:"seat"`
	Stage          string        `json:"stage"`
	Turn           int           `json:"turn"`
	Players        []PlayerView  `json:"players"`
	CourtSize      int           `json:"court_size"`
	Court          []Char        `json:"court,omitempty"` // at game end only
	Options        games.Options `json:"options"`
	FactionsPublic bool          `json:"factions_public,omitempty"`
	Action         *ActionView   `json:"action,omitempty"`
	Winner         *int          `json:"winner,omitempty"`
}

// PlayerView is one player as seen by the viewer.
type PlayerView struct {
	Name          string   `json:"name"`
	Coins         int      `json:"coins"`
	Influence     int      `json:"influence"`           // unrevealed cards
	Cards         []Char   `json:"cards,omitempty"`     // unrevealed: own, or all at game end
	Lost          []Char   `json:"lost,omitempty"`      // face up
	Set           []Char   `json:"set,omitempty"`       // 2-player setup: own set before keeping
	SetAside      []Char   `json:"set_aside,omitempty"` // 2-player setup: own, or all at game end
	SetAsideCount int      `json:"set_aside_count,omitempty"`
	Kept          bool     `json:"kept,omitempty"`
	FactionChosen bool     `json:"faction_chosen,omitempty"`
	Faction       string   `json:"faction,omitempty"` // "up"/"down" once public (own: once chosen)
	AutoAllow     []string `json:"auto_allow,omitempty"`
	Out           bool     `json:"out,omitempty"`
	Resigned      bool     `json:"resigned,omitempty"`
}

// ActionView is the turn in progress as seen by the viewer.
type ActionView struct {
	Actor      int    `json:"actor"`
	Action     string `json:"action,omitempty"`
	Target     *int   `json:"target,omitempty"`
	Named      Char   `json:"named,omitempty"`
	Paid       int    `json:"paid,omitempty"`
	Window     string `json:"window,omitempty"`
	Responders []int  `json:"responders,omitempty"`
	Allowed    []int  `json:"allowed,omitempty"`
	Challenger *int   `json:"challenger,omitempty"`
	Claimant   *int   `json:"claimant,omitempty"`
	Claim      Char   `json:"claim,omitempty"`
	Blocker    *int   `json:"blocker,omitempty"`
	Block      Char   `json:"block,omitempty"`
	Proven     Char   `json:"proven,omitempty"` // shown to all before it is shuffled in
	Loser      *int   `json:"loser,omitempty"`
	DrawnCount int    `json:"drawn_count,omitempty"`
	Drawn      []Char `json:"drawn,omitempty"` // the actor only
	Shown      Char   `json:"shown,omitempty"` // Examine: the Inquisitor and the target only
}

func seatPtr(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

// sees reports whether viewer may see owner's private cards: the owner while
// still in the game, everyone once it is over.
func (s *State) sees(viewer, owner int) bool {
	return s.Stage == stOver || (viewer == owner && s.alive(viewer))
}

// View is what seat may see.
func (Rules) View(s *State, seat games.Seat) any {
	v := View{Seat: int(seat), Stage: s.Stage.String(), Turn: s.Turn, Options: s.Options, FactionsPublic: s.FactionsPublic}
	over := s.Stage == stOver
	me := int(seat)
	v.Players = make([]PlayerView, 0, len(s.Players))
	for _, n := range s.Court {
		v.CourtSize += n
	}
	if over {
		for _, c := range s.deckChars() {
			for range s.Court[c] {
				v.Court = append(v.Court, c)
			}
		}
		v.Winner = seatPtr(s.Winner)
	}
	for i, p := range s.Players {
		pv := PlayerView{Name: p.Name, Coins: p.Coins, Influence: len(p.Hidden), Lost: slices.Clone(p.Lost),
			SetAsideCount: len(p.SetAside), Kept: p.Kept, FactionChosen: p.FactionChosen, Out: p.Out, Resigned: p.Resigned}
		if s.sees(me, i) {
			pv.Cards = slices.Clone(p.Hidden)
			pv.Set = slices.Clone(p.Set)
			pv.SetAside = slices.Clone(p.SetAside)
		}
		if s.Opt.Factions && (s.FactionsPublic || over || (p.FactionChosen && s.sees(me, i))) {
			pv.Faction = "down"
			if p.FactionUp {
				pv.Faction = "up"
			}
		}
		for w := range nWindows {
			if p.AutoAllow[w] {
				pv.AutoAllow = append(pv.AutoAllow, w.String())
			}
		}
		v.Players = append(v.Players, pv)
	}
	c := &s.Ctx
	if s.Stage >= stTurn && s.Stage < stEnd && c.Action != NoAct {
		a := &ActionView{Actor: c.Actor, Action: c.Action.String(), Target: seatPtr(c.Target), Named: c.Named, Paid: c.Paid,
			Challenger: seatPtr(c.Challenger), Blocker: seatPtr(c.Blocker), Block: c.Block, Proven: c.Proven, DrawnCount: len(c.Drawn)}
		if w, ok := s.Stage.window(); ok {
			a.Window = w.String()
			a.Responders = slices.Clone(c.Resp)
			for j, r := range c.Resp {
				if c.Answered[j] {
					a.Allowed = append(a.Allowed, r)
				}
			}
		}
		if c.Phase != 0 {
			a.Claimant, a.Claim = seatPtr(c.Claimant), c.Claim
		}
		if s.Stage == stLose {
			a.Loser = seatPtr(c.Loser)
		}
		if s.sees(me, c.Actor) {
			a.Drawn = slices.Clone(c.Drawn)
		}
		if s.Stage == stExamine && (s.sees(me, c.Actor) || s.sees(me, c.Target)) {
			a.Shown = c.Shown
		}
		v.Action = a
	}
	return v
}

// Redact is seat's version of event e, which applies to s (the state before
// it): the private cards of others removed (section 5). A seat that is out
// (eliminated or resigned) and the spectator see the public part only.
func (Rules) Redact(s *State, e Event, seat games.Seat) Event {
	me := int(seat)
	if !s.inGame(e, me) {
		me = int(games.Spectator)
	}
	out := e
	hide := func() { out.Redacted = true }
	switch e.Type {
	case evSetup, evDealt:
		if e.Hands != nil {
			out.Hands = make([][]Char, len(e.Hands))
			for i, h := range e.Hands {
				if i == me {
					out.Hands[i] = slices.Clone(h)
				} else if h != nil {
					hide()
				}
			}
		}
	case evKept, evReplaced:
		if me != e.Seat {
			if e.Type == evKept {
				out.Char = NoChar
			}
			out.Drew = NoChar
			hide()
		}
	case evFactionChose:
		if me != e.Seat {
			out.On = false
			hide()
		}
	case evExchDrawn, evExchanged:
		if me != e.Seat {
			out.Cards = nil
			hide()
		}
	case evCoupShown, evShown:
		if me != e.Seat && me != e.Viewer {
			out.Cards, out.Char = nil, NoChar
			hide()
		}
	case evChanged:
		if me != e.Seat {
			out.Drew = NoChar
			if me != e.Viewer {
				out.Char = NoChar
			}
			hide()
		}
	}
	return out
}

// inGame reports whether seat takes part in the game when e applies to s:
// a seated player still in it (for the setup event, any seat it seats).
func (s *State) inGame(e Event, seat int) bool {
	if e.Type == evSetup {
		return seat >= 0 && seat < len(e.Players)
	}
	return s.alive(seat)
}

package coup

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// Stage is the decision point the game is at.
type Stage int8

// Stages. The transient ones (marked) never remain after Decide: Decide
// records the event that settles them.
const (
	stNone          Stage = iota
	stKeep                // TC-2: both players keep a card from their set
	stDeal                // transient: deal one Court card each (TC-2)
	stFaction             // TC-27: faction choices
	stFactionReveal       // transient: reveal every faction
	stTurn                // TC-4: the active player's action
	stW1                  // TC-23 W1: challenge the action
	stW2                  // TC-23 W2: block
	stW3                  // TC-23 W3: challenge the block
	stAnswer              // TC-15: the challenged player reveals a card
	stLose                // TC-33: someone loses an influence
	stReplace             // transient: proven card shuffled in, replacement drawn
	stResolve             // transient: the action takes effect
	stSelective           // transient: Selective Coup hit or miss
	stExchDraw            // transient: Exchange draw
	stExchange            // TC-10/TC-26: Exchange choice
	stShow                // TC-26: Examine target shows a card
	stExamine             // TC-26: Inquisitor returns or changes it
	stEnd                 // transient: game over, reveal everything
	stOver                // game over
)

func stageNames() []string {
	return []string{"", "keep", "deal", "faction", "faction", "turn", "challenge", "block", "block-challenge",
		"answer", "lose", "replace", "resolve", "resolve", "exchange", "exchange", "show", "examine", "over", "over"}
}

// String is the stage name shown in views ("turn", "challenge", …).
func (st Stage) String() string { return stageNames()[st] }

func (st Stage) window() (Window, bool) {
	switch st {
	case stW1:
		return W1, true
	case stW2:
		return W2, true
	case stW3:
		return W3, true
	}
	return 0, false
}

// next says what follows an influence loss.
type next int8

const (
	nextEnd     next = iota // the turn ends
	nextReplace             // a proven claim: replacement, then the action goes on (W1) or is blocked (W3)
)

// Opt is the parsed options.
type Opt struct {
	TwoPlayerOfficial bool
	Inquisitor        bool
	Factions          bool
	SelectiveCoup     bool
	BlockingContessa  bool
	SpentOnFail       bool
}

func parseOptions(o games.Options) Opt {
	return Opt{
		TwoPlayerOfficial: o["two_player_setup"] != "standard",
		Inquisitor:        o["inquisitor"] == "on",
		Factions:          o["factions"] == "on",
		SelectiveCoup:     o["selective_coup"] == "on",
		BlockingContessa:  o["blocking_contessa"] == "on",
		SpentOnFail:       o["failed_claim_cost"] == "spent",
	}
}

// Player is one seat's state.
type Player struct {
	Name          string
	Coins         int
	Hidden        []Char // unrevealed influence, canonical order
	Lost          []Char // face-up cards, in the order lost
	Set           []Char // 2-player setup: the set before keeping
	SetAside      []Char // 2-player setup: out of play, known to the owner only
	Kept          bool
	FactionChosen bool
	FactionUp     bool // secret until State.FactionsPublic
	AutoAllow     [nWindows]bool
	Out           bool
	Resigned      bool
}

// Ctx is the turn in progress.
type Ctx struct {
	Action     Act
	Actor      int
	Target     int // -1 when untargeted
	Named      Char
	Paid       int
	Resp       []int  // the open window's eligible responders
	Answered   []bool // parallel to Resp
	Auto       []bool // parallel to Resp: a standing auto-allow when the window opened (TC-32)
	Challenger int
	Claimant   int
	Claim      Char
	Phase      int // 1: the action's claim is challenged; 3: the block is
	Blocker    int
	Block      Char
	Proven     Char // a proven card awaiting its replacement
	Loser      int
	Next       next
	Drawn      []Char
	Shown      Char
}

func newCtx(actor int) Ctx {
	return Ctx{Actor: actor, Target: -1, Challenger: -1, Claimant: -1, Blocker: -1, Loser: -1}
}

// State is a game of Coup.
type State struct {
	// Rules is the rules version the game was created under (RULES.md).
	Rules          int `json:"rules"`
	Players        []Player
	Options        games.Options
	Opt            Opt
	Court          [nChars]int // the Court as a multiset; its order is never observable
	Stage          Stage
	Turn           int
	Ctx            Ctx
	FactionsPublic bool
	Winner         int
	Bank           int // coins taken from the treasury minus coins paid to it
	StartCoins     int
	Dealt          bool // the influence cards have been dealt
}

func (s *State) clone() *State {
	c := *s
	c.Players = make([]Player, len(s.Players))
	for i, p := range s.Players {
		p.Hidden = slices.Clone(p.Hidden)
		p.Lost = slices.Clone(p.Lost)
		p.Set = slices.Clone(p.Set)
		p.SetAside = slices.Clone(p.SetAside)
		c.Players[i] = p
	}
	c.Ctx.Resp = slices.Clone(s.Ctx.Resp)
	c.Ctx.Answered = slices.Clone(s.Ctx.Answered)
	c.Ctx.Auto = slices.Clone(s.Ctx.Auto)
	c.Ctx.Drawn = slices.Clone(s.Ctx.Drawn)
	return &c
}

// deckChars lists the characters in play (TC-26: Inquisitor replaces Ambassador).
func (s *State) deckChars() []Char {
	if s.Opt.Inquisitor {
		return []Char{Duke, Assassin, Captain, Contessa, Inquisitor}
	}
	return []Char{Duke, Assassin, Captain, Ambassador, Contessa}
}

func (s *State) inDeck(c Char) bool { return slices.Contains(s.deckChars(), c) }

// exchanger is the character claimed by Exchange.
func (s *State) exchanger() Char {
	if s.Opt.Inquisitor {
		return Inquisitor
	}
	return Ambassador
}

// claimOf is the character an action claims (NoChar for general actions).
func (s *State) claimOf(a Act) Char {
	switch a {
	case Tax:
		return Duke
	case Assassinate:
		return Assassin
	case Steal:
		return Captain
	case Exchange:
		return s.exchanger()
	case Examine:
		return Inquisitor
	}
	return NoChar
}

// blockChars lists the characters that block action a (TC-14, TC-29).
func (s *State) blockChars(a Act) []Char {
	switch a {
	case ForeignAid:
		return []Char{Duke}
	case Assassinate:
		return []Char{Contessa}
	case Steal:
		return []Char{Captain, s.exchanger()}
	case Tax:
		if s.Opt.BlockingContessa {
			return []Char{Contessa}
		}
	}
	return nil
}

func (s *State) alive(i int) bool { return i >= 0 && i < len(s.Players) && !s.Players[i].Out }

func (s *State) living() int {
	n := 0
	for i := range s.Players {
		if s.alive(i) {
			n++
		}
	}
	return n
}

// nextLiving is the next living seat after seat in seat order.
func (s *State) nextLiving(seat int) int {
	n := len(s.Players)
	for k := 1; k <= n; k++ {
		if i := (seat + k) % n; s.alive(i) {
			return i
		}
	}
	return seat
}

// mayTarget reports whether actor may target seat (TC-8, TC-21, TC-27).
func (s *State) mayTarget(actor, seat int) bool {
	if seat == actor || !s.alive(seat) {
		return false
	}
	if !s.Opt.Factions {
		return true
	}
	if s.Players[actor].FactionUp != s.Players[seat].FactionUp {
		return true
	}
	return s.allOneFaction()
}

func (s *State) allOneFaction() bool {
	first, seen := false, false
	for i, p := range s.Players {
		if !s.alive(i) {
			continue
		}
		if !seen {
			first, seen = p.FactionUp, true
		} else if p.FactionUp != first {
			return false
		}
	}
	return true
}

func removeOne(cs []Char, c Char) []Char {
	i := slices.Index(cs, c)
	if i < 0 {
		return cs
	}
	return slices.Delete(cs, i, i+1)
}

func addSorted(cs []Char, c Char) []Char {
	cs = append(cs, c)
	slices.Sort(cs)
	return cs
}

// Evolve applies one event; it never fails and never draws randomness.
func (Rules) Evolve(s *State, e Event) *State {
	switch e.Type {
	case evSetup:
		s.setup(e)
	case evKept:
		p := &s.Players[e.Seat]
		p.Hidden = []Char{e.Char}
		p.SetAside = removeOne(slices.Clone(p.Set), e.Char)
		p.Set = nil
		p.Kept = true
		all := true
		for i := range s.Players {
			all = all && (s.Players[i].Kept || s.Players[i].Out)
		}
		if all {
			s.Stage = stDeal
		}
	case evDealt:
		for i, h := range e.Hands {
			for _, c := range h {
				s.Court[c]--
				s.Players[i].Hidden = addSorted(s.Players[i].Hidden, c)
			}
		}
		s.Dealt = true
		s.startPlay()
	case evFactionChose:
		p := &s.Players[e.Seat]
		p.FactionChosen, p.FactionUp = true, e.On
		s.factionsIn()
	case evFactions:
		for i, up := range e.Factions {
			s.Players[i].FactionUp = up
		}
		s.FactionsPublic = true
		s.startTurn(0)
	case evAutoAllow:
		p := &s.Players[e.Seat]
		for w := range nWindows {
			if e.Window == "all" || e.Window == w.String() {
				p.AutoAllow[w] = e.On
			}
		}
	case evAction:
		s.declare(e)
	case evAllow:
		c := &s.Ctx
		if i := slices.Index(c.Resp, e.Seat); i >= 0 {
			c.Answered[i] = true
		}
		if !slices.Contains(c.Answered, false) {
			s.closeWindow()
		}
	case evChallenge:
		c := &s.Ctx
		c.Challenger = e.Seat
		if s.Stage == stW1 {
			c.Phase, c.Claimant, c.Claim = 1, c.Actor, s.claimOf(c.Action)
		} else {
			c.Phase, c.Claimant, c.Claim = 3, c.Blocker, c.Block
		}
		c.Resp, c.Answered, c.Auto = nil, nil, nil
		s.Stage = stAnswer
	case evBlock:
		c := &s.Ctx
		c.Blocker, c.Block = e.Seat, e.Char
		var resp []int
		for i := range s.Players {
			if s.alive(i) && i != e.Seat {
				resp = append(resp, i)
			}
		}
		s.openWindow(stW3, resp)
	case evRevealed:
		s.revealed(e)
	case evLost:
		s.loseCard(e.Seat, e.Char)
		if s.checkEnd() {
			return s
		}
		s.afterLoss()
	case evReplaced:
		p := &s.Players[e.Seat]
		p.Hidden = removeOne(p.Hidden, e.Char)
		s.Court[e.Char]++
		s.Court[e.Drew]--
		p.Hidden = addSorted(p.Hidden, e.Drew)
		s.afterReplace()
	case evResolved:
		s.resolved(e)
	case evExchDrawn:
		for _, c := range e.Cards {
			s.Court[c]--
		}
		s.Ctx.Drawn = slices.Clone(e.Cards)
		s.Stage = stExchange
	case evExchanged:
		p := &s.Players[e.Seat]
		pool := append(slices.Clone(p.Hidden), s.Ctx.Drawn...)
		for _, c := range e.Cards {
			pool = removeOne(pool, c)
		}
		for _, c := range pool {
			s.Court[c]++
		}
		p.Hidden = slices.Sorted(slices.Values(e.Cards))
		s.Ctx.Drawn = nil
		s.endTurn()
	case evCoupShown, evReturned:
		s.endTurn()
	case evShown:
		s.Ctx.Shown = e.Char
		s.Stage = stExamine
	case evChanged:
		p := &s.Players[e.Seat]
		p.Hidden = removeOne(p.Hidden, e.Char)
		s.Court[e.Char]++
		s.Court[e.Drew]--
		p.Hidden = addSorted(p.Hidden, e.Drew)
		s.endTurn()
	case evResigned:
		s.resign(e.Seat)
	case evEnded:
		// Cards drawn for an unfinished Exchange are listed with the Court
		// (TC-40): return them so every view shows them.
		for _, d := range s.Ctx.Drawn {
			s.Court[d]++
		}
		s.Ctx.Drawn = nil
		s.Stage = stOver
	}
	return s
}

func (s *State) setup(e Event) {
	s.Options = e.Options
	s.Opt = parseOptions(e.Options)
	s.Players = make([]Player, len(e.Players))
	s.Winner = -1
	for _, c := range s.deckChars() {
		s.Court[c] = 3
	}
	for i, name := range e.Players {
		p := Player{Name: name, Coins: e.Coins[i]}
		s.StartCoins += e.Coins[i]
		if i < len(e.Hands) {
			for _, c := range e.Hands[i] {
				s.Court[c]--
				p.Hidden = addSorted(p.Hidden, c)
			}
		}
		s.Players[i] = p
	}
	if len(e.Players) == 2 && s.Opt.TwoPlayerOfficial {
		for i := range s.Players {
			s.Players[i].Set = s.deckChars()
			for _, c := range s.deckChars() {
				s.Court[c]--
			}
		}
		s.Stage = stKeep
		return
	}
	s.Dealt = true
	s.startPlay()
}

func (s *State) startPlay() {
	if s.Opt.Factions {
		s.Stage = stFaction
		s.factionsIn()
		return
	}
	s.startTurn(0)
}

func (s *State) factionsIn() {
	for i, p := range s.Players {
		if s.alive(i) && !p.FactionChosen {
			return
		}
	}
	s.Stage = stFactionReveal
}

func (s *State) startTurn(seat int) {
	if !s.alive(seat) {
		seat = s.nextLiving(seat)
	}
	s.Stage = stTurn
	s.Turn = seat
	s.Ctx = newCtx(seat)
}

// endTurn passes the turn to the next living player (TC-3), or ends the game.
func (s *State) endTurn() {
	if s.checkEnd() {
		return
	}
	s.startTurn(s.nextLiving(s.Turn))
}

// checkEnd moves to the end of the game when one player is left (TC-22).
func (s *State) checkEnd() bool {
	if s.Stage == stEnd || s.Stage == stOver {
		return true
	}
	if s.living() > 1 {
		return false
	}
	for i := range s.Players {
		if s.alive(i) {
			s.Winner = i
		}
	}
	s.Stage = stEnd
	return true
}

func (s *State) loseCard(seat int, c Char) {
	p := &s.Players[seat]
	p.Hidden = removeOne(p.Hidden, c)
	p.Lost = append(p.Lost, c)
	if len(p.Hidden) == 0 {
		p.Out = true
	}
}

func (s *State) declare(e Event) {
	a := actFromID(e.Action)
	c := newCtx(e.Seat)
	c.Action, c.Named, c.Paid = a, e.Char, e.N
	if a.targeted() {
		c.Target = e.Target
	}
	s.Ctx = c
	s.Players[e.Seat].Coins -= e.N
	s.Bank -= e.N
	if s.claimOf(a) != NoChar {
		var resp []int
		for i := range s.Players {
			if s.alive(i) && i != e.Seat {
				resp = append(resp, i)
			}
		}
		s.openWindow(stW1, resp)
		return
	}
	s.afterClaim()
}

// openWindow opens a window, or skips it when nobody may respond (TC-23).
func (s *State) openWindow(st Stage, resp []int) {
	if len(resp) == 0 {
		s.Stage = st
		s.closeWindow()
		return
	}
	s.Stage = st
	s.Ctx.Resp = resp
	s.Ctx.Answered = make([]bool, len(resp))
	s.Ctx.Auto = make([]bool, len(resp))
	w, _ := st.window()
	for i, seat := range resp {
		s.Ctx.Auto[i] = s.Players[seat].AutoAllow[w]
	}
}

// closeWindow closes the open window with every responder allowing (TC-31).
func (s *State) closeWindow() {
	st := s.Stage
	s.Ctx.Resp, s.Ctx.Answered, s.Ctx.Auto = nil, nil, nil
	switch st {
	case stW1:
		s.afterClaim()
	case stW2:
		s.Stage = stResolve
	case stW3:
		s.endTurn() // the block stands: the action does not happen (TC-17)
	}
}

// afterClaim continues an action whose claim stands: W2 if it may be blocked.
func (s *State) afterClaim() {
	c := &s.Ctx
	if !s.alive(c.Actor) {
		s.endTurn()
		return
	}
	if c.Action.targeted() && !s.alive(c.Target) {
		s.endTurn() // TC-20
		return
	}
	var blockers []int
	if len(s.blockChars(c.Action)) > 0 {
		switch c.Action {
		case Assassinate, Steal:
			blockers = []int{c.Target}
		default:
			for i := range s.Players {
				if s.alive(i) && i != c.Actor {
					blockers = append(blockers, i)
				}
			}
		}
	}
	if len(blockers) == 0 {
		s.Stage = stResolve
		return
	}
	s.openWindow(stW2, blockers)
}

func (s *State) revealed(e Event) {
	c := &s.Ctx
	if e.Proven {
		c.Proven = e.Char
		c.Loser, c.Next = c.Challenger, nextReplace
		s.Stage = stLose
		return
	}
	s.loseCard(e.Seat, e.Char)
	if c.Phase == 1 {
		s.Players[c.Actor].Coins += e.N
		s.Bank += e.N
	}
	if s.checkEnd() {
		return
	}
	if c.Phase == 1 {
		s.endTurn() // TC-17: the action does not happen
		return
	}
	s.Stage = stResolve // the block fails: the action resolves
}

func (s *State) afterLoss() {
	c := &s.Ctx
	if c.Next == nextReplace {
		if s.alive(c.Claimant) && c.Proven != NoChar {
			s.Stage = stReplace
			return
		}
		s.afterReplace()
		return
	}
	s.endTurn()
}

func (s *State) afterReplace() {
	c := &s.Ctx
	c.Proven = NoChar
	if c.Phase == 1 {
		s.afterClaim()
		return
	}
	s.endTurn() // a proven block: the action is blocked
}

func (s *State) resolved(e Event) {
	c := &s.Ctx
	actor := &s.Players[c.Actor]
	switch c.Action {
	case Income, ForeignAid, Tax:
		actor.Coins += e.N
		s.Bank += e.N
		s.endTurn()
	case Steal:
		actor.Coins += e.N
		s.Players[c.Target].Coins -= e.N
		s.endTurn()
	case Defect:
		actor.FactionUp = !actor.FactionUp
		s.endTurn()
	case CoupAct, Assassinate:
		if !s.alive(c.Target) {
			s.endTurn()
			return
		}
		c.Loser, c.Next = c.Target, nextEnd
		if c.Action == CoupAct && s.Opt.SelectiveCoup {
			s.Stage = stSelective
			return
		}
		s.Stage = stLose
	case Exchange:
		s.Stage = stExchDraw
	case Examine:
		if !s.alive(c.Target) {
			s.endTurn()
			return
		}
		s.Stage = stShow
	}
}

// resign applies a player leaving: [HOUSE] TC-34 (see RULES.md).
func (s *State) resign(seat int) {
	p := &s.Players[seat]
	p.Lost = append(p.Lost, p.Hidden...)
	p.Hidden = nil
	p.Out, p.Resigned = true, true
	if p.Set != nil {
		p.SetAside, p.Set, p.Kept = p.Set, nil, true
	}
	if s.checkEnd() {
		return
	}
	c := &s.Ctx
	switch s.Stage {
	case stKeep:
		all := true
		for i := range s.Players {
			all = all && s.Players[i].Kept
		}
		if all {
			s.Stage = stDeal
		}
	case stFaction:
		s.factionsIn()
	case stTurn:
		if s.Turn == seat {
			s.endTurn()
		}
	case stW1, stW2, stW3:
		switch {
		case seat == c.Actor:
			s.endTurn()
		case s.Stage != stW3 && c.Action.targeted() && seat == c.Target:
			s.endTurn() // TC-20
		case s.Stage == stW3 && seat == c.Blocker:
			c.Resp, c.Answered, c.Auto = nil, nil, nil
			s.Stage = stResolve // the block is void: the action resolves
		default:
			if i := slices.Index(c.Resp, seat); i >= 0 {
				c.Resp = slices.Delete(c.Resp, i, i+1)
				c.Answered = slices.Delete(c.Answered, i, i+1)
				c.Auto = slices.Delete(c.Auto, i, i+1)
			}
			if !slices.Contains(c.Answered, false) {
				s.closeWindow()
			}
		}
	case stAnswer:
		switch {
		case seat == c.Actor: // the claimant (phase 1) or the actor of a challenged block
			s.endTurn()
		case seat == c.Claimant && c.Phase == 1:
			s.endTurn()
		case seat == c.Claimant:
			s.Stage = stResolve
		case seat == c.Challenger && c.Phase == 1:
			s.afterClaim()
		case seat == c.Challenger:
			s.endTurn()
		}
	case stLose:
		if seat == c.Loser {
			s.afterLoss()
		}
	case stExchange:
		if seat != c.Actor {
			return // only the actor leaving abandons the Exchange
		}
		for _, d := range c.Drawn {
			s.Court[d]++
		}
		c.Drawn = nil
		s.endTurn()
	case stShow, stExamine:
		if seat == c.Actor || seat == c.Target {
			s.endTurn()
		}
	}
}

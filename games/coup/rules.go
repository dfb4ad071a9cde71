package coup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Rules implements games.Rules for Coup.
type Rules struct{}

// New returns the Coup engine.
func New() games.Engine { return games.Adapt[*State, Move, Event](Rules{}) }

var _ games.Rules[*State, Move, Event] = Rules{}

// Info describes Coup and its options (section 4 of the rules file).
func (Rules) Info() games.Info {
	return games.Info{
		ID: "coup", Name: "Coup (Rikki Tahta)", MinSeats: 2, MaxSeats: 6,
		Options: options(),
		Rules:   RulesVersion,
	}
}

// RulesVersion is the version of the rules this code decides by (RULES.md);
// Coup has had one.
const RulesVersion = 1

// Initial is the state before any event of a game created under rules
// version rules.
func (Rules) Initial(rules int) *State { return &State{Rules: rules, Winner: -1} }

// Setup seats the players in a random order (TC-3), deals (TC-1) or prepares
// the official 2-player sets (TC-2).
func (Rules) Setup(opts games.Options, players []string, r *rand.Rand) ([]Event, error) {
	if len(players) < 2 || len(players) > 6 {
		return nil, games.Illegal("TC-1", "Coup is for 2 to 6 players, not %d", len(players))
	}
	full := games.Options{}
	for _, spec := range (Rules{}).Info().Options {
		v, ok := opts[spec.Name]
		if !ok {
			v = spec.Default
		}
		if !slices.Contains(spec.Values, v) {
			return nil, games.Illegal("options", "option %s must be one of %s, not %q", spec.Name, strings.Join(spec.Values, ", "), v)
		}
		full[spec.Name] = v
	}
	for name := range opts {
		if _, ok := full[name]; !ok {
			return nil, games.Illegal("options", "Coup has no option %q", name)
		}
	}
	seated := games.Shuffle(r, players)
	e := Event{Type: evSetup, Players: seated, Options: full, Coins: make([]int, len(seated))}
	for i := range e.Coins {
		e.Coins[i] = 2
	}
	if len(seated) == 2 && full["two_player_setup"] == "official" {
		e.Coins[0] = 1 // TC-2: the start player has 1 coin
		return []Event{e}, nil
	}
	s := &State{Opt: parseOptions(full)}
	var deck []Char
	for _, c := range s.deckChars() {
		deck = append(deck, c, c, c)
	}
	deck = games.Shuffle(r, deck)
	e.Hands = make([][]Char, len(seated))
	for i := range seated {
		e.Hands[i] = slices.Sorted(slices.Values(deck[2*i : 2*i+2]))
	}
	return []Event{e}, nil
}

// draw picks one card at random from the Court multiset ([HOUSE] TC-38).
func draw(court *[nChars]int, r *rand.Rand) Char {
	total := 0
	for _, n := range court {
		total += n
	}
	k := games.IntN(r, total)
	for c, n := range court {
		if k < n {
			court[c]--
			return Char(c)
		}
		k -= n
	}
	panic("coup: draw from an empty Court")
}

// Decide validates a move and returns its events with every automatic
// consequence (auto-allows, single-card losses, draws, resolution).
func (g Rules) Decide(s *State, seat games.Seat, m Move, r *rand.Rand) ([]Event, error) {
	if err := g.check(s, int(seat), m); err != nil {
		return nil, err
	}
	evs := g.primary(s, int(seat), m, r)
	return g.settle(s, evs, r), nil
}

// settle applies evs to a clone of s and appends the automatic events until
// the game waits for a person again.
func (g Rules) settle(s *State, evs []Event, r *rand.Rand) []Event {
	c := s.clone()
	for _, e := range evs {
		c = g.Evolve(c, e)
	}
	for {
		e, ok := c.auto(r)
		if !ok {
			return evs
		}
		evs = append(evs, e)
		c = g.Evolve(c, e)
	}
}

// auto returns the automatic event of a transient stage, if any.
func (s *State) auto(r *rand.Rand) (Event, bool) {
	c := &s.Ctx
	switch s.Stage {
	case stDeal:
		court := s.Court
		e := Event{Type: evDealt, Hands: make([][]Char, len(s.Players))}
		for i := range s.Players {
			if s.alive(i) {
				e.Hands[i] = []Char{draw(&court, r)}
			}
		}
		return e, true
	case stFactionReveal:
		e := Event{Type: evFactions, Factions: make([]bool, len(s.Players))}
		for i, p := range s.Players {
			e.Factions[i] = p.FactionUp
		}
		return e, true
	case stW1, stW2, stW3:
		w, _ := s.Stage.window()
		for i, seat := range c.Resp {
			if !c.Answered[i] && c.Auto[i] {
				return Event{Type: evAllow, Seat: seat, Window: w.String(), Auto: true}, true
			}
		}
	case stLose:
		if p := s.Players[c.Loser]; len(p.Hidden) == 1 {
			return Event{Type: evLost, Seat: c.Loser, Char: p.Hidden[0]}, true
		}
	case stReplace:
		court := s.Court
		court[c.Proven]++
		return Event{Type: evReplaced, Seat: c.Claimant, Char: c.Proven, Drew: draw(&court, r)}, true
	case stResolve:
		e := Event{Type: evResolved, Seat: c.Actor, Action: c.Action.String(), Target: max(c.Target, 0)}
		switch c.Action {
		case Income:
			e.N = 1
		case ForeignAid:
			e.N = 2
		case Tax:
			e.N = 3
		case Steal:
			if s.alive(c.Target) {
				e.N = min(2, s.Players[c.Target].Coins) // TC-9
			}
		}
		return e, true
	case stSelective:
		t := s.Players[c.Target]
		if slices.Contains(t.Hidden, c.Named) {
			return Event{Type: evLost, Seat: c.Target, Char: c.Named}, true
		}
		return Event{Type: evCoupShown, Seat: c.Target, Viewer: c.Actor, Cards: slices.Clone(t.Hidden)}, true
	case stExchDraw:
		court := s.Court
		n := 2
		if s.Opt.Inquisitor {
			n = 1
		}
		e := Event{Type: evExchDrawn, Seat: c.Actor, N: n}
		for range n {
			e.Cards = append(e.Cards, draw(&court, r))
		}
		slices.Sort(e.Cards)
		return e, true
	case stEnd:
		e := Event{Type: evEnded, Seat: s.Winner, Hands: make([][]Char, len(s.Players)), SetAside: make([][]Char, len(s.Players))}
		for i, p := range s.Players {
			e.Hands[i] = slices.Clone(p.Hidden)
			e.SetAside[i] = slices.Clone(append(slices.Clone(p.SetAside), p.Set...))
		}
		for _, ch := range s.deckChars() {
			for range s.Court[ch] {
				e.Court = append(e.Court, ch)
			}
		}
		e.Court = append(e.Court, c.Drawn...)
		return e, true
	}
	return Event{}, false
}

func (s *State) name(seat int) string {
	if seat < 0 || seat >= len(s.Players) {
		return fmt.Sprintf("seat %d", seat)
	}
	return s.Players[seat].Name
}

// waiting describes what the game waits for, for error messages.
func (s *State) waiting() string {
	switch s.Stage {
	case stKeep:
		return "the players are choosing the card they keep"
	case stFaction:
		return "the players are choosing their factions"
	case stTurn:
		return "it is " + s.name(s.Turn) + "'s turn"
	case stW1:
		return "the challenge window of " + s.name(s.Ctx.Actor) + "'s action is open"
	case stW2:
		return "the block window of " + s.name(s.Ctx.Actor) + "'s action is open"
	case stW3:
		return "the window to challenge " + s.name(s.Ctx.Blocker) + "'s block is open"
	case stAnswer:
		return s.name(s.Ctx.Claimant) + " must answer " + s.name(s.Ctx.Challenger) + "'s challenge"
	case stLose:
		return s.name(s.Ctx.Loser) + " must lose an influence"
	case stExchange:
		return s.name(s.Ctx.Actor) + " is choosing the cards to keep"
	case stShow:
		return s.name(s.Ctx.Target) + " must show a card to " + s.name(s.Ctx.Actor)
	case stExamine:
		return s.name(s.Ctx.Actor) + " must return or change the card examined"
	}
	return "the game is over"
}

// check validates a move for seat; it never modifies s.
func (g Rules) check(s *State, seat int, m Move) error {
	if s.Stage == stOver || s.Stage == stEnd {
		return games.Illegal("TC-22", "the game is over")
	}
	if seat < 0 || seat >= len(s.Players) {
		return games.Illegal("TC-21", "only seated players may move")
	}
	if !s.alive(seat) {
		return games.Illegal("TC-21", "%s has no influence left and cannot act or respond", s.name(seat))
	}
	p := &s.Players[seat]
	c := &s.Ctx
	switch m.Kind {
	case MAutoAllow:
		changes := false
		for w := range nWindows {
			if (m.All || m.Window == w) && p.AutoAllow[w] != m.On {
				changes = true
			}
		}
		if !changes {
			return games.Illegal("TC-32", "your auto-allow preference is already %s", onOff(m.On))
		}
		return nil
	case MKeep:
		if s.Stage == stKeep {
			if p.Kept {
				return games.Illegal("TC-2", "you have already chosen the card you keep")
			}
			if len(m.Keep) != 1 {
				return games.Illegal("TC-2", "keep exactly one card of your set")
			}
			if !slices.Contains(p.Set, m.Keep[0]) {
				return games.Illegal("TC-2", "your set has no %s", m.Keep[0].Title())
			}
			return nil
		}
		if s.Stage != stExchange || seat != c.Actor {
			return games.Illegal("TC-10", "there is no exchange of yours to choose cards for; %s", s.waiting())
		}
		rule := "TC-10"
		if s.Opt.Inquisitor {
			rule = "TC-26"
		}
		if len(m.Keep) != len(p.Hidden) {
			return games.Illegal(rule, "keep exactly %d card(s), as many as your unrevealed cards", len(p.Hidden))
		}
		pool := append(slices.Clone(p.Hidden), c.Drawn...)
		for _, k := range m.Keep {
			if !slices.Contains(pool, k) {
				return games.Illegal(rule, "you can keep only your unrevealed cards and the cards drawn; %s is not among them", k.Title())
			}
			pool = removeOne(pool, k)
		}
		return nil
	case MFaction:
		if !s.Opt.Factions {
			return games.Illegal("TC-27", "this game is played without factions")
		}
		if s.Stage != stFaction {
			return games.Illegal("TC-27", "factions are chosen at setup only; use defect on your turn to flip yours")
		}
		if p.FactionChosen {
			return games.Illegal("TC-27", "you have already chosen your faction")
		}
		return nil
	case MAction:
		return g.checkAction(s, seat, m)
	case MChallenge, MAllow, MBlock:
		return g.checkResponse(s, seat, m)
	case MReveal:
		switch {
		case s.Stage == stAnswer && seat == c.Claimant:
			if !slices.Contains(p.Hidden, m.Char) {
				return games.Illegal("TC-15", "you have no unrevealed %s to reveal", m.Char.Title())
			}
			return nil
		case s.Stage == stLose && seat == c.Loser:
			if !slices.Contains(p.Hidden, m.Char) {
				return games.Illegal("TC-33", "you have no unrevealed %s to turn face up", m.Char.Title())
			}
			return nil
		case s.Stage == stAnswer:
			return games.Illegal("TC-15", "only the challenged player reveals a card; %s", s.waiting())
		}
		return games.Illegal("TC-33", "you have no challenge to answer and no influence to lose now; %s", s.waiting())
	case MShow:
		if !s.Opt.Inquisitor {
			return games.Illegal("TC-26", "this game is played without the Inquisitor")
		}
		if s.Stage != stShow || seat != c.Target {
			return games.Illegal("TC-26", "nobody is examining you now; %s", s.waiting())
		}
		if !slices.Contains(p.Hidden, m.Char) {
			return games.Illegal("TC-26", "you have no unrevealed %s to show", m.Char.Title())
		}
		return nil
	case MReturn, MChange:
		if !s.Opt.Inquisitor {
			return games.Illegal("TC-26", "this game is played without the Inquisitor")
		}
		if s.Stage != stExamine || seat != c.Actor {
			return games.Illegal("TC-26", "you have no examined card to return or change; %s", s.waiting())
		}
		return nil
	}
	return games.Unparsable("not a Coup move")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (g Rules) checkAction(s *State, seat int, m Move) error {
	if s.Stage != stTurn {
		return games.Illegal("TC-4", "an action is taken only at the start of a turn; %s", s.waiting())
	}
	if seat != s.Turn {
		return games.Illegal("TC-4", "it is %s's turn, not yours", s.name(s.Turn))
	}
	p := &s.Players[seat]
	a := m.Action
	switch a {
	case Exchange:
		// Ambassador or Inquisitor exchange.
	case Examine:
		if !s.Opt.Inquisitor {
			return games.Illegal("TC-26", "Examine is an Inquisitor action and this game is played without the Inquisitor")
		}
	case Defect:
		if !s.Opt.Factions {
			return games.Illegal("TC-27", "Defect exists only with the factions option")
		}
	case CoupAct:
		if s.Opt.SelectiveCoup && m.Char == NoChar {
			return games.Illegal("TC-28", "with Selective Coup a coup names a character: coup <player> <character>")
		}
		if !s.Opt.SelectiveCoup && m.Char != NoChar {
			return games.Illegal("TC-28", "a coup names a character only with the selective_coup option")
		}
		if m.Char != NoChar && !s.inDeck(m.Char) {
			return games.Illegal("TC-28", "there is no %s in this game", m.Char.Title())
		}
	}
	if p.Coins >= 10 && a != CoupAct {
		return games.Illegal("TC-5", "you start your turn with %d coins: Coup is your only legal action", p.Coins)
	}
	if p.Coins < a.cost() {
		return games.Illegal("TC-30", "%s costs %s and you have %s", actTitle(a), count(a.cost(), "coin"), count(p.Coins, "coin"))
	}
	if a.targeted() {
		t := m.Target
		switch {
		case t < 0 || t >= len(s.Players):
			return games.Illegal("TC-8", "there is no seat %d", t)
		case t == seat:
			return games.Illegal("TC-8", "the target must be another player")
		case !s.alive(t):
			return games.Illegal("TC-21", "%s has no influence left and cannot be targeted", s.name(t))
		case !s.mayTarget(seat, t):
			return games.Illegal("TC-27", "%s belongs to your faction; target a player of the other faction", s.name(t))
		}
	}
	return nil
}

func actTitle(a Act) string {
	switch a {
	case ForeignAid:
		return "Foreign Aid"
	case CoupAct:
		return "Coup"
	}
	t := a.String()
	if t == "" {
		return "no action"
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

func (g Rules) checkResponse(s *State, seat int, m Move) error {
	c := &s.Ctx
	w, open := s.Stage.window()
	// inTurn: an action is under way (its windows, answers, losses, …).
	inTurn := c.Action != NoAct && s.Stage != stTurn
	if m.Kind == MChallenge && inTurn && c.Blocker < 0 && s.claimOf(c.Action) == NoChar {
		return games.Illegal("TC-12", "%s is not a claim and cannot be challenged", actTitle(c.Action))
	}
	if m.Kind == MBlock && inTurn {
		bc := s.blockChars(c.Action)
		if len(bc) == 0 {
			if c.Action == Tax {
				return games.Illegal("TC-29", "Tax can be blocked only with the blocking_contessa option")
			}
			return games.Illegal("TC-14", "%s cannot be blocked", actTitle(c.Action))
		}
		if (open && w == W1) || (c.Phase == 1 && (s.Stage == stAnswer || s.Stage == stLose)) {
			return games.Illegal("TC-13", "the challenge of the action is settled before anyone may block; wait for the block window")
		}
	}
	if !open {
		if s.Stage == stTurn && seat == s.Turn {
			if m.Kind == MAllow {
				return games.Illegal("TC-4", "passing is not allowed: take exactly one action")
			}
			return games.Illegal("TC-4", "it is your turn: take an action; there is nothing to challenge or block")
		}
		if s.Stage == stAnswer && c.Phase == 1 {
			return games.Illegal("TC-24", "%s's challenge was recorded first; the window has closed", s.name(c.Challenger))
		}
		if s.Stage == stAnswer || (s.Stage == stLose && c.Phase == 3) {
			return games.Illegal("TC-24", "the window has closed: %s's challenge of the block was recorded first", s.name(c.Challenger))
		}
		if c.Action != NoAct && s.Stage != stTurn {
			return games.Illegal("TC-24", "the window has closed: a response recorded earlier decided it; %s", s.waiting())
		}
		return games.Illegal("TC-31", "no challenge or block window is open; %s", s.waiting())
	}
	i := slices.Index(c.Resp, seat)
	if i < 0 {
		switch {
		case w == W1 && seat == c.Actor:
			return games.Illegal("TC-23", "the other players answer the challenge window of your action, not you")
		case w == W3 && seat == c.Blocker:
			return games.Illegal("TC-23", "you cannot challenge your own block")
		case w == W2 && m.Kind == MAllow:
			return games.Illegal("TC-23", "only %s may answer the block window of %s; the challenge window has closed", s.blockerWords(), actTitle(c.Action))
		case w == W2 && m.Kind == MChallenge:
			return games.Illegal("TC-24", "the challenge window of the action has closed; now the block window is open")
		case w == W2:
			return games.Illegal("TC-14", "only %s may block %s", s.blockerWords(), actTitle(c.Action))
		}
		return games.Illegal("TC-23", "you may not respond in this window")
	}
	if c.Answered[i] {
		return games.Illegal("TC-31", "you have already answered allow in this window; answers are final")
	}
	switch m.Kind {
	case MChallenge:
		if w == W2 {
			return games.Illegal("TC-24", "the challenge window of the action has closed; you may block or allow")
		}
	case MBlock:
		if w == W3 && c.Action == ForeignAid && m.Char == Contessa {
			return games.Illegal("TC-29", "Contessa does not block a Duke's block of Foreign Aid")
		}
		if w == W3 {
			return games.Illegal("TC-24", "%s's block was recorded first; you may challenge it or allow", s.name(c.Blocker))
		}
		bc := s.blockChars(c.Action)
		if !slices.Contains(bc, m.Char) {
			names := make([]string, len(bc))
			for j, b := range bc {
				names[j] = b.Title()
			}
			return games.Illegal("TC-14", "%s is blocked only by %s, not %s", actTitle(c.Action), strings.Join(names, " or "), m.Char.Title())
		}
	}
	return nil
}

func (s *State) blockerWords() string {
	c := &s.Ctx
	if c.Action == Assassinate || c.Action == Steal {
		return "the target, " + s.name(c.Target)
	}
	return "the other living players"
}

// primary builds the events of a checked move.
func (g Rules) primary(s *State, seat int, m Move, r *rand.Rand) []Event {
	c := &s.Ctx
	switch m.Kind {
	case MAutoAllow:
		w := m.Window.String()
		if m.All {
			w = "all"
		}
		return []Event{{Type: evAutoAllow, Seat: seat, Window: w, On: m.On}}
	case MKeep:
		if s.Stage == stKeep {
			return []Event{{Type: evKept, Seat: seat, Char: m.Keep[0]}}
		}
		return []Event{{Type: evExchanged, Seat: seat, Cards: slices.Clone(m.Keep), N: len(c.Drawn)}}
	case MFaction:
		return []Event{{Type: evFactionChose, Seat: seat, On: m.On}}
	case MAction:
		e := Event{Type: evAction, Seat: seat, Action: m.Action.String(), N: m.Action.cost(), Char: m.Char}
		if m.Action.targeted() {
			e.Target = m.Target
		}
		return []Event{e}
	case MAllow:
		w, _ := s.Stage.window()
		return []Event{{Type: evAllow, Seat: seat, Window: w.String()}}
	case MChallenge:
		w, _ := s.Stage.window()
		return []Event{{Type: evChallenge, Seat: seat, Window: w.String()}}
	case MBlock:
		return []Event{{Type: evBlock, Seat: seat, Char: m.Char}}
	case MReveal:
		if s.Stage == stLose {
			return []Event{{Type: evLost, Seat: seat, Char: m.Char}}
		}
		e := Event{Type: evRevealed, Seat: seat, Char: m.Char, Proven: m.Char == c.Claim}
		if !e.Proven && c.Phase == 1 && !s.Opt.SpentOnFail {
			e.N = c.Paid // TC-17: refund
		}
		return []Event{e}
	case MShow:
		return []Event{{Type: evShown, Seat: seat, Viewer: c.Actor, Char: m.Char}}
	case MReturn:
		return []Event{{Type: evReturned, Seat: seat, Target: c.Target}}
	case MChange:
		court := s.Court
		court[c.Shown]++
		return []Event{{Type: evChanged, Seat: c.Target, Viewer: seat, Char: c.Shown, Drew: draw(&court, r)}}
	}
	return nil
}

// Resign is a player leaving: [HOUSE] TC-34, their cards are turned face up
// and they are out; the turn goes on as if they had been eliminated.
func (g Rules) Resign(s *State, seat games.Seat, r *rand.Rand) ([]Event, error) {
	i := int(seat)
	if s.Stage == stOver || s.Stage == stEnd {
		return nil, games.Illegal("TC-22", "the game is over")
	}
	if i < 0 || i >= len(s.Players) || !s.alive(i) {
		return nil, games.Illegal("TC-21", "only a player still in the game can resign")
	}
	e := Event{Type: evResigned, Seat: i, Cards: slices.Clone(s.Players[i].Hidden)}
	return g.settle(s, []Event{e}, r), nil
}

// Pending lists who may act now (section 6).
func (g Rules) Pending(s *State) []games.Pending {
	var out []games.Pending
	c := &s.Ctx
	one := func(seat int, kind, rule, def string) {
		out = append(out, games.Pending{Seat: games.Seat(seat), Kind: kind, Rule: rule, Default: def})
	}
	switch s.Stage {
	case stKeep:
		for i, p := range s.Players {
			if !p.Kept && s.alive(i) {
				one(i, "keep", "TC-25i", "keep "+p.Set[0].String())
			}
		}
	case stFaction:
		for i, p := range s.Players {
			if !p.FactionChosen && s.alive(i) {
				def := "faction up"
				if i%2 == 1 {
					def = "faction down"
				}
				one(i, "faction", "TC-25j", def)
			}
		}
	case stTurn:
		one(s.Turn, "turn", "TC-25a", g.Format(s, s.defaultTurn()))
	case stW1, stW2, stW3:
		w, _ := s.Stage.window()
		rule := []string{"TC-25b", "TC-25d", "TC-25e"}[w]
		for i, seat := range c.Resp {
			if !c.Answered[i] {
				one(seat, w.String(), rule, "allow")
			}
		}
	case stAnswer:
		h := s.Players[c.Claimant].Hidden
		def := h[0]
		if slices.Contains(h, c.Claim) {
			def = c.Claim
		}
		one(c.Claimant, "answer", "TC-25c", "reveal "+def.String())
	case stLose:
		one(c.Loser, "lose", "TC-25f", "reveal "+s.Players[c.Loser].Hidden[0].String())
	case stExchange:
		one(c.Actor, "exchange", "TC-25g", g.Format(s, Move{Kind: MKeep, Keep: slices.Clone(s.Players[c.Actor].Hidden)}))
	case stShow:
		one(c.Target, "show", "TC-25h", "show "+s.Players[c.Target].Hidden[0].String())
	case stExamine:
		one(c.Actor, "examine", "TC-25h", "return")
	}
	return out
}

// defaultTurn is TC-25a's default: income, or with 10+ coins a coup on the
// next living player in seat order who may be targeted (Selective: Duke).
func (s *State) defaultTurn() Move {
	if s.Players[s.Turn].Coins < 10 {
		return Move{Kind: MAction, Action: Income}
	}
	n := len(s.Players)
	for k := 1; k < n; k++ {
		t := (s.Turn + k) % n
		if s.mayTarget(s.Turn, t) {
			m := Move{Kind: MAction, Action: CoupAct, Target: t}
			if s.Opt.SelectiveCoup {
				m.Char = Duke
			}
			return m
		}
	}
	return Move{Kind: MAction, Action: Income}
}

// Legal lists seat's legal moves in canonical notation.
func (g Rules) Legal(s *State, seat games.Seat) []string {
	moves := g.legalMoves(s, int(seat))
	if moves == nil {
		return nil
	}
	out := make([]string, len(moves))
	for j, m := range moves {
		out[j] = g.Format(s, m)
	}
	return out
}

// legalMoves lists seat's legal moves, one per canonical notation, in the
// order of Legal.
func (g Rules) legalMoves(s *State, i int) []Move {
	if s.Stage == stOver || s.Stage == stEnd || !s.alive(i) {
		return nil
	}
	var cands []Move
	p := &s.Players[i]
	c := &s.Ctx
	switch s.Stage {
	case stKeep:
		for _, ch := range p.Set {
			cands = append(cands, Move{Kind: MKeep, Keep: []Char{ch}})
		}
	case stFaction:
		cands = append(cands, Move{Kind: MFaction, On: true}, Move{Kind: MFaction})
	case stTurn:
		for _, a := range []Act{Income, ForeignAid, Tax, Exchange, Defect} {
			cands = append(cands, Move{Kind: MAction, Action: a})
		}
		for t := range s.Players {
			for _, a := range []Act{Steal, Assassinate, Examine} {
				cands = append(cands, Move{Kind: MAction, Action: a, Target: t})
			}
			if s.Opt.SelectiveCoup {
				for _, ch := range s.deckChars() {
					cands = append(cands, Move{Kind: MAction, Action: CoupAct, Target: t, Char: ch})
				}
			} else {
				cands = append(cands, Move{Kind: MAction, Action: CoupAct, Target: t})
			}
		}
	case stW1, stW2, stW3:
		cands = append(cands, Move{Kind: MAllow}, Move{Kind: MChallenge})
		for _, ch := range s.blockChars(c.Action) {
			cands = append(cands, Move{Kind: MBlock, Char: ch})
		}
	case stAnswer, stLose:
		for _, ch := range slices.Compact(slices.Clone(p.Hidden)) {
			cands = append(cands, Move{Kind: MReveal, Char: ch})
		}
	case stExchange:
		for _, k := range keepChoices(append(slices.Clone(p.Hidden), c.Drawn...), len(p.Hidden)) {
			cands = append(cands, Move{Kind: MKeep, Keep: k})
		}
	case stShow:
		for _, ch := range slices.Compact(slices.Clone(p.Hidden)) {
			cands = append(cands, Move{Kind: MShow, Char: ch})
		}
	case stExamine:
		cands = append(cands, Move{Kind: MReturn}, Move{Kind: MChange})
	}
	for w := range nWindows {
		cands = append(cands, Move{Kind: MAutoAllow, Window: w, On: !p.AutoAllow[w]})
	}
	cands = append(cands, Move{Kind: MAutoAllow, All: true, On: true}, Move{Kind: MAutoAllow, All: true})
	var out []Move
	seen := map[string]bool{}
	for _, m := range cands {
		if g.check(s, i, m) == nil {
			if f := g.Format(s, m); !seen[f] {
				seen[f] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// keepChoices lists the distinct multisets of k cards from pool, canonical.
func keepChoices(pool []Char, k int) [][]Char {
	slices.Sort(pool)
	var out [][]Char
	var rec func(start int, cur []Char)
	rec = func(start int, cur []Char) {
		if len(cur) == k {
			for _, o := range out {
				if slices.Equal(o, cur) {
					return
				}
			}
			out = append(out, slices.Clone(cur))
			return
		}
		for j := start; j < len(pool); j++ {
			rec(j+1, append(cur, pool[j]))
		}
	}
	rec(0, nil)
	return out
}

// Result tells whether the game is over and who won (TC-22).
func (Rules) Result(s *State) games.Result {
	if s.Stage != stOver {
		return games.Result{}
	}
	if s.Winner < 0 {
		return games.Result{Finished: true, Summary: games.Said("no winner")}
	}
	return games.Result{Finished: true, Winners: []games.Seat{games.Seat(s.Winner)}, Summary: games.Said(s.name(s.Winner) + " wins")}
}

// Players returns the player names by seat; nil before seating.
func (Rules) Players(s *State) []string {
	if len(s.Players) == 0 {
		return nil
	}
	out := make([]string, len(s.Players))
	for i, p := range s.Players {
		out[i] = p.Name
	}
	return out
}

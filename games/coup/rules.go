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
		return nil, words.Illegal("TC-1", "refusal.seats", len(players))
	}
	full := games.Options{}
	for _, spec := range (Rules{}).Info().Options {
		v, ok := opts[spec.Name]
		if !ok {
			v = spec.Default
		}
		if !slices.Contains(spec.Values, v) {
			return nil, words.Illegal("options", "refusal.option_value", spec.Name, strings.Join(spec.Values, ", "), v)
		}
		full[spec.Name] = v
	}
	for name := range opts {
		if _, ok := full[name]; !ok {
			return nil, words.Illegal("options", "refusal.unknown_option", name)
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

// waiting says what the game waits for, for refusals: public facts only.
func (s *State) waiting() games.Text {
	c := &s.Ctx
	switch s.Stage {
	case stKeep:
		return games.T("waiting.keep")
	case stFaction:
		return games.T("waiting.faction")
	case stTurn:
		return games.T("waiting.turn", s.name(s.Turn))
	case stW1:
		return games.T("waiting.challenge", s.name(c.Actor))
	case stW2:
		return games.T("waiting.block", s.name(c.Actor))
	case stW3:
		return games.T("waiting.block-challenge", s.name(c.Blocker))
	case stAnswer:
		return games.T("waiting.answer", s.name(c.Claimant), s.name(c.Challenger))
	case stLose:
		return games.T("waiting.lose", s.name(c.Loser))
	case stExchange:
		return games.T("waiting.exchange", s.name(c.Actor))
	case stShow:
		return games.T("waiting.show", s.name(c.Target), s.name(c.Actor))
	case stExamine:
		return games.T("waiting.examine", s.name(c.Actor))
	}
	return games.T("waiting.over")
}

// check validates a move for seat; it never modifies s.
func (g Rules) check(s *State, seat int, m Move) error {
	if s.Stage == stOver || s.Stage == stEnd {
		return words.Illegal("TC-22", "refusal.over")
	}
	if seat < 0 || seat >= len(s.Players) {
		return words.Illegal("TC-21", "refusal.not_seated")
	}
	if !s.alive(seat) {
		return words.Illegal("TC-21", "refusal.no_influence", s.name(seat))
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
			return words.Illegal("TC-32", "refusal.auto_allow_same", games.T("setting."+onOff(m.On)))
		}
		return nil
	case MKeep:
		if s.Stage == stKeep {
			if p.Kept {
				return words.Illegal("TC-2", "refusal.kept_already")
			}
			if len(m.Keep) != 1 {
				return words.Illegal("TC-2", "refusal.keep_one")
			}
			if !slices.Contains(p.Set, m.Keep[0]) {
				return words.Illegal("TC-2", "refusal.not_in_set", charName(m.Keep[0]))
			}
			return nil
		}
		if s.Stage != stExchange || seat != c.Actor {
			return words.Illegal("TC-10", "refusal.no_exchange", s.waiting())
		}
		rule := "TC-10"
		if s.Opt.Inquisitor {
			rule = "TC-26"
		}
		if len(m.Keep) != len(p.Hidden) {
			return words.Illegal(rule, "refusal.keep_count", len(p.Hidden))
		}
		pool := append(slices.Clone(p.Hidden), c.Drawn...)
		for _, k := range m.Keep {
			if !slices.Contains(pool, k) {
				return words.Illegal(rule, "refusal.keep_pool", charName(k))
			}
			pool = removeOne(pool, k)
		}
		return nil
	case MFaction:
		if !s.Opt.Factions {
			return words.Illegal("TC-27", "refusal.no_factions")
		}
		if s.Stage != stFaction {
			return words.Illegal("TC-27", "refusal.factions_at_setup", written("defect"))
		}
		if p.FactionChosen {
			return words.Illegal("TC-27", "refusal.faction_already")
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
				return words.Illegal("TC-15", "refusal.no_card_reveal", charName(m.Char))
			}
			return nil
		case s.Stage == stLose && seat == c.Loser:
			if !slices.Contains(p.Hidden, m.Char) {
				return words.Illegal("TC-33", "refusal.no_card_lose", charName(m.Char))
			}
			return nil
		case s.Stage == stAnswer:
			return words.Illegal("TC-15", "refusal.not_challenged", s.waiting())
		}
		return words.Illegal("TC-33", "refusal.nothing_to_reveal", s.waiting())
	case MShow:
		if !s.Opt.Inquisitor {
			return words.Illegal("TC-26", "refusal.no_inquisitor")
		}
		if s.Stage != stShow || seat != c.Target {
			return words.Illegal("TC-26", "refusal.not_examined", s.waiting())
		}
		if !slices.Contains(p.Hidden, m.Char) {
			return words.Illegal("TC-26", "refusal.no_card_show", charName(m.Char))
		}
		return nil
	case MReturn, MChange:
		if !s.Opt.Inquisitor {
			return words.Illegal("TC-26", "refusal.no_inquisitor")
		}
		if s.Stage != stExamine || seat != c.Actor {
			return words.Illegal("TC-26", "refusal.no_examined_card", s.waiting())
		}
		return nil
	}
	return words.Unparsable("refusal.not_coup_move")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (g Rules) checkAction(s *State, seat int, m Move) error {
	if s.Stage != stTurn {
		return words.Illegal("TC-4", "refusal.not_turn_start", s.waiting())
	}
	if seat != s.Turn {
		return words.Illegal("TC-4", "refusal.not_your_turn", s.name(s.Turn))
	}
	p := &s.Players[seat]
	a := m.Action
	switch a {
	case Exchange:
		// Ambassador or Inquisitor exchange.
	case Examine:
		if !s.Opt.Inquisitor {
			return words.Illegal("TC-26", "refusal.examine_no_inquisitor")
		}
	case Defect:
		if !s.Opt.Factions {
			return words.Illegal("TC-27", "refusal.defect_no_factions")
		}
	case CoupAct:
		if s.Opt.SelectiveCoup && m.Char == NoChar {
			return words.Illegal("TC-28", "refusal.coup_names", written("coup"))
		}
		if !s.Opt.SelectiveCoup && m.Char != NoChar {
			return words.Illegal("TC-28", "refusal.coup_no_name")
		}
		if m.Char != NoChar && !s.inDeck(m.Char) {
			return words.Illegal("TC-28", "refusal.not_in_game", charName(m.Char))
		}
	}
	if p.Coins >= 10 && a != CoupAct {
		return words.Illegal("TC-5", "refusal.must_coup", p.Coins)
	}
	if p.Coins < a.cost() {
		return words.Illegal("TC-30", "refusal.cost", actTitle(a), games.T("coins", a.cost()), games.T("coins", p.Coins))
	}
	if a.targeted() {
		t := m.Target
		switch {
		case t < 0 || t >= len(s.Players):
			return words.Illegal("TC-8", "refusal.no_seat_target", t)
		case t == seat:
			return words.Illegal("TC-8", "refusal.target_self")
		case !s.alive(t):
			return words.Illegal("TC-21", "refusal.target_out", s.name(t))
		case !s.mayTarget(seat, t):
			return words.Illegal("TC-27", "refusal.same_faction", s.name(t))
		}
	}
	return nil
}

// actTitle names an action in a refusal ("Foreign Aid").
func actTitle(a Act) games.Text {
	if a.String() == "" {
		return games.T("action.title.none")
	}
	return games.T("action.title." + a.String())
}

func (g Rules) checkResponse(s *State, seat int, m Move) error {
	c := &s.Ctx
	w, open := s.Stage.window()
	// inTurn: an action is under way (its windows, answers, losses, …).
	inTurn := c.Action != NoAct && s.Stage != stTurn
	if m.Kind == MChallenge && inTurn && c.Blocker < 0 && s.claimOf(c.Action) == NoChar {
		return words.Illegal("TC-12", "refusal.not_claim", actTitle(c.Action))
	}
	if m.Kind == MBlock && inTurn {
		bc := s.blockChars(c.Action)
		if len(bc) == 0 {
			if c.Action == Tax {
				return words.Illegal("TC-29", "refusal.tax_unblockable")
			}
			return words.Illegal("TC-14", "refusal.unblockable", actTitle(c.Action))
		}
		if (open && w == W1) || (c.Phase == 1 && (s.Stage == stAnswer || s.Stage == stLose)) {
			return words.Illegal("TC-13", "refusal.block_too_early")
		}
	}
	if !open {
		if s.Stage == stTurn && seat == s.Turn {
			if m.Kind == MAllow {
				return words.Illegal("TC-4", "refusal.no_pass")
			}
			return words.Illegal("TC-4", "refusal.your_turn")
		}
		if s.Stage == stAnswer && c.Phase == 1 {
			return words.Illegal("TC-24", "refusal.challenged_first", s.name(c.Challenger))
		}
		if s.Stage == stAnswer || (s.Stage == stLose && c.Phase == 3) {
			return words.Illegal("TC-24", "refusal.block_challenged_first", s.name(c.Challenger))
		}
		if c.Action != NoAct && s.Stage != stTurn {
			return words.Illegal("TC-24", "refusal.window_decided", s.waiting())
		}
		return words.Illegal("TC-31", "refusal.no_window", s.waiting())
	}
	i := slices.Index(c.Resp, seat)
	if i < 0 {
		switch {
		case w == W1 && seat == c.Actor:
			return words.Illegal("TC-23", "refusal.own_action")
		case w == W3 && seat == c.Blocker:
			return words.Illegal("TC-23", "refusal.own_block")
		case w == W2 && m.Kind == MAllow:
			if s.targetBlocks() {
				return words.Illegal("TC-23", "refusal.block_window_target", s.name(c.Target), actTitle(c.Action))
			}
			return words.Illegal("TC-23", "refusal.block_window_others", actTitle(c.Action))
		case w == W2 && m.Kind == MChallenge:
			return words.Illegal("TC-24", "refusal.block_window_open")
		case w == W2:
			if s.targetBlocks() {
				return words.Illegal("TC-14", "refusal.block_target", s.name(c.Target), actTitle(c.Action))
			}
			return words.Illegal("TC-14", "refusal.block_others", actTitle(c.Action))
		}
		return words.Illegal("TC-23", "refusal.not_responder")
	}
	if c.Answered[i] {
		return words.Illegal("TC-31", "refusal.answered", written("allow"))
	}
	switch m.Kind {
	case MChallenge:
		if w == W2 {
			return words.Illegal("TC-24", "refusal.challenge_closed")
		}
	case MBlock:
		if w == W3 && c.Action == ForeignAid && m.Char == Contessa {
			return words.Illegal("TC-29", "refusal.contessa_duke")
		}
		if w == W3 {
			return words.Illegal("TC-24", "refusal.blocked_first", s.name(c.Blocker))
		}
		bc := s.blockChars(c.Action)
		if !slices.Contains(bc, m.Char) {
			var names games.Text
			for j, b := range slices.Backward(bc) {
				if j == len(bc)-1 {
					names = charName(b)
				} else {
					names = games.T("or", charName(b), names)
				}
			}
			return words.Illegal("TC-14", "refusal.blocked_by", actTitle(c.Action), names, charName(m.Char))
		}
	}
	return nil
}

// targetBlocks reports whether only the target of the action in progress
// may block it (TC-14).
func (s *State) targetBlocks() bool {
	return s.Ctx.Action == Assassinate || s.Ctx.Action == Steal
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
		return nil, words.Illegal("TC-22", "refusal.over")
	}
	if i < 0 || i >= len(s.Players) || !s.alive(i) {
		return nil, words.Illegal("TC-21", "refusal.resign_out")
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
		return games.Result{Finished: true, Summary: words.Phrase("summary.no_winner")}
	}
	return games.Result{Finished: true, Winners: []games.Seat{games.Seat(s.Winner)}, Summary: words.Phrase("summary.wins", s.name(s.Winner))}
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

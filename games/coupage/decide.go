package coupage

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/courrier-games/courrier/games"
)

// Move kinds.
const (
	mvDraw    = "draw"        // CP-4 top of the deck
	mvMarket  = "draw market" // CP-4 market slot
	mvMake    = "make"        // CP-8
	mvRepair  = "repair"      // CP-29
	mvTime    = "time"        // CP-18 (no cards) or CP-9 (grapes)
	mvBottle  = "bottle"      // CP-10
	mvDiscard = "discard"     // CP-20
	mvSpecial = "special"     // CP-21
	mvPick    = "pick"        // CP-27
	mvTake    = "take"        // CP-31
	mvAge     = "age"         // CP-32
	mvRecover = "recover"     // CP-34
	mvEnd     = "end"         // end of the turn (CP-44)
)

// Move is one parsed move line.
type Move struct {
	Kind string `json:"kind"`
	// Special is the special card's code (Kind "special").
	Special string `json:"special,omitempty"`
	Slot    int    `json:"slot,omitempty"`
	Wine    string `json:"wine,omitempty"`
	// Barrel is 1-based: the mover's own barrel, or Target's barrel.
	Barrel int        `json:"barrel,omitempty"`
	Target games.Seat `json:"target,omitempty"`
	// Own is the mover's barrel receiving a stolen Time (Vol de temps).
	Own      int      `json:"own,omitempty"`
	Cards    []string `json:"cards,omitempty"`
	Card     string   `json:"card,omitempty"`
	FaceDown bool     `json:"face_down,omitempty"`
	Nothing  bool     `json:"nothing,omitempty"`
}

// builder collects the events of one decision, applying each to its own
// copy of the state so that automatic follow-ups see their effect.
type builder struct {
	r   Rules
	s   *State
	rng *rand.Rand
	evs []Event
}

func (b *builder) emit(e Event) {
	b.evs = append(b.evs, e)
	b.s = b.r.Evolve(b.s, e)
}

// name is a seat's player name for messages.
func (s *State) name(seat games.Seat) string {
	if seat >= 0 && int(seat) < len(s.Players) {
		return s.Players[seat]
	}
	return strconv.Itoa(int(seat)) // no seat of a valid game
}

// Decide implements games.Rules.
func (r Rules) Decide(s *State, seat games.Seat, m Move, rng *rand.Rand) ([]Event, error) {
	if s.aid == nil {
		return nil, words.Illegal("CP-3", "refusal.not_set_up")
	}
	if err := s.validate(seat, m); err != nil {
		return nil, err
	}
	b := &builder{r: r, s: s.clone(), rng: rng}
	b.apply(seat, m)
	return b.evs, nil
}

// validate checks a move without changing anything: nil when it is legal.
func (s *State) validate(seat games.Seat, m Move) error {
	if s.Over {
		return words.Illegal("CP-13", "refusal.over")
	}
	if seat < 0 || int(seat) >= len(s.Players) {
		return words.Illegal("CP-15", "refusal.not_seated", s.of(s.Turn.Seat))
	}
	if h := s.Harvest; h != nil {
		picker := h.Order[h.Next]
		if seat != picker {
			return words.Illegal("CP-41", "refusal.harvest_pick_of", s.of(picker))
		}
		if m.Kind != mvPick {
			return words.Illegal("CP-27", "refusal.harvest_first", s.aid.cardList(h.Cards))
		}
		if !slices.Contains(h.Cards, m.Card) {
			return words.Illegal("CP-27", "refusal.harvest_not_revealed", s.aid.cardText(m.Card), s.aid.cardList(h.Cards))
		}
		return nil
	}
	// A seat that may not act is told so first, whatever its move (CP-15).
	if seat != s.Turn.Seat {
		return words.Illegal("CP-15", "refusal.not_your_turn", s.of(s.Turn.Seat))
	}
	if m.Kind == mvPick {
		return words.Illegal("CP-27", "refusal.no_harvest")
	}
	if (m.Kind == mvTake || m.Kind == mvAge || m.Kind == mvRecover) && !s.Abilities {
		return words.Illegal("CP-7", "refusal.abilities_off")
	}
	if m.Kind == mvEnd {
		return nil
	}
	isAbility := m.Kind == mvTake || m.Kind == mvAge || m.Kind == mvRecover
	if ab := s.Turn.Ability; ab != "" {
		return s.validateAbility(seat, ab, m)
	}
	if isAbility {
		rule := map[string]string{mvTake: "CP-31", mvAge: "CP-32", mvRecover: "CP-34"}[m.Kind]
		return words.Illegal(rule, "refusal.no_ability")
	}
	if !s.Turn.Drawn {
		switch m.Kind {
		case mvDraw:
			return nil
		case mvMarket:
			if s.Market[m.Slot-1] == "" {
				return words.Illegal("CP-4", "refusal.slot_empty", m.Slot)
			}
			return nil
		}
		return words.Illegal("CP-4", "refusal.draw_first")
	}
	if m.Kind == mvDraw || m.Kind == mvMarket {
		return words.Illegal("CP-4", "refusal.drawn")
	}
	if s.Turn.Actions <= 0 {
		return words.Illegal("CP-16", "refusal.no_action")
	}
	a := s.aid
	hand := s.Hands[seat]
	switch m.Kind {
	case mvMake:
		w, _ := a.wine(m.Wine)
		bar := s.Barrels[seat][m.Barrel-1]
		switch bar.State {
		case Bottled:
			return words.Illegal("CP-10", "refusal.barrel_bottled", m.Barrel)
		case Production:
			return words.Illegal("CP-8", "refusal.barrel_busy", m.Barrel, s.wineName(bar.Wine))
		}
		if err := a.grapesFromHand("CP-8", hand, m.Cards); err != nil {
			return err
		}
		if !a.matches(w, m.Cards) {
			if len(m.Cards) < w.size() && a.couldComplete(w, m.Cards) {
				return words.Illegal("CP-8", "refusal.recipe_all", w.Name, a.recipeText(w), len(m.Cards))
			}
			return words.Illegal("CP-8", "refusal.not_recipe", s.aid.cardList(m.Cards), w.Name, a.recipeText(w))
		}
		wines, cavas := s.countWines(seat)
		if w.IsCava() && cavas >= 2 {
			return words.Illegal("CP-17", "refusal.third_cava")
		}
		if !w.IsCava() && wines >= 3 {
			return words.Illegal("CP-17", "refusal.fourth_wine")
		}
		return nil
	case mvRepair:
		bar := s.Barrels[seat][m.Barrel-1]
		if bar.State != Production {
			return words.Illegal("CP-29", "refusal.repair_state", m.Barrel, stateText(bar.State))
		}
		if bar.Spoil > 0 {
			return words.Illegal("CP-24", "refusal.repair_spoiled", m.Barrel)
		}
		w, _ := a.wine(bar.Wine)
		if a.matches(w, bar.Grapes) {
			return words.Illegal("CP-29", "refusal.repair_complete", m.Barrel)
		}
		if err := a.grapesFromHand("CP-29", hand, m.Cards); err != nil {
			return err
		}
		if !a.matches(w, append(slices.Clone(bar.Grapes), m.Cards...)) {
			return words.Illegal("CP-29", "refusal.repair_mismatch", s.aid.cardList(m.Cards), m.Barrel, w.Name, a.recipeText(w))
		}
		return nil
	case mvTime:
		if err := s.canReceiveTime(seat, m.Barrel, "CP-19"); err != nil {
			return err
		}
		if len(m.Cards) == 0 {
			if !slices.Contains(hand, timeCard) {
				return words.Illegal("CP-18", "refusal.no_time_card", m.Barrel)
			}
			return nil
		}
		if err := a.grapesFromHand("CP-9", hand, m.Cards); err != nil {
			return err
		}
		return a.payment("CP-9", m.Cards, 3, "payment.time")
	case mvBottle:
		w, err := s.ready(seat, m.Barrel, "CP-10")
		if err != nil {
			return err
		}
		if err := a.grapesFromHand("CP-10", hand, m.Cards); err != nil {
			return err
		}
		what := "payment.wine"
		if w.IsCava() {
			what = "payment.cava"
		}
		return a.payment("CP-10", m.Cards, w.Stars, what)
	case mvDiscard:
		if !slices.Contains(hand, m.Card) {
			return words.Illegal("CP-20", "refusal.discard_none", s.aid.cardText(m.Card))
		}
		return nil
	case mvSpecial:
		return s.validateSpecial(seat, m)
	}
	return words.Illegal(games.NotationRule, "refusal.unknown_kind", m.Kind)
}

// grapesFromHand checks that cards are grape cards held in hand.
func (a *Aid) grapesFromHand(rule string, hand, cards []string) error {
	if len(cards) == 0 {
		return words.Illegal(rule, "refusal.no_grapes")
	}
	left := slices.Clone(hand)
	for _, c := range cards {
		if !a.isGrape(c) {
			return words.Illegal(rule, "refusal.not_grape", a.cardText(c))
		}
		i := slices.Index(left, c)
		if i < 0 {
			return words.Illegal(rule, "refusal.not_held_all", a.cardList(countedMissing(hand, cards)))
		}
		left = slices.Delete(left, i, i+1)
	}
	return nil
}

// countedMissing lists the named cards beyond what hand holds.
func countedMissing(hand, cards []string) []string {
	left := slices.Clone(hand)
	var out []string
	for _, c := range cards {
		if i := slices.Index(left, c); i >= 0 {
			left = slices.Delete(left, i, i+1)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// payment checks a star payment: at least need stars, with no card that is
// not needed (CP-43). what is the key of what is paid for ("payment.wine").
func (a *Aid) payment(rule string, cards []string, need int, what string) error {
	st := a.starsOf(cards)
	if st < need {
		return words.Illegal(rule, "refusal.stars_short", games.T(what), need, a.cardList(cards), st)
	}
	if c, ok := a.unneeded(cards, st, need); ok {
		return words.Illegal("CP-43", "refusal.stars_unneeded", a.cardText(c), st-a.stars[c], need)
	}
	return nil
}

// paid tells whether cards are a star payment of need (what payment
// accepts), without a refusal's words: Legal asks it of many sets of cards.
func (a *Aid) paid(cards []string, need int) bool {
	st := a.starsOf(cards)
	_, extra := a.unneeded(cards, st, need)
	return st >= need && !extra
}

// unneeded is a card of a payment of st stars that could be left out while
// the others still make need (CP-43), and whether there is one.
func (a *Aid) unneeded(cards []string, st, need int) (string, bool) {
	for _, c := range cards {
		if st-a.stars[c] >= need {
			return c, true
		}
	}
	return "", false
}

// wineName is the display name of a wine code (the same in every
// language: the wines have their names of the game).
func (s *State) wineName(code string) string {
	if s.aid == nil {
		return code
	}
	if w, ok := s.aid.wine(code); ok {
		return w.Name
	}
	return code
}

// recipeText describes a recipe in words: "1 red + 1 white" (a colour
// is the catalog's "recipe.<colour>", its number of cards the argument).
func (a *Aid) recipeText(w Wine) games.Text {
	var parts []games.Text
	for _, col := range []string{"red", "white"} {
		if n := w.Recipe[col]; n > 0 {
			parts = append(parts, games.T("recipe."+col, n))
		}
	}
	for _, col := range slices.Sorted(maps.Keys(w.Recipe)) {
		if n := w.Recipe[col]; col != "red" && col != "white" && n > 0 {
			parts = append(parts, games.T("recipe."+col, n))
		}
	}
	if len(parts) == 0 {
		return games.T("board.nothing")
	}
	t := parts[len(parts)-1]
	for i := len(parts) - 2; i >= 0; i-- {
		t = games.T("recipe.plus", parts[i], t)
	}
	if w.Distinct {
		t = games.T("recipe.distinct", t)
	}
	return t
}

// countWines counts seat's wines and cavas in production or bottled (CP-17).
func (s *State) countWines(seat games.Seat) (wines, cavas int) {
	for _, b := range s.Barrels[seat] {
		if b.State == Empty {
			continue
		}
		if w, _ := s.aid.wine(b.Wine); w.IsCava() {
			cavas++
		} else {
			wines++
		}
	}
	return wines, cavas
}

// complete tells whether a barrel in production matches its recipe.
func (s *State) complete(b Barrel) bool {
	if b.State != Production {
		return false
	}
	w, _ := s.aid.wine(b.Wine)
	return s.aid.matches(w, b.Grapes)
}

// canReceiveTime checks CP-19 for seat's barrel (1-based): every way of
// adding Time (a Time card, Time from stars, Vol de temps, the Rouge
// ability) asks it. Under rules version 1 a barrel that lost a grape
// (CP-28) was refused too; from version 2 only its bottling waits (CP-29).
func (s *State) canReceiveTime(seat games.Seat, barrel int, rule string) error {
	b := s.Barrels[seat][barrel-1]
	if b.State != Production {
		return words.Illegal(rule, s.timeTarget("refusal.time_state"), barrel, stateText(b.State))
	}
	if b.Spoil > 0 {
		return words.Illegal("CP-24", "refusal.time_spoiled", barrel)
	}
	if !s.timeOnIncomplete() && !s.complete(b) {
		return words.Illegal("CP-29", "refusal.time_incomplete", barrel)
	}
	return nil
}

// timeTarget is the key of a refusal that says which barrels may receive
// Time, under the game's rules version: key itself, or key+"_complete"
// under version 1 (only a complete barrel).
func (s *State) timeTarget(key string) string {
	if s.timeOnIncomplete() {
		return key
	}
	return key + "_complete"
}

// ready checks that seat's barrel may be bottled now.
func (s *State) ready(seat games.Seat, barrel int, rule string) (Wine, error) {
	b := s.Barrels[seat][barrel-1]
	switch b.State {
	case Bottled:
		return Wine{}, words.Illegal(rule, "refusal.already_bottled", barrel)
	case Empty:
		return Wine{}, words.Illegal(rule, "refusal.bottle_empty", barrel)
	}
	w, _ := s.aid.wine(b.Wine)
	if b.Spoil > 0 {
		return w, words.Illegal("CP-24", "refusal.bottle_spoiled", barrel)
	}
	if !s.complete(b) {
		return w, words.Illegal("CP-29", "refusal.bottle_incomplete", barrel)
	}
	if len(b.Time) < w.Time {
		return w, words.Illegal(rule, "refusal.not_ready", barrel, w.Name, w.Time, len(b.Time))
	}
	return w, nil
}

// timeReceivers lists seat's barrels (1-based) that may receive Time.
func (s *State) timeReceivers(seat games.Seat) []int {
	var out []int
	for j := range s.Barrels[seat] {
		if s.canReceiveTime(seat, j+1, "CP-19") == nil {
			out = append(out, j+1)
		}
	}
	return out
}

// other checks that target is another seat still in the game.
func (s *State) other(seat, target games.Seat, rule, what string) error {
	if target == seat {
		return words.Illegal(rule, "refusal.target_self", what)
	}
	if target < 0 || int(target) >= len(s.Players) {
		return words.Illegal(rule, "refusal.no_seat", int(target))
	}
	if s.Resigned[target] {
		return words.Illegal(rule, "refusal.target_left", s.name(target))
	}
	return nil
}

// validateSpecial checks CP-21 to CP-30 for a special card.
func (s *State) validateSpecial(seat games.Seat, m Move) error {
	a := s.aid
	sp := a.specialByCode(m.Special)
	if !slices.Contains(s.Hands[seat], m.Special) {
		return words.Illegal("CP-21", "refusal.not_held", games.Plain(sp.Name))
	}
	switch sp.Effect {
	case effYoung:
		_, err := s.ready(seat, m.Barrel, "CP-22")
		return err
	case effStealCard:
		if err := s.other(seat, m.Target, "CP-23", sp.Name); err != nil {
			return err
		}
		if len(s.Hands[m.Target]) == 0 {
			return words.Illegal("CP-23", "refusal.steal_empty", s.name(m.Target))
		}
	case effSpoil:
		if err := s.other(seat, m.Target, "CP-24", sp.Name); err != nil {
			return err
		}
		b := s.Barrels[m.Target][m.Barrel-1]
		if b.State != Production {
			return words.Illegal("CP-24", "refusal.spoil_state", s.of(m.Target), m.Barrel, stateText(b.State))
		}
		if b.Spoil > 0 {
			return words.Illegal("CP-24", "refusal.spoil_twice", s.of(m.Target), m.Barrel)
		}
	case effOenologue:
		if m.Target < 0 || int(m.Target) >= len(s.Players) {
			return words.Illegal("CP-26", "refusal.no_seat", int(m.Target))
		}
		if s.Barrels[m.Target][m.Barrel-1].Spoil == 0 {
			return words.Illegal("CP-26", "refusal.no_spoil", s.of(m.Target), m.Barrel)
		}
	case effHarvest:
		if len(s.Deck)+len(s.Discard) == 0 {
			return words.Illegal("CP-27", "refusal.harvest_empty")
		}
	case effEvaporate:
		if err := s.other(seat, m.Target, "CP-28", sp.Name); err != nil {
			return err
		}
		b := s.Barrels[m.Target][m.Barrel-1]
		if b.State != Production {
			return words.Illegal("CP-28", "refusal.evaporate_state", s.of(m.Target), m.Barrel, stateText(b.State))
		}
		if !slices.Contains(b.Grapes, m.Card) {
			return words.Illegal("CP-28", "refusal.evaporate_none", s.of(m.Target), m.Barrel, s.aid.cardText(m.Card))
		}
		if len(b.Grapes) < 2 {
			return words.Illegal("CP-28", "refusal.evaporate_last", s.aid.cardText(m.Card), s.of(m.Target), m.Barrel)
		}
	case effStealTime:
		if err := s.other(seat, m.Target, "CP-30", sp.Name); err != nil {
			return err
		}
		if len(s.timeReceivers(seat)) == 0 {
			return words.Illegal("CP-30", s.timeTarget("refusal.steal_time_nowhere"))
		}
		b := s.Barrels[m.Target][m.Barrel-1]
		if b.State != Production {
			return words.Illegal("CP-30", "refusal.steal_time_state", s.of(m.Target), m.Barrel, stateText(b.State))
		}
		if timeIndex(b, m.FaceDown) < 0 {
			return words.Illegal("CP-30", "refusal.steal_time_none", s.of(m.Target), m.Barrel, formText(m.FaceDown))
		}
		if err := s.canReceiveTime(seat, m.Own, "CP-30"); err != nil {
			return err
		}
	}
	return nil
}

// specialByCode returns the special of a code.
func (a *Aid) specialByCode(code string) Special {
	for _, sp := range a.Specials {
		if sp.Code == code {
			return sp
		}
	}
	return Special{Code: code, Name: code}
}

// timeIndex is the first Time card of the form in placement order, or -1.
func timeIndex(b Barrel, faceDown bool) int {
	return slices.IndexFunc(b.Time, func(t TimeCard) bool { return t.FaceDown == faceDown })
}

// validateAbility checks a move while a wine ability waits (CP-7).
func (s *State) validateAbility(seat games.Seat, ab string, m Move) error {
	switch ab {
	case abTake:
		if m.Kind != mvTake {
			return words.Illegal("CP-31", "refusal.rose_first")
		}
		if !m.Nothing && s.Market[m.Slot-1] == "" {
			return words.Illegal("CP-31", "refusal.slot_empty", m.Slot)
		}
	case abAge:
		if m.Kind != mvAge {
			return words.Illegal("CP-32", "refusal.rouge_first")
		}
		if m.Nothing {
			return nil
		}
		if !slices.Contains(s.Hands[seat], m.Card) {
			return words.Illegal("CP-32", "refusal.not_held", s.aid.cardText(m.Card))
		}
		return s.canReceiveTime(seat, m.Barrel, "CP-32")
	case abRecover:
		if m.Kind != mvRecover {
			return words.Illegal("CP-34", "refusal.cava_blanc_first")
		}
		b := s.Barrels[seat][s.Turn.AbilityBarrel]
		if timeIndex(b, m.FaceDown) < 0 {
			return words.Illegal("CP-34", "refusal.recover_none", formText(m.FaceDown))
		}
		if !slices.Contains(b.Grapes, m.Card) {
			return words.Illegal("CP-34", "refusal.recover_no_grape", s.aid.cardText(m.Card))
		}
	}
	return nil
}

// apply produces the events of a validated move.
func (b *builder) apply(seat games.Seat, m Move) {
	s := b.s
	switch m.Kind {
	case mvPick:
		b.emit(Event{Type: evPicked, Seat: seat, Card: m.Card})
		b.harvestDone()
	case mvEnd:
		b.end(seat)
		return
	case mvDraw:
		if !b.drawOne(seat, "turn") {
			// CP-11: nothing to draw; the draw is skipped.
			b.emit(Event{Type: evDrew, Seat: seat, N: 0, Reason: "turn"})
		}
	case mvMarket:
		b.emit(Event{Type: evTook, Seat: seat, Slot: m.Slot, Card: s.Market[m.Slot-1], Reason: "turn"})
		b.fillSlot(m.Slot)
	case mvMake:
		b.emit(Event{Type: evMade, Seat: seat, Barrel: m.Barrel, Wine: m.Wine, Cards: slices.Clone(m.Cards), Action: true})
	case mvRepair:
		b.emit(Event{Type: evRepaired, Seat: seat, Barrel: m.Barrel, Cards: slices.Clone(m.Cards), Action: true})
	case mvTime:
		if len(m.Cards) == 0 {
			b.emit(Event{Type: evAged, Seat: seat, Barrel: m.Barrel, Card: timeCard, Reason: "time", Action: true})
		} else {
			b.emit(Event{Type: evAged, Seat: seat, Barrel: m.Barrel, Card: m.Cards[0], FaceDown: true,
				Paid: slices.Clone(m.Cards[1:]), Reason: "stars", Action: true})
		}
	case mvBottle:
		if b.bottle(seat, m.Barrel, m.Cards, true) {
			b.gameOver([]games.Seat{seat})
			return
		}
	case mvDiscard:
		b.emit(Event{Type: evDiscarded, Seat: seat, Cards: []string{m.Card}, Reason: "discard", Action: true})
		if !b.drawOne(seat, "action") {
			b.emit(Event{Type: evDrew, Seat: seat, N: 0, Reason: "action"})
		}
	case mvSpecial:
		if b.special(seat, m) {
			return
		}
	case mvTake:
		if m.Nothing {
			b.emit(Event{Type: evDeclined, Seat: seat, Ability: abTake})
		} else {
			b.emit(Event{Type: evTook, Seat: seat, Slot: m.Slot, Card: s.Market[m.Slot-1], Reason: "ability"})
			b.fillSlot(m.Slot)
		}
	case mvAge:
		if m.Nothing {
			b.emit(Event{Type: evDeclined, Seat: seat, Ability: abAge})
		} else {
			b.emit(Event{Type: evAged, Seat: seat, Barrel: m.Barrel, Card: m.Card, FaceDown: true, Reason: "rouge"})
		}
	case mvRecover:
		b.recover(seat, m.FaceDown, m.Card)
	}
	b.continueTurn()
}

// drawOne draws the top card of the deck for seat, reshuffling the discard
// pile when the deck is empty (CP-11); false when there is nothing to draw.
func (b *builder) drawOne(seat games.Seat, reason string) bool {
	if !b.ensureDeck() {
		return false
	}
	b.emit(Event{Type: evDrew, Seat: seat, Cards: []string{b.s.Deck[0]}, N: 1, Reason: reason})
	return true
}

// ensureDeck reshuffles the discard pile into a new deck when the deck is
// empty (CP-11); false when both are empty.
func (b *builder) ensureDeck() bool {
	if len(b.s.Deck) > 0 {
		return true
	}
	if len(b.s.Discard) == 0 {
		return false
	}
	deck := games.Shuffle(b.rng, b.s.Discard)
	b.emit(Event{Type: evShuffled, Cards: deck, N: len(deck), Reason: "reshuffle"})
	return true
}

// fillSlot refills an empty market slot from the deck (CP-4, CP-11).
func (b *builder) fillSlot(slot int) {
	if b.s.Market[slot-1] != "" || !b.ensureDeck() {
		return
	}
	b.emit(Event{Type: evMarket, Slot: slot, Card: b.s.Deck[0]})
}

// bottle bottles seat's barrel (CP-10, CP-22, CP-35) and checks the win
// (CP-13). It returns true when the game is over.
func (b *builder) bottle(seat games.Seat, barrel int, paid []string, action bool) bool {
	s := b.s
	bar := s.Barrels[seat][barrel-1]
	w, _ := s.aid.wine(bar.Wine)
	firstCava := false
	if w.IsCava() && s.CavaLeft > 0 {
		firstCava = true
		for _, o := range s.Barrels[seat] {
			if o.Cava {
				firstCava = false
			}
		}
	}
	b.emit(Event{Type: evBottled, Seat: seat, Barrel: barrel, Wine: bar.Wine, Paid: slices.Clone(paid),
		Cava: firstCava, Extra: s.Abilities && w.Ability == abExtra, Action: action})
	if b.wins(seat) {
		b.clear(seat, barrel)
		return true
	}
	if !b.s.Abilities {
		b.clear(seat, barrel)
		return false
	}
	switch w.Ability {
	case abRecover:
		b.emit(Event{Type: evAbility, Seat: seat, Barrel: barrel, Ability: abRecover})
		return false
	case abTake:
		if b.s.Market[0] != "" || b.s.Market[1] != "" {
			b.clear(seat, barrel)
			b.emit(Event{Type: evAbility, Seat: seat, Barrel: barrel, Ability: abTake})
			return false
		}
	case abAge:
		b.clear(seat, barrel)
		if len(b.s.Hands[seat]) > 0 && len(b.s.timeReceivers(seat)) > 0 {
			b.emit(Event{Type: evAbility, Seat: seat, Barrel: barrel, Ability: abAge})
		}
		return false
	}
	b.clear(seat, barrel)
	return false
}

// wins checks CP-6 for seat right after a bottling and ends the game.
func (b *builder) wins(seat games.Seat) bool {
	wines, cavas := 0, 0
	for _, bar := range b.s.Barrels[seat] {
		if bar.State != Bottled {
			continue
		}
		if w, _ := b.s.aid.wine(bar.Wine); w.IsCava() {
			cavas++
		} else {
			wines++
		}
	}
	return wines >= 2 && cavas >= 1
}

// gameOver ends the game with winners; every hand becomes public.
func (b *builder) gameOver(winners []games.Seat) {
	b.gameOverWhy(winners, "")
}

// gameOverWhy ends the game with winners (none for CP-50 and CP-51) and
// the reason of an end without a winner; every hand becomes public.
// The event carries no summary: Result says it from the winners, the
// reason and the players who left (summary).
func (b *builder) gameOverWhy(winners []games.Seat, reason string) {
	hands := make([][]string, len(b.s.Hands))
	for i, h := range b.s.Hands {
		hands[i] = slices.Clone(h)
		if hands[i] == nil {
			hands[i] = []string{}
		}
	}
	b.emit(Event{Type: evGameOver, Winners: winners, Hands: hands, Reason: reason})
}

// clear discards what is left in a bottled barrel; the event lists the
// cards, face-down ones included, since the discard pile is public.
func (b *builder) clear(seat games.Seat, barrel int) {
	bar := b.s.Barrels[seat][barrel-1]
	cards := slices.Clone(bar.Grapes)
	for _, t := range bar.Time {
		cards = append(cards, t.Card)
	}
	b.emit(Event{Type: evCleared, Seat: seat, Barrel: barrel, Cards: cards})
}

// recover applies the Cava blanc ability (CP-34) and clears the bottle.
func (b *builder) recover(seat games.Seat, faceDown bool, grape string) {
	bi := b.s.Turn.AbilityBarrel
	bar := b.s.Barrels[seat][bi]
	i := timeIndex(bar, faceDown)
	b.emit(Event{Type: evRecovered, Seat: seat, Barrel: bi + 1, Index: i, Card: bar.Time[i].Card, FaceDown: faceDown, Cards: []string{grape}})
	b.clear(seat, bi+1)
}

// defaultRecover is CP-40's choice: the first Time card in placement order
// and the lowest grape in canonical order.
func (s *State) defaultRecover(seat games.Seat) (faceDown bool, grape string) {
	bar := s.Barrels[seat][s.Turn.AbilityBarrel]
	if len(bar.Time) > 0 {
		faceDown = bar.Time[0].FaceDown
	}
	gs := s.aid.sortCards(slices.Clone(bar.Grapes))
	if len(gs) > 0 {
		grape = gs[0]
	}
	return faceDown, grape
}

// special plays a special card (CP-21); true when the game is over.
func (b *builder) special(seat games.Seat, m Move) bool {
	s := b.s
	sp := s.aid.specialByCode(m.Special)
	b.emit(Event{Type: evPlayed, Seat: seat, Card: m.Special, Action: true})
	discard := true
	over := false
	switch sp.Effect {
	case effYoung:
		over = b.bottle(seat, m.Barrel, nil, false)
	case effStealCard:
		i := games.IntN(b.rng, len(s.Hands[m.Target]))
		b.emit(Event{Type: evStole, Seat: seat, Target: m.Target, Index: i, Card: s.Hands[m.Target][i]})
	case effSpoil:
		b.emit(Event{Type: evSpoiled, Seat: seat, Target: m.Target, Barrel: m.Barrel})
		discard = false
	case effOenologue:
		b.emit(Event{Type: evSpoilGone, Seat: seat, Target: m.Target, Barrel: m.Barrel, Reason: "oenologue"})
	case effHarvest:
		var order []games.Seat
		n := len(s.Players)
		for i := range n {
			if o := (seat + games.Seat(i)) % games.Seat(n); !s.Resigned[o] {
				order = append(order, o)
			}
		}
		want := min(len(order), len(s.Deck)+len(s.Discard))
		order = order[:want]
		got := 0
		for got < want && b.ensureDeck() {
			k := min(want-got, len(b.s.Deck))
			b.emit(Event{Type: evRevealed, Seat: seat, Cards: slices.Clone(b.s.Deck[:k]), N: k, Order: order})
			got += k
		}
	case effEvaporate:
		b.emit(Event{Type: evEvaporated, Seat: seat, Target: m.Target, Barrel: m.Barrel, Card: m.Card})
	case effStealTime:
		from := s.Barrels[m.Target][m.Barrel-1]
		b.emit(Event{Type: evTimeStolen, Seat: seat, Target: m.Target, Barrel: m.Barrel, Own: m.Own,
			FaceDown: m.FaceDown, Index: timeIndex(from, m.FaceDown)})
	}
	if discard {
		b.emit(Event{Type: evDiscarded, Seat: seat, Cards: []string{m.Special}, Reason: "special"})
	}
	if over {
		b.gameOver([]games.Seat{seat})
	}
	return over
}

// harvestDone discards what is left of a Récolte nobody can pick any more.
func (b *builder) harvestDone() {
	h := b.s.Harvest
	if h != nil && h.Next >= len(h.Order) && len(h.Cards) > 0 {
		b.emit(Event{Type: evDiscarded, Seat: b.s.Turn.Seat, Cards: slices.Clone(h.Cards), Reason: "harvest"})
	}
}

// continueTurn ends the turn when nothing is left to do in it.
func (b *builder) continueTurn() {
	s := b.s
	if s.Over || s.Harvest != nil {
		return
	}
	if s.Resigned[s.Turn.Seat] {
		b.nextTurn()
		return
	}
	if s.Turn.Ability != "" {
		return
	}
	if s.Turn.Drawn && s.Turn.Actions <= 0 {
		b.finishTurn()
	}
}

// end completes the turn as CP-40's default does (CP-44).
func (b *builder) end(seat games.Seat) {
	s := b.s
	if !s.Turn.Drawn {
		switch {
		case b.drawOne(seat, "turn"):
		case s.Market[0] != "":
			b.emit(Event{Type: evTook, Seat: seat, Slot: 1, Card: s.Market[0], Reason: "turn"})
		case s.Market[1] != "":
			b.emit(Event{Type: evTook, Seat: seat, Slot: 2, Card: s.Market[1], Reason: "turn"})
		default:
			b.emit(Event{Type: evDrew, Seat: seat, N: 0, Reason: "turn"})
		}
	}
	switch b.s.Turn.Ability {
	case abTake, abAge:
		b.emit(Event{Type: evDeclined, Seat: seat, Ability: b.s.Turn.Ability})
	case abRecover:
		fd, g := b.s.defaultRecover(seat)
		b.recover(seat, fd, g)
	}
	b.finishTurn()
}

// finishTurn is the end of the active player's turn: Vin piqué counters
// (CP-25), hand refill to 3 (CP-12), market refill (CP-11), next turn.
func (b *builder) finishTurn() {
	seat := b.s.Turn.Seat
	b.emit(Event{Type: evTurnEnded, Seat: seat})
	for j, bar := range b.s.Barrels[seat] {
		switch {
		case bar.Spoil >= 4:
			b.emit(Event{Type: evSpoilGone, Seat: seat, Target: seat, Barrel: j + 1, Reason: "worn off"})
		case bar.Spoil > 0:
			b.emit(Event{Type: evSpoilMoved, Seat: seat, Target: seat, Barrel: j + 1, Counter: bar.Spoil + 1})
		}
	}
	for len(b.s.Hands[seat]) < 3 && b.drawOne(seat, "refill") {
	}
	b.fillSlot(1)
	b.fillSlot(2)
	if b.stalled() {
		return
	}
	b.nextTurn()
}

// stalled ends a game of rules version 2 that can no longer be won by play
// (CP-50) or in which nothing has been made, repaired or bottled for
// idleRounds rounds (CP-51), without a winner; it is checked at the end of
// every turn. Version 1 games never end so (they are replayed as played).
func (b *builder) stalled() bool {
	s := b.s
	if s.Rules < rulesV2 {
		return false
	}
	if s.deadlocked() {
		b.gameOverWhy(nil, endDeadlock)
		return true
	}
	alive := 0
	for _, out := range s.Resigned {
		if !out {
			alive++
		}
	}
	if s.Idle >= idleRounds*alive {
		b.gameOverWhy(nil, endIdle)
		return true
	}
	return false
}

// nextTurn starts the next turn: the extra turn of a Cava rosé (CP-33), or
// the next seat still in the game.
func (b *builder) nextTurn() {
	s := b.s
	seat := s.Turn.Seat
	if s.Turn.Extra && !s.Resigned[seat] {
		b.emit(Event{Type: evTurnStarted, Seat: seat, Extra: true})
		return
	}
	n := len(s.Players)
	for i := 1; i <= n; i++ {
		next := (seat + games.Seat(i)) % games.Seat(n)
		if !s.Resigned[next] {
			b.emit(Event{Type: evTurnStarted, Seat: next})
			return
		}
	}
}

// Resign implements games.Rules: [HOUSE] CP-42.
func (r Rules) Resign(s *State, seat games.Seat, rng *rand.Rand) ([]Event, error) {
	if s.aid == nil {
		return nil, words.Illegal("CP-3", "refusal.not_set_up")
	}
	if s.Over {
		return nil, words.Illegal("CP-13", "refusal.over")
	}
	if seat < 0 || int(seat) >= len(s.Players) {
		return nil, words.Illegal("CP-42", "refusal.resign_no_seat", int(seat))
	}
	if s.Resigned[seat] {
		return nil, words.Illegal("CP-42", "refusal.already_left", s.name(seat))
	}
	b := &builder{r: r, s: s.clone(), rng: rng}
	var gone []string
	gone = append(gone, s.Hands[seat]...)
	for _, bar := range s.Barrels[seat] {
		gone = append(gone, bar.Grapes...)
		for _, t := range bar.Time {
			gone = append(gone, t.Card)
		}
		if bar.Spoil > 0 {
			gone = append(gone, s.aid.byEff[effSpoil])
		}
	}
	b.emit(Event{Type: evResigned, Seat: seat, Cards: gone})
	var left []games.Seat
	for i, out := range b.s.Resigned {
		if !out {
			left = append(left, games.Seat(i))
		}
	}
	if len(left) == 1 {
		b.gameOver(left)
		return b.evs, nil
	}
	b.harvestDone()
	b.continueTurn()
	return b.evs, nil
}

// deadlocked tells whether no barrel can ever be bottled again by play
// (CP-50): no barrel in production is complete or holds two grapes or more
// (which Évaporation could free), and the grape cards outside the barrels
// can neither complete a barrel in production nor fill a recipe on an
// empty barrel. Grape cards then never leave the barrels again.
func (s *State) deadlocked() bool {
	a := s.aid
	for p, bs := range s.Barrels {
		for _, b := range bs {
			if !s.Resigned[p] && b.State == Production && (len(b.Grapes) >= 2 || s.complete(b)) {
				return false
			}
		}
	}
	var free []string
	for _, cs := range [][]string{s.Deck, s.Discard, s.Market[:]} {
		free = append(free, a.grapesOf(cs)...)
	}
	for _, h := range s.Hands {
		free = append(free, a.grapesOf(h)...)
	}
	if s.Harvest != nil {
		free = append(free, a.grapesOf(s.Harvest.Cards)...)
	}
	for p, bs := range s.Barrels {
		if s.Resigned[p] {
			continue
		}
		empty := false
		for _, b := range bs {
			switch b.State {
			case Empty:
				empty = true
			case Production:
				if w, _ := a.wine(b.Wine); a.canFill(w, b.Grapes, free) {
					return false
				}
			}
		}
		if !empty {
			continue
		}
		wines, cavas := s.countWines(games.Seat(p))
		for _, w := range a.Wines {
			if (w.IsCava() && cavas >= 2) || (!w.IsCava() && wines >= 3) {
				continue
			}
			if a.canFill(w, nil, free) {
				return false
			}
		}
	}
	return true
}

// canFill tells whether some of the free grape cards, added to the grapes
// a barrel has, make the exact recipe of w (CP-50).
func (a *Aid) canFill(w Wine, has, free []string) bool {
	need := w.need
	var used uint64 // varieties already on the barrel (recipes of different varieties)
	for _, g := range has {
		need[a.colIdx[g]]--
		used |= 1 << a.varIdx[g]
	}
	var got [8]int
	for _, g := range free {
		if w.Distinct {
			bit := uint64(1) << a.varIdx[g]
			if used&bit != 0 {
				continue
			}
			used |= bit
		}
		got[a.colIdx[g]]++
	}
	for ci := range need {
		if got[ci] < need[ci] {
			return false
		}
	}
	return true
}

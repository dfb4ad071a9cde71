package coupage

// Fixed implements games.TakeBacks ([HOUSE] CP-53): a shuffle, a draw of at
// least one card, a market slot filled from the deck, a card stolen or
// revealed, a card that leaves a hidden hand face up (grapes made into wine
// or added to a barrel, a time card laid face up, cards paid, discarded or
// a special played: every seat has seen them), a resignation and the end of
// the game fix it; what a player does with the cards already on the table
// (taking from the market, a time card laid face down, bottling that pays
// nothing, a special's effects) does not. It reads the event's type, its
// reason, whether its card lies face down, and its public count and list
// of cards only, which every seat sees.
func (Rules) Fixed(_ *State, e Event) bool {
	switch e.Type {
	case evDrew:
		return e.N > 0
	case evAged:
		return !e.FaceDown || len(e.Paid) > 0
	case evBottled:
		return len(e.Paid) > 0
	case evDiscarded:
		return e.Reason != "special" && e.Reason != "harvest"
	case evTook, evCleared, evRecovered, evDeclined, evAbility, evSpoiled, evSpoilMoved, evSpoilGone,
		evEvaporated, evTimeStolen, evTurnEnded, evTurnStarted:
		return false
	}
	// seated, shuffled, market_filled, made, repaired, played, stole,
	// revealed, picked, resigned, game_over, and any type a later rules
	// version adds.
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "CP-53" }

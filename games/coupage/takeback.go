package coupage

// Fixed implements games.TakeBacks ([HOUSE] CP-53): a shuffle, a draw of at
// least one card, a market slot filled from the deck, a card stolen or
// revealed, a resignation and the end of the game fix it; what a player does
// with the cards on the table does not. It reads the event's type and its
// public count of cards only, which every seat sees.
func (Rules) Fixed(_ *State, e Event) bool {
	switch e.Type {
	case evDrew:
		return e.N > 0
	case evTook, evMade, evRepaired, evAged, evBottled, evCleared, evRecovered, evDeclined,
		evAbility, evDiscarded, evPlayed, evSpoiled, evSpoilMoved, evSpoilGone, evEvaporated,
		evTimeStolen, evTurnEnded, evTurnStarted:
		return false
	}
	// seated, shuffled, market_filled, stole, revealed, picked, resigned,
	// game_over, and any type a later rules version adds.
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "CP-53" }

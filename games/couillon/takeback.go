package couillon

// Fixed implements games.TakeBacks ([HOUSE] CO-35): the seating draw, a
// deal, a stock card turned, a card played (it leaves a hidden hand: every
// seat has seen it), a resignation and the end of the match fix it;
// accepting, passing, making trump, a trick collected and a deal's score
// do not. It reads the event's type only, which every seat sees.
func (Rules) Fixed(_ State, e Event) bool {
	switch e.Type {
	case EvAccepted, EvPassed, EvTrump, EvTrick, EvScored:
		return false
	}
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "CO-35" }

package kramercoup

// Fixed implements games.TakeBacks ([HOUSE] KC-36): the seating and the
// deal, a placed tile (it leaves a hidden hand: every seat has seen it), an
// exchange (it draws from the pool), a resignation and the end of the game
// fix it; buying and passing do not. It reads the event's type only, which
// every seat sees.
func (Rules) Fixed(_ *State, e Event) bool {
	switch e.Type {
	case EvBought, EvPassed:
		return false
	}
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "KC-36" }

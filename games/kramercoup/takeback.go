package kramercoup

// Fixed implements games.TakeBacks ([HOUSE] KC-36): the seating and the
// deal, an exchange (it draws from the pool), a resignation and the end of
// the game fix it; buying, placing and passing do not. It reads the event's
// type only, which every seat sees.
func (Rules) Fixed(_ *State, e Event) bool {
	switch e.Type {
	case EvBought, EvPlaced, EvPassed:
		return false
	}
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "KC-36" }

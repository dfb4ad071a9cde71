package coyote

// Fixed implements games.TakeBacks ([HOUSE] CY-35): only a bid may be taken
// back. A call starts the count, which shows every feather; a shuffle, a
// deal, a feather turned, a token flipped, a coyote token taken, the end of
// a round, a resignation and the end of the game fix it. It reads the
// event's type only, which every seat sees.
func (Rules) Fixed(_ State, e Event) bool {
	return e.Type != EvBid
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "CY-35" }

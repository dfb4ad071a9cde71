package coup

// Fixed implements games.TakeBacks ([HOUSE] TC-41): an event that reveals a
// card to some seat, draws from the Court, deals, or ends the game fixes
// it, so that no take-back reaches at or before it. It reads the event's
// type only, which every seat sees.
func (Rules) Fixed(_ *State, e Event) bool {
	switch e.Type {
	case evAutoAllow, evAction, evAllow, evChallenge, evBlock, evResolved, evReturned, evFactionChose:
		return false
	}
	// setup, kept, dealt, factions, revealed, lost, replaced,
	// exchange_drawn, exchanged, coup_shown, shown, changed, resigned,
	// ended, and any type a later rules version adds.
	return true
}

// TakeBackRule implements games.TakeBacks.
func (Rules) TakeBackRule() string { return "TC-41" }

// Package coup is the rules engine of Coup (Rikki Tahta): hidden influence
// cards, claims that anyone may challenge, blocks, the three response
// windows (TC-23), standing auto-allow preferences (TC-32) and the variants
// (official 2-player setup, Inquisitor, Factions, Selective Coup, Blocking
// Contessa).
//
// RULES.md in this directory is the game's rules page: every rule id the
// engine and its tests cite, the [HOUSE] decisions (TC-34 to TC-40) in their
// places, the notation and the prompt's list of choices.
package coup

import (
	"fmt"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Char is a character card. The zero value is "no character"; the others are
// in the canonical order of the rules file (used for listings and defaults).
type Char int8

// The characters, in canonical order.
const (
	NoChar Char = iota
	Duke
	Assassin
	Captain
	Ambassador
	Contessa
	Inquisitor
	nChars
)

// charNames returns the notation name of each character, indexed by Char.
func charNames() [nChars]string {
	return [nChars]string{"", "duke", "assassin", "captain", "ambassador", "contessa", "inquisitor"}
}

// String is the notation name of the character ("duke"); the catalog
// names it for a person ("card.duke": "Duke", "Duc").
func (c Char) String() string {
	if c <= NoChar || c >= nChars {
		return ""
	}
	return charNames()[c]
}

// MarshalText writes the notation name.
func (c Char) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a notation name or alias ("" is NoChar).
func (c *Char) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = NoChar
		return nil
	}
	x, ok := parseChar(string(b))
	if !ok {
		return fmt.Errorf("coup: unknown character %q", b)
	}
	*c = x
	return nil
}

// parseChar reads a character name or its playing-card alias.
func parseChar(w string) (Char, bool) {
	switch fold(w) {
	case "duke", "jack":
		return Duke, true
	case "assassin", "ace":
		return Assassin, true
	case "captain", "king":
		return Captain, true
	case "ambassador", "two":
		return Ambassador, true
	case "contessa", "queen":
		return Contessa, true
	case "inquisitor":
		return Inquisitor, true
	}
	return NoChar, false
}

// Act is a turn action.
type Act int8

// The actions of TC-6, TC-7, TC-26 and TC-27.
const (
	NoAct Act = iota
	Income
	ForeignAid
	CoupAct
	Tax
	Assassinate
	Steal
	Exchange
	Examine
	Defect
)

// actIDs returns the event id of each action.
func actIDs() [10]string {
	return [10]string{"", "income", "aid", "coup", "tax", "assassinate", "steal", "exchange", "examine", "defect"}
}

// String is the action's id in events ("aid" for Foreign Aid).
func (a Act) String() string {
	ids := actIDs()
	if a <= NoAct || int(a) >= len(ids) {
		return ""
	}
	return ids[a]
}

func actFromID(id string) Act {
	for i, s := range actIDs() {
		if s == id && s != "" {
			return Act(i)
		}
	}
	return NoAct
}

// targeted reports whether the action names a target (TC-8).
func (a Act) targeted() bool {
	return a == CoupAct || a == Assassinate || a == Steal || a == Examine
}

// cost is the price paid when the action is declared (TC-30).
func (a Act) cost() int {
	switch a {
	case CoupAct:
		return 7
	case Assassinate:
		return 3
	case Defect:
		return 1
	}
	return 0
}

// Window names one of the three response windows of TC-23.
type Window int8

// The windows of TC-23: W1 action challenge, W2 block, W3 block challenge.
const (
	W1 Window = iota
	W2
	W3
	nWindows
)

func windowNames() [3]string { return [3]string{"challenge", "block", "block-challenge"} }

// String is the window's notation name (as in `auto-allow <window> on`).
func (w Window) String() string {
	if w < 0 || w >= nWindows {
		return ""
	}
	return windowNames()[w]
}

// MoveKind is the kind of a move.
type MoveKind int8

// The move kinds of the notation table (section 7).
const (
	MNone MoveKind = iota
	MAction
	MChallenge
	MBlock
	MAllow
	MReveal
	MKeep
	MShow
	MReturn
	MChange
	MFaction
	MAutoAllow
)

// Move is one move in the game's notation.
type Move struct {
	Kind   MoveKind
	Action Act    // MAction
	Target int    // MAction with a targeted action
	Char   Char   // Selective Coup's named character; block, reveal, show
	Keep   []Char // MKeep, in canonical order
	On     bool   // MFaction: face up; MAutoAllow: on
	All    bool   // MAutoAllow: all windows
	Window Window // MAutoAllow
}

// Event is one fact of a game. Fields are used according to Type; Redact
// clears the private ones and sets Redacted.
type Event struct {
	Type     string        `json:"type"`
	Seat     int           `json:"seat,omitempty"`
	Target   int           `json:"target,omitempty"`
	Viewer   int           `json:"viewer,omitempty"`
	Action   string        `json:"action,omitempty"`
	Window   string        `json:"window,omitempty"`
	Char     Char          `json:"char,omitempty"`
	Drew     Char          `json:"drew,omitempty"`
	Cards    []Char        `json:"cards,omitempty"`
	N        int           `json:"n,omitempty"`
	On       bool          `json:"on,omitempty"`
	Proven   bool          `json:"proven,omitempty"`
	Auto     bool          `json:"auto,omitempty"`
	Redacted bool          `json:"redacted,omitempty"`
	Players  []string      `json:"players,omitempty"`
	Options  games.Options `json:"options,omitempty"`
	Hands    [][]Char      `json:"hands,omitempty"`
	Coins    []int         `json:"coins,omitempty"`
	Factions []bool        `json:"factions,omitempty"`
	Court    []Char        `json:"court,omitempty"`
	SetAside [][]Char      `json:"set_aside,omitempty"`
}

// EventType is the stored event type.
func (e Event) EventType() string { return e.Type }

// Event types.
const (
	evSetup        = "setup"          // seating, options, coins and the deal (hands private)
	evKept         = "kept"           // 2-player setup: card kept from the set (private)
	evDealt        = "dealt"          // 2-player setup: one card each from the Court (private)
	evFactionChose = "faction_chosen" // faction choice (private until all are in)
	evFactions     = "factions"       // every faction revealed
	evAutoAllow    = "auto_allow"     // standing preference (TC-32)
	evAction       = "action"         // an action declared, cost paid
	evAllow        = "allow"          // a window answer
	evChallenge    = "challenge"      // a challenge (W1 or W3)
	evBlock        = "block"          // a block (W2)
	evRevealed     = "revealed"       // a challenged claimant's card, proven or lost
	evLost         = "lost"           // an influence lost (card face up)
	evReplaced     = "replaced"       // a proven card shuffled in, a replacement drawn (private)
	evResolved     = "resolved"       // an action takes effect
	evExchDrawn    = "exchange_drawn" // Exchange: cards drawn (private)
	evExchanged    = "exchanged"      // Exchange: cards kept (private)
	evCoupShown    = "coup_shown"     // Selective Coup miss: cards shown to the couper only
	evShown        = "shown"          // Examine: a card shown to the Inquisitor only
	evReturned     = "returned"       // Examine: the card is returned
	evChanged      = "changed"        // Examine: the card is changed (replacement private)
	evResigned     = "resigned"       // a player leaves: their cards face up
	evEnded        = "ended"          // game over: every card public
)

// fold lowercases, trims, removes common accents and collapses spaces.
func fold(s string) string {
	simple := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || (c >= 'A' && c <= 'Z') || (c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ')) || (c < ' ') {
			simple = false
			break
		}
	}
	if simple {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case 'à', 'á', 'â', 'ã', 'ä', 'å':
			r = 'a'
		case 'ç':
			r = 'c'
		case 'è', 'é', 'ê', 'ë':
			r = 'e'
		case 'ì', 'í', 'î', 'ï':
			r = 'i'
		case 'ñ':
			r = 'n'
		case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø':
			r = 'o'
		case 'ù', 'ú', 'û', 'ü':
			r = 'u'
		case 'ý', 'ÿ':
			r = 'y'
		case 'œ':
			b.WriteString("oe")
			continue
		case 'æ':
			b.WriteString("ae")
			continue
		case 'ß':
			b.WriteString("ss")
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

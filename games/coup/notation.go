package coup

import (
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Parse reads one move of section 7: case-insensitive, accents optional,
// seats by player name or seat number, characters by name or alias.
func (g Rules) Parse(s *State, text string) (Move, error) {
	f := strings.Fields(fold(text))
	if len(f) == 0 {
		return Move{}, words.Unparsable("refusal.empty")
	}
	word, rest := f[0], f[1:]
	noArgs := func(m Move) (Move, error) {
		if len(rest) > 0 {
			return Move{}, words.Unparsable("refusal.no_argument", written(word))
		}
		return m, nil
	}
	oneChar := func(kind MoveKind) (Move, error) {
		if len(rest) != 1 {
			return Move{}, words.Unparsable("refusal.write_char", written(word), written("duke"))
		}
		c, ok := parseChar(rest[0])
		if !ok {
			return Move{}, words.Unparsable("refusal.not_char", rest[0], characterWords())
		}
		return Move{Kind: kind, Char: c}, nil
	}
	switch word {
	case "income":
		return noArgs(Move{Kind: MAction, Action: Income})
	case "aid":
		return noArgs(Move{Kind: MAction, Action: ForeignAid})
	case "foreign":
		if len(rest) == 1 && rest[0] == "aid" {
			return Move{Kind: MAction, Action: ForeignAid}, nil
		}
		return Move{}, words.Unparsable("refusal.write_foreign_aid", written("foreign"), written("aid"))
	case "foreign-aid":
		return noArgs(Move{Kind: MAction, Action: ForeignAid})
	case "tax":
		return noArgs(Move{Kind: MAction, Action: Tax})
	case "exchange":
		return noArgs(Move{Kind: MAction, Action: Exchange})
	case "defect":
		return noArgs(Move{Kind: MAction, Action: Defect})
	case "challenge":
		return noArgs(Move{Kind: MChallenge})
	case "allow", "pass":
		return noArgs(Move{Kind: MAllow})
	case "return":
		return noArgs(Move{Kind: MReturn})
	case "change":
		return noArgs(Move{Kind: MChange})
	case "block":
		return oneChar(MBlock)
	case "reveal", "lose":
		return oneChar(MReveal)
	case "show":
		return oneChar(MShow)
	case "steal", "assassinate", "examine":
		if len(rest) == 0 {
			return Move{}, words.Unparsable("refusal.write_target", written(word))
		}
		t, err := parseSeat(s, strings.Join(rest, " "))
		if err != nil {
			return Move{}, err
		}
		return Move{Kind: MAction, Action: map[string]Act{"steal": Steal, "assassinate": Assassinate, "examine": Examine}[word], Target: t}, nil
	case "coup":
		if len(rest) == 0 {
			return Move{}, words.Unparsable("refusal.write_coup", written("coup"))
		}
		if t, err := parseSeat(s, strings.Join(rest, " ")); err == nil {
			return Move{Kind: MAction, Action: CoupAct, Target: t}, nil
		}
		if len(rest) >= 2 {
			if c, ok := parseChar(rest[len(rest)-1]); ok {
				t, err := parseSeat(s, strings.Join(rest[:len(rest)-1], " "))
				if err != nil {
					return Move{}, err
				}
				return Move{Kind: MAction, Action: CoupAct, Target: t, Char: c}, nil
			}
		}
		_, err := parseSeat(s, strings.Join(rest, " "))
		return Move{}, err
	case "keep":
		if len(rest) < 1 || len(rest) > 2 {
			return Move{}, words.Unparsable("refusal.write_keep", written("keep"))
		}
		m := Move{Kind: MKeep}
		for _, w := range rest {
			c, ok := parseChar(w)
			if !ok {
				return Move{}, words.Unparsable("refusal.not_char_short", w)
			}
			m.Keep = append(m.Keep, c)
		}
		slices.Sort(m.Keep)
		return m, nil
	case "faction":
		if len(rest) == 1 && (rest[0] == "up" || rest[0] == "down") {
			return Move{Kind: MFaction, On: rest[0] == "up"}, nil
		}
		return Move{}, words.Unparsable("refusal.write_faction", written("faction"), written("up"), written("down"))
	case "auto-allow", "autoallow", "auto":
		if word == "auto" {
			if len(rest) == 0 || rest[0] != "allow" {
				return Move{}, writeAutoAllow()
			}
			rest = rest[1:]
		}
		return parseAutoAllow(rest)
	}
	return Move{}, words.Unparsable("refusal.not_a_move", text)
}

// written is a word of the notation as a text: said in a sentence, it is
// the word as a player of the reader's language writes it.
func written(word string) games.Text { return games.T(games.NotationPrefix + word) }

// characterWords lists the characters as the notation writes them
// ("duke, assassin, …").
func characterWords() games.Text {
	names := charNames()
	list := written(names[nChars-1])
	for c := nChars - 2; c > NoChar; c-- {
		list = games.T("board.comma", written(names[c]), list)
	}
	return list
}

// writeAutoAllow is the refusal of a malformed auto-allow: how to write it.
func writeAutoAllow() error {
	return words.Unparsable("refusal.write_auto_allow", written("auto-allow"), written("challenge"), written("block"),
		written("block-challenge"), written("all"), written("on"), written("off"))
}

func parseAutoAllow(rest []string) (Move, error) {
	bad := writeAutoAllow()
	if len(rest) < 2 {
		return Move{}, bad
	}
	last := rest[len(rest)-1]
	if last != "on" && last != "off" {
		return Move{}, bad
	}
	m := Move{Kind: MAutoAllow, On: last == "on"}
	switch strings.Join(rest[:len(rest)-1], " ") {
	case "challenge":
		m.Window = W1
	case "block":
		m.Window = W2
	case "block-challenge", "block challenge":
		m.Window = W3
	case "all":
		m.All = true
	default:
		return Move{}, bad
	}
	return m, nil
}

// parseSeat resolves a seat number or a player name.
func parseSeat(s *State, w string) (int, error) {
	if n, err := strconv.Atoi(w); err == nil {
		if n < 0 || n >= len(s.Players) {
			return 0, words.Unparsable("refusal.no_seat", n, len(s.Players)-1)
		}
		return n, nil
	}
	found := -1
	for i, p := range s.Players {
		if fold(p.Name) == w {
			if found >= 0 {
				return 0, words.Unparsable("refusal.same_name", w)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, words.Unparsable("refusal.no_player", w)
	}
	return found, nil
}

// Format writes a move in canonical notation (the first form of section 7).
func (g Rules) Format(s *State, m Move) string {
	switch m.Kind {
	case MAction:
		switch m.Action {
		case ForeignAid:
			return "foreign aid"
		case CoupAct:
			if m.Char != NoChar {
				return g.withSeat(s, m, "coup ", " "+m.Char.String())
			}
			return g.withSeat(s, m, "coup ", "")
		case Steal, Assassinate, Examine:
			return g.withSeat(s, m, m.Action.String()+" ", "")
		}
		return m.Action.String()
	case MChallenge:
		return "challenge"
	case MAllow:
		return "allow"
	case MBlock:
		return "block " + m.Char.String()
	case MReveal:
		return "reveal " + m.Char.String()
	case MShow:
		return "show " + m.Char.String()
	case MReturn:
		return "return"
	case MChange:
		return "change"
	case MKeep:
		names := make([]string, len(m.Keep))
		for i, c := range m.Keep {
			names[i] = c.String()
		}
		return "keep " + strings.Join(names, " ")
	case MFaction:
		if m.On {
			return "faction up"
		}
		return "faction down"
	case MAutoAllow:
		w := m.Window.String()
		if m.All {
			w = "all"
		}
		return "auto-allow " + w + " " + onOff(m.On)
	}
	return ""
}

// withSeat writes the target by name when the name reads back as the same
// move, else by seat number.
func (g Rules) withSeat(s *State, m Move, prefix, suffix string) string {
	if m.Target >= 0 && m.Target < len(s.Players) {
		if name := strings.Join(strings.Fields(s.Players[m.Target].Name), " "); name != "" {
			text := prefix + name + suffix
			if m.Action != CoupAct {
				if _, err := strconv.Atoi(name); err != nil {
					if t, err := parseSeat(s, fold(name)); err == nil && t == m.Target {
						return text
					}
				}
			} else if back, err := g.Parse(s, text); err == nil && back.Target == m.Target && back.Char == m.Char && back.Action == m.Action {
				return text
			}
		}
	}
	return prefix + strconv.Itoa(m.Target) + suffix
}

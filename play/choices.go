package play

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// choiceLine is a reply that picks from a numbered list: "3", "3.", "3)",
// or "3 45" / "3: Ana" to fill the line's range or blank.
var choiceLine = regexp.MustCompile(`^(\d{1,2})[.):]?(?:\s+(.+))?$`)

// rangePattern is a choice's integer range "A … B".
var rangePattern = regexp.MustCompile(`(-?\d+) … (-?\d+)`)

// blankPattern is a choice's blank "<card>".
var blankPattern = regexp.MustCompile(`<[^<>]+>`)

// resolveChoice turns a line that names a number of the seat's numbered
// list (Engine.Choices, as the prompt showed it) into that move. A bare
// number always picks from the list, as every prompt says, even in a game
// whose notation would read it (Coyote's "3" is not "bid 3"). A number
// followed by more picks from the list only when that line has a range or
// a blank to fill; otherwise the game's notation reads the line.
func resolveChoice(eng games.Engine, s games.State, choices []string, line string) (string, error) {
	m := choiceLine.FindStringSubmatch(line)
	if m == nil {
		return line, nil
	}
	n, _ := strconv.Atoi(m[1]) // one or two digits
	if n < 1 || n > len(choices) {
		if m[2] != "" {
			if _, err := eng.Canonical(s, line); err == nil {
				return line, nil
			}
		}
		if len(choices) == 0 {
			return "", refuse(CodeInvalid, "refusal.choice_none", line)
		}
		return "", refuse(CodeInvalid, "refusal.choice_range", line, n, len(choices))
	}
	choice, fill := choices[n-1], strings.TrimSpace(m[2])
	if fill != "" && !rangePattern.MatchString(choice) && !blankPattern.MatchString(choice) {
		if _, err := eng.Canonical(s, line); err == nil {
			return line, nil
		}
	}
	switch {
	case rangePattern.MatchString(choice):
		r := rangePattern.FindStringSubmatch(choice)
		v, err := strconv.Atoi(fill)
		lo, _ := strconv.Atoi(r[1])
		hi, _ := strconv.Atoi(r[2])
		if err != nil || v < lo || v > hi {
			return "", refuse(CodeInvalid, "refusal.choice_value", n, choice, lo, hi)
		}
		return strings.Replace(choice, r[0], strconv.Itoa(v), 1), nil
	case blankPattern.MatchString(choice):
		if fill == "" {
			return "", refuse(CodeInvalid, "refusal.choice_blank", n, choice, blankPattern.FindString(choice))
		}
		return blankPattern.ReplaceAllLiteralString(choice, fill), nil
	case fill != "":
		return "", refuse(CodeInvalid, "refusal.choice_nothing", line, n, choice)
	}
	return choice, nil
}

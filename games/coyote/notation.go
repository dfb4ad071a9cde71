package coyote

import (
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Move kinds besides the token kinds (TokenReveal, …, TokenDeclare).
const (
	MoveBid    = "bid"
	MoveCoyote = "coyote"
)

// Move is one move: a bid, the call, or a variant token (Kind is the token
// kind; Face is the named face of a declaration).
type Move struct {
	Kind string `json:"kind"`
	Bid  int    `json:"bid,omitempty"`
	Face string `json:"face,omitempty"`
}

// Parse reads one move (rules section 7): "bid 14" or "14", "coyote" or
// "call", "reveal", "reverse", "skip", "replace", "declare <face>".
// Case-insensitive; "coyote!" and a typographic minus are accepted too.
func (Rules) Parse(s State, text string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.ReplaceAll(t, "−", "-") // U+2212 minus sign
	moves := "bid <n> or coyote"
	if s.Variant {
		moves = "bid <n>, coyote, reveal, reverse, skip, replace or declare <face>"
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return Move{}, games.Unparsable("an empty line is not a move: send %s", moves)
	}
	word, rest := fields[0], fields[1:]
	switch {
	case len(fields) == 1 && isNumber(word):
		n, err := strconv.Atoi(word)
		if err != nil {
			return Move{}, games.Unparsable("%q is not a bid: a bid is a whole number", text)
		}
		return Move{Kind: MoveBid, Bid: n}, nil
	case word == "bid":
		if len(rest) != 1 || !isNumber(rest[0]) {
			return Move{}, games.Unparsable("a bid is written bid <n>, for example bid 14")
		}
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			return Move{}, games.Unparsable("%q is not a whole number", rest[0])
		}
		return Move{Kind: MoveBid, Bid: n}, nil
	case (word == "coyote" || word == "coyote!" || word == "call") && len(rest) == 0:
		return Move{Kind: MoveCoyote}, nil
	case word == TokenDeclare:
		if len(rest) != 1 {
			return Move{}, games.Unparsable("a declaration names one face: declare 7, declare -5, declare ×2, declare ?, declare night")
		}
		face, ok := normalFace(rest[0])
		if !ok {
			return Move{}, games.Unparsable("%q is not a feather face: a number, or ?, max→0, -max, ×2, night", rest[0])
		}
		return Move{Kind: TokenDeclare, Face: face}, nil
	case slices.Contains(tokenKinds(), word) && len(rest) == 0:
		return Move{Kind: word}, nil
	}
	return Move{}, games.Unparsable("%q is not a Coyote move: send %s", text, moves)
}

func isNumber(w string) bool {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "-"), "+")
	if w == "" || len(w) > 9 {
		return false
	}
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// normalFace writes a face in its code: numbers without sign or zeros
// ("+07" → "7"), the blue names as in section 2.
func normalFace(w string) (string, bool) {
	if isNumber(w) {
		n, err := strconv.Atoi(w)
		return strconv.Itoa(n), err == nil
	}
	if slices.Contains(blueOrder(), w) {
		return w, true
	}
	for code, face := range printed {
		if strings.EqualFold(w, face) {
			return code, true
		}
	}
	return "", false
}

// printed are the blue faces as a feather prints them, by their notation
// code; the parser reads both ([HOUSE] CY-34).
var printed = map[string]string{"x2": "×2", "max0": "max→0"}

// shown is a face as the feather prints it and as moves and boards show
// it: "×2" for x2.
func shown(face string) string {
	if p, ok := printed[face]; ok {
		return p
	}
	return face
}

// shownAll is shown of each face.
func shownAll(faces []string) []string {
	out := make([]string, len(faces))
	for i, f := range faces {
		out[i] = shown(f)
	}
	return out
}

// Format writes a move in canonical notation.
func (Rules) Format(_ State, m Move) string {
	switch m.Kind {
	case MoveBid:
		return "bid " + strconv.Itoa(m.Bid)
	case TokenDeclare:
		return "declare " + shown(m.Face)
	default:
		return m.Kind
	}
}

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
func (Rules) Parse(_ State, text string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.ReplaceAll(t, "−", "-") // U+2212 minus sign
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return Move{}, games.Unparsable("an empty line is not a move: send bid <n>, coyote, or a token")
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
			return Move{}, games.Unparsable("a declaration names one face: declare 7, declare -5, declare x2, declare ?, declare night")
		}
		face, ok := normalFace(rest[0])
		if !ok {
			return Move{}, games.Unparsable("%q is not a feather face: a number, or ?, max0, -max, x2, night", rest[0])
		}
		return Move{Kind: TokenDeclare, Face: face}, nil
	case slices.Contains(tokenKinds(), word) && len(rest) == 0:
		return Move{Kind: word}, nil
	}
	return Move{}, games.Unparsable("%q is not a Coyote move: send bid <n>, coyote, reveal, reverse, skip, replace or declare <face>", text)
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
	return "", false
}

// Format writes a move in canonical notation.
func (Rules) Format(_ State, m Move) string {
	switch m.Kind {
	case MoveBid:
		return "bid " + strconv.Itoa(m.Bid)
	case TokenDeclare:
		return "declare " + m.Face
	default:
		return m.Kind
	}
}

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
// Case-insensitive; "coyote!" and a typographic minus are accepted too. The
// engine reads a move's words in any language into these (words/*.toml,
// keys "notation.…") before Parse.
func (Rules) Parse(s State, text string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.ReplaceAll(t, "−", "-") // U+2212 minus sign
	moves := games.T("moves.basic")
	if s.Variant {
		moves = games.T("moves.variant")
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return Move{}, words.Unparsable("refusal.empty", moves)
	}
	word, rest := fields[0], fields[1:]
	switch {
	case len(fields) == 1 && isNumber(word):
		n, err := strconv.Atoi(word)
		if err != nil {
			return Move{}, words.Unparsable("refusal.not_bid", written(text))
		}
		return Move{Kind: MoveBid, Bid: n}, nil
	case word == MoveBid:
		if len(rest) != 1 || !isNumber(rest[0]) {
			return Move{}, words.Unparsable("refusal.bid_form")
		}
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			return Move{}, words.Unparsable("refusal.not_whole", rest[0])
		}
		return Move{Kind: MoveBid, Bid: n}, nil
	case (word == MoveCoyote || word == "coyote!" || word == "call") && len(rest) == 0:
		return Move{Kind: MoveCoyote}, nil
	case word == TokenDeclare:
		if len(rest) != 1 {
			return Move{}, words.Unparsable("refusal.declare_form")
		}
		face, ok := normalFace(rest[0])
		if !ok {
			return Move{}, words.Unparsable("refusal.not_face", written(rest[0]))
		}
		return Move{Kind: TokenDeclare, Face: face}, nil
	case slices.Contains(tokenKinds(), word) && len(rest) == 0:
		return Move{Kind: word}, nil
	}
	return Move{}, words.Unparsable("refusal.not_move", written(text), moves)
}

// written is a line a player sent, as quoted back in a refusal: the
// engine has read its notation words into the canonical ones (Parse sees
// "reveal now" where a French player wrote "révéler now"), so each
// language writes them in its own words again ("révéler now").
func written(line string) games.Phrase { return words.Written(line) }

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

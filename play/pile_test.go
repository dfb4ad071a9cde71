package play_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// pile is a tiny two-player game for the command side's own tests: take 1–3
// stones in turn, whoever takes the last stone wins. Each seat also holds a
// secret number nobody else sees, so redaction has something to hide.
type pile struct{}

type pileState struct {
	Players []string
	Stones  int
	Turn    int
	Secrets []int
	Winner  int // -1 while playing
}

type pileEvent struct {
	Type    string   `json:"type"`
	Players []string `json:"players,omitempty"`
	Stones  int      `json:"stones,omitempty"`
	Secrets []int    `json:"secrets,omitempty"`
	Seat    int      `json:"seat"`
	Take    int      `json:"take,omitempty"`
}

func (e pileEvent) EventType() string { return e.Type }

// pileWords are the pile's words (English only: a test game).
var pileWords = games.CatalogOf("en", map[string]string{
	"over":     "the game is over",
	"turn":     "it is {0}'s turn",
	"take":     "take 1 to 3 stones, at most the {0} left",
	"notation": "write a move as 'take <n>'",
	"number":   `"{0}" is not a number`,
})

func (pile) Info() games.Info {
	return games.Info{ID: "pile", Name: "Pile", MinSeats: 2, MaxSeats: 2,
		Options: []games.OptionSpec{{Name: "size", Values: []string{"small", "large"}, Default: "small"}}, Rules: 1}
}

func (pile) Initial(int) *pileState { return &pileState{Winner: -1} }

func (pile) Setup(opts games.Options, players []string, r *rand.Rand) ([]pileEvent, error) {
	stones := 7 + games.IntN(r, 5)
	if opts["size"] == "large" {
		stones += 20
	}
	return []pileEvent{
		{Type: "seated", Players: games.Shuffle(r, players)},
		{Type: "dealt", Stones: stones, Secrets: []int{games.IntN(r, 1000), games.IntN(r, 1000)}},
	}, nil
}

func (pile) Decide(s *pileState, seat games.Seat, take int, _ *rand.Rand) ([]pileEvent, error) {
	if s.Winner >= 0 {
		return nil, pileWords.Illegal("P-0", "over")
	}
	if int(seat) != s.Turn {
		return nil, pileWords.Illegal("P-1", "turn", s.Players[s.Turn])
	}
	if take < 1 || take > 3 || take > s.Stones {
		return nil, pileWords.Illegal("P-2", "take", s.Stones)
	}
	return []pileEvent{{Type: "took", Seat: int(seat), Take: take}}, nil
}

func (pile) Resign(s *pileState, seat games.Seat, _ *rand.Rand) ([]pileEvent, error) {
	return []pileEvent{{Type: "resigned", Seat: int(seat)}}, nil
}

func (pile) Evolve(s *pileState, e pileEvent) *pileState {
	switch e.Type {
	case "seated":
		s.Players = e.Players
	case "dealt":
		s.Stones, s.Secrets = e.Stones, e.Secrets
	case "took":
		s.Stones -= e.Take
		if s.Stones == 0 {
			s.Winner = e.Seat
		}
		s.Turn = 1 - s.Turn
	case "resigned":
		s.Winner = 1 - e.Seat
	}
	return s
}

func (pile) Pending(s *pileState) []games.Pending {
	if s.Winner >= 0 || s.Players == nil {
		return nil
	}
	return []games.Pending{{Seat: games.Seat(s.Turn), Kind: "turn", Rule: "P-9", Default: "take 1"}}
}

func (pile) Legal(s *pileState, seat games.Seat) []string {
	if s.Winner >= 0 || int(seat) != s.Turn {
		return nil
	}
	var out []string
	for n := 1; n <= min(3, s.Stones); n++ {
		out = append(out, fmt.Sprintf("take %d", n))
	}
	return out
}

type pileView struct {
	Stones int   `json:"stones"`
	Turn   int   `json:"turn"`
	Secret *int  `json:"secret,omitempty"`
	All    []int `json:"all_secrets,omitempty"`
}

func (pile) View(s *pileState, seat games.Seat) any {
	v := pileView{Stones: s.Stones, Turn: s.Turn}
	if s.Winner >= 0 {
		v.All = s.Secrets
	} else if seat >= 0 && int(seat) < len(s.Secrets) {
		v.Secret = &s.Secrets[seat]
	}
	return v
}

func (p pile) Choices(s *pileState, seat games.Seat) []string { return p.Legal(s, seat) }

func (p pile) Describe(s *pileState, e pileEvent, seat games.Seat) games.Phrase {
	return games.Said(p.describe(s, e, seat))
}

func (pile) describe(s *pileState, e pileEvent, seat games.Seat) string {
	name := func(i int) string {
		if games.Seat(i) == seat {
			return "You"
		}
		return s.Players[i]
	}
	switch e.Type {
	case "seated":
		return "The players sat down."
	case "dealt":
		if seat >= 0 && int(seat) < len(e.Secrets) {
			return fmt.Sprintf("%d stones were piled; your secret is %d.", e.Stones, e.Secrets[seat])
		}
		return fmt.Sprintf("%d stones were piled.", e.Stones)
	case "took":
		return fmt.Sprintf("%s took %d.", name(e.Seat), e.Take)
	case "resigned":
		return name(e.Seat) + " resigned."
	}
	return ""
}

func (pile) Redact(_ *pileState, e pileEvent, seat games.Seat) pileEvent {
	if e.Type == "dealt" {
		secrets := make([]int, len(e.Secrets))
		if seat >= 0 {
			secrets[seat] = e.Secrets[seat]
		}
		e.Secrets = secrets
	}
	return e
}

func (pile) Parse(_ *pileState, text string) (int, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) != 2 || f[0] != "take" {
		return 0, pileWords.Unparsable("notation")
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, pileWords.Unparsable("number", f[1])
	}
	return n, nil
}

func (pile) Format(_ *pileState, n int) string { return fmt.Sprintf("take %d", n) }

func (pile) Result(s *pileState) games.Result {
	if s.Winner < 0 {
		return games.Result{}
	}
	return games.Result{Finished: true, Winners: []games.Seat{games.Seat(s.Winner)}, Summary: games.Said(s.Players[s.Winner] + " wins")}
}

func (pile) Players(s *pileState) []string { return slices.Clone(s.Players) }

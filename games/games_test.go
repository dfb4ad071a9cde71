package games_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
)

func TestSeedGeneratorIsKeyedBySeedAndVersion(t *testing.T) {
	var a, b games.Seed
	a[0], b[0] = 1, 2
	draw := func(s games.Seed, v int) uint64 { return s.Rand(v).Uint64() }
	if first, again := draw(a, 5), draw(a, 5); first != again {
		t.Fatal("the same seed and version drew different numbers")
	}
	if draw(a, 5) == draw(a, 6) || draw(a, 5) == draw(b, 5) {
		t.Fatal("another version or seed drew the same number")
	}
	sum := sha256.Sum256(a[:])
	if a.Commitment() != hex.EncodeToString(sum[:]) {
		t.Fatal("the commitment is not the sha256 of the seed")
	}
	back, err := games.ParseSeed(a.String())
	if err != nil || back != a {
		t.Fatalf("ParseSeed(String) = %v, %v", back, err)
	}
	if _, err := games.ParseSeed("zz"); err == nil {
		t.Fatal("ParseSeed accepted garbage")
	}
	if first, second := games.NewSeed(), games.NewSeed(); first == second {
		t.Fatal("two fresh seeds are equal")
	}
}

// toy is the smallest game that meets the contract, for the adapter's tests.
type toy struct{}

type toyEvent struct {
	Type    string   `json:"type"`
	Players []string `json:"players,omitempty"`
	N       int      `json:"n,omitempty"`
}

func (e toyEvent) EventType() string { return e.Type }

func (toy) Info() games.Info {
	return games.Info{ID: "toy", Name: "Toy", MinSeats: 2, MaxSeats: 3, Options: []games.OptionSpec{
		{Name: "speed", Values: []string{"slow", "fast"}, Default: "slow"},
		{Name: "label", Default: "x"},
	}, Rules: 1}
}
func (toy) Initial(int) []string { return nil }
func (toy) Setup(o games.Options, p []string, r *rand.Rand) ([]toyEvent, error) {
	return []toyEvent{{Type: "seated", Players: games.Shuffle(r, p)}}, nil
}
func (toy) Decide(s []string, seat games.Seat, m int, r *rand.Rand) ([]toyEvent, error) {
	if m < 0 {
		return nil, &games.RuleError{Rule: "T-1", Reason: games.Said("no negative numbers")}
	}
	return []toyEvent{{Type: "said", N: m}}, nil
}
func (toy) Resign(s []string, seat games.Seat, r *rand.Rand) ([]toyEvent, error) { return nil, nil }
func (toy) Evolve(s []string, e toyEvent) []string {
	if e.Type == "seated" {
		return e.Players
	}
	return s
}
func (toy) Pending(s []string) []games.Pending           { return nil }
func (toy) Legal(s []string, seat games.Seat) []string   { return nil }
func (toy) Choices(s []string, seat games.Seat) []string { return nil }
func (toy) View(s []string, seat games.Seat) any         { return s }
func (toy) Redact(s []string, e toyEvent, seat games.Seat) toyEvent {
	return e
}
func (toy) Describe(s []string, e toyEvent, seat games.Seat) games.Phrase {
	return games.Said("Somebody said " + strings.Repeat("x", e.N+5) + ".")
}
func (toy) Parse(s []string, text string) (int, error) { return len(text) - 5, nil }
func (toy) Format(s []string, m int) string            { return strings.Repeat("x", m+5) }
func (toy) Result(s []string) games.Result             { return games.Result{} }
func (toy) Players(s []string) []string                { return s }

func TestAdapterOptions(t *testing.T) {
	eng := games.Adapt(toy{})
	tests := []struct {
		in   games.Options
		want games.Options
		rule string
	}{
		{nil, games.Options{"speed": "slow", "label": "x"}, ""},
		{games.Options{"speed": " FAST "}, games.Options{"speed": "fast", "label": "x"}, ""},
		{games.Options{"speed": "warp"}, nil, "options"},
		{games.Options{"colour": "red"}, nil, "options"},
	}
	for _, tt := range tests {
		got, err := eng.Options(tt.in)
		if tt.rule != "" {
			if re, ok := games.AsRuleError(err); !ok || re.Rule != tt.rule {
				t.Errorf("%v: err = %v, want rule %s", tt.in, err, tt.rule)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) || got["speed"] != tt.want["speed"] || got["label"] != tt.want["label"] {
			t.Errorf("%v → %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestAdapterSetupDecideEvolve(t *testing.T) {
	eng := games.Adapt(toy{})
	var seed games.Seed
	if _, err := eng.Setup(nil, []string{"Ana"}, seed.Rand(0)); err == nil {
		t.Fatal("one player accepted by a 2–3 player game")
	}
	evs, err := eng.Setup(nil, []string{"Ana", "Bob", "Cal"}, seed.Rand(0))
	if err != nil || len(evs) != 1 || evs[0].Type != "seated" {
		t.Fatalf("setup: %v, %v", evs, err)
	}
	s, err := games.Fold(eng, 1, evs)
	if err != nil || len(eng.Players(s)) != 3 {
		t.Fatalf("fold: %v, %v", s, err)
	}
	if _, err := eng.Decide(s, 0, "xxx", seed.Rand(1)); err == nil {
		t.Fatal("an illegal move was accepted")
	} else if re, ok := games.AsRuleError(err); !ok || re.Rule != "T-1" || !strings.Contains(err.Error(), "T-1: no negative") {
		t.Fatalf("rule error %v", err)
	}
	if c, err := eng.Canonical(s, "xxxxxxx"); err != nil || c != "xxxxxxx" {
		t.Fatalf("canonical: %q, %v", c, err)
	}
	bad := games.RawEvent{Type: "said", Data: json.RawMessage(`{"type":"seated"}`)}
	if _, err := eng.Evolve(s, bad); err == nil {
		t.Fatal("an event whose data names another type was folded")
	}
	if _, err := eng.Evolve(s, games.RawEvent{Type: "said", Data: json.RawMessage(`{`)}); err == nil {
		t.Fatal("corrupt event data was folded")
	}
}

func TestRegistry(t *testing.T) {
	reg := games.NewRegistry(games.Adapt(toy{}))
	if _, err := reg.Get("toy"); err != nil {
		t.Fatal(err)
	}
	_, err := reg.Get("chess")
	if re, ok := games.AsRuleError(err); !ok || !strings.Contains(re.Reason.String(), "toy") {
		t.Fatalf("unknown game: %v, want the list of games", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("two engines with one id did not panic")
		}
	}()
	games.NewRegistry(games.Adapt(toy{}), games.Adapt(toy{}))
}

package notify

import (
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// What the system played at a deadline is told as such in the next mail.
func TestSinceLinesSayWhatTheDeadlinePlayed(t *testing.T) {
	cases := []struct {
		name    string
		changes []play.Change
		want    []string
	}{
		{"a move", []play.Change{{Text: games.Said("Ana bid 3."), Meta: play.ServedMeta{Channel: play.ChannelAPI}}}, []string{"Ana bid 3."}},
		{"a default", []play.Change{{Text: games.Said("Bob called Coyote!"), Meta: play.ServedMeta{Channel: play.ChannelSystem}}},
			[]string{"At the deadline, by default: Bob called Coyote!"}},
		{"nothing to say", []play.Change{{}}, []string{}},
	}
	for _, c := range cases {
		if got := sinceLines(c.changes, games.English); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// In French, the deadline's words are French; what happened is said
	// in French by its own phrase (a Said phrase is the same in every
	// language).
	fr := sinceLines([]play.Change{{Text: games.Said("Bob called Coyote!"), Meta: play.ServedMeta{Channel: play.ChannelSystem}},
		{Text: play.Words().Phrase("change.game_over")}}, "fr")
	if want := []string{"À l’échéance, par défaut : Bob called Coyote!", "La partie est finie."}; !slices.Equal(fr, want) {
		t.Errorf("in French: %q, want %q", fr, want)
	}
}

// A prompt says what each pending entry asks in the game's own words, with
// its rule, never the engine's kind ("You may now turn"); a kind the game
// does not name is said with spaces.
func TestPromptSaysWhatTheGameWaitsFor(t *testing.T) {
	reg := catalog.Registry()
	words := func(kind string) games.Words {
		eng, err := reg.Get(kind)
		if err != nil {
			t.Fatal(err)
		}
		return eng.Words().In(games.English)
	}
	cases := []struct {
		game    string
		pending []games.Pending
		want    []string
	}{
		{"coyote", []games.Pending{{Kind: "turn", Rule: "CY-30"}}, []string{"bid higher than the last bid or call Coyote (rule CY-30)"}},
		{"coup", []games.Pending{{Kind: "turn", Rule: "TC-25a"}}, []string{"take an action (rule TC-25a)"}},
		{"coupage", []games.Pending{{Kind: "turn", Rule: "CP-40"}}, []string{"draw a card, then take up to two actions or end your turn (rule CP-40)"}},
		{"couillon", []games.Pending{{Kind: "trump", Rule: "CO-30"}}, []string{"accept or pass the trump proposed (rule CO-30)"}},
		{"kramercoup", []games.Pending{{Kind: "last", Rule: "KC-33"}}, []string{"place a last tile, or not (rule KC-33)"}},
		{"coyote", []games.Pending{{Kind: "new_kind"}}, []string{"new kind"}},
	}
	for _, c := range cases {
		if got := toDo(words(c.game), c.pending); !slices.Equal(got, c.want) {
			t.Errorf("%s %v: %q, want %q", c.game, c.pending, got, c.want)
		}
	}
	// In French the rule is a "règle" (the game's words follow its
	// catalog's French).
	eng, _ := reg.Get("coyote")
	if got := toDo(eng.Words().In("fr"), []games.Pending{{Kind: "turn", Rule: "CY-30"}}); len(got) != 1 || !strings.HasSuffix(got[0], " (règle CY-30)") {
		t.Errorf("a French to-do: %q", got)
	}
}

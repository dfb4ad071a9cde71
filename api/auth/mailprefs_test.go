package auth_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// TestMailPreferencesPrecedence: the most specific setting wins, Get says
// for every game and kind what Wants answers, a setting for all kinds
// replaces the single kinds of its scope, and nil removes a setting.
func TestMailPreferencesPrecedence(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	users := auth.NewUsers(pool)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	mine := []auth.PlayerGame{{ID: "g1", Name: "Coup"}, {ID: "g2", Name: "Coyote"}}
	prefs := auth.NewMailPreferences(pool, func(context.Context, string) ([]auth.PlayerGame, error) { return mine, nil })

	got, err := prefs.Get(ctx, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.AllGames) != len(auth.MailKinds()) || len(got.Games) != 2 || got.Games[0].Game != mine[0] || got.Bounced {
		t.Fatalf("a new player's preferences: %+v", got)
	}
	for k, on := range got.AllGames {
		if on == (k == auth.MailTalk) {
			t.Errorf("%s is %v by default", k, on)
		}
	}
	// Table talk at once is off unless its own setting turns it on; a
	// setting for every kind only turns it off.
	talk := []struct {
		name    string
		changes []auth.MailChange
		game    string
		want    bool
	}{
		{"by default", nil, "g2", false},
		{"everything on does not turn it on", []auth.MailChange{{Kind: "", On: new(true)}}, "g2", false},
		{"turned on for all games", []auth.MailChange{{Kind: auth.MailTalk, On: new(true)}}, "g2", true},
		{"everything off for the game", []auth.MailChange{{Game: "g2", Kind: "", On: new(false)}}, "g2", false},
		{"another game keeps it", nil, "g1", true},
		{"back to the defaults", []auth.MailChange{{Kind: auth.MailTalk}, {Kind: ""}, {Game: "g2", Kind: ""}}, "g1", false},
	}
	for _, tc := range talk {
		if err := prefs.Change(ctx, ana.ID, tc.changes); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		on, err := prefs.Wants(ctx, ana.ID, tc.game, auth.MailTalk)
		if err != nil {
			t.Fatal(err)
		}
		got, err := prefs.Get(ctx, ana.ID)
		if err != nil {
			t.Fatal(err)
		}
		shown := false
		for _, g := range got.Games {
			if g.Game.ID == tc.game {
				shown = g.Mail[auth.MailTalk]
			}
		}
		if on != tc.want || shown != tc.want {
			t.Fatalf("talk %s: wanted %v, shown %v, want %v", tc.name, on, shown, tc.want)
		}
	}
	if _, ok := got.Games[0].Mail[auth.MailInvitation]; ok {
		t.Error("invitations are listed per game")
	}

	// The unsubscribe link's write, then reminders back on for g1 alone.
	if err := prefs.Set(ctx, ana.ID, "g1", "", false); err != nil {
		t.Fatal(err)
	}
	if err := prefs.Change(ctx, ana.ID, []auth.MailChange{{Game: "g1", Kind: auth.MailReminder, On: new(true)}}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		got, err := prefs.Get(ctx, ana.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range auth.MailKinds() {
			want, err := prefs.Wants(ctx, ana.ID, "", k.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.AllGames[k.ID] != want {
				t.Errorf("%s: all games, %s: Get says %v, Wants %v", when, k.ID, got.AllGames[k.ID], want)
			}
			for _, g := range got.Games {
				if !k.PerGame {
					continue
				}
				want, err := prefs.Wants(ctx, ana.ID, g.Game.ID, k.ID)
				if err != nil {
					t.Fatal(err)
				}
				if g.Mail[k.ID] != want {
					t.Errorf("%s: game %s, %s: Get says %v, Wants %v", when, g.Game.ID, k.ID, g.Mail[k.ID], want)
				}
			}
		}
	}
	check("unsubscribed from g1 but its reminders")
	if on, _ := prefs.Wants(ctx, ana.ID, "g1", auth.MailPrompt); on {
		t.Error("g1's prompts still on after its unsubscribe link")
	}
	if on, _ := prefs.Wants(ctx, ana.ID, "g1", auth.MailReminder); !on {
		t.Error("g1's reminders off though turned on for g1")
	}
	if on, _ := prefs.Wants(ctx, ana.ID, "g2", auth.MailPrompt); !on {
		t.Error("g2's prompts off")
	}

	// Every kind for g1 again replaces its single kinds.
	if err := prefs.Set(ctx, ana.ID, "g1", "", false); err != nil {
		t.Fatal(err)
	}
	if on, _ := prefs.Wants(ctx, ana.ID, "g1", auth.MailReminder); on {
		t.Error("g1's reminders still on after every kind of g1 was turned off")
	}
	// Removing g1's setting: it follows the settings for all games again.
	if err := prefs.Change(ctx, ana.ID, []auth.MailChange{{Game: "g1"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := prefs.Get(ctx, ana.ID); len(got.Games[0].Settings) != 0 || !got.Games[0].Mail[auth.MailPrompt] {
		t.Errorf("g1 after its settings were removed: %+v", got.Games[0])
	}

	// Random settings: Get and Wants agree.
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := append([]string{""}, auth.MailPrompt, auth.MailReminder, auth.MailGameOver)
	for i := range 40 {
		c := auth.MailChange{Game: []string{"", "g1", "g2"}[rng.IntN(3)], Kind: kinds[rng.IntN(len(kinds))]}
		if rng.IntN(4) > 0 {
			c.On = new(rng.IntN(2) == 0)
		}
		if err := prefs.Change(ctx, ana.ID, []auth.MailChange{c}); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprint("after random change ", i))
	}

	// A bounced address gets nothing, and Get says why.
	if _, err := pool.Exec(ctx, `update users set bounced_at = now() where id = $1`, ana.ID); err != nil {
		t.Fatal(err)
	}
	if err := prefs.Set(ctx, ana.ID, "", "", true); err != nil {
		t.Fatal(err)
	}
	if got, _ := prefs.Get(ctx, ana.ID); !got.Bounced {
		t.Error("Get does not say the address bounced")
	}
	if on, _ := prefs.Wants(ctx, ana.ID, "g2", auth.MailPrompt); on {
		t.Error("a bounced address gets mail")
	}
}

// TestMailPreferencesRefuse: an unknown kind or game changes nothing and
// says which kinds there are.
func TestMailPreferencesRefuse(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	ana, err := auth.NewUsers(pool).Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	prefs := auth.NewMailPreferences(pool, func(context.Context, string) ([]auth.PlayerGame, error) {
		return []auth.PlayerGame{{ID: "g1", Name: "Coup"}}, nil
	})
	err = prefs.Change(ctx, ana.ID, []auth.MailChange{
		{Kind: auth.MailPrompt, On: new(false)},
		{Kind: "chat", On: new(false)},
		{Game: "zz", On: new(false)},
		{Game: "g1", Kind: auth.MailInvitation, On: new(false)},
	})
	me, ok := errors.AsType[*auth.MailError](err)
	if !ok || len(me.Problems) != 3 {
		t.Fatalf("refusal: %v", err)
	}
	msg := me.Error()
	for _, want := range []string{`"chat"`, "prompt, reminder, receipt, game_over, notice, invitation", `game "zz" is not one of your games`, "invitations are set for all games"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
	if on, _ := prefs.Wants(ctx, ana.ID, "", auth.MailPrompt); !on {
		t.Error("a refused change changed something")
	}
	if err := prefs.Set(ctx, ana.ID, "", "chat", false); err == nil {
		t.Error("Set took an unknown kind")
	}
}

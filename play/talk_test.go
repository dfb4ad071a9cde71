package play_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
)

// talkGame creates a Coup game for three players (u-p0 … named P0 …) with
// the talk options given, refereed by its creator u-ref (who holds no
// seat), starts it and returns its id, the table and each seat's actor.
func talkGame(t *testing.T, svc *play.Service, opts map[string]string) (string, *play.Table, map[games.Seat]play.Actor) {
	t.Helper()
	return talkGameNamed(t, svc, opts, []string{"P0", "P1", "P2"})
}

// talkGameNamed is talkGame with the players u-p0 … named names.
func talkGameNamed(t *testing.T, svc *play.Service, opts map[string]string, names []string) (string, *play.Table, map[games.Seat]play.Actor) {
	t.Helper()
	ctx := context.Background()
	out, err := svc.CreateGame(ctx, talkReferee, play.GameRequest{Kind: "coup", Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	people := make([]play.Actor, 3)
	for i := range people {
		people[i] = play.Actor{User: fmt.Sprintf("u-p%d", i), Channel: play.ChannelAPI}
		if _, err := svc.Join(ctx, people[i], out.GameID, names[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, talkReferee, out.GameID); err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Referee() != talkReferee.User {
		t.Fatalf("the game's referee is %q", tbl.Referee())
	}
	bySeat := map[games.Seat]play.Actor{}
	for _, a := range people {
		bySeat[tbl.SeatOf(a.User)] = a
	}
	return out.GameID, tbl, bySeat
}

var (
	talkReferee  = play.Actor{User: "u-ref", Channel: play.ChannelAPI}
	talkOutsider = play.Actor{User: "u-out", Channel: play.ChannelAPI}
)

// readIDs is the ids of the messages user may read in game id.
func readIDs(t *testing.T, svc *play.Service, id, user string) []string {
	t.Helper()
	ms, err := svc.Messages(context.Background(), id, user, 0)
	if err != nil {
		t.Fatalf("messages of %s: %v", user, err)
	}
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// Who reads what: a table message everyone who may read the game; a
// private message its two seats only (not the third seat, not the referee
// before the end); nobody outside the game reads anything. Talking moves
// neither the game's version nor its stream.
func TestTalkIsReadByWhoMayReadIt(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, seats := talkGame(t, svc, map[string]string{"press": "private"})
	before, err := events.StreamVersion(ctx, pool, play.Stream(id))
	if err != nil {
		t.Fatal(err)
	}
	table, err := svc.Say(ctx, seats[0], id, play.ToTable, "  good luck, all  ")
	if err != nil {
		t.Fatal(err)
	}
	private, err := svc.Say(ctx, seats[0], id, 1, "shall we <b>ally</b>?")
	if err != nil {
		t.Fatal(err)
	}
	fromRef, err := svc.Say(ctx, talkReferee, id, play.ToTable, "play nicely")
	if err != nil {
		t.Fatal(err)
	}
	if table.Text != "good luck, all" || table.At != tbl.Version || table.FromName != tbl.Engine.Players(tbl.State)[0] || private.ToName != tbl.Engine.Players(tbl.State)[1] || !fromRef.Referee {
		t.Fatalf("the messages said: %+v %+v %+v", table, private, fromRef)
	}
	if table.ID == private.ID || len(table.ID) != 16 {
		t.Fatalf("message ids %q %q", table.ID, private.ID)
	}
	tests := []struct {
		name string
		user string
		want []string
	}{
		{"the speaker", seats[0].User, []string{table.ID, private.ID, fromRef.ID}},
		{"the private message's recipient", seats[1].User, []string{table.ID, private.ID, fromRef.ID}},
		{"the third seat", seats[2].User, []string{table.ID, fromRef.ID}},
		{"the referee, before the end", talkReferee.User, []string{table.ID, fromRef.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readIDs(t, svc, id, tt.user); !slices.Equal(got, tt.want) {
				t.Fatalf("reads %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := svc.Messages(ctx, id, talkOutsider.User, 0); !isCode(err, play.CodeForbidden) {
		t.Fatalf("someone outside a running game reads its talk: %v", err)
	}
	if ms, err := svc.Messages(ctx, id, seats[2].User, table.Number); err != nil || len(ms) != 1 || ms[0].ID != fromRef.ID {
		t.Fatalf("the messages after %d: %+v, %v", table.Number, ms, err)
	}
	after, err := events.StreamVersion(ctx, pool, play.Stream(id))
	if err != nil {
		t.Fatal(err)
	}
	now, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after != before || now.Version != tbl.Version || !slices.Equal(now.Pending, tbl.Pending) {
		t.Fatalf("talk moved the game: stream %d → %d, version %d → %d", before, after, tbl.Version, now.Version)
	}
	// The projections rebuild from the games' streams alone, as before.
	if n, err := play.NewUpkeep(pool, catalog.Registry(), nil).RebuildProjections(ctx, func(int, int) {}); err != nil || n != 1 {
		t.Fatalf("rebuild beside talk: %d games, %v", n, err)
	}
	v, err := svc.ViewFor(ctx, id, seats[2].User)
	if err != nil || v.Version != tbl.Version {
		t.Fatalf("after the rebuild the view is at %d (%v), want %d", v.Version, err, tbl.Version)
	}
}

// Every refusal names what is wrong, in both languages, and writes
// nothing.
func TestTalkRefusalsWriteNothing(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	public, _, pubSeats := talkGame(t, svc, nil)
	none, _, noneSeats := talkGame(t, svc, map[string]string{"press": "none"})
	private, _, privSeats := talkGame(t, svc, map[string]string{"press": "private"})
	tests := []struct {
		name  string
		actor play.Actor
		game  string
		to    games.Seat
		text  string
		code  string
		words string // in the English refusal
	}{
		{"an empty message", pubSeats[0], public, play.ToTable, "   ", play.CodeInvalid, "1 to 1000 characters"},
		{"a message too long", pubSeats[0], public, play.ToTable, strings.Repeat("é", 1001), play.CodeInvalid, "this one has 1001"},
		{"a private message where press is public", pubSeats[0], public, 1, "psst", play.CodeForbidden, "table messages only"},
		{"any message where press is none", noneSeats[0], none, play.ToTable, "hello", play.CodeForbidden, "without table talk"},
		{"a spectator", talkOutsider, public, play.ToTable, "hello", play.CodeForbidden, "only the players"},
		{"the referee, privately", talkReferee, private, 1, "psst", play.CodeForbidden, "whole table only"},
		{"to oneself", privSeats[1], private, 1, "note to self", play.CodeInvalid, "another seat"},
		{"to a seat the game lacks", privSeats[0], private, 5, "hello?", play.CodeInvalid, "no seat 5"},
		{"an unknown game", pubSeats[0], "nosuchgame", play.ToTable, "hello", play.CodeNotFound, "nosuchgame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Say(ctx, tt.actor, tt.game, tt.to, tt.text)
			if !isCode(err, tt.code) || !strings.Contains(err.Error(), tt.words) {
				t.Fatalf("refusal %v, want %s saying %q", err, tt.code, tt.words)
			}
			if fr := games.Explain(err, "fr"); fr == err.Error() || fr == "" {
				t.Fatalf("the refusal is not said in French: %q", fr)
			}
			if v, err := events.StreamVersion(ctx, pool, play.TalkStream(tt.game)); err != nil || v != 0 {
				t.Fatalf("a refused message wrote the talk stream to version %d (%v)", v, err)
			}
		})
	}
	if _, err := svc.CreateGame(ctx, talkReferee, play.GameRequest{Kind: "coup", Options: map[string]string{"press": "loud"}}); !isCode(err, play.CodeInvalid) || !strings.Contains(err.Error(), `not "loud"`) {
		t.Fatalf("press=loud: %v", err)
	}
	if _, err := svc.CreateGame(ctx, talkReferee, play.GameRequest{Kind: "coup", Options: map[string]string{"press_reveal": "maybe"}}); !isCode(err, play.CodeInvalid) || !strings.Contains(err.Error(), `not "maybe"`) {
		t.Fatalf("press_reveal=maybe: %v", err)
	}
}

// A player says at most TalkPerMinute messages a minute in a game,
// counted from the stream; the next is refused and not written.
func TestTalkRateIsLimited(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, _, seats := talkGame(t, svc, nil)
	for i := range play.TalkPerMinute {
		if _, err := svc.Say(ctx, seats[0], id, play.ToTable, fmt.Sprintf("message %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// A new service (a restart) counts from the stream.
	again := play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithSeedBox(testSeeds), play.WithAccounts(testAccounts{}))
	if _, err := again.Say(ctx, seats[0], id, play.ToTable, "one more"); !isCode(err, play.CodeConflict) || !strings.Contains(err.Error(), "in the last minute") {
		t.Fatalf("message %d in a minute: %v", play.TalkPerMinute+1, err)
	}
	if v, err := events.StreamVersion(ctx, pool, play.TalkStream(id)); err != nil || v != play.TalkPerMinute {
		t.Fatalf("the talk stream is at %d (%v)", v, err)
	}
	// Another player is not held back.
	if _, err := again.Say(ctx, seats[1], id, play.ToTable, "my turn"); err != nil {
		t.Fatal(err)
	}
}

// The referee hides a message with a reason; everyone then reads that it
// was hidden, and why, and nobody its text. Only the referee hides.
func TestRefereeHidesAMessage(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, _, seats := talkGame(t, svc, nil)
	m, err := svc.Say(ctx, seats[0], id, play.ToTable, "something rude")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.HideMessage(ctx, seats[1], id, m.ID, "I do not like it"); !isCode(err, play.CodeForbidden) {
		t.Fatalf("a player hides a message: %v", err)
	}
	if _, err := svc.HideMessage(ctx, talkReferee, id, m.ID, " "); !isCode(err, play.CodeInvalid) {
		t.Fatalf("hidden without a reason: %v", err)
	}
	if _, err := svc.HideMessage(ctx, talkReferee, id, "nosuchmessage", "rude"); !isCode(err, play.CodeNotFound) {
		t.Fatalf("an unknown message hidden: %v", err)
	}
	if _, err := svc.HideMessage(ctx, talkReferee, id, m.ID, "rude"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.HideMessage(ctx, talkReferee, id, m.ID, "rude"); !isCode(err, play.CodeConflict) {
		t.Fatalf("hidden twice: %v", err)
	}
	for _, u := range []string{seats[0].User, seats[2].User, talkReferee.User} {
		ms, err := svc.Messages(ctx, id, u, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 1 || !ms[0].Hidden || ms[0].Text != "" || ms[0].Line().In("en") != "hidden by the referee: rude" ||
			ms[0].Line().In("fr") != "masqué par l’arbitre : rude" { //nolint:misspell // French
			t.Fatalf("%s reads %+v", u, ms)
		}
	}
}

// press_reveal: after the end, private messages are read by all when the
// game says so, and by their two seats only when it does not.
func TestPrivateMessagesAfterTheEnd(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	tests := []struct {
		reveal string
		third  int // messages the third seat reads after the end
	}{
		{"yes", 2},
		{"no", 1},
	}
	for _, tt := range tests {
		t.Run("press_reveal="+tt.reveal, func(t *testing.T) {
			id, _, seats := talkGame(t, svc, map[string]string{"press": "private", "press_reveal": tt.reveal})
			if _, err := svc.Say(ctx, seats[0], id, 1, "secret plan"); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Say(ctx, seats[2], id, play.ToTable, "hello"); err != nil {
				t.Fatal(err)
			}
			if n := len(readIDs(t, svc, id, seats[2].User)); n != 1 {
				t.Fatalf("the third seat reads %d messages while the game runs", n)
			}
			for _, s := range []games.Seat{0, 1} {
				if _, err := svc.Resign(ctx, seats[s], id); err != nil {
					t.Fatal(err)
				}
			}
			tbl, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !tbl.Ended {
				t.Fatal("the game did not end when two of three resigned")
			}
			if n := len(readIDs(t, svc, id, seats[2].User)); n != tt.third {
				t.Fatalf("the third seat reads %d messages after the end, want %d", n, tt.third)
			}
			if n := len(readIDs(t, svc, id, seats[1].User)); n != 2 {
				t.Fatalf("the recipient reads %d messages after the end", n)
			}
			// The game's audit replays its own stream: talk is no part of it.
			rep, err := archiveOf(svc, pool).AuditGame(ctx, id)
			if err != nil || !rep.Passed || rep.Version != tbl.Version {
				t.Fatalf("the audit beside talk: %+v, %v", rep, err)
			}
		})
	}
}

// A written "say" (a mail reply, the page's box) talks: in English and in
// French, to the table or to one player by name; a name nobody plays is
// refused and nothing is written.
func TestWriteSays(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, seats := talkGame(t, svc, map[string]string{"press": "private"})
	names := tbl.Engine.Players(tbl.State)
	tests := []struct {
		name   string
		lines  []string
		to     games.Seat
		said   string
		refuse string
	}{
		{"say to the table", []string{"say good luck"}, play.ToTable, "good luck", ""},
		{"say to a player", []string{"say to " + strings.ToLower(names[1]) + ": shall we?"}, 1, "shall we?", ""},
		{"dis à la table", []string{"dis bonne chance"}, play.ToTable, "bonne chance", ""},
		{"dis à un joueur", []string{"dis à " + names[2] + " : on s’allie ?"}, 2, "on s’allie ?", ""},
		{"say to nobody", []string{"say to Zed: hi"}, play.ToTable, "", `no player "Zed"`},
		{"say nothing", []string{"say"}, play.ToTable, "", "1 to 1000 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := events.StreamVersion(ctx, pool, play.TalkStream(id))
			w, err := svc.Write(ctx, seats[0], play.Text{GameID: id, Seat: 0, Expected: tbl.Version, Lines: tt.lines})
			if tt.refuse != "" {
				after, _ := events.StreamVersion(ctx, pool, play.TalkStream(id))
				if err == nil || !strings.Contains(err.Error(), tt.refuse) || after != before {
					t.Fatalf("refusal %v (stream %d → %d)", err, before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.Reply.Verb != play.VerbSay || w.Said == nil || w.Said.To != tt.to || w.Said.Text != tt.said || w.Version != tbl.Version {
				t.Fatalf("wrote %+v, said %+v", w, w.Said)
			}
		})
	}
	// Written for another seat: refused.
	if _, err := svc.Write(ctx, seats[0], play.Text{GameID: id, Seat: 1, Expected: tbl.Version, Lines: []string{"say hi"}}); !isCode(err, play.CodeForbidden) {
		t.Fatalf("say for another seat: %v", err)
	}
}

// A message sent again under the same idempotency key (a mail delivered
// twice, a job retried) is said once; the key with another message is
// refused.
func TestTalkIdempotencyKey(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, seats := talkGame(t, svc, nil)
	keyed := seats[0]
	keyed.IdempotencyKey = "mail:<say@players.test>"
	text := play.Text{GameID: id, Seat: 0, Expected: tbl.Version, Lines: []string{"say hello"}}
	first, err := svc.Write(ctx, keyed, text)
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Write(ctx, keyed, text)
	if err != nil {
		t.Fatal(err)
	}
	if first.Said == nil || again.Said == nil || again.Said.ID != first.Said.ID {
		t.Fatalf("said %+v, then %+v", first.Said, again.Said)
	}
	if v, err := events.StreamVersion(ctx, pool, play.TalkStream(id)); err != nil || v != 1 {
		t.Fatalf("the talk stream is at %d (%v)", v, err)
	}
	text.Lines = []string{"say something else"}
	if _, err := svc.Write(ctx, keyed, text); !isCode(err, play.CodeConflict) {
		t.Fatalf("the key with another message: %v", err)
	}
}

// A recipient named as a person writes it reaches the player of that exact
// name first, then the one of that name but for case, then the one of that
// name but for accents; where several players answer to a name only once
// accents are dropped, the message is refused as ambiguous (in English and
// in French), naming them and their seats, and nothing is written.
func TestSayToPrefersTheExactName(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	tables := map[string][]string{
		"Léa and Lea": {"Zoé", "Léa", "Lea"},
		"Léa and Lèa": {"Zoé", "Léa", "Lèa"},
	}
	type table struct {
		id     string
		zoe    play.Actor
		seatOf map[string]games.Seat
	}
	made := map[string]table{}
	for name, names := range tables {
		id, tbl, seats := talkGameNamed(t, svc, map[string]string{"press": "private"}, names)
		tb := table{id: id, seatOf: map[string]games.Seat{}}
		for seat, n := range tbl.Engine.Players(tbl.State) {
			tb.seatOf[n] = games.Seat(seat)
		}
		tb.zoe = seats[tb.seatOf["Zoé"]]
		made[name] = tb
	}
	tests := []struct {
		table, to, lang string
		want            string   // the player reached
		refuse          []string // else what the refusal says
	}{
		{"Léa and Lea", "Lea", "en", "Lea", nil},
		{"Léa and Lea", "Léa", "en", "Léa", nil},
		{"Léa and Lea", "lea", "en", "Lea", nil},
		{"Léa and Lea", "LÉA", "en", "Léa", nil},
		{"Léa and Lèa", "léa", "en", "Léa", nil},
		{"Léa and Lèa", "Lèa", "en", "Lèa", nil},
		{"Léa and Lèa", "Lea", "en", "", []string{`several players`, `"Lea"`, "Léa (seat ", "Lèa (seat ", "exactly as it is spelt"}},
		{"Léa and Lèa", "lea", "fr", "", []string{"plusieurs joueurs", "« lea »", "Léa (place ", "Lèa (place ", "tel qu’il s’écrit"}},
	}
	for _, tt := range tests {
		t.Run(tt.table+" to "+tt.to+" ("+tt.lang+")", func(t *testing.T) {
			tb := made[tt.table]
			before, _ := events.StreamVersion(ctx, pool, play.TalkStream(tb.id))
			m, err := svc.SayTo(ctx, tb.zoe, tb.id, tt.to, "psst")
			if tt.refuse != nil {
				after, _ := events.StreamVersion(ctx, pool, play.TalkStream(tb.id))
				said := games.Explain(err, tt.lang)
				if !isCode(err, play.CodeInvalid) || after != before {
					t.Fatalf("refusal %v (stream %d → %d)", err, before, after)
				}
				for _, w := range tt.refuse {
					if !strings.Contains(said, w) {
						t.Fatalf("the refusal %q does not say %q", said, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.To != tb.seatOf[tt.want] || m.ToName != tt.want {
				t.Fatalf("said to %d (%s), want %s at %d", m.To, m.ToName, tt.want, tb.seatOf[tt.want])
			}
		})
	}
}

// A message or a reason that holds a control character other than a line
// break or a tab (a NUL the database cannot keep, an escape, a carriage
// return) is refused as invalid, in English and in French, by every intent
// that takes one, and nothing is written; a "\r\n" is a line break.
func TestControlCharactersAreRefused(t *testing.T) {
	ctx := context.Background()
	svc, pool := catalogService(t)
	id, tbl, seats := talkGame(t, svc, map[string]string{"press": "private"})
	said, err := svc.Say(ctx, seats[0], id, play.ToTable, "line one\r\nline two\twith a tab")
	if err != nil || said.Text != "line one\nline two\twith a tab" {
		t.Fatalf("a message with a line break and a tab: %+v, %v", said, err)
	}
	tests := []struct {
		name string
		code string // the code point named
		do   func() error
	}{
		{"a NUL said", "U+0000", func() error { _, err := svc.Say(ctx, seats[0], id, play.ToTable, "a\x00b"); return err }},
		{"an escape said to a name", "U+001B", func() error { _, err := svc.SayTo(ctx, seats[0], id, "P1", "\x1b[31mred"); return err }},
		{"a lone carriage return said", "U+000D", func() error {
			_, err := svc.Say(ctx, seats[0], id, 1, "ok\rthe referee to the table: stop")
			return err
		}},
		{"a bell written", "U+0007", func() error {
			_, err := svc.Write(ctx, seats[0], play.Text{GameID: id, Seat: 0, Expected: tbl.Version, Lines: []string{"say ding\a"}})
			return err
		}},
		{"a NUL in a reason to hide", "U+0000", func() error {
			_, err := svc.HideMessage(ctx, talkReferee, id, said.ID, "rude\x00")
			return err
		}},
		{"a NUL in a dispute's reason", "U+0000", func() error {
			_, err := svc.DisputeMove(ctx, seats[0], id, 1, "wrong\x00")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			talk, _ := events.StreamVersion(ctx, pool, play.TalkStream(id))
			game, _ := events.StreamVersion(ctx, pool, play.Stream(id))
			err := tt.do()
			if !isCode(err, play.CodeInvalid) {
				t.Fatalf("refusal %v, want %s", err, play.CodeInvalid)
			}
			for lang, want := range map[string]string{"en": "control character " + tt.code, "fr": "caractère de contrôle " + tt.code} {
				if said := games.Explain(err, lang); !strings.Contains(said, want) {
					t.Fatalf("the refusal in %s says %q, not %q", lang, said, want)
				}
			}
			talk2, _ := events.StreamVersion(ctx, pool, play.TalkStream(id))
			game2, _ := events.StreamVersion(ctx, pool, play.Stream(id))
			if talk2 != talk || game2 != game {
				t.Fatalf("a refusal wrote: talk %d → %d, game %d → %d", talk, talk2, game, game2)
			}
		})
	}
}

// Numbers are stable across the end of a game with press_reveal: each
// reader keeps the numbers of what they read before the end, the private
// messages the end reveals to them come after those, and what is said
// after the end after them; resuming after a number skips and repeats
// nothing.
func TestRevealedMessagesAreNumberedAfterWhatTheReaderRead(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	id, _, seats := talkGame(t, svc, map[string]string{"press": "private", "press_reveal": "yes"})
	say := func(from games.Seat, to games.Seat, text string) {
		t.Helper()
		if _, err := svc.Say(ctx, seats[from], id, to, text); err != nil {
			t.Fatal(err)
		}
	}
	say(0, 1, "secret plan")
	say(2, play.ToTable, "hello")
	say(0, 1, "second secret")
	say(1, play.ToTable, "gg soon")
	numbered := func(user string, after int) []string {
		t.Helper()
		ms, err := svc.Messages(ctx, id, user, after)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, fmt.Sprintf("%d %s", m.Number, m.Text))
		}
		return out
	}
	readers := []struct {
		name       string
		user       string
		before     []string // while the game runs
		after      []string // once it is over and "well played" said
		resumeFrom int
	}{
		{"the third seat", seats[2].User,
			[]string{"1 hello", "2 gg soon"},
			[]string{"1 hello", "2 gg soon", "3 secret plan", "4 second secret", "5 well played"}, 2},
		{"the referee", talkReferee.User,
			[]string{"1 hello", "2 gg soon"},
			[]string{"1 hello", "2 gg soon", "3 secret plan", "4 second secret", "5 well played"}, 2},
		{"the recipient", seats[1].User,
			[]string{"1 secret plan", "2 hello", "3 second secret", "4 gg soon"},
			[]string{"1 secret plan", "2 hello", "3 second secret", "4 gg soon", "5 well played"}, 4},
	}
	for _, rd := range readers {
		if got := numbered(rd.user, 0); !slices.Equal(got, rd.before) {
			t.Fatalf("%s reads %q while the game runs, want %q", rd.name, got, rd.before)
		}
	}
	for _, s := range []games.Seat{0, 1} {
		if _, err := svc.Resign(ctx, seats[s], id); err != nil {
			t.Fatal(err)
		}
	}
	say(2, play.ToTable, "well played")
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			if got := numbered(rd.user, 0); !slices.Equal(got, rd.after) {
				t.Fatalf("reads %q once the game is over, want %q", got, rd.after)
			}
			if got := numbered(rd.user, rd.resumeFrom); !slices.Equal(got, rd.after[rd.resumeFrom:]) {
				t.Fatalf("resumed after %d: %q, want %q", rd.resumeFrom, got, rd.after[rd.resumeFrom:])
			}
		})
	}
}

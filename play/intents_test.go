package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/play"
)

// testAccounts gives "name@…" the user id "u-name", with no database;
// anyone whose name starts with "noinvite" asked for no invitations.
type testAccounts struct{}

func (testAccounts) CheckAddress(a string) (string, error) {
	a = strings.TrimSpace(a)
	if local, domain, ok := strings.Cut(a, "@"); !ok || local == "" || domain == "" {
		return "", fmt.Errorf("%q is not an email address", a)
	}
	return a, nil
}

func (testAccounts) Invitee(_ context.Context, _ pgx.Tx, a string) (string, bool, error) {
	local, _, _ := strings.Cut(strings.ToLower(a), "@")
	return "u-" + local, strings.HasPrefix(local, "noinvite"), nil
}

// Every door writes durations the same way, and the same minimum holds.
func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration // 0: refused
	}{
		{"3d", 72 * time.Hour},
		{"36h", 36 * time.Hour},
		{"90m", 90 * time.Minute},
		{"1d12h", 36 * time.Hour},
		{"2d 6h", 54 * time.Hour},
		{" 72H ", 72 * time.Hour},
		{"1h30m", 90 * time.Minute},
		{"3650d", 3650 * 24 * time.Hour},
		{"", 0},
		{"soon", 0},
		{"0d", 0},
		{"30m", 0},
		{"59m59s", 0},
		{"-2d", 0},
		{"+2d", 0},
		{"d", 0},
		{"1d-1h", 0},
		{"3651d", 0},
		{"9223372036854775807d", 0},
		{"2562047h", 0},
	}
	for _, tt := range tests {
		got, err := play.ParseDuration(tt.in)
		if tt.want == 0 {
			if pe, ok := errors.AsType[*play.Error](err); !ok || pe.Code != play.CodeInvalid {
				t.Errorf("ParseDuration(%q) = %v, %v; want a refusal", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// The reply verbs are read once, here, for mail and the web alike, in
// English and in French, accents optional and case ignored; the language
// a verb is written in is reported when only one language has the word.
func TestParseReply(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  play.Reply
		verb  bool
		bad   bool
	}{
		{"away", []string{"away 3d"}, play.Reply{Verb: play.VerbAway, For: 72 * time.Hour, Lang: "en"}, true, false},
		{"away in capitals, a phone's space", []string{"Away\u00a036h"}, play.Reply{Verb: play.VerbAway, For: 36 * time.Hour, Lang: "en"}, true, false},
		{"away forever", []string{"away forever"}, play.Reply{Verb: play.VerbAway}, true, true},
		{"away for too little", []string{"away 20m"}, play.Reply{Verb: play.VerbAway}, true, true},
		{"away without how long", []string{"away"}, play.Reply{Verb: play.VerbAway}, true, true},
		{"back", []string{"back"}, play.Reply{Verb: play.VerbBack, Lang: "en"}, true, false},
		{"back with more is a move", []string{"back to the wall"}, play.Reply{Verb: play.VerbBack}, false, false},
		{"claim", []string{"  claim  "}, play.Reply{Verb: play.VerbClaim, Lang: "en"}, true, false},
		{"claim with more is a move", []string{"claim 3"}, play.Reply{Verb: play.VerbClaim}, false, false},
		{"resign", []string{"Resign"}, play.Reply{Verb: play.VerbResign, Lang: "en"}, true, false},
		{"dispute over two lines", []string{"dispute 12 the deal", "gave me two aces"}, play.Reply{Verb: play.VerbDispute, Version: 12, Reason: "the deal gave me two aces", Lang: "en"}, true, false},
		{"dispute with a v", []string{"dispute v7 why"}, play.Reply{Verb: play.VerbDispute, Version: 7, Reason: "why", Lang: "en"}, true, false},
		{"dispute without a version", []string{"dispute soon"}, play.Reply{Verb: play.VerbDispute}, true, true},
		{"a move", []string{"bid 3"}, play.Reply{}, false, false},
		{"nothing", []string{"", "  "}, play.Reply{}, false, false},
		{"absent, in days", []string{"absent 3j"}, play.Reply{Verb: play.VerbAway, For: 72 * time.Hour, Lang: "fr"}, true, false},
		{"absent, days in words", []string{"Absente 2 jours"}, play.Reply{Verb: play.VerbAway, For: 48 * time.Hour, Lang: "fr"}, true, false},
		{"je m’absente", []string{"je m’absente 1j12h"}, play.Reply{Verb: play.VerbAway, For: 36 * time.Hour, Lang: "fr"}, true, false},
		{"je m'absente, a plain apostrophe", []string{"Je m'absente 36 heures"}, play.Reply{Verb: play.VerbAway, For: 36 * time.Hour, Lang: "fr"}, true, false},
		{"absent without how long", []string{"absent"}, play.Reply{Verb: play.VerbAway}, true, true},
		{"retour", []string{"Retour"}, play.Reply{Verb: play.VerbBack, Lang: "fr"}, true, false},
		{"je suis de retour", []string{"je suis de retour"}, play.Reply{Verb: play.VerbBack, Lang: "fr"}, true, false},
		{"retour with more is a move", []string{"retour au jeu"}, play.Reply{}, false, false},
		{"revendiquer", []string{"revendiquer"}, play.Reply{Verb: play.VerbClaim, Lang: "fr"}, true, false},
		{"j’abandonne", []string{"J’abandonne"}, play.Reply{Verb: play.VerbResign, Lang: "fr"}, true, false}, //nolint:misspell // French
		{"abandon", []string{"abandon"}, play.Reply{Verb: play.VerbResign, Lang: "fr"}, true, false},
		{"litige", []string{"litige 12 la donne", "m’a donné deux as"}, play.Reply{Verb: play.VerbDispute, Version: 12, Reason: "la donne m’a donné deux as", Lang: "fr"}, true, false},
		{"réclamation without accents", []string{"RECLAMATION v4 pourquoi"}, play.Reply{Verb: play.VerbDispute, Version: 4, Reason: "pourquoi", Lang: "fr"}, true, false},
		{"contester is Coup's and Coyote's move, not a verb", []string{"contester 12"}, play.Reply{}, false, false},
		{"langue fr", []string{"langue fr"}, play.Reply{Verb: play.VerbLanguage, Language: "fr", Lang: "fr"}, true, false},
		{"langue français", []string{"Langue Français"}, play.Reply{Verb: play.VerbLanguage, Language: "fr", Lang: "fr"}, true, false},
		{"langue francais, no accent", []string{"langue francais"}, play.Reply{Verb: play.VerbLanguage, Language: "fr", Lang: "fr"}, true, false},
		{"langue anglais", []string{"langue anglais"}, play.Reply{Verb: play.VerbLanguage, Language: "en", Lang: "fr"}, true, false},
		{"language en", []string{"language en"}, play.Reply{Verb: play.VerbLanguage, Language: "en", Lang: "en"}, true, false},
		{"language French", []string{"Language French."}, play.Reply{Verb: play.VerbLanguage, Language: "fr", Lang: "en"}, true, false},
		{"language fr-BE", []string{"language fr-BE"}, play.Reply{Verb: play.VerbLanguage, Language: "fr", Lang: "en"}, true, false},
		{"a language courrier does not speak", []string{"langue klingon"}, play.Reply{Verb: play.VerbLanguage}, true, true},
		{"langue alone", []string{"langue"}, play.Reply{Verb: play.VerbLanguage}, true, true},
		// Table talk (issue 36, part 1).
		{"say to the table", []string{"say Good luck, all"}, play.Reply{Verb: play.VerbSay, Said: "Good luck, all", Lang: "en"}, true, false},
		{"say over two lines", []string{"say one", "two"}, play.Reply{Verb: play.VerbSay, Said: "one\ntwo", Lang: "en"}, true, false},
		{"say to one player", []string{"Say to Ana: shall we?"}, play.Reply{Verb: play.VerbSay, To: "Ana", Said: "shall we?", Lang: "en"}, true, false},
		{"say to, without a colon, is to the table", []string{"say to all of you"}, play.Reply{Verb: play.VerbSay, Said: "to all of you", Lang: "en"}, true, false},
		{"say a word is to the table in English", []string{"say a word: hi"}, play.Reply{Verb: play.VerbSay, Said: "a word: hi", Lang: "en"}, true, false},
		{"dis à la table", []string{"dis bonne chance"}, play.Reply{Verb: play.VerbSay, Said: "bonne chance", Lang: "fr"}, true, false},
		{"dis à un joueur", []string{"Dis à Ana : on s’allie ?"}, play.Reply{Verb: play.VerbSay, To: "Ana", Said: "on s’allie ?", Lang: "fr"}, true, false},
		{"dis a, sans accent", []string{"dis a Bob: salut"}, play.Reply{Verb: play.VerbSay, To: "Bob", Said: "salut", Lang: "fr"}, true, false},
		{"say alone (Say refuses it)", []string{"say"}, play.Reply{Verb: play.VerbSay, Lang: "en"}, true, false},
		{"say to someone, nothing said", []string{"say to Ana:"}, play.Reply{Verb: play.VerbSay, To: "Ana", Lang: "en"}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := play.ParseReply(tt.lines)
			if ok != tt.verb || (err != nil) != tt.bad {
				t.Fatalf("ParseReply(%q) = %+v, %v, %v", tt.lines, got, ok, err)
			}
			if err != nil {
				if pe, isPlay := errors.AsType[*play.Error](err); !isPlay || pe.Code != play.CodeInvalid {
					t.Fatalf("the refusal %v is not a *play.Error", err)
				}
				return
			}
			if ok && got != tt.want {
				t.Fatalf("ParseReply(%q) = %+v, want %+v", tt.lines, got, tt.want)
			}
		})
	}
}

// One creation checks everything for every door: the game, the seats, the
// addresses, the referee, the deadlines, the weekdays, and who asked for no
// invitations.
func TestCreateGameChecksTheRequest(t *testing.T) {
	ctx := context.Background()
	svc, _ := catalogService(t)
	tests := []struct {
		name string
		req  play.GameRequest
		code string // "" accepted
	}{
		{"a game with invitees, deadlines and weekdays", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"bob@players.test", "eve@players.test"},
			Deadlines: map[string]string{"turn": "1d12h", "window": "6h"}, Weekdays: []string{"mon", "Friday"}}, ""},
		{"the same address twice is one invitee", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"bob@players.test", "Bob@players.test"}}, ""},
		{"a referee who does not play", play.GameRequest{Kind: "coup", Invite: []string{"bob@players.test", "eve@players.test"}, Referee: "ref@players.test"}, ""},
		{"no such game", play.GameRequest{Kind: "chess", Name: "Ana"}, play.CodeInvalid},
		{"no game at all", play.GameRequest{Name: "Ana"}, play.CodeInvalid},
		{"too many seats", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test", "f@x.test", "g@x.test"}}, play.CodeInvalid},
		{"too few seats", play.GameRequest{Kind: "coup", Invite: []string{"bob@players.test"}}, play.CodeInvalid},
		{"not an address", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"bob"}}, play.CodeInvalid},
		{"inviting oneself", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"ana@players.test"}}, play.CodeInvalid},
		{"an invitee who asked for no invitations", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"noinvite@players.test"}}, play.CodeForbidden},
		{"a referee who asked for no invitations", play.GameRequest{Kind: "coup", Name: "Ana", Referee: "noinvite@players.test"}, play.CodeForbidden},
		{"a referee invited to play", play.GameRequest{Kind: "coup", Name: "Ana", Invite: []string{"ref@players.test"}, Referee: "REF@players.test"}, play.CodeInvalid},
		{"the creator who plays as referee", play.GameRequest{Kind: "coup", Name: "Ana", Referee: "ana@players.test"}, play.CodeInvalid},
		{"a deadline under an hour", play.GameRequest{Kind: "coup", Name: "Ana", Deadlines: map[string]string{"turn": "30m"}}, play.CodeInvalid},
		{"a deadline past 60 days", play.GameRequest{Kind: "coup", Name: "Ana", Deadlines: map[string]string{"window": "61d"}}, play.CodeInvalid},
		{"a deadline that is no duration", play.GameRequest{Kind: "coup", Name: "Ana", Deadlines: map[string]string{"turn": "soon"}}, play.CodeInvalid},
		{"no such weekday", play.GameRequest{Kind: "coup", Name: "Ana", Weekdays: []string{"someday"}}, play.CodeInvalid},
		{"a bad player name", play.GameRequest{Kind: "coup", Name: "3rd"}, play.CodeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := svc.CreateGame(ctx, ana, tt.req)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				tbl, err := svc.Load(ctx, out.GameID)
				if err != nil {
					t.Fatal(err)
				}
				if tt.req.Referee != "" && tbl.Referee() != "u-ref" {
					t.Errorf("referee %q", tbl.Referee())
				}
				if len(tt.req.Invite) > 0 && !slices.Contains(tbl.Invited, "u-bob") {
					t.Errorf("invited %v", tbl.Invited)
				}
				if d := tt.req.Deadlines["turn"]; d != "" && tbl.Deadlines["turn"] != 36*time.Hour {
					t.Errorf("deadlines %v", tbl.Deadlines)
				}
				return
			}
			if pe, ok := errors.AsType[*play.Error](err); !ok || pe.Code != tt.code {
				t.Fatalf("%+v: %v, want a refusal %q", tt.req, err, tt.code)
			}
		})
	}
}

// The accounts of a new game's invitees are made in the game's own
// transaction: a refused game leaves none behind; who asked for no
// invitations (or for no mail at all, unless they said yes to invitations)
// is refused.
func TestInviteesAccountsAreMadeInTheGamesTransaction(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := play.New(pool, catalog.Registry(), play.WithLogger(quietLog()), play.WithAccounts(auth.NewInvitees()))
	users := auth.NewUsers(pool)
	ensure := func(addr string) auth.User {
		u, err := users.Ensure(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	prefer := func(u auth.User, kind string, on bool) {
		if _, err := pool.Exec(ctx, `insert into mail_preferences (user_id, game_id, kind, enabled) values ($1, '', $2, $3)`, u.ID, kind, on); err != nil {
			t.Fatal(err)
		}
	}
	creator := play.Actor{User: ensure("ana@players.test").ID, Channel: play.ChannelWeb}
	prefer(ensure("no@players.test"), "invitation", false)
	prefer(ensure("mute@players.test"), "", false)
	picky := ensure("picky@players.test")
	prefer(picky, "", false)
	prefer(picky, "invitation", true)
	count := func() int {
		var n int
		if err := pool.QueryRow(ctx, `select count(*) from users`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	for _, refused := range []string{"No@Players.test", "mute@players.test"} {
		_, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coyote", Name: "Ana", Invite: []string{"new@players.test", refused}})
		if pe, ok := errors.AsType[*play.Error](err); !ok || pe.Code != play.CodeForbidden || !strings.Contains(pe.Error(), "no invitations") {
			t.Fatalf("inviting %s: %v", refused, err)
		}
		if n := count(); n != before {
			t.Fatalf("a refused game left %d new accounts", n-before)
		}
		if _, err := users.ByEmail(ctx, "new@players.test"); !errors.Is(err, auth.ErrNoUser) {
			t.Fatalf("the refused game's new invitee has an account: %v", err)
		}
	}
	out, err := svc.CreateGame(ctx, creator, play.GameRequest{Kind: "coyote", Name: "Ana",
		Invite: []string{"New@players.test", "picky@players.test"}, Referee: "ref@players.test"})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := users.ByEmail(ctx, "new@players.test")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := users.ByEmail(ctx, "ref@players.test")
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := svc.Load(ctx, out.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tbl.Invited, fresh.ID) || !slices.Contains(tbl.Invited, picky.ID) || tbl.Referee() != ref.ID {
		t.Fatalf("invited %v, referee %q", tbl.Invited, tbl.Referee())
	}
}

// sameJSON reports whether two JSON documents say the same (the database
// keeps a view as jsonb, in its own key order).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// What a player writes runs in one command for every door: a move returns
// the view it projected (the one a read gives), a stale move says the game
// moved on, a reply verb runs as its own function would, and a refusal
// carries what the seat may do now, for its player only.
func TestWriteRunsMovesAndReplyVerbs(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	id, tbl := startPile(t, svc)
	first := games.Seat(tbl.Pending[0].Seat)
	mover, other := actorOf(tbl, first), actorOf(tbl, 1-first)
	text := func(seat games.Seat, expected int, lines ...string) play.Text {
		return play.Text{GameID: id, Seat: seat, Expected: expected, Lines: lines}
	}

	w, err := svc.Write(ctx, mover, text(first, tbl.Version, "take 2"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Reply.Verb != "" || w.Game == nil || w.View == nil || w.View.Seat != first || w.View.Version != w.Version || w.Game.Version != w.Version {
		t.Fatalf("the move's outcome %+v", w)
	}
	g, v, err := svc.GameAndViewFor(ctx, id, mover.User)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, v.View, w.View.View) || !slices.Equal(v.Legal, w.View.Legal) || v.Seat != w.View.Seat ||
		!g.UpdatedAt.Equal(w.Game.UpdatedAt) || !g.CreatedAt.Equal(w.Game.CreatedAt) || g.Status != w.Game.Status {
		t.Fatalf("the view the move returned differs from the one read:\n%+v %+v\n%+v %+v", *w.Game, *w.View, g, v)
	}

	// The same text against the version before: the game moved on.
	if _, err := svc.Write(ctx, other, text(1-first, tbl.Version, "take 1")); !errors.As(err, new(*play.StaleError)) {
		t.Fatalf("a stale move: %v", err)
	}
	keyed := other
	keyed.IdempotencyKey = "mail:<refused@players.test>"
	refusals := []struct {
		name  string
		actor play.Actor
		text  play.Text
		code  string
		seen  bool
	}{
		{"no version", other, text(1-first, -1, "take 1"), play.CodeInvalid, true},
		{"nothing written", other, text(1-first, w.Version, "", " "), play.CodeInvalid, true},
		{"nothing written, with a mail's key", keyed, text(1-first, w.Version), play.CodeInvalid, true},
		{"a bad absence, with a mail's key", keyed, text(1-first, w.Version, "away soon"), play.CodeInvalid, true},
		{"a dispute without a version", other, text(1-first, w.Version, "dispute soon"), play.CodeInvalid, true},
		{"another player's seat", mover, text(1-first, w.Version, "take 1"), play.CodeForbidden, false},
		{"an absence already over", other, text(1-first, w.Version, "back"), play.CodeConflict, true},
	}
	for _, tt := range refusals {
		got, err := svc.Write(ctx, tt.actor, tt.text)
		pe, ok := errors.AsType[*play.Error](err)
		if !ok || pe.Code != tt.code || (got.Seen != nil) != tt.seen {
			t.Fatalf("%s: %v (seen %+v)", tt.name, err, got.Seen)
		}
		if tt.seen && (got.Seen.Version != w.Version || len(got.Seen.Choices) == 0 || got.Seen.User != other.User) {
			t.Fatalf("%s: seen %+v", tt.name, got.Seen)
		}
	}

	away, err := svc.Write(ctx, other, text(1-first, w.Version, "away 1d12h"))
	if err != nil || away.Reply.Verb != play.VerbAway || away.Until.IsZero() || away.View == nil {
		t.Fatalf("away: %+v, %v", away, err)
	}
	if d := time.Until(away.Until); d < 35*time.Hour || d > 37*time.Hour {
		t.Fatalf("away until %v", away.Until)
	}
	if back, err := svc.Write(ctx, other, play.Text{GameID: id, Seat: games.Spectator, Expected: away.Version, Lines: []string{"back"}}); err != nil || back.Reply.Verb != play.VerbBack {
		t.Fatalf("back from the web's box: %+v, %v", back, err)
	}
	if _, err := svc.Write(ctx, other, text(1-first, w.Version, "resign")); err != nil {
		t.Fatal(err)
	}
	tbl, err = svc.Load(ctx, id)
	if err != nil || !tbl.Ended {
		t.Fatalf("the resignation did not end the game: %v", err)
	}
}

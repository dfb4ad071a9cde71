package auth_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// A player's language: SetLanguage takes a tag of a language courrier
// speaks and refuses any other, changing nothing; NoteLanguage (first
// contact) sets it only while there is none; ByID, ByEmail, a session and
// an API token all read it.
func TestLanguageSetting(t *testing.T) {
	ctx := t.Context()
	pool := pgtest.New(t)
	clk := &fakeClock{t: time.Now()}
	users := auth.NewUsers(pool)
	tokens, err := auth.NewTokens("courrier", "courrier-api", 12*time.Hour, clk.Now, keyA)
	if err != nil {
		t.Fatal(err)
	}
	sessions, apiTokens := auth.NewSessions(pool, tokens, clk.Now), auth.NewAPITokens(pool, clk.Now)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	_, sessionTok, err := sessions.Open(ctx, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, apiSecret, err := apiTokens.Create(ctx, ana.ID, "bot")
	if err != nil {
		t.Fatal(err)
	}
	// read is ana's language through every way of reading the account.
	read := func(step, want string) {
		t.Helper()
		byID, err := users.ByID(ctx, ana.ID)
		if err != nil || byID.Known() != want {
			t.Errorf("%s: ByID language %q, %v; want %q", step, byID.Known(), err, want)
		}
		byEmail, err := users.ByEmail(ctx, "ANA@example.org")
		if err != nil || byEmail.Known() != want {
			t.Errorf("%s: ByEmail language %q, %v; want %q", step, byEmail.Known(), err, want)
		}
		sess, err := sessions.Verify(ctx, sessionTok)
		if err != nil || sess.Language != want {
			t.Errorf("%s: the session's language %q, %v; want %q", step, sess.Language, err, want)
		}
		user, lang, err := apiTokens.Caller(ctx, apiSecret)
		if err != nil || user != ana.ID || lang != want {
			t.Errorf("%s: the API token's caller %q %q, %v; want %q", step, user, lang, err, want)
		}
	}
	steps := []struct {
		name string
		do   func() error
		ok   bool
		want string
	}{
		{"a new account has none", func() error { return nil }, true, ""},
		{"a bad tag is refused", func() error { return users.SetLanguage(ctx, ana.ID, "klingon") }, false, ""},
		{"a language courrier does not speak is refused", func() error { return users.SetLanguage(ctx, ana.ID, "de") }, false, ""},
		{"an empty tag is refused", func() error { return users.SetLanguage(ctx, ana.ID, " ") }, false, ""},
		{"first contact notes the browser's language", func() error {
			set, err := users.NoteLanguage(ctx, ana.ID, "fr-BE")
			if err == nil && !set {
				return errors.New("NoteLanguage set nothing on an account without a language")
			}
			// A noted language is no choice: the setting stays empty, so a
			// mail command's own language still wins (decision 5).
			if u, _ := users.ByID(ctx, ana.ID); u.Language != "" || u.NotedLanguage != "fr" {
				return fmt.Errorf("noted: setting %q, noted %q; want none and fr", u.Language, u.NotedLanguage)
			}
			return err
		}, true, "fr"},
		{"a later contact changes nothing", func() error {
			set, err := users.NoteLanguage(ctx, ana.ID, "en")
			if err == nil && set {
				return errors.New("NoteLanguage replaced a language")
			}
			return err
		}, true, "fr"},
		{"a language nobody speaks is not noted", func() error {
			set, err := users.NoteLanguage(ctx, ana.ID, "xx")
			if err == nil && set {
				return errors.New("NoteLanguage noted xx")
			}
			return err
		}, true, "fr"},
		{"the setting replaces it", func() error { return users.SetLanguage(ctx, ana.ID, "en-GB") }, true, "en"},
		{"and again", func() error { return users.SetLanguage(ctx, ana.ID, "FR") }, true, "fr"},
	}
	for _, st := range steps {
		err := st.do()
		if st.ok && err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !st.ok && !errors.Is(err, auth.ErrBadLanguage) {
			t.Fatalf("%s: %v, want ErrBadLanguage", st.name, err)
		}
		read(st.name, st.want)
	}
	if err := users.SetLanguage(ctx, "unone", "fr"); !errors.Is(err, auth.ErrNoUser) {
		t.Errorf("the language of an account that does not exist: %v", err)
	}
	// A refusal says itself in each language.
	err = users.SetLanguage(ctx, ana.ID, "de")
	if fr := games.Explain(err, "fr"); !strings.Contains(fr, "« de » n’est pas une langue que courrier parle") {
		t.Errorf("the refusal in French: %q", fr)
	}
	if en := games.Explain(err, "en"); !strings.Contains(en, `"de" is not a language courrier speaks (en, fr)`) {
		t.Errorf("the refusal in English: %q", en)
	}
}

// The language to write to a person in: their setting, else the language
// of the command they used, else their browser's, else English.
func TestChooseLanguage(t *testing.T) {
	cases := []struct {
		name, setting, command, accept, want string
	}{
		{"nothing known", "", "", "", "en"},
		{"the browser's", "", "", "fr-FR,fr;q=0.9,en;q=0.5", "fr"},
		{"the browser's second choice", "", "", "de-DE,fr;q=0.8", "fr"},
		{"a browser courrier cannot please", "", "", "de-DE,ja", "en"},
		{"the command before the browser", "", "fr", "en-US", "fr"},
		{"the setting before the command", "en", "fr", "fr-FR", "en"},
		{"the setting before the browser", "fr", "", "en-US", "fr"},
		{"a setting courrier does not speak is none", "de", "", "fr", "fr"},
		{"a command courrier does not speak is none", "", "nl", "", "en"},
		{"a malformed header", "", "", ";;;q=x", "en"},
	}
	for _, tc := range cases {
		if got := auth.ChooseLanguage(tc.setting, tc.command, tc.accept); got != tc.want {
			t.Errorf("%s: ChooseLanguage(%q, %q, %q) = %q, want %q", tc.name, tc.setting, tc.command, tc.accept, got, tc.want)
		}
	}
	if got := (auth.User{Language: "fr"}).Lang(); got != "fr" {
		t.Errorf("Lang of a French player = %q", got)
	}
	if got := (auth.User{}).Lang(); got != "en" {
		t.Errorf("Lang of a player without a language = %q", got)
	}
}

// api/auth's catalog is complete, and its refusals say themselves in
// French: a bad name, time zone, address, token name, sign-in link and
// mail kind.
func TestAuthRefusalsInFrench(t *testing.T) {
	if err := auth.Words().Complete(); err != nil {
		t.Fatal(err)
	}
	_, nameErr := auth.CheckName("  ")
	_, addrErr := auth.NormalizeEmail("ana")
	cases := []struct {
		name   string
		err    error
		is     error
		en, fr string
	}{
		{"an empty name", nameErr, auth.ErrBadName, "a name needs at least one letter", "un nom doit contenir au moins une lettre"},
		{"a bad time zone", auth.CheckTimeZone("Mars/Olympus"), auth.ErrBadTimeZone, `"Mars/Olympus" is not a time zone name like Europe/Paris or America/New_York`, "« Mars/Olympus » n’est pas un nom de fuseau horaire comme Europe/Paris ou America/New_York"},
		{"a bad address", addrErr, nil, `"ana" is not an email address`, "« ana » n’est pas une adresse électronique"},
	}
	for _, tc := range cases {
		if tc.err == nil || (tc.is != nil && !errors.Is(tc.err, tc.is)) {
			t.Errorf("%s: %v", tc.name, tc.err)
			continue
		}
		if got := games.Explain(tc.err, "en"); got != tc.en {
			t.Errorf("%s in English: %q, want %q", tc.name, got, tc.en)
		}
		if got := games.Explain(tc.err, "fr"); got != tc.fr {
			t.Errorf("%s in French: %q, want %q", tc.name, got, tc.fr)
		}
	}
	for _, k := range auth.MailKinds() {
		if k.LabelIn("en") != k.Label || k.AboutIn("en") != k.About {
			t.Errorf("the kind %s says %q / %q in English, its fields %q / %q", k.ID, k.LabelIn("en"), k.AboutIn("en"), k.Label, k.About)
		}
		if k.LabelIn("fr") == k.AboutIn("fr") || strings.HasPrefix(k.LabelIn("fr"), "[") {
			t.Errorf("the kind %s in French: %q / %q", k.ID, k.LabelIn("fr"), k.AboutIn("fr"))
		}
	}
}

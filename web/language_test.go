package web_test

import (
	"bufio"
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/web"
)

var (
	tagRe    = regexp.MustCompile(`(?s)<[^>]*>`)
	htmlLang = regexp.MustCompile(`<html lang="([a-z]+)">`)
	// otherLanguage is a game's rules, written in a language of their own.
	otherLanguage = regexp.MustCompile(`(?s)<article class="rules" lang="[a-z]+">.*?</article>`)
)

// foreignSentences are the sentences a page in lang must not hold: those
// foreign to lang (games.Catalog.Foreign: each run of three words or more,
// between arguments and markup, of a pattern in another language that
// lang's pattern of the same key does not hold too) of web's catalog,
// archive's (the audit), play's, the words all boards share or a game's
// (boards, what happened, choices, refusals, the words of moves), in lower
// case with one space between words.
func foreignSentences(lang string) []string {
	var out []string
	for _, words := range pageCatalogs() {
		out = append(out, words.Foreign(lang)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pageCatalogs are the catalogs whose words a page shows.
func pageCatalogs() []*games.Catalog {
	cats := []*games.Catalog{web.Words(), archive.Words(), play.Words(), games.BoardWords()}
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		eng, err := reg.Get(id)
		if err != nil {
			panic(err)
		}
		cats = append(cats, eng.Words())
	}
	return cats
}

// pageText is a page's text as a reader reads it: no markup, entities
// said, spaces collapsed.
func pageText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tagRe.ReplaceAllString(page, " "))), " ")
}

// checkLanguage fails the test when the browser's last page is not in
// lang: its <html lang>, its Content-Language, and no sentence of web's
// catalog in another language.
func checkLanguage(t *testing.T, b *browser, what, lang string) {
	t.Helper()
	if m := htmlLang.FindStringSubmatch(b.page); m == nil || m[1] != lang || b.header.Get("Content-Language") != lang {
		t.Errorf("%s: <html lang=%v>, Content-Language %q; want %s", what, m, b.header.Get("Content-Language"), lang)
	}
	// A game's rules not yet written in lang are shown in English, marked
	// so (<article lang="en">): they are the game's words, not web's.
	text := pageText(otherLanguage.ReplaceAllStringFunc(b.page, func(a string) string {
		if strings.Contains(a, `lang="`+lang+`"`) {
			return a
		}
		return ""
	}))
	lower := strings.ToLower(text)
	for _, s := range foreignSentences(lang) {
		if strings.Contains(lower, s) {
			t.Errorf("%s in %s says %q:\n%s", what, lang, s, text)
		}
	}
}

// A French player reads every kind of page in French, and an English
// player at the same table every kind in English: sign-in (the form, the
// link sent, the link's button, a page that needs a session), the list of
// games, both steps of a new game, the account, the settings, a game
// waiting for players, running (with a refused move and the rule it
// cites, linked to the rules page in the player's language), over, its
// history and audit, the rules and an error page. No page in one language
// holds a sentence of web's catalog in the other.
func TestEveryPageInThePlayersLanguage(t *testing.T) {
	if len(foreignSentences("fr")) < 100 || len(foreignSentences("en")) < 100 {
		t.Fatalf("only %d English and %d French sentences to look for", len(foreignSentences("fr")), len(foreignSentences("en")))
	}
	s := newSite(t, "http://courrier.test")
	svc := s.play
	ctx := t.Context()
	amelie, bob, cleo := s.browser(), s.browser(), s.browser()
	amelie.accept = "fr-FR,fr;q=0.9,en;q=0.5"
	bob.accept = "en-GB,en;q=0.9"

	// Before signing in: the sign-in page, the link sent, the link's page,
	// in the browser's language.
	for _, p := range []struct {
		b    *browser
		lang string
	}{{amelie, "fr"}, {bob, "en"}} {
		p.b.get("/")
		checkLanguage(t, p.b, "the sign-in page", p.lang)
		p.b.get("/games")
		if p.b.status != http.StatusUnauthorized {
			t.Fatalf("a page that needs a session: %d", p.b.status)
		}
		checkLanguage(t, p.b, "a page that needs a session", p.lang)
		email := map[string]string{"fr": "amelie@example.org", "en": "bob@example.org"}[p.lang]
		p.b.get("/")
		p.b.post("/signin", url.Values{"email": {email}, "name": {map[string]string{"fr": "Amélie", "en": "Bob"}[p.lang]}})
		checkLanguage(t, p.b, "the link sent", p.lang)
		p.b.get("/login/notalink")
		checkLanguage(t, p.b, "a link's page", p.lang)
		p.b.post("/login/notalink", url.Values{})
		if p.b.status != http.StatusUnauthorized {
			t.Fatalf("a link that is not ours: %d", p.b.status)
		}
		checkLanguage(t, p.b, "a link refused", p.lang)
		p.b.signIn(email, "")
	}
	cleo.signIn("cleo@example.org", "Cléo")

	// Amélie creates a game of Coyote and invites the others.
	for _, path := range []string{"/games", "/games/new", "/games/new?game=coyote", "/account", "/settings"} {
		amelie.get(path)
		checkLanguage(t, amelie, path, "fr")
		bob.get(path)
		checkLanguage(t, bob, path, "en")
	}
	amelie.get("/games/new?game=coyote")
	id := gameURL.FindStringSubmatch(amelie.post("/games/new", url.Values{"game": {"coyote"}, "play": {"on"}, "name": {"Amélie"},
		"invite": {"bob@example.org\ncleo@example.org"}, "referee": {"rita@example.org"}}))[1]
	checkLanguage(t, amelie, "a game waiting for players", "fr")
	bob.get("/games/" + id)
	checkLanguage(t, bob, "a game waiting for players", "en")
	for _, p := range []*browser{bob, cleo} {
		p.get("/games/" + id)
		p.post("/games/"+id+"/join", url.Values{"name": {""}})
	}
	for _, p := range []struct {
		b    *browser
		lang string
	}{{amelie, "fr"}, {bob, "en"}} {
		p.b.get("/games")
		checkLanguage(t, p.b, "the list of games", p.lang)
		p.b.get("/games/" + id)
		checkLanguage(t, p.b, "a game running", p.lang)
		p.b.post("/games/"+id+"/move", url.Values{"move": {"bid 0"}, "version": {versionRe.FindStringSubmatch(p.b.page)[1]}})
		if p.b.status != http.StatusUnprocessableEntity && p.b.status != http.StatusBadRequest {
			t.Fatalf("bid 0: %d\n%s", p.b.status, p.b.page)
		}
		checkLanguage(t, p.b, "a refused move", p.lang)
		// The rule it cites links to the rule on the rules page in the
		// player's language.
		rule := regexp.MustCompile(`<a class="rule" href="([^"]+)"[^>]*>([^<]+)</a>`).FindStringSubmatch(p.b.page)
		if rule == nil || !strings.HasPrefix(rule[1], "/rules/coyote?lang="+p.lang+"#") {
			t.Fatalf("the refusal links to %v:\n%s", rule, p.b.page)
		}
		id := rule[1][strings.IndexByte(rule[1], '#')+1:]
		if want := web.Words().In(p.lang).Must(games.T("game.rule", id)); rule[2] != want {
			t.Errorf("the rule is cited as %q, want %q", rule[2], want)
		}
		p.b.get(html.UnescapeString(rule[1]))
		checkLanguage(t, p.b, "the rules page", p.lang)
		if !strings.Contains(p.b.page, `id="`+id+`"`) {
			t.Errorf("the rules page in %s has no anchor %s", p.lang, id)
		}
	}

	// The game ends: whoever must act calls Coyote, or bids the least.
	actors := map[games.Seat]play.Actor{}
	for _, email := range []string{"amelie@example.org", "bob@example.org", "cleo@example.org"} {
		u, err := s.users.Ensure(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		actors[tbl.SeatOf(u.ID)] = play.Actor{User: u.ID, Channel: play.ChannelWeb}
	}
	// A player disputes version 2 of the game, and the referee (who has
	// no seat) upholds it: the audit says the decision in each reader's
	// words.
	disputed, err := svc.DisputeMove(ctx, actors[1], id, 2, "I doubt the deal")
	if err != nil {
		t.Fatal(err)
	}
	rita, err := s.users.Ensure(ctx, "rita@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.RuleDispute(ctx, play.Actor{User: rita.ID, Channel: play.ChannelWeb}, id, disputed.Version, play.RulingUpheld, "the deal was fine after all"); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		tbl, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Ended {
			break
		}
		p := tbl.Pending[0]
		legal := tbl.Engine.Legal(tbl.State, p.Seat)
		move := legal[0]
		if slices.Contains(legal, "coyote") {
			move = "coyote"
		}
		if _, err := svc.Move(ctx, actors[p.Seat], id, tbl.Version, []string{move}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		b    *browser
		lang string
	}{{amelie, "fr"}, {bob, "en"}} {
		for _, path := range []string{"/games/" + id, "/games/" + id + "/history", "/games/" + id + "/history?version=3", "/games/" + id + "/audit", "/games", "/nowhere"} {
			p.b.get(path)
			if p.b.status != http.StatusOK && path != "/nowhere" {
				t.Fatalf("%s: %d\n%s", path, p.b.status, p.b.page)
			}
			checkLanguage(t, p.b, path, p.lang)
		}
		p.b.get("/games/" + id)
		if !strings.Contains(p.b.page, `data-testid="result"`) {
			t.Fatalf("the game did not end:\n%s", pageText(p.b.page))
		}
		p.b.get("/games/" + id + "/audit")
		if !strings.Contains(p.b.page, `data-passed="true"`) {
			t.Errorf("the audit in %s did not pass:\n%s", p.lang, pageText(p.b.page))
		}
		ruling := web.Words().In(p.lang).Must(games.T("audit.ruling", archive.Ruling{Decision: play.RulingUpheld}.Said().In(p.lang), "the deal was fine after all"))
		if !strings.Contains(pageText(p.b.page), ruling) {
			t.Errorf("the audit in %s does not say %q:\n%s", p.lang, ruling, pageText(p.b.page))
		}
	}
}

// A French player's game page of each of the five games, at their turn
// after the others have played, is French: the board told in words, what
// happened since, what to decide, the choices (each button written in
// French with the game's WriteMove), and a French move the rules refuse,
// with the legal move closest to it in French and its rule linked to the
// French rules page; then the game's history; no sentence of any catalog
// in English. An English player at the same table reads it in English.
func TestEveryGamesPageInThePlayersLanguage(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	svc := s.play
	ctx := t.Context()
	amelie, bob := s.browser(), s.browser()
	amelie.accept = "fr-FR,fr;q=0.9,en;q=0.5"
	bob.accept = "en-GB,en;q=0.9"
	amelie.signIn("amelie@example.org", "Amélie")
	bob.signIn("bob@example.org", "Bob")
	others := []string{"bob@example.org", "cleo@example.org", "dan@example.org"}
	names := []string{"Bob", "Cléo", "Dan"}
	actorOf := func(email string) play.Actor {
		u, err := s.users.Ensure(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		return play.Actor{User: u.ID, Channel: play.ChannelWeb}
	}
	me := actorOf("amelie@example.org")
	reg := svc.Registry()
	for _, kind := range reg.IDs() {
		t.Run(kind, func(t *testing.T) {
			eng, err := reg.Get(kind)
			if err != nil {
				t.Fatal(err)
			}
			n := max(eng.Info().MinSeats, 3)
			amelie.get("/games/new?game=" + kind)
			m := gameURL.FindStringSubmatch(amelie.post("/games/new", url.Values{"game": {kind}, "play": {"on"}, "name": {"Amélie"},
				"invite": {strings.Join(others[:n-1], "\n")}}))
			if m == nil {
				t.Fatalf("create: %d\n%s", amelie.status, pageText(amelie.page))
			}
			id := m[1]
			for i, email := range others[:n-1] {
				if _, err := svc.Join(ctx, actorOf(email), id, names[i]); err != nil {
					t.Fatal(err)
				}
			}
			tbl, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !tbl.Started {
				if _, err := svc.Start(ctx, me, id); err != nil {
					t.Fatal(err)
				}
			}
			bySeat := map[games.Seat]play.Actor{}
			for _, email := range append([]string{"amelie@example.org"}, others[:n-1]...) {
				a := actorOf(email)
				bySeat[tbl.SeatOf(a.User)] = a
			}
			mine := tbl.SeatOf(me.User)
			// The others play until it is Amélie's turn, after a few moves,
			// with a move to make that the rules refuse (she plays too when
			// she has none).
			var typed string
			var refusal *games.RuleError
			for moves := 0; ; moves++ {
				if tbl, err = svc.Load(ctx, id); err != nil {
					t.Fatal(err)
				}
				if moves > 300 || tbl.Ended {
					t.Fatalf("after %d moves, Amélie has no refused move to try", moves)
				}
				p := tbl.Pending[moves%len(tbl.Pending)]
				if moves >= 4 && p.Seat == mine {
					if typed, refusal = refusedMove(tbl, mine); refusal != nil {
						break
					}
				}
				legal := tbl.Engine.Legal(tbl.State, p.Seat)
				if len(legal) == 0 {
					continue
				}
				if _, err := svc.Move(ctx, bySeat[p.Seat], id, tbl.Version, []string{legal[(moves*5)%len(legal)]}); err != nil {
					t.Fatal(err)
				}
			}
			fr := eng.Words().In("fr")

			amelie.get("/games/" + id)
			checkLanguage(t, amelie, kind+"'s game page", "fr")
			for _, testid := range []string{"since", "todo"} {
				if !strings.Contains(amelie.page, `data-testid="`+testid+`"`) {
					t.Errorf("the page has no %s:\n%s", testid, pageText(amelie.page))
				}
			}
			if !strings.Contains(amelie.page, "<summary>"+web.Words().In("fr").Must(games.T("boards.in_words"))+"</summary>") {
				t.Errorf("the board is not told in words:\n%s", pageText(amelie.page))
			}
			// Each choice (a button, an option, a number field's verb) is the
			// move written in French; some in words other than the canonical
			// notation's.
			choices, french := 0, 0
			for _, c := range choiceRe.FindAllStringSubmatch(amelie.page, -1) {
				move, label := html.UnescapeString(c[1]+c[3]+c[5]), html.UnescapeString(c[2]+c[4]+c[6])
				if want := fr.WriteMove(move); label != want {
					t.Errorf("the choice %q is labelled %q, want %q", move, label, want)
				}
				choices++
				if label != move {
					french++
				}
			}
			if choices == 0 || french == 0 {
				t.Errorf("%d choices, %d of them in French words:\n%s", choices, french, amelie.page)
			}

			// A French move the rules refuse: the refusal in French, with the
			// closest legal move in French and the rule linked in French.
			t.Logf("refused: %q: %s", typed, refusal.Explain("fr"))
			amelie.post("/games/"+id+"/move", url.Values{"move": {typed}, "version": {versionRe.FindStringSubmatch(amelie.page)[1]}})
			if amelie.status != http.StatusUnprocessableEntity {
				t.Fatalf("%q: %d\n%s", typed, amelie.status, pageText(amelie.page))
			}
			checkLanguage(t, amelie, kind+"'s refused move", "fr")
			if want := refusal.Explain("fr"); !strings.Contains(pageText(amelie.page), want) {
				t.Errorf("%q: the page does not say %q:\n%s", typed, want, pageText(amelie.page))
			}
			rule := regexp.MustCompile(`<a class="rule" href="([^"]+)"`).FindStringSubmatch(amelie.page)
			if rule == nil || html.UnescapeString(rule[1]) != "/rules/"+kind+"?lang=fr#"+refusal.Rule {
				t.Errorf("the refusal links to %v, want the rule %s in French", rule, refusal.Rule)
			}

			amelie.get("/games/" + id + "/history")
			checkLanguage(t, amelie, kind+"'s history", "fr")
			bob.get("/games/" + id)
			if bob.status != http.StatusOK {
				t.Fatalf("Bob's game page: %d", bob.status)
			}
			checkLanguage(t, bob, kind+"'s game page", "en")
		})
	}
}

// choiceRe is a choice of the game page: its move and its label.
var choiceRe = regexp.MustCompile(`(?s)<button type="submit" name="move" value="([^"]+)" data-move="[^"]+">([^<]+)</button>` +
	`|<option value="([^"]+)">([^<]+)</option>|data-verb="([^"]+)">.*?<label for="number-\d+">([^<]+?) <span`)

// numbered are the numbers of a move line, and cards, what a refused move
// is made from by changing them.
var (
	numbered = regexp.MustCompile(`\d+`)
	cardRe   = regexp.MustCompile(`(?:10|[2-9AJQK])[♣♦♥♠]`)
)

// refusedMove is a move seat may not make now, written in French, whose
// refusal names a rule of the game (not the notation) and the legal move
// closest to it: a legal move with a number or a card changed, an action
// against another player, or a move of the games' other steps; nil when
// none is.
func refusedMove(tbl *play.Table, seat games.Seat) (string, *games.RuleError) {
	legal := tbl.Engine.Legal(tbl.State, seat)
	var candidates []string
	for _, m := range legal {
		for _, n := range []string{"1", "2", "7", "19", "99"} {
			candidates = append(candidates, numbered.ReplaceAllString(m, n))
		}
		for _, rank := range []string{"9", "10", "J", "Q", "K", "A"} {
			for _, suit := range []string{"♣", "♦", "♥", "♠"} {
				candidates = append(candidates, cardRe.ReplaceAllString(m, rank+suit))
			}
		}
	}
	for i, name := range tbl.Engine.Players(tbl.State) {
		if games.Seat(i) != seat {
			candidates = append(candidates, "assassinate "+name, "coup "+name)
		}
	}
	candidates = append(candidates, "draw", "end", "pass", "keep", "income", "tax", "coyote", "bid 1", "accept")
	words := tbl.Engine.Words()
	for _, c := range candidates {
		typed := words.In("fr").WriteMove(c)
		if typed == c || slices.Contains(legal, c) {
			continue // not French words, or legal
		}
		_, err := tbl.Engine.Decide(tbl.State, seat, typed, games.Seed{}.Rand(tbl.Version))
		re, ok := games.AsRuleError(tbl.Engine.Suggest(tbl.State, seat, typed, err))
		if !ok || re.Rule == games.NotationRule || re.Suggestion("fr") == "" {
			continue
		}
		return typed, re
	}
	return "", nil
}

// The page's language is the signed-in player's setting, else the one the
// visitor chose with the switch, else the browser's Accept-Language, else
// English; the first sign-in notes the language the visitor read in; the
// switch saves a signed-in player's choice, and sends the browser back
// only to a page of this site.
func TestThePagesLanguage(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ctx := t.Context()
	lang := func(b *browser) string {
		m := htmlLang.FindStringSubmatch(b.page)
		if m == nil {
			t.Fatalf("no <html lang>:\n%.300s", b.page)
		}
		return m[1]
	}
	// Visitors.
	for _, tt := range []struct {
		name, accept, chose, want string
	}{
		{"nothing said", "", "", "en"},
		{"a French browser", "fr-BE,fr;q=0.9", "", "fr"},
		{"a browser in a language courrier does not speak", "de-DE,de;q=0.9", "", "en"},
		{"German first, then French", "de, fr;q=0.8, en;q=0.5", "", "fr"},
		{"the switch wins over the browser", "fr", "en", "en"},
		{"the switch on an English browser", "en-US", "fr", "fr"},
	} {
		b := s.browser()
		b.accept = tt.accept
		b.get("/rules/coyote")
		if tt.chose != "" {
			b.post("/language", url.Values{"language": {tt.chose}, "back": {"/rules/coyote"}})
			if b.status != http.StatusOK || !strings.Contains(b.page, `<article class="rules"`) {
				t.Fatalf("%s: the switch did not go back to the page: %d", tt.name, b.status)
			}
		}
		if got := lang(b); got != tt.want {
			t.Errorf("%s: the page is in %s, want %s", tt.name, got, tt.want)
		}
	}

	// The first sign-in notes the language the visitor read the pages in:
	// the one they chose, else their browser's; none when neither says one.
	for _, tt := range []struct {
		email, accept, chose, want string
	}{
		{"fr-browser@example.org", "fr-FR,fr", "", "fr"},
		{"chose-fr@example.org", "en-GB", "fr", "fr"},
		{"nothing@example.org", "", "", ""},
		{"chose-en@example.org", "fr", "en", "en"},
	} {
		b := s.browser()
		b.accept = tt.accept
		b.get("/")
		if tt.chose != "" {
			b.post("/language", url.Values{"language": {tt.chose}, "back": {"/"}})
		}
		b.signIn(tt.email, "")
		u, err := s.users.Ensure(ctx, tt.email)
		if err != nil {
			t.Fatal(err)
		}
		if u.Known() != tt.want {
			t.Errorf("%s signed in with Accept-Language %q, chose %q: noted %q, want %q", tt.email, tt.accept, tt.chose, u.Known(), tt.want)
		}
	}

	// A player's setting wins over the switch's cookie and the browser, and
	// a later sign-in does not change it.
	u, err := s.users.Ensure(ctx, "set@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.users.SetLanguage(ctx, u.ID, "en"); err != nil {
		t.Fatal(err)
	}
	b := s.browser()
	b.accept = "fr"
	b.get("/")
	b.post("/language", url.Values{"language": {"fr"}, "back": {"/"}})
	if lang(b) != "fr" {
		t.Fatalf("the visitor's switch: %s", lang(b))
	}
	b.signIn("set@example.org", "")
	if b.get("/games"); lang(b) != "en" {
		t.Errorf("the setting (en) lost to the cookie and the browser (fr): %s", lang(b))
	}
	// The switch, signed in, saves the setting.
	b.post("/language", url.Values{"language": {"fr"}, "back": {"/games?x=1"}})
	if b.status != http.StatusOK || lang(b) != "fr" || !strings.Contains(b.page, `data-testid="game-link"`) && !strings.Contains(b.page, web.Words().In("fr").Must(games.T("games.none"))) {
		t.Fatalf("the switch signed in: %d, %s\n%.500s", b.status, lang(b), b.page)
	}
	if u, _ := s.users.ByID(ctx, u.ID); u.Language != "fr" {
		t.Errorf("the switch did not save the setting: %q", u.Language)
	}
	// A form's answer (a refused move) goes back to the page it is on.
	b.get("/games")
	b.post("/games/nosuchgame/join", url.Values{})
	if !strings.Contains(b.page, `name="back" value="/games/nosuchgame"`) {
		t.Errorf("the switch on a form's answer does not go back to its page:\n%s", b.page)
	}
	// A language courrier does not speak, a place off the site.
	b.post("/language", url.Values{"language": {"tlh"}, "back": {"/games"}})
	if b.status != http.StatusBadRequest {
		t.Errorf("the switch to Klingon: %d", b.status)
	}
	if u, _ := s.users.ByID(ctx, u.ID); u.Language != "fr" {
		t.Errorf("a refused switch changed the setting: %q", u.Language)
	}
	b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, back := range []string{"//evil.example/", "https://evil.example/", `/\evil.example`} {
		b.get("/games")
		b.post("/language", url.Values{"language": {"en"}, "back": {back}})
		if loc := b.header.Get("Location"); b.status != http.StatusSeeOther || loc != "/" {
			t.Errorf("back to %q: %d to %q", back, b.status, loc)
		}
	}
}

// The settings page shows the player's language and saves another, with
// the mail settings in the same form; a language courrier does not speak
// is refused and changes nothing.
func TestSettingsPageSavesTheLanguage(t *testing.T) {
	s := newSite(t, "http://courrier.test")
	ana := s.browser()
	ana.signIn("ana@example.org", "Ana")
	user, err := s.users.Ensure(t.Context(), "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	page := ana.get("/settings")
	if !strings.Contains(page, `<option value="en" lang="en" selected>English</option>`) || !strings.Contains(page, `<option value="fr" lang="fr">Français</option>`) {
		t.Fatalf("the settings page does not offer the languages:\n%s", page)
	}
	form := settingsForm(page)
	form.Set("language", "fr")
	form.Del("all.reminder")
	page = ana.post("/settings", form)
	if ana.status != http.StatusOK || !strings.Contains(page, `<html lang="fr">`) || !strings.Contains(page, web.Words().In("fr").Must(games.T("settings.saved"))) {
		t.Fatalf("save in French: %d\n%s", ana.status, page)
	}
	checkLanguage(t, ana, "the settings saved", "fr")
	if u, _ := s.users.ByID(t.Context(), user.ID); u.Language != "fr" {
		t.Errorf("the language saved is %q", u.Language)
	}
	if settingsForm(page).Get("all.reminder") != "" {
		t.Error("the mail settings of the same form were not saved")
	}
	if !strings.Contains(page, `<option value="fr" lang="fr" selected>Français</option>`) {
		t.Errorf("the page after saving does not show French chosen:\n%s", page)
	}
	form = settingsForm(page)
	form.Set("language", "xx")
	form.Set("all.reminder", "on")
	if page := ana.post("/settings", form); ana.status != http.StatusBadRequest || !strings.Contains(page, "« xx »") {
		t.Errorf("a language courrier does not speak: %d\n%s", ana.status, page)
	}
	if u, _ := s.users.ByID(t.Context(), user.ID); u.Language != "fr" {
		t.Errorf("a refused form changed the language to %q", u.Language)
	}
	ana.get("/account")
	if !strings.Contains(ana.page, "Français") {
		t.Errorf("the account page does not show the language:\n%s", pageText(ana.page))
	}
}

// liveUpdates is a web.Live that sends one change, a phrase of a game's
// catalog.
type liveUpdates struct{ text games.Phrase }

func (l liveUpdates) Follow(ctx context.Context, _, _ string, after int) (<-chan web.Update, func(), error) {
	out := make(chan web.Update, 1)
	out <- web.Update{Version: after + 1, Text: l.text}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		<-ctx.Done()
		close(out)
	}()
	return out, cancel, nil
}

// The live stream of a game page says each change in the reader's
// language.
func TestLiveChangesInThePlayersLanguage(t *testing.T) {
	s := newSite(t, "http://courrier.test", func(c *web.Config) {
		c.Live = liveUpdates{text: games.BoardWords().Phrase("board.turn_of", "Ana")}
	})
	svc := play.New(s.pool, catalog.Registry())
	ctx := t.Context()
	var actors []play.Actor
	var pages []*browser
	for i, email := range []string{"ana@example.org", "bob@example.org", "cleo@example.org"} {
		b := s.browser()
		b.accept = []string{"fr", "en", "fr"}[i]
		b.signIn(email, "")
		u, _ := s.users.Ensure(ctx, email)
		actors = append(actors, play.Actor{User: u.ID, Channel: play.ChannelWeb})
		pages = append(pages, b)
	}
	out, err := svc.Create(ctx, actors[0], "coyote", nil, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Bob", "Cleo"} {
		if _, err := svc.Join(ctx, actors[i+1], out.GameID, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Start(ctx, actors[0], out.GameID); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"À qui de jouer : Ana", "Whose turn: Ana"} {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"/games/"+out.GameID+"/live?since=1", nil) // a test URL
		resp, err := pages[i].client.Do(req)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		data := ""
		for lines := bufio.NewScanner(resp.Body); data == "" && lines.Scan(); {
			if d, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				data = d
			}
		}
		_ = resp.Body.Close()
		cancel()
		if !strings.Contains(data, `"text":"`+want+`"`) {
			t.Errorf("the live change for a reader of %s: %q, want the text %q", []string{"fr", "en"}[i], data, want)
		}
	}
}

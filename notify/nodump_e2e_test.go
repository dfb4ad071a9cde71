package notify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	gomail "github.com/emersion/go-message/mail"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/web"
)

// A whole game of each of the five, played by mail, shows no dump of the
// engine's view anywhere: every mail (its text and its HTML) and each
// seat's game page on the web, looked at every few moves and at the end,
// is scanned for the field names of the seats' view JSON, gathered as the
// game goes. A field name that is an ordinary word ("hand", "winner") is
// a dump only in the dump's forms ("hand: …", "winner = …") and unless the
// game itself says the word (its catalog, its moves: "yellow" chips); a
// name no sentence uses ("pile_size", "dealScore") is one anywhere. A failure names
// the mail or page, the line and the field.
func TestNoMailOrPageDumpsTheView(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		players int
	}{
		{"coyote", 3}, {"coup", 2}, {"kramercoup", 3}, {"coupage", 3}, {"couillon", 4},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			// A whole game in a minute or two: the bounds of one sender's
			// mail are not what this test is about.
			w := newWorld(t, 3, func(c *notify.Config) {
				c.RepliesPerHour, c.Inbound.MailsPerSender, c.Inbound.MailsPerReplyAddress = -1, -1, -1
			})
			site := newPages(t, w)
			addrs := players[:tc.players]
			keys := map[string]bool{}
			var pages []scanned
			n := 0
			look := func(game string) {
				for k := range viewKeys(t, w, game) {
					keys[k] = true
				}
				for _, a := range addrs {
					pages = append(pages, scanned{name: fmt.Sprintf("the game page of %s after %d replies", a, n), text: site.gamePage(t, a, game)})
				}
			}
			w.afterMove = func(game string) {
				n++
				if n%15 == 1 {
					look(game)
				}
			}
			game, _ := playByMail(t, w, tc.kind, addrs, 11)
			look(game)
			// The game's history, page by page, each page's board at a
			// version of its own, and the audit report, as each seat sees
			// them once the game is over.
			latest := w.countEvents(game)
			for _, a := range addrs {
				for from := 1; from <= latest; from += historyPage {
					v := min(from+n%historyPage, latest)
					path := fmt.Sprintf("/games/%s/history?version=%d&from=%d", game, v, from)
					pages = append(pages, scanned{name: "the page " + path + " of " + a, text: site.page(t, a, path, fmt.Sprintf("Version %d of %d", v, latest))})
				}
				path := "/games/" + game + "/audit"
				pages = append(pages, scanned{name: "the page " + path + " of " + a, text: site.page(t, a, path, game)})
			}
			// The game's own words (its catalog, and its notation as the
			// prompts list it) are words, even when a field has the same
			// name ("yellow" chips, "buy yellow").
			eng, err := catalog.Registry().Get(tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			words := map[string]bool{}
			var said []string // the catalogs' messages, for phrases
			addWords := func(s string) {
				for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) {
					words[f] = true
				}
			}
			for _, key := range eng.Words().Keys() {
				patterns, _ := eng.Words().Patterns(games.English, key)
				for _, m := range patterns {
					addWords(m)
					said = append(said, strings.ToLower(m))
				}
			}
			for _, a := range addrs {
				for _, m := range ofKind(w.mailTo(a), "prompt") {
					for _, line := range numbered(m.Text) {
						addWords(line)
					}
				}
			}
			for k := range keys {
				if words[k] && !internalName(k) {
					delete(keys, k)
				}
			}
			if tc.kind == "couillon" {
				// Couillon's standings are by team, each named with its players.
				over := strings.ReplaceAll(ofKind(w.mailTo(addrs[0]), "game_over")[0].Text, "\r\n", "\n")
				if !regexp.MustCompile(`Standings:\n  1\. [^\n]+ \(\w+ and \w+\): [^\n]+\n  2\. [^\n]+ \(\w+ and \w+\): `).MatchString(over) {
					t.Errorf("the game-over mail of couillon gives no standings by team:\n%s", over)
				}
			}
			var mails []scanned
			for _, a := range addrs {
				for _, m := range w.mailTo(a) {
					for _, part := range mailParts(t, m) {
						mails = append(mails, scanned{name: fmt.Sprintf("the %s mail %q to %s (%s)", m.Kind, m.Subject, a, part.name), text: part.text})
					}
				}
			}
			if len(keys) < 3 || len(pages) < 4*len(addrs) || len(mails) < 10 {
				t.Fatalf("too little to scan: %d view fields, %d pages, %d mail parts", len(keys), len(pages), len(mails))
			}
			failed := 0
			scan := newDumpScan(keys, strings.Join(said, "\n"))
			codes := cardCodes(t, tc.kind)
			for _, s := range append(mails, pages...) {
				if line, field, ok := scan.dumped(s.text); ok {
					if failed++; failed > 5 {
						t.Fatalf("and more")
					}
					t.Errorf("%s dumps the view's field %q in the line:\n  %.300s", s.name, field, line)
				}
				if line, code, ok := codeIn(codes, s.text); ok {
					if failed++; failed > 5 {
						t.Fatalf("and more")
					}
					t.Errorf("%s shows the card code %q in the line:\n  %.300s", s.name, code, line)
				}
			}
		})
	}
}

// scanned is a mail part or a page, as a person reads it.
type scanned struct{ name, text string }

// viewKeys are the field names of every seat's view of a game (the
// spectator's too), as stored.
func viewKeys(t *testing.T, w *world, game string) map[string]bool {
	t.Helper()
	rows, err := w.pool.Query(context.Background(), `select view from seat_views where game_id = $1`, game)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	keys := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				keys[k] = true
				walk(sub)
			}
		case []any:
			for _, sub := range x {
				walk(sub)
			}
		}
	}
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("a view of %s that is not JSON: %v", game, err)
		}
		walk(v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return keys
}

// internalName reports whether a field name is no word of a sentence: it
// has an underscore or a capital inside ("pile_size", "dealScore").
func internalName(k string) bool {
	return strings.Contains(k, "_") || strings.ToLower(k) != k
}

// jsonRe is JSON in a text: an object's first field, or a field and value.
var jsonRe = regexp.MustCompile(`\{"\w+":|"\w+":\s*[\[{"0-9tfn-]`)

// dumpScan finds the views' fields in texts (see dumped).
type dumpScan struct {
	// dump matches a field in a dump's form, internal an internal name
	// anywhere; field names the field a match's text stands for.
	dump, internal *regexp.Regexp
	field          map[string]string
}

// newDumpScan compiles the forms of every field into two expressions. A
// field's readable form ("face down" of face_down) that the game's words
// say (said: its catalogs' messages) is the game's phrase, not a dump.
func newDumpScan(keys map[string]bool, said string) *dumpScan {
	d := &dumpScan{field: map[string]string{}}
	var forms, internal []string
	for k := range keys {
		d.field[k] = k
		forms = append(forms, regexp.QuoteMeta(k))
		if r := strings.ReplaceAll(k, "_", " "); r != k && !strings.Contains(said, r) {
			d.field[r] = k
			forms = append(forms, regexp.QuoteMeta(r))
		}
		if internalName(k) {
			internal = append(internal, regexp.QuoteMeta(k))
		}
	}
	// Longest first: "pile size" before "pile".
	longest := func(a, b string) int { return len(b) - len(a) }
	slices.SortFunc(forms, longest)
	slices.SortFunc(internal, longest)
	d.dump = regexp.MustCompile(`^\s*(?:- )?(` + strings.Join(forms, "|") + `)\s?[:=](?:\s|$)`)
	if len(internal) > 0 {
		d.internal = regexp.MustCompile(`(?:^|[^\pL\pN_-])(` + strings.Join(internal, "|") + `)(?:$|[^\pL\pN_-])`)
	}
	return d
}

// dumped finds a view's field in text the way a dump shows it, and returns
// the line and the field: `key:` or `key =` (also with the underscores as
// spaces, as a dump made readable writes them) at the start of a line (an
// item's "- " may come first); an internal name (see internalName) as it
// is, a whole word anywhere; or JSON.
func (d *dumpScan) dumped(text string) (string, string, bool) {
	for line := range strings.SplitSeq(text, "\n") {
		if jsonRe.MatchString(line) {
			return strings.TrimSpace(line), "JSON", true
		}
		for _, re := range []*regexp.Regexp{d.dump, d.internal} {
			if re == nil {
				continue
			}
			if m := re.FindStringSubmatch(line); m != nil {
				return strings.TrimSpace(line), d.field[m[1]], true
			}
		}
	}
	return "", "", false
}

// mailParts are a mail's text and HTML parts (the attached record, which
// holds the game's events as data, is not a page a person reads), the HTML
// as its text reads.
func mailParts(t *testing.T, m message) []scanned {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var out []scanned
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("a part of %q: %v", m.Subject, err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		typ, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch typ {
		case "text/plain":
			out = append(out, scanned{name: "text", text: string(body)})
		case "text/html":
			out = append(out, scanned{name: "HTML", text: htmlText(string(body))})
		}
	}
}

var (
	htmlDropRe = regexp.MustCompile(`(?is)<(style|script|title)[^>]*>.*?</(style|script|title)>`)
	htmlTagRe  = regexp.MustCompile(`(?s)<[^>]*>`)
)

// htmlText is what a page or an HTML part says: its text without tags,
// styles or scripts, entities decoded, a line per block.
func htmlText(s string) string {
	s = htmlDropRe.ReplaceAllString(s, "")
	s = regexp.MustCompile(`(?i)<(br|/p|/li|/h\d|/tr|/div|/section|/dd|/dt)\b[^>]*>`).ReplaceAllString(s, "\n")
	return html.UnescapeString(htmlTagRe.ReplaceAllString(s, " "))
}

// pages is the web side of a world: its pages on the same database and
// play service, players signed in by a session of their own.
type pages struct {
	url      string
	users    *auth.Users
	sessions *auth.Sessions
	tokens   map[string]string
}

func newPages(t *testing.T, w *world) *pages {
	t.Helper()
	tokens, err := auth.NewTokens("courrier", "courrier-api", time.Hour, time.Now, auth.Key{ID: "k1", Secret: bytes.Repeat([]byte{9}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	sessions := auth.NewSessions(w.pool, tokens, time.Now)
	h, err := web.New(web.Config{
		Play: w.play, Archive: w.archive, Users: w.users, Sessions: sessions,
		CSRFKey: bytes.Repeat([]byte{5}, 32), BaseURL: "http://courrier.test",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &pages{url: srv.URL, users: w.users, sessions: sessions, tokens: map[string]string{}}
}

// gamePage is a game's page as the player at address sees it, as text.
func (p *pages) gamePage(t *testing.T, address, game string) string {
	t.Helper()
	return p.page(t, address, "/games/"+game, `data-game="`+game+`"`)
}

// page is the page at path as the player at address sees it, as text; it
// must answer 200 with want in its HTML.
func (p *pages) page(t *testing.T, address, path, want string) string {
	t.Helper()
	tok, ok := p.tokens[address]
	if !ok {
		u, err := p.users.ByEmail(t.Context(), address)
		if err != nil {
			t.Fatal(err)
		}
		if _, tok, err = p.sessions.Open(t.Context(), u.ID); err != nil {
			t.Fatal(err)
		}
		p.tokens[address] = tok
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, p.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "courrier_session", Value: tok, Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}) // a request's cookie: its attributes are not sent
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Fatalf("the page %s for %s: %d, without %q\n%.600s", path, address, resp.StatusCode, want, body)
	}
	return htmlText(string(body))
}

// The scan itself finds a dump in each of its forms, and passes the words
// of a board and a sentence that use the same words as fields.
func TestDumpScanFindsDumps(t *testing.T) {
	keys := map[string]bool{"face_down": true, "viewer": true, "hand": true, "pile_size": true, "r": true, "winner": true, "dealScore": true, "variant_tokens": true, "c": true}
	scan := newDumpScan(keys, "face down: {0}")
	for _, tc := range []struct {
		text  string
		field string // "": no dump
	}{
		{"viewer: 3", "viewer"},
		{"  hand: 9c, jc, js", "hand"},
		{"- winner: -1, seat: 1", "winner"},
		{"pile size: 20", "pile_size"},
		{"the pile_size is 20", "pile_size"},
		{"r: 5, 5", "r"},
		{"dealScore 3", "dealScore"},
		{"the variant_tokens are off", "variant_tokens"},
		{`{"hand":["9c"]}`, "JSON"},
		{"winner = 2", "winner"},
		{"Your hand: the 9 of clubs, the jack of clubs.", ""},
		{"Ana is the winner: she took the last trick.", ""},
		{"- seat: 1, card: 9d", ""},      // no field of these views
		{"Ana: cash: 3000, blue: 0", ""}, // a board's words, not at the line's start
		{"The winner takes the pot; your hand is empty.", ""},
		{"Bob (you): 1 coyote token.", ""},
		{"Scores: Ana 3, Bob 2.", ""},
		{`Reply above the line "Reply above this line": write it`, ""},
		{"variant tokens off; set the rest aside", ""},
		{"variant tokens: off", "variant_tokens"},
		{"open http://courrier.test/c/c.1.abc", ""},
		{"c: 3", "c"},
		{"face down: the 3 of clubs", ""}, // the board's own words
	} {
		_, field, ok := scan.dumped(tc.text)
		if ok != (tc.field != "") || field != tc.field {
			t.Errorf("%q: found %q (%v), want %q", tc.text, field, ok, tc.field)
		}
	}
}

// TestNoDumpScanCoversEveryGame keeps the list of games above in step with the catalog.
func TestNoDumpScanCoversEveryGame(t *testing.T) {
	scanned := []string{"coyote", "coup", "kramercoup", "coupage", "couillon"}
	for _, id := range catalog.Registry().IDs() {
		if !slices.Contains(scanned, id) {
			t.Errorf("game %s is not played by TestNoMailOrPageDumpsTheView", id)
		}
	}
}

// historyPage is how many versions a history page lists (web's page size).
const historyPage = 50

// cardCodes matches, as a whole word, the internal codes of a game's cards
// that its boards and sentences name otherwise: Couillon's ("9c", "10h",
// "jc", "kd"; the boards say 9♣, 10♥), Coupage's grapes ("xar1", "ull2":
// a grape's three letters and its stars, read from the game's data sets;
// the boards say the grape's name). The aces' "ad", "ah" and "as" are
// English words and left out; "ac" is not one. Nil for the other games.
func cardCodes(t *testing.T, kind string) *regexp.Regexp {
	t.Helper()
	switch kind {
	case "couillon":
		return regexp.MustCompile(`\b((?:9|10|j|q|k)[cdhs]|ac)\b`)
	case "coupage":
		data := os.DirFS("../games/coupage")
		files, err := fs.Glob(data, "aid_*.json")
		if err != nil || len(files) == 0 {
			t.Fatalf("Coupage's data sets: %v", err)
		}
		var grapes []string
		for _, f := range files {
			raw, err := fs.ReadFile(data, f)
			if err != nil {
				t.Fatal(err)
			}
			var aid struct {
				Grapes []struct{ Code string } `json:"grapes"`
			}
			if err := json.Unmarshal(raw, &aid); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, g := range aid.Grapes {
				grapes = append(grapes, regexp.QuoteMeta(g.Code))
			}
		}
		if len(grapes) == 0 {
			t.Fatal("Coupage's data sets name no grape")
		}
		return regexp.MustCompile(`\b((?:` + strings.Join(grapes, "|") + `)[1-9])\b`)
	}
	return nil
}

// codeIn finds a card code (codes) in text, and returns its line and the
// code. Lines a player wrote are not courrier's words and are passed: a
// quoted line ("> …"), and what a receipt or a refusal quotes of the
// player's mail (the indented lines under "Your move(s) … played" or "You
// sent:" in a text part; a player may type a code there, as the notation
// allows). An HTML part's <pre> of the same lines is not told apart: the
// players of TestNoMailOrPageDumpsTheView reply with numbers, so a code
// there is courrier's.
func codeIn(codes *regexp.Regexp, text string) (string, string, bool) {
	if codes == nil {
		return "", "", false
	}
	theirs := false
	for line := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, ">"):
			continue
		case strings.HasPrefix(trimmed, "Your move") || trimmed == "You sent:":
			theirs = true
			continue
		case theirs && strings.HasPrefix(line, "    "):
			continue
		}
		theirs = false
		if m := codes.FindStringSubmatch(line); m != nil {
			return trimmed, m[1], true
		}
	}
	return "", "", false
}

// The code scan finds Couillon's and Coupage's card codes as words, and
// passes the cards' names and what the player wrote.
func TestCodeScanFindsCodes(t *testing.T) {
	for _, tc := range []struct {
		kind, text string
		code       string // "": none
	}{
		{"couillon", "Your hand: 9c, jc, js, kd", "9c"},
		{"couillon", "  3. play kd", "kd"},
		{"couillon", "Bob led the 10h.", "10h"},
		{"couillon", "Your hand: 9♣, J♣, J♠, K♦", ""},
		{"couillon", "Reply as listed, or just its number.", ""},
		{"couillon", "Receipt: 3b903ef5229c0236fe", ""},
		{"couillon", "> 1. play 9c", ""},
		{"couillon", "Your move in Couillon (game x) was played:\n    play 9c\n\nWhat it did:", ""},
		{"couillon", "Your move in Couillon (game x) was played:\n    play 9c\n\nYou played 9c.", "9c"},
		{"couillon", "You sent:\n    play jc\nIt is not your turn.", ""},
		{"coupage", "You drew xar1 and ull2.", "xar1"},
		{"coupage", "You drew a Xarel·lo ★ and an Ull de Llebre ★★.", ""},
		{"coupage", "mac3", "mac3"},
		{"coupage", "the maca3 is no code, nor is xar", ""},
		{"coup", "9c", ""},
	} {
		line, code, ok := codeIn(cardCodes(t, tc.kind), tc.text)
		if ok != (tc.code != "") || code != tc.code {
			t.Errorf("%s %q: found %q in %q, want %q", tc.kind, tc.text, code, line, tc.code)
		}
	}
}

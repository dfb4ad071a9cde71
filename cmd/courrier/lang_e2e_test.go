package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/play"
	"github.com/courrier-games/courrier/play/archive"
	"github.com/courrier-games/courrier/web"
)

// The pages in French in a real browser: a French player chooses French
// with the switch at the foot of the sign-in page, signs in (which notes
// French as her language), creates a game of Coyote, and plays it to its
// end on a phone, clicking moves labelled in French and typing one as a
// French player writes it, while the English players at her table read
// English; no page of hers holds a sentence of web's catalog in English,
// nor scrolls sideways, and the audit after the end is in French.

// foreignSentences are the sentences of the catalogs a page shows (web's,
// play's, archive's, the words all games share and each game's) that a
// page in lang must not hold: each run of three words or more of a pattern
// in another language that lang's pattern of the same key does not hold too
// (games.Catalog.Foreign), in lower case with one space between words.
func foreignSentences(lang string) []string {
	var out []string
	catalogs := []*games.Catalog{web.Words(), play.Words(), archive.Words(), games.BoardWords()}
	reg := catalog.Registry()
	for _, id := range reg.IDs() {
		if eng, err := reg.Get(id); err == nil {
			catalogs = append(catalogs, eng.Words())
		}
	}
	for _, words := range catalogs {
		out = append(out, words.Foreign(lang)...)
	}
	return out
}

// checkLanguage fails the test when the page the browser shows is not in
// lang (<html lang>, no sentence of web's catalog in another language) or,
// on a phone, is wider than the screen.
func (p *person) checkLanguage(what, lang string) {
	p.t.Helper()
	if got := eval[string](p, `document.documentElement.lang`); got != lang {
		p.t.Fatalf("%s's %s is in %q, not %s", p.name, what, got, lang)
	}
	text := strings.Join(strings.Fields(eval[string](p, `document.body.innerText`)), " ")
	lower := strings.ToLower(text)
	for _, s := range foreignSentences(lang) {
		if strings.Contains(lower, s) {
			p.t.Fatalf("%s's %s in %s says %q:\n%s", p.name, what, lang, s, text)
		}
	}
	if width, inner := eval[int](p, `document.documentElement.scrollWidth`), eval[int](p, `window.innerWidth`); width > inner {
		p.t.Fatalf("%s's %s is %d pixels wide on a %d-pixel screen: %s", p.name, what, width, inner, eval[string](p, fmt.Sprintf(widest, inner)))
	}
}

func TestPlayInFrenchInTheBrowserOnAPhone(t *testing.T) {
	chrome := chromePath(t)
	base, _, _ := startServe(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1100, 900))...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start %s: %v", chrome, err)
	}
	var people []*person
	for _, n := range []string{"Amélie", "Bob", "Cleo"} {
		pctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
		defer cancel()
		if err := chromedp.Do(pctx); err != nil {
			t.Fatalf("open a browser context: %v", err)
		}
		email := strings.ToLower(strings.ReplaceAll(n, "é", "e")) + "@players.test"
		people = append(people, &person{t: t, ctx: pctx, email: email, name: n, base: base})
	}
	amelie := people[0]
	lang := map[*person]string{amelie: "fr", people[1]: "en", people[2]: "en"}

	// Amélie, on her phone, chooses French on the sign-in page and signs in.
	amelie.run(chromedp.EmulateViewport(phoneWidth, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)),
		chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=language-fr]`)))
	amelie.checkLanguage("sign-in page", "en")
	amelie.run(chromedp.Click(chromedp.CSS(`[data-testid=language-fr]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=language-en]`)))
	amelie.checkLanguage("sign-in page", "fr")
	for _, p := range people {
		p.signIn()
	}
	amelie.checkLanguage("list of games", "fr")
	people[1].checkLanguage("list of games", "en")
	onPhone := func() {
		t.Helper()
		if w := eval[int](amelie, `window.innerWidth`); w != phoneWidth {
			t.Fatalf("Amélie's page is %d pixels wide, not a phone's %d", w, phoneWidth)
		}
	}
	onPhone()

	id := createInBrowser(t, people, "coyote")
	words := func(p *person) games.Words {
		eng, err := catalog.Registry().Get("coyote")
		if err != nil {
			t.Fatal(err)
		}
		return eng.Words().In(lang[p])
	}
	byName := map[string]*person{}
	for _, p := range people {
		byName[p.name] = p
	}
	pick := rand.New(rand.NewPCG(33, 1)) //nolint:gosec // G404: a test's moves
	moves, typed := 0, false
	for ; moves < 400; moves++ {
		st := amelie.open(id, "coyote", people)
		amelie.checkLanguage("game page", "fr")
		if st.Over {
			break
		}
		if len(st.ToAct) == 0 {
			t.Fatalf("nobody to act at version %d:\n%s", st.Version, st.Text)
		}
		mover := byName[st.ToAct[0]]
		mst := mover.open(id, "coyote", people)
		if mover != amelie {
			mover.checkLanguage("game page", "en")
		}
		legal := slices.Concat(mst.Buttons, mst.Select, mst.Numbers)
		if len(legal) == 0 {
			t.Fatalf("%s is shown to act but has no legal move:\n%s", mover.name, mst.Text)
		}
		// Each button says its move in its reader's words.
		labels := eval[[]string](mover, `[...document.querySelectorAll("[data-testid=legal] button")].map(b => b.textContent.trim())`)
		for i, m := range mst.Buttons {
			if want := words(mover).WriteMove(m); labels[i] != want {
				t.Fatalf("%s's button for %q says %q, want %q", mover.name, m, labels[i], want)
			}
		}
		move := choose(pick, "coyote", legal)
		if mover == amelie && !typed {
			// Amélie types her move as a French player writes it.
			said := words(amelie).WriteMove(move)
			amelie.run(chromedp.SetValue(chromedp.CSS("#move-text"), said), chromedp.Click(chromedp.CSS(`form.free button[type=submit]`)))
			amelie.waitFor("the page after the typed move", fmt.Sprintf(`(() => { const l = document.getElementById("live"); return !!l && Number(l.dataset.version) > %d || !!document.querySelector("[data-testid=problem]"); })()`, mst.Version))
			if problem := eval[string](amelie, `(() => { const e = document.querySelector("[data-testid=problem]"); return e ? e.textContent : ""; })()`); problem != "" {
				t.Fatalf("Amélie's typed move %q was refused: %s", said, problem)
			}
			typed = true
			continue
		}
		mover.play(mst, move)
	}
	if !typed {
		t.Fatal("Amélie never typed a move")
	}
	st := amelie.open(id, "coyote", people)
	onPhone()
	if !st.Over {
		t.Fatalf("the game did not end in %d moves", moves)
	}
	for _, path := range []string{"/games/" + id + "/history", "/games/" + id + "/audit", "/games", "/settings", "/account"} {
		for _, p := range []*person{amelie, people[1]} {
			p.run(chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")))
			p.checkLanguage(path, lang[p])
		}
	}
	amelie.run(chromedp.Navigate(base+"/games/"+id+"/audit"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=verdict]`)))
	if passed := eval[string](amelie, `document.querySelector("[data-testid=verdict]").dataset.passed`); passed != "true" {
		t.Fatalf("the audit after the end: %s", get(amelie, chromedp.Text(chromedp.CSS(`[data-testid=verdict]`))))
	}
	t.Logf("coyote in French on a phone: %d moves, the game's words in %s", moves, words(amelie).Lang())
}

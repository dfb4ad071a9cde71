package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// phoneWidth is the narrowest phone the pages are made for.
const phoneWidth = 360

// widest tells, for a page wider than the screen, which elements stick
// out (those not inside a box that scrolls on its own).
const widest = `[...document.querySelectorAll("body *")].filter(e => {
  if (e.getBoundingClientRect().right <= %d + 1) return false;
  for (let a = e.parentElement; a; a = a.parentElement) { if (getComputedStyle(a).overflowX !== "visible") return false; }
  return true;
}).slice(0, 8).map(e => e.tagName + "." + e.className + "#" + e.id + " " + Math.round(e.getBoundingClientRect().right)).join("; ")`

// On a 360-pixel phone (mobile emulation), no page scrolls sideways: the
// sign-in page, My games, both steps of New game, the settings, the
// account, every game's page mid-game (Kramer's Coup's tables included:
// only a table's own box may scroll), a history, a rules page and the dev
// mailbox; and all of them again in French. Screenshots of each go to
// $TMPDIR/courrier-phone.
func TestPagesFitAPhone(t *testing.T) {
	chrome := chromePath(t)
	base, _, _ := startServe(t)
	shots := filepath.Join(os.TempDir(), "courrier-phone")
	if err := os.MkdirAll(shots, 0o750); err != nil {
		t.Fatal(err)
	}
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
	newPerson := func(name string) *person {
		pctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		if err := chromedp.Do(pctx); err != nil {
			t.Fatalf("open a browser context: %v", err)
		}
		return &person{t: t, ctx: pctx, email: strings.ToLower(name) + "@players.test", name: name, base: base}
	}
	var people []*person
	for _, n := range []string{"Ana", "Bob", "Cleo", "Dan"} {
		p := newPerson(n)
		p.signIn()
		people = append(people, p)
	}
	ana := people[0]

	type phonePage struct {
		name, path string
		who        *person
	}
	pages := []phonePage{{"games", "/games", ana}, {"new", "/games/new", ana}, {"new-couillon", "/games/new?game=couillon", ana},
		{"new-coup", "/games/new?game=coup", ana}, {"settings", "/settings", ana}, {"account", "/account", ana},
		{"dev-mail", "/dev/mail", ana}}
	pick := rand.New(rand.NewPCG(7, 1)) //nolint:gosec // G404: a test's moves
	for _, g := range []struct {
		kind  string
		seats int
	}{{"kramercoup", 3}, {"coup", 4}, {"couillon", 4}, {"coupage", 3}, {"coyote", 4}} {
		players := people[:g.seats]
		id := createInBrowser(t, players, g.kind)
		for range 6 { // to mid-game, roughly: hands, tables and scores filled in
			st := ana.open(id, g.kind, players)
			if st.Over || len(st.ToAct) == 0 {
				break
			}
			var mover *person
			for _, p := range players {
				if p.name == st.ToAct[0] {
					mover = p
				}
			}
			mst := mover.open(id, g.kind, players)
			legal := append(append(append([]string{}, mst.Buttons...), mst.Select...), mst.Numbers...)
			mover.play(mst, choose(pick, g.kind, legal))
		}
		pages = append(pages, phonePage{g.kind + "-rules", "/rules/" + g.kind, ana}, phonePage{g.kind, "/games/" + id, ana}, phonePage{g.kind + "-history", "/games/" + id + "/history", ana})
		// The page of the player to act, with its moves.
		if st := ana.open(id, g.kind, players); len(st.ToAct) > 0 {
			for _, p := range players {
				if p.name == st.ToAct[0] {
					pages = append(pages, phonePage{g.kind + "-to-act", "/games/" + id, p})
				}
			}
		}
	}

	phone := chromedp.EmulateViewport(phoneWidth, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
	check := func(p *person, name, path string) {
		t.Helper()
		p.run(phone, chromedp.Navigate(p.base+path), chromedp.WaitVisible(chromedp.CSS("body")))
		width, inner := eval[int](p, `document.documentElement.scrollWidth`), eval[int](p, `window.innerWidth`)
		if png := get(p, chromedp.FullScreenshot(100)); len(png) > 0 {
			_ = os.WriteFile(filepath.Join(shots, name+".png"), png, 0o600) // for a person to look at
		}
		// A phone widens its window to a page too wide for it.
		if inner != phoneWidth || width > inner {
			t.Errorf("%s is %d pixels wide (window %d) on a %d-pixel phone: %s", path, width, inner, phoneWidth, eval[string](p, fmt.Sprintf(widest, phoneWidth)))
		}
	}
	visitor := newPerson("Eve")
	check(visitor, "home", "/")
	for _, pg := range pages {
		check(pg.who, pg.name, pg.path)
	}
	// In French too, whose words are longer: each person chooses French
	// with the switch at the foot of a page.
	for _, p := range append([]*person{visitor}, people...) {
		p.run(phone, chromedp.Navigate(p.base+"/"), chromedp.Click(chromedp.CSS(`[data-testid=language-fr]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=language-en]`)))
	}
	checkFrench := func(p *person, name, path string) {
		t.Helper()
		check(p, name+"-fr", path)
		if lang := eval[string](p, `document.documentElement.lang`); lang != "fr" && !strings.HasPrefix(path, "/dev/") {
			t.Errorf("%s is in %q after choosing French", path, lang)
		}
	}
	checkFrench(visitor, "home", "/")
	for _, pg := range pages {
		checkFrench(pg.who, pg.name, pg.path)
	}
	t.Logf("%d pages checked at %d pixels, in English and in French; screenshots in %s", len(pages)+1, phoneWidth, shots)
}

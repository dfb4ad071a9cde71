package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The web pages in a real browser: Debian's chromium-headless-shell driven
// by chromedp, against a real `courrier serve`. Four players sign in through
// the dev mailbox's page, a game is created and joined through the pages,
// and whole games of Coyote and Coup are played by clicking legal moves;
// a second player's open page follows live; no page shows a seat another
// seat's hidden cards; and each of the five games' pages is captured at
// mid-game on a desk and a 360-pixel-wide phone (into $COURRIER_SCREENSHOTS,
// else a folder the test prints), its board drawn and nothing scrolling
// sideways.

// chromePath finds the headless browser, or fails the test saying how to
// get it: a browser test never passes without a browser.
func chromePath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("COURRIER_CHROME"), "/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil { //nolint:gosec // G703: the tester names the browser
			return p
		}
	}
	t.Fatal("the browser tests need a headless Chromium: install Debian's chromium-headless-shell " +
		"(apt-get install chromium-headless-shell; .ci/run does it) or set COURRIER_CHROME to a Chrome binary")
	return ""
}

// person is one player with a browser of their own (their own cookies).
type person struct {
	t     *testing.T
	ctx   context.Context
	email string
	name  string
	base  string
}

// step bounds one browser call (the tab was opened before, without a
// timeout: a timeout on the first call would close it).
const step = 30 * time.Second

func (p *person) run(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.fatal(err)
	}
}

// fatal fails the test with where the browser was and what it showed.
func (p *person) fatal(err error) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	text, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	p.t.Fatalf("%s's browser at %s: %v\n%.1500s", p.name, loc, err, text)
}

// get runs one action that returns a value.
func get[T any](p *person, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.fatal(err)
	}
	return v
}

// eval runs a script in the page and returns its value.
func eval[T any](p *person, js string) T {
	p.t.Helper()
	return get(p, chromedp.Evaluate[T](js))
}

// waitFor polls a script in the browser until it returns true.
func (p *person) waitFor(what, js string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	html, _ := chromedp.Run(p.ctx, chromedp.OuterHTML(chromedp.CSS("main")))
	p.t.Fatalf("%s's page: waited in vain for %s\n%.3000s", p.name, what, html)
}

var loginLink = regexp.MustCompile(`/login/[a-z2-7]+`)

// signIn asks for a link on the sign-in page, finds it in the dev
// mailbox's page and follows it.
func (p *person) signIn() {
	p.t.Helper()
	p.run(
		chromedp.Navigate(p.base+"/"),
		chromedp.SetValue(chromedp.CSS("#email"), p.email),
		chromedp.SetValue(chromedp.CSS("#name"), p.name),
		chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=link-sent]`)),
		chromedp.Click(chromedp.CSS(`a[href="/dev/mail"]`)),
		chromedp.WaitVisible(chromedp.CSS(`body`)),
	)
	// The mail is queued with the link: reload the mailbox until it is in.
	href := ""
	for range 100 {
		p.run(chromedp.Navigate(p.base+"/dev/mail"), chromedp.WaitVisible(chromedp.CSS("body")))
		if href = eval[string](p, fmt.Sprintf(`(() => { for (const tr of document.querySelectorAll("tr")) { if (tr.textContent.includes(%q)) { const a = tr.querySelector("a"); if (a) return a.getAttribute("href"); } } return ""; })()`, p.email)); href != "" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if href == "" {
		p.t.Fatalf("no mail to %s in the dev mailbox", p.email)
	}
	p.run(chromedp.Navigate(p.base + href))
	text := get(p, chromedp.Text(chromedp.CSS("body")))
	link := loginLink.FindString(text)
	if link == "" {
		p.t.Fatalf("the sign-in mail to %s has no link:\n%s", p.email, text)
	}
	p.run(
		chromedp.Navigate(p.base+link),
		chromedp.Click(chromedp.CSS(`[data-testid=confirm-login]`)),
		chromedp.WaitVisible(chromedp.CSS(`a[href="/games/new"]`)),
	)
}

// pageState is what the test reads of a game page.
type pageState struct {
	Version int      `json:"version"`
	Buttons []string `json:"buttons"`
	Select  []string `json:"select"`
	Numbers []string `json:"numbers"` // the moves of the number fields, every number of their bounds
	ToAct   []string `json:"to_act"`
	Over    bool     `json:"over"`
	Text    string   `json:"text"`
	Width   int      `json:"width"`
}

const readPage = `(() => {
  const live = document.getElementById("live");
  return {
    version: live ? Number(live.dataset.version) : -1,
    buttons: [...document.querySelectorAll("[data-testid=legal] button")].map(b => b.value),
    select: [...document.querySelectorAll("#move-pick option")].map(o => o.value),
    numbers: [...document.querySelectorAll("[data-testid=number-move]")].flatMap(f => {
      const n = f.querySelector("input[type=number]"), out = [];
      for (let i = Number(n.min); i <= Number(n.max); i++) out.push(f.dataset.verb + " " + i);
      return out;
    }),
    to_act: [...document.querySelectorAll(".players li.to-act")].map(li => li.dataset.name),
    over: !!document.querySelector("[data-testid=result]"),
    text: document.body.innerText,
    width: document.documentElement.scrollWidth,
  };
})()`

// open shows the game page and reads it, checking it for other players'
// addresses and, by game, for other seats' hidden information.
func (p *person) open(game, kind string, others []*person) pageState {
	p.t.Helper()
	p.run(chromedp.Navigate(p.base+"/games/"+game), chromedp.WaitVisible(chromedp.CSS("#live")))
	st := eval[pageState](p, readPage)
	for _, o := range others {
		if o != p && strings.Contains(st.Text, o.email) {
			p.t.Fatalf("%s's page shows %s's address", p.name, o.email)
		}
	}
	leak := ""
	switch kind {
	case "coup":
		// Only one's own influence cards are face up; others' are face down
		// until lost (all are shown at the end).
		if st.Over {
			break
		}
		leak = eval[string](p, `document.querySelectorAll(".seat:not(.you) .card.up").length > 0 ? "another seat's face-up card" : ""`)
	case "coyote":
		if !st.Over {
			leak = eval[string](p, `document.querySelectorAll(".seat.you .card.up").length > 0 ? "my own feather" : ""`)
		}
	case "couillon", "coupage":
		leak = eval[string](p, `document.querySelectorAll("[data-testid=my-hand]").length > 1 ? "two hands" : ""`)
	case "kramercoup":
		leak = eval[string](p, `document.querySelectorAll("[data-testid=my-hand]").length > 1 ? "two hands of tiles" : ""`)
	}
	if leak != "" {
		p.t.Fatalf("%s's %s page shows %s:\n%s", p.name, kind, leak, st.Text)
	}
	return st
}

// play clicks a legal move (a button, or the list of a long choice) and
// waits for the page the redirect shows.
func (p *person) play(st pageState, move string) {
	p.t.Helper()
	if i := slices.Index(st.Buttons, move); i >= 0 {
		p.run(chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid=legal] li:nth-child(%d) button`, i+1))))
	} else if slices.Contains(st.Numbers, move) {
		verb, n := move[:strings.LastIndexByte(move, ' ')], move[strings.LastIndexByte(move, ' ')+1:]
		form := fmt.Sprintf(`[data-testid=number-move][data-verb=%q]`, verb)
		p.run(chromedp.SetValue(chromedp.CSS(form+" input[type=number]"), n), chromedp.Click(chromedp.CSS(form+" button")))
	} else {
		p.run(chromedp.SetValue(chromedp.CSS("#move-pick"), move),
			chromedp.Click(chromedp.CSS(`[data-testid=legal-select] button`)))
	}
	p.waitFor("the page after the move", fmt.Sprintf(`(() => { const l = document.getElementById("live"); return !!l && Number(l.dataset.version) > %d || !!document.querySelector("[data-testid=problem]"); })()`, st.Version))
	problem := eval[string](p, `(() => { const e = document.querySelector("[data-testid=problem]"); return e ? e.textContent : ""; })()`)
	if problem != "" {
		p.t.Fatalf("%s's move %q was refused: %s", p.name, move, problem)
	}
}

// choose picks a legal move, nudging games towards their end.
func choose(pick *rand.Rand, kind string, legal []string) string {
	for _, m := range legal {
		if kind == "coyote" && m == "coyote" && pick.IntN(3) == 0 {
			return m
		}
	}
	var plain []string
	for _, m := range legal {
		if !strings.HasPrefix(m, "auto-allow") {
			plain = append(plain, m)
		}
	}
	if len(plain) == 0 {
		plain = legal
	}
	return plain[pick.IntN(len(plain))]
}

func TestPlayInTheBrowser(t *testing.T) {
	chrome := chromePath(t)
	base, _, _ := startServe(t)
	shots := os.Getenv("COURRIER_SCREENSHOTS") // where the boards' screenshots go
	if shots == "" {
		shots = filepath.Join(os.TempDir(), "courrier-screenshots")
	}
	if err := os.MkdirAll(shots, 0o750); err != nil { //nolint:gosec // G703: the tester names the folder
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
	names := []string{"Ana", "Bob", "Cleo", "Dan"}
	var people []*person
	for _, n := range names {
		pctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
		defer cancel()
		if err := chromedp.Do(pctx); err != nil {
			t.Fatalf("open a browser context: %v", err)
		}
		p := &person{t: t, ctx: pctx, email: strings.ToLower(n) + "@players.test", name: n, base: base}
		p.signIn()
		if n == "Bob" {
			// Bob reads French: every game below is played with a French
			// player at the table, who reads only French.
			p.run(chromedp.Navigate(base+"/"), chromedp.Click(chromedp.CSS(`[data-testid=language-fr]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=language-en]`)))
		}
		people = append(people, p)
	}
	byName := map[string]*person{}
	for _, p := range people {
		byName[p.name] = p
	}

	games := []struct {
		kind  string
		seats int
		whole bool
	}{
		{"coyote", 4, true},
		{"coup", 4, true},
		{"couillon", 4, false},
		{"coupage", 3, false},
		{"kramercoup", 3, false},
	}
	for gi, g := range games {
		t.Run(g.kind, func(t *testing.T) {
			for _, p := range people {
				p.t = t
			}
			players := people[:g.seats]
			id := createInBrowser(t, players, g.kind)
			pick := rand.New(rand.NewPCG(uint64(gi), 42)) //nolint:gosec // G115: a small index
			moves, liveChecked := 0, false
			limit := 12
			if g.whole {
				limit = 2000
			}
			for ; moves < limit; moves++ {
				st := players[0].open(id, g.kind, players)
				if st.Over {
					break
				}
				if len(st.ToAct) == 0 {
					t.Fatalf("nobody to act at version %d:\n%s", st.Version, st.Text)
				}
				mover := byName[st.ToAct[pick.IntN(len(st.ToAct))]]
				mst := mover.open(id, g.kind, players)
				if mover.name == "Bob" && moves%5 == 0 {
					mover.checkLanguage("page of the "+g.kind+" game", "fr")
				}
				legal := slices.Concat(mst.Buttons, mst.Select, mst.Numbers)
				if len(legal) == 0 {
					t.Fatalf("%s is shown to act but has no legal move:\n%s", mover.name, mst.Text)
				}
				// A second player's page, left open, follows the move live.
				var watcher *person
				if !liveChecked || moves%10 == 5 {
					for _, p := range players {
						if p != mover {
							watcher = p
							break
						}
					}
					watcher.open(id, g.kind, players)
					time.Sleep(300 * time.Millisecond) // its EventSource connects
				}
				mover.play(mst, choose(pick, g.kind, legal))
				if watcher != nil {
					watcher.waitFor("the live refresh after "+mover.name+"'s move",
						fmt.Sprintf(`Number(document.getElementById("live").dataset.version) > %d && Number(document.getElementById("live").dataset.refreshed || 0) > 0`, mst.Version))
					liveChecked = true
				}
				if moves == 8 {
					screenshot(t, players[0], id, g.kind, shots)
				}
			}
			if g.whole {
				st := players[0].open(id, g.kind, players)
				if !st.Over {
					t.Fatalf("the %s game did not end in %d moves", g.kind, moves)
				}
				players[1].run(chromedp.Navigate(base + "/games/" + id + "/audit"))
				verdict := get(players[1], chromedp.Text(chromedp.CSS(`[data-testid=verdict]`)))
				want := "Passed"
				if players[1].name == "Bob" {
					want = "Réussie" // Bob reads French
				}
				if passed := eval[string](players[1], `document.querySelector("[data-testid=verdict]").dataset.passed`); passed != "true" || !strings.HasPrefix(verdict, want) {
					t.Fatalf("the audit page after the end says %q", verdict)
				}
				// A player's name links to their card, where serve's standings
				// (following the feed) show the game's rating.
				players[0].run(chromedp.Navigate(base+"/games/"+id), chromedp.Click(chromedp.CSS(`[data-testid=player-link]`)),
					chromedp.WaitVisible(chromedp.CSS(`[data-testid=player-name]`)))
				card := get(players[0], chromedp.Location())
				rated := false
				for range 50 {
					if rated = eval[bool](players[0], `!!document.querySelector("[data-testid=rating-`+g.kind+`]")`); rated {
						break
					}
					time.Sleep(200 * time.Millisecond)
					players[0].run(chromedp.Navigate(card), chromedp.WaitVisible(chromedp.CSS(`[data-testid=player-name]`)))
				}
				if !rated || eval[string](players[0], `document.querySelector("[data-testid=finished]").textContent`) == "0" {
					t.Fatalf("the card %s shows no %s rating or no game finished after the game", card, g.kind)
				}
			}
			if !liveChecked {
				t.Fatal("no live refresh was checked")
			}
			t.Logf("%s: %d moves clicked in the browser (whole game: %v)", g.kind, moves, g.whole)
		})
	}
	t.Logf("screenshots of each board at mid-game: %s", shots)
	fmt.Fprintf(os.Stderr, "courrier: board screenshots in %s\n", shots)
}

// createInBrowser creates a game of kind on the new-game page, inviting the
// other players, who join it from its page; the game starts when all have.
func createInBrowser(t *testing.T, players []*person, kind string) string {
	t.Helper()
	creator := players[0]
	var invite []string
	for _, p := range players[1:] {
		invite = append(invite, p.email)
	}
	creator.run(
		chromedp.Navigate(creator.base+"/games/new"),
		chromedp.Click(chromedp.CSS("#game-"+kind)),
		chromedp.Click(chromedp.CSS(`form[data-testid=choose-game] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#invite")),
		chromedp.SetValue(chromedp.CSS("#invite"), strings.Join(invite, "\n")),
		chromedp.Click(chromedp.CSS(`form[data-testid=new-game] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#live")),
	)
	loc := get(creator, chromedp.Location())
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(u.Path, "/games/")
	for _, p := range players[1:] {
		p.run(chromedp.Navigate(p.base+"/games/"+id), chromedp.Click(chromedp.CSS(`[data-testid=join]`)))
		p.waitFor("the page after joining", `!document.querySelector("[data-testid=join]") || !!document.querySelector("[data-testid=problem]")`)
		if problem := eval[string](p, `(() => { const e = document.querySelector("[data-testid=problem]"); return e ? e.textContent : ""; })()`); problem != "" {
			t.Fatalf("%s could not join the %s game: %s", p.name, kind, problem)
		}
	}
	st := creator.open(id, kind, players)
	if len(st.ToAct) == 0 {
		t.Fatalf("the %s game did not start when everyone joined:\n%s", kind, st.Text)
	}
	return id
}

// screenshot opens a player's game page on a desk (1280 pixels wide) and
// on a phone (360, mobile emulation), saves each whole page in dir, and
// checks that the board's drawing (the SVG for that width) is shown and
// that the page needs no sideways scrolling.
func screenshot(t *testing.T, p *person, id, kind, dir string) {
	t.Helper()
	for _, screen := range []struct {
		name          string
		width, height int64
		svg           string
		opts          []chromedp.EmulateViewportOption
	}{
		{"desktop", 1280, 900, "svg.wide", nil},
		{"phone", 360, 740, "svg.narrow", []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}},
	} {
		p.run(chromedp.EmulateViewport(screen.width, screen.height, screen.opts...),
			chromedp.Navigate(p.base+"/games/"+id), chromedp.WaitVisible(chromedp.CSS("#live")))
		shown := eval[int](p, `(() => { const e = document.querySelector("[data-testid=drawing] `+screen.svg+`");
			return e && getComputedStyle(e).display !== "none" ? Math.round(e.getBoundingClientRect().width) : 0; })()`)
		hidden := eval[int](p, `[...document.querySelectorAll("[data-testid=drawing] svg")].filter(e => e.getBoundingClientRect().width > 0).length`)
		if shown < 300 || hidden != 1 {
			t.Fatalf("the %s page on a %s shows its %s drawing %d pixels wide, and %d drawings", kind, screen.name, screen.svg, shown, hidden)
		}
		width := eval[int](p, `document.documentElement.scrollWidth`)
		inner := eval[int](p, `window.innerWidth`)
		shot := get(p, chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(dir, kind+"-"+screen.name+".png"), shot, 0o600); err != nil { //nolint:gosec // G703: the tester names the folder
			t.Fatal(err)
		}
		if width > inner {
			wide := eval[string](p, `[...document.querySelectorAll("body *")].filter(e => {
			if (e.getBoundingClientRect().right <= window.innerWidth + 1) return false;
			for (let a = e.parentElement; a; a = a.parentElement) { if (getComputedStyle(a).overflowX !== "visible") return false; }
			return true;
		}).slice(0, 8).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join("; ") +
			" | " + ["body", "main", "#live", ".drawing", ".board", ".scroll", "header.site", "footer.site"].map(q => { const e = document.querySelector(q); return e ? q + " " + e.scrollWidth + "/" + e.clientWidth : q + " none"; }).join("; ") + " | inner " + window.innerWidth`)
			t.Fatalf("the %s page is %d pixels wide on a %d-pixel %s: %s", kind, width, inner, screen.name, wide)
		}
	}
	p.run(chromedp.EmulateReset(), chromedp.EmulateViewport(1100, 900))
}

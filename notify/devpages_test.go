package notify_test

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
)

var (
	devRow  = regexp.MustCompile(`<tr><td><a href="/dev/mail/(\d+)">`)
	devLink = regexp.MustCompile(`<a href="([^"]+)" rel="(?:prev|next)" data-testid="(newer|older)">`)
)

// The dev mailbox lists 50 messages a page, newest first, with links to
// the older and newer pages that hang on message ids: new mail moves no
// page, and the address filter stays on every page.
func TestDevMailboxPagesByFifty(t *testing.T) {
	w := newWorld(t, 7, func(c *notify.Config) { c.Transport = nil })
	dev := notify.NewDevMailbox(mailstore.New(w.pool))
	send := func(n int, to string) {
		for i := range n {
			msg := fmt.Sprintf("From: courrier <play@%s>\r\nTo: %s\r\nSubject: mail %d\r\nMessage-ID: <%s>\r\n\r\nhello\r\n", domain, to, i, newMessageID())
			if err := dev.Send(t.Context(), "play@"+domain, []string{to}, []byte(msg)); err != nil {
				t.Fatal(err)
			}
		}
	}
	send(120, "ana@players.test")
	send(10, "bob@players.test")
	h := w.mail.Handler(w.jobs)
	// The page says what waits to be sent, per priority: nothing here.
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/dev/mail", nil)
	req.RemoteAddr = "127.0.0.1:5000"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), "Waiting to be sent: waiting 0, game 0, later 0.") {
		t.Errorf("the dev mailbox does not say what waits to be sent:\n%s", rec.Body)
	}
	type listing struct {
		ids          []int64
		newer, older string
	}
	get := func(path string) listing {
		t.Helper()
		req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
		req.RemoteAddr = "127.0.0.1:5000"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d\n%s", path, rec.Code, rec.Body)
		}
		var l listing
		for _, m := range devRow.FindAllStringSubmatch(rec.Body.String(), -1) {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			l.ids = append(l.ids, id)
		}
		for _, m := range devLink.FindAllStringSubmatch(rec.Body.String(), -1) {
			if m[2] == "newer" {
				l.newer = html.UnescapeString(m[1])
			} else {
				l.older = html.UnescapeString(m[1])
			}
		}
		return l
	}
	all, err := dev.List(t.Context(), "ana@players.test", 1000)
	if err != nil {
		t.Fatal(err)
	}
	var ana []int64 // ana's mail, newest first
	for _, m := range all {
		ana = append(ana, m.ID)
	}
	if len(ana) < 120 {
		t.Fatalf("ana has %d mails", len(ana))
	}

	first := get("/dev/mail")
	if len(first.ids) != 50 || first.newer != "" || first.older == "" {
		t.Fatalf("the first page: %d mails, newer %q, older %q", len(first.ids), first.newer, first.older)
	}
	// Ana's mail from her newest to her oldest and back, page by page.
	page := get("/dev/mail?to=ana@players.test")
	var seen []int64
	pages := []listing{page}
	for {
		seen = append(seen, page.ids...)
		if page.older == "" {
			break
		}
		page = get(page.older)
		pages = append(pages, page)
		if len(pages) > 10 {
			t.Fatal("the older links never end")
		}
	}
	if !slices.Equal(seen, ana) || len(pages) != (len(ana)+49)/50 {
		t.Fatalf("paging older lists %d mails in %d pages, want ana's %d", len(seen), len(pages), len(ana))
	}
	send(7, "ana@players.test") // new mail moves no page
	for i := len(pages) - 1; i > 0; i-- {
		newer := get(pages[i].newer)
		if !slices.Equal(newer.ids, pages[i-1].ids) {
			t.Errorf("the newer page of page %d lists %v, want %v", i, newer.ids, pages[i-1].ids)
		}
	}
	if again := get(pages[0].older); !slices.Equal(again.ids, pages[1].ids) {
		t.Errorf("after new mail, page 2 lists %v, want %v", again.ids, pages[1].ids)
	}
	if top := get("/dev/mail?to=ana@players.test"); top.newer != "" || len(top.ids) != 50 || top.ids[0] <= ana[0] {
		t.Errorf("the newest page after new mail: %v, newer %q", top.ids, top.newer)
	}
}

package auth_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/migrations/pgtest"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var linkKey = bytes.Repeat([]byte("k"), 32)

// issue makes a link for user and returns its secret, as the mail worker
// derives it.
func issue(t *testing.T, links *auth.Links, user string) (string, error) {
	t.Helper()
	var id int64
	err := links.Issue(context.Background(), linkKey, user, func(_ context.Context, _ pgx.Tx, linkID int64) error {
		id = linkID
		return nil
	})
	return auth.LinkSecret(linkKey, id), err
}

func TestSignInLinksWorkOnceAndFor15Minutes(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	clk := &fakeClock{t: time.Now()}
	users, links := auth.NewUsers(pool), auth.NewLinks(pool, clk.Now)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	secret, err := issue(t, links, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored int
	if err := pool.QueryRow(ctx, `select count(*) from login_links where hash::text like '%' || $1 || '%'`, secret).Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("the secret is stored in the clear (%d rows, %v)", stored, err)
	}
	if ok, err := links.Valid(ctx, secret); err != nil || !ok {
		t.Fatalf("a fresh link is not valid: %v %v", ok, err)
	}
	if ok, _ := links.Valid(ctx, secret); !ok {
		t.Fatal("checking a link used it")
	}
	user, err := links.Consume(ctx, strings.ToUpper(secret))
	if err != nil || user != ana.ID {
		t.Fatalf("consume = %q, %v; want %s", user, err, ana.ID)
	}
	if _, err := links.Consume(ctx, secret); !errors.Is(err, auth.ErrLinkUsed) {
		t.Fatalf("a second use: %v, want ErrLinkUsed", err)
	}

	late, err := issue(t, links, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(auth.LinkTTL + time.Second)
	if _, err := links.Consume(ctx, late); !errors.Is(err, auth.ErrLinkExpired) {
		t.Fatalf("a link 15 minutes old: %v, want ErrLinkExpired", err)
	}
	for _, bad := range []string{"", "nope", auth.LinkSecret(bytes.Repeat([]byte("x"), 32), 1)} {
		if _, err := links.Consume(ctx, bad); !errors.Is(err, auth.ErrLinkUnknown) {
			t.Fatalf("secret %q: %v, want ErrLinkUnknown", bad, err)
		}
	}
}

func TestSignInLinksAreConsumedOnceUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	users, links := auth.NewUsers(pool), auth.NewLinks(pool, time.Now)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	secret, err := issue(t, links, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wins := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			if u, err := links.Consume(ctx, secret); err == nil {
				wins <- u
			}
		})
	}
	wg.Wait()
	close(wins)
	if n := len(wins); n != 1 {
		t.Fatalf("%d of 8 concurrent uses of one link succeeded, want 1", n)
	}
}

func TestSignInLinksAreBoundedPerHourAndDieWithTheAccount(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	clk := &fakeClock{t: time.Now()}
	users, links := auth.NewUsers(pool), auth.NewLinks(pool, clk.Now)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for i := range auth.MaxLinksPerHour {
		if last, err = issue(t, links, ana.ID); err != nil {
			t.Fatalf("link %d: %v", i+1, err)
		}
	}
	if _, err := issue(t, links, ana.ID); !errors.Is(err, auth.ErrTooManyLinks) {
		t.Fatalf("link %d in an hour: %v, want ErrTooManyLinks", auth.MaxLinksPerHour+1, err)
	}
	queued := false
	err = links.Issue(ctx, linkKey, ana.ID, func(context.Context, pgx.Tx, int64) error { queued = true; return errors.New("queue down") })
	if !queued {
		clk.Add(time.Hour + time.Second)
		err = links.Issue(ctx, linkKey, ana.ID, func(context.Context, pgx.Tx, int64) error { return errors.New("queue down") })
	}
	if err == nil || !strings.Contains(err.Error(), "queue down") {
		t.Fatalf("a link whose mail could not be queued: %v", err)
	}
	var count int
	if err := pool.QueryRow(ctx, `select count(*) from login_links`).Scan(&count); err != nil || count != auth.MaxLinksPerHour {
		t.Fatalf("%d links stored (%v), want %d: a link whose mail was not queued must not exist", count, err, auth.MaxLinksPerHour)
	}
	if err := users.Erase(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := links.Consume(ctx, last); !errors.Is(err, auth.ErrLinkUnknown) {
		t.Fatalf("a link of an erased account: %v, want ErrLinkUnknown", err)
	}
	if _, err := issue(t, links, ana.ID); !errors.Is(err, auth.ErrNoUser) {
		t.Fatalf("a link for an erased account: %v, want ErrNoUser", err)
	}
}

func TestAPITokens(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	clk := &fakeClock{t: time.Now()}
	users, tokens := auth.NewUsers(pool), auth.NewAPITokens(pool, clk.Now)
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := users.Ensure(ctx, "bob@example.org")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "   ", strings.Repeat("n", 81)} {
		if _, _, err := tokens.Create(ctx, ana.ID, name); !errors.Is(err, auth.ErrBadTokenName) {
			t.Fatalf("token name %q: %v, want ErrBadTokenName", name, err)
		}
	}
	tok, secret, err := tokens.Create(ctx, ana.ID, "my bot")
	if err != nil {
		t.Fatal(err)
	}
	if !auth.IsAPIToken(secret) || !strings.Contains(secret, tok.ID) {
		t.Fatalf("secret %q does not look like an API token of id %s", secret, tok.ID)
	}
	var inClear int
	if err := pool.QueryRow(ctx, `select count(*) from api_tokens where encode(hash, 'escape') like '%' || $1 || '%'`, secret[len(secret)-20:]).Scan(&inClear); err != nil || inClear != 0 {
		t.Fatalf("the token's secret is stored (%d, %v)", inClear, err)
	}
	user, err := tokens.Verify(ctx, secret)
	if err != nil || user != ana.ID {
		t.Fatalf("verify = %q, %v", user, err)
	}
	list, err := tokens.List(ctx, ana.ID)
	if err != nil || len(list) != 1 || list[0].LastUsedAt == nil || list[0].Name != "my bot" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	cases := []struct{ name, secret string }{
		{"unknown", "courrier_tnope_" + strings.Repeat("a", 52)},
		{"changed", secret[:len(secret)-1] + "x"},
		{"not an api token", "eyJhbGciOiJub25lIn0.e30."},
	}
	for _, c := range cases {
		if _, err := tokens.Verify(ctx, c.secret); !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("%s: %v, want ErrInvalidToken", c.name, err)
		}
	}
	if err := tokens.Revoke(ctx, bob.ID, tok.ID); !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("bob revoking ana's token: %v, want ErrNoToken", err)
	}
	if _, err := tokens.Verify(ctx, secret); err != nil {
		t.Fatalf("after bob's attempt the token stopped working: %v", err)
	}
	if err := tokens.Revoke(ctx, ana.ID, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := tokens.Verify(ctx, secret); !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("a revoked token: %v", err)
	}
	_, second, err := tokens.Create(ctx, ana.ID, "another")
	if err != nil {
		t.Fatal(err)
	}
	if err := users.Erase(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := tokens.Verify(ctx, second); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("a token of an erased account: %v", err)
	}
}

func TestDisplayNames(t *testing.T) {
	ctx := context.Background()
	users := auth.NewUsers(pgtest.New(t))
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"  Ana   Lima ", "Ana Lima", true},
		{"Zoë", "Zoë", true},
		{"", "", false},
		{"\t\n", "", false},
		{strings.Repeat("é", 41), "", false},
		{"Ana\u0007", "", false},
	}
	for _, c := range cases {
		err := users.SetName(ctx, ana.ID, c.in)
		if (err == nil) != c.ok {
			t.Errorf("SetName(%q) = %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if !c.ok {
			if !errors.Is(err, auth.ErrBadName) {
				t.Errorf("SetName(%q) = %v, want ErrBadName", c.in, err)
			}
			continue
		}
		got, err := users.ByID(ctx, ana.ID)
		if err != nil || got.Name != c.want {
			t.Errorf("after SetName(%q) the name is %q (%v), want %q", c.in, got.Name, err, c.want)
		}
	}
}

func TestTimeZones(t *testing.T) {
	ctx := context.Background()
	users := auth.NewUsers(pgtest.New(t))
	ana, err := users.Ensure(ctx, "ana@example.org")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"Europe/Paris", "Europe/Paris", true},
		{"UTC", "UTC", true},
		{"", "UTC", true},
		{"Mars/Olympus", "", false},
		{"Local", "", false},
	}
	for _, c := range cases {
		err := users.SetTimeZone(ctx, ana.ID, c.in)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, auth.ErrBadTimeZone)) {
			t.Errorf("SetTimeZone(%q) = %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if c.ok {
			u, err := users.ByID(ctx, ana.ID)
			if err != nil || u.Location().String() != c.want {
				t.Errorf("after SetTimeZone(%q): %q (%v), want %q", c.in, u.Location(), err, c.want)
			}
		}
	}
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	client "github.com/courrier-games/courrier/api" // its generated client
)

// bot is a player driven by a program over the HTTP API alone: the load
// command's players, and the end-to-end test's.
type bot struct {
	email, user, token string
	api                *client.ClientWithResponses
}

// signInBot signs email in through the server's dev mailbox.
func signInBot(ctx context.Context, api *client.ClientWithResponses, email string) (*bot, error) {
	name, _, _ := strings.Cut(email, "@")
	s, err := client.SignInThroughDevMail(ctx, api, email, name)
	if err != nil {
		return nil, fmt.Errorf("sign %s in: %w", email, err)
	}
	return &bot{email: email, user: s.User.Id, token: s.Token, api: api}, nil
}

// politeDoer retries a request the server refused with 429, after the
// Retry-After it gave (at most a second at a time), as a well-behaved client
// does.
type politeDoer struct {
	client  *http.Client
	retries int
}

// Do implements client.HttpRequestDoer.
func (d politeDoer) Do(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := d.client.Do(req) //nolint:gosec // G704: the URL is the one the operator gave (-url) or the embedded server's
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || attempt == d.retries || req.GetBody == nil && req.Body != nil {
			return resp, err
		}
		wait := time.Second
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 && s < 1 {
			wait = time.Duration(s) * time.Second
		}
		_ = resp.Body.Close()
		if req.GetBody != nil {
			if req.Body, err = req.GetBody(); err != nil {
				return nil, fmt.Errorf("retry %s %s: %w", req.Method, req.URL.Path, err)
			}
		}
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(wait):
		}
	}
}

// newAPIClient is a client of the API at base that retries 429s.
func newAPIClient(base string, httpc *http.Client) (*client.ClientWithResponses, error) {
	c, err := client.NewClientWithResponses(base, client.WithHTTPClient(politeDoer{client: httpc, retries: 10}))
	if err != nil {
		return nil, fmt.Errorf("a client of %s: %w", base, err)
	}
	return c, nil
}

// match is a game between bots.
type match struct {
	id    string
	bots  []*bot
	seats map[int]*bot
	pick  *rand.Rand
	steps int
	// game is the game as the last answer showed it (whose turn it is),
	// nil until one was read.
	game *client.Game
	// answer, when set, sees every answer a bot gets (the tests look for
	// what must not be in them).
	answer func(b *bot, body []byte)
}

// startMatch creates a game of kind with bots[0] as its creator and the
// others invited, and lets them join; it starts when the last joins.
func startMatch(ctx context.Context, kind string, bots []*bot, pick *rand.Rand) (*match, error) {
	seats := []string{"me"}
	for _, b := range bots[1:] {
		seats = append(seats, b.email)
	}
	created, err := bots[0].api.CreateGameWithResponse(ctx, client.NewGame{Game: kind, Seats: &seats}, client.WithToken(bots[0].token))
	if err != nil {
		return nil, fmt.Errorf("create a game of %s: %w", kind, err)
	}
	if created.JSON201 == nil {
		return nil, fmt.Errorf("create a game of %s: %s %s", kind, created.Status(), created.Body)
	}
	m := &match{id: created.JSON201.Id, bots: bots, seats: map[int]*bot{}, pick: pick}
	for _, b := range bots[1:] {
		name, _, _ := strings.Cut(b.email, "@")
		joined, err := b.api.JoinGameWithResponse(ctx, m.id, client.JoinRequest{Name: &name}, client.WithToken(b.token))
		if err != nil {
			return nil, fmt.Errorf("join game %s: %w", m.id, err)
		}
		if joined.StatusCode() != http.StatusOK {
			return nil, fmt.Errorf("join game %s: %s %s", m.id, joined.Status(), joined.Body)
		}
	}
	for _, b := range bots {
		v, err := m.view(ctx, b)
		if err != nil {
			return nil, err
		}
		if v.Seat == nil {
			return nil, fmt.Errorf("game %s gives %s no seat", m.id, b.email)
		}
		m.seats[*v.Seat] = b
	}
	return m, nil
}

// view reads b's seat view.
func (m *match) view(ctx context.Context, b *bot) (client.SeatView, error) {
	r, err := b.api.GetSeatViewWithResponse(ctx, m.id, client.WithToken(b.token))
	if err != nil {
		return client.SeatView{}, fmt.Errorf("read the view of game %s: %w", m.id, err)
	}
	if m.answer != nil {
		m.answer(b, r.Body)
	}
	if r.JSON200 == nil {
		return client.SeatView{}, fmt.Errorf("read the view of game %s: %s %s", m.id, r.Status(), r.Body)
	}
	return *r.JSON200, nil
}

// moveOutcome is what one step of a match did.
type moveOutcome struct {
	finished bool          // the game had ended: nothing was played
	stale    bool          // the move was refused as stale (someone moved first)
	latency  time.Duration // of the move's request
	mover    *bot
	view     client.SeatView // the mover's view before the move
}

// step plays one random legal move of a seat that must act: it reads
// whose turn it is from one seat's view, reads that seat's view, and
// sends a move written out or, at times, the number of a line of
// legal_compact, with an Idempotency-Key.
func (m *match) step(ctx context.Context) (moveOutcome, error) {
	g := m.game
	if g == nil {
		v, err := m.view(ctx, m.bots[botChoice(m.pick, len(m.bots))])
		if err != nil {
			return moveOutcome{}, err
		}
		g = &v.Game
	}
	m.game = nil // read afresh unless this move's answer tells
	if g.Status == "finished" {
		return moveOutcome{finished: true}, nil
	}
	if len(g.ToAct) == 0 {
		return moveOutcome{}, fmt.Errorf("game %s is %s at version %d and nobody may act", m.id, g.Status, g.Version)
	}
	mover := m.seats[g.ToAct[botChoice(m.pick, len(g.ToAct))].Seat]
	if mover == nil {
		return moveOutcome{}, fmt.Errorf("game %s waits for a seat no bot holds", m.id)
	}
	v, err := m.view(ctx, mover)
	if err != nil {
		return moveOutcome{}, err
	}
	out := moveOutcome{mover: mover, view: v}
	if len(v.Legal) == 0 && len(v.LegalCompact) == 0 {
		out.stale = true // the turn passed between the two reads
		return out, nil
	}
	m.steps++
	key := fmt.Sprintf("%s-%d", m.id, m.steps)
	body := client.MoveRequest{Move: chooseMove(m.pick, v), ExpectedVersion: v.Version}
	start := time.Now()
	r, err := mover.api.PlayMoveWithResponse(ctx, m.id, &client.PlayMoveParams{IdempotencyKey: &key}, body, client.WithToken(mover.token))
	out.latency = time.Since(start)
	if err != nil {
		return out, fmt.Errorf("move %q in game %s: %w", body.Move, m.id, err)
	}
	if m.answer != nil {
		m.answer(mover, r.Body)
	}
	switch r.StatusCode() {
	case http.StatusOK:
		if r.JSON200 != nil {
			m.game = &r.JSON200.View.Game
		}
		return out, nil
	case http.StatusConflict:
		out.stale = true
		return out, nil
	}
	return out, fmt.Errorf("move %q of %s in game %s at version %d: %s %s", body.Move, mover.email, m.id, v.Version, r.Status(), r.Body)
}

// chooseMove picks a legal move: mostly one written out from legal, at
// times the number of a plain line of legal_compact (a line with a range
// or a placeholder needs writing out).
func chooseMove(pick *rand.Rand, v client.SeatView) string {
	if botChoice(pick, 3) == 0 || len(v.Legal) == 0 {
		var plain []int
		for k, line := range v.LegalCompact {
			if !strings.ContainsAny(line, "…<") {
				plain = append(plain, k+1)
			}
		}
		if len(plain) > 0 {
			return fmt.Sprint(plain[botChoice(pick, len(plain))])
		}
	}
	if len(v.Legal) > 0 {
		return v.Legal[botChoice(pick, len(v.Legal))]
	}
	return "1"
}

// botChoice is a bot's pick among n: a player's choice, not a game's draw
// (which goes through the game's seeded generator).
func botChoice(pick *rand.Rand, n int) int {
	return pick.IntN(n) //nolint:forbidigo // a bot's choice of move, not a draw of the game
}

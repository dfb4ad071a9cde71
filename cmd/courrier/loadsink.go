package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	client "github.com/courrier-games/courrier/api" // its generated client
)

// signInBox hands the sign-in links the relay sink receives to the bots
// waiting for them: a bot signs in by mail, as a person does.
type signInBox struct {
	mu      sync.Mutex
	waiting map[string]chan string // by address, lower case
}

func newSignInBox() *signInBox { return &signInBox{waiting: map[string]chan string{}} }

// deliver hands a sign-in mail's secret to the bot waiting for it.
func (b *signInBox) deliver(m sinkMail) {
	if m.kind != "login" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ch, ok := b.waiting[m.to]; ok {
		if sm := signInSecret.FindStringSubmatch(m.text); sm != nil {
			delete(b.waiting, m.to)
			ch <- sm[1]
		}
	}
}

// signIn signs a bot in by mail: its sign-in link read at the sink.
func (b *signInBox) signIn(ctx context.Context, api *client.ClientWithResponses, email string) (*bot, error) {
	ch := make(chan string, 1)
	b.mu.Lock()
	b.waiting[strings.ToLower(email)] = ch
	b.mu.Unlock()
	name, _, _ := strings.Cut(email, "@")
	sent, err := api.RequestLoginWithResponse(ctx, client.LoginRequest{Email: email, Name: &name})
	if err != nil {
		return nil, fmt.Errorf("sign %s in: ask for a sign-in link: %w", email, err)
	}
	if sent.StatusCode() != http.StatusAccepted {
		return nil, fmt.Errorf("sign %s in: ask for a sign-in link: %s %s", email, sent.Status(), sent.Body)
	}
	var secret string
	select {
	case secret = <-ch:
	case <-ctx.Done():
		return nil, fmt.Errorf("sign %s in: %w", email, ctx.Err())
	case <-time.After(time.Minute):
		return nil, fmt.Errorf("sign %s in: no sign-in mail at the relay sink in a minute", email)
	}
	got, err := api.ExchangeLoginTokenWithResponse(ctx, client.TokenRequest{LoginToken: secret})
	if err != nil {
		return nil, fmt.Errorf("sign %s in: exchange the sign-in link: %w", email, err)
	}
	if got.JSON200 == nil {
		return nil, fmt.Errorf("sign %s in: exchange the sign-in link: %s %s", email, got.Status(), got.Body)
	}
	return &bot{email: email, user: got.JSON200.User.Id, token: got.JSON200.Token, api: api}, nil
}

// httpSink is the relay sink of a run over HTTP: the embedded server
// relays its mail to it, as it would to a real relay (not into its dev
// mailbox, which stores every mail in the database); it hands sign-in
// links to the bots and counts the mail that reaches it while the games
// are timed.
type httpSink struct {
	signIns *signInBox
	playing atomic.Bool
	mails   atomic.Int64
	prompts atomic.Int64
}

// deliver is the sink's hand-over.
func (s *httpSink) deliver(m sinkMail) {
	s.signIns.deliver(m)
	if !s.playing.Load() {
		return
	}
	s.mails.Add(1)
	if m.kind == "prompt" {
		s.prompts.Add(1)
	}
}

package api

// The API's Go client (ClientWithResponses, in client.gen.go) is generated
// from openapi.yaml beside the server and shares its models; it is what the
// load command's bots and the end-to-end tests speak. This file adds what a
// client needs beyond the document: a bearer token, and a sign-in through
// the dev mailbox.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"
)

// WithToken sends token as the request's Authorization.
func WithToken(token string) RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// loginLink finds a sign-in link's secret in a mail's text.
var loginLink = regexp.MustCompile(`/login/([a-z2-7]{20,})`)

// SignInThroughDevMail signs email in on a server that keeps its mail in
// the built-in dev mailbox (no relay configured) and that this machine can
// reach on loopback: it asks for a sign-in link, reads it from the dev
// mailbox and exchanges it for a session. name, when not empty, is the
// display name of a new account. It is how the load command's bots and
// the tests sign in, over HTTP alone.
func SignInThroughDevMail(ctx context.Context, c *ClientWithResponses, email, name string) (Session, error) {
	to := email
	before, err := c.ListDevMailWithResponse(ctx, &ListDevMailParams{To: &to})
	if err != nil {
		return Session{}, fmt.Errorf("read the dev mailbox: %w", err)
	}
	if before.JSON200 == nil {
		return Session{}, fmt.Errorf("read the dev mailbox: %s %s", before.Status(), before.Body)
	}
	seen := map[int64]bool{}
	for _, m := range before.JSON200.Items {
		seen[m.Id] = true
	}
	body := LoginRequest{Email: email}
	if name != "" {
		body.Name = &name
	}
	sent, err := c.RequestLoginWithResponse(ctx, body)
	if err != nil {
		return Session{}, fmt.Errorf("ask for a sign-in link: %w", err)
	}
	if sent.StatusCode() != http.StatusAccepted {
		return Session{}, fmt.Errorf("ask for a sign-in link: %s %s", sent.Status(), sent.Body)
	}
	secret := ""
	for wait := 10 * time.Millisecond; secret == ""; wait = min(2*wait, 200*time.Millisecond) {
		list, err := c.ListDevMailWithResponse(ctx, &ListDevMailParams{To: &to})
		if err != nil {
			return Session{}, fmt.Errorf("read the dev mailbox: %w", err)
		}
		if list.JSON200 == nil {
			return Session{}, fmt.Errorf("read the dev mailbox: %s %s", list.Status(), list.Body)
		}
		for _, m := range list.JSON200.Items {
			if sm := loginLink.FindStringSubmatch(m.Text); !seen[m.Id] && sm != nil {
				secret = sm[1]
				break
			}
		}
		if secret != "" {
			break
		}
		select {
		case <-ctx.Done():
			return Session{}, errors.New("no sign-in mail arrived in the dev mailbox")
		case <-time.After(wait):
		}
	}
	got, err := c.ExchangeLoginTokenWithResponse(ctx, TokenRequest{LoginToken: secret})
	if err != nil {
		return Session{}, fmt.Errorf("exchange the sign-in link: %w", err)
	}
	if got.JSON200 == nil {
		return Session{}, fmt.Errorf("exchange the sign-in link: %s %s", got.Status(), got.Body)
	}
	return *got.JSON200, nil
}

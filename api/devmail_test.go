package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/notify"
)

// devMail is notify's dev mailbox as the API lists it, as cmd/courrier
// adapts it.
type devMail struct{ box *notify.DevMailbox }

func (d devMail) Mail(ctx context.Context, to string, limit int) ([]api.DevMessage, error) {
	list, err := d.box.List(ctx, to, limit)
	if err != nil {
		return nil, err
	}
	out := make([]api.DevMessage, 0, len(list))
	for _, m := range list {
		full, err := d.box.Get(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, api.DevMessage{ID: m.ID, To: m.To, Subject: m.Subject, CreatedAt: m.CreatedAt, Text: notify.TextOf(full.Raw)})
	}
	return out, nil
}

// GET /v1/dev/mail lists the dev mailbox to this machine, each message as
// text, only the ones to the address asked for.
func TestDevMailListsTheMailboxAsText(t *testing.T) {
	e := newEnv(t)
	e.signIn("ana@example.org")
	e.signIn("bruno@example.org")
	r := e.call(http.MethodGet, "/v1/dev/mail?to=ana@example.org", "", nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET /v1/dev/mail: %d %s", r.status, r.body)
	}
	var list struct {
		Items []struct {
			ID      int64    `json:"id"`
			To      []string `json:"to"`
			Subject string   `json:"subject"`
			Text    string   `json:"text"`
		} `json:"items"`
	}
	r.decode(t, &list)
	if len(list.Items) != 1 {
		t.Fatalf("%d mails to ana, want her sign-in link: %s", len(list.Items), r.body)
	}
	m := list.Items[0]
	if len(m.To) != 1 || m.To[0] != "ana@example.org" || m.Subject == "" || !strings.Contains(m.Text, "/login/") || strings.Contains(m.Text, "Content-Type") {
		t.Fatalf("ana's sign-in mail listed as %+v", m)
	}
}

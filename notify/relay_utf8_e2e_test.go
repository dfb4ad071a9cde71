package notify_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
)

// utf8Relay is a real SMTP server on loopback that offers SMTPUTF8 or not
// and keeps each MAIL's SMTPUTF8 parameter.
type utf8Relay struct {
	mu  sync.Mutex
	got []utf8Mail
}

type utf8Mail struct {
	from string
	to   []string
	utf8 bool
	raw  string
}

func (r *utf8Relay) NewSession(*gosmtp.Conn) (gosmtp.Session, error) { return &utf8Session{r: r}, nil }

type utf8Session struct {
	r *utf8Relay
	m utf8Mail
}

func (s *utf8Session) Reset()        {}
func (s *utf8Session) Logout() error { return nil }
func (s *utf8Session) Mail(from string, opts *gosmtp.MailOptions) error {
	s.m = utf8Mail{from: from, utf8: opts != nil && opts.UTF8}
	return nil
}

func (s *utf8Session) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.m.to = append(s.m.to, to)
	return nil
}

func (s *utf8Session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.m.raw = string(b)
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.got = append(s.r.got, s.m)
	return nil
}

// all is the mail received.
func (r *utf8Relay) all() []utf8Mail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]utf8Mail(nil), r.got...)
}

// to is the mail received for address.
func (r *utf8Relay) to(address string) []utf8Mail {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []utf8Mail
	for _, m := range r.got {
		for _, a := range m.to {
			if a == address {
				out = append(out, m)
			}
		}
	}
	return out
}

// Players whose addresses are not ASCII get their mail through a relay
// that offers SMTPUTF8, with SMTPUTF8; through one that does not, an
// internationalized domain goes as its A-labels and a mailbox not in ASCII
// is recorded as failed for good, saying why.
func TestUTF8PlayerAddressesThroughTheRelay(t *testing.T) {
	const zoe, idn = "zoë@players.test", "ana@exämple.test"
	for _, tt := range []struct {
		name     string
		smtputf8 bool
	}{{"the relay offers SMTPUTF8", true}, {"the relay does not", false}} {
		t.Run(tt.name, func(t *testing.T) {
			r := &utf8Relay{}
			srv := gosmtp.NewServer(r)
			srv.Domain = "relay.test"
			srv.EnableSMTPUTF8 = tt.smtputf8
			var lc net.ListenConfig
			ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(ln) }()
			t.Cleanup(func() { _ = srv.Close() })
			w := newWorld(t, 9, func(c *notify.Config) {
				if c.Transport, err = notify.ParseRelay("smtp://"+ln.Addr().String(), domain); err != nil {
					t.Fatal(err)
				}
			})
			w.inviteByAPI(t, players[0], zoe, idn)
			ctx := context.Background()
			deadline := time.Now().Add(20 * time.Second)
			for {
				settled := 0
				for _, a := range []string{zoe, idn} {
					if logged, err := mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{To: a}); err != nil {
						t.Fatal(err)
					} else if len(logged) == 1 && logged[0].Status() != "trying" {
						settled++
					}
				}
				if settled == 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the invitations never settled; the relay has %+v", r.all())
				}
				time.Sleep(50 * time.Millisecond)
			}
			zoeLog, _ := mailstore.New(w.pool).MailLog(ctx, mailstore.MailLogFilter{To: zoe})
			if tt.smtputf8 {
				got := r.to(zoe)
				if len(got) != 1 || !got[0].utf8 || !strings.Contains(got[0].raw, "To: <"+zoe+">") || zoeLog[0].Status() != "sent" {
					t.Fatalf("%s got %+v (logged %+v), want one invitation with SMTPUTF8", zoe, got, zoeLog)
				}
				if got := r.to(idn); len(got) != 1 || !got[0].utf8 {
					t.Fatalf("%s got %+v, want one invitation with SMTPUTF8", idn, got)
				}
				return
			}
			if len(r.to(zoe)) != 0 || zoeLog[0].Status() != "failed" ||
				!strings.Contains(zoeLog[0].LastError, "does not offer SMTPUTF8, which the address "+zoe+" needs") {
				t.Fatalf("%s: logged %+v, want a failure that says SMTPUTF8 is missing", zoe, zoeLog)
			}
			const ascii = "ana@xn--exmple-cua.test"
			if got := r.to(ascii); len(got) != 1 || got[0].utf8 || !strings.Contains(got[0].raw, "To: <"+ascii+">\r\n") {
				t.Fatalf("%s got %+v, want one invitation to %s without SMTPUTF8", idn, r.all(), ascii)
			}
		})
	}
}

package notify_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/smtp"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// domain is the mail domain of the test service.
const domain = "courrier.test"

// relayMail is one message the stand-in relay received.
type relayMail struct {
	From string
	To   []string
	Raw  []byte
	At   time.Time
}

// relay is a real SMTP server on loopback standing in for the outbound
// relay: it keeps what it receives, and can be down (421 to every
// connection).
type relay struct {
	mu  sync.Mutex
	got []relayMail
	// parsed is got parsed (parse), once each as it comes: a whole game's
	// hundreds of mails are looked at on every poll.
	parsed []message
	down   bool
	refuse map[string]bool // recipients answered 550
	ln     net.Listener
	srv    *gosmtp.Server
}

func (r *relay) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		return nil, &gosmtp.SMTPError{Code: 421, EnhancedCode: gosmtp.EnhancedCode{4, 3, 0}, Message: "down for maintenance"}
	}
	return &relaySession{r: r}, nil
}

type relaySession struct {
	r    *relay
	from string
	to   []string
}

func (s *relaySession) Reset()        {}
func (s *relaySession) Logout() error { return nil }
func (s *relaySession) Mail(from string, _ *gosmtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *relaySession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.r.mu.Lock()
	refused := s.r.refuse[to]
	s.r.mu.Unlock()
	if refused {
		return &gosmtp.SMTPError{Code: 550, EnhancedCode: gosmtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox here"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *relaySession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	m := relayMail{From: s.from, To: s.to, Raw: b, At: time.Now()}
	s.r.got, s.r.parsed = append(s.r.got, m), append(s.r.parsed, parse(m))
	return nil
}

func (r *relay) setDown(down bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = down
}

func (r *relay) all() []relayMail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]relayMail(nil), r.got...)
}

// world is a whole mail side on a fresh database: play, the mail service
// with its River workers, the inbound SMTP server and the stand-in relay.
type world struct {
	t       *testing.T
	pool    *pgxpool.Pool
	play    *play.Service
	archive *play.Archive
	mail    *notify.Service
	relay   *relay
	inbound string // host:port of courrier's SMTP server
	users   *auth.Users
	now     func() time.Time
	signer  *notify.Signer
	jobs    *river.Client[pgx.Tx]
	// onSend, when set, runs before each mail a player sends (a test's
	// clock moves on as a player takes a few seconds to answer).
	onSend func()
	// afterMove, when set, runs after each reply playByMail sends, with
	// the game's id.
	afterMove func(game string)
}

type lateJobs struct{ c *river.Client[pgx.Tx] }

func (l *lateJobs) InsertManyTx(ctx context.Context, tx pgx.Tx, p []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return l.c.InsertManyTx(ctx, tx, p)
}

// newWorld starts the mail side. Seeds are pinned by seed so a game is the
// same each run.
func newWorld(t *testing.T, seed byte, configure ...func(*notify.Config)) *world {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.New(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(&testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	r := &relay{}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.ln, r.srv = ln, gosmtp.NewServer(r)
	r.srv.Domain = "relay.test"
	r.srv.EnableSMTPUTF8 = true // as a real relay (Postfix) does: players may be zoë@…
	go func() { _ = r.srv.Serve(ln) }()
	t.Cleanup(func() { _ = r.srv.Close() })

	late := &lateJobs{}
	n := byte(0)
	box := play.NewEphemeralSeedBox()
	svc := play.New(pool, catalog.Registry(), play.WithLogger(log), play.WithJobs(late), play.WithSeedBox(box), play.WithAccounts(auth.NewInvitees()), play.WithSeeds(func() games.Seed {
		n++
		var s games.Seed
		s[0], s[1] = seed, n
		return s
	}))
	arc := play.NewArchive(pool, catalog.Registry(), box)
	transport, err := notify.ParseRelay("smtp://"+ln.Addr().String(), "courrier.test")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := notify.NewSigner(time.Now, notify.Key{ID: "20261124T000000Z-abc123", Secret: bytes.Repeat([]byte{7}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	users := auth.NewUsers(pool)
	cfg := notify.Config{
		MailDomain: domain, BaseURL: "http://courrier.test", Transport: transport, Signer: signer,
		LookupTXT: func(context.Context, string) ([]string, error) { return nil, fmt.Errorf("no DNS in tests") },
		Archive:   arc,
	}
	for _, c := range configure {
		c(&cfg)
	}
	mail, err := notify.New(mailstore.New(pool), svc, users, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	workers := river.NewWorkers()
	mail.AddWorkers(workers)
	river.AddWorker(workers, play.NewDeadlineWorker(svc, time.Now))
	river.AddWorker(workers, play.NewTakeBackWorker(svc, time.Now))
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:            log,
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}, "mail": {MaxWorkers: 4}},
		Workers:           workers,
		FetchPollInterval: 50 * time.Millisecond,
		FetchCooldown:     20 * time.Millisecond,
		ReindexerSchedule: river.NeverSchedule(),
		RetryPolicy:       &fastRetry{},
		ErrorHandler:      mail,
		Middleware:        []rivertype.Middleware{notify.JobIDMiddleware()},
	})
	if err != nil {
		t.Fatal(err)
	}
	late.c = client
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = client.Stop(stop)
	})
	in := mail.NewInboundServer(client)
	iln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = in.Serve(iln) }()
	t.Cleanup(func() { _ = in.Shutdown(context.Background()) })
	return &world{t: t, pool: pool, play: svc, archive: arc, mail: mail, relay: r, inbound: iln.Addr().String(), users: users, now: time.Now, signer: signer, jobs: client}
}

// fastRetry retries failed jobs after 200 ms, so a test sees a relay come
// back without waiting River's real backoff.
type fastRetry struct{}

func (*fastRetry) NextRetry(*rivertype.JobRow) time.Time {
	return time.Now().Add(200 * time.Millisecond)
}

type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// send delivers a message to courrier's SMTP server with a real SMTP client
// (net/smtp). It returns the server's refusal, if any.
// inviteByAPI has creator create a Coyote game over the API that invites
// the invitees by mail.
func (w *world) inviteByAPI(t *testing.T, creator string, invitees ...string) {
	t.Helper()
	if err := w.createByAPI(t, creator, invitees...); err != nil {
		t.Fatal(err)
	}
}

// createByAPI is inviteByAPI that returns play's refusal.
func (w *world) createByAPI(t *testing.T, creator string, invitees ...string) error {
	t.Helper()
	ctx := context.Background()
	c, err := w.users.Ensure(ctx, creator)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.play.CreateGame(ctx, play.Actor{User: c.ID, Channel: play.ChannelAPI},
		play.GameRequest{Kind: "coyote", Name: "Ana", Invite: invitees})
	return err
}

func (w *world) send(from, to, raw string) error {
	if w.onSend != nil {
		w.onSend()
	}
	return smtp.SendMail(w.inbound, nil, from, []string{to}, []byte(strings.ReplaceAll(raw, "\n", "\r\n")))
}

// mustSend is send that fails the test on a refusal.
func (w *world) mustSend(from, to, raw string) {
	w.t.Helper()
	if err := w.send(from, to, raw); err != nil {
		w.t.Fatalf("send from %s to %s: %v", from, to, err)
	}
}

// message is a parsed mail the relay received.
type message struct {
	relayMail
	Kind, Subject, ReplyTo, MessageID string
	Text                              string
}

var headerRe = regexp.MustCompile(`(?mi)^([A-Za-z-]+):[ \t]*(.*)$`)

func parse(m relayMail) message {
	out := message{relayMail: m}
	head, _, _ := strings.Cut(string(m.Raw), "\r\n\r\n")
	head = strings.ReplaceAll(head, "\r\n ", " ")
	head = strings.ReplaceAll(head, "\r\n\t", " ")
	for _, mm := range headerRe.FindAllStringSubmatch(head, -1) {
		v := strings.TrimSpace(mm[2])
		switch strings.ToLower(mm[1]) {
		case "x-courrier-kind":
			out.Kind = v
		case "subject":
			out.Subject = notifyDecode(v)
		case "reply-to":
			out.ReplyTo = strings.Trim(v, "<>")
			if i := strings.LastIndexByte(out.ReplyTo, '<'); i >= 0 {
				out.ReplyTo = strings.Trim(out.ReplyTo[i:], "<>")
			}
		case "message-id":
			out.MessageID = strings.Trim(v, "<>")
		}
	}
	out.Text = notify.TextOf(m.Raw)
	return out
}

func notifyDecode(v string) string {
	return strings.TrimSpace(strings.TrimPrefix(notify.HeaderLines([]byte("Subject: "+v+"\r\n\r\n"), "Subject"), "Subject: "))
}

// mailTo returns the messages received for address, oldest first.
func (w *world) mailTo(address string) []message {
	w.relay.mu.Lock()
	all := append([]message(nil), w.relay.parsed...)
	w.relay.mu.Unlock()
	var out []message
	for _, m := range all {
		for _, to := range m.To {
			if strings.EqualFold(to, address) {
				out = append(out, m)
			}
		}
	}
	return out
}

// waitFor waits until pred holds of the mail for address, and returns it.
func (w *world) waitFor(address string, what string, pred func([]message) bool) []message {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := w.mailTo(address)
		if pred(got) {
			return got
		}
		if time.Now().After(deadline) {
			var kinds []string
			for _, m := range got {
				kinds = append(kinds, m.Kind+" "+m.Subject)
			}
			w.t.Fatalf("no %s for %s after 20 s; they got %d mails: %s\n%s", what, address, len(got), strings.Join(kinds, " | "), w.trace())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// trace describes every mail the relay has and every inbound message's
// outcome, for a failing test's message.
func (w *world) trace() string {
	var b strings.Builder
	for _, m := range w.relay.all() {
		p := parse(m)
		fmt.Fprintf(&b, "  sent %s to %s: %s\n", p.Kind, strings.Join(m.To, ","), p.Subject)
	}
	jr, err := w.pool.Query(context.Background(), `select kind, state::text, coalesce(errors::text, '') from river_job where state <> 'completed' order by id`)
	if err == nil {
		for jr.Next() {
			var kind, state, errs string
			if jr.Scan(&kind, &state, &errs) == nil {
				fmt.Fprintf(&b, "  job %s %s %.300s\n", kind, state, errs)
			}
		}
		jr.Close()
	}
	rows, err := w.pool.Query(context.Background(), `select rcpt, coalesce(sender, ''), coalesce(outcome, '(pending)') from inbound_mail order by received_at`)
	if err != nil {
		return b.String() + err.Error()
	}
	defer rows.Close()
	for rows.Next() {
		var rcpt, sender, outcome string
		if err := rows.Scan(&rcpt, &sender, &outcome); err != nil {
			return b.String() + err.Error()
		}
		fmt.Fprintf(&b, "  inbound from %s to %s: %s\n", sender, rcpt, outcome)
	}
	return b.String()
}

// waitKind waits for the n-th mail of kind for address and returns it.
func (w *world) waitKind(address, kind string, n int) message {
	w.t.Helper()
	got := w.waitFor(address, fmt.Sprintf("%d %s mail(s)", n, kind), func(ms []message) bool { return len(ofKind(ms, kind)) >= n })
	return ofKind(got, kind)[n-1]
}

func ofKind(ms []message, kind string) []message {
	var out []message
	for _, m := range ms {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// countEvents counts the events of a game's stream.
func (w *world) countEvents(game string) int {
	w.t.Helper()
	var n int
	if err := w.pool.QueryRow(context.Background(), `select count(*) from events where stream = $1`, play.Stream(game)).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// inboundDone waits until every stored inbound mail is processed and
// returns the outcome of the last one.
func (w *world) inboundDone() string {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var pending int
		var last string
		err := w.pool.QueryRow(context.Background(), `select count(*) filter (where processed_at is null),
			coalesce((select outcome from inbound_mail where processed_at is not null order by id desc limit 1), '')
			from inbound_mail`).Scan(&pending, &last)
		if err != nil {
			w.t.Fatal(err)
		}
		if pending == 0 {
			return last
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%d inbound mails still unprocessed after 20 s", pending)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// numbered returns the numbered moves of a mail's text: "1. bid 3 … 20",
// the first list numbered from 1 in turn (a wrapped item's lines joined),
// so that a sentence wrapped before a number ("… the sum was\n21. …") is
// no move.
var numberedRe = regexp.MustCompile(`^\s*(\d+)\.\s+(.+?)\s*$`)

func numbered(text string) map[int]string {
	out := map[int]string{}
	last := 0
	for l := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		m := numberedRe.FindStringSubmatch(l)
		if m != nil {
			if n, _ := strconv.Atoi(m[1]); n == last+1 {
				out[n], last = m[2], n
				continue
			}
		}
		switch {
		case last > 0 && m == nil && strings.HasPrefix(l, "     ") && strings.TrimSpace(l) != "":
			out[last] += " " + strings.TrimSpace(l) // a wrapped item
		case last > 0:
			return out
		}
	}
	return out
}

// reply writes a reply to m from address: body above, the whole mail
// quoted below in the given style.
func reply(from string, m message, body, style string) string {
	quoted := quote(m, style)
	return fmt.Sprintf("From: %s\nTo: %s\nSubject: Re: %s\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nDate: %s\nContent-Type: text/plain; charset=utf-8\n\n%s\n\n%s\n",
		from, m.ReplyTo, m.Subject, newMessageID(), m.MessageID, time.Now().Format(time.RFC1123Z), body, quoted)
}

var idCounter struct {
	sync.Mutex
	n int
}

func newMessageID() string {
	idCounter.Lock()
	defer idCounter.Unlock()
	idCounter.n++
	return fmt.Sprintf("reply-%d-%d@players.test", time.Now().UnixNano(), idCounter.n)
}

// quote quotes a mail's text as a mail program would.
func quote(m message, style string) string {
	text := strings.ReplaceAll(m.Text, "\r\n", "\n")
	switch style {
	case "gmail":
		return "On Tue, 24 Nov 2026 at 10:00, courrier <play@courrier.test> wrote:\n" + quoted(text)
	case "outlook":
		return "________________________________\nFrom: courrier <play@courrier.test>\nSent: Tuesday, November 24, 2026 10:00 AM\nTo: player\nSubject: " + m.Subject + "\n\n" + text
	case "french":
		return "Le mar. 24 nov. 2026 à 10:00, courrier <play@courrier.test> a écrit :\n" + quoted(text)
	case "german":
		return "Am 24.11.2026 um 10:00 schrieb courrier <play@courrier.test>:\n" + quoted(text)
	case "spanish":
		return "El mar, 24 nov 2026 a las 10:00, courrier (<play@courrier.test>) escribió:\n" + quoted(text)
	case "italian":
		return "Il giorno mar 24 nov 2026 alle ore 10:00 courrier <play@courrier.test> ha scritto:\n" + quoted(text)
	case "gmail-fr":
		return "Le mar. 24 nov. 2026 à 10:00, courrier <play@courrier.test> a\nécrit\u00a0:\n\n" + quoted(text)
	case "outlook-fr":
		return "________________________________\nDe : courrier <play@courrier.test>\nEnvoyé : mardi 24 novembre 2026 10:00\nÀ : joueur\nObjet : " + m.Subject + "\n\n" + text
	case "apple-fr":
		return "Envoyé de mon iPhone\n\n> Le 24 nov. 2026 à 10:00, courrier <play@courrier.test> a écrit :\n> \n" + quoted(text)
	case "thunderbird-fr":
		return "Le 24/11/2026 à 10:00, courrier a écrit :\n" + quoted(text)
	case "zimbra-fr":
		return "----- Mail original -----\nDe: \"courrier\" <play@courrier.test>\nÀ: joueur\nEnvoyé: Mardi 24 Novembre 2026 10:00:00\nObjet: " + m.Subject + "\n\n" + text
	case "signature":
		return "-- \nAna Lima\nSent from my iPhone\n\n" + "On Tue, 24 Nov 2026 at 10:00, courrier <play@courrier.test> wrote:\n" + quoted(text)
	case "none":
		return ""
	}
	return quoted(text)
}

// quoted prefixes every line of text with "> ".
func quoted(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

// confirmed makes address an account whose owner proved it (as a sign-in
// link would), so its mail commands may write to others.
func (w *world) confirmed(address string) {
	w.t.Helper()
	u, err := w.users.Ensure(w.t.Context(), address)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := w.users.Confirm(w.t.Context(), u.ID); err != nil {
		w.t.Fatal(err)
	}
}

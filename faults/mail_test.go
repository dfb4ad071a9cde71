package faults_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	mrand "math/rand/v2"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5"
)

// relayMode is how the stand-in relay answers.
type relayMode int

const (
	relayOK       relayMode = iota
	relayTempFail           // 451 to MAIL FROM: try again later
	relayPermFail           // 550 to RCPT TO: refused for good
	relayHang               // no answer to EHLO at all
)

func (m relayMode) String() string {
	return [...]string{"up", "refusing with 4xx", "refusing with 5xx", "hanging"}[m]
}

// relayedMail is one message the stand-in relay took.
type relayedMail struct {
	to        string
	messageID string
	kind      string
	replyTo   string
	text      string
}

// fakeRelay is a real SMTP server on loopback standing in for the
// outbound relay: it keeps what it takes, and its mode says whether it
// takes anything.
type fakeRelay struct {
	mu        sync.Mutex
	mode      relayMode
	got       []relayedMail
	takenAt   map[string][]time.Time // Message-ID → when it was taken, each time
	afterData func()                 // called once a message is taken (the fault's trigger), then cleared
	refused   int                    // recipients refused with 550
	addr      string
}

func startRelay(t *testing.T) *fakeRelay {
	t.Helper()
	r := &fakeRelay{takenAt: map[string][]time.Time{}}
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(r)
	srv.Domain = "relay.test"
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	r.addr = ln.Addr().String()
	return r
}

func (r *fakeRelay) setMode(m relayMode) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mode = m
}

func (r *fakeRelay) currentMode() relayMode {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mode
}

// NewSession is called at EHLO: a hanging relay never answers it (until
// it stops hanging).
func (r *fakeRelay) NewSession(*smtp.Conn) (smtp.Session, error) {
	for i := 0; r.currentMode() == relayHang && i < 600; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	return &relaySession{r: r}, nil
}

type relaySession struct {
	r  *fakeRelay
	to string
}

func (s *relaySession) Reset()        { s.to = "" }
func (s *relaySession) Logout() error { return nil }

func (s *relaySession) Mail(string, *smtp.MailOptions) error {
	if s.r.currentMode() == relayTempFail {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	return nil
}

func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.r.currentMode() == relayPermFail {
		s.r.mu.Lock()
		s.r.refused++
		s.r.mu.Unlock()
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "relaying denied"}
	}
	s.to = to
	return nil
}

var headerLine = regexp.MustCompile(`(?mi)^(message-id|x-courrier-kind|reply-to):[ \t]*(.*)$`)

func (s *relaySession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := relayedMail{to: s.to}
	head, body, _ := bytes.Cut(b, []byte("\r\n\r\n"))
	for _, h := range headerLine.FindAllSubmatch(bytes.ReplaceAll(head, []byte("\r\n "), []byte(" ")), -1) {
		v := strings.TrimSpace(string(h[2]))
		switch strings.ToLower(string(h[1])) {
		case "message-id":
			m.messageID = strings.Trim(v, "<>")
		case "x-courrier-kind":
			m.kind = v
		case "reply-to":
			if i := strings.LastIndexByte(v, '<'); i >= 0 {
				v = v[i:]
			}
			m.replyTo = strings.Trim(v, "<>")
		}
	}
	m.text = plainText(body)
	s.r.mu.Lock()
	s.r.got = append(s.r.got, m)
	s.r.takenAt[m.messageID] = append(s.r.takenAt[m.messageID], time.Now())
	hook := s.r.afterData
	s.r.afterData = nil
	s.r.mu.Unlock()
	if hook != nil {
		hook()
	}
	return nil
}

// plainText is the text/plain part of a message body, quoted-printable
// decoded enough for the lines the bots read (numbered moves, links).
func plainText(body []byte) string {
	s := string(body)
	if i := strings.Index(s, "Content-Type: text/plain"); i >= 0 {
		s = s[i:]
		if _, rest, ok := strings.Cut(s, "\r\n\r\n"); ok {
			s = rest
		}
		if j := strings.Index(s, "\r\n--"); j >= 0 {
			s = s[:j]
		}
	}
	s = strings.ReplaceAll(s, "=\r\n", "")
	s = strings.ReplaceAll(s, "=3D", "=")
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func (r *fakeRelay) all() []relayedMail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// refusals is how many recipients the relay refused with 550.
func (r *fakeRelay) refusals() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refused
}

// takes returns when each mail was taken.
func (r *fakeRelay) takes() map[string][]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.takenAt)
}

// texts returns the texts of the mails taken for email.
func (r *fakeRelay) texts(email string) []string {
	var out []string
	for _, m := range r.all() {
		if strings.EqualFold(m.to, email) {
			out = append(out, m.text)
		}
	}
	return out
}

// promptID reads a prompt's game, version and seat from its Message-ID
// (g.<game>.v<version>.s<seat>.<label>@domain).
var promptID = regexp.MustCompile(`^g\.([a-z0-9]+)\.v(\d+)\.s(\d+)\.`)

// numberedMove is a numbered move of a prompt; a move that takes a value
// shows its range ("2. bid 3 … 250"), and a reply gives the number and the
// range's low end ("2 3").
var numberedMove = regexp.MustCompile(`(?m)^\s*(\d+)\.\s+\S(?:.*?(\d+) … \d+)?`)

// mailBots answer the prompts the relay took by replying through serve's
// inbound SMTP server, as players would: the newest prompt of each seat,
// with one of its numbered moves. A reply that got no 250 is sent again,
// the same message (same Message-ID), until it gets one.
type mailBots struct {
	t        *testing.T
	relay    *fakeRelay
	smtpAddr func() string
	mu       sync.Mutex
	answered map[string]bool   // prompt Message-ID → answered
	newest   map[string]int    // game/seat → newest prompt version answered
	pending  []botReply        // replies not yet taken
	accepted map[string]string // reply Message-ID → prompt Message-ID
	perUser  map[string]int    // replies per player (courrier takes 60 an hour from one sender)
	retries  atomic.Int64
	// players are those the bots answer for (nil: every player).
	players map[string]bool
	// afterAccept is called once a reply was taken (the fault's trigger),
	// then cleared.
	afterAccept func()
}

type botReply struct {
	from, to, messageID, prompt string
	raw                         []byte
}

// run answers prompts until stop is closed.
func (mb *mailBots) run(stop <-chan struct{}) {
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
		mb.answerNew(n)
		mb.sendPending()
	}
}

// answerNew writes a reply to each seat's newest unanswered prompt.
func (mb *mailBots) answerNew(n int) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	for _, m := range mb.relay.all() {
		if (m.kind != "prompt" && m.kind != "reminder") || mb.answered[m.messageID] || mb.perUser[m.to] >= 50 ||
			(mb.players != nil && !mb.players[strings.ToLower(m.to)]) {
			continue
		}
		p := promptID.FindStringSubmatch(m.messageID)
		if p == nil {
			continue
		}
		version, _ := strconv.Atoi(p[2])
		seat := p[1] + "/" + p[3]
		if version < mb.newest[seat] {
			mb.answered[m.messageID] = true // superseded
			continue
		}
		moves := numberedMove.FindAllStringSubmatch(m.text, -1)
		if len(moves) == 0 || m.replyTo == "" {
			continue
		}
		move := moves[mrand.IntN(len(moves))] //nolint:gosec // G404: a bot's choice
		pick := move[1]
		if move[2] != "" {
			pick += " " + move[2]
		}
		id := fmt.Sprintf("bot-%d-%s@players.test", n, randomHex(6))
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: your move\r\nMessage-ID: <%s>\r\nIn-Reply-To: <%s>\r\nDate: %s\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n> It is your turn.\r\n",
			m.to, m.replyTo, id, m.messageID, time.Now().Format(time.RFC1123Z), pick)
		mb.answered[m.messageID] = true
		mb.newest[seat] = version
		mb.perUser[m.to]++
		mb.pending = append(mb.pending, botReply{from: m.to, to: m.replyTo, messageID: id, prompt: m.messageID, raw: []byte(raw)})
	}
}

// sendPending sends each waiting reply once; those not taken wait for the
// next round.
func (mb *mailBots) sendPending() {
	mb.mu.Lock()
	todo := mb.pending
	mb.pending = nil
	mb.mu.Unlock()
	var left []botReply
	for _, r := range todo {
		if err := sendMail(mb.smtpAddr(), r.from, r.to, r.raw); err != nil {
			mb.retries.Add(1)
			left = append(left, r)
			continue
		}
		mb.mu.Lock()
		mb.accepted[r.messageID] = r.prompt
		hook := mb.afterAccept
		mb.afterAccept = nil
		mb.mu.Unlock()
		if hook != nil {
			hook()
		}
	}
	mb.mu.Lock()
	mb.pending = append(left, mb.pending...)
	mb.mu.Unlock()
}

// sendMail delivers one message to courrier's inbound server; nil only
// when it answered 250 to the message.
func sendMail(addr, from, to string, raw []byte) error {
	d := net.Dialer{Timeout: 2 * time.Second}
	conn, err := d.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	c := smtp.NewClient(conn)
	defer func() { _ = c.Close() }()
	if err := c.Hello("players.test"); err != nil {
		return err
	}
	if err := c.SendMail(from, []string{to}, bytes.NewReader(raw)); err != nil {
		return err
	}
	_ = c.Quit()
	return nil
}

// The relay refusing with 4xx, then 5xx, then hanging, then back, with
// serve killed (-9) just after the relay took a mail and just after
// serve took a reply, while players play by mail (and, where a prompt
// never came, on the site): every mail is delivered or, refused for good,
// recorded and listed; a mail is taken again at most once per crash and
// always with the same Message-ID; every reply taken with 250 is
// processed, none twice.
func TestRelayFailuresAndKillsDuringMail(t *testing.T) {
	c := newCluster(t)
	relay := startRelay(t)
	s := c.startServe("COURRIER_SMTP_RELAY=smtp://"+relay.addr, "COURRIER_JOB_TIMEOUT=2s")
	var mu sync.Mutex
	current := func() *serve { mu.Lock(); defer mu.Unlock(); return s }
	tb := newTable(t, func() []string { return []string{current().base} })
	tb.inbox = relay.texts
	const games = 4
	var tables [][]string
	for g := range games {
		var players []string
		for _, n := range []string{"ana", "bob", "cleo"} {
			e := fmt.Sprintf("%s%d@players.test", n, g)
			tb.signIn(e)
			players = append(players, e)
		}
		tables = append(tables, players)
	}
	bots := newMailBots(t, relay, func() string { return current().smtpAddr })
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { bots.run(stop) })
	for _, players := range tables {
		wg.Go(func() { tb.playByMail(relay, players, stop) })
	}
	var killedAt []time.Time // guarded by mu
	restart := func() {
		mu.Lock()
		defer mu.Unlock()
		s.kill()
		killedAt = append(killedAt, time.Now())
		time.Sleep(jitter(50*time.Millisecond, 300*time.Millisecond))
		if err := s.launch(); err != nil { // on the relay's or the bots' goroutine
			t.Error(err)
		}
	}
	// killWhen arms a trigger and waits (at most 10 s) for it to fire.
	var missed atomic.Int32
	killWhen := func(arm func(func())) {
		fired := make(chan struct{})
		arm(func() { restart(); close(fired) })
		select {
		case <-fired:
		case <-time.After(10 * time.Second):
			arm(nil)
			missed.Add(1)
			t.Log("a kill trigger did not fire in 10 s")
		}
	}
	afterDelivery := func(f func()) { relay.mu.Lock(); relay.afterData = f; relay.mu.Unlock() }
	afterReply := func(f func()) { bots.mu.Lock(); bots.afterAccept = f; bots.mu.Unlock() }
	phase := func(m relayMode, d time.Duration) {
		relay.setMode(m)
		time.Sleep(d)
	}
	rounds := 1
	if *full {
		rounds = 5
	}
	for r := range rounds {
		phase(relayOK, 3*time.Second)
		killWhen(afterDelivery)
		phase(relayOK, 2*time.Second)
		phase(relayTempFail, 3*time.Second)
		phase(relayOK, 2*time.Second)
		killWhen(afterReply)
		// The 5xx phase lasts until it has refused a mail (10 s at most).
		refusedBefore := relay.refusals()
		phase(relayPermFail, 2*time.Second)
		for end := time.Now().Add(8 * time.Second); relay.refusals() == refusedBefore && time.Now().Before(end); {
			time.Sleep(100 * time.Millisecond)
		}
		phase(relayOK, 2*time.Second)
		phase(relayHang, 3*time.Second)
		phase(relayOK, 2*time.Second)
		killWhen(afterDelivery)
		killWhen(afterReply)
		phase(relayOK, 3*time.Second)
		bots.mu.Lock()
		replies := len(bots.accepted)
		bots.mu.Unlock()
		mu.Lock()
		kills := len(killedAt)
		mu.Unlock()
		t.Logf("round %d: %d mails taken by the relay, %d replies taken by serve, %d kills", r+1, len(relay.all()), replies, kills)
	}
	close(stop)
	wg.Wait()
	mu.Lock()
	kills := len(killedAt)
	mu.Unlock()
	if m := missed.Load(); 2*int(m) > 4*rounds {
		t.Errorf("%d of %d kill triggers did not fire: the crashes this scenario is about did not happen", m, 4*rounds)
	}

	// Let every mail job finish: retries of refused mail, and jobs a kill
	// left running (rescued after three job timeouts). Reminders due in a
	// day are not waited for.
	ctx := t.Context()
	conn := c.pgConn(t)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var open int
		if err := conn.QueryRow(ctx, `select count(*) from river_job where kind like 'mail.%'
			and state not in ('completed', 'cancelled', 'discarded') and scheduled_at < now() + interval '10 minutes'`).Scan(&open); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			var states string
			_ = conn.QueryRow(ctx, `select string_agg(state || ' ' || kind || ' attempt ' || attempt || ' at ' || coalesce(scheduled_at::text, ''), '; ')
				from (select * from river_job where kind like 'mail.%' and state not in ('completed', 'cancelled', 'discarded')
					and scheduled_at < now() + interval '10 minutes' limit 8) j`).Scan(&states)
			t.Fatalf("%d mail jobs still unfinished two minutes after the faults (now %s): %s", open, time.Now().UTC().Format(time.TimeOnly), states)
		}
		time.Sleep(500 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // a last delivery's answer

	// Every mail logged is delivered, or refused for good by the 5xx phase.
	rows, err := conn.Query(ctx, `select message_id, sent_at is not null, failed_at is not null, skipped is not null, coalesce(last_error, '') from mail_log`)
	if err != nil {
		t.Fatal(err)
	}
	type logged struct {
		id                    string
		sent, failed, skipped bool
		lastError             string
	}
	logRows, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (logged, error) {
		var l logged
		return l, r.Scan(&l.id, &l.sent, &l.failed, &l.skipped, &l.lastError)
	})
	if err != nil {
		t.Fatal(err)
	}
	takes := relay.takes()
	inLog := map[string]bool{}
	var sent, failed, skipped, resent, undelivered int
	var failedIDs []string
	for _, l := range logRows {
		inLog[l.id] = true
		switch {
		case l.sent:
			sent++
			if len(takes[l.id]) == 0 {
				t.Errorf("mail %s is logged as sent but the relay never took it", l.id)
			}
		case l.failed:
			failed++
			failedIDs = append(failedIDs, l.id)
			if !strings.Contains(l.lastError, "550") {
				t.Errorf("mail %s failed for good without a 5xx: %s", l.id, l.lastError)
			}
		case l.skipped:
			skipped++ // begun, then superseded (the turn was played on the site)
		default:
			undelivered++
			t.Errorf("mail %s is neither delivered nor failed: %s", l.id, l.lastError)
		}
	}
	// A mail is taken again only after a crash that came after it was
	// taken: at most one resend per crash, each explained by one.
	for id, at := range takes {
		if !inLog[id] {
			t.Errorf("the relay took %s, which is not in the mail log", id)
		}
		for i := 1; i < len(at); i++ {
			if !slices.ContainsFunc(killedAt, func(k time.Time) bool { return !k.Before(at[i-1]) && !k.After(at[i]) }) {
				t.Errorf("mail %s was taken again at %s with no crash since it was taken at %s",
					id, at[i].Format(time.TimeOnly+".000"), at[i-1].Format(time.TimeOnly+".000"))
			}
		}
		resent += len(at) - 1
	}
	if failed > 0 {
		out := c.courrier("mail", "list", "-failed")
		for _, id := range failedIDs {
			if !strings.Contains(out, id) {
				t.Errorf("courrier mail list -failed does not show %s:\n%s", id, out)
				break
			}
		}
	} else {
		t.Error("no mail failed for good: the 5xx phase refused nothing")
	}

	byMail, twice := checkReplies(t, conn, bots)
	c.check(tb)
	t.Logf("TestRelayFailuresAndKillsDuringMail: %d kills -9; relay: %d mails sent, %d resent (same Message-ID), %d refused for good and listed, %d begun and then superseded, %d undelivered; "+
		"%d replies taken (%d sends retried), %d moves by mail, %d played twice; %d moves on the site",
		kills, sent, resent, failed, skipped, undelivered, len(bots.accepted), bots.retries.Load(), byMail, twice, tb.moves.Load())
	current().stop()
}

// newMailBots returns bots answering the prompts relay took through the
// inbound SMTP server at smtpAddr.
func newMailBots(t *testing.T, relay *fakeRelay, smtpAddr func() string) *mailBots {
	return &mailBots{t: t, relay: relay, smtpAddr: smtpAddr,
		answered: map[string]bool{}, newest: map[string]int{}, accepted: map[string]string{}, perUser: map[string]int{}}
}

// playByMail plays games among players by mail until stop is closed (the
// bots answer their prompts); when no prompt came for a few seconds (a
// mail refused for good, or still to be retried), a player opens the site
// and moves there; a finished game is followed by another.
func (tb *table) playByMail(relay *fakeRelay, players []string, stop <-chan struct{}) {
	game := tb.newGame(players)
	last, lastCount := time.Now(), 0
	for {
		select {
		case <-stop:
			return
		case <-time.After(200 * time.Millisecond):
		}
		n := 0 // the mails to this table's players: another table's mail is no prompt of theirs
		for _, m := range relay.all() {
			if slices.ContainsFunc(players, func(p string) bool { return strings.EqualFold(p, m.to) }) {
				n++
			}
		}
		if n != lastCount {
			last, lastCount = time.Now(), n
		}
		if time.Since(last) < 4*time.Second {
			continue
		}
		if _, finished := tb.step(game, players); finished {
			game = tb.newGame(players)
		}
		last = time.Now()
	}
}

// checkReplies checks that every reply serve took with 250 was processed
// and that none was played twice; it returns the moves played by mail and
// the replies played twice.
func checkReplies(t *testing.T, conn *pgx.Conn, bots *mailBots) (byMail, twice int) {
	t.Helper()
	ctx := t.Context()
	bots.mu.Lock()
	accepted := slices.Collect(maps.Keys(bots.accepted))
	bots.mu.Unlock()
	var unprocessed int
	for _, id := range accepted {
		var done bool
		err := conn.QueryRow(ctx, `select bool_and(processed_at is not null) from inbound_mail where message_id = $1`, id).Scan(&done)
		if err != nil || !done {
			unprocessed++
		}
	}
	if unprocessed > 0 {
		t.Errorf("%d of %d replies taken with 250 were lost or never processed", unprocessed, len(accepted))
	}
	if err := conn.QueryRow(ctx, `select count(*) from (select message_id from event_context where message_id is not null
		group by message_id having count(*) > 1) d`).Scan(&twice); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `select count(*) from event_context where message_id like 'bot-%'`).Scan(&byMail); err != nil {
		t.Fatal(err)
	}
	if twice > 0 {
		t.Errorf("%d replies were played twice", twice)
	}
	if byMail == 0 {
		t.Error("no move was played by mail")
	}
	return byMail, twice
}

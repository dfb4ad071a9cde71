package notify_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games/catalog"
	"github.com/courrier-games/courrier/migrations/pgtest"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// The SMTP server never hangs on a malformed message: each is answered,
// taken or refused, within the read timeout (a configured bound; the tests
// set a small one, and wait far longer for the answer: a liveness check,
// not a timing one).

// malformedTimeout is the server's read timeout in these tests.
const malformedTimeout = 2 * time.Second

// clientPatience is how long the test's client waits for an answer.
const clientPatience = 10 * malformedTimeout

// smtpSession is a raw SMTP session of the tests of malformed mail: it
// sends bytes as they are, and reads a reply within clientPatience.
type smtpSession struct {
	conn net.Conn
	c    *textproto.Conn
}

func dialSession(ctx context.Context, addr string) (*smtpSession, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &smtpSession{conn: conn, c: textproto.NewConn(conn)}
	if code, msg, err := s.reply(); err != nil || code != 220 {
		_ = conn.Close()
		return nil, errors.Join(err, errors.New("greeting: "+msg))
	}
	return s, nil
}

// reply reads one reply, waiting clientPatience at most.
func (s *smtpSession) reply() (int, string, error) {
	_ = s.conn.SetReadDeadline(time.Now().Add(clientPatience))
	return s.c.ReadResponse(0)
}

// cmd sends a command and reads its reply.
func (s *smtpSession) cmd(line string) (int, string, error) {
	if err := s.c.PrintfLine("%s", line); err != nil {
		return 0, "", err
	}
	return s.reply()
}

// message opens a transaction to the service address and sends DATA and
// body as it is (the end marker included or not), and reads the answer.
func (s *smtpSession) message(body []byte) (int, string, error) {
	for _, line := range []string{"EHLO mx.players.test", "MAIL FROM:<ana@players.test>", "RCPT TO:<play@" + domain + ">"} {
		if code, msg, err := s.cmd(line); err != nil || code != 250 {
			return code, msg, errors.Join(err, errors.New(line+": "+msg))
		}
	}
	if code, msg, err := s.cmd("DATA"); err != nil || code != 354 {
		return code, msg, errors.Join(err, errors.New("DATA: "+msg))
	}
	if _, err := s.conn.Write(body); err != nil {
		return 0, "", err
	}
	return s.reply()
}

func (s *smtpSession) close() { _ = s.c.Close() }

func TestMalformedMessagesAreAnswered(t *testing.T) {
	w := newWorld(t, 31, func(c *notify.Config) { c.Inbound.ReadTimeout = malformedTimeout })
	end := "\r\n.\r\n"
	long := strings.Repeat("y", 2000)
	huge := strings.Repeat("z", notify.MaxInboundBytes+1000)
	for _, tc := range []struct {
		name   string
		body   string // after DATA, as sent
		code   int    // the answer to the message
		stored string // the message as stored, when taken
	}{
		// The hang of issue 32: go-smtp's reader took the \r before \r\n
		// for data, and never saw the end.
		{"lines ending in CR CR LF", "Subject: x\r\r\n\r\r\nbid 3\r\r\n.\r\n", 250, "Subject: x\r\r\n\r\r\nbid 3\r\r\n"},
		{"a dot-stuffed line after CR CR LF", "Subject: x\r\n\r\na\r\r\n..b\r\n.\r\n", 250, "Subject: x\r\n\r\na\r\r\n.b\r\n"},
		{"a bare CR", "Subject: x\r\n\r\none\rtwo" + end, 250, "Subject: x\r\n\r\none\rtwo\r\n"},
		{"a line of a dot and a bare CR", "Subject: x\r\n\r\n.\rX" + end, 250, "Subject: x\r\n\r\n\rX\r\n"},
		{"bare LFs", "Subject: x\n\none\ntwo" + end, 250, "Subject: x\n\none\ntwo\r\n"},
		{"NUL bytes, in a header and the Message-ID too", "Subject: x\x00\r\nMessage-ID: <n\x00ul@players.test>\r\n\r\nbid\x003" + end, 250, "Subject: x\x00\r\nMessage-ID: <n\x00ul@players.test>\r\n\r\nbid\x003\r\n"},
		{"a 2,000-byte line", "Subject: x\r\n\r\n" + long + end, 250, "Subject: x\r\n\r\n" + long + "\r\n"},
		{"a line longer than the largest mail", "Subject: x\r\n\r\n" + huge + end, 552, ""},
		// Not an end (RFC 5321, section 4.1.1.4: bare LFs are no line
		// end for the marker), so the message never ends.
		{"an end marker in bare LFs", "Subject: x\n\nbid 3\n.\n", 421, ""},
		{"a DATA that never ends", "Subject: x\r\n\r\nbid 3, and then the sender stops", 421, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := dialSession(t.Context(), w.inbound)
			if err != nil {
				t.Fatal(err)
			}
			defer s.close()
			code, msg, err := s.message([]byte(tc.body))
			if err != nil {
				t.Fatalf("no answer to the message within %v (the server's bound is %v): %v", clientPatience, malformedTimeout, err)
			}
			if code != tc.code {
				t.Fatalf("answered %d %s, want %d", code, msg, tc.code)
			}
			switch code {
			case 250:
				var raw []byte
				if err := w.pool.QueryRow(t.Context(), `select raw from inbound_mail order by id desc limit 1`).Scan(&raw); err != nil {
					t.Fatal(err)
				}
				if string(raw) != tc.stored {
					t.Fatalf("stored %q, want %q", raw, tc.stored)
				}
				if code, msg, err := s.cmd("NOOP"); err != nil || code != 250 {
					t.Fatalf("NOOP after it: %d %s %v", code, msg, err)
				}
			case 421:
				if !strings.Contains(msg, "did not end") || !strings.Contains(msg, malformedTimeout.String()) {
					t.Fatalf("the timeout's answer does not say what happened: %s", msg)
				}
				// 421 closes the connection.
				if _, _, err := s.reply(); !errors.Is(err, io.EOF) {
					t.Fatalf("after 421 the connection is not closed: %v", err)
				}
			case 552:
				if !strings.Contains(msg, "larger than courrier takes") {
					t.Fatalf("the size's answer does not say what happened: %s", msg)
				}
			}
		})
	}
	// CHUNKING's BDAT: a chunk shorter than it said, and then nothing.
	t.Run("a BDAT chunk that never ends", func(t *testing.T) {
		s, err := dialSession(t.Context(), w.inbound)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		for _, line := range []string{"EHLO mx.players.test", "MAIL FROM:<ana@players.test>", "RCPT TO:<play@" + domain + ">"} {
			if code, msg, err := s.cmd(line); err != nil || code != 250 {
				t.Fatalf("%s: %d %s %v", line, code, msg, err)
			}
		}
		if _, err := s.conn.Write([]byte("BDAT 100 LAST\r\nSubject: x\r\n")); err != nil {
			t.Fatal(err)
		}
		code, msg, err := s.reply()
		if err != nil || code != 421 || !strings.Contains(msg, "did not end") {
			t.Fatalf("answered %d %s, %v; want 421 saying the message did not end", code, msg, err)
		}
		if _, _, err := s.reply(); !errors.Is(err, io.EOF) {
			t.Fatalf("after 421 the connection is not closed: %v", err)
		}
	})
	// What was taken is processed too (a NUL in it stops nothing).
	w.inboundDone()
}

// noJobs queues nothing: the fuzz target's server stores mail and leaves
// it unprocessed.
type noJobs struct{}

func (noJobs) InsertTx(context.Context, pgx.Tx, river.JobArgs, *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return &rivertype.JobInsertResult{}, nil
}

// inboundOnly starts courrier's SMTP server alone on loopback, storing in
// a fresh database and processing nothing, with the given read timeout.
func inboundOnly(tb testing.TB, timeout time.Duration) (string, *pgxpool.Pool) {
	tb.Helper()
	pool := pgtest.New(tb)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	box := play.NewEphemeralSeedBox()
	svc := play.New(pool, catalog.Registry(), play.WithLogger(log), play.WithSeedBox(box))
	signer, err := notify.NewSigner(time.Now, notify.Key{ID: "20261126T000000Z-fuzz01", Secret: bytes.Repeat([]byte{9}, 32)})
	if err != nil {
		tb.Fatal(err)
	}
	mail, err := notify.New(mailstore.New(pool), svc, auth.NewUsers(pool), notify.Config{
		MailDomain: domain, Signer: signer, Archive: play.NewArchive(pool, catalog.Registry(), box),
		Inbound: notify.InboundLimits{ReadTimeout: timeout, MailsPerSender: -1, MailsPerReplyAddress: -1, ConnectionsPerMinute: -1},
	}, log)
	if err != nil {
		tb.Fatal(err)
	}
	in := mail.NewInboundServer(noJobs{})
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go func() { _ = in.Serve(ln) }()
	tb.Cleanup(func() { _ = in.Shutdown(context.Background()) })
	return ln.Addr().String(), pool
}

// Any DATA followed by the end marker is answered: taken (250) or too
// large (552), never left to the read timeout (421) nor refused as
// unstorable (451).
func FuzzInboundData(f *testing.F) {
	for _, seed := range []string{
		"Subject: x\r\n\r\nbid 3\r\n",
		"Subject: x\r\r\n\r\r\nbid 3\r\r\n",
		"Subject: x\r\n\r\na\r\r\n..b\r\n",
		"Subject: x\r\n\r\none\rtwo",
		"Subject: x\r\n\r\none\rtwo\r",
		"Subject: x\r\n\r\n.\rX",
		"Subject: x\n\none\ntwo\n",
		"Subject: x\x00\r\nMessage-ID: <n\x00ul@players.test>\r\n\r\nbid\x003",
		"Message-ID: <\xff\xfe@players.test>\r\n\r\n\xc3",
		"Subject: x\r\n\r\n" + strings.Repeat("y", 2000),
		"\r\n.\r\nMAIL FROM:<x@y>\r\n",
		".",
		"",
		"\r",
		"\r\r\r\n.\r\r\n",
	} {
		f.Add([]byte(seed))
	}
	// One server for every input, a session each.
	addr, _ := inboundOnly(f, 5*time.Second)
	f.Fuzz(func(t *testing.T, body []byte) {
		s, err := dialSession(t.Context(), addr)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		code, msg, err := s.message(append(body, "\r\n.\r\n"...))
		if err != nil {
			t.Fatalf("no answer to DATA %q: %v", body, err)
		}
		if code != 250 && code != 552 {
			t.Fatalf("DATA %q answered %d %s", body, code, msg)
		}
	})
}

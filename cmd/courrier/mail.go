package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/courrier-games/courrier/api"
	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/notify"
	"github.com/courrier-games/courrier/notify/mailstore"
	"github.com/courrier-games/courrier/play"
)

// lateJobs lets play insert jobs through a River client made after it (the
// client's workers need the mail service, which needs play).
type lateJobs struct{ client *river.Client[pgx.Tx] }

// InsertManyTx implements play.JobInserter.
func (l *lateJobs) InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return l.client.InsertManyTx(ctx, tx, params)
}

// replySigner returns the reply-token signer of the data directory's reply
// keys.
func replySigner(dataDir string, now func() time.Time) (*notify.Signer, error) {
	keys, err := loadKeys(dataDir, keyReply)
	if err != nil {
		return nil, err
	}
	ks := make([]notify.Key, len(keys))
	for i, k := range keys {
		ks[i] = notify.Key{ID: k.id, Secret: k.secret}
	}
	return notify.NewSigner(now, ks[0], ks[1:]...)
}

// mailRelay is the relay of COURRIER_SMTP_RELAY, trusting the
// certificates of COURRIER_SMTP_RELAY_CA beside the system's, or nil for
// the dev mailbox.
func mailRelay(cfg config) (*notify.Relay, error) {
	if cfg.SMTPRelay == "" {
		if cfg.SMTPRelayCA != "" {
			return nil, usageError{msg: "COURRIER_SMTP_RELAY_CA is set but COURRIER_SMTP_RELAY is not: the dev mailbox uses no relay"}
		}
		return nil, nil
	}
	r, err := notify.ParseRelay(cfg.SMTPRelay, cfg.MailDomain)
	if err != nil {
		return nil, err
	}
	if cfg.SMTPRelayCA != "" {
		if err := r.TrustCAFile(cfg.SMTPRelayCA); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// mailTransport is mailRelay as a transport: nil (no relay) stays nil.
func mailTransport(cfg config) (notify.Transport, error) {
	r, err := mailRelay(cfg)
	if r == nil || err != nil {
		return nil, err
	}
	return r, nil
}

// mailDescription says where mail goes, for the start-up log: the dev
// mailbox, or the relay's URL without its password (and the CA file
// trusted for it).
func mailDescription(cfg config) string {
	r, err := mailRelay(cfg)
	switch {
	case err != nil:
		return "relay (" + err.Error() + ")"
	case r == nil:
		return "dev mailbox (" + strings.TrimRight(cfg.BaseURL, "/") + "/dev/mail, courrier mail list)"
	case cfg.SMTPRelayCA != "":
		return "relay " + r.String() + " (trusting the certificates of " + cfg.SMTPRelayCA + ")"
	}
	return "relay " + r.String()
}

// warnHTTPUnsubscribe warns, when mail goes to a relay, that a base URL
// other than https makes the one-click unsubscribe links http, which RFC
// 8058 does not allow (mail providers may not offer them). The dev
// mailbox is not warned about.
func warnHTTPUnsubscribe(cfg config, log *slog.Logger) {
	if cfg.SMTPRelay == "" {
		return
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && strings.EqualFold(u.Scheme, "https") {
		return
	}
	log.Warn("COURRIER_BASE_URL is not https: the one-click unsubscribe links of every mail (List-Unsubscribe) are http, "+
		"which RFC 8058 does not allow; mail providers may not offer them", "base_url", cfg.BaseURL)
}

// mailFetchCooldown is the least time between two fetches of the mail
// queue, and of the default one, which works the inbound mail (see
// newRiver).
const mailFetchCooldown = 5 * time.Millisecond

// newRiver returns the River client working the game and mail queues,
// mailWorkers mail jobs at once (config.mailWorkers: sized from the pool
// unless set), first the people waiting, then the games' prompts, then
// reminders and lobby news (jobs.PriorityWaiting, …). A job runs for at
// most jobTimeout (a delivery to the relay included); one whose process
// died is run again three times that later. Mail jobs are retried quickly
// at first (1 s, 2 s, 4 s, …), and a mail that fails for good is recorded
// by handler.
func newRiver(pool *pgxpool.Pool, workers *river.Workers, mailWorkers int, jobTimeout time.Duration, handler river.ErrorHandler, log *slog.Logger) (*river.Client[pgx.Tx], error) {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger: log,
		Queues: map[string]river.QueueConfig{
			jobs.QueueDefault: {MaxWorkers: 10, FetchCooldown: mailFetchCooldown}, // inbound mail and deadlines: the same cap otherwise
			// A queue fetches again when a worker frees up, but at most once
			// a FetchCooldown: at River's 100 ms, mail would go out at no
			// more than ten times its workers a second however short a job
			// is. Mail fetches as soon as a few milliseconds later; the
			// insert notifications keep the client's cooldown.
			jobs.QueueMail: {MaxWorkers: mailWorkers, FetchCooldown: mailFetchCooldown},
		},
		Workers:              workers,
		FetchPollInterval:    200 * time.Millisecond,
		JobTimeout:           jobTimeout,
		RescueStuckJobsAfter: 3 * jobTimeout,
		RetryPolicy:          &notify.RetryPolicy{},
		ErrorHandler:         handler,
		Middleware:           []rivertype.Middleware{notify.JobIDMiddleware()},
		// REINDEX needs the tables' owner; the service role is not.
		ReindexerSchedule: river.NeverSchedule(),
	})
	if err != nil {
		return nil, fmt.Errorf("start the job queue: %w", err)
	}
	return c, nil
}

// mailCmd reads what courrier mailed: `courrier mail list [address]
// [-failed]` (the dev mailbox with no relay; the outgoing mail log, with
// each mail's delivery, when a relay is set; -failed: the mails that failed
// for good, either way) and `courrier mail show <id>` (one message of the
// dev mailbox). name is "mail list" or "mail show".
func mailCmd(ctx context.Context, name string, args []string, stdout io.Writer, log *slog.Logger) error {
	var failed bool
	cfg, rest, err := commandArgs(name, args, func(fs *flag.FlagSet) {
		if name == "mail list" {
			fs.BoolVar(&failed, "failed", false, "list only the mails that failed for good (refused by the relay, or undelivered after every attempt)")
		}
	})
	if err != nil {
		return err
	}
	var id int64
	switch {
	case name == "mail list" && len(rest) > 1:
		return usageError{msg: fmt.Sprintf("mail list takes one address at most, not %d", len(rest)), showUsage: true}
	case name == "mail show" && len(rest) != 1:
		return usageError{msg: "mail show takes the id of one message (courrier mail list shows them)", showUsage: true}
	case name == "mail show":
		if id, err = strconv.ParseInt(rest[0], 10, 64); err != nil {
			return usageError{msg: fmt.Sprintf("mail show %q: give the number of a message (courrier mail list shows them)", rest[0]), showUsage: true}
		}
	}
	db, err := openDatabase(ctx, cfg, name, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if name == "mail list" {
		to := ""
		if len(rest) == 1 {
			to = rest[0]
		}
		if failed || cfg.SMTPRelay != "" {
			return listMailLog(ctx, stdout, db, to, failed)
		}
		return listDevMailbox(ctx, stdout, db, to)
	}
	m, err := notify.NewDevMailbox(mailstore.New(db.Pool)).Get(ctx, id)
	if errors.Is(err, notify.ErrNoMail) {
		return fmt.Errorf("there is no message %d in the dev mailbox (courrier mail list shows them)", id)
	}
	if err != nil {
		return err
	}
	hdr := notify.HeaderLines(m.Raw, "From", "To", "Reply-To", "Date", "Subject", "Message-Id")
	_, err = fmt.Fprintf(stdout, "%s\n%s", hdr, notify.TextOf(m.Raw))
	return err
}

// listDevMailbox prints the dev mailbox, newest first, and a warning when
// mail failed for good.
func listDevMailbox(ctx context.Context, stdout io.Writer, db *database, to string) error {
	list, err := notify.NewDevMailbox(mailstore.New(db.Pool)).List(ctx, to, 100)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		_, _ = fmt.Fprintln(stdout, "the dev mailbox is empty")
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		_, _ = fmt.Fprintln(tw, "ID\tWHEN\tTO\tSUBJECT")
		for _, m := range list {
			_, _ = fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", m.ID, m.CreatedAt.Local().Format("2006-01-02 15:04:05"), strings.Join(m.To, ", "), m.Subject)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if err := printBacklog(ctx, stdout, db); err != nil {
		return err
	}
	return warnFailed(ctx, stdout, db)
}

// listMailLog prints the outgoing mail log, newest first: when each mail
// was made, to whom, what, and its delivery (sent; trying, with the
// attempts and the relay's last answer; failed, with why).
func listMailLog(ctx context.Context, stdout io.Writer, db *database, to string, failed bool) error {
	list, err := mailstore.New(db.Pool).MailLog(ctx, mailstore.MailLogFilter{To: to, Failed: failed})
	if err != nil {
		return err
	}
	if len(list) == 0 {
		if failed {
			_, err := fmt.Fprintln(stdout, "no mail failed")
			return err
		}
		_, _ = fmt.Fprintln(stdout, "no mail was sent yet")
		return printBacklog(ctx, stdout, db)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "WHEN\tTO\tKIND\tSTATUS\tATTEMPTS\tMESSAGE-ID\tSUBJECT / LAST ERROR")
	for _, m := range list {
		last := m.Subject
		switch {
		case m.Status() == "skipped":
			last = m.Skipped
		case m.Status() != "sent" && m.LastError != "":
			last = m.LastError
		}
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", m.CreatedAt.Local().Format("2006-01-02 15:04:05"),
			m.Recipient, m.Kind, m.Status(), m.Attempts, m.MessageID, last)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if failed {
		return nil
	}
	if err := printBacklog(ctx, stdout, db); err != nil {
		return err
	}
	return warnFailed(ctx, stdout, db)
}

// mailBacklog reads the mail waiting per priority for /metrics
// (api.Config.MailBacklog): api reads no queue itself.
func mailBacklog(store *mailstore.Store) func(context.Context) ([]api.MailWaiting, error) {
	return func(ctx context.Context) ([]api.MailWaiting, error) {
		list, err := store.MailBacklog(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]api.MailWaiting, 0, len(list))
		for _, w := range list {
			out = append(out, api.MailWaiting{Priority: w.Name, Count: w.Count, Oldest: w.Oldest})
		}
		return out, nil
	}
}

// printBacklog tells the operator what mail waits to be sent, per
// priority first worked first, with how long the oldest has waited:
// "waiting to be sent: waiting 0, game 42 (oldest 1m5s), later 3 (oldest
// 12s)".
func printBacklog(ctx context.Context, stdout io.Writer, db *database) error {
	list, err := mailstore.New(db.Pool).MailBacklog(ctx)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nwaiting to be sent: %s\n", mailstore.BacklogLine(list))
	return err
}

// warnFailed tells the operator how many mails failed for good.
func warnFailed(ctx context.Context, stdout io.Writer, db *database) error {
	n, err := mailstore.New(db.Pool).FailedMailCount(ctx)
	if err != nil || n == 0 {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\n%d mail(s) failed for good: courrier mail list -failed shows them and why\n", n)
	return err
}

// mailService builds the mail side on a database.
func mailService(cfg config, db *database, svc *play.Service, arc *play.Archive, loginKey []byte, log *slog.Logger) (*notify.Service, error) {
	signer, err := replySigner(cfg.DataDir, time.Now)
	if err != nil {
		return nil, err
	}
	transport, err := mailTransport(cfg)
	if err != nil {
		return nil, err
	}
	warnHTTPUnsubscribe(cfg, log)
	inbound, hourly, err := cfg.inboundLimits()
	if err != nil {
		return nil, err
	}
	firstHourly, firstDaily, err := cfg.firstContact()
	if err != nil {
		return nil, err
	}
	refusals, err := cfg.refusalsPerHour()
	if err != nil {
		return nil, err
	}
	return notify.New(mailstore.New(db.Pool), svc, auth.NewUsers(db.Pool), notify.Config{
		MailDomain: cfg.MailDomain, AuthservID: cfg.AuthservID, BaseURL: cfg.BaseURL, Transport: transport, Signer: signer, LoginKey: loginKey,
		Inbound: inbound, RepliesPerHour: hourly, RefusalsPerHour: refusals, FirstContactPerHour: firstHourly, FirstContactPerAddress: firstDaily,
		Archive: arc,
	}, log)
}

// devMailbox is the dev mailbox the API lists, or nil when mail goes to
// a relay.
func devMailbox(cfg config, db *database) api.DevMailbox {
	if cfg.SMTPRelay != "" {
		return nil
	}
	return devMailAPI{notify.NewDevMailbox(mailstore.New(db.Pool))}
}

// devMailAPI is notify's dev mailbox as the API lists it: api imports
// nothing of notify.
type devMailAPI struct{ box *notify.DevMailbox }

// Mail implements api.DevMailbox.
func (d devMailAPI) Mail(ctx context.Context, to string, limit int) ([]api.DevMessage, error) {
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

// sessionTTL is how long a session token lasts.
const sessionTTL = 12 * time.Hour

// keys holds the account keys of the data directory.
type keys struct {
	sessions *auth.Tokens
	login    []byte
	csrf     []byte
}

// accountKeys reads the JWT keys (made on first start) and derives the
// login-link key and the web's CSRF key from the current one.
func accountKeys(dataDir string) (keys, error) {
	files, err := loadKeys(dataDir, keyJWT)
	if err != nil {
		return keys{}, err
	}
	ks := make([]auth.Key, len(files))
	for i, f := range files {
		ks[i] = auth.Key{ID: f.id, Secret: f.secret}
	}
	tokens, err := auth.NewTokens("courrier", "courrier-api", sessionTTL, time.Now, ks[0], ks[1:]...)
	if err != nil {
		return keys{}, err
	}
	derive := func(use string) []byte {
		mac := hmac.New(sha256.New, files[0].secret)
		mac.Write([]byte(use))
		return mac.Sum(nil)
	}
	return keys{sessions: tokens, login: derive("courrier login links"), csrf: derive("courrier csrf tokens")}, nil
}

package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// config is the service's configuration: environment first, overridden by a
// flag of the same name.
type config struct {
	DatabaseURL string // DATABASE_URL; empty: local server, else embedded
	MigrateURL  string // COURRIER_DATABASE_URL_MIGRATE: the owner, for `courrier migrate`
	HTTPAddr    string // COURRIER_HTTP_ADDR
	SMTPAddr    string // COURRIER_SMTP_ADDR (inbound)
	SMTPTrusted string // COURRIER_SMTP_TRUSTED: relays not limited by address ("local", IPs, networks; "none")
	SMTPConns   string // COURRIER_SMTP_CONNECTION_LIMIT: connections a minute per address not trusted
	SMTPSenders string // COURRIER_SMTP_SENDER_LIMIT: mails a minute per envelope sender
	SMTPReplies string // COURRIER_SMTP_REPLY_LIMIT: mails a minute per reply address
	MailHourly  string // COURRIER_MAIL_HOURLY_LIMIT: mails an hour per From address processed
	MailRefuse  string // COURRIER_MAIL_REFUSAL_LIMIT: refusals an hour per sender and game
	SMTPTimeout string // COURRIER_SMTP_READ_TIMEOUT: wait for a command, and for a whole message
	FirstHourly string // COURRIER_FIRST_CONTACT_PER_HOUR: mails an hour to unconfirmed addresses, all together
	FirstDaily  string // COURRIER_FIRST_CONTACT_PER_ADDRESS: mails a day to one unconfirmed address
	SMTPRelay   string // COURRIER_SMTP_RELAY (outbound; empty: dev mailbox)
	SMTPRelayCA string // COURRIER_SMTP_RELAY_CA: PEM certificates trusted for the relay, beside the system's
	MailDomain  string // COURRIER_MAIL_DOMAIN
	AuthservID  string // COURRIER_MAIL_AUTHSERV_ID: whose Authentication-Results are trusted (empty: MailDomain; "off": none)
	BaseURL     string // COURRIER_BASE_URL
	DataDir     string // COURRIER_DATA_DIR
	RateLimit   string // COURRIER_RATE_LIMIT: API requests a second per user (twice that per address); "off" or negative: none
	RefusalRate string // COURRIER_REFUSAL_LIMIT: refusals a second per address answered at once; "off": never slowed
	JobTimeout  string // COURRIER_JOB_TIMEOUT: how long one job (a delivery to the relay) may run
	MailWorkers string // COURRIER_MAIL_WORKERS: mail jobs worked at once ("": sized from the database pool)
	// EmbeddedPort is where the embedded server listens (tests move it).
	EmbeddedPort int
}

// setting describes one configuration variable.
type setting struct {
	env, def, help string
	dst            *string
}

func (c *config) settings() []setting {
	return []setting{
		{"DATABASE_URL", "", "PostgreSQL URL; empty: localhost:5432 if it answers, else an embedded server in the data directory", &c.DatabaseURL},
		{"COURRIER_DATABASE_URL_MIGRATE", "", "PostgreSQL URL of the schema's owner, for courrier migrate; empty: DATABASE_URL", &c.MigrateURL},
		{"COURRIER_HTTP_ADDR", ":8080", "HTTP listen address", &c.HTTPAddr},
		{"COURRIER_SMTP_ADDR", ":2525", "inbound SMTP listen address", &c.SMTPAddr},
		{"COURRIER_SMTP_TRUSTED", "local", "relays that hand courrier its mail (the MX in front of it), not limited per connecting address: a comma-separated list of IP addresses, networks (10.0.0.0/8) and local (this machine's own addresses: loopback and its interfaces'); none: trust none", &c.SMTPTrusted},
		{"COURRIER_SMTP_CONNECTION_LIMIT", "", "inbound SMTP connections a minute per address that is not a trusted relay (past it: 421, try later); empty: 30; off: no limit", &c.SMTPConns},
		{"COURRIER_SMTP_SENDER_LIMIT", "", "mails a minute courrier takes from one envelope sender (MAIL FROM), relayed or not (past it: 450, try later); empty: 60; off: no limit", &c.SMTPSenders},
		{"COURRIER_SMTP_REPLY_LIMIT", "", "mails a minute courrier takes at one reply address (past it: 450, try later); empty: 60; off: no limit", &c.SMTPReplies},
		{"COURRIER_MAIL_HOURLY_LIMIT", "", "mails an hour processed from one sender (its From address); past it mail is stored and set aside unread, and the sender told once an hour until when; empty: 600; off: no limit", &c.MailHourly},
		{"COURRIER_MAIL_REFUSAL_LIMIT", "", "refusals an hour one sender gets about one game (answers to mail that changed nothing); the last says so and until when; empty: 10; off: no limit", &c.MailRefuse},
		{"COURRIER_SMTP_READ_TIMEOUT", "2m", "how long the inbound SMTP server waits for a command, and for a whole message from DATA to its end; past it: 421 and the connection is closed", &c.SMTPTimeout},
		{"COURRIER_FIRST_CONTACT_PER_HOUR", "100", "mails an hour, all addresses together, to addresses whose owner has not confirmed them (confirmation requests, answers to strangers); past it such mail is not sent", &c.FirstHourly},
		{"COURRIER_FIRST_CONTACT_PER_ADDRESS", "1", "mails a day to one address whose owner has not confirmed it", &c.FirstDaily},
		{"COURRIER_SMTP_RELAY", "", "outbound relay smtp://user:pass@host:port; empty: the built-in dev mailbox", &c.SMTPRelay},
		{"COURRIER_SMTP_RELAY_CA", "", "PEM file of certificates trusted for the relay's TLS, beside the system's (a private CA, or the relay's self-signed certificate)", &c.SMTPRelayCA},
		{"COURRIER_MAIL_DOMAIN", "localhost", "domain of reply addresses", &c.MailDomain},
		{"COURRIER_MAIL_AUTHSERV_ID", "", "authserv-id of the Authentication-Results header the relay in front of the SMTP port adds (the topmost such header is trusted: dmarc=fail there refuses a mail); empty: the mail domain; off: trust none", &c.AuthservID},
		{"COURRIER_BASE_URL", "http://localhost:8080", "public URL of the service", &c.BaseURL},
		{"COURRIER_DATA_DIR", defaultDataDir(), "where secrets and the embedded database live", &c.DataDir},
		{"COURRIER_JOB_TIMEOUT", "1m", "how long one background job may run, a delivery to the SMTP relay included (a relay that hangs is given up on then and tried again); a job whose process died is run again three times this later", &c.JobTimeout},
		{"COURRIER_MAIL_WORKERS", "", "mail jobs rendered and sent at once; empty: sized from the database pool (pool_max_conns in the URL): eight a connection, 8 to 64", &c.MailWorkers},
		{"COURRIER_RATE_LIMIT", "", "API requests a second allowed per user, and twice that per client address (this machine's own are not limited by address); empty: 50; off or negative: no limit", &c.RateLimit},
		{"COURRIER_REFUSAL_LIMIT", "", "refused requests (malformed, bad token, unknown path) a second per client address answered at once, with bursts of five times that; past it each waits a second; empty: 20; off: never slowed", &c.RefusalRate},
	}
}

// flagName is the flag of an environment variable: DATABASE_URL →
// database-url, COURRIER_HTTP_ADDR → http-addr.
func flagName(env string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(env, "COURRIER_")), "_", "-")
}

// loadConfig reads the environment, then parses args as the flags of
// command name over it.
func loadConfig(name string, args []string, getenv func(string) string) (config, error) {
	return loadConfigWith(name, args, getenv, nil)
}

// loadConfigWith is loadConfig for a command with flags of its own, which
// more registers.
func loadConfigWith(name string, args []string, getenv func(string) string, more func(*flag.FlagSet)) (config, error) {
	var c config
	fs := newFlagSet(name)
	c.flags(name, fs, getenv, more)
	if err := noArguments(name, fs, args); err != nil {
		return c, err
	}
	return c, nil
}

// flags reads every setting from the environment (getenv), or its default,
// and registers on fs the flags of command name: its own (registered by
// more) and the settings it takes as flags, over the environment's values.
func (c *config) flags(name string, fs *flag.FlagSet, getenv func(string) string, more func(*flag.FlagSet)) {
	cmd := commandNamed(name)
	if more != nil {
		more(fs)
	}
	for _, s := range c.settings() {
		v := getenv(s.env)
		if v == "" {
			v = s.def
		}
		*s.dst = v
		if cmd.takes(s.env) {
			fs.StringVar(s.dst, flagName(s.env), v, s.help+" ($"+s.env+")")
		}
	}
	c.EmbeddedPort = embeddedPort
}

// rateLimits reads COURRIER_RATE_LIMIT into api.Config's PerUser and
// PerAddress: empty, the API's defaults (0, 0); "off" or a negative number,
// no limit (-1, -1); else n a second per user and 2n per address.
func (c config) rateLimits() (perUser, perAddress rate.Limit, err error) {
	v := strings.TrimSpace(c.RateLimit)
	switch {
	case v == "":
		return 0, 0, nil
	case strings.EqualFold(v, "off"):
		return -1, -1, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil || n == 0 || math.IsInf(n, 0) || math.IsNaN(n):
		return 0, 0, usageError{msg: fmt.Sprintf("rate-limit %q: give requests a second per user (a positive number), off (or a negative number) for no limit, or nothing for the default", c.RateLimit)}
	case n < 0:
		return -1, -1, nil
	}
	return rate.Limit(n), rate.Limit(2 * n), nil
}

// refusalLimit reads COURRIER_REFUSAL_LIMIT into guard.Config's
// PerSecond: empty, the guard's default (0); "off", no guard (on false);
// else n refusals a second per address.
func (c config) refusalLimit() (perSecond rate.Limit, on bool, err error) {
	v := strings.TrimSpace(c.RefusalRate)
	switch {
	case v == "":
		return 0, true, nil
	case strings.EqualFold(v, "off"):
		return 0, false, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, false, usageError{msg: fmt.Sprintf("refusal-limit %q: give refused requests a second per address (a positive number), off to never slow them, or nothing for the default", c.RefusalRate)}
	}
	return rate.Limit(n), true, nil
}

// jobTimeout reads COURRIER_JOB_TIMEOUT: a Go duration ("1m", "30s") of at
// least a second.
func (c config) jobTimeout() (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(c.JobTimeout))
	if err != nil || d < time.Second {
		return 0, usageError{msg: fmt.Sprintf("job-timeout %q: give a duration of at least a second, such as 1m or 30s", c.JobTimeout)}
	}
	return d, nil
}

// mailWorkers reads COURRIER_MAIL_WORKERS: a whole number of at least 1,
// or empty for the number sized from a pool of poolConns connections
// (poolMailWorkers).
func (c config) mailWorkers(poolConns int32) (int, error) {
	v := strings.TrimSpace(c.MailWorkers)
	if v == "" {
		return poolMailWorkers(int(poolConns)), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, usageError{msg: fmt.Sprintf("mail-workers %q: give a whole number of at least 1, or nothing to size them from the database pool", c.MailWorkers)}
	}
	return n, nil
}

// poolMailWorkers is how many mail jobs run at once on a pool of
// poolConns connections: eight a connection, at least 8 and at most 64. A
// mail job holds a connection only while it reads its game's brief and
// writes the mail log; the rest of its time it draws the board, renders the
// mail and hands it to the relay, so several jobs share a connection, and
// the Go scheduler shares the cores among the mail workers and the API's
// requests by their numbers. On 2 cores (pgx's default pool of 4
// connections: 32 workers) that is what keeps mail at the pace of moves at
// the API's peak from 16 clients (`courrier load`: 16 workers fell behind
// by about 40 mails a second, 32 did not; see BENCHMARKS.md).
func poolMailWorkers(poolConns int) int {
	return min(64, max(8, 8*poolConns))
}

// defaultDataDir is $XDG_DATA_HOME/courrier, else ~/.local/share/courrier;
// for root, /var/lib/courrier (a system service's place, which the
// unprivileged user of the embedded server can reach).
func defaultDataDir() string {
	if os.Geteuid() == 0 {
		return "/var/lib/courrier"
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "courrier")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ".courrier"
	}
	return filepath.Join(home, ".local", "share", "courrier")
}

// version is the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return bi.Main.Version + " " + s.Value[:12]
			}
		}
		return bi.Main.Version
	}
	return "(unknown)"
}

// firstContact reads COURRIER_FIRST_CONTACT_PER_HOUR and
// COURRIER_FIRST_CONTACT_PER_ADDRESS: positive whole numbers.
func (c config) firstContact() (perHour, perAddress int, err error) {
	perHour, err = strconv.Atoi(strings.TrimSpace(c.FirstHourly))
	if err != nil || perHour < 1 {
		return 0, 0, fmt.Errorf("COURRIER_FIRST_CONTACT_PER_HOUR must be a whole number of mails, at least 1, not %q", c.FirstHourly)
	}
	perAddress, err = strconv.Atoi(strings.TrimSpace(c.FirstDaily))
	if err != nil || perAddress < 1 {
		return 0, 0, fmt.Errorf("COURRIER_FIRST_CONTACT_PER_ADDRESS must be a whole number of mails, at least 1, not %q", c.FirstDaily)
	}
	return perHour, perAddress, nil
}

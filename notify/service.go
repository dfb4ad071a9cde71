package notify

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/mail"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/api/auth"
	"github.com/courrier-games/courrier/games/draw"
	"github.com/courrier-games/courrier/play"

	"github.com/courrier-games/courrier/notify/mailstore"
)

// Transport delivers ready messages: the SMTP relay (*Relay) or the dev
// mailbox (*DevMailbox).
type Transport interface {
	Send(ctx context.Context, from string, to []string, msg []byte) error
}

// Config is what the mail side needs to know of its deployment.
type Config struct {
	// MailDomain is the domain of every address courrier mails from and
	// receives at (COURRIER_MAIL_DOMAIN).
	MailDomain string
	// BaseURL is the service's public URL (COURRIER_BASE_URL), for links.
	BaseURL string
	// Transport delivers; nil: the dev mailbox.
	Transport Transport
	// Signer signs reply addresses and unsubscribe links.
	Signer *Signer
	// ReplyTTL is how long a reply address accepts mail (default 30 days).
	ReplyTTL time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// LookupTXT resolves DKIM keys (default: the system resolver).
	LookupTXT func(ctx context.Context, domain string) ([]string, error)
	// RepliesPerHour bounds the mail one sender (its From address) may send
	// courrier in an hour (COURRIER_MAIL_HOURLY_LIMIT, default
	// DefaultMailsPerHour; negative: no limit); beyond it mail is stored
	// and set aside unread, and the sender told so once an hour.
	RepliesPerHour int
	// RefusalsPerHour bounds the refusals (answers to mail that changed
	// nothing) one sender gets about one game in an hour (default
	// DefaultRefusalsPerHour; negative: no limit); the last says so.
	RefusalsPerHour int
	// Inbound bounds what the SMTP server takes, and from whom
	// (COURRIER_SMTP_TRUSTED and the SMTP limits).
	Inbound InboundLimits
	// AuthservID is the authserv-id of the Authentication-Results header
	// that the relay in front of courrier adds (COURRIER_MAIL_AUTHSERV_ID):
	// the topmost such header is trusted, and a dmarc=fail in it refuses
	// the mail. Default: MailDomain; AuthservIDOff: none is trusted.
	AuthservID string
	// LoginKey derives each sign-in link's secret from its id
	// (auth.LinkSecret); the API that made the link holds the same key.
	LoginKey []byte
	// FirstContactPerHour bounds the mail sent in an hour, all addresses
	// together, to addresses whose owner has not confirmed them
	// (COURRIER_FIRST_CONTACT_PER_HOUR, default 100): confirmation
	// requests and answers to strangers. Beyond it such mail is not sent.
	FirstContactPerHour int
	// FirstContactPerAddress bounds that mail per address in a day
	// (COURRIER_FIRST_CONTACT_PER_ADDRESS, default 1).
	FirstContactPerAddress int
	// ConfirmTTL is how long a mail command waits for its sender to
	// confirm their address (default 24 hours).
	ConfirmTTL time.Duration
	// Archive writes the record attached to the game-over mail (required;
	// it needs no seed key: the record of an ended game holds the revealed
	// seed).
	Archive *play.Archive
}

// Service is courrier's email: it renders and sends the mail the game's
// events call for, and plays the moves that replies carry.
type Service struct {
	store  *mailstore.Store
	play   *play.Service
	users  *auth.Users
	prefs  *auth.MailPreferences
	render *Renderer
	cfg    Config
	log    *slog.Logger

	// paint paints the boards' pictures, keeping its compressors and glyph
	// masks for the next mails; the mail workers share it.
	paint *draw.Painter
}

// New returns the mail service.
func New(store *mailstore.Store, svc *play.Service, users *auth.Users, cfg Config, log *slog.Logger) (*Service, error) {
	if cfg.MailDomain == "" {
		return nil, errors.New("notify: the mail domain is not set")
	}
	if cfg.Signer == nil {
		return nil, errors.New("notify: no reply-token signer")
	}
	if cfg.Transport == nil {
		cfg.Transport = NewDevMailbox(store)
	}
	if cfg.ReplyTTL == 0 {
		cfg.ReplyTTL = 30 * 24 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Archive == nil {
		return nil, errors.New("notify: no archive for the game-over record")
	}
	switch cfg.AuthservID = strings.TrimSpace(cfg.AuthservID); {
	case cfg.AuthservID == "":
		cfg.AuthservID = cfg.MailDomain
	case strings.EqualFold(cfg.AuthservID, AuthservIDOff):
		cfg.AuthservID = AuthservIDOff
	}
	if cfg.RepliesPerHour == 0 {
		cfg.RepliesPerHour = DefaultMailsPerHour
	}
	if cfg.RefusalsPerHour == 0 {
		cfg.RefusalsPerHour = DefaultRefusalsPerHour
	}
	cfg.Inbound = cfg.Inbound.withDefaults()
	if cfg.FirstContactPerHour == 0 {
		cfg.FirstContactPerHour = 100
	}
	if cfg.FirstContactPerAddress == 0 {
		cfg.FirstContactPerAddress = 1
	}
	if cfg.ConfirmTTL == 0 {
		cfg.ConfirmTTL = 24 * time.Hour
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	r, err := NewRenderer()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: store, play: svc, users: users, prefs: users.MailPreferences(nil), render: r, paint: draw.NewPainter(), cfg: cfg, log: log}, nil
}

// ServiceAddress is the address of the lobby by mail (new games, lists,
// help): play@<mail domain>.
func (s *Service) ServiceAddress() mail.Address {
	return mail.Address{Name: "courrier", Address: "play@" + s.cfg.MailDomain}
}

// AddWorkers registers the mail workers on w.
func (s *Service) AddWorkers(w *river.Workers) {
	river.AddWorker(w, &promptWorker{s: s})
	river.AddWorker(w, &receiptWorker{s: s})
	river.AddWorker(w, &gameOverWorker{s: s})
	river.AddWorker(w, &invitationWorker{s: s})
	river.AddWorker(w, &answerWorker{s: s})
	river.AddWorker(w, &inboundWorker{s: s})
	river.AddWorker(w, &loginWorker{s: s})
	river.AddWorker(w, &reminderWorker{s: s})
	river.AddWorker(w, &disputeWorker{s: s})
	river.AddWorker(w, &absenceWorker{s: s})
	river.AddWorker(w, &talkWorker{s: s})
	river.AddWorker(w, &takeBackWorker{s: s})
}

// outgoing is one mail to a person, before rendering.
type outgoing struct {
	Mail
	userID string // "" when the recipient has no account (an answer to a stranger)
	gameID string
	// answer: a direct answer to the recipient's own mail, sent whatever
	// their preferences (they wrote to courrier).
	answer bool
	// onlyTalk: the mail is its table talk section, not sent when that is
	// empty (a talk mail whose message another mail told already).
	onlyTalk bool
	// talkUpTo bounds the talk told to the talk stream's version it names
	// (0: all): a talk mail tells its message and what came before.
	talkUpTo int
}

// errSkipped says a mail was not sent on purpose (already sent, turned
// off, no address): the job is done.
var errSkipped = errors.New("mail skipped")

// send renders and delivers o once: a Message-ID already logged as sent is
// not sent again (a retried job), and a player who turned the game's mail
// off gets none of its kind.
func (s *Service) send(ctx context.Context, o outgoing) error {
	sent, err := s.store.Sent(ctx, o.MessageID)
	if err != nil {
		return err
	}
	if sent {
		return errSkipped
	}
	if o.userID != "" && o.Kind != KindLogin && !o.answer {
		on, err := s.wants(ctx, o.userID, o.gameID, o.Kind)
		if err != nil {
			return err
		}
		if !on {
			return errSkipped
		}
	}
	told, mark, err := s.tellTalk(ctx, &o)
	if err != nil {
		return err
	}
	if o.Date.IsZero() {
		o.Date = s.cfg.Now()
	}
	if o.From.Address == "" {
		o.From = s.ServiceAddress()
	}
	switch {
	case o.userID != "" && o.Kind == KindInvitation:
		// An invitation's one click means "never invite me again".
		o.Unsubscribe = s.cfg.BaseURL + "/u/" + s.cfg.Signer.UnsubscribeToken(o.userID, unsubscribeInvitations)
	case o.userID != "" && o.gameID != "" && !o.answer:
		tok := s.cfg.Signer.UnsubscribeToken(o.userID, o.gameID)
		o.Unsubscribe = s.cfg.BaseURL + "/u/" + tok
	}
	subject, err := s.render.Subject(o.Mail)
	if err != nil {
		return err
	}
	raw, err := s.render.Render(o.Mail)
	if err != nil {
		return err
	}
	if err := s.store.BeginAttempt(ctx, mailstore.Attempt{
		MessageID: o.MessageID, Kind: o.Kind, GameID: o.gameID, UserID: o.userID,
		Recipient: o.To.Address, Subject: subject, JobID: jobID(ctx),
	}); err != nil {
		return err
	}
	if err := s.cfg.Transport.Send(ctx, s.ServiceAddress().Address, []string{o.To.Address}, raw); err != nil {
		_ = s.store.AttemptFailed(context.WithoutCancel(ctx), o.MessageID, err.Error())
		return deliveryError(o, err)
	}
	// The relay took the mail: its record must not be abandoned because the
	// job's time ran out meanwhile (the job would send it again).
	done, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.store.MarkSent(done, o.MessageID); err != nil {
		return err
	}
	if mark > told {
		return s.store.SetTalkTold(done, o.userID, o.gameID, mark)
	}
	return nil
}

// skip records in the mail log that a mail whose sending had begun (a
// crash, a relay that refused it for now) is not sent after all, and why:
// it no longer applies. A mail never begun leaves no line.
func (s *Service) skip(ctx context.Context, messageID, why string) error {
	return s.store.MarkSkipped(ctx, messageID, why)
}

// wants reports whether user gets mail of kind about game: api/auth's
// MailPreferences decide (the most specific setting wins; default on; an
// address that bounced gets nothing), in one query.
func (s *Service) wants(ctx context.Context, user, game, kind string) (bool, error) {
	return s.prefs.Wants(ctx, user, game, kind)
}

// SetPreference turns user's mail about game ("" for all games) of kind (""
// for all kinds) on or off, through api/auth's MailPreferences, as the
// settings page and the API do. Setting it again is harmless.
func (s *Service) SetPreference(ctx context.Context, user, game, kind string, on bool) error {
	return s.prefs.Set(ctx, user, game, kind, on)
}

// threadRoot is the Message-ID every mail of a game refers to, so that
// mail programs keep a game in one thread.
func (s *Service) threadRoot(game string) string {
	return "g." + game + "@" + s.cfg.MailDomain
}

// messageID is a mail's stable Message-ID: a retried job sends the same.
func (s *Service) messageID(parts ...string) string {
	return strings.Join(parts, ".") + "@" + s.cfg.MailDomain
}

// reader is whom a mail goes to: their address, the time zone they read
// times in, and the language they read.
type reader struct {
	to  mail.Address
	loc *time.Location
	// lang is the account's language; "" when it has none (see langOr).
	lang string
	// noted is the language noted on their account before they chose one.
	noted string
}

// langOr is the language to write to r in: their setting, else fallback
// (the language of the command they wrote, an inviter's), else the
// language noted on their account, else English.
func (r reader) langOr(fallback string) string {
	return auth.ChooseLanguage(r.lang, cmp.Or(fallback, r.noted), "")
}

// reader returns the account's address, time zone and language, or
// errSkipped when it has no address (erased).
func (s *Service) reader(ctx context.Context, user string) (reader, error) {
	u, err := s.users.ByID(ctx, user)
	if errors.Is(err, auth.ErrNoUser) {
		return reader{}, errSkipped
	}
	if err != nil {
		return reader{}, err
	}
	if u.Email == "" {
		return reader{}, errSkipped
	}
	return reader{to: mail.Address{Address: u.Email}, loc: u.Location(), lang: u.Language, noted: u.NotedLanguage}, nil
}

// done turns errSkipped into success for River.
func done(err error) error {
	if errors.Is(err, errSkipped) {
		return nil
	}
	return err
}

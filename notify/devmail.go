package notify

import (
	"context"
	"net/textproto"
	"strings"

	"github.com/courrier-games/courrier/notify/mailstore"
)

// DevMailbox is the transport used when no relay is configured: mail is
// stored in PostgreSQL (dev_mail, through the mail store) and shown by
// `courrier mail list|show`, GET /dev/mail and its JSON twin.
type DevMailbox struct {
	store *mailstore.Store
}

// NewDevMailbox returns the dev mailbox in store.
func NewDevMailbox(store *mailstore.Store) *DevMailbox { return &DevMailbox{store: store} }

// Send stores the message.
func (d *DevMailbox) Send(ctx context.Context, from string, to []string, msg []byte) error {
	hdr := headerOf(msg)
	return d.store.AddDevMail(ctx, DevMail{
		MessageID: strings.Trim(hdr.Get("Message-Id"), "<>"), From: from, To: to,
		Subject: decodedSubject(hdr.Get("Subject")), Raw: msg,
	})
}

// DevMail is one message of the dev mailbox.
type DevMail = mailstore.DevMail

// ErrNoMail is returned for a dev mailbox message that does not exist.
var ErrNoMail = mailstore.ErrNoMail

// List returns the newest messages first, at most limit, to (when not
// empty) only.
func (d *DevMailbox) List(ctx context.Context, to string, limit int) ([]DevMail, error) {
	return d.store.DevMails(ctx, to, limit)
}

// Page returns a page of at most limit messages, newest first, to (when
// not empty) only: those older than message before, or newer than message
// after, or the newest (mailstore.Store.DevMailPage).
func (d *DevMailbox) Page(ctx context.Context, to string, before, after int64, limit int) ([]DevMail, error) {
	return d.store.DevMailPage(ctx, to, before, after, limit)
}

// Get returns one message with its raw bytes.
func (d *DevMailbox) Get(ctx context.Context, id int64) (DevMail, error) {
	return d.store.DevMail(ctx, id)
}

// headerOf reads a message's header (what it can of it).
func headerOf(msg []byte) textproto.MIMEHeader {
	hdr, _ := readHeader(msg)
	return hdr
}

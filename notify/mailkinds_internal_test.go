package notify

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/api/auth"
)

// TestPreferencesKnowEveryKind: every kind of mail that preferences decide
// (all but sign-in links and refusals, which answer a person's own mail)
// is one of api/auth's MailKinds, so the settings page and the API show
// exactly the kinds mail sends.
func TestPreferencesKnowEveryKind(t *testing.T) {
	var ids []string
	for _, k := range auth.MailKinds() {
		ids = append(ids, k.ID)
	}
	for _, kind := range msgKinds() {
		if kind == KindLogin || kind == KindRefusal {
			continue
		}
		if !slices.Contains(ids, kind) {
			t.Errorf("mail of kind %q is not among auth.MailKinds %v", kind, ids)
		}
	}
	for _, id := range ids {
		if !slices.Contains(msgKinds(), id) {
			t.Errorf("auth.MailKinds has %q, which mail never sends", id)
		}
	}
}

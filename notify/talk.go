package notify

import (
	"github.com/courrier-games/courrier/play"
)

// sayNotice answers a player's own "say" (play.VerbSay): what they said,
// to whom, at which version of the game.
func sayNotice(sp speaker, name string, m *play.Message) NoticeData {
	if m == nil {
		return NoticeData{Subject: sp.subject("talk.said_subject", name)}
	}
	to := sp.t("talk.to_table")
	if m.Private() {
		to = m.ToName
	}
	return NoticeData{
		Subject:    sp.subject("talk.said_subject", name),
		Paragraphs: []string{sp.t("talk.said", to, m.At), m.Text},
	}
}

package notify

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/play"
)

// takeBackWorker tells a player of a take-back request they are asked to
// answer, or of a request's outcome (taken back, refused, expired,
// withdrawn).
type takeBackWorker struct {
	river.WorkerDefaults[jobs.TakeBackNotice]
	s *Service
}

// Work sends the notice, in the words the recipient's seat reads the event
// in (play.Change), with a reply address that takes "agree" and "refuse"
// (and the other reply verbs).
func (w *takeBackWorker) Work(ctx context.Context, job *river.Job[jobs.TakeBackNotice]) error {
	s, a := w.s, job.Args
	b, c, m, err := s.seatEventNotice(ctx, a.GameID, a.Seat, a.Version, "takeback")
	if err != nil {
		return err
	}
	sp := speakerIn(m.Lang)
	subject := sp.subject("takeback.subject_outcome", b.Name, b.GameID)
	paras := []string{c.Text.In(sp.lang())}
	if c.Type == play.TypeTakeBackAsked {
		subject = sp.subject("takeback.subject_asked", b.Name, b.GameID)
		paras = append(paras, sp.t("takeback.answer", sp.q(sp.t("example.agree")), sp.q(sp.t("example.refuse"))))
	}
	m.Data = NoticeData{Subject: subject, Paragraphs: paras}
	return done(s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: a.GameID}))
}

package notify

import (
	"context"
	"fmt"
	"strconv"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
	"github.com/courrier-games/courrier/play"
)

// disputeWorker tells a player, or a referee without a seat, of a dispute
// raised in their game or of the referee's ruling on one.
type disputeWorker struct {
	river.WorkerDefaults[jobs.DisputeNotice]
	s *Service
}

// Work sends the notice: what was disputed or ruled, in the words the
// recipient's seat may read, and how to answer.
func (w *disputeWorker) Work(ctx context.Context, job *river.Job[jobs.DisputeNotice]) error {
	s, a := w.s, job.Args
	seat := games.Seat(a.Seat)
	b, err := s.play.Brief(ctx, a.GameID, seat)
	if err != nil {
		return err
	}
	user := b.User
	if a.Seat < 0 {
		user = a.User
	}
	changes, err := s.play.History(ctx, a.GameID, user, a.Version-1)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		return fmt.Errorf("game %s has no version %d", a.GameID, a.Version)
	}
	c := changes[0]
	var m Mail
	if a.Seat >= 0 {
		if m, err = s.toSeat(ctx, b, KindNotice, a.Version, a.Seat, "dispute"); err != nil {
			return done(err)
		}
		m.ReplyTo = s.replyTo(TokenGame, b.GameID, a.Seat, a.Version)
	} else {
		r, err := s.reader(ctx, user)
		if err != nil {
			return done(err)
		}
		m = s.seatMail(b, KindNotice, r, a.Version, a.Seat, "dispute")
		m.MessageID = s.messageID("g", b.GameID, "v"+strconv.Itoa(a.Version), "referee", "dispute")
	}
	sp := speakerIn(m.Lang)
	subject := sp.subject("dispute.subject", b.Name, b.GameID)
	paras := []string{c.Text.In(sp.lang())}
	if c.Type == play.TypeRuled {
		subject = sp.subject("dispute.subject_ruled", b.Name, b.GameID)
		paras = append(paras, sp.t("dispute.ruled"))
	} else {
		paras = append(paras, sp.t("dispute.recorded", b.GameID))
		if a.Seat < 0 {
			body := fmt.Sprintf(`{"decision": %s, "text": "%s"}`, sp.t("dispute.ruling_or", `"upheld"`, `"rejected"`), sp.t("dispute.ruling_why"))
			paras = append(paras, sp.t("dispute.referee", b.GameID, a.Version, body))
		}
	}
	m.Data = NoticeData{Subject: subject, Paragraphs: paras}
	return done(s.send(ctx, outgoing{Mail: m, userID: user, gameID: a.GameID}))
}

// absenceWorker tells a player that another player of their game declared
// an absence or came back: the game may wait on them.
type absenceWorker struct {
	river.WorkerDefaults[jobs.AbsenceNotice]
	s *Service
}

// Work sends the notice, in the words the recipient's seat reads the event
// in (play.Change), with a reply address that takes the reply verbs.
func (w *absenceWorker) Work(ctx context.Context, job *river.Job[jobs.AbsenceNotice]) error {
	s, a := w.s, job.Args
	b, c, m, err := s.seatEventNotice(ctx, a.GameID, a.Seat, a.Version, "absence")
	if err != nil {
		return err
	}
	sp := speakerIn(m.Lang)
	subject := sp.subject("absence.subject_away", b.Name, b.GameID)
	if c.Type == play.TypeBack {
		subject = sp.subject("absence.subject_back", b.Name, b.GameID)
	}
	m.Data = NoticeData{Subject: subject, Paragraphs: []string{c.Text.In(sp.lang()), sp.gameVerbs()}}
	return done(s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: a.GameID}))
}

// seatEventNotice prepares a notice to seat's player of the event
// recorded at version of a game: the game as the seat's brief has it, the
// event as that seat reads it, and the mail, addressed, with a reply
// address that takes the reply verbs (label names its kind in the mail
// log). An error is returned as the worker should return it.
func (s *Service) seatEventNotice(ctx context.Context, gameID string, seat, version int, label string) (play.Brief, play.Change, Mail, error) {
	b, err := s.play.Brief(ctx, gameID, games.Seat(seat))
	if err != nil {
		return play.Brief{}, play.Change{}, Mail{}, err
	}
	changes, err := s.play.History(ctx, gameID, b.User, version-1)
	if err != nil {
		return play.Brief{}, play.Change{}, Mail{}, err
	}
	if len(changes) == 0 {
		return play.Brief{}, play.Change{}, Mail{}, fmt.Errorf("game %s has no version %d", gameID, version)
	}
	m, err := s.toSeat(ctx, b, KindNotice, version, seat, label)
	if err != nil {
		return play.Brief{}, play.Change{}, Mail{}, done(err)
	}
	m.ReplyTo = s.replyTo(TokenGame, b.GameID, seat, version)
	return b, changes[0], m, nil
}

// gameVerbs says what a reply to a notice with a game reply address
// (TokenGame) takes: an absence notice, the answer to a player's own reply
// verb.
func (sp speaker) gameVerbs() string {
	return sp.t("mail.game_verbs", sp.q(sp.t("example.away")), sp.q(sp.t("example.back")), sp.q(sp.t("example.dispute", 12)))
}

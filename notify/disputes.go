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
		to, err := s.address(ctx, user)
		if err != nil {
			return done(err)
		}
		m = s.seatMail(b, KindNotice, to, a.Version, a.Seat, "dispute")
		m.MessageID = s.messageID("g", b.GameID, "v"+strconv.Itoa(a.Version), "referee", "dispute")
	}
	subject := fmt.Sprintf("[courrier] %s %s: a dispute", b.Name, b.GameID)
	paras := []string{c.Text.In(games.English)}
	if c.Type == play.TypeRuled {
		subject = fmt.Sprintf("[courrier] %s %s: the referee's ruling", b.Name, b.GameID)
		paras = append(paras, "The ruling is recorded in the game's log; nothing recorded before it changes.")
	} else {
		paras = append(paras, "The dispute is recorded in the game's log and listed in its audit report (courrier audit, or GET /v1/games/"+b.GameID+"/audit once the game is over).")
		if a.Seat < 0 {
			paras = append(paras, "You referee this game: rule on it with POST /v1/games/"+b.GameID+"/disputes/"+strconv.Itoa(a.Version)+"/ruling {\"decision\": \"upheld\" or \"rejected\", \"text\": \"why\"}.")
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
	b, err := s.play.Brief(ctx, a.GameID, games.Seat(a.Seat))
	if err != nil {
		return err
	}
	changes, err := s.play.History(ctx, a.GameID, b.User, a.Version-1)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		return fmt.Errorf("game %s has no version %d", a.GameID, a.Version)
	}
	c := changes[0]
	m, err := s.toSeat(ctx, b, KindNotice, a.Version, a.Seat, "absence")
	if err != nil {
		return done(err)
	}
	m.ReplyTo = s.replyTo(TokenGame, b.GameID, a.Seat, a.Version)
	subject := fmt.Sprintf("[courrier] %s %s: a player is away", b.Name, b.GameID)
	if c.Type == play.TypeBack {
		subject = fmt.Sprintf("[courrier] %s %s: a player is back", b.Name, b.GameID)
	}
	m.Data = NoticeData{Subject: subject, Paragraphs: []string{c.Text.In(games.English), gameMailVerbs}}
	return done(s.send(ctx, outgoing{Mail: m, userID: b.User, gameID: a.GameID}))
}

// gameMailVerbs says what a reply to a notice with a game reply address
// (TokenGame) takes: an absence notice, the answer to a player's own reply
// verb.
const gameMailVerbs = `You may answer this mail with "away 3d" (or any length) or "back" for yourself, or "dispute 12 why" to flag a version for the referee; your moves go in reply to your prompts.`

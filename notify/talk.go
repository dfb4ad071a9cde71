package notify

import (
	"context"
	"errors"
	"strconv"

	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
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

// TalkLine is one message of a mail's table talk section, said in the
// mail's language.
type TalkLine struct {
	Heading string // "Ana to the table", "Ana to Bob (private)"
	Text    string // what was said, or that the referee hid it and why
}

// tellTalk puts in o the table talk of its game that its recipient may
// read and was not mailed yet: it returns the mark told before and the
// mark to keep once the mail is sent.
func (s *Service) tellTalk(ctx context.Context, o *outgoing) (told, mark int, err error) {
	if o.userID == "" || o.gameID == "" || o.Kind == KindLogin || o.Kind == KindInvitation {
		return 0, 0, nil
	}
	if told, err = s.store.TalkTold(ctx, o.userID, o.gameID); err != nil {
		return 0, 0, err
	}
	msgs, mark, err := s.play.TalkBetween(ctx, o.gameID, o.userID, told, o.talkUpTo)
	if _, ok := errors.AsType[*play.Error](err); ok {
		return told, told, nil // no such game: nothing to tell
	}
	if err != nil {
		return 0, 0, err
	}
	o.Talk = talkLines(msgs, mailLang(o.Lang))
	if o.onlyTalk && len(o.Talk) == 0 {
		return told, mark, errSkipped // another mail told it already
	}
	return told, mark, nil
}

// talkLines says messages in lang.
func talkLines(msgs []play.Message, lang string) []TalkLine {
	var out []TalkLine
	for _, m := range msgs {
		out = append(out, TalkLine{Heading: m.Heading().In(lang), Text: m.Line().In(lang)})
	}
	return out
}

// talkWorker mails a message of the table talk at once to those who may
// read it and asked for it (the mail kind "talk", off by default): the
// mail is the table talk section, which send fills with every message the
// reader was not mailed yet, this one among them.
type talkWorker struct {
	river.WorkerDefaults[jobs.TalkNotice]
	s *Service
}

// Work sends the mails.
func (w *talkWorker) Work(ctx context.Context, job *river.Job[jobs.TalkNotice]) error {
	s, a := w.s, job.Args
	readers, err := s.play.TalkReaders(ctx, a.GameID, a.Number)
	if err != nil {
		return done(err)
	}
	b, err := s.play.Brief(ctx, a.GameID, games.Spectator)
	if err != nil {
		return done(err)
	}
	for _, rd := range readers {
		on, err := s.wants(ctx, rd.User, a.GameID, KindTalk)
		if err != nil {
			return err
		}
		if !on {
			continue
		}
		r, err := s.reader(ctx, rd.User)
		if errors.Is(err, errSkipped) {
			continue
		}
		if err != nil {
			return err
		}
		who := "referee"
		if rd.Seat != games.Spectator {
			who = "s" + strconv.Itoa(int(rd.Seat))
		}
		m := Mail{
			Kind: KindTalk, To: r.to, Lang: r.langOr(""),
			// The message's random id: the talk stream's version would
			// tell how many private messages others exchanged.
			MessageID: s.messageID("g", a.GameID, "m"+rd.Message.ID, who, "talk"),
			InReplyTo: s.threadRoot(a.GameID), References: []string{s.threadRoot(a.GameID)},
		}
		if rd.Seat != games.Spectator {
			m.ReplyTo = s.replyTo(TokenGame, a.GameID, int(rd.Seat), b.Version)
		}
		sp := speakerIn(m.Lang)
		m.Data = NoticeData{Subject: sp.subject("talk.subject", b.Name, a.GameID), Paragraphs: []string{sp.t("talk.at_once", a.GameID), sp.t("talk.answer")}}
		if err := s.send(ctx, outgoing{Mail: m, userID: rd.User, gameID: a.GameID, onlyTalk: true, talkUpTo: a.Number}); err != nil && !errors.Is(err, errSkipped) {
			return err
		}
	}
	return nil
}

// Package jobs holds the arguments of courrier's background jobs (River
// jobs): small values that name things by id, and their kinds. It is a leaf:
// play inserts mail jobs in its append transaction without importing notify,
// which works them.
//
// Kind strings are stored in the river_job table: never rename one.
package jobs

import (
	"encoding/json"
	"strconv"

	"github.com/riverqueue/river"
)

// Queues. Mail has its own queue so that a slow relay never delays game work.
const (
	QueueDefault = river.QueueDefault
	QueueMail    = "mail"
)

// Priorities within the mail queue (River works 1 first; within a
// priority, the oldest first). Decision 9: a person waiting for a sign-in
// link or the answer to their own mail or move goes before the games'
// prompts, and prompts go before reminders and lobby news, so that a
// backlog of prompts (after a burst or an outage) never keeps someone
// waiting. The values are stored in river_job rows: jobs queued before a
// kind changed priority keep theirs and are worked all the same.
const (
	// PriorityWaiting is mail a person is at the screen or the mailbox
	// for: sign-in links, answers to an inbound mail, receipts of a move.
	PriorityWaiting = 1
	// PriorityGame is the games' own mail: prompts, game over, dispute
	// notices.
	PriorityGame = 2
	// PriorityLater is mail nobody waits for: reminders, invitations
	// (lobby news), absence notices.
	PriorityLater = 3
)

// MailPriorities returns the mail queue's priorities, first worked first.
func MailPriorities() []int { return []int{PriorityWaiting, PriorityGame, PriorityLater} }

// PriorityName is the short name of a mail priority, as the mail log and
// /metrics show it: "waiting", "game", "later"; a priority River knows but
// mail does not use is named by its number.
func PriorityName(priority int) string {
	switch priority {
	case PriorityWaiting:
		return "waiting"
	case PriorityGame:
		return "game"
	case PriorityLater:
		return "later"
	}
	return strconv.Itoa(priority)
}

// Prompt asks seat of a game to act: its pending entry opened at Version.
type Prompt struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
}

// Kind implements river.JobArgs.
func (Prompt) Kind() string { return "mail.prompt" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Prompt) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityGame}
}

// Receipt confirms to seat the move that took the game from From to
// Version.
type Receipt struct {
	GameID  string   `json:"game_id"`
	From    int      `json:"from"`
	Version int      `json:"version"`
	Seat    int      `json:"seat"`
	Moves   []string `json:"moves"`
	Head    string   `json:"head"` // the receipt of the game's last event after the move (archive.ReceiptHead)
	// Refused says which line of a several-line move was not played, and
	// why, in English (the jobs queued before RefusedLine carry only it).
	Refused string `json:"refused,omitempty"`
	// RefusedLine is that line (it and the lines after it were not
	// played) as play's MoveError writes itself in JSON: {"line", "text",
	// "rule", "reason": {"en": …, "fr": …}}, the reason in every language,
	// so that the receipt says it in its reader's (games.Explain).
	RefusedLine json.RawMessage `json:"refused_line,omitempty"`
	// RefusedSuggest is the legal move closest to the refused line, in the
	// game's canonical notation ("" when none): the receipt writes it in
	// its reader's words.
	RefusedSuggest string `json:"refused_suggest,omitempty"`
}

// Kind implements river.JobArgs.
func (Receipt) Kind() string { return "mail.receipt" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Receipt) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityWaiting}
}

// GameOver tells seat that the game ended at Version.
type GameOver struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
}

// Kind implements river.JobArgs.
func (GameOver) Kind() string { return "mail.game_over" }

// InsertOpts puts the job on the mail queue, at its priority.
func (GameOver) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityGame}
}

// DisputeNotice tells a seat's player (or, with Seat -1, the user User: a
// referee without a seat) of the dispute or ruling recorded at Version.
type DisputeNotice struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
	User    string `json:"user,omitempty"`
}

// Kind implements river.JobArgs.
func (DisputeNotice) Kind() string { return "mail.dispute" }

// InsertOpts puts the job on the mail queue, at its priority.
func (DisputeNotice) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityGame}
}

// AbsenceNotice tells a seat's player that another player declared an
// absence, or came back, at Version (a game.away or game.back event).
type AbsenceNotice struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
}

// Kind implements river.JobArgs.
func (AbsenceNotice) Kind() string { return "mail.absence" }

// InsertOpts puts the job on the mail queue, at its priority.
func (AbsenceNotice) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityLater}
}

// Invitation invites a user (an opaque id) to the game, as of Version.
type Invitation struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	User    string `json:"user"`
}

// Kind implements river.JobArgs.
func (Invitation) Kind() string { return "mail.invitation" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Invitation) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityLater}
}

// Inbound processes the inbound mail stored under ID.
type Inbound struct {
	ID int64 `json:"id"`
}

// Kind implements river.JobArgs.
func (Inbound) Kind() string { return "mail.inbound" }

// Answer sends the answer to an inbound mail (a refusal, a lobby answer):
// Mail names the mail kind, Data its content.
type Answer struct {
	InboundID int64           `json:"inbound_id"`
	Seq       int             `json:"seq"` // several answers to one mail are numbered
	Mail      string          `json:"mail"`
	GameID    string          `json:"game_id,omitempty"`
	ReplyTo   string          `json:"reply_to,omitempty"` // a fresh reply address, when the answer may be answered
	Data      json.RawMessage `json:"data"`
}

// Kind implements river.JobArgs.
func (Answer) Kind() string { return "mail.answer" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Answer) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityWaiting}
}

// Login mails a sign-in link. The job carries the link's id, never its
// secret: the worker derives the secret from the id and the login key
// (auth.LinkSecret), so a job row read from the database signs nobody in.
type Login struct {
	LinkID int64  `json:"link_id"`
	User   string `json:"user"`
	// Lang is the language of the page or request that asked for the link:
	// the mail is written in it when the account has none yet.
	Lang string `json:"lang,omitempty"`
}

// Kind implements river.JobArgs.
func (Login) Kind() string { return "mail.login" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Login) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityWaiting}
}

// Deadline is the timer of one pending entry of a game (its seat, kind and
// the version that opened it): at its deadline the entry's default move is
// applied, unless it is no longer pending.
type Deadline struct {
	GameID string `json:"game_id"`
	Seat   int    `json:"seat"`
	// Entry is the entry's kind ("turn", "challenge", …).
	Entry string `json:"entry"`
	Since int    `json:"since"`
	// Due is the deadline it was set for (Unix milliseconds): an absence moves
	// a deadline, and the timer of the new one is another job.
	Due int64 `json:"due,omitempty"`
}

// Kind implements river.JobArgs.
func (Deadline) Kind() string { return "game.deadline" }

// Reminder reminds the seat of a pending entry of its deadline (Label
// "half": at half the time allowed; "last": some hours before it), unless
// the entry is no longer pending when it is due.
type Reminder struct {
	GameID string `json:"game_id"`
	Seat   int    `json:"seat"`
	Entry  string `json:"entry"`
	Since  int    `json:"since"`
	Label  string `json:"label"`
}

// Kind implements river.JobArgs.
func (Reminder) Kind() string { return "mail.reminder" }

// InsertOpts puts the job on the mail queue, at its priority.
func (Reminder) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityLater}
}

// TalkNotice mails the message said at version Number of a game's talk
// stream, at once, to every player (and the referee) who may read it and
// asked for table talk by mail (the mail kind "talk", off by default).
type TalkNotice struct {
	GameID string `json:"game_id"`
	Number int    `json:"number"`
}

// Kind implements river.JobArgs.
func (TalkNotice) Kind() string { return "mail.talk" }

// InsertOpts puts the job on the mail queue, at its priority: after the
// prompts, with lobby news.
func (TalkNotice) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityLater}
}

// TakeBackDeadline is the timer of the take-back request recorded at
// version Asked of a game: at its deadline (Due, Unix milliseconds) the
// request, if still open, closes as expired.
type TakeBackDeadline struct {
	GameID string `json:"game_id"`
	Asked  int    `json:"asked"`
	Due    int64  `json:"due"`
}

// Kind implements river.JobArgs.
func (TakeBackDeadline) Kind() string { return "game.takeback_deadline" }

// TakeBackNotice tells a seat's player of the take-back event recorded at
// Version: a request they are asked to answer, or the request's outcome.
type TakeBackNotice struct {
	GameID  string `json:"game_id"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
}

// Kind implements river.JobArgs.
func (TakeBackNotice) Kind() string { return "mail.takeback" }

// InsertOpts puts the job on the mail queue, at its priority.
func (TakeBackNotice) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMail, Priority: PriorityGame}
}

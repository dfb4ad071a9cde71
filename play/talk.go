package play

import (
	"context"
	crand "crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/jobs"
)

// Table talk (issue 36, part 1; DESIGN.md decision 6): what the players of a
// game say to the whole table or to one seat lives in a stream of its own
// per game, TalkStream, chained like any stream. Each message names the
// game version it was said at, so talking never moves the game's version,
// its pending entries or its deadlines, and is never in the game's rules
// state. The referee may hide a message, for a reason that is recorded.
const (
	TypeSaid   = "talk.said"
	TypeHidden = "talk.hidden"
)

// Press settings: who may talk to whom in a game, chosen at its creation
// (the play-level option "press"; default PressPublic).
const (
	PressPublic  = "public"  // messages to the whole table only
	PressPrivate = "private" // to the table and to one seat
	PressNone    = "none"    // no talk
)

// The play-level options of a game, read by CreateGame beside the game's
// own: OptionPress is a Press setting, OptionPressReveal ("yes"/"no",
// default "no") makes private messages readable by all once the game is
// over.
const (
	OptionPress       = "press"
	OptionPressReveal = "press_reveal"
)

// ToTable is the To of a message said to the whole table.
const ToTable games.Seat = -1

// Talk limits: a message's length in characters after trimming, and how many
// messages one player may say in one game per minute and per day (counted
// from the talk stream, so they hold across restarts).
const (
	MaxTalkText   = 1000
	TalkPerMinute = 10
	TalkPerDay    = 200
)

// TalkStream is the event stream name of a game's table talk.
func TalkStream(gameID string) string { return "talk-" + gameID }

// Said is the data of a message: its opaque random id (a counter would
// tell a seat how many private messages others exchanged), the seat that
// said it (games.Spectator when the referee did, Referee set), to whom
// (ToTable, or a seat), the text, and the game's version when it was said.
type Said struct {
	ID      string     `json:"id"`
	From    games.Seat `json:"from"`
	Referee bool       `json:"referee,omitempty"`
	To      games.Seat `json:"to"`
	Text    string     `json:"text"`
	At      int        `json:"at"`
}

// Hidden is the data of the referee hiding message ID from view, for
// Reason.
type Hidden struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Message is a message of the table talk as one reader may read it.
type Message struct {
	// ID is the message's opaque id.
	ID string `json:"id"`
	// Number is the message's place among the messages its reader may
	// read (1, 2, …): a reader resumes after it (Messages' after, an SSE
	// Last-Event-ID). It counts only what the reader reads, so that it
	// tells nobody how many private messages others exchanged.
	Number int `json:"number"`
	// From is the seat that said it (games.Spectator for the referee);
	// FromName names it.
	From     games.Seat `json:"from"`
	FromName string     `json:"from_name"`
	Referee  bool       `json:"referee,omitempty"`
	// To is ToTable or the seat the message was said to; ToName names the
	// seat ("" for the table).
	To     games.Seat `json:"to"`
	ToName string     `json:"to_name,omitempty"`
	// Text is what was said; "" when the referee hid it (Hidden, Reason).
	Text   string `json:"text"`
	Hidden bool   `json:"hidden,omitempty"`
	Reason string `json:"reason,omitempty"`
	// At is the game's version when it was said.
	At     int       `json:"at"`
	SaidAt time.Time `json:"said_at"`
	// stream is the message's version in the talk stream: a mark of the
	// server's own (TalkSince), never served.
	stream int
}

// Private reports whether the message was said to one seat.
func (m Message) Private() bool { return m.To != ToTable }

// Line is what the message says, for a door to write: its text, or that the
// referee hid it and why.
func (m Message) Line() games.Phrase {
	if m.Hidden {
		return words.Phrase("talk.hidden", m.Reason)
	}
	return games.Said(m.Text)
}

// Speaker names who said the message: their player name, or the referee.
func (m Message) Speaker() games.Phrase {
	if m.Referee {
		return words.Phrase("talk.the_referee")
	}
	return games.Said(m.FromName)
}

// Heading says who said the message to whom ("Ana to the table", "Ana to
// Bob", "the referee to the table").
func (m Message) Heading() games.Phrase {
	from := any(m.FromName)
	if m.Referee {
		from = games.T("talk.the_referee")
	}
	if m.Private() {
		return words.Phrase("talk.heading_private", from, m.ToName)
	}
	return words.Phrase("talk.heading_table", from)
}

// pressOf reads the play-level options out of a creation's options: the
// game's own options without them, and the press setting and reveal.
func pressOf(opts map[string]string) (map[string]string, string, bool, error) {
	rest := make(map[string]string, len(opts))
	press, reveal := PressPublic, false
	for k, v := range opts {
		switch strings.ToLower(strings.TrimSpace(k)) {
		case OptionPress:
			switch p := strings.ToLower(strings.TrimSpace(v)); p {
			case "":
			case PressPublic, PressPrivate, PressNone:
				press = p
			default:
				return nil, "", false, refuse(CodeInvalid, "refusal.press_option", strings.TrimSpace(v))
			}
		case OptionPressReveal:
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "", "no", "non", "false":
			case "yes", "oui", "true":
				reveal = true
			default:
				return nil, "", false, refuse(CodeInvalid, "refusal.press_reveal_option", strings.TrimSpace(v))
			}
		default:
			rest[k] = v
		}
	}
	return rest, press, reveal, nil
}

// talk is a game's talk stream folded.
type talk struct {
	version  int
	messages []Message
	// by holds, for each speaker (a seat; the referee as Spectator), the
	// times of their messages, oldest first.
	by map[games.Seat][]time.Time
}

// readTalk reads and folds the talk stream of the game t through q.
func readTalk(ctx context.Context, q events.Querier, t *Table) (*talk, error) {
	recorded, err := events.ReadStream(ctx, q, TalkStream(t.ID), 0)
	if err != nil {
		return nil, fmt.Errorf("read the talk of game %s: %w", t.ID, err)
	}
	return foldTalk(t, recorded)
}

// foldTalk folds a game's talk stream.
func foldTalk(t *Table, recorded []events.Recorded) (*talk, error) {
	k := &talk{by: map[games.Seat][]time.Time{}}
	for _, e := range recorded {
		k.version = e.Version
		switch e.Type {
		case TypeSaid:
			var d Said
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, fmt.Errorf("decode %s of %s: %w", e.Type, e.Stream, err)
			}
			m := Message{ID: d.ID, stream: e.Version, From: d.From, Referee: d.Referee, To: d.To, Text: d.Text, At: d.At, SaidAt: e.RecordedAt}
			if !d.Referee {
				m.FromName = t.nameOf(d.From)
			}
			if d.To != ToTable {
				m.ToName = t.nameOf(d.To)
			}
			k.messages = append(k.messages, m)
			k.by[d.From] = append(k.by[d.From], e.RecordedAt)
		case TypeHidden:
			var h Hidden
			if err := json.Unmarshal(e.Data, &h); err != nil {
				return nil, fmt.Errorf("decode %s of %s: %w", e.Type, e.Stream, err)
			}
			for i := range k.messages {
				if k.messages[i].ID == h.ID {
					k.messages[i].Hidden, k.messages[i].Reason, k.messages[i].Text = true, h.Reason, ""
				}
			}
		}
	}
	return k, nil
}

// mayRead reports whether user may read m in the game t. A table message:
// whoever may read the game (its players, its referee; anyone before the
// start, when there is no talk yet). A private message: its two seats
// (a player who took a seat over, only what was said from the version they
// took it at), and everyone once the game is over if the game's
// press_reveal says so; the referee does not read private messages
// before then.
func (t *Table) mayRead(user string, m Message) bool {
	if _, ok := t.ViewerOf(user); !ok {
		return false
	}
	return t.mayReadUnrevealed(user, m) || (m.Private() && t.Ended && t.PressReveal)
}

// mayReadUnrevealed is mayRead without the reveal at the end: what user
// reads of the game's talk while it runs.
func (t *Table) mayReadUnrevealed(user string, m Message) bool {
	if _, ok := t.ViewerOf(user); !ok {
		return false
	}
	if !m.Private() {
		return true
	}
	seat := t.SeatOf(user)
	if seat == games.Spectator || (seat != m.From && seat != m.To) || m.Referee {
		return false
	}
	if took, ok := t.replacedAt[user]; ok && m.At < took {
		return false
	}
	return true
}

// Messages lists the table talk of a game that user may read, said after
// number after (0: all), oldest first. A *Error (CodeForbidden) when user
// may not read the game at all.
func (s *Service) Messages(ctx context.Context, gameID, user string, after int) ([]Message, error) {
	tv, err := s.Talk(ctx, gameID, user, after)
	if err != nil {
		return nil, err
	}
	return tv.Messages, nil
}

// MessagesFor lists, for each of users, all the table talk of a game they
// may read, oldest first, numbered as Messages numbers it: the game and its
// talk are read once for all of them (the live streams of a game, each
// tick). A user who may not read the game gets nothing.
func (s *Service) MessagesFor(ctx context.Context, gameID string, users []string) (map[string][]Message, error) {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	k, err := readTalk(ctx, s.pool, t)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]Message, len(users))
	for _, u := range users {
		if _, ok := t.ViewerOf(u); ok {
			out[u] = t.readable(u, k, 0)
		}
	}
	return out, nil
}

// TalkAt lists the table talk of a game that user may read said while the
// game was at version since or later, in the order of their numbers
// (oldest first, but for the private messages an end reveals, which come
// after what the reader read before it: readable): the talk of the game's
// feed after since (History). The messages said at version since itself may
// repeat those a reader had with the feed at since: its ids tell them apart.
func (s *Service) TalkAt(ctx context.Context, gameID, user string, since int) ([]Message, error) {
	all, err := s.Messages(ctx, gameID, user, 0)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, m := range all {
		if m.At >= since {
			out = append(out, m)
		}
	}
	return out, nil
}

// TalkSince lists the messages of a game user may read that others said
// after version told of its talk stream, and the stream's version now: the
// mark a mail that tells them keeps (notify's "told up to"). A private
// message revealed at the end, said before the mark, is not listed again.
// A user who may not read the game gets nothing.
func (s *Service) TalkSince(ctx context.Context, gameID, user string, told int) ([]Message, int, error) {
	return s.TalkBetween(ctx, gameID, user, told, 0)
}

// TalkBetween is TalkSince up to version upTo of the talk stream (0: all):
// a mail about one message tells what came before it, never what came
// after, whenever it is sent.
func (s *Service) TalkBetween(ctx context.Context, gameID, user string, told, upTo int) ([]Message, int, error) {
	// The talk first: most mails find nothing new, and fold no game.
	all, err := events.ReadStream(ctx, s.pool, TalkStream(gameID), 0)
	if upTo > 0 && len(all) > upTo {
		all = all[:upTo]
	}
	if err != nil || len(all) == 0 || all[len(all)-1].Version <= told {
		return nil, told, err
	}
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, told, err
	}
	if _, ok := t.ViewerOf(user); !ok || !t.Started {
		return nil, told, nil
	}
	k, err := foldTalk(t, all)
	if err != nil {
		return nil, told, err
	}
	seat := t.SeatOf(user)
	referee := user != "" && user == t.Referee() && seat == games.Spectator
	var out []Message
	for _, m := range t.readable(user, k, 0) {
		own := (m.Referee && referee) || (!m.Referee && seat != games.Spectator && m.From == seat)
		if m.stream > told && !own {
			out = append(out, m)
		}
	}
	return out, k.version, nil
}

// TalkView is a game's table talk as one user sees it: what they may read,
// and whether and to whom they may talk (for a page's talk box).
type TalkView struct {
	Messages []Message
	// Press is the game's press setting.
	Press string
	// MaySay is set when the user may talk at the table now; To lists the
	// players they may talk to privately (none where press is public).
	MaySay bool
	To     []TalkTarget
	// MayHide is set for the game's referee, who may hide messages.
	MayHide bool
}

// TalkTarget is a seat one may talk to privately, and its player's name.
type TalkTarget struct {
	Seat games.Seat
	Name string
}

// Talk is the table talk of a game as user sees it, the messages after
// number after; a *Error (CodeForbidden) when user may not read the game.
func (s *Service) Talk(ctx context.Context, gameID, user string, after int) (TalkView, error) {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return TalkView{}, err
	}
	if _, ok := t.ViewerOf(user); !ok {
		return TalkView{}, refuse(CodeForbidden, "refusal.not_your_game", games.T("what.read_talk"))
	}
	k, err := readTalk(ctx, s.pool, t)
	if err != nil {
		return TalkView{}, err
	}
	tv := TalkView{Messages: t.readable(user, k, after), Press: t.Press}
	seat := t.SeatOf(user)
	tv.MayHide = user != "" && user == t.Referee() && seat == games.Spectator
	tv.MaySay = t.Started && t.Press != PressNone && (seat != games.Spectator || tv.MayHide)
	if tv.MaySay && t.Press == PressPrivate && seat != games.Spectator {
		for i, n := range t.Engine.Players(t.State) {
			if games.Seat(i) != seat {
				tv.To = append(tv.To, TalkTarget{Seat: games.Seat(i), Name: n})
			}
		}
	}
	return tv, nil
}

// readable is the messages of k that user may read, numbered in order,
// after number after. The numbers are stable: once a game ends with
// press_reveal, the private messages of others said before the end that
// it reveals are numbered after the messages the reader read before the
// end (in the order they were said), and the messages said since the end
// after them, so that a reader who resumes after a number neither skips
// nor repeats one.
func (t *Table) readable(user string, k *talk, after int) []Message {
	var read, revealed, since []Message
	for _, m := range k.messages {
		switch {
		case !t.mayRead(user, m):
		case t.Ended && m.At >= t.endedAt:
			since = append(since, m)
		case t.mayReadUnrevealed(user, m):
			read = append(read, m)
		default:
			revealed = append(revealed, m)
		}
	}
	out := []Message{}
	n := 0
	for _, part := range [][]Message{read, revealed, since} {
		for _, m := range part {
			n++
			if n > after {
				m.Number = n
				out = append(out, m)
			}
		}
	}
	return out
}

// Say says text in a game for user's seat (or as the referee): to the
// whole table when to is ToTable, else to the seat to, where the game's
// press allows it. It refuses, writing nothing, a text empty or longer than
// MaxTalkText or holding a control character (plainText), a speaker beyond TalkPerMinute or TalkPerDay, a game whose
// press is none, a spectator, and a private message where press is public.
func (s *Service) Say(ctx context.Context, actor Actor, gameID string, to games.Seat, text string) (Message, error) {
	text, err := talkText(text)
	if err != nil {
		return Message{}, err
	}
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return Message{}, err
	}
	return s.say(ctx, actor, t, to, text)
}

// SayTo is Say with the recipient named as a person writes it: a seat's
// player name ("" for the whole table).
func (s *Service) SayTo(ctx context.Context, actor Actor, gameID, name, text string) (Message, error) {
	text, err := talkText(text)
	if err != nil {
		return Message{}, err
	}
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return Message{}, err
	}
	to, err := t.seatNamed(name)
	if err != nil {
		return Message{}, err
	}
	return s.say(ctx, actor, t, to, text)
}

// plainText refuses, with CodeInvalid, a text a person wrote (a message, a
// reason) that holds a control character other than a line break or a tab:
// a NUL the database cannot keep, an escape, a carriage return that lets a
// line pass for another. A "\r\n" is a line break.
func plainText(s string) (string, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", refuse(CodeInvalid, "refusal.control_character", fmt.Sprintf("U+%04X", r))
		}
	}
	return s, nil
}

// talkText is a message's text as it is said: plain (plainText), trimmed,
// of 1 to MaxTalkText characters.
func talkText(text string) (string, error) {
	text, err := plainText(text)
	if err != nil {
		return "", err
	}
	text = strings.TrimSpace(text)
	if text == "" || utf8.RuneCountInString(text) > MaxTalkText {
		return "", refuse(CodeInvalid, "refusal.talk_length", MaxTalkText, utf8.RuneCountInString(text))
	}
	return text, nil
}

// seatNamed is the seat of the player named name, ToTable for "": the
// player whose name is name exactly, else the one whose name is name but
// for case, else the one whose name is name but for case and accents
// ("Lea" for "Léa"). Where several players answer to name at the first
// of these that any does, it refuses as ambiguous, naming them and their
// seats, rather than pick one.
func (t *Table) seatNamed(name string) (games.Seat, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return ToTable, nil
	}
	if t.Started {
		players := t.Engine.Players(t.State)
		for _, same := range []func(string) bool{
			func(n string) bool { return n == name },
			func(n string) bool { return strings.EqualFold(n, name) },
			func(n string) bool { return FoldReply(n) == FoldReply(name) },
		} {
			var found []int
			for seat, n := range players {
				if same(strings.TrimSpace(n)) {
					found = append(found, seat)
				}
			}
			if len(found) == 1 {
				return games.Seat(found[0]), nil
			}
			if len(found) > 1 {
				var whom []any
				for _, seat := range found {
					whom = append(whom, games.T("talk.player_at_seat", players[seat], seat))
				}
				return ToTable, refuse(CodeInvalid, "refusal.talk_ambiguous_player", name, t.ID, games.List(whom...))
			}
		}
	}
	return ToTable, refuse(CodeInvalid, "refusal.talk_no_such_player", name, t.ID)
}

// say decides and appends a message on the game t (folded by the caller).
func (s *Service) say(ctx context.Context, actor Actor, t *Table, to games.Seat, text string) (Message, error) {
	if !t.Started {
		return Message{}, refuse(CodeConflict, "refusal.talk_not_started", t.ID)
	}
	if t.Press == PressNone {
		return Message{}, refuse(CodeForbidden, "refusal.talk_none", t.ID)
	}
	seat := t.SeatOf(actor.User)
	referee := actor.User != "" && actor.User == t.Referee() && seat == games.Spectator
	if seat == games.Spectator && !referee {
		return Message{}, refuse(CodeForbidden, "refusal.talk_not_player", t.ID)
	}
	if to != ToTable {
		switch {
		case t.Press != PressPrivate:
			return Message{}, refuse(CodeForbidden, "refusal.talk_public_only", t.ID)
		case referee:
			return Message{}, refuse(CodeForbidden, "refusal.talk_referee_table", t.ID)
		case to < 0 || int(to) >= t.seatCount():
			return Message{}, refuse(CodeInvalid, "refusal.talk_no_seat", int(to), t.ID)
		case to == seat:
			return Message{}, refuse(CodeInvalid, "refusal.talk_to_self")
		}
	}
	d := Said{ID: talkID(), From: seat, Referee: referee, To: to, Text: text, At: t.Version}
	raw, err := json.Marshal(d)
	if err != nil {
		return Message{}, fmt.Errorf("encode %s: %w", TypeSaid, err)
	}
	meta := events.Meta{Actor: actor.User, Channel: actor.Channel, RequestID: actor.RequestID}
	if !referee {
		n := int(seat)
		meta.Seat = &n
	}
	var rec []events.Recorded
	read := 0 // the messages the speaker read before this one
	key := &talkKey{actor: actor, hash: commandHash("say", t.ID, strconv.Itoa(int(to)), text)}
	err = s.appendTalkKeyed(ctx, t, key, func(k *talk, now time.Time) ([]events.Event, error) {
		if err := k.withinLimits(seat, now); err != nil {
			return nil, err
		}
		read = len(t.readable(actor.User, k, 0))
		return []events.Event{{Type: TypeSaid, Data: raw, Meta: meta}}, nil
	}, &rec)
	if err != nil {
		return Message{}, err
	}
	if key.prior != nil {
		return *key.prior, nil // the same mail again: said once
	}
	m := Message{ID: d.ID, Number: read + 1, From: seat, Referee: referee, To: to, Text: text, At: d.At, SaidAt: rec[0].RecordedAt}
	if !referee {
		m.FromName = t.nameOf(seat)
	}
	if to != ToTable {
		m.ToName = t.nameOf(to)
	}
	return m, nil
}

// withinLimits refuses a speaker who said TalkPerMinute messages in the
// minute before now or TalkPerDay in the day before.
func (k *talk) withinLimits(seat games.Seat, now time.Time) error {
	minute, day := 0, 0
	for _, at := range k.by[seat] {
		if at.After(now.Add(-time.Minute)) {
			minute++
		}
		if at.After(now.Add(-24 * time.Hour)) {
			day++
		}
	}
	if minute >= TalkPerMinute {
		return refuse(CodeConflict, "refusal.talk_rate_minute", TalkPerMinute)
	}
	if day >= TalkPerDay {
		return refuse(CodeConflict, "refusal.talk_rate_day", TalkPerDay)
	}
	return nil
}

// HideMessage hides the message id of a game from view, for reason: the
// referee only. The message stays in the log; every reader sees that the
// referee hid it and why.
func (s *Service) HideMessage(ctx context.Context, actor Actor, gameID, id, reason string) (Message, error) {
	reason, err := plainText(reason)
	if err != nil {
		return Message{}, err
	}
	reason = strings.TrimSpace(reason)
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return Message{}, err
	}
	if t.Referee() == "" {
		return Message{}, refuse(CodeConflict, "refusal.no_referee_talk", t.ID)
	}
	if actor.User == "" || actor.User != t.Referee() {
		return Message{}, refuse(CodeForbidden, "refusal.hide_referee_only", t.ID)
	}
	if reason == "" || utf8.RuneCountInString(reason) > maxDisputeText {
		return Message{}, refuse(CodeInvalid, "refusal.hide_reason", maxDisputeText)
	}
	raw, err := json.Marshal(Hidden{ID: id, Reason: reason})
	if err != nil {
		return Message{}, fmt.Errorf("encode %s: %w", TypeHidden, err)
	}
	var hidden Message
	meta := events.Meta{Actor: actor.User, Channel: actor.Channel, RequestID: actor.RequestID}
	var rec []events.Recorded
	err = s.appendTalk(ctx, t, func(k *talk, _ time.Time) ([]events.Event, error) {
		// Only what the referee reads: a private message stays private.
		read := t.readable(actor.User, k, 0)
		i := slices.IndexFunc(read, func(m Message) bool { return m.ID == id })
		if i < 0 {
			return nil, refuse(CodeNotFound, "refusal.no_message", t.ID, id)
		}
		if read[i].Hidden {
			return nil, refuse(CodeConflict, "refusal.hidden_already", id)
		}
		hidden = read[i]
		return []events.Event{{Type: TypeHidden, Data: raw, Meta: meta}}, nil
	}, &rec)
	if err != nil {
		return Message{}, err
	}
	hidden.Hidden, hidden.Reason, hidden.Text = true, reason, ""
	return hidden, nil
}

// appendTalk appends to t's talk stream what decide decides on the stream
// as it is, in one transaction, reading and deciding again when another
// writer appended first.
func (s *Service) appendTalk(ctx context.Context, t *Table, decide func(k *talk, now time.Time) ([]events.Event, error), out *[]events.Recorded) error {
	return s.appendTalkKeyed(ctx, t, nil, decide, out)
}

// talkKey is a message's idempotency key (the actor's, a mail's
// Message-ID): the same command again says nothing twice, and prior is the
// message said the first time.
type talkKey struct {
	actor Actor
	hash  []byte
	prior *Message
}

// talkSaid is what an idempotency key of a message keeps: its id.
type talkSaid struct {
	Said string `json:"said"`
}

// appendTalkKeyed is appendTalk under key (nil, or an actor without an
// idempotency key: none).
func (s *Service) appendTalkKeyed(ctx context.Context, t *Table, key *talkKey, decide func(k *talk, now time.Time) ([]events.Event, error), out *[]events.Recorded) error {
	if key != nil && (key.actor.IdempotencyKey == "" || key.actor.User == "") {
		key = nil
	}
	for attempt := 0; ; attempt++ {
		err := s.appendTalkOnce(ctx, t, key, decide, out)
		if errors.Is(err, events.ErrVersionConflict) && attempt < maxRetries {
			continue
		}
		if errors.Is(err, events.ErrVersionConflict) {
			return &Error{Code: CodeConflict, Err: err, Message: words.Phrase("refusal.busy", t.ID)}
		}
		if err == nil {
			s.wake()
		}
		return err
	}
}

func (s *Service) appendTalkOnce(ctx context.Context, t *Table, key *talkKey, decide func(k *talk, now time.Time) ([]events.Event, error), out *[]events.Recorded) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var now time.Time
	b := &pgx.Batch{}
	b.Queue(`select now()`).QueryRow(func(row pgx.Row) error { return row.Scan(&now) })
	var prior *keyRecord
	if key != nil {
		prior = queueReserveKey(b, key.actor, request{gameID: t.ID, hash: key.hash}, s.keyTTL)
	}
	var recorded []events.Recorded
	events.QueueRead(b, TalkStream(t.ID), 0, &recorded)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("read the talk of game %s: %w", t.ID, err)
	}
	k, err := foldTalk(t, recorded)
	if err != nil {
		return err
	}
	if prior != nil && prior.found {
		return key.replay(t, k, prior)
	}
	evs, err := decide(k, now)
	if err != nil {
		return err
	}
	rec, err := events.Append(ctx, tx, TalkStream(t.ID), k.version, evs)
	if err != nil {
		return err
	}
	var notices []river.InsertManyParams
	for _, r := range rec {
		if r.Type == TypeSaid {
			notices = append(notices, river.InsertManyParams{Args: jobs.TalkNotice{GameID: t.ID, Number: r.Version}})
		}
	}
	if err := s.insertJobs(ctx, tx, notices); err != nil {
		return err
	}
	if key != nil {
		var d Said
		if err := json.Unmarshal(evs[0].Data, &d); err != nil {
			return fmt.Errorf("decode the message said: %w", err)
		}
		if _, err := tx.Exec(ctx, `update command_keys set result = $3::jsonb where user_id = $1 and key = $2`,
			key.actor.User, key.actor.IdempotencyKey, talkSaid{Said: d.ID}); err != nil {
			return fmt.Errorf("keep the idempotency key of a message: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit the talk of game %s: %w", t.ID, err)
	}
	*out = rec
	return nil
}

// replay finds the message said the first time under the key (in k, as
// the actor reads it); the same key with another command is refused.
func (key *talkKey) replay(t *Table, k *talk, prior *keyRecord) error {
	if !slices.Equal(prior.hash, key.hash) || prior.gameID != t.ID {
		return refuse(CodeConflict, "refusal.key_reused")
	}
	var said talkSaid
	if err := json.Unmarshal(prior.result, &said); err != nil {
		return fmt.Errorf("read the message kept under an idempotency key: %w", err)
	}
	for _, m := range t.readable(key.actor.User, k, 0) {
		if m.ID == said.Said {
			key.prior = &m
			return nil
		}
	}
	return fmt.Errorf("the message %s kept under an idempotency key is not in game %s's talk", said.Said, t.ID)
}

// talkID returns a message's opaque random id (16 lowercase base32
// characters).
func talkID() string {
	var b [10]byte
	_, _ = crand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// TalkReader is someone who may read a message: a seat's player, or the
// referee (Seat games.Spectator), and the message as they read it (its
// Number counts only what they read).
type TalkReader struct {
	User    string
	Seat    games.Seat
	Message Message
}

// TalkReaders lists who, besides its speaker, may read the message at
// version number of a game's talk stream: the seats' players and the
// referee, each once.
func (s *Service) TalkReaders(ctx context.Context, gameID string, number int) ([]TalkReader, error) {
	t, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	k, err := readTalk(ctx, s.pool, t)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(k.messages, func(m Message) bool { return m.stream == number })
	if i < 0 {
		return nil, nil
	}
	m := k.messages[i]
	// as is m as user reads it, numbered among what they read.
	as := func(user string) Message {
		for _, r := range t.readable(user, k, 0) {
			if r.stream == number {
				return r
			}
		}
		return m
	}
	var readers []TalkReader
	for seat := range t.seatCount() {
		u := t.UserAt(games.Seat(seat))
		if u != "" && (m.Referee || games.Seat(seat) != m.From) && t.mayRead(u, m) {
			readers = append(readers, TalkReader{User: u, Seat: games.Seat(seat), Message: as(u)})
		}
	}
	if ref := t.Referee(); ref != "" && !m.Referee && t.mayRead(ref, m) {
		readers = append(readers, TalkReader{User: ref, Seat: games.Spectator, Message: as(ref)})
	}
	return readers, nil
}

package web

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
	"github.com/courrier-games/courrier/play"
)

// Table talk on the game page (issue 36, part 1): the messages the player
// may read, and a box to say something to the table or, where the game
// allows it, to one player. The box posts to /games/{id}/say, which runs
// play's Say with the seat chosen (or SayTo with a name typed, as a reply
// line "say …" by mail does).

// talkBox is the talk section of a game page.
type talkBox struct {
	Messages []talkLine
	MaySay   bool
	MayHide  bool         // the referee: each message has a button to hide it
	To       []talkTarget // the players one may talk to privately
	// Typed and ToTyped are what a refused message said, and to whom;
	// Problem why it was refused (on the history page).
	Typed, ToTyped, Problem string
	// Seen is how many messages the visitor read when the page was made:
	// the form posts it back, and with what it says it makes the
	// message's idempotency key (sayKey), so that a double click says it
	// once.
	Seen int
}

// talkTarget is a player one may talk to privately: the form posts their
// seat, so that two players whose names differ only by accents are never
// mistaken for each other.
type talkTarget struct {
	Seat string
	Name string
}

// talkLine is one message as the page shows it.
type talkLine struct {
	ID      string
	Heading string // "Ana to the table"
	Text    string // the text, or that the referee hid it and why
	At      int    // the game's version when it was said
	Hidden  bool
	Private bool
}

// talkBox reads the game's talk as the visitor may read it; box keeps what
// a refused message typed.
func (h *Handler) talkBox(r *http.Request, id string, box talkBox) (talkBox, error) {
	lang := visitOf(r).Lang
	tv, err := h.cfg.Play.Talk(r.Context(), id, userOf(r), 0)
	if pe, ok := errors.AsType[*play.Error](err); ok && pe.Code == play.CodeForbidden {
		return box, nil
	}
	if err != nil {
		return box, err
	}
	box.MaySay, box.MayHide = tv.MaySay, tv.MayHide
	box.Seen = len(tv.Messages)
	for _, to := range tv.To {
		box.To = append(box.To, talkTarget{Seat: strconv.Itoa(int(to.Seat)), Name: to.Name})
	}
	for _, m := range tv.Messages {
		box.Messages = append(box.Messages, talkLine{ID: m.ID, Heading: m.Heading().In(lang), Text: m.Line().In(lang), At: m.At, Hidden: m.Hidden, Private: m.Private()})
	}
	return box, nil
}

// say says what the player typed in the talk box, to the table or to the
// player chosen.
func (h *Handler) say(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	id := r.PathValue("id")
	text, to := r.PostFormValue("text"), strings.TrimSpace(r.PostFormValue("to"))
	actor := h.actor(r)
	actor.IdempotencyKey = sayKey(id, r.PostFormValue("seen"), to, text)
	var err error
	if seat, aerr := strconv.Atoi(to); aerr == nil {
		// The form's choice: a seat.
		_, err = h.cfg.Play.Say(r.Context(), actor, id, games.Seat(seat), text)
	} else {
		// The table (""), or a name typed as by mail.
		_, err = h.cfg.Play.SayTo(r.Context(), actor, id, to, text)
	}
	h.talked(w, r, err, talkBox{Typed: text, ToTyped: to})
}

// sayKey is the idempotency key of a message posted by the talk box: the
// game, how many messages the page showed (seen, as the form posts it) and
// what the message says to whom. The same form posted twice (a double
// click, a reload) says it once; another message from the same page, or the
// same words once the page shows more, is another key. A form without seen
// has none.
func sayKey(game, seen, to, text string) string {
	if _, err := strconv.Atoi(seen); err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(to + "\x00" + text))
	return "web-say:" + game + ":" + seen + ":" + hex.EncodeToString(sum[:16])
}

// hide hides a message of the table (the referee only), for the reason
// typed.
func (h *Handler) hide(w http.ResponseWriter, r *http.Request) {
	if !h.requireUser(w, r) {
		return
	}
	_, err := h.cfg.Play.HideMessage(r.Context(), h.actor(r), r.PathValue("id"), r.PathValue("message"), r.PostFormValue("reason"))
	h.talked(w, r, err, talkBox{})
}

// talked answers a message said or hidden: back to the game's page (the
// history, for a reader without a seat), with the problem when play
// refused it.
func (h *Handler) talked(w http.ResponseWriter, r *http.Request, err error, box talkBox) {
	id := r.PathValue("id")
	_, view, verr := h.cfg.Play.GameAndViewFor(r.Context(), id, userOf(r))
	seated := verr == nil && view.Seat != games.Spectator
	if err == nil {
		if seated {
			seeOther(w, r, "/games/"+id+"#talk")
		} else {
			seeOther(w, r, "/games/"+id+"/history#talk")
		}
		return
	}
	pe, ok := errors.AsType[*play.Error](err)
	if !ok {
		h.failErr(w, r, err)
		return
	}
	status := http.StatusBadRequest
	switch pe.Code {
	case play.CodeForbidden:
		status = http.StatusForbidden
	case play.CodeConflict:
		status = http.StatusConflict
	case play.CodeNotFound:
		status = http.StatusNotFound
	}
	problem := games.Explain(pe, visitOf(r).Lang)
	if !seated && pe.Code != play.CodeNotFound {
		box.Problem = problem
		h.showHistory(w, r, status, box)
		return
	}
	h.showGame(w, r, status, gamePageData{Problem: problem, Talk: box})
}

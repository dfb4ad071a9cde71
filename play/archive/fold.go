// Package archive re-derives a game from its recorded events and, when it is
// known, its seed, with no database and no clock: the audit walk (Audit,
// VerifyRecord), game records (WriteRecord, ParseRecord), replays
// (ReplaySteps) and receipts (ReceiptHead, VerifyReceipt).
//
// The walks fold a game through play's own fold, which they are given as a
// Folder (play.Folder): the lifecycle of a game (joins, absences, deadlines,
// disputes) is folded in one place, and the archive adds what it needs on
// top: re-running the engines from the seed, comparing, describing and
// writing. Loading a game's stream, seed and mail context from the store is
// play.Archive's part.
package archive

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/courrier-games/courrier/events"
	"github.com/courrier-games/courrier/games"
)

// Fold is one game folded event by event, as play folds it.
type Fold interface {
	// Describe returns event e, which applies to the game as folded so far,
	// as seat learns it (games.Spectator: the public).
	Describe(e events.Recorded, seat games.Seat) (Described, error)
	// Apply folds e into the game.
	Apply(e events.Recorded) error
	// Game returns what the walks read of the game as folded so far.
	Game() Game
	// Joined returns the names of the players who took a place, in the
	// order they did: what the setup seats.
	Joined() []string
	// Disputes returns the disputes raised so far, with their rulings.
	Disputes() []Dispute
	// TakeBacks returns the take-back requests made so far, with their
	// answers and outcomes.
	TakeBacks() []TakeBack
}

// Folder returns an empty fold of game gameID.
type Folder func(gameID string) Fold

// Game is what the walks read of a folded game.
type Game struct {
	Kind       string
	Engine     games.Engine // nil before the creation is folded
	State      games.State  // nil before the start
	Options    games.Options
	Rules      int // the rules version the game is played under
	Commitment string
	Version    int
	Started    bool
	Ended      bool
	// Pending lists who may act now, each entry with its identity.
	Pending []games.Pending
	// Resigned and Abandoned list the seats that left the game and those
	// that play by default.
	Resigned  []games.Seat
	Abandoned []games.Seat
	// Result is the result the game's end recorded (nil before the end).
	Result *games.Result
}

// players returns the seated players' names (none before the start).
func (g *Game) players() []string {
	if !g.Started || g.State == nil {
		return nil
	}
	return g.Engine.Players(g.State)
}

// nameOf is the name of the player at seat, as the public refers to them.
func (g *Game) nameOf(seat games.Seat) string {
	if names := g.players(); int(seat) >= 0 && int(seat) < len(names) {
		return names[seat]
	}
	return fmt.Sprintf("Seat %d", seat)
}

// Described is one event as a seat learns it: the data redacted for it, the
// part of the meta it may see and what happened, in plain words.
type Described struct {
	Data json.RawMessage
	Meta ServedMeta
	Text games.Phrase
}

// ServedMeta is the part of an event's meta a seat may see: through which
// channel and for which seat it was made, and the move as typed only when it
// was the viewer's own.
type ServedMeta struct {
	Seat    *int   `json:"seat,omitempty"`
	Channel string `json:"channel,omitempty"`
	Move    string `json:"move,omitempty"`
}

// Dispute is a dispute as folded: who flagged which version and why, and
// the ruling when there is one.
type Dispute struct {
	Version int        `json:"version"` // the version of the dispute event
	Move    int        `json:"move"`    // the version disputed
	Seat    games.Seat `json:"seat"`
	By      string     `json:"by"` // the disputing player's name
	Reason  string     `json:"reason"`
	At      time.Time  `json:"at"`
	Ruling  *Ruling    `json:"ruling,omitempty"`
}

// TakeBack is a take-back request as folded: who asked to go back to
// which version, each answer, and how it ended.
type TakeBack struct {
	Version int        `json:"version"` // the version of the request
	Seat    games.Seat `json:"seat"`
	By      string     `json:"by"` // the asker's name
	To      int        `json:"to"` // the version the game would go back to
	At      time.Time  `json:"at"`
	// Answers are the other players' answers, in order.
	Answers []TakeBackAnswer `json:"answers"`
	// Outcome is "taken_back", "refused", "expired", "withdrawn", "ended" or
	// "overtaken" once closed, at version Closed; "" while open.
	Outcome string `json:"outcome,omitempty"`
	Closed  int    `json:"closed,omitempty"`
}

// TakeBackAnswer is one player's answer to a take-back request.
type TakeBackAnswer struct {
	Version int        `json:"version"`
	Seat    games.Seat `json:"seat"`
	By      string     `json:"by"`
	Agree   bool       `json:"agree"`
}

// Ruling is a referee's decision on a dispute.
type Ruling struct {
	Version  int       `json:"version"`
	Decision string    `json:"decision"`
	Text     string    `json:"text"`
	At       time.Time `json:"at"`
}

// Viewer is who a replay or a record is for: a seat (games.Spectator for
// the public), the version from which they hold it (a player who took over
// a seat sees it from then on; before, the public's view), and whether they
// get the full reveal (every hand, every shuffle, every move as typed).
type Viewer struct {
	Seat games.Seat
	From int
	Full bool
}

// foldAll folds a game's recorded events from the start.
func foldAll(newFold Folder, gameID string, recorded []events.Recorded) (Fold, error) {
	f := newFold(gameID)
	for _, e := range recorded {
		if err := f.Apply(e); err != nil {
			return nil, wrapVersion(gameID, e.Version, err)
		}
	}
	return f, nil
}

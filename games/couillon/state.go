package couillon

import (
	"slices"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// Phase is where a deal stands.
type Phase uint8

// The phases of a match.
const (
	// PhaseSetup: before the seating event.
	PhaseSetup Phase = iota
	// PhaseTrump: players accept or pass a proposed trump (CO-4, CO-5).
	PhaseTrump
	// PhasePlay: the four tricks are played (CO-6, CO-7, CO-18).
	PhasePlay
	// PhaseScored: the deal is scored and the next deal is due (transient).
	PhaseScored
	// PhaseOver: the match is over (CO-14, CO-32).
	PhaseOver
)

// Settings are the parsed options of section 4.
type Settings struct {
	FollowingGerver bool // following = gerver (CO-7)
	AllPassGerver   bool // all_pass = gerver (CO-5)
	LeaderDeclarer  bool // leader = declarer (CO-6)
	Threshold20     bool // deal_rule = threshold20 (CO-9)
	Lines           int  // lines = 5 or 7 (CO-10)
	Capot           bool // capot = on (CO-16)
}

// Bid is one accept or pass in the making of trump.
type Bid struct {
	Seat   games.Seat `json:"seat"`
	Accept bool       `json:"accept,omitempty"`
	Pos    int        `json:"pos"` // the stock card proposed: 17..24
}

// Played is one card played to a trick.
type Played struct {
	Seat games.Seat `json:"seat"`
	Card Card       `json:"card"`
}

// Trick is a finished trick.
type Trick struct {
	Leader games.Seat `json:"leader"`
	Cards  []Played   `json:"cards"`
	Winner games.Seat `json:"winner"`
	Points int        `json:"points"`
}

// DealRecord is the score of one finished deal (public).
type DealRecord struct {
	Deal      int        `json:"deal"`
	Dealer    games.Seat `json:"dealer"`
	Trump     Suit       `json:"trump"`
	Declarers int        `json:"declarers"` // team 0 (A) or 1 (B); -1 none
	Points    [2]int     `json:"points"`
	Winner    int        `json:"winner"` // team; -1 tie
	Capot     int        `json:"capot"`  // team that took all 4 tricks; -1 none
	Change    [2]int     `json:"change"` // change of R per team
	R         [2]int     `json:"r"`      // R after the deal
	B         int        `json:"b"`      // tie bonus after the deal
}

// State is the state of a Couillon match. Hands, stock and won cards are card
// sets; the only slices are the players, the bids, the tricks and the history,
// which Decide clones before simulating.
type State struct {
	// Rules is the rules version the match was created under (RulesVersion
	// or earlier); Decide follows it for ever.
	Rules int `json:"rules"`

	Phase   Phase
	Players []string // by seat
	Draws   [4]Card  // the seating draw, by seat (CO-17)
	Options games.Options
	Set     Settings

	R [2]int // deal wins still needed per team (CO-10)
	B int    // pending tie bonus (CO-13)

	Deal     int // deal number, from 1
	Dealer   games.Seat
	Hands    [4]cardSet
	Stock    [8]Card // cards 17..24 of the shuffled pack
	Turned   uint8   // bit i: stock card 17+i is face up
	Proposed int     // the stock card proposed now: 17..24 (0 none)
	Speaker  games.Seat
	Passes   int // passes on the proposed card
	Bids     []Bid

	Trump     Suit
	Declarers int        // declaring team; -1 none
	Declarer  games.Seat // the player who accepted; -1 none

	Leader games.Seat // leader of the current trick
	Turn   games.Seat // seat to play
	Trick  []Played   // the current trick
	Tricks []Trick    // finished tricks of this deal
	Won    [2]cardSet // cards taken per team this deal

	History []DealRecord

	Winner   int        // winning team; -1 none
	Reason   string     // how the match ended: "lines" or "resign"
	Resigned games.Seat // the seat that resigned; -1 none
}

// team is the team of a seat: 0 (A: seats 0, 2) or 1 (B: seats 1, 3) (CO-1).
func team(s games.Seat) int { return int(s) % 2 }

func next(s games.Seat) games.Seat { return (s + 1) % 4 }

func (s State) clone() State {
	c := s
	c.Bids = slices.Clone(s.Bids)
	c.Trick = slices.Clone(s.Trick)
	c.Tricks = slices.Clone(s.Tricks)
	c.History = slices.Clone(s.History)
	return c
}

// stockSet is the set of stock cards.
func (s *State) stockSet() cardSet {
	var out cardSet
	for _, c := range s.Stock {
		if c.Valid() {
			out = out.with(c)
		}
	}
	return out
}

// hiddenStock is the set of stock cards not turned.
func (s *State) hiddenStock() cardSet {
	var out cardSet
	for i, c := range s.Stock {
		if c.Valid() && s.Turned&(1<<i) == 0 {
			out = out.with(c)
		}
	}
	return out
}

// trickSet is the set of cards in the current trick.
func (s *State) trickSet() cardSet {
	var out cardSet
	for _, p := range s.Trick {
		out = out.with(p.Card)
	}
	return out
}

func parseSettings(opts games.Options) (Settings, error) {
	get := func(name, def string) string {
		if v, ok := opts[name]; ok && v != "" {
			return v
		}
		return def
	}
	var st Settings
	var err error
	check := func(name, v string, values ...string) {
		if err == nil && !slices.Contains(values, v) {
			err = words.Illegal("options", "refusal.option_value", name, strings.Join(values, ", "), v)
		}
	}
	f := get("following", "ardennes")
	check("following", f, "ardennes", "gerver")
	a := get("all_pass", "next-card")
	check("all_pass", a, "next-card", "gerver")
	l := get("leader", "left-of-dealer")
	check("leader", l, "left-of-dealer", "declarer")
	d := get("deal_rule", "compare")
	check("deal_rule", d, "compare", "threshold20")
	n := get("lines", "5")
	check("lines", n, "5", "7")
	c := get("capot", "off")
	check("capot", c, "off", "on")
	if err != nil {
		return st, err
	}
	st.FollowingGerver = f == "gerver"
	st.AllPassGerver = a == "gerver"
	st.LeaderDeclarer = l == "declarer"
	st.Threshold20 = d == "threshold20"
	st.Lines = 5
	if n == "7" {
		st.Lines = 7
	}
	st.Capot = c == "on"
	return st, nil
}

// completeOptions returns opts with every option set (defaults filled in).
func completeOptions(opts games.Options) games.Options {
	out := games.Options{}
	for _, o := range optionSpecs() {
		out[o.Name] = o.Default
		if v, ok := opts[o.Name]; ok && v != "" {
			out[o.Name] = v
		}
	}
	return out
}

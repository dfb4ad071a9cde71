package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
)

// Each game's board is drawn from a seat's view (the JSON the engine makes
// for that seat, which holds nothing the seat may not see) by a template
// "board-<game>" over a small model decoded here. Every board also has a
// sentence or two in words, for screen readers and text browsers.

// board renders the board of a game of kind from seat's view (seat -1: the
// public's).
func (h *Handler) board(kind string, seat int, view json.RawMessage) (template.HTML, string, error) {
	var model any
	var text string
	var err error
	switch kind {
	case "coup":
		model, text, err = coupBoard(seat, view)
	case "kramercoup":
		model, text, err = kramerBoard(seat, view)
	case "coupage":
		model, text, err = coupageBoard(seat, view)
	case "couillon":
		model, text, err = couillonBoard(seat, view)
	case "coyote":
		model, text, err = coyoteBoard(seat, view)
	default:
		return "", "", fmt.Errorf("web: no board for %q", kind)
	}
	if err != nil {
		return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
	}
	var b bytes.Buffer
	if err := h.pages["boards"].ExecuteTemplate(&b, "board-"+kind, model); err != nil {
		return "", "", fmt.Errorf("web: the %s board: %w", kind, err)
	}
	return template.HTML(b.String()), text, nil //nolint:gosec // G203: html/template wrote and escaped it
}

// --- Coup -----------------------------------------------------------------

type coupView struct {
	Seat      int    `json:"seat"`
	Stage     string `json:"stage"`
	Turn      int    `json:"turn"`
	CourtSize int    `json:"court_size"`
	Players   []struct {
		Name      string   `json:"name"`
		Coins     int      `json:"coins"`
		Influence int      `json:"influence"`
		Cards     []string `json:"cards"`
		Lost      []string `json:"lost"`
		Out       bool     `json:"out"`
		Resigned  bool     `json:"resigned"`
		Faction   string   `json:"faction"`
	} `json:"players"`
	Action *struct {
		Actor      int      `json:"actor"`
		Action     string   `json:"action"`
		Target     *int     `json:"target"`
		Window     string   `json:"window"`
		Claim      string   `json:"claim"`
		Block      string   `json:"block"`
		Blocker    *int     `json:"blocker"`
		Challenger *int     `json:"challenger"`
		Drawn      []string `json:"drawn"`
	} `json:"action"`
	Winner *int `json:"winner"`
}

type coupModel struct {
	Players   []coupPlayer
	CourtSize int
	Stage     string
	Window    string // "Challenge window: Bob claims the Duke to tax"
	Drawn     []string
}

type coupPlayer struct {
	Name             string
	You, Turn, Out   bool
	Coins, Influence int
	Cards            []string // face up to their owner only
	Hidden           int      // face-down cards of the others
	Lost             []string
	Faction          string
}

func coupBoard(seat int, raw json.RawMessage) (coupModel, string, error) {
	var v coupView
	if err := json.Unmarshal(raw, &v); err != nil {
		return coupModel{}, "", err
	}
	m := coupModel{CourtSize: v.CourtSize, Stage: v.Stage}
	var words []string
	name := func(i int) string {
		if i >= 0 && i < len(v.Players) {
			return v.Players[i].Name
		}
		return "?"
	}
	for i, p := range v.Players {
		cp := coupPlayer{Name: p.Name, You: i == seat, Turn: i == v.Turn && v.Winner == nil, Out: p.Out || p.Resigned,
			Coins: p.Coins, Influence: p.Influence, Cards: titles(p.Cards), Lost: titles(p.Lost), Faction: p.Faction}
		if len(p.Cards) == 0 {
			cp.Hidden = p.Influence
		}
		m.Players = append(m.Players, cp)
		w := fmt.Sprintf("%s: %d coins, %d influence", p.Name, p.Coins, p.Influence)
		if len(p.Cards) > 0 {
			w += " (" + strings.Join(cp.Cards, ", ") + ")"
		}
		if len(p.Lost) > 0 {
			w += ", lost " + strings.Join(cp.Lost, ", ")
		}
		words = append(words, w)
	}
	if a := v.Action; a != nil {
		what := name(a.Actor) + ": " + a.Action
		if a.Target != nil {
			what += " on " + name(*a.Target)
		}
		if a.Claim != "" {
			what += ", claiming the " + title(a.Claim)
		}
		if a.Blocker != nil {
			what += "; " + name(*a.Blocker) + " blocks with the " + title(a.Block)
		}
		if a.Challenger != nil {
			what += "; " + name(*a.Challenger) + " challenges"
		}
		if a.Window != "" {
			m.Window = "Open " + a.Window + " window: " + what
		} else {
			m.Window = what
		}
		m.Drawn = titles(a.Drawn)
		words = append(words, m.Window)
	}
	return m, strings.Join(words, ". ") + ".", nil
}

// --- Coup (Kramer, 1975) ----------------------------------------------------

type kramerView struct {
	Round   int    `json:"round"`
	Phase   string `json:"phase"`
	Turn    int    `json:"turn"`
	Summary string `json:"summary"`
	Rows    []struct {
		Colour     string   `json:"colour"`
		Chains     [][2]int `json:"chains"`
		TokenValue int      `json:"token_value"`
		Supply     int      `json:"supply"`
	} `json:"rows"`
	PoolSize int `json:"pool_size"`
	Players  []struct {
		Name     string         `json:"name"`
		Cash     int            `json:"cash"`
		Tokens   map[string]int `json:"tokens"`
		HandSize int            `json:"hand_size"`
		Hand     []string       `json:"hand"`
		Resigned bool           `json:"resigned"`
		Capital  int            `json:"capital"`
	} `json:"players"`
}

type kramerModel struct {
	Summary  string
	Numbers  []int
	Rows     []kramerRow
	Players  []kramerPlayer
	Colours  []string
	PoolSize int
}

type kramerRow struct {
	Colour        string
	Cells         []kramerCell
	TokenValue    int
	Supply, Count int
}

type kramerCell struct {
	Number int
	Placed bool
}

type kramerPlayer struct {
	Name           string
	You, Turn, Out bool
	Cash, Capital  int
	Chips          []int // per colour, in Colours' order
	HandSize       int
	Hand           []string
}

func kramerBoard(seat int, raw json.RawMessage) (kramerModel, string, error) {
	var v kramerView
	if err := json.Unmarshal(raw, &v); err != nil {
		return kramerModel{}, "", err
	}
	m := kramerModel{Summary: v.Summary, PoolSize: v.PoolSize}
	top := 20
	for _, r := range v.Rows {
		for _, c := range r.Chains {
			top = max(top, c[1])
		}
	}
	for n := 1; n <= top; n++ {
		m.Numbers = append(m.Numbers, n)
	}
	var words []string
	for _, r := range v.Rows {
		row := kramerRow{Colour: r.Colour, TokenValue: r.TokenValue, Supply: r.Supply}
		var placed []string
		for n := 1; n <= top; n++ {
			in := false
			for _, c := range r.Chains {
				in = in || (n >= c[0] && n <= c[1])
			}
			if in {
				row.Count++
				placed = append(placed, strconv.Itoa(n))
			}
			row.Cells = append(row.Cells, kramerCell{Number: n, Placed: in})
		}
		m.Rows = append(m.Rows, row)
		m.Colours = append(m.Colours, r.Colour)
		words = append(words, fmt.Sprintf("%s series: %s placed", r.Colour, orNone(strings.Join(placed, ", "))))
	}
	for i, p := range v.Players {
		kp := kramerPlayer{Name: p.Name, You: i == seat, Turn: i == v.Turn, Out: p.Resigned, Cash: p.Cash, Capital: p.Capital,
			HandSize: p.HandSize, Hand: p.Hand}
		for _, c := range m.Colours {
			kp.Chips = append(kp.Chips, p.Tokens[c])
		}
		m.Players = append(m.Players, kp)
		words = append(words, fmt.Sprintf("%s: %d in cash, %d tiles in hand", p.Name, p.Cash, p.HandSize))
	}
	return m, v.Summary + ". " + strings.Join(words, ". ") + ".", nil
}

// --- Coupage ----------------------------------------------------------------

type coupageView struct {
	Players     []string `json:"players"`
	Active      int      `json:"active"`
	Turn        int      `json:"turn"`
	ActionsLeft int      `json:"actions_left"`
	Hand        []string `json:"hand"`
	HandSizes   []int    `json:"hand_sizes"`
	Market      []string `json:"market"`
	DeckSize    int      `json:"deck_size"`
	Discard     []string `json:"discard"`
	CavaLeft    int      `json:"cava_left"`
	Resigned    []bool   `json:"resigned"`
	Summary     string   `json:"summary"`
	Barrels     [][]struct {
		Number int      `json:"number"`
		State  string   `json:"state"`
		Wine   string   `json:"wine"`
		Grapes []string `json:"grapes"`
		Time   []struct {
			FaceDown bool   `json:"face_down"`
			Card     string `json:"card"`
		} `json:"time"`
		Complete bool `json:"complete"`
		Ready    bool `json:"ready"`
		Spoil    int  `json:"spoil"`
	} `json:"barrels"`
}

type coupageModel struct {
	Players           []coupagePlayer
	Hand              []string
	Market            []string
	DeckSize          int
	DiscardSize       int
	DiscardTop        string
	CavaLeft, Actions int
	Summary           string
}

type coupagePlayer struct {
	Name           string
	You, Turn, Out bool
	HandSize       int
	Barrels        []coupageBarrel
	Bottled        int
}

type coupageBarrel struct {
	Number       int
	State, Wine  string
	Grapes       []string
	Time         []string // "time", a card seen, or "face down"
	Ready, Spoil bool
}

func coupageBoard(seat int, raw json.RawMessage) (coupageModel, string, error) {
	var v coupageView
	if err := json.Unmarshal(raw, &v); err != nil {
		return coupageModel{}, "", err
	}
	m := coupageModel{Hand: v.Hand, DeckSize: v.DeckSize, DiscardSize: len(v.Discard), CavaLeft: v.CavaLeft,
		Actions: v.ActionsLeft, Summary: v.Summary}
	for _, c := range v.Market {
		if c != "" {
			m.Market = append(m.Market, c)
		}
	}
	if len(v.Discard) > 0 {
		m.DiscardTop = v.Discard[len(v.Discard)-1]
	}
	var words []string
	for i, name := range v.Players {
		p := coupagePlayer{Name: name, You: i == seat, Turn: i == v.Active && v.Summary == ""}
		if i < len(v.HandSizes) {
			p.HandSize = v.HandSizes[i]
		}
		if i < len(v.Resigned) {
			p.Out = v.Resigned[i]
		}
		if i < len(v.Barrels) {
			for _, b := range v.Barrels[i] {
				cb := coupageBarrel{Number: b.Number, State: b.State, Wine: b.Wine, Grapes: b.Grapes, Ready: b.Ready, Spoil: b.Spoil > 0}
				for _, t := range b.Time {
					switch {
					case !t.FaceDown:
						cb.Time = append(cb.Time, "time")
					case t.Card != "":
						cb.Time = append(cb.Time, "face down: "+t.Card)
					default:
						cb.Time = append(cb.Time, "face down")
					}
				}
				if b.State == "bottled" {
					p.Bottled++
				}
				p.Barrels = append(p.Barrels, cb)
			}
		}
		m.Players = append(m.Players, p)
		words = append(words, fmt.Sprintf("%s: %d cards in hand, %d barrels bottled", name, p.HandSize, p.Bottled))
	}
	return m, strings.Join(words, ". ") + ".", nil
}

// --- Couillon ---------------------------------------------------------------

type couillonView struct {
	Viewer    int      `json:"viewer"`
	Players   []string `json:"players"`
	Phase     string   `json:"phase"`
	Lines     int      `json:"lines"`
	R         [2]int   `json:"r"`
	Deal      int      `json:"deal"`
	Dealer    int      `json:"dealer"`
	Hand      []string `json:"hand"`
	HandSizes []int    `json:"hand_sizes"`
	Turned    []struct {
		Pos  int    `json:"pos"`
		Card string `json:"card"`
	} `json:"turned"`
	Trump     string `json:"trump"`
	Declarers int    `json:"declarers"`
	ToAct     int    `json:"to_act"`
	Trick     []struct {
		Seat int    `json:"seat"`
		Card string `json:"card"`
	} `json:"trick"`
	DealPoints [2]int `json:"deal_points"`
	History    []struct {
		Declarers int    `json:"d"`
		Points    [2]int `json:"p"`
		Winner    int    `json:"w"`
		R         [2]int `json:"r"`
	} `json:"history"`
	Winner int `json:"winner"`
}

type couillonModel struct {
	Players    []couillonPlayer
	Hand       []playingCard
	Trick      []trickCard
	Trump      string
	Turned     []playingCard
	Teams      [2]couillonTeam
	Sheet      []couillonLine
	Phase      string
	Deal       int
	Declarers  string
	DealPoints [2]int
}

type couillonPlayer struct {
	Name              string
	You, Turn, Dealer bool
	Team              string
	HandSize          int
}

type couillonTeam struct {
	Name    string
	Players string
	Needed  int // deal wins still needed
}

type couillonLine struct {
	Deal   int
	Points [2]int
	Winner string
	Needed [2]int
}

type playingCard struct {
	Code, Rank, Suit, Label string
	Red                     bool
}

type trickCard struct {
	Player string
	Card   playingCard
}

func couillonBoard(seat int, raw json.RawMessage) (couillonModel, string, error) {
	var v couillonView
	if err := json.Unmarshal(raw, &v); err != nil {
		return couillonModel{}, "", err
	}
	name := func(i int) string {
		if i >= 0 && i < len(v.Players) {
			return v.Players[i]
		}
		return "?"
	}
	m := couillonModel{Phase: v.Phase, Deal: v.Deal, DealPoints: v.DealPoints}
	if v.Trump != "" {
		m.Trump = suitName(v.Trump)
	}
	teamOf := func(i int) string { return [2]string{"A", "B"}[i%2] }
	for i, n := range v.Players {
		p := couillonPlayer{Name: n, You: i == seat, Turn: i == v.ToAct, Dealer: i == v.Dealer, Team: teamOf(i)}
		if i < len(v.HandSizes) {
			p.HandSize = v.HandSizes[i]
		}
		m.Players = append(m.Players, p)
	}
	for t := range 2 {
		m.Teams[t] = couillonTeam{Name: teamOf(t), Players: name(t) + " and " + name(t+2), Needed: v.R[t]}
	}
	if v.Declarers == 0 || v.Declarers == 1 {
		m.Declarers = "team " + teamOf(v.Declarers)
	}
	for _, c := range v.Hand {
		m.Hand = append(m.Hand, card(c))
	}
	for _, t := range v.Turned {
		m.Turned = append(m.Turned, card(t.Card))
	}
	var trick []string
	for _, t := range v.Trick {
		m.Trick = append(m.Trick, trickCard{Player: name(t.Seat), Card: card(t.Card)})
		trick = append(trick, name(t.Seat)+" "+card(t.Card).Label)
	}
	for i, l := range v.History {
		line := couillonLine{Deal: i + 1, Points: l.Points, Needed: l.R}
		if l.Winner == 0 || l.Winner == 1 {
			line.Winner = "team " + teamOf(l.Winner)
		}
		m.Sheet = append(m.Sheet, line)
	}
	var hand []string
	for _, c := range m.Hand {
		hand = append(hand, c.Label)
	}
	text := fmt.Sprintf("Deal %d, %s. Trump: %s. Your hand: %s. On the table: %s. Team A needs %d deals, team B %d.",
		v.Deal, v.Phase, orNone(m.Trump), orNone(strings.Join(hand, ", ")), orNone(strings.Join(trick, ", ")), v.R[0], v.R[1])
	return m, text, nil
}

// card reads a card code ("10h", "qs", "as").
func card(code string) playingCard {
	if code == "" {
		return playingCard{Label: "?"}
	}
	rank, suit := code[:len(code)-1], code[len(code)-1:]
	ranks := map[string]string{"a": "A", "k": "K", "q": "Q", "j": "J"}
	r := strings.ToUpper(rank)
	if x, ok := ranks[rank]; ok {
		r = x
	}
	symbols := map[string]string{"h": "♥", "d": "♦", "s": "♠", "c": "♣"}
	return playingCard{Code: code, Rank: r, Suit: symbols[suit], Label: r + " of " + suitName(suit), Red: suit == "h" || suit == "d"}
}

func suitName(s string) string {
	return map[string]string{"h": "hearts", "d": "diamonds", "s": "spades", "c": "clubs"}[s]
}

// --- Coyote -----------------------------------------------------------------

type coyoteView struct {
	Seat    int `json:"seat"`
	Round   int `json:"round"`
	MaxBid  int `json:"max_bid"`
	Players []struct {
		Seat    int    `json:"seat"`
		Name    string `json:"name"`
		Coyotes int    `json:"coyotes"`
		Hidden  bool   `json:"hidden"`
		Out     bool   `json:"out"`
		Feather *struct {
			Face   string `json:"face"`
			Colour string `json:"colour"`
		} `json:"feather"`
	} `json:"players"`
	Turn        int    `json:"turn"`
	Direction   string `json:"direction"`
	Bid         int    `json:"bid"`
	Bidder      int    `json:"bidder"`
	PileSize    int    `json:"pile_size"`
	Elimination int    `json:"elimination"`
	Discard     []struct {
		Face string `json:"face"`
	} `json:"discard"`
	Over   bool `json:"over"`
	Winner int  `json:"winner"`
}

type coyoteModel struct {
	Players     []coyotePlayer
	Bid         int
	Bidder      string
	Direction   string
	PileSize    int
	Discard     []string
	Round       int
	Elimination int
}

type coyotePlayer struct {
	Name            string
	You, Turn, Out  bool
	Feather, Colour string // "?" for one's own, hidden feather
	Coyotes         int
	Tokens          []int
}

func coyoteBoard(seat int, raw json.RawMessage) (coyoteModel, string, error) {
	var v coyoteView
	if err := json.Unmarshal(raw, &v); err != nil {
		return coyoteModel{}, "", err
	}
	m := coyoteModel{Bid: v.Bid, Direction: v.Direction, PileSize: v.PileSize, Round: v.Round, Elimination: v.Elimination}
	var words []string
	for _, p := range v.Players {
		cp := coyotePlayer{Name: p.Name, You: p.Seat == seat, Turn: p.Seat == v.Turn && !v.Over, Out: p.Out, Coyotes: p.Coyotes, Feather: "?", Colour: "hidden"}
		if p.Feather != nil {
			cp.Feather, cp.Colour = p.Feather.Face, p.Feather.Colour
		}
		for i := range p.Coyotes {
			cp.Tokens = append(cp.Tokens, i)
		}
		if p.Seat == v.Bidder {
			m.Bidder = p.Name
		}
		m.Players = append(m.Players, cp)
		feather := "a feather hidden from you"
		if p.Feather != nil {
			feather = "the feather " + p.Feather.Face
		}
		words = append(words, fmt.Sprintf("%s wears %s and has %d coyote tokens", p.Name, feather, p.Coyotes))
	}
	for _, d := range v.Discard {
		m.Discard = append(m.Discard, d.Face)
	}
	bid := "no bid yet"
	if m.Bidder != "" {
		bid = fmt.Sprintf("the bid is %d, by %s", v.Bid, m.Bidder)
	}
	return m, fmt.Sprintf("Round %d; %s. %s.", v.Round, bid, strings.Join(words, ". ")), nil
}

// --- helpers ------------------------------------------------------------------

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func titles(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = title(s)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

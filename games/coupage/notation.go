package coupage

import (
	"slices"
	"strconv"
	"strings"

	"github.com/courrier-games/courrier/games"
)

// accents maps accented letters (after lower-casing) to plain ones.
var accents = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ä", "a", "ã", "a", "å", "a",
	"ç", "c", "è", "e", "é", "e", "ê", "e", "ë", "e",
	"ì", "i", "í", "i", "î", "i", "ï", "i", "ñ", "n",
	"ò", "o", "ó", "o", "ô", "o", "ö", "o", "õ", "o",
	"ù", "u", "ú", "u", "û", "u", "ü", "u", "ÿ", "y",
	"œ", "oe", "æ", "ae", "·", "", "’", "'",
)

// normalize lower-cases text and removes accents.
func normalize(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			return accents.Replace(t)
		}
	}
	return t // plain ASCII: nothing to replace
}

// phrase is a multi-word name and the code it stands for.
type phrase struct {
	words []string
	code  string
}

// phrases are names by their first word, longest first.
type phrases map[string][]phrase

// index groups phrases (longest first) by their first word.
func index(ps []phrase) phrases {
	sortPhrases(ps)
	out := phrases{}
	for _, p := range ps {
		if len(p.words) > 0 {
			out[p.words[0]] = append(out[p.words[0]], p)
		}
	}
	return out
}

// cardPhrases lists every card name and alias.
func (a *Aid) cardPhrases() phrases { return a.cardPh }

// winePhrases lists every wine code and name.
func (a *Aid) winePhrases() phrases { return a.winePh }

// buildCardPhrases lists every card name and alias (longest first).
func (a *Aid) buildCardPhrases() phrases {
	var out []phrase
	for c := range a.order {
		out = append(out, phrase{strings.Fields(c), c})
	}
	for _, v := range a.Grapes {
		name := strings.Fields(normalize(v.Name))
		for st := 1; st <= 3; st++ {
			code := v.Code + strconv.Itoa(st)
			for _, stars := range []string{strings.Repeat("★", st), strconv.Itoa(st), strconv.Itoa(st) + "★"} {
				out = append(out, phrase{append(slices.Clone(name), stars), code})
			}
		}
	}
	for _, sp := range a.Specials {
		out = append(out, phrase{strings.Fields(normalize(sp.Alias)), sp.Code})
		out = append(out, phrase{strings.Fields(normalize(sp.Name)), sp.Code})
	}
	return index(out)
}

// buildWinePhrases lists every wine code and name (longest first).
func (a *Aid) buildWinePhrases() phrases {
	var out []phrase
	for _, w := range a.Wines {
		out = append(out, phrase{strings.Fields(normalize(w.Code)), w.Code})
		out = append(out, phrase{strings.Fields(normalize(w.Name)), w.Code})
	}
	return index(out)
}

func sortPhrases(ps []phrase) {
	slices.SortStableFunc(ps, func(x, y phrase) int {
		if len(x.words) != len(y.words) {
			return len(y.words) - len(x.words)
		}
		return strings.Compare(x.code, y.code)
	})
}

// match finds the phrase that starts toks; it returns the code and the
// number of tokens used (0 when none).
func match(idx phrases, toks []string) (string, int) {
	if len(toks) == 0 {
		return "", 0
	}
	for _, p := range idx[toks[0]] {
		if len(p.words) > 0 && len(p.words) <= len(toks) && slices.Equal(p.words, toks[:len(p.words)]) {
			return p.code, len(p.words)
		}
	}
	return "", 0
}

// parser reads tokens of one move line.
type parser struct {
	s    *State
	toks []string
	text string
}

func (p *parser) more() bool { return len(p.toks) > 0 }

func (p *parser) peek() string {
	if len(p.toks) == 0 {
		return ""
	}
	return p.toks[0]
}

func (p *parser) next() string {
	t := p.peek()
	if len(p.toks) > 0 {
		p.toks = p.toks[1:]
	}
	return t
}

// fail refuses the line with the catalog's reason "refusal.parse_<what>":
// the line as it was read, then args.
func (p *parser) fail(what string, args ...any) error {
	return words.Unparsable("refusal.parse_"+what, append([]any{moveText(p.text)}, args...)...)
}

// moveText is a move line, as the notation read it, written in the words of
// each language: a refusal quotes it in the reader's words.
func moveText(line string) games.Phrase { return words.Written(line) }

// barrel reads a barrel number 1–4.
func (p *parser) barrel() (int, error) {
	t := p.next()
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > p.s.aid.Barrels {
		return 0, p.fail("barrel", p.s.aid.Barrels)
	}
	return n, nil
}

// slot reads a market slot 1–2.
func (p *parser) slot() (int, error) {
	t := p.next()
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > 2 {
		return 0, p.fail("slot")
	}
	return n, nil
}

// card reads one card name.
func (p *parser) card() (string, error) {
	c, n := match(p.s.aid.cardPhrases(), p.toks)
	if n == 0 {
		if !p.more() {
			return "", p.fail("card_missing")
		}
		return "", p.fail("card", p.peek())
	}
	p.toks = p.toks[n:]
	return c, nil
}

// cards reads card names to the end of the line (nil when none).
func (p *parser) cards() ([]string, error) {
	var out []string
	for p.more() {
		c, err := p.card()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// seat reads a seat: a seat number, or a player's name.
func (p *parser) seat() (games.Seat, error) {
	t := p.peek()
	if t == "" {
		return 0, p.fail("player_missing")
	}
	if n, err := strconv.Atoi(t); err == nil {
		if n < 0 || n >= len(p.s.Players) {
			return 0, p.fail("seat", t)
		}
		p.next()
		return games.Seat(n), nil
	}
	best, used := -1, 0
	for i, name := range p.s.Players {
		w := strings.Fields(normalize(name))
		if len(w) > used && len(w) <= len(p.toks) && slices.Equal(w, p.toks[:len(w)]) {
			best, used = i, len(w)
		}
	}
	if best < 0 {
		return 0, p.fail("player", t)
	}
	p.toks = p.toks[used:]
	return games.Seat(best), nil
}

// form reads time|facedown.
func (p *parser) form() (bool, error) {
	switch p.next() {
	case "time":
		return false, nil
	case "facedown", "face-down":
		return true, nil
	}
	return false, p.fail("form")
}

func (p *parser) done() error {
	if p.more() {
		return p.fail("extra", strings.Join(p.toks, " "))
	}
	return nil
}

// Parse implements games.Rules: the notation of section 7.
func (Rules) Parse(s *State, text string) (Move, error) {
	if s.aid == nil {
		return Move{}, words.Unparsable("refusal.not_set_up")
	}
	norm := normalize(text)
	norm = strings.ReplaceAll(norm, "face down", "facedown")
	p := &parser{s: s, toks: strings.Fields(norm), text: strings.TrimSpace(text)}
	if !p.more() {
		return Move{}, words.Unparsable("refusal.empty")
	}
	m, err := p.move()
	if err != nil {
		return Move{}, err
	}
	if err := p.done(); err != nil {
		return Move{}, err
	}
	return m, nil
}

func (p *parser) move() (Move, error) {
	a := p.s.aid
	var m Move
	var err error
	head := p.peek()
	switch head {
	case "draw":
		p.next()
		switch p.peek() {
		case "", "deck":
			p.next()
			return Move{Kind: mvDraw}, nil
		case "market":
			p.next()
			m.Kind = mvMarket
			m.Slot, err = p.slot()
			return m, err
		}
		return m, p.fail("draw")
	case "make":
		p.next()
		m.Kind = mvMake
		w, n := match(a.winePhrases(), p.toks)
		if n == 0 {
			codes := make([]string, len(a.Wines))
			for i, w := range a.Wines {
				codes[i] = w.Code
			}
			return m, p.fail("wine", strings.Join(codes, ", "))
		}
		p.toks = p.toks[n:]
		m.Wine = w
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		m.Cards, err = p.cards()
		a.sortCards(m.Cards)
		return m, err
	case "repair", "bottle":
		p.next()
		m.Kind = mvRepair
		if head == "bottle" {
			m.Kind = mvBottle
		}
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		m.Cards, err = p.cards()
		a.sortCards(m.Cards)
		return m, err
	case "time":
		p.next()
		m.Kind = mvTime
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		m.Cards, err = p.cards()
		if len(m.Cards) > 1 {
			a.sortCards(m.Cards[1:])
		}
		return m, err
	case "discard":
		p.next()
		m.Kind = mvDiscard
		m.Card, err = p.card()
		return m, err
	case "pick":
		p.next()
		m.Kind = mvPick
		if n, e := strconv.Atoi(p.peek()); e == nil {
			p.next()
			h := p.s.Harvest
			if h == nil || n < 1 || n > len(h.Cards) {
				return m, words.Illegal("CP-27", "refusal.no_position", n)
			}
			m.Card = h.Cards[n-1]
			return m, nil
		}
		m.Card, err = p.card()
		return m, err
	case "take":
		p.next()
		m.Kind = mvTake
		switch p.next() {
		case "nothing":
			m.Nothing = true
			return m, nil
		case "market":
			m.Slot, err = p.slot()
			return m, err
		}
		return m, p.fail("take")
	case "age":
		p.next()
		m.Kind = mvAge
		if p.peek() == "nothing" {
			p.next()
			m.Nothing = true
			return m, nil
		}
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		m.Card, err = p.card()
		return m, err
	case "recover":
		p.next()
		m.Kind = mvRecover
		if m.FaceDown, err = p.form(); err != nil {
			return m, err
		}
		m.Card, err = p.card()
		return m, err
	case "end":
		p.next()
		return Move{Kind: mvEnd}, nil
	}
	code, n := match(a.cardPhrases(), p.toks)
	if n == 0 || a.effect[code] == "" {
		return m, p.fail("move")
	}
	p.toks = p.toks[n:]
	m.Kind, m.Special = mvSpecial, code
	switch a.effect[code] {
	case effYoung:
		m.Barrel, err = p.barrel()
	case effStealCard:
		m.Target, err = p.seat()
	case effSpoil, effOenologue:
		if a.effect[code] == effOenologue && len(p.toks) == 1 {
			m.Target = p.s.Turn.Seat
			m.Barrel, err = p.barrel()
			return m, err
		}
		if m.Target, err = p.seat(); err != nil {
			return m, err
		}
		m.Barrel, err = p.barrel()
	case effHarvest:
	case effEvaporate:
		if m.Target, err = p.seat(); err != nil {
			return m, err
		}
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		m.Card, err = p.card()
	case effStealTime:
		if m.Target, err = p.seat(); err != nil {
			return m, err
		}
		if m.Barrel, err = p.barrel(); err != nil {
			return m, err
		}
		if m.FaceDown, err = p.form(); err != nil {
			return m, err
		}
		m.Own, err = p.barrel()
	}
	return m, err
}

// seatName is how Format writes a seat: the player's name when it is one
// word that cannot be mistaken, else the seat number.
func (s *State) seatName(seat games.Seat) string {
	if seat < 0 || int(seat) >= len(s.Players) {
		return strconv.Itoa(int(seat))
	}
	n := normalize(s.Players[seat])
	ok := n != "" && len(strings.Fields(n)) == 1
	if _, err := strconv.Atoi(n); err == nil {
		ok = false
	}
	for i, o := range s.Players {
		if i == int(seat) {
			continue
		}
		// Another player with the same name, or whose longer name starts
		// with this one ("Jean" and "Jean 2"), would be read instead.
		if w := strings.Fields(normalize(o)); len(w) > 0 && w[0] == n {
			ok = false
		}
	}
	if !ok {
		return strconv.Itoa(int(seat))
	}
	return n
}

// Format implements games.Rules: the first form of each row of section 7,
// with the cards and wines by their names as the board shows them ([HOUSE]
// CP-52: "make rouge 1 Garnatxa ★★ Trepat ★"); Parse reads the codes too.
func (Rules) Format(s *State, m Move) string {
	if s.aid == nil {
		return formatCodes(s, m)
	}
	a := s.aid
	name := a.cardName
	names := a.cardNames
	return formatWith(s, m, name, names, a.wineName, a.verb)
}

// formatCodes is Format by the cards' codes, for a state without its data.
func formatCodes(s *State, m Move) string {
	id := func(c string) string { return c }
	return formatWith(s, m, id, func(cs []string) string { return strings.Join(cs, " ") }, id, id)
}

// formatWith is Format with the given words for cards and wines.
func formatWith(s *State, m Move, name func(string) string, names func([]string) string, wine, verb func(string) string) string {
	b := strconv.Itoa
	form := func(fd bool) string {
		if fd {
			return "facedown"
		}
		return "time"
	}
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch m.Kind {
	case mvDraw:
		return "draw"
	case mvMarket:
		return "draw market " + b(m.Slot)
	case mvMake:
		return join("make", wine(m.Wine), b(m.Barrel), names(m.Cards))
	case mvRepair, mvBottle, mvTime:
		return join(m.Kind, b(m.Barrel), names(m.Cards))
	case mvDiscard:
		return "discard " + name(m.Card)
	case mvPick:
		return "pick " + name(m.Card)
	case mvTake:
		if m.Nothing {
			return "take nothing"
		}
		return "take market " + b(m.Slot)
	case mvAge:
		if m.Nothing {
			return "age nothing"
		}
		return join("age", b(m.Barrel), name(m.Card))
	case mvRecover:
		return join("recover", form(m.FaceDown), name(m.Card))
	case mvEnd:
		return "end"
	case mvSpecial:
		if s.aid == nil {
			return verb(m.Special)
		}
		switch s.aid.effect[m.Special] {
		case effYoung:
			return join(verb(m.Special), b(m.Barrel))
		case effStealCard:
			return join(verb(m.Special), s.seatName(m.Target))
		case effSpoil, effOenologue:
			return join(verb(m.Special), s.seatName(m.Target), b(m.Barrel))
		case effHarvest:
			return verb(m.Special)
		case effEvaporate:
			return join(verb(m.Special), s.seatName(m.Target), b(m.Barrel), name(m.Card))
		case effStealTime:
			return join(verb(m.Special), s.seatName(m.Target), b(m.Barrel), form(m.FaceDown), b(m.Own))
		}
	}
	return m.Kind
}

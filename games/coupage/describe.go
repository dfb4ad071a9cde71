package coupage

import (
	"github.com/courrier-games/courrier/games"
)

// Describe implements games.Rules: what event e (which applies to s) did,
// in words of the game's catalog, as seat may know it. It describes the
// seat's redacted event, so it never tells more than Redact shows, in any
// language: a card drawn, stolen or put face down is named only for the
// seats that may see it (section 5). The end of a turn and the discard of
// a special just played are not told (the zero phrase).
func (r Rules) Describe(s *State, e Event, seat games.Seat) games.Phrase {
	t := r.describe(s, e, seat)
	if t.IsZero() {
		return games.Phrase{}
	}
	return words.Phrase(t.Key, t.Args...)
}

// describe is Describe as a text of the catalog ("said.<name>", and
// "said.<name>.you" where the seat itself is the subject: "You drew…",
// "Vous avez pioché…"), the zero text for an event not told.
func (r Rules) describe(s *State, e Event, seat games.Seat) games.Text {
	e = r.Redact(s, e, seat)
	t := teller{s: s, seat: seat}
	switch e.Type {
	case evSeated:
		return t.seated(e)
	case evShuffled:
		if e.Reason == "reshuffle" {
			return games.T("said.reshuffled", games.T("said.n_cards", e.N))
		}
		return games.T("said.shuffled", games.T("said.n_cards", e.N))
	case evDrew:
		return t.drew(e)
	case evMarket:
		return games.T("said.market", e.Slot, t.card(e.Card))
	case evTook:
		if e.Reason == "ability" {
			return t.by(e.Seat, "said.took_ability", t.card(e.Card), e.Slot, t.abilityWine(abTake))
		}
		return t.by(e.Seat, "said.took", t.card(e.Card), e.Slot)
	case evMade:
		return t.by(e.Seat, "said.made", games.Plain(s.wineName(e.Wine)), t.barrel(e.Seat, e.Seat, e.Barrel), t.cards(e.Cards))
	case evRepaired:
		return t.by(e.Seat, "said.repaired", t.barrel(e.Seat, e.Seat, e.Barrel), t.cards(e.Cards))
	case evAged:
		return t.aged(e)
	case evBottled:
		return t.bottled(e)
	case evCleared:
		if len(e.Cards) == 0 {
			return games.Text{}
		}
		return games.T("said.cleared", t.fromBarrel(nobody, e.Seat, e.Barrel), t.cards(e.Cards))
	case evRecovered:
		what := games.T("said.a_face_down_card")
		if e.Card != "" {
			what = t.card(e.Card)
		}
		if len(e.Cards) > 0 {
			what = games.List(what, t.cards(e.Cards))
		}
		return t.by(e.Seat, "said.recovered", what, t.barrelWine(e.Seat, e.Barrel), t.barrel(e.Seat, e.Seat, e.Barrel), t.abilityWine(abRecover))
	case evDeclined:
		return t.by(e.Seat, "said.declined", t.abilityWine(e.Ability))
	case evAbility:
		return t.by(e.Seat, "said.ability", t.abilityWine(e.Ability))
	case evDiscarded:
		switch e.Reason {
		case "special":
			return games.Text{} // the special was announced when played (evPlayed)
		case "harvest":
			return games.T("said.harvest_discarded", t.cards(e.Cards))
		}
		return t.by(e.Seat, "said.discarded", t.cards(e.Cards))
	case evPlayed:
		return t.by(e.Seat, "said.played", t.card(e.Card))
	case evSpoiled:
		return t.by(e.Seat, "said.spoiled", t.barrel(e.Seat, e.Target, e.Barrel))
	case evSpoilMoved:
		return games.T("said.spoil_moved", t.barrel(nobody, e.Target, e.Barrel), e.Counter)
	case evSpoilGone:
		if e.Reason == "oenologue" {
			return t.by(e.Seat, "said.oenologue", t.fromBarrel(e.Seat, e.Target, e.Barrel))
		}
		return games.T("said.spoil_gone", t.barrel(nobody, e.Target, e.Barrel))
	case evStole:
		return t.stole(e)
	case evEvaporated:
		return t.by(e.Seat, "said.evaporated", t.card(e.Card), t.fromBarrel(e.Seat, e.Target, e.Barrel))
	case evTimeStolen:
		what := games.T("said.a_time_card")
		if e.FaceDown {
			what = games.T("said.a_face_down_time")
		}
		return t.by(e.Seat, "said.time_stolen", what, t.fromBarrel(e.Seat, e.Target, e.Barrel), t.barrel(nobody, e.Seat, e.Own))
	case evRevealed:
		return games.T("said.revealed", t.cards(e.Cards))
	case evPicked:
		return t.by(e.Seat, "said.picked", t.card(e.Card))
	case evTurnEnded:
		return games.Text{}
	case evTurnStarted:
		switch {
		case e.Extra:
			return t.by(e.Seat, "said.extra_turn", t.abilityWine(abExtra))
		case e.Seat == seat:
			return games.T("said.your_turn")
		}
		return games.T("said.turn_of", s.of(e.Seat))
	case evResigned:
		if len(e.Cards) > 0 {
			return t.by(e.Seat, "said.resigned_cards", t.cards(e.Cards))
		}
		return t.by(e.Seat, "said.resigned")
	case evGameOver:
		return t.gameOver(e)
	}
	return games.Text{}
}

// nobody is the subject of a sentence about no player ("The Vin piqué on
// Ana's barrel 2…"), for teller.barrel.
const nobody games.Seat = -2

// teller writes names, cards and barrels as one seat reads them, as texts
// of the catalog.
type teller struct {
	s    *State
	seat games.Seat
}

// by is the text of key told of p, the subject of the sentence: key+".you"
// with args when p is the seat itself ("You drew…"), else key with p's
// name before args ("Ana drew…"). French conjugates the verb for "vous",
// so the two are separate messages.
func (t teller) by(p games.Seat, key string, args ...any) games.Text {
	if p == t.seat {
		return games.T(key+".you", args...)
	}
	return games.T(key, append([]any{t.s.name(p)}, args...)...)
}

// barrel is owner's barrel n as told in a sentence whose subject is actor
// (nobody for none): "your barrel 2", "barrel 2" (the subject's own, "son
// tonneau 2") or "Ana's barrel 2" ("le tonneau 2 d’Ana").
func (t teller) barrel(actor, owner games.Seat, n int) games.Text {
	return t.barrelAs("said.barrel", actor, owner, n)
}

// fromBarrel is barrel after "from" (French joins "de" to the barrel:
// "du tonneau 2 d’Ana", "de votre tonneau 2").
func (t teller) fromBarrel(actor, owner games.Seat, n int) games.Text {
	return t.barrelAs("said.from_barrel", actor, owner, n)
}

// barrelAs is barrel in the forms of key: key+".yours", key+".own" and
// key+".of".
func (t teller) barrelAs(key string, actor, owner games.Seat, n int) games.Text {
	switch owner {
	case t.seat:
		return games.T(key+".yours", n)
	case actor:
		return games.T(key+".own", n)
	}
	return games.T(key+".of", t.s.of(owner), n)
}

// barrelWine is the wine of owner's barrel n ("Cava blanc"), or the word
// for a wine when the barrel is none.
func (t teller) barrelWine(owner games.Seat, n int) games.Text {
	if owner >= 0 && int(owner) < len(t.s.Barrels) && n >= 1 && n <= len(t.s.Barrels[owner]) {
		return games.Plain(t.s.wineName(t.s.Barrels[owner][n-1].Wine))
	}
	return games.T("said.wine")
}

// card is a card in words, by its name as the board shows it: a grape by
// its variety and stars ("Macabeu ★★"), a special by its name, the same
// in every language; a Time card in the reader's words ("a Time card").
func (t teller) card(c string) games.Text {
	if c == timeCard {
		return games.T("said.a_time_card")
	}
	if a := t.s.aid; a != nil {
		return games.Plain(a.cardName(c))
	}
	return games.Plain(c)
}

// cards lists cards in words: "Macabeu ★, 2 Time cards and Vin piqué" (the
// Time cards counted where the first one is).
func (t teller) cards(cs []string) games.Text {
	items := make([]any, 0, len(cs))
	times := 0
	for _, c := range cs {
		if c == timeCard {
			times++
		}
	}
	for _, c := range cs {
		switch {
		case c != timeCard:
			items = append(items, t.card(c))
		case times == 1:
			items = append(items, t.card(c))
		case times > 1:
			items = append(items, games.T("said.time_cards", times))
			times = 0
		}
	}
	return games.List(items...)
}

// abilityWine is the name of the wine that has an ability ("Rosé").
func (t teller) abilityWine(ability string) games.Text {
	if a := t.s.aid; a != nil {
		for _, w := range a.Wines {
			if w.Ability == ability {
				return games.Plain(w.Name)
			}
		}
	}
	return games.Plain(ability)
}

func (t teller) seated(e Event) games.Text {
	names := make([]any, len(e.Players))
	for i, n := range e.Players {
		names[i] = n
		if games.Seat(i) == t.seat {
			names[i] = games.T("said.you_tag", n)
		}
	}
	if e.Options["wine_abilities"] == "off" {
		return games.T("said.seated_off", games.List(names...))
	}
	return games.T("said.seated", games.List(names...))
}

func (t teller) drew(e Event) games.Text {
	if e.N == 0 {
		return t.by(e.Seat, "said.drew_none")
	}
	what := games.T("said.n_cards", e.N)
	if e.Cards != nil {
		what = t.cards(e.Cards)
	}
	switch e.Reason {
	case "deal":
		return t.by(e.Seat, "said.dealt", what)
	case "turn":
		return t.by(e.Seat, "said.drew_deck", what)
	case "refill":
		return t.by(e.Seat, "said.drew_refill", what)
	}
	return t.by(e.Seat, "said.drew", what)
}

func (t teller) aged(e Event) games.Text {
	where := t.barrel(e.Seat, e.Seat, e.Barrel)
	switch e.Reason {
	case "stars":
		what := games.T("said.a_grape_card")
		if e.Card != "" {
			what = t.card(e.Card)
		}
		if len(e.Paid) > 0 {
			return t.by(e.Seat, "said.aged_stars_paid", what, where, t.cards(e.Paid))
		}
		return t.by(e.Seat, "said.aged_stars", what, where)
	case "rouge":
		what := games.T("said.a_card_from_their_hand")
		switch {
		case e.Card != "":
			what = t.card(e.Card)
		case e.Seat == t.seat:
			what = games.T("said.a_card_from_your_hand")
		}
		return t.by(e.Seat, "said.aged_rouge", what, where, t.abilityWine(abAge))
	}
	return t.by(e.Seat, "said.aged", where)
}

func (t teller) bottled(e Event) games.Text {
	var paying, cava any = "", ""
	if len(e.Paid) > 0 {
		paying = games.T("said.paying", t.cards(e.Paid))
	} else if !e.Action {
		paying = games.T("said.young")
	}
	if e.Cava {
		cava = games.T("said.with_cava")
	}
	out := t.by(e.Seat, "said.bottled", games.Plain(t.s.wineName(e.Wine)), t.barrel(e.Seat, e.Seat, e.Barrel), paying, cava)
	if e.Extra {
		out = games.T("said.two", out, t.by(e.Seat, "said.extra_next", t.abilityWine(abExtra)))
	}
	return out
}

func (t teller) stole(e Event) games.Text {
	what := games.T("said.a_card")
	if e.Card != "" {
		what = t.card(e.Card)
	}
	switch t.seat {
	case e.Seat:
		return games.T("said.stole.you", what, t.s.of(e.Target))
	case e.Target:
		return games.T("said.stole_yours", t.s.name(e.Seat), what)
	}
	return games.T("said.stole", t.s.name(e.Seat), what, t.s.of(e.Target))
}

func (t teller) gameOver(e Event) games.Text {
	if len(e.Winners) == 0 {
		switch e.Reason {
		case endDeadlock:
			return games.T("said.over_deadlock")
		case endIdle:
			return games.T("said.over_idle", idleRounds)
		}
		return games.T("said.over")
	}
	key := "said.won"
	left := 0
	for _, r := range t.s.Resigned {
		if r {
			left++
		}
	}
	if left == len(t.s.Players)-1 {
		key = "said.won_left"
	}
	if len(e.Winners) == 1 {
		return t.by(e.Winners[0], key)
	}
	names := make([]any, len(e.Winners))
	for i, w := range e.Winners {
		names[i] = t.s.name(w)
	}
	return games.T(key+"_many", games.List(names...))
}

package coupage

import (
	"slices"

	"github.com/courrier-games/courrier/games"
)

// distinct returns the distinct codes of cards in canonical order with
// their counts.
func (a *Aid) distinct(cards []string) ([]string, []int) {
	sorted := a.sortCards(slices.Clone(cards))
	var codes []string
	var counts []int
	for _, c := range sorted {
		if n := len(codes); n > 0 && codes[n-1] == c {
			counts[n-1]++
			continue
		}
		codes = append(codes, c)
		counts = append(counts, 1)
	}
	return codes, counts
}

// multisets lists every multiset of k cards drawn from codes (with at most
// counts[i] of codes[i]), each in canonical order.
func multisets(codes []string, counts []int, k int) [][]string {
	var out [][]string
	var cur []string
	var rec func(i, left int)
	rec = func(i, left int) {
		if left == 0 {
			out = append(out, slices.Clone(cur))
			return
		}
		if i >= len(codes) {
			return
		}
		for n := min(counts[i], left); n >= 0; n-- {
			for range n {
				cur = append(cur, codes[i])
			}
			rec(i+1, left-n)
			cur = cur[:len(cur)-n]
		}
	}
	rec(0, k)
	return out
}

// grapesOf filters grape cards.
func (a *Aid) grapesOf(cards []string) []string {
	var out []string
	for _, c := range cards {
		if a.isGrape(c) {
			out = append(out, c)
		}
	}
	return out
}

// payments lists the minimal star payments (CP-43) of at least need stars
// from hand, in canonical order.
func (a *Aid) payments(hand []string, need int) [][]string {
	codes, counts := a.distinct(a.grapesOf(hand))
	var out [][]string
	for k := 1; k <= need; k++ {
		for _, ms := range multisets(codes, counts, k) {
			if a.paid(ms, need) {
				out = append(out, ms)
			}
		}
	}
	return out
}

// Legal implements games.Rules: every move seat may make now, canonical.
func (r Rules) Legal(s *State, seat games.Seat) []string {
	_, texts := r.legal(s, seat)
	return texts
}

// legal lists the moves seat may make now and their canonical texts.
func (r Rules) legal(s *State, seat games.Seat) ([]Move, []string) {
	var cands []Move
	add := func(m Move) { cands = append(cands, m) }
	if s.aid == nil || s.Over || seat < 0 || int(seat) >= len(s.Players) {
		return nil, nil
	}
	a := s.aid
	if h := s.Harvest; h != nil {
		if h.Order[h.Next] != seat {
			return nil, nil
		}
		for _, c := range h.Cards {
			add(Move{Kind: mvPick, Card: c})
		}
		return r.filter(s, seat, cands)
	}
	if seat != s.Turn.Seat {
		return nil, nil
	}
	add(Move{Kind: mvEnd})
	hand := s.Hands[seat]
	nb := len(s.Barrels[seat])
	switch {
	case s.Turn.Ability == abTake:
		add(Move{Kind: mvTake, Nothing: true})
		for slot := 1; slot <= 2; slot++ {
			add(Move{Kind: mvTake, Slot: slot})
		}
	case s.Turn.Ability == abAge:
		add(Move{Kind: mvAge, Nothing: true})
		codes, _ := a.distinct(hand)
		for _, bi := range s.timeReceivers(seat) {
			for _, c := range codes {
				add(Move{Kind: mvAge, Barrel: bi, Card: c})
			}
		}
	case s.Turn.Ability == abRecover:
		bar := s.Barrels[seat][s.Turn.AbilityBarrel]
		codes, _ := a.distinct(bar.Grapes)
		for _, fd := range []bool{false, true} {
			for _, c := range codes {
				add(Move{Kind: mvRecover, FaceDown: fd, Card: c})
			}
		}
	case !s.Turn.Drawn:
		add(Move{Kind: mvDraw})
		for slot := 1; slot <= 2; slot++ {
			add(Move{Kind: mvMarket, Slot: slot})
		}
	default:
		r.actions(s, seat, hand, nb, add)
	}
	return r.filter(s, seat, cands)
}

// actions adds the candidate actions of seat (CP-5).
func (r Rules) actions(s *State, seat games.Seat, hand []string, nb int, add func(Move)) {
	a := s.aid
	grapes := a.grapesOf(hand)
	gcodes, gcounts := a.distinct(grapes)
	codes, _ := a.distinct(hand)
	wines, cavas := s.countWines(seat)
	for _, w := range a.Wines {
		if (w.IsCava() && cavas >= 2) || (!w.IsCava() && wines >= 3) {
			continue
		}
		var empty []int
		for j, b := range s.Barrels[seat] {
			if b.State == Empty {
				empty = append(empty, j+1)
			}
		}
		if len(empty) == 0 {
			break
		}
		for _, ms := range multisets(gcodes, gcounts, w.size()) {
			if !a.matches(w, ms) {
				continue
			}
			for _, bi := range empty {
				add(Move{Kind: mvMake, Wine: w.Code, Barrel: bi, Cards: ms})
			}
		}
	}
	receivers := s.timeReceivers(seat)
	var starTime [][]string
	if len(receivers) > 0 {
		for _, pay := range a.payments(hand, 3) {
			pc, _ := a.distinct(pay)
			for _, first := range pc {
				rest := slices.Clone(pay)
				i := slices.Index(rest, first)
				rest = slices.Delete(rest, i, i+1)
				starTime = append(starTime, append([]string{first}, rest...))
			}
		}
	}
	hasTime := slices.Contains(hand, timeCard)
	for j := range nb {
		bi := j + 1
		b := s.Barrels[seat][j]
		if b.State != Production {
			continue
		}
		w, _ := a.wine(b.Wine)
		if missing := w.size() - len(b.Grapes); missing > 0 && b.Spoil == 0 {
			for _, ms := range multisets(gcodes, gcounts, missing) {
				add(Move{Kind: mvRepair, Barrel: bi, Cards: ms})
			}
		}
		if slices.Contains(receivers, bi) {
			if hasTime {
				add(Move{Kind: mvTime, Barrel: bi})
			}
			for _, st := range starTime {
				add(Move{Kind: mvTime, Barrel: bi, Cards: st})
			}
		}
		if _, err := s.ready(seat, bi, "CP-10"); err == nil {
			for _, pay := range a.payments(hand, w.Stars) {
				add(Move{Kind: mvBottle, Barrel: bi, Cards: pay})
			}
		}
	}
	for _, c := range codes {
		add(Move{Kind: mvDiscard, Card: c})
	}
	n := len(s.Players)
	for _, c := range codes {
		eff, ok := a.effect[c]
		if !ok {
			continue
		}
		sp := Move{Kind: mvSpecial, Special: c}
		switch eff {
		// Only targets that can pass validate are proposed (filter still
		// validates each one).
		case effYoung:
			for bi := 1; bi <= nb; bi++ {
				if s.Barrels[seat][bi-1].State != Production {
					continue
				}
				m := sp
				m.Barrel = bi
				add(m)
			}
		case effStealCard:
			for t := range n {
				if games.Seat(t) == seat || s.Resigned[t] || len(s.Hands[t]) == 0 {
					continue
				}
				m := sp
				m.Target = games.Seat(t)
				add(m)
			}
		case effSpoil, effOenologue:
			for t := range n {
				if eff == effSpoil && (games.Seat(t) == seat || s.Resigned[t]) {
					continue
				}
				for bi := 1; bi <= nb; bi++ {
					b := s.Barrels[t][bi-1]
					if eff == effSpoil && (b.Spoil != 0 || b.State != Production) || eff == effOenologue && b.Spoil == 0 {
						continue
					}
					m := sp
					m.Target, m.Barrel = games.Seat(t), bi
					add(m)
				}
			}
		case effHarvest:
			add(sp)
		case effEvaporate:
			for t := range n {
				for j, b := range s.Barrels[t] {
					if games.Seat(t) == seat || s.Resigned[t] || b.State != Production || len(b.Grapes) < 2 {
						continue
					}
					gc, _ := a.distinct(b.Grapes)
					for _, g := range gc {
						m := sp
						m.Target, m.Barrel, m.Card = games.Seat(t), j+1, g
						add(m)
					}
				}
			}
		case effStealTime:
			for t := range n {
				for j, b := range s.Barrels[t] {
					if games.Seat(t) == seat || s.Resigned[t] || b.State != Production || len(b.Time) == 0 {
						continue
					}
					for _, fd := range []bool{false, true} {
						if timeIndex(b, fd) < 0 {
							continue
						}
						for _, own := range receivers {
							m := sp
							m.Target, m.Barrel, m.FaceDown, m.Own = games.Seat(t), j+1, fd, own
							add(m)
						}
					}
				}
			}
		}
	}
}

// filter keeps the valid candidates and writes them canonically, once each.
func (r Rules) filter(s *State, seat games.Seat, cands []Move) ([]Move, []string) {
	moves := make([]Move, 0, len(cands))
	texts := make([]string, 0, len(cands))
	seen := map[string]bool{}
	for _, m := range cands {
		if s.validate(seat, m) != nil {
			continue
		}
		t := r.Format(s, m)
		if !seen[t] {
			seen[t] = true
			moves = append(moves, m)
			texts = append(texts, t)
		}
	}
	return moves, texts
}

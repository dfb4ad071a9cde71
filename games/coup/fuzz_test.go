package coup

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// fuzzState plays a seeded random game (options and players drawn from game)
// for up to steps moves by random legal moves, defaults and resignations.
func fuzzState(t *testing.T, game uint64, steps uint16) (games.Engine, *State, games.Seed, int) {
	t.Helper()
	eng := New()
	var seed games.Seed
	binary.LittleEndian.PutUint64(seed[:8], game)
	pick := seed.Rand(1 << 40)
	evs, err := eng.Setup(randomOptions(pick), randomPlayers(pick), seed.Rand(0))
	if err != nil {
		t.Fatal(err)
	}
	st, err := games.Fold(eng, RulesVersion, evs)
	if err != nil {
		t.Fatal(err)
	}
	version := len(evs)
	for range int(steps % 400) {
		pend := eng.Pending(st)
		if len(pend) == 0 {
			break
		}
		p := pend[pick.IntN(len(pend))]
		var out []games.RawEvent
		switch k := pick.IntN(50); {
		case k == 0:
			out, err = eng.Resign(st, p.Seat, seed.Rand(version))
		case k < 12:
			out, err = eng.Decide(st, p.Seat, p.Default, seed.Rand(version))
		default:
			legal := eng.Legal(st, p.Seat)
			out, err = eng.Decide(st, p.Seat, legal[pick.IntN(len(legal))], seed.Rand(version))
		}
		if err != nil {
			t.Fatalf("random play: %v", err)
		}
		for _, e := range out {
			if st, err = eng.Evolve(st, e); err != nil {
				t.Fatal(err)
			}
		}
		version += len(out)
	}
	return eng, st.(*State), seed, version
}

// swapHidden returns a copy of s in which one unrevealed card of a player
// other than seat is swapped with a different card of the Court, or nil.
func swapHidden(s *State, seat int) *State {
	if s.Stage == stOver || s.Stage == stEnd || s.Ctx.Proven != NoChar {
		return nil
	}
	for i, p := range s.Players {
		if i == seat || len(p.Hidden) == 0 {
			continue
		}
		for c := Duke; c < nChars; c++ {
			if s.Court[c] == 0 || slices.Contains(p.Hidden, c) {
				continue
			}
			alt := s.clone()
			old := alt.Players[i].Hidden[0]
			alt.Players[i].Hidden = addSorted(removeOne(alt.Players[i].Hidden, old), c)
			alt.Court[c]--
			alt.Court[old]++
			return alt
		}
	}
	return nil
}

// FuzzDecide feeds arbitrary text from arbitrary seats (spectator, out of
// range, eliminated, after the end) to states of random games. Decide, Parse,
// Legal, Pending, View and Resign must never panic; a rejected move is a rule
// error; an accepted one is listed in Legal, leaves the state alone and its
// events fold; and the answer never depends on another player's hidden card.
// The seed corpus runs as a normal test.
func FuzzDecide(f *testing.F) {
	texts := []string{
		"income", "foreign aid", "tax", "exchange", "defect", "challenge", "allow", "pass", "return", "change",
		"coup 1", "coup 0 duke", "coup ana", "steal 2", "assassinate 1", "examine 1", "block duke", "block contessa",
		"block captain", "block inquisitor", "reveal duke", "lose contessa", "show captain", "keep duke",
		"keep duke captain", "keep two queen", "faction up", "faction down", "auto-allow all on", "auto allow block off",
		"", " ", "coup", "coup 99999999999999999999", "coup -1", "steal -3", "keep a b c", "zzz", "coup ana ana ana duke",
		"ÀÉÎ õ", "\x00\xff", "auto-allow", "block", "reveal", "keep", "faction",
		"revenu", "aide étrangère", "taxe", "échanger", "défection", "contester", "je passe", "laisser passer", "rendre",
		"coup d’État 1", "coup d'etat 0 duc", "voler 2", "assassiner 1", "examiner 1", "bloquer le duc",
		"je bloque avec la Comtesse", "révéler duc", "je perds la comtesse", "montrer capitaine", "garder duc capitaine",
		"faction visible", "auto-passer tout oui", "auto-passer", "bloquer", "garder", "coup d’État",
	}
	for i, txt := range texts {
		f.Add(uint64(i%9), uint16(i*37), int8(i%8-1), txt)
	}
	f.Add(uint64(3), uint16(399), int8(-128), "income")
	f.Add(uint64(5), uint16(1000), int8(127), "allow")
	f.Fuzz(func(t *testing.T, game uint64, steps uint16, seat8 int8, text string) {
		eng, s, seed, version := fuzzState(t, game, steps)
		n := len(s.Players)
		seat := int(seat8)
		if seat >= 0 {
			seat %= n + 2
		}
		before := views(eng, s, n)
		r := Rules{}
		_, _ = r.Parse(s, text)
		_ = eng.Legal(s, games.Seat(seat))
		_ = eng.Pending(s)
		_ = eng.Result(s)
		if _, err := eng.View(s, games.Seat(seat)); err != nil {
			t.Fatal(err)
		}
		out, err := eng.Decide(s, games.Seat(seat), text, seed.Rand(version))
		if !slices.Equal(before, views(eng, s, n)) {
			t.Fatalf("Decide(%d, %q) changed the state", seat, text)
		}
		if err != nil {
			re, ok := games.AsRuleError(err)
			if !ok {
				t.Fatalf("Decide(%d, %q): not a rule error: %v", seat, text, err)
			}
			for _, lang := range games.Languages() {
				if cerr := words.In(lang).Check(re.Reason.Text); cerr != nil {
					t.Fatalf("Decide(%d, %q): the refusal in %s: %v", seat, text, lang, cerr)
				}
			}
		} else {
			canon, cerr := eng.Canonical(s, text)
			if cerr != nil || !slices.Contains(eng.Legal(s, games.Seat(seat)), canon) {
				t.Fatalf("Decide(%d, %q) accepted but %q is not in Legal %v", seat, text, canon, eng.Legal(s, games.Seat(seat)))
			}
			var st games.State = s.clone()
			for _, e := range out {
				for v := games.Spectator; v < games.Seat(n); v++ {
					if _, err := eng.Redact(st, e, v); err != nil {
						t.Fatal(err)
					}
					if _, err := eng.Describe(st, e, v); err != nil {
						t.Fatal(err)
					}
				}
				if st, err = eng.Evolve(st, e); err != nil {
					t.Fatal(err)
				}
			}
			_ = eng.Pending(st)
			_ = views(eng, st.(*State), n)
		}
		// The answer must not depend on a hidden card the mover cannot see.
		if m, perr := r.Parse(s, text); perr == nil {
			if alt := swapHidden(s, seat); alt != nil {
				_, err1 := r.Decide(s, games.Seat(seat), m, seed.Rand(version))
				_, err2 := r.Decide(alt, games.Seat(seat), m, seed.Rand(version))
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("Decide(%d, %q) depends on another player's hidden card: %v vs %v", seat, text, err1, err2)
				}
				for _, lang := range games.Languages() {
					if err1 != nil && games.Explain(err1, lang) != games.Explain(err2, lang) {
						t.Fatalf("Decide(%d, %q) in %s depends on another player's hidden card: %q vs %q", seat, text, lang, games.Explain(err1, lang), games.Explain(err2, lang))
					}
				}
			}
		}
		if _, err := eng.Resign(s, games.Seat(seat), seed.Rand(version)); err != nil {
			if _, ok := games.AsRuleError(err); !ok {
				t.Fatalf("Resign(%d): %v", seat, err)
			}
		}
	})
}

func views(eng games.Engine, s *State, n int) []string {
	out := make([]string, 0, n+1)
	for v := games.Spectator; v < games.Seat(n); v++ {
		b, _ := eng.View(s, v)
		out = append(out, string(b))
	}
	return out
}

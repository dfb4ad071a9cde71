package coupage

import (
	"reflect"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// TestNotationForms parses every form and alias of section 7 (and CP-46's
// additions) and checks the canonical form and the round trip.
func TestNotationForms(t *testing.T) {
	tb := tableSetup{
		seats:  []seatSetup{{}, {}, {}},
		market: [2]string{"ull3", "par3"},
	}.build(t)
	tb.s.Harvest = &Harvest{Cards: []string{"time", "mac3", "vin pique"}, Order: []games.Seat{0, 1, 2}}
	cases := []struct{ in, want string }{
		{"draw", "draw"},
		{"DRAW DECK", "draw"},
		{"  draw   market 2 ", "draw market 2"},
		{"make rouge 1 gar2 tre1", "make rouge 1 Garnatxa ★★ Trepat ★"},
		{"make Rouge 1 TRE1 gar2", "make rouge 1 Garnatxa ★★ Trepat ★"},
		{"make cava blanc 3 mac1 xar2 par1", "make cava blanc 3 Macabeu ★ Xarel·lo ★★ Parellada ★"},
		{"make cava rosé 3 par1 gar1 mac1", "make cava rosé 3 Macabeu ★ Parellada ★ Garnatxa ★"},
		{"make rosé 2 gar1 mac1", "make rosé 2 Macabeu ★ Garnatxa ★"},
		{"repair 2 xar1", "repair 2 Xarel·lo ★"},
		{"time 1", "time 1"},
		{"time 1 mac2 tre1", "time 1 Macabeu ★★ Trepat ★"},
		{"time 1 tre1 par1 mac1", "time 1 Trepat ★ Macabeu ★ Parellada ★"},
		{"bottle 1 par2", "bottle 1 Parellada ★★"},
		{"bottle 3 tre2 gar1", "bottle 3 Garnatxa ★ Trepat ★★"},
		{"discard mac1", "discard Macabeu ★"},
		{"discard vin piqué", "discard Vin piqué"},
		{"discard Spoil", "discard Vin piqué"},
		{"discard TIME", "discard time"},
		{"vin jeune 2", "vin jeune 2"},
		{"young wine 2", "vin jeune 2"},
		{"vol de carte bob", "vol de carte bob"},
		{"steal card 1", "vol de carte bob"},
		{"Vol de carte CLÉO", "vol de carte cleo"},
		{"vin pique bob 2", "vin piqué bob 2"},
		{"VIN PIQUÉ 1 2", "vin piqué bob 2"},
		{"spoil cleo 4", "vin piqué cleo 4"},
		{"oenologue ana 3", "œnologue ana 3"},
		{"Œnologue ana 3", "œnologue ana 3"},
		{"oenologist 0 3", "œnologue ana 3"},
		{"oenologue 3", "œnologue ana 3"},
		{"recolte", "récolte"},
		{"Récolte", "récolte"},
		{"harvest", "récolte"},
		{"evaporation 2 1 gar2", "évaporation cleo 1 Garnatxa ★★"},
		{"Évaporation bob 1 gar2", "évaporation bob 1 Garnatxa ★★"},
		{"evaporate bob 1 gar2", "évaporation bob 1 Garnatxa ★★"},
		{"vol de temps bob 2 facedown 1", "vol de temps bob 2 facedown 1"},
		{"steal time bob 2 time 1", "vol de temps bob 2 time 1"},
		{"vol de temps bob 2 face-down 1", "vol de temps bob 2 facedown 1"},
		{"pick 2", "pick Macabeu ★★★"},
		{"pick mac3", "pick Macabeu ★★★"},
		{"pick vin pique", "pick Vin piqué"},
		{"take market 1", "take market 1"},
		{"take nothing", "take nothing"},
		{"age 2 vin pique", "age 2 Vin piqué"},
		{"age nothing", "age nothing"},
		{"recover time xar2", "recover time Xarel·lo ★★"},
		{"recover facedown xar2", "recover facedown Xarel·lo ★★"},
		{"end", "end"},
		{"End", "end"},
	}
	for _, c := range cases {
		m, err := tb.r.Parse(tb.s, c.in)
		if err != nil {
			t.Errorf("parse %q: %v", c.in, err)
			continue
		}
		got := tb.r.Format(tb.s, m)
		if got != c.want {
			t.Errorf("format(parse(%q)) = %q, want %q", c.in, got, c.want)
		}
		back, err := tb.r.Parse(tb.s, got)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Errorf("parse(format(%q)) = %+v, %v; want %+v", c.in, back, err, m)
		}
	}
}

func TestNotationErrors(t *testing.T) {
	tb := tableSetup{market: [2]string{"ull3", "par3"}}.build(t)
	for _, in := range []string{"", "fly", "draw market 3", "draw top", "make 1 gar2", "make rouge 9 gar2",
		"make rouge 1 gar9", "time x", "discard", "vol de carte zoe", "vol de carte 7", "take market",
		"age 1", "recover sideways mac1", "vin pique bob", "vol de temps bob 1 maybe 1", "end now", "pick 1"} {
		_, err := tb.r.Parse(tb.s, in)
		if _, ok := games.AsRuleError(err); !ok {
			t.Errorf("parse %q: %v, want a rule error", in, err)
		}
	}
}

// TestNotationSeatNames checks CP-46: names that are numbers or duplicates
// are written by seat number.
func TestNotationSeatNames(t *testing.T) {
	tb := tableSetup{players: []string{"Ana", "42", "Jean Luc"}, market: [2]string{"ull3", "par3"}}.build(t)
	for seat, want := range []string{"ana", "1", "2"} {
		if got := tb.s.seatName(games.Seat(seat)); got != want {
			t.Errorf("seat %d written %q, want %q", seat, got, want)
		}
	}
	m, err := tb.r.Parse(tb.s, "vol de carte jean luc")
	if err != nil || m.Target != 2 {
		t.Errorf("multi-word name: %+v %v", m, err)
	}
}

package glicko_test

import (
	"math"
	"testing"

	"github.com/courrier-games/courrier/projections/glicko"
)

// TestThePapersWorkedExample is the example of Glickman's "Example of the
// Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and loses
// to 1550/100 and 1700/300.
func TestThePapersWorkedExample(t *testing.T) {
	player := glicko.Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := glicko.Update(player, []glicko.Result{
		{Opponent: glicko.Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: glicko.Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: glicko.Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		within    float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.within {
			t.Errorf("%s = %.5f, want %.5f ± %g", c.name, c.got, c.want, c.within)
		}
	}
}

func TestAPeriodWithoutGamesOnlyWidensTheDeviation(t *testing.T) {
	r := glicko.Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := glicko.Update(r, nil, glicko.Tau)
	want := math.Sqrt(200*200/(173.7178*173.7178)+0.06*0.06) * 173.7178
	if got.Rating != 1500 || math.Abs(got.Deviation-want) > 1e-9 || got.Volatility != 0.06 {
		t.Fatalf("after an empty period: %+v, want 1500/%.4f/0.06", got, want)
	}
}

func TestResultsMoveTheRatingTheirWay(t *testing.T) {
	cases := []struct {
		name  string
		score float64
		up    bool
	}{
		{"a win against an equal raises", 1, true},
		{"a loss against an equal lowers", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := glicko.Update(glicko.New(), []glicko.Result{{Opponent: glicko.New(), Score: tc.score}}, glicko.Tau)
			if (got.Rating > glicko.DefaultRating) != tc.up || got.Deviation >= glicko.DefaultDeviation {
				t.Fatalf("%+v", got)
			}
		})
	}
	draw := glicko.Update(glicko.New(), []glicko.Result{{Opponent: glicko.New(), Score: 0.5}}, glicko.Tau)
	if math.Abs(draw.Rating-glicko.DefaultRating) > 1e-9 {
		t.Fatalf("a draw between equals moved the rating: %+v", draw)
	}
}

package play

import (
	"slices"
	"testing"

	"github.com/courrier-games/courrier/games"
)

// TestRankingsBecomePairsOfResults is the rule that turns a finished
// game's result into rating results: every seat against every other,
// teammates apart.
func TestRankingsBecomePairsOfResults(t *testing.T) {
	type pair struct {
		seat, opponent games.Seat
		score          float64
	}
	cases := []struct {
		name  string
		res   games.Result
		seats int
		teams int
		want  []pair
	}{
		{
			name: "one winner of four, no scores: the winner beats each, the others are not compared",
			res:  games.Result{Finished: true, Winners: []games.Seat{2}}, seats: 4,
			want: []pair{{0, 2, 0}, {1, 2, 0}, {2, 0, 1}, {2, 1, 1}, {2, 3, 1}, {3, 2, 0}},
		},
		{
			name: "a shared win is a draw between the winners",
			res:  games.Result{Finished: true, Winners: []games.Seat{0, 1}}, seats: 3,
			want: []pair{{0, 1, 0.5}, {0, 2, 1}, {1, 0, 0.5}, {1, 2, 1}, {2, 0, 0}, {2, 1, 0}},
		},
		{
			name: "scores rank the seats that did not win; equal scores draw",
			res:  games.Result{Finished: true, Winners: []games.Seat{1}, Scores: []int{30, 90, 50, 30}}, seats: 4,
			want: []pair{
				{0, 1, 0}, {0, 2, 0}, {0, 3, 0.5},
				{1, 0, 1}, {1, 2, 1}, {1, 3, 1},
				{2, 0, 1}, {2, 1, 0}, {2, 3, 1},
				{3, 0, 0.5}, {3, 1, 0}, {3, 2, 0},
			},
		},
		{
			name: "two teams of two: each player meets each opponent with the team's result, never the partner",
			res:  games.Result{Finished: true, Winners: []games.Seat{1, 3}, Scores: []int{0, 0, 0, 0}}, seats: 4, teams: 2,
			want: []pair{{0, 1, 0}, {0, 3, 0}, {1, 0, 1}, {1, 2, 1}, {2, 1, 0}, {2, 3, 0}, {3, 0, 1}, {3, 2, 1}},
		},
		{name: "no winner and no score rates nobody", res: games.Result{Finished: true}, seats: 3},
		{name: "a game not finished rates nobody", res: games.Result{Winners: []games.Seat{0}}, seats: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []pair
			for seat, rs := range ratingResults(tc.res, tc.seats, tc.teams) {
				for _, r := range rs {
					got = append(got, pair{seat, r.opponent, r.score})
				}
			}
			order := func(a, b pair) int {
				if a.seat != b.seat {
					return int(a.seat - b.seat)
				}
				return int(a.opponent - b.opponent)
			}
			slices.SortFunc(got, order)
			slices.SortFunc(tc.want, order)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("pairs\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

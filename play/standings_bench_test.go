package play_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/courrier-games/courrier/play"
)

// BenchmarkStandingsRebuild measures recomputing every player's ratings and
// reliability from the log (what `projections rebuild` does for the
// standings), over 300 finished games of 30 players by default
// (COURRIER_BENCH_STANDINGS_GAMES overrides it), in finished games per
// second.
func BenchmarkStandingsRebuild(b *testing.B) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("COURRIER_BENCH_STANDINGS_GAMES")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	svc, pool := newServiceB(b)
	const players = 30
	for i := range n {
		a := play.Actor{User: fmt.Sprintf("u-bench-%d", i%players)}
		o := play.Actor{User: fmt.Sprintf("u-bench-%d", (i*7+1)%players)}
		if o.User == a.User {
			o.User = fmt.Sprintf("u-bench-%d", (i+1)%players)
		}
		if _, err := playPile(ctx, svc, a, o, play.GameRequest{}); err != nil {
			b.Fatal(err)
		}
	}
	st := play.NewStandings(pool, svc.Registry(), quietLog())
	if err := st.Settle(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := st.Rebuild(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

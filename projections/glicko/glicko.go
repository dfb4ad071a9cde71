// Package glicko is Mark Glickman's Glicko-2 rating system ("Example of the
// Glicko-2 system", 2012), step by step as the paper writes it: a rating,
// its deviation and its volatility, updated once per rating period from the
// results of that period's games against opponents whose ratings are taken
// as they stood at the period's start.
package glicko

import "math"

// The paper's defaults: an unrated player's rating, deviation and
// volatility, the system constant τ, and the Glicko-2 scale factor.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	// Tau constrains the change of volatility over time (0.3 to 1.2 in the
	// paper; 0.5 here, as in its example).
	Tau = 0.5

	scale     = 173.7178
	tolerance = 0.000001
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// New is the rating of a player who has played no game.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Result is one game of a rating period against one opponent: Score is 1
// for a win, 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// Update returns r after a rating period with results, with system constant
// tau. A period without results only widens the deviation (step 6).
func Update(r Rating, results []Result, tau float64) Rating {
	mu := (r.Rating - DefaultRating) / scale
	phi := r.Deviation / scale
	sigma := r.Volatility
	if len(results) == 0 {
		return Rating{Rating: r.Rating, Deviation: math.Sqrt(phi*phi+sigma*sigma) * scale, Volatility: sigma}
	}
	// Step 3: the estimated variance v; step 4: the improvement delta.
	var vInv, sum float64
	for _, res := range results {
		muJ := (res.Opponent.Rating - DefaultRating) / scale
		phiJ := res.Opponent.Deviation / scale
		g := gOf(phiJ)
		e := expected(mu, muJ, g)
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigmaNew := volatility(delta, phi, v, sigma, tau)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: scale*muNew + DefaultRating, Deviation: scale * phiNew, Volatility: sigmaNew}
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muJ, g float64) float64 { return 1 / (1 + math.Exp(-g*(mu-muJ))) }

// volatility is step 5 of the paper: the root of f by the Illinois
// algorithm (a regula falsi), to within tolerance.
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > tolerance && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

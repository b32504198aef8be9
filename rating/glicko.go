package rating

import "math"

// Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), as lichess
// rates both its players and its puzzles. No Go module of it is kept well
// enough to depend on, and the whole method is the forty lines below,
// checked against the paper's worked example.

// Rating is a Glicko-2 rating on the familiar scale.
type Rating struct {
	R   float64 `json:"r"`   // rating
	RD  float64 `json:"rd"`  // rating deviation: how unsure R is
	Vol float64 `json:"vol"` // volatility: how erratic the results are
}

// New is everyone's and every puzzle's start, at r: lichess's default of
// a wide deviation and the paper's volatility.
func New(r float64) Rating { return Rating{R: r, RD: MaxRD, Vol: StartVol} }

// Bounds on the deviation: a rating never becomes so sure that it stops
// moving, nor less sure than a newcomer's.
const (
	MinRD = 45
	MaxRD = 350
)

// StartVol is a newcomer's volatility, the paper's.
const StartVol = 0.06

// Bounds on the rating itself, so that a corrupt stored value cannot run
// away: wider than any player or puzzle reaches.
const (
	Min = 100
	Max = 4000
)

const (
	glickoScale = 173.7178
	// tau limits how fast volatility changes; the paper suggests 0.3 to
	// 1.2, lower for steadier results. Puzzles are noisy, so it is low.
	tau = 0.5
	// epsilon is the convergence tolerance of the volatility search.
	epsilon = 1e-6
)

// Result is one game of a rating period: the opponent and the score
// (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Update returns r after a rating period with results (one attempt is a
// period of one). With no results only the deviation grows, as the paper
// says for a player who did not play.
func (r Rating) Update(results ...Result) Rating {
	r = r.sane()
	mu, phi := (r.R-1500)/glickoScale, r.RD/glickoScale
	if len(results) == 0 {
		return r.clamp(r.R, math.Sqrt(phi*phi+r.Vol*r.Vol)*glickoScale, r.Vol)
	}
	var vInv, sum float64
	for _, res := range results {
		o := res.Opponent.sane()
		muJ, phiJ := (o.R-1500)/glickoScale, o.RD/glickoScale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	vol := newVolatility(phi, v, delta, r.Vol)
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return r.clamp(muNew*glickoScale+1500, phiNew*glickoScale, vol)
}

// newVolatility is step 5 of the paper: the root of f by the Illinois
// variant of regula falsi.
func newVolatility(phi, v, delta, vol float64) float64 {
	a := math.Log(vol * vol)
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
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
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

// sane replaces what no update could have produced (a corrupt or zero
// stored value) with a newcomer's values, so the arithmetic stays finite.
func (r Rating) sane() Rating {
	if math.IsNaN(r.R) || math.IsInf(r.R, 0) {
		r.R = 1500
	}
	r.R = min(max(r.R, Min), Max)
	if math.IsNaN(r.RD) || r.RD > MaxRD {
		r.RD = MaxRD
	}
	if r.RD <= 0 {
		r.RD = MinRD
	}
	if math.IsNaN(r.Vol) || r.Vol <= 0 || r.Vol > 1 {
		r.Vol = StartVol
	}
	return r
}

// clamp keeps a rating finite and in its bounds, whatever a corrupt
// stored value fed in.
func (r Rating) clamp(rating, rd, vol float64) Rating {
	if math.IsNaN(rating) || math.IsInf(rating, 0) {
		rating = r.R
	}
	if math.IsNaN(rd) || rd > MaxRD {
		rd = MaxRD
	}
	if math.IsNaN(vol) || vol <= 0 || vol > 1 {
		vol = StartVol
	}
	return Rating{R: min(max(rating, Min), Max), RD: max(rd, MinRD), Vol: vol}
}

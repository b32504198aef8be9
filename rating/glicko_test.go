package rating

import (
	"math"
	"testing"
)

// TestGlickoPaperExample is the worked example of Glickman's paper: a
// player of 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30) and
// loses to a 1550 (RD 100) and a 1700 (RD 300), with tau 0.5.
func TestGlickoPaperExample(t *testing.T) {
	got := Rating{R: 1500, RD: 200, Vol: 0.06}.Update(
		Result{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		Result{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		Result{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Vol, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.5f, want %.5f", c.name, c.got, c.want)
		}
	}
}

// TestGlickoAttempt: a solve raises the player and lowers the puzzle, a
// miss the reverse, and each attempt makes both surer.
func TestGlickoAttempt(t *testing.T) {
	player, pz := New(1500), New(1500)
	won := player.Update(Result{Opponent: pz, Score: 1})
	lost := player.Update(Result{Opponent: pz, Score: 0})
	pzAfterSolve := pz.Update(Result{Opponent: player, Score: 0})
	if !(won.R > player.R && lost.R < player.R && pzAfterSolve.R < pz.R) {
		t.Errorf("solve %.1f, miss %.1f, puzzle after a solve %.1f; from 1500", won.R, lost.R, pzAfterSolve.R)
	}
	if !(won.RD < player.RD && lost.RD < player.RD) {
		t.Errorf("deviation after an attempt %.1f/%.1f, want below %.1f", won.RD, lost.RD, player.RD)
	}
	idle := Rating{R: 1500, RD: 60, Vol: 0.06}.Update()
	if idle.R != 1500 || idle.RD <= 60 {
		t.Errorf("a period without attempts gave %+v, want the rating kept and the deviation grown", idle)
	}
}

// TestGlickoStaysInBounds: corrupt stored values come out finite and in
// range.
func TestGlickoStaysInBounds(t *testing.T) {
	for _, r := range []Rating{{}, {R: math.NaN(), RD: math.Inf(1), Vol: -1}, {R: 9000, RD: 1, Vol: 5}} {
		got := r.Update(Result{Opponent: New(1500), Score: 1})
		if math.IsNaN(got.R) || got.R < Min || got.R > Max || got.RD < MinRD || got.RD > MaxRD || got.Vol <= 0 {
			t.Errorf("%+v after a result = %+v", r, got)
		}
	}
}

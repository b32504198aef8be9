package match

import (
	"fmt"
	"math"
)

// Score is a match result from player A's point of view.
type Score struct {
	Wins, Draws, Losses int
}

// Games is the number of games scored.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Points counts a win as 1 and a draw as ½.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Fraction is the points per game, 0..1 (½ with no games).
func (s Score) Fraction() float64 {
	if s.Games() == 0 {
		return 0.5
	}
	return s.Points() / float64(s.Games())
}

// eloOf is the Elo difference that makes the expected score f.
func eloOf(f float64) float64 {
	switch {
	case f <= 0:
		return math.Inf(-1)
	case f >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/f-1)
}

// Elo returns A's Elo advantage over B implied by the score, and the half
// width of its 95% confidence interval: the score's standard error from the
// spread of the game results (wins, draws and losses), mapped through the
// Elo curve. With every game won or lost the difference is infinite.
func (s Score) Elo() (diff, margin float64) {
	n := float64(s.Games())
	f := s.Fraction()
	diff = eloOf(f)
	if n == 0 {
		return 0, math.Inf(1)
	}
	variance := (float64(s.Wins)*(1-f)*(1-f) + float64(s.Draws)*(0.5-f)*(0.5-f) +
		float64(s.Losses)*f*f) / n
	se := math.Sqrt(variance / n)
	lo, hi := f-1.96*se, f+1.96*se
	margin = (eloOf(hi) - eloOf(lo)) / 2
	if math.IsNaN(margin) {
		margin = math.Inf(1)
	}
	return diff, margin
}

// String gives "W-D-L, 62.5%, Elo +89 ± 45".
func (s Score) String() string {
	return fmt.Sprintf("%d-%d-%d, %.1f%%, Elo %s", s.Wins, s.Draws, s.Losses, 100*s.Fraction(), s.EloText())
}

// EloText gives the Elo difference and its 95% half width: "+89 ± 45".
func (s Score) EloText() string {
	d, m := s.Elo()
	return signed(d) + " ± " + unsigned(m)
}

// Reversed is the same result from B's point of view.
func (s Score) Reversed() Score { return Score{Wins: s.Losses, Draws: s.Draws, Losses: s.Wins} }

func signed(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

func unsigned(x float64) string {
	if math.IsInf(x, 0) {
		return "inf"
	}
	return fmt.Sprintf("%.0f", x)
}

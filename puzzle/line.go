package puzzle

import (
	"context"

	"github.com/bashni/bashni/rules"
)

// MaxLinePlies bounds the line after a solution: a combination in Bashni
// cashes in within a few plies, and a line longer than a phone's caption
// line teaches nothing more.
const MaxLinePlies = 10

// Line is the play after pz's solution that realises its gain: both sides'
// best moves at the Judge's budget, the opponent first, until the solver's
// capture leaves the opponent nothing to take back (the gain is banked),
// the game ends, or MaxLinePlies. A one-move puzzle whose point is a later
// capture (a quiet move, a sacrifice) shows that capture here. Past
// MaxLinePlies the line is cut after the solver's last capture (a win
// with no capture in sight, by blocking or position, keeps all of it); it
// is empty when the solver's last solution move already banked the gain.
//
// Each ply is one search on a freshly reset engine, as the judge's, so the
// line is the same on any machine and in any test.
func (j *Judge) Line(ctx context.Context, pz *Puzzle) ([]rules.Move, error) {
	cur := pz.Position
	for _, m := range pz.Solution {
		cur = cur.Play(m)
	}
	solver := pz.Solver()
	if last := pz.Solution[len(pz.Solution)-1]; last.IsCapture() && !cur.HasCapture() {
		return nil, nil
	}
	var line []rules.Move
	cashed := 0 // the line's length up to the solver's last capture
	for len(line) < MaxLinePlies {
		if len(cur.Legal()) == 0 {
			return line, nil // the game is over: the solver won
		}
		_, m, ok, err := j.value(ctx, cur, j.Nodes, 0)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		mover := cur.SideToMove()
		line = append(line, m)
		cur = cur.Play(m)
		if mover == solver && m.IsCapture() {
			cashed = len(line)
			if !cur.HasCapture() {
				return line, nil
			}
		}
	}
	if cashed == 0 {
		return line, nil
	}
	return line[:cashed], nil
}

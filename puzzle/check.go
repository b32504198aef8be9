package puzzle

import (
	"context"
	"fmt"
)

// The check every puzzle passes, shipped or mined from the games played
// here: TestShippedUnique runs it over the shipped set (every puzzle with
// -all-puzzles), and the miner (play/mining) on each puzzle it finds
// before it keeps it.

// Check verifies a puzzle at budget nodes: each of the solver's moves is
// the only winning move, and each reply is the engine's best. It returns
// nil or an error that names the first move that fails.
func (j *Judge) Check(ctx context.Context, pz Puzzle, nodes uint64) error {
	cur := pz.Position
	for i := 0; i < len(pz.Solution); i += 2 {
		best, ok, err := j.Unique(ctx, cur, nodes)
		if err != nil {
			return err
		}
		m := pz.Solution[i]
		if !ok || best.Move != m {
			return fmt.Errorf("puzzle %s: solver move %d (%s) is not the only win at %d nodes (best %s, %+d)", pz.ID, i/2+1, m, nodes, best.Move, best.Score)
		}
		if i+1 < len(pz.Solution) {
			if !best.HasReply || best.Reply != pz.Solution[i+1] {
				return fmt.Errorf("puzzle %s: reply %s is not the engine's best at %d nodes (%s)", pz.ID, pz.Solution[i+1], nodes, best.Reply)
			}
			cur = cur.Play(m).Play(pz.Solution[i+1])
		}
	}
	return nil
}

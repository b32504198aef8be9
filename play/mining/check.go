package mining

import (
	"context"
	"fmt"

	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
)

// Lister reads the puzzles kept, in the order found.
type Lister interface {
	MinedPuzzles(ctx context.Context, after int64, n int) ([]storage.MinedPuzzle, error)
}

// CheckAll runs the shipped set's check (puzzle.Judge.Check at twice
// nodes) over every puzzle kept, as `go test ./puzzle -all-puzzles` runs
// it over the shipped set: a deeper look, or a changed engine, may see a
// second win where the miner saw one. It returns how many were checked
// and the failures, each naming its puzzle and game.
func CheckAll(ctx context.Context, store Lister, nodes uint64) (checked int, failed []error, err error) {
	j := puzzle.NewJudge(nodes)
	var after int64
	for {
		recs, err := store.MinedPuzzles(ctx, after, refreshPage)
		if err != nil {
			return checked, failed, err
		}
		for _, rec := range recs {
			after = rec.Seq
			pz, err := puzzle.ParseLine(rec.Line)
			if err == nil {
				err = j.Check(ctx, pz, 2*nodes)
			}
			if ctx.Err() != nil {
				return checked, failed, ctx.Err()
			}
			checked++
			if err != nil {
				failed = append(failed, fmt.Errorf("mining: puzzle %s from game %s: %w", rec.ID, rec.Game, err))
			}
		}
		if len(recs) < refreshPage {
			return checked, failed, nil
		}
	}
}

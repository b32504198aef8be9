package training

import (
	"context"
	"sync"

	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// LineNodes is the budget of each search of the line after a solution:
// the judge's budget the shipped set was made with (docs/puzzles.md,
// -nodes 10000), so the line is the play the puzzle was judged by.
const LineNodes = 10000

// lines finds and keeps the line after each puzzle's solution
// (puzzle.Judge.Line). It is computed when first asked for, not stored
// with the puzzle: it is a function of the puzzle and the budget (a
// fresh engine each search), a set mined later needs no new field, and a
// puzzle's first end pays about 10 searches of 10,000 nodes once per
// process. The judge is not safe for concurrent use: one at a time.
type lines struct {
	mu    sync.Mutex
	judge *puzzle.Judge
	found map[string][]rules.Move
}

// Line is the play after pz's solution that realises its gain.
func (p *Puzzles) Line(ctx context.Context, pz *puzzle.Puzzle) ([]rules.Move, error) {
	l := &p.lines
	l.mu.Lock()
	defer l.mu.Unlock()
	if line, ok := l.found[pz.ID]; ok {
		return line, nil
	}
	if l.judge == nil {
		l.judge, l.found = puzzle.NewJudge(LineNodes), map[string][]rules.Move{}
	}
	line, err := l.judge.Line(ctx, pz)
	if err != nil {
		return nil, err
	}
	l.found[pz.ID] = line
	return line, nil
}

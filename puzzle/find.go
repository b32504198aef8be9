package puzzle

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Thresholds of "wins decisively", in hundredths of a man for the solver.
// A move wins when it scores Win or more; every other move must score
// Other or less, so the alternatives do not merely win less: they throw
// the win away. The gap is wide on purpose, as lichess's is, so that a
// little more search does not turn a second move into a win.
const (
	Win   = 300
	Other = 100
)

// maxForced bounds how many single-legal-move plies value follows before
// it searches: a chain of forced captures is short in practice, and the
// bound keeps a pathological one finite.
const maxForced = 16

// Judge decides, with a fixed node budget a move, whether a position has
// exactly one winning move. It is not safe for concurrent use: each
// worker needs its own.
type Judge struct {
	// Nodes is the search budget for the position after each root move.
	Nodes uint64
	eng   *ai.Engine
}

// NewJudge makes a Judge searching nodes a move. Its engine keeps a small
// table: it is cleared before every search, which makes each judgement
// the same whatever came before.
func NewJudge(nodes uint64) *Judge {
	return &Judge{Nodes: nodes, eng: ai.New(ai.Options{HashMB: 2})}
}

// Scored is a root move with its value for the side that plays it and the
// opponent's best answer (Reply is meaningful only when HasReply).
type Scored struct {
	Move     rules.Move
	Score    int
	Reply    rules.Move
	HasReply bool
}

// Score values every legal move of p for the side to move, at budget
// nodes, best first (ties keep the legal-move order).
func (j *Judge) Score(ctx context.Context, p rules.Position, nodes uint64) ([]Scored, error) {
	legal := p.Legal()
	out := make([]Scored, 0, len(legal))
	for _, m := range legal {
		q := p.Play(m)
		v, reply, ok, err := j.value(ctx, q, nodes, 0)
		if err != nil {
			return nil, err
		}
		s := Scored{Move: m, Score: -v, Reply: reply, HasReply: ok}
		i := len(out)
		for i > 0 && out[i-1].Score < s.Score {
			i--
		}
		out = append(out, Scored{})
		copy(out[i+1:], out[i:])
		out[i] = s
	}
	return out, nil
}

// value is q's score for its side to move and that side's best move.
// The engine answers a single legal move without searching (score 0), so
// forced plies are played here and the position after them searched.
func (j *Judge) value(ctx context.Context, q rules.Position, nodes uint64, forced int) (int, rules.Move, bool, error) {
	legal := q.Legal()
	switch {
	case len(legal) == 0:
		return -ai.MateScore, rules.Move{}, false, nil
	case len(legal) == 1 && forced < maxForced:
		v, _, _, err := j.value(ctx, q.Play(legal[0]), nodes, forced+1)
		return -v, legal[0], true, err
	}
	j.eng.Reset()
	res, err := j.eng.Search(ctx, ai.Request{Position: q, Limits: ai.Limits{Nodes: nodes}})
	if err != nil && !errors.Is(err, ai.ErrNoMoves) {
		return 0, rules.Move{}, false, fmt.Errorf("puzzle: searching %s: %w", q.String(), err)
	}
	return res.Score, res.Move, true, nil
}

// Unique reports whether p has exactly one winning move at budget nodes,
// and returns it with its score and the reply. A position with a single
// legal move is no puzzle: there is nothing to find.
func (j *Judge) Unique(ctx context.Context, p rules.Position, nodes uint64) (Scored, bool, error) {
	if p.HasCapture() {
		// Cheap first: a position whose only legal move is a forced
		// capture is common in Bashni and never a puzzle.
		if n := len(p.Legal()); n < 2 {
			return Scored{}, false, nil
		}
	}
	sc, err := j.Score(ctx, p, nodes)
	if err != nil || len(sc) < 2 {
		return Scored{}, false, err
	}
	return sc[0], sc[0].Score >= Win && sc[1].Score <= Other, nil
}

// Solve builds the puzzle that starts at p, or reports that there is
// none. Each of the solver's moves must be the only winning one both at
// the Judge's budget and at twice it (a deeper search that finds a second
// win, or another best move, rejects the position or, past the first move,
// ends the solution before that move); the opponent's replies are the best
// moves of the deeper search. The solution stops at MaxSolverMoves, when
// the game ends, or when the solver's next move is no longer unique.
func (j *Judge) Solve(ctx context.Context, p rules.Position) (Puzzle, bool, error) {
	var line []rules.Move
	cur := p
	for k := 0; k < MaxSolverMoves; k++ {
		ok, best, err := j.uniqueTwice(ctx, cur)
		if err != nil {
			return Puzzle{}, false, err
		}
		if !ok {
			if k == 0 {
				return Puzzle{}, false, nil
			}
			line = line[:len(line)-1] // the reply before a move that is not unique
			break
		}
		line = append(line, best.Move)
		if !best.HasReply || k == MaxSolverMoves-1 {
			break
		}
		line = append(line, best.Reply)
		cur = cur.Play(best.Move).Play(best.Reply)
	}
	return Puzzle{ID: ID(p), Position: p, Solution: line}, true, nil
}

// uniqueTwice is Unique at the Judge's budget, then at twice it with the
// same answer.
func (j *Judge) uniqueTwice(ctx context.Context, p rules.Position) (bool, Scored, error) {
	first, ok, err := j.Unique(ctx, p, j.Nodes)
	if err != nil || !ok {
		return false, Scored{}, err
	}
	deep, ok, err := j.Unique(ctx, p, 2*j.Nodes)
	if err != nil || !ok || deep.Move != first.Move {
		return false, Scored{}, err
	}
	return true, deep, nil
}

// ID names a puzzle by its position, so the same position found in two
// games is one puzzle and a regenerated set keeps its ids.
func ID(p rules.Position) string {
	h := fnv.New64a()
	h.Write([]byte(p.String()))
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	v := h.Sum64()
	b := make([]byte, 8)
	for i := range b {
		b[i] = digits[v%36]
		v /= 36
	}
	return string(b)
}

// Rate gives a puzzle its starting difficulty: the weakest of the AI's
// levels (up to the ladder's top: the level above it is timed, so it
// would rate alike nowhere) that plays the whole solution (every solver move, against the
// solution's replies), on the ladder's scale of about 100 rating points a
// level, which is roughly what a level gains over the one below. A puzzle
// no level up to maxLevel solves gets the next step.
func (j *Judge) Rate(ctx context.Context, pz Puzzle, maxLevel int) (int, error) {
	maxLevel = min(max(maxLevel, 1), ai.LadderTop)
	for lv := 1; lv <= maxLevel; lv++ {
		ok, err := j.plays(ctx, pz, ai.Levels[lv-1].Limits.Nodes)
		if err != nil {
			return 0, err
		}
		if ok {
			return LevelRating(lv), nil
		}
	}
	return LevelRating(maxLevel + 1), nil
}

// LevelRating is the starting rating of a puzzle that level solves and the
// level below does not.
func LevelRating(level int) int { return 600 + 100*level }

// plays reports whether a search of nodes finds every solver move.
func (j *Judge) plays(ctx context.Context, pz Puzzle, nodes uint64) (bool, error) {
	cur := pz.Position
	for i := 0; i < len(pz.Solution); i += 2 {
		j.eng.Reset()
		res, err := j.eng.Search(ctx, ai.Request{Position: cur, Limits: ai.Limits{Nodes: nodes}})
		if err != nil {
			return false, fmt.Errorf("puzzle: rating %s: %w", pz.ID, err)
		}
		if res.Move != pz.Solution[i] {
			return false, nil
		}
		if i+1 < len(pz.Solution) {
			cur = cur.Play(pz.Solution[i]).Play(pz.Solution[i+1])
		}
	}
	return true, nil
}

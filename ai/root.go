package ai

import (
	"math/rand/v2"
	"slices"

	"github.com/bashni/bashni/rules"
)

// orderRoot puts the root moves in move-ordering order before the first
// iteration; later iterations keep each new best move in front.
func (e *Engine) orderRoot(p *rules.Position) {
	var ttMove uint32
	if ent, ok := e.tt.probe(p.Hash()); ok {
		ttMove = ent.move
	}
	fr := &e.frames[0]
	fr.moves = fr.moves[:0]
	for _, r := range e.root {
		fr.moves = append(fr.moves, r.move)
	}
	e.scoreMoves(p, 0, fr.moves, ttMove)
	for i := range fr.moves {
		e.pickMove(0, i, len(fr.moves))
		e.root[i] = rootMove{move: fr.moves[i], score: -infinity, done: -infinity}
	}
}

// aspirate searches the root at depth in a window around the previous
// iteration's score, widening it when the score falls outside.
func (e *Engine) aspirate(p *rules.Position, depth, prev int) (int, bool) {
	alpha, beta := -infinity, infinity
	delta := 35
	if depth >= 4 && prev > -MateScore+MaxPly && prev < MateScore-MaxPly {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		score, ok := e.searchRoot(p, depth, alpha, beta)
		if !ok {
			return score, false
		}
		switch {
		case score <= alpha && alpha > -infinity:
			delta *= 3
			alpha = max(score-delta, -infinity)
			if delta > 600 {
				alpha = -infinity
			}
		case score >= beta && beta < infinity:
			delta *= 3
			beta = min(score+delta, infinity)
			if delta > 600 {
				beta = infinity
			}
		default:
			return score, true
		}
	}
}

// searchRoot is the principal-variation search at the root. A move that
// beats alpha moves to the front of the root list, so an interrupted
// iteration still leaves its best completed move first.
func (e *Engine) searchRoot(p *rules.Position, depth, alpha, beta int) (int, bool) {
	e.pvLen[0] = 0
	best := -infinity
	for i := range e.root {
		m := e.root[i].move
		q := &e.pos[1]
		*q = p.Play(m)
		e.setChild(p, m, 0)
		var score int
		if i == 0 {
			score = -e.search(q, depth-1, 1, -beta, -alpha)
		} else {
			score = -e.search(q, depth-1, 1, -alpha-1, -alpha)
			if !e.stopped && score > alpha && score < beta {
				bound := score
				score = -e.search(q, depth-1, 1, -beta, -alpha)
				if e.stopped {
					// It beat the best so far before time ran out in
					// its re-search: it is the better move, by a
					// margin not yet known.
					// Its line below was cut short: only m is known.
					e.promote(i, bound, m)
					e.pvLen[0] = 1
					return best, false
				}
			}
		}
		if e.stopped {
			return best, false
		}
		best = max(best, score)
		if score > alpha || i == 0 {
			e.promote(i, score, m)
			if score >= beta {
				return score, true
			}
			alpha = max(alpha, score)
		}
	}
	return best, true
}

// promote moves root move i, which scored score, to the front with the
// principal variation found for it; a later move that beats the first
// marks the iteration as having found a new best.
func (e *Engine) promote(i, score int, m rules.Move) {
	e.root[i].score = score
	e.setPV(0, m)
	r := e.root[i]
	copy(e.root[1:i+1], e.root[:i])
	e.root[0] = r
	if i > 0 {
		e.newBest = true
	}
}

// searchRootAll gives every root move an exact score at depth, for the
// levels that pick at random among the near-best moves.
func (e *Engine) searchRootAll(p *rules.Position, depth int) (int, bool) {
	best := -infinity
	for i := range e.root {
		m := e.root[i].move
		q := &e.pos[1]
		*q = p.Play(m)
		e.setChild(p, m, 0)
		score := -e.search(q, depth-1, 1, -infinity, infinity)
		if e.stopped {
			return best, false
		}
		e.root[i].score = score
		if score > best {
			best = score
			e.setPV(0, m)
		}
	}
	slices.SortStableFunc(e.root, func(a, b rootMove) int { return b.score - a.score })
	for i := range e.root {
		e.root[i].done = e.root[i].score
	}
	return best, true
}

// pickNoisy chooses among the root moves by their last complete scores
// plus a random bonus of up to noise: a wider noise makes worse moves
// likelier. A forced result is never left to chance: when the best move
// wins (or every move loses) the best is played, so a found win is played
// out instead of traded for another "win" the noise liked, which may only
// be a longer one, or one that slips (issue 17: level 3 shuffled a king
// while announcing a win in 9 and drew by repetition).
func (e *Engine) pickNoisy(res Result, noise int, seed int64) Result {
	if res.Depth == 0 || isMate(e.root[0].done) {
		return res
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6261736886e69))
	bestV, pick := -2*infinity, 0
	for i, r := range e.root {
		v := r.done + rng.IntN(noise+1)
		if v > bestV {
			bestV, pick = v, i
		}
	}
	r := e.root[pick]
	if r.move != res.Move {
		res.Move, res.Score = r.move, r.done
		res.PV = append(res.PV[:0], r.move)
	}
	return res
}

// isMate reports whether a score is a forced win or loss, not an
// evaluation.
func isMate(s int) bool {
	return s > MateScore-MaxPly || s < -MateScore+MaxPly
}

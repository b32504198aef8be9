package ai

import (
	"github.com/bashni/bashni/rules"
)

// Reverse futility pruning's reach and margin per ply of depth left.
const (
	futilityDepth  = 5
	futilityMargin = 90
)

// search is the principal-variation alpha-beta search below the root. It
// returns the score of p for its side to move, between alpha and beta
// unless it fails outside them.
func (e *Engine) search(p *rules.Position, depth, ply, alpha, beta int) int {
	if e.enter(ply) {
		return 0
	}
	h := p.Hash()
	e.hashes[ply] = h
	if e.repeated(ply) {
		return 0
	}
	if p.DrawnBy(e.quiet[ply]) != rules.NoReason {
		// Drawn by the variant's counting rule (the 15-move rule, or in
		// Russian draughts three kings against one), unless the side to
		// move has no move at all, which loses first (docs/rules.md, End
		// of game).
		fr := &e.frames[ply]
		moves := p.LegalMoves(fr.moves[:0])
		fr.moves = moves[:0]
		if len(moves) == 0 {
			return -MateScore + ply
		}
		return 0
	}
	if ply >= MaxPly-1 {
		s, _ := e.ev.evaluate(p)
		return s
	}
	// A win found deeper cannot beat one already found nearer the root.
	alpha = max(alpha, -MateScore+ply)
	beta = min(beta, MateScore-ply-1)
	if alpha >= beta {
		return alpha
	}
	if depth <= 0 {
		return e.quiesce(p, ply, alpha, beta)
	}
	pvNode := beta-alpha > 1
	var ttMove uint32
	if ent, ok := e.tt.probe(h); ok {
		ttMove = ent.move
		if !pvNode && int(ent.depth) >= depth {
			s := scoreFromTT(int(ent.score), ply)
			switch ent.bound() {
			case boundExact:
				return s
			case boundLower:
				if s >= beta {
					return s
				}
			case boundUpper:
				if s <= alpha {
					return s
				}
			}
		}
	}

	// Near the horizon, a quiet position whose static score beats beta by
	// a margin that grows with the depth left is cut off unsearched
	// (reverse futility pruning). Not with a capture to make, whose
	// outcome the static score cannot see, nor when the side is blocked.
	// Matched at 30,000 nodes a move: 157-28-115, 57.0%, +49 ± 38 Elo over
	// 300 games (3 plies, 100 a ply). Reaching 5 plies at 90 a ply then
	// scored 53.3% at 30,000 nodes and 52.7% at 60,000, 300 games each:
	// 280-76-244 together, 53.0%, +21 ± 26. (Pruning late quiet moves
	// near the horizon scored 52.5%, +17 ± 37; a history penalty for
	// quiet moves tried before the cutoff 46.2%; razoring 43.8%; reducing
	// late moves sooner 47.5% and 48.0%: none kept.)
	if !e.exact && !pvNode && depth <= futilityDepth && !isMate(beta) && !p.HasCapture() {
		if s, mobility := e.ev.evaluate(p); mobility > 0 && s-futilityMargin*depth >= beta {
			return s - futilityMargin*depth
		}
	}
	fr := &e.frames[ply]
	moves := p.LegalMoves(fr.moves[:0])
	fr.moves = moves[:0]
	if len(moves) == 0 {
		return -MateScore + ply // no legal move: lost
	}
	// A forced move costs no depth, nor does a choice of two: forcing
	// sequences, capture chains above all, are seen to their end. (Matches
	// at equal nodes: without this 27.8%; extending two-move nodes too
	// 53.9% over 400 games.) The extensions stop at twice the iteration's
	// depth, which keeps them from running away.
	if len(moves) <= 2 && ply < 2*e.rootDepth+4 {
		depth++
	}
	e.scoreMoves(p, ply, moves, ttMove)

	side := p.SideToMove()
	origAlpha := alpha
	best, bestKey := -infinity, uint32(0)
	capture := moves[0].IsCapture()
	for i := range moves {
		e.pickMove(ply, i, len(moves))
		m := &moves[i]
		q := &e.pos[ply+1]
		*q = p.Play(*m)
		e.setChild(p, *m, ply)
		newDepth := depth - 1
		var score int
		if i == 0 {
			score = -e.search(q, newDepth, ply+1, -beta, -alpha)
		} else {
			reduce := 0
			if !e.exact && depth >= 3 && i >= 3 && !capture && fr.order[i] < killerScore && !p.Crowns(*m) {
				reduce = 1
				if !pvNode && i >= 6 && depth >= 5 {
					reduce = 2
				}
			}
			score = -e.search(q, newDepth-reduce, ply+1, -alpha-1, -alpha)
			if reduce > 0 && score > alpha && !e.stopped {
				score = -e.search(q, newDepth, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta && !e.stopped {
				score = -e.search(q, newDepth, ply+1, -beta, -alpha)
			}
		}
		if e.stopped {
			return 0
		}
		if score > best {
			best, bestKey = score, moveKey(m)
			if score > alpha {
				alpha = score
				e.setPV(ply, *m)
				if score >= beta {
					if !capture {
						e.rewardQuiet(side, ply, m, depth)
					}
					break
				}
			}
		}
	}
	e.tt.store(h, bestKey, scoreToTT(best, ply), depth, boundOf(best, origAlpha, beta))
	return best
}

// quiesce resolves captures below the horizon. Captures are compulsory, so
// a side that has one cannot "stand pat" on the static score: it must take,
// and the best capture is its score. Only a side without a capture is
// scored statically, and one that cannot move at all has lost.
func (e *Engine) quiesce(p *rules.Position, ply, alpha, beta int) int {
	if e.enter(ply) {
		return 0
	}
	fr := &e.frames[ply]
	moves := p.AppendCaptures(fr.moves[:0])
	fr.moves = moves[:0]
	if len(moves) == 0 {
		s, mobility := e.ev.evaluate(p)
		if mobility == 0 {
			return -MateScore + ply // blocked: no legal move
		}
		return e.crownings(p, ply, s, alpha, beta)
	}
	if ply >= MaxPly-1 {
		s, _ := e.ev.evaluate(p)
		return s
	}
	// The table pays here too, where captures transpose often; quiet leaves
	// skip it, a probe there costs more than the evaluation.
	var ttMove uint32
	h := p.Hash()
	if ent, ok := e.tt.probe(h); ok {
		ttMove = ent.move
		s := scoreFromTT(int(ent.score), ply)
		switch b := ent.bound(); {
		case b == boundExact, b == boundLower && s >= beta, b == boundUpper && s <= alpha:
			return s
		}
	}
	e.scoreMoves(p, ply, moves, ttMove)
	best, bestKey, origAlpha := -infinity, uint32(0), alpha
	for i := range moves {
		e.pickMove(ply, i, len(moves))
		m := &moves[i]
		q := &e.pos[ply+1]
		*q = p.Play(*m)
		e.quiet[ply+1], e.rev[ply+1] = 0, 0
		score := -e.quiesce(q, ply+1, -beta, -alpha)
		if e.stopped {
			return 0
		}
		if score > best {
			best, bestKey = score, moveKey(m)
			if score > alpha {
				alpha = score
				e.setPV(ply, *m)
				if score >= beta {
					break
				}
			}
		}
	}
	e.tt.store(h, bestKey, scoreToTT(best, ply), 0, boundOf(best, origAlpha, beta))
	return best
}

// setChild records the draw-rule counters of the position after m.
func (e *Engine) setChild(p *rules.Position, m rules.Move, ply int) {
	switch {
	case m.IsCapture():
		e.quiet[ply+1], e.rev[ply+1] = 0, 0
	case p.KingTopped()&(1<<m.From()) != 0:
		// Only king moves can be undone, so only they allow repetitions.
		e.quiet[ply+1], e.rev[ply+1] = e.quiet[ply]+1, e.rev[ply]+1
	default:
		e.rev[ply+1] = 0
		if e.kingsOnly || p.Crowns(m) {
			e.quiet[ply+1] = 0
		} else {
			e.quiet[ply+1] = e.quiet[ply] + 1
		}
	}
}

// repeated reports whether the position at ply occurred before, on the
// search path or (with no irreversible move since the root) in the game.
// Any repetition scores as a draw: the side that can force it can force
// the third occurrence too.
func (e *Engine) repeated(ply int) bool {
	if ply == 0 || e.rev[ply] < 4 && e.rev[ply] < ply {
		return false
	}
	h := e.hashes[ply]
	for i := ply - 4; i >= ply-e.rev[ply] && i >= 0; i -= 2 {
		if e.hashes[i] == h {
			return true
		}
	}
	return e.rev[ply] >= ply && e.game.has(h)
}

// setPV makes m followed by the child's principal variation the
// principal variation at ply.
func (e *Engine) setPV(ply int, m rules.Move) {
	e.pv[ply][0] = m
	n := e.pvLen[ply+1]
	copy(e.pv[ply][1:], e.pv[ply+1][:n])
	e.pvLen[ply] = n + 1
}

// scoreToTT makes mate scores relative to the node (distance to mate from
// here) so they stay right wherever the entry is found again.
func scoreToTT(s, ply int) int {
	switch {
	case s > MateScore-MaxPly:
		return s + ply
	case s < -MateScore+MaxPly:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s > MateScore-MaxPly:
		return s - ply
	case s < -MateScore+MaxPly:
		return s + ply
	}
	return s
}

// boundOf says what a search's best score means for the table: a lower
// bound after a cutoff, exact when it raised alpha, else an upper bound.
func boundOf(best, origAlpha, beta int) int {
	switch {
	case best >= beta:
		return boundLower
	case best > origAlpha:
		return boundExact
	}
	return boundUpper
}

// enter counts a node at ply of search or quiescence and reports whether
// the search must stop: it checks the clock and the context every 1024
// nodes and the node limit at every node.
func (e *Engine) enter(ply int) (stop bool) {
	e.pvLen[ply] = 0
	if e.nodes&1023 == 0 {
		e.poll()
	}
	e.nodes++
	if e.nodeLimit != 0 && e.nodes >= e.nodeLimit {
		e.stopped = true
	}
	return e.stopped
}

// preCrown is each colour's last rank before crowning (rank 7 for White,
// rank 2 for Black): squares are numbered four to a rank from a1.
var preCrown = [2]uint32{0x0F000000, 0x000000F0}

// crownings lets a quiet side at the horizon crown a man instead of
// standing on its static score s: a man that crowns next move changes the
// game, and the static score cannot see it.
func (e *Engine) crownings(p *rules.Position, ply, s, alpha, beta int) int {
	side := p.SideToMove()
	if p.Owned(side)&^p.KingTopped()&preCrown[side] == 0 || s >= beta || ply >= MaxPly-2 {
		return s
	}
	fr := &e.frames[ply]
	moves := p.LegalMoves(fr.moves[:0])
	fr.moves = moves[:0]
	best := s
	for i := range moves {
		if !p.Crowns(moves[i]) {
			continue
		}
		q := &e.pos[ply+1]
		*q = p.Play(moves[i])
		e.quiet[ply+1], e.rev[ply+1] = 0, 0
		score := -e.quiesce(q, ply+1, -beta, -max(alpha, best))
		if e.stopped {
			return 0
		}
		if score > best {
			best = score
			if best >= beta {
				break
			}
		}
	}
	return best
}

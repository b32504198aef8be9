package ai

import "github.com/bashni/bashni/rules"

// Move-ordering scores: the hash move first, then captures by what they
// win, then crowning steps, killers and quiet moves by history.
const (
	hashMoveScore = 1 << 30
	captureScore  = 1 << 26
	crownScore    = 1 << 24
	killerScore   = 1 << 22
	historyMax    = 1 << 20
)

// moveKey is a compact fingerprint of a move for the transposition table
// and the killer slots: exact for quiet moves, a hash of the path for
// captures. A clash only costs move ordering, never legality: keys are
// matched against generated legal moves.
func moveKey(m *rules.Move) uint32 {
	k := uint32(m.From()) | uint32(m.To())<<5 | uint32(m.Len())<<10 | 1<<15
	if m.IsCapture() {
		k |= 1 << 14
		h := uint32(0)
		for i := 0; i < m.Len()-1; i++ {
			h = h*37 + uint32(m.Landing(i)) + 1
		}
		k |= (h & 0xffff) << 16
	}
	return k
}

// scoreMoves fills the ply's order scores for moves.
func (e *Engine) scoreMoves(p *rules.Position, ply int, moves []rules.Move, ttMove uint32) {
	fr := &e.frames[ply]
	if cap(fr.order) < len(moves) {
		fr.order = make([]int32, len(moves), 2*len(moves))
	}
	fr.order = fr.order[:len(moves)]
	side := p.SideToMove()
	hist := &e.history[side]
	for i := range moves {
		m := &moves[i]
		key := moveKey(m)
		var s int32
		switch {
		case key == ttMove:
			s = hashMoveScore
		case m.IsCapture():
			s = captureScore + int32(64*m.Len())
			for j := 0; j < m.Len(); j++ {
				t := p.Tower(m.Jumped(j))
				if t.Top().IsKing() {
					s += 256
				}
				// Taking this top frees our own pieces under it.
				if t.Height() > 1 && t.Piece(1).Color() == side {
					s += 32 * int32(t.Height()-1)
				}
			}
			if p.Crowns(*m) {
				s += 128
			}
		case key == fr.killers[0]:
			s = killerScore + 1
		case key == fr.killers[1]:
			s = killerScore
		default:
			s = hist[m.From()][m.To()]
			if p.Crowns(*m) {
				s = crownScore
			}
		}
		fr.order[i] = s
	}
}

// pickMove brings the best-scored of moves[i:n] to position i.
func (e *Engine) pickMove(ply, i, n int) {
	fr := &e.frames[ply]
	best := i
	for j := i + 1; j < n; j++ {
		if fr.order[j] > fr.order[best] {
			best = j
		}
	}
	if best != i {
		fr.moves[:n][i], fr.moves[:n][best] = fr.moves[:n][best], fr.moves[:n][i]
		fr.order[i], fr.order[best] = fr.order[best], fr.order[i]
	}
}

// rewardQuiet remembers a quiet move that refuted the position: as a killer
// for the ply and in the side's history.
func (e *Engine) rewardQuiet(side rules.Color, ply int, m *rules.Move, depth int) {
	fr := &e.frames[ply]
	key := moveKey(m)
	if fr.killers[0] != key {
		fr.killers[1], fr.killers[0] = fr.killers[0], key
	}
	h := &e.history[side][m.From()][m.To()]
	*h += int32(depth * depth)
	if *h >= historyMax {
		for f := range e.history[side] {
			for t := range e.history[side][f] {
				e.history[side][f][t] /= 2
			}
		}
	}
}

package rules

// Perft counts the legal move sequences of the given depth from p, every
// distinct capture path once. It uses bulk counting: at the last ply it
// counts moves without playing them (quiet moves without even building them).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	s := perftState{
		pos:  make([]Position, depth+1),
		bufs: make([][]Move, depth+1),
	}
	for i := range s.bufs {
		s.bufs[i] = make([]Move, 0, 128)
	}
	s.pos[0] = p
	return s.count(0, depth)
}

// perftState holds a position and a move buffer per ply, allocated once, so
// the walk allocates nothing per node.
type perftState struct {
	pos  []Position
	bufs [][]Move
}

func (s *perftState) count(ply, depth int) uint64 {
	p := &s.pos[ply]
	if depth == 1 && !p.HasCapture() {
		return uint64(p.countQuiet())
	}
	moves := p.LegalMoves(s.bufs[ply][:0])
	s.bufs[ply] = moves[:0] // keep a grown buffer for next time
	if depth == 1 {
		return uint64(len(moves))
	}
	var total uint64
	next := &s.pos[ply+1]
	for _, m := range moves {
		*next = p.Play(m)
		total += s.count(ply+1, depth-1)
	}
	return total
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal move of p, the perft count of depth-1 after
// it: the standard tool for finding where two generators disagree.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.Legal() {
		out = append(out, DivideEntry{Move: m, Nodes: Perft(p.Play(m), depth-1)})
	}
	return out
}

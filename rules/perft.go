package rules

// Perft counts the legal move sequences of the given depth from p, every
// distinct capture path once. It uses bulk counting: at depth 1 it counts
// the generated moves without playing them.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 128)
	}
	return perft(&p, depth, bufs)
}

func perft(p *Position, depth int, bufs [][]Move) uint64 {
	moves := p.LegalMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0] // keep a grown buffer for next time
	if depth == 1 {
		return uint64(len(moves))
	}
	var total uint64
	for _, m := range moves {
		q := p.Play(m)
		total += perft(&q, depth-1, bufs)
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

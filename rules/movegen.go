package rules

import "math/bits"

// forward holds each colour's two forward directions.
var forward = [2][2]int{{NorthEast, NorthWest}, {SouthEast, SouthWest}}

// LegalMoves appends the legal moves of the side to move to buf and returns
// the extended slice. Captures are compulsory (docs/rules.md, Captures): if any
// capture exists only captures are returned. Give it a reused buffer and it
// allocates nothing.
func (p *Position) LegalMoves(buf []Move) []Move {
	n := len(buf)
	buf = p.AppendCaptures(buf)
	if len(buf) > n {
		return buf
	}
	return p.appendQuiet(buf)
}

// Legal returns the legal moves in a new slice.
func (p *Position) Legal() []Move { return p.LegalMoves(nil) }

// HasCapture reports whether the side to move has a capture (and so must
// capture).
func (p *Position) HasCapture() bool {
	return p.manCapturers() != 0 || p.kingCapturers() != 0
}

// appendQuiet appends the non-capturing moves: men one square diagonally
// forward, kings any distance along a free diagonal.
func (p *Position) appendQuiet(buf []Move) []Move {
	side := p.side
	own := p.tops[side]
	empty := ^p.Occupied()
	men := own &^ p.kings
	for _, d := range forward[side] {
		// Men whose neighbour along d is empty, all at once.
		for movers := men & step(empty, opposite[d]); movers != 0; movers &= movers - 1 {
			s := Square(bits.TrailingZeros32(movers))
			buf = append(buf, Move{from: s, n: 1, path: [MaxJumps]Square{ray[s][d][0]}})
		}
	}
	for kings := own & p.kings; kings != 0; kings &= kings - 1 {
		s := Square(bits.TrailingZeros32(kings))
		for d := 0; d < 4; d++ {
			r := &ray[s][d]
			for i := 0; i < int(rayLen[s][d]); i++ {
				t := r[i]
				if empty&(1<<t) == 0 {
					break
				}
				buf = append(buf, Move{from: s, n: 1, path: [MaxJumps]Square{t}})
			}
		}
	}
	return buf
}

// AppendCaptures appends every capture of the side to move to buf: each
// distinct sequence of landing squares once.
func (p *Position) AppendCaptures(buf []Move) []Move {
	if p.variant == BashniMP {
		return p.appendCapturesMP(buf)
	}
	side := p.side
	cs := captureSearch{
		enemy:     p.tops[side.Opponent()],
		promotion: promotionMask[side],
		out:       buf,
	}
	occ := p.Occupied()
	// Only towers that can make a first jump are searched: in most
	// positions there are none, and the bit tricks say so at once.
	for towers := p.manCapturers() | p.kingCapturers(); towers != 0; towers &= towers - 1 {
		s := Square(bits.TrailingZeros32(towers))
		cs.from = s
		// The start square is empty for the whole move: it may be crossed
		// and landed on (docs/rules.md, What a jump takes).
		cs.occ = occ &^ (1 << s)
		if p.kings&(1<<s) != 0 {
			cs.king(s, 0, 0)
		} else {
			cs.man(s, 0, 0)
		}
	}
	return cs.out
}

// captureSearch walks the tree of capture sequences of one tower.
// Jumped towers stay on their squares until the move ends (they are in occ
// and block), and are marked in the jumped mask so they are never jumped
// twice (docs/rules.md, What a jump takes).
type captureSearch struct {
	from      Square
	enemy     uint32 // squares topped by the opponent
	occ       uint32 // occupied squares during the move (start square excluded)
	promotion uint32 // the mover's far rank
	path      [MaxJumps]Square
	jumped    [MaxJumps]Square
	out       []Move
}

// man continues a capture by a man-topped tower standing on cur after n legs.
func (c *captureSearch) man(cur Square, n int, jumped uint32) {
	found := false
	for d := 0; d < 4; d++ {
		if rayLen[cur][d] < 2 {
			continue
		}
		over, land := ray[cur][d][0], ray[cur][d][1]
		if c.enemy&^jumped&(1<<over) == 0 || c.occ&(1<<land) != 0 {
			continue
		}
		found = true
		c.path[n], c.jumped[n] = land, over
		if c.promotion&(1<<land) != 0 {
			// Crowned on landing; the capture goes on as a king
			// (docs/rules.md, Captures: a man that lands on the far rank).
			c.king(land, n+1, jumped|1<<over)
		} else {
			c.man(land, n+1, jumped|1<<over)
		}
	}
	if !found && n > 0 {
		c.emit(n)
	}
}

// king continues a capture by a king-topped tower standing on cur after n legs.
func (c *captureSearch) king(cur Square, n int, jumped uint32) {
	found := false
	for d := 0; d < 4; d++ {
		r := &ray[cur][d]
		length := int(rayLen[cur][d])
		i := 0
		for i < length && c.occ&(1<<r[i]) == 0 {
			i++
		}
		if i >= length-1 {
			continue // nothing on this diagonal, or it stands on the edge
		}
		over := r[i]
		if c.enemy&^jumped&(1<<over) == 0 || c.occ&(1<<r[i+1]) != 0 {
			continue
		}
		found = true
		jumpedNow := jumped | 1<<over
		// The landing squares run up to the next occupied square or the
		// edge. If the capture can go on from some of them, the king must
		// land on one of those (docs/rules.md, Choice of landing square).
		first, last := i+1, i+1
		for last+1 < length && c.occ&(1<<r[last+1]) == 0 {
			last++
		}
		anyContinues := false
		for j := first; j <= last; j++ {
			if kingCanCapture(r[j], c.enemy, c.occ, jumpedNow) {
				anyContinues = true
				break
			}
		}
		c.jumped[n] = over
		for j := first; j <= last; j++ {
			land := r[j]
			c.path[n] = land
			if anyContinues {
				if kingCanCapture(land, c.enemy, c.occ, jumpedNow) {
					c.king(land, n+1, jumpedNow)
				}
			} else {
				c.emit(n + 1)
			}
		}
	}
	if !found && n > 0 {
		c.emit(n)
	}
}

// emit records the capture whose first n legs are in path and jumped.
func (c *captureSearch) emit(n int) {
	m := Move{from: c.from, n: uint8(n), capture: true}
	copy(m.path[:n], c.path[:n])
	copy(m.jumped[:n], c.jumped[:n])
	c.out = append(c.out, m)
}

// kingCanCapture reports whether a king on s can jump an enemy tower that is
// not yet jumped.
func kingCanCapture(s Square, enemy, occ, jumped uint32) bool {
	for d := 0; d < 4; d++ {
		r := &ray[s][d]
		length := int(rayLen[s][d])
		i := 0
		for i < length && occ&(1<<r[i]) == 0 {
			i++
		}
		if i >= length-1 {
			continue
		}
		if enemy&^jumped&(1<<r[i]) != 0 && occ&(1<<r[i+1]) == 0 {
			return true
		}
	}
	return false
}

// countQuiet counts the non-capturing moves without building them (perft's
// bulk counting at the last ply).
func (p *Position) countQuiet() int {
	side := p.side
	own := p.tops[side]
	empty := ^p.Occupied()
	men := own &^ p.kings
	n := 0
	for _, d := range forward[side] {
		n += bits.OnesCount32(men & step(empty, opposite[d]))
	}
	for kings := own & p.kings; kings != 0; kings &= kings - 1 {
		s := Square(bits.TrailingZeros32(kings))
		for d := 0; d < 4; d++ {
			r := &ray[s][d]
			for i := 0; i < int(rayLen[s][d]) && empty&(1<<r[i]) != 0; i++ {
				n++
			}
		}
	}
	return n
}

package rules

import "math/bits"

// Position is a board with the side to move. It is a value: copy it, compare
// it with ==, and apply moves to get new positions. The zero Position is the
// empty board with White to move, playing Bashni.
type Position struct {
	towers  [NumSquares]Tower
	tops    [2]uint32 // squares whose top piece is White's / Black's
	kings   uint32    // squares whose top piece is a king
	side    Color
	variant Variant
	hash    uint64 // Zobrist hash, kept up to date by setTower
}

// StartText is the start position in the position format.
const StartText = "w:a1w,c1w,e1w,g1w,b2w,d2w,f2w,h2w,a3w,c3w,e3w,g3w,b6b,d6b,f6b,h6b,a7b,c7b,e7b,g7b,b8b,d8b,f8b,h8b"

// Start returns the start position of the given variant: twelve men each,
// White on ranks 1–3, Black on ranks 6–8, White to move.
func Start(v Variant) Position {
	var p Position
	p.setVariant(v)
	for s := Square(0); s < 12; s++ {
		p.setTower(s, Tower(WhiteMan)|1<<towerHeightShift)
		p.setTower(s+20, Tower(BlackMan)|1<<towerHeightShift)
	}
	return p
}

// Tower returns the tower on square s (the zero Tower if the square is empty).
func (p *Position) Tower(s Square) Tower { return p.towers[s] }

// SideToMove returns the colour whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// Variant returns the variant the position is played under.
func (p *Position) Variant() Variant { return p.variant }

// WithVariant returns the same board played under variant v.
func (p Position) WithVariant(v Variant) Position {
	p.setVariant(v)
	return p
}

// setVariant sets the variant, keeping the hash in step. A variant the
// package does not know is kept as Bashni.
func (p *Position) setVariant(v Variant) {
	if v > BashniMP {
		v = Bashni
	}
	p.hash ^= zobristVariant[p.variant] ^ zobristVariant[v]
	p.variant = v
}

// WithSideToMove returns the same board with c to move.
func (p Position) WithSideToMove(c Color) Position {
	if c != p.side {
		p.side = c
		p.hash ^= zobristBlack
	}
	return p
}

// Hash returns a 64-bit hash covering every piece of every tower, the side
// to move and the variant. It is updated incrementally as moves are applied.
func (p *Position) Hash() uint64 { return p.hash }

// Owned returns the set of squares whose tower belongs to c, as a bit mask
// (bit s set for square s).
func (p *Position) Owned(c Color) uint32 { return p.tops[c] }

// KingTopped returns the set of squares whose top piece is a king.
func (p *Position) KingTopped() uint32 { return p.kings }

// Occupied returns the set of squares that hold a tower.
func (p *Position) Occupied() uint32 { return p.tops[White] | p.tops[Black] }

// Count returns how many pieces of colour c are on the board, anywhere in
// any tower, and how many of them are kings.
func (p *Position) Count(c Color) (pieces, kings int) {
	occ := p.Occupied()
	for occ != 0 {
		s := Square(bits.TrailingZeros32(occ))
		occ &= occ - 1
		t := p.towers[s]
		for i, h := 0, t.Height(); i < h; i++ {
			if pc := t.Piece(i); pc.Color() == c {
				pieces++
				if pc.IsKing() {
					kings++
				}
			}
		}
	}
	return
}

// setTower puts t on square s, keeping the masks and the hash in step.
func (p *Position) setTower(s Square, t Tower) {
	old := p.towers[s]
	p.hash ^= towerHash(s, old) ^ towerHash(s, t)
	p.towers[s] = t
	bit := uint32(1) << s
	p.tops[White] &^= bit
	p.tops[Black] &^= bit
	p.kings &^= bit
	if t.Empty() {
		return
	}
	top := t.Top()
	p.tops[top.Color()] |= bit
	if top.IsKing() {
		p.kings |= bit
	}
}

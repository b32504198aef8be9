package rules

import "math/bits"

// appendCapturesMP appends the captures of the side to move under the other
// school's rule (docs/rules.md, What a jump takes, the last paragraph): each jump
// takes the top piece at once, so the jumped tower's rest stays on its
// square (blocking if it is now the mover's, jumpable again if still the
// opponent's, gone if it was one piece), and the very next jump may not go
// over the same tower.
func (p *Position) appendCapturesMP(buf []Move) []Move {
	side := p.side
	cs := mpSearch{
		side:      side,
		towers:    p.towers,
		enemy:     p.tops[side.Opponent()],
		promotion: promotionMask[side],
		out:       buf,
	}
	occ := p.Occupied()
	for towers := p.manCapturers() | p.kingCapturers(); towers != 0; towers &= towers - 1 {
		s := Square(bits.TrailingZeros32(towers))
		cs.from = s
		cs.occ = occ &^ (1 << s)
		if p.kings&(1<<s) != 0 {
			cs.king(s, 0, NumSquares)
		} else {
			cs.man(s, 0, NumSquares)
		}
	}
	return cs.out
}

// mpSearch walks the capture sequences of one tower under the other
// school's rule. Unlike captureSearch the board changes during the walk:
// towers, enemy and occ are updated by each jump and restored after it.
type mpSearch struct {
	from      Square
	side      Color
	towers    [NumSquares]Tower
	enemy     uint32
	occ       uint32
	promotion uint32
	path      [MaxJumps]Square
	jumped    [MaxJumps]Square
	out       []Move
}

// take plays one jump's effect on the jumped tower: its top piece goes, and
// the square's masks follow what remains. It returns what undo needs.
func (c *mpSearch) take(over Square) (Tower, uint32, uint32) {
	old, enemy, occ := c.towers[over], c.enemy, c.occ
	_, rest := old.popTop()
	c.towers[over] = rest
	bit := uint32(1) << over
	switch {
	case rest.Empty():
		c.occ &^= bit
		c.enemy &^= bit
	case rest.Owner() == c.side:
		c.enemy &^= bit // a freed piece of the mover's: it blocks
	}
	return old, enemy, occ
}

func (c *mpSearch) undo(over Square, old Tower, enemy, occ uint32) {
	c.towers[over], c.enemy, c.occ = old, enemy, occ
}

// man continues a capture by a man-topped tower on cur after n legs; last
// is the tower jumped by leg n-1, which leg n may not jump.
func (c *mpSearch) man(cur Square, n int, last Square) {
	found := false
	for d := 0; d < 4; d++ {
		if rayLen[cur][d] < 2 {
			continue
		}
		over, land := ray[cur][d][0], ray[cur][d][1]
		if over == last || c.enemy&(1<<over) == 0 || c.occ&(1<<land) != 0 {
			continue
		}
		found = true
		c.path[n], c.jumped[n] = land, over
		old, enemy, occ := c.take(over)
		if c.promotion&(1<<land) != 0 {
			c.king(land, n+1, over)
		} else {
			c.man(land, n+1, over)
		}
		c.undo(over, old, enemy, occ)
	}
	if !found && n > 0 {
		c.emit(n)
	}
}

// king continues a capture by a king-topped tower on cur after n legs.
func (c *mpSearch) king(cur Square, n int, last Square) {
	found := false
	for d := 0; d < 4; d++ {
		r := &ray[cur][d]
		length := int(rayLen[cur][d])
		i := 0
		for i < length && c.occ&(1<<r[i]) == 0 {
			i++
		}
		if i >= length-1 {
			continue
		}
		over := r[i]
		if over == last || c.enemy&(1<<over) == 0 || c.occ&(1<<r[i+1]) != 0 {
			continue
		}
		found = true
		c.jumped[n] = over
		old, enemy, occ := c.take(over)
		// The landing squares run up to the next occupied square or the
		// edge; where the capture can go on, the king must land on such a
		// square (docs/rules.md, Choice of landing square). From there the tower
		// just jumped is not yet jumpable again.
		first, lastLand := i+1, i+1
		for lastLand+1 < length && c.occ&(1<<r[lastLand+1]) == 0 {
			lastLand++
		}
		notNext := uint32(1) << over
		anyContinues := false
		for j := first; j <= lastLand; j++ {
			if kingCanCapture(r[j], c.enemy, c.occ, notNext) {
				anyContinues = true
				break
			}
		}
		for j := first; j <= lastLand; j++ {
			land := r[j]
			c.path[n] = land
			if anyContinues {
				if kingCanCapture(land, c.enemy, c.occ, notNext) {
					c.king(land, n+1, over)
				}
			} else {
				c.emit(n + 1)
			}
		}
		c.undo(over, old, enemy, occ)
	}
	if !found && n > 0 {
		c.emit(n)
	}
}

func (c *mpSearch) emit(n int) {
	m := Move{from: c.from, n: uint8(n), capture: true}
	copy(m.path[:n], c.path[:n])
	copy(m.jumped[:n], c.jumped[:n])
	c.out = append(c.out, m)
}

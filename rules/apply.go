package rules

// Play returns the position after move m, which must be one of p's legal
// moves (use Game.Play or ParseMove to check moves from outside).
func (p Position) Play(m Move) Position {
	side := p.side
	mover := p.towers[m.from]
	p.setTower(m.from, 0)
	if m.capture {
		// Jumped pieces are taken when the whole move ends; the first one
		// jumped goes directly under the capturer's own pieces, the last
		// one at the very bottom (docs/rules.md, What a jump takes).
		for i := 0; i < int(m.n); i++ {
			j := m.jumped[i]
			prisoner, rest := p.towers[j].popTop()
			if p.variant == Russian {
				p.setTower(j, 0)
				continue
			}
			p.setTower(j, rest)
			mover = mover.pushBottom(prisoner)
		}
	}
	if !mover.Top().IsKing() && m.crowns(side) {
		mover = mover.crownTop()
	}
	p.setTower(m.To(), mover)
	p.side = side.Opponent()
	p.hash ^= zobristBlack
	return p
}

// crowns reports whether the move passes a landing square on side's far
// rank. A man crowned mid-capture stays crowned (docs/rules.md, Captures).
func (m Move) crowns(side Color) bool {
	for i := 0; i < int(m.n); i++ {
		if promotionMask[side]&(1<<m.path[i]) != 0 {
			return true
		}
	}
	return false
}

// Crowns reports whether playing m in p crowns the moving tower's top piece.
func (p *Position) Crowns(m Move) bool {
	return !p.towers[m.from].Top().IsKing() && m.crowns(p.side)
}

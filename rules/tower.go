package rules

import "errors"

// MaxTowerHeight is the tallest possible tower: all 24 pieces.
const MaxTowerHeight = 24

// Tower is the column of pieces on one square, top first. The zero Tower is
// an empty square. A Tower is a small value (one machine word): two bits a
// piece, the height in the top byte, so taking the top piece and putting a
// prisoner at the bottom are single shifts.
type Tower uint64

const towerHeightShift = 56

// NewTower builds a tower from its pieces, top first.
func NewTower(pieces ...Piece) (Tower, error) {
	if len(pieces) > MaxTowerHeight {
		return 0, errors.New("rules: a tower holds at most 24 pieces")
	}
	var t Tower
	for _, p := range pieces {
		t = t.pushBottom(p)
	}
	return t, nil
}

// Height is the number of pieces in the tower; 0 for an empty square.
func (t Tower) Height() int { return int(t >> towerHeightShift) }

// Empty reports whether the square holds no tower.
func (t Tower) Empty() bool { return t == 0 }

// Piece returns the i-th piece from the top (0 is the top).
func (t Tower) Piece(i int) Piece { return Piece(t>>(2*uint(i))) & 3 }

// Top returns the top piece, which decides who owns the tower and how it moves.
func (t Tower) Top() Piece { return Piece(t) & 3 }

// Owner returns the colour of the top piece.
func (t Tower) Owner() Color { return t.Top().Color() }

// Pieces returns the pieces top first.
func (t Tower) Pieces() []Piece {
	ps := make([]Piece, t.Height())
	for i := range ps {
		ps[i] = t.Piece(i)
	}
	return ps
}

// Bands counts the runs of one colour from top to bottom. Every tower reached
// in play has at most two (docs/rules.md, Towers: at most two bands of colour).
func (t Tower) Bands() int {
	h := t.Height()
	if h == 0 {
		return 0
	}
	bands := 1
	for i := 1; i < h; i++ {
		if t.Piece(i).Color() != t.Piece(i-1).Color() {
			bands++
		}
	}
	return bands
}

// String returns the tower in the letters of the position format, top first.
func (t Tower) String() string {
	b := make([]byte, t.Height())
	for i := range b {
		b[i] = t.Piece(i).Letter()
	}
	return string(b)
}

// popTop removes the top piece and returns it with the rest of the tower.
func (t Tower) popTop() (Piece, Tower) {
	h := t.Height()
	top := t.Top()
	pieces := (t & (1<<48 - 1)) >> 2
	return top, pieces | Tower(h-1)<<towerHeightShift
}

// pushBottom puts p under the tower's lowest piece.
func (t Tower) pushBottom(p Piece) Tower {
	h := t.Height()
	pieces := t&(1<<48-1) | Tower(p)<<(2*uint(h))
	return pieces | Tower(h+1)<<towerHeightShift
}

// crownTop makes the top piece a king.
func (t Tower) crownTop() Tower { return t | 2 }

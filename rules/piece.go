package rules

// Color is a side: White or Black.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Opponent returns the other colour.
func (c Color) Opponent() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Piece is one draughts piece: a colour and a rank (man or king). A piece
// keeps its rank forever, also while it is a prisoner inside a tower.
type Piece uint8

// The four pieces. Bit 0 is the colour, bit 1 the king flag.
const (
	WhiteMan  Piece = 0
	BlackMan  Piece = 1
	WhiteKing Piece = 2
	BlackKing Piece = 3
)

// Color returns the piece's colour.
func (p Piece) Color() Color { return Color(p & 1) }

// IsKing reports whether the piece is a king.
func (p Piece) IsKing() bool { return p&2 != 0 }

// Crowned returns the piece as a king.
func (p Piece) Crowned() Piece { return p | 2 }

// Letter returns the piece's letter in the position format: w, b, W or B.
func (p Piece) Letter() byte { return "wbWB"[p&3] }

func (p Piece) String() string { return string(p.Letter()) }

// pieceFromLetter is the inverse of Letter.
func pieceFromLetter(c byte) (Piece, bool) {
	switch c {
	case 'w':
		return WhiteMan, true
	case 'b':
		return BlackMan, true
	case 'W':
		return WhiteKing, true
	case 'B':
		return BlackKing, true
	}
	return 0, false
}

package rules

import (
	"slices"
	"strings"
)

// MaxJumps bounds the legs of one capture: each leg jumps a different tower
// topped by the opponent, and the opponent has at most twelve pieces.
const MaxJumps = 12

// Move is one legal move: a quiet step or slide, or a capture through one or
// more landing squares. Moves are small comparable values; two moves are
// the same move exactly when they are ==.
type Move struct {
	from    Square
	n       uint8 // number of landing squares
	capture bool
	path    [MaxJumps]Square // landing squares in order; path[n-1] is the destination
	jumped  [MaxJumps]Square // jumped[i] is the tower jumped on leg i
}

// From returns the square the moving tower starts on.
func (m Move) From() Square { return m.from }

// To returns the square the moving tower ends on.
func (m Move) To() Square { return m.path[m.n-1] }

// IsCapture reports whether the move jumps at least one tower.
func (m Move) IsCapture() bool { return m.capture }

// Len returns the number of landing squares: 1 for a quiet move, the number
// of jumps for a capture.
func (m Move) Len() int { return int(m.n) }

// Landing returns the i-th landing square (0 ≤ i < Len).
func (m Move) Landing(i int) Square { return m.path[i] }

// Jumped returns the tower jumped on the i-th leg of a capture (0 ≤ i < Len).
func (m Move) Jumped(i int) Square { return m.jumped[i] }

// Squares returns the start square followed by every landing square.
func (m Move) Squares() []Square {
	out := make([]Square, 0, m.n+1)
	out = append(out, m.from)
	return append(out, m.path[:m.n]...)
}

// JumpedSquares returns the jumped towers' squares in the order jumped.
func (m Move) JumpedSquares() []Square {
	if !m.capture {
		return nil
	}
	return append([]Square(nil), m.jumped[:m.n]...)
}

// String returns the move in notation: "c3-d4" for a quiet move,
// "c3:e5:c7" for a capture, listing every landing square.
func (m Move) String() string {
	if m.n == 0 {
		return "(none)"
	}
	var b strings.Builder
	b.Grow(3 * (int(m.n) + 1))
	b.WriteString(m.from.String())
	sep := byte('-')
	if m.capture {
		sep = ':'
	}
	for i := 0; i < int(m.n); i++ {
		b.WriteByte(sep)
		b.WriteString(m.path[i].String())
	}
	return b.String()
}

// MarshalText writes the move in notation.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// JoinMoves formats moves in notation joined by sep.
func JoinMoves(moves []Move, sep string) string {
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// SortedMoves returns a copy of moves in notation order (by start square's
// name, then the landing squares), the order people scan a list in.
func SortedMoves(moves []Move) []Move {
	out := slices.Clone(moves)
	slices.SortFunc(out, func(a, b Move) int { return strings.Compare(a.String(), b.String()) })
	return out
}

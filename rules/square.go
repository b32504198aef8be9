package rules

import "fmt"

// Square is one of the 32 dark squares, numbered by rank then file:
// 0 is a1, 1 is c1, 4 is b2, 31 is h8.
type Square uint8

// NumSquares is the number of playable squares.
const NumSquares = 32

// Rank is 0 for rank 1 (White's back rank) up to 7 for rank 8.
func (s Square) Rank() int { return int(s) / 4 }

// File is 0 for file a up to 7 for file h.
func (s Square) File() int { return 2*(int(s)%4) + s.Rank()%2 }

// String returns the square's name, e.g. "c3".
func (s Square) String() string {
	if s >= NumSquares {
		return fmt.Sprintf("Square(%d)", uint8(s))
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// SquareAt returns the dark square at file and rank (both 0..7). ok is false
// off the board or on a light square.
func SquareAt(file, rank int) (s Square, ok bool) {
	if file < 0 || file > 7 || rank < 0 || rank > 7 || (file+rank)%2 != 0 {
		return 0, false
	}
	return Square(rank*4 + file/2), true
}

// ParseSquare reads a square name. It forgives an upper-case file letter and
// the Cyrillic look-alikes of a, c and e that Russian keyboards produce.
func ParseSquare(name string) (Square, error) {
	r := []rune(name)
	if len(r) != 2 {
		return 0, fmt.Errorf("rules: %q is not a square (want a file a–h and a rank 1–8, e.g. c3)", name)
	}
	f, ok := fileLetter(r[0])
	if !ok || r[1] < '1' || r[1] > '8' {
		return 0, fmt.Errorf("rules: %q is not a square (want a file a–h and a rank 1–8, e.g. c3)", name)
	}
	s, ok := SquareAt(f, int(r[1]-'1'))
	if !ok {
		return 0, &LightSquareError{Name: name}
	}
	return s, nil
}

// LightSquareError names a light square where a dark one was needed: no
// tower ever stands on one.
type LightSquareError struct {
	Name string // as written
}

func (e *LightSquareError) Error() string {
	return fmt.Sprintf("rules: %s is a light square; play is on the dark squares only", e.Name)
}

// fileLetter maps a file letter to 0..7, accepting upper case and the
// Cyrillic letters that look like a, c and e.
func fileLetter(r rune) (int, bool) {
	switch r {
	case 'а', 'А': // Cyrillic a
		return 0, true
	case 'с', 'С': // Cyrillic es, looks like c
		return 2, true
	case 'е', 'Е': // Cyrillic ie, looks like e
		return 4, true
	}
	if r >= 'A' && r <= 'H' {
		r += 'a' - 'A'
	}
	if r >= 'a' && r <= 'h' {
		return int(r - 'a'), true
	}
	return 0, false
}

// Directions along diagonals. White moves forward along NorthEast and
// NorthWest (towards rank 8), Black along SouthEast and SouthWest.
const (
	NorthEast = iota
	NorthWest
	SouthEast
	SouthWest
)

// Geometry tables, filled once: ray[s][d][i] is the i-th square from s in
// direction d; rayLen[s][d] how many squares there are before the edge.
var (
	ray    [NumSquares][4][7]Square
	rayLen [NumSquares][4]uint8
)

// promotionRank is the far rank of each colour, where its men are crowned.
var promotionRank = [2]int{7, 0}

// promotionMask holds the squares of each colour's far rank.
var promotionMask [2]uint32

func init() {
	df := [4]int{1, -1, 1, -1}
	dr := [4]int{1, 1, -1, -1}
	for s := Square(0); s < NumSquares; s++ {
		for d := 0; d < 4; d++ {
			f, r := s.File(), s.Rank()
			for {
				f, r = f+df[d], r+dr[d]
				t, ok := SquareAt(f, r)
				if !ok {
					break
				}
				ray[s][d][rayLen[s][d]] = t
				rayLen[s][d]++
			}
		}
		for c := 0; c < 2; c++ {
			if s.Rank() == promotionRank[c] {
				promotionMask[c] |= 1 << s
			}
		}
	}
}

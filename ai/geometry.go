package ai

import "github.com/bashni/bashni/rules"

// Diagonal geometry, computed once from the rules package's square
// numbering: rays[s][d] lists the squares from s in direction d to the edge,
// step[c][s] the squares a man of colour c on s may step to.
var (
	rays     [rules.NumSquares][4][]rules.Square
	rayMask  [rules.NumSquares][4]uint32 // every square of rays[s][d]
	step     [2][rules.NumSquares]uint32
	neighbor [rules.NumSquares]uint32 // the up to four diagonal neighbours
)

// relRank is a square's rank counted from colour c's own back rank.
func relRank(c rules.Color, s rules.Square) int {
	if c == rules.White {
		return s.Rank()
	}
	return 7 - s.Rank()
}

func init() {
	df := [4]int{1, -1, 1, -1}
	dr := [4]int{1, 1, -1, -1}
	for s := rules.Square(0); s < rules.NumSquares; s++ {
		for d := 0; d < 4; d++ {
			f, r := s.File(), s.Rank()
			for {
				f, r = f+df[d], r+dr[d]
				t, ok := rules.SquareAt(f, r)
				if !ok {
					break
				}
				rays[s][d] = append(rays[s][d], t)
				rayMask[s][d] |= 1 << t
			}
			if len(rays[s][d]) > 0 {
				neighbor[s] |= 1 << rays[s][d][0]
				// NorthEast and NorthWest are White's forward directions.
				c := rules.White
				if d >= rules.SouthEast {
					c = rules.Black
				}
				step[c][s] |= 1 << rays[s][d][0]
			}
		}
	}
}

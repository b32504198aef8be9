package ai

import "github.com/bashni/bashni/rules"

// Diagonal geometry, computed once from the rules package's square
// numbering: rays[s][d] lists the squares from s in direction d to the edge,
// step[c][s] the squares a man of colour c on s may step to.
var (
	rays [rules.NumSquares][4][]rules.Square
	step [2][rules.NumSquares]uint32
)

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
			}
			if len(rays[s][d]) > 0 {
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

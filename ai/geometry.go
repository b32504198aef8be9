package ai

import "github.com/bashni/bashni/rules"

// rays[s][d] lists the squares from s in direction d to the edge, computed
// once from the rules package's square numbering.
var rays [rules.NumSquares][4][]rules.Square

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
		}
	}
}

package miniapp

import (
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/rules"
)

// lineStep is one move of an ended puzzle's line and the position after
// it: the page draws each in turn, animating the move, with no rules of
// its own.
type lineStep struct {
	Move     move   `json:"move"`
	Position string `json:"position"`
}

// withLine adds an ended puzzle's line (training's, found at the puzzles'
// budget) to its state: the steps from the end of the solution, and the
// line in words on the status.
func (s *Server) withLine(st *state, res *training.PuzzleResult, lang string) {
	if len(res.Line) == 0 {
		return
	}
	pos := res.Puzzle.Position
	for _, m := range res.Puzzle.Solution {
		pos = pos.Play(m)
	}
	st.LineFrom = pos.String()
	for _, m := range res.Line {
		pos = pos.Play(m)
		st.Line = append(st.Line, lineStep{Move: moveOf(m), Position: pos.String()})
	}
	st.Status += " · " + s.texts.T(lang, "puzzle_line_words", "Line", rules.JoinMoves(res.Line, " "))
}

package miniapp

import (
	"net/http"

	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/rules"
)

// The puzzle trainer on the live board. The page opened with the start
// parameter "puzzle" shows the viewer's puzzle under way (the one /puzzle
// gave them in the chat) as a board like a game's, the solver's side at
// the bottom; a move is checked and the reply played as in the chat, and
// both doors share the one attempt stored with the user.

// PuzzleParam is the start parameter that opens the viewer's puzzle.
const PuzzleParam = "puzzle"

// puzzleFail refuses a puzzle request, with the puzzle as it is now when
// the board is behind.
func (s *Server) puzzleFail(w http.ResponseWriter, r *http.Request, v viewer, err error) {
	code := statusOf(err)
	body := errorBody{Error: s.texts.Error(v.lang, err, false)}
	if code == http.StatusConflict || code == http.StatusUnprocessableEntity {
		if cur, cerr := s.opts.Puzzles.Current(r.Context(), v.user.ID); cerr == nil {
			st := s.puzzleState(cur, nil, v)
			body.State = &st
		}
	}
	writeJSON(w, code, body)
}

func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request, v viewer) {
	cur, err := s.opts.Puzzles.Current(r.Context(), v.user.ID)
	if err != nil {
		s.puzzleFail(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.puzzleState(cur, nil, v))
}

func (s *Server) handlePuzzleMove(w http.ResponseWriter, r *http.Request, v viewer) {
	req, ok := s.readMove(w, r, v)
	if !ok {
		return
	}
	cur, err := s.opts.Puzzles.Current(r.Context(), v.user.ID)
	if err != nil {
		s.puzzleFail(w, r, v, err)
		return
	}
	res, err := s.move(r.Context(), v.user.ID, cur.Puzzle.ID, req.Ply, req.Move)
	if err != nil {
		s.puzzleFail(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.puzzleState(&res.PuzzleState, res, v))
}

func (s *Server) handlePuzzleNext(w http.ResponseWriter, r *http.Request, v viewer) {
	next, err := s.nextPuzzle(r.Context(), v.user.ID, r.URL.Query().Get("streak"))
	if err != nil {
		s.puzzleFail(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.puzzleState(next, nil, v))
}

// puzzleState is a puzzle as the viewer's board shows it: under way (res
// nil, or a right move answered), or ended by res.
func (s *Server) puzzleState(cur *training.PuzzleState, res *training.PuzzleResult, v viewer) state {
	lang := v.lang
	pz := cur.Puzzle
	solver := pz.Solver()
	played := pz.Solution[:cur.Moves]
	done := res != nil && res.Done
	if done && !res.Solved {
		// The position after the miss; the board shows the move that lost.
		played = append(append([]rules.Move{}, pz.Solution[:cur.Moves]...), res.Played)
	}
	st := state{
		ID: PuzzleParam, Ply: len(played), Position: cur.Position.String(), Turn: colorCode(cur.Position.SideToMove()),
		You: colorCode(solver), Active: !done, Lang: lang, Moves: []string{}, Legal: []move{},
	}
	me := player{Name: v.user.FirstName}
	them := player{Name: "🧩 #" + pz.ID}
	st.White, st.Black = me, them
	if solver == rules.Black {
		st.White, st.Black = them, me
	}
	for _, m := range played {
		st.Moves = append(st.Moves, m.String())
	}
	if len(played) > 0 {
		mv := moveOf(played[len(played)-1])
		st.Last = &mv
	}
	line := rules.JoinMoves(pz.Solution, " ")
	switch {
	case !done:
		for _, m := range cur.Position.Legal() {
			st.Legal = append(st.Legal, moveOf(m))
		}
		side := "puzzle_white"
		if solver == rules.Black {
			side = "puzzle_black"
		}
		st.Status = s.texts.T(lang, side)
	case res.Solved:
		st.Status = s.texts.T(lang, "puzzle_solved", "Solution", line)
	default:
		st.Status = s.texts.T(lang, "puzzle_failed", "Move", res.Played.String(), "Solution", line)
	}
	if done {
		s.withLine(&st, res, lang)
	}
	s.withStreak(&st, cur, res, lang)
	st.Texts = textsOfApp{}
	for _, id := range append(pageTexts, "btn_next_puzzle", "btn_play_line", "btn_streak", "btn_streak_again") {
		st.Texts[id] = s.texts.T(lang, id)
	}
	st.Texts["app_tower"] = s.texts.T(lang, "app_tower", "Square", "{sq}")
	return st
}

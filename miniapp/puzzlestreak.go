package miniapp

import (
	"context"

	"github.com/bashni/bashni/play/training"
)

// Puzzle Streak on the live board: the viewer's puzzle under way may be a
// run's (begun in the chat or here); its moves go through the streak's
// service, which enters a new best on the boards, and the page's next
// puzzle goes on with the run ("/api/puzzle/next?streak=next") or begins
// one ("?streak=start").

// move plays a move in the viewer's puzzle.
func (s *Server) move(ctx context.Context, userID int64, id string, ply int, text string) (*training.PuzzleResult, error) {
	if s.opts.Streak != nil {
		return s.opts.Streak.Move(ctx, userID, id, ply, text)
	}
	return s.opts.Puzzles.Move(ctx, userID, id, ply, text)
}

// nextPuzzle is the viewer's next puzzle: a new one, or with Streak set
// the run's next ("next") or a new run's first ("start").
func (s *Server) nextPuzzle(ctx context.Context, userID int64, streak string) (*training.PuzzleState, error) {
	switch {
	case s.opts.Streak == nil || streak == "":
		return s.opts.Puzzles.Next(ctx, userID)
	case streak == "next":
		return s.opts.Streak.Next(ctx, userID)
	}
	return s.opts.Streak.Start(ctx, userID)
}

// withStreak says a run's puzzle on its state: the run so far on the
// status, and once it ended how it went and what comes next.
func (s *Server) withStreak(st *state, cur *training.PuzzleState, res *training.PuzzleResult, lang string) {
	if s.opts.Streak == nil {
		return
	}
	ended := res != nil && res.Done
	st.StreakOffer = ended
	if cur.Streak == nil {
		return
	}
	run := *cur.Streak
	st.Streak = &run
	if !ended {
		st.Status = s.texts.T(lang, "streak_caption", "Run", run) + " · " + st.Status
		return
	}
	if res.Solved {
		st.Status += " · " + s.texts.T(lang, "streak_go_on", "Run", res.Run)
		st.StreakNext, st.StreakOffer = "next", false
		if res.NewBest {
			st.Status += " " + s.texts.T(lang, "streak_new_best", "Best", res.Best)
		}
		return
	}
	st.Status += " · " + s.texts.T(lang, "streak_over", "Run", res.Run, "Best", res.Best)
}

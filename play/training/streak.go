package training

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// Streak serves Puzzle Streak, as lichess has it: puzzles of rising
// difficulty solved in a row until the first miss, no clock, unrated. A
// run's puzzles are the set in rising rating, every streakStep-th one from
// an offset that changes with each run; the run under way and the best are
// in the player's record (their attempt says it is a streak's), and a new
// best is entered on the boards of everyone (scope 0) and of the groups the
// player asked for /streak in. It is safe for concurrent use.
type Streak struct {
	store StreakStore
	pz    *Puzzles
}

// StreakStore is what Puzzle Streak needs: the user's record and the
// boards of bests (storage.StreakScope).
type StreakStore interface {
	play.UserStore
	SetStanding(ctx context.Context, scope int64, s *storage.Standing) error
	Standing(ctx context.Context, scope, userID int64) (storage.Standing, error)
	Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error)
}

// NewStreak serves runs of pz's puzzles.
func NewStreak(store StreakStore, pz *Puzzles) *Streak { return &Streak{store: store, pz: pz} }

// streakSpan is about how many puzzles a run climbs through from the
// easiest to the hardest: with the 560 shipped, every 5th (a 100-point
// step in rating each 20 or so puzzles).
const streakSpan = 100

// maxStreakGroups bounds the groups a player's best is entered in.
const maxStreakGroups = 8

// streakPuzzle is the set's index of the run-th puzzle of a run (0-based)
// of the runs-th run.
func (ix index) streakPuzzle(run, runs int) int {
	n := len(ix.byRating)
	step := max(1, n/streakSpan)
	return ix.byRating[(runs%step+run*step)%n]
}

// Start begins a new run for userID and gives its first puzzle.
func (s *Streak) Start(ctx context.Context, userID int64) (*PuzzleState, error) {
	return s.next(ctx, userID, true)
}

// Next gives the next puzzle of userID's run (the one under way, if a
// streak's puzzle is): after a solve the run goes on here.
func (s *Streak) Next(ctx context.Context, userID int64) (*PuzzleState, error) {
	return s.next(ctx, userID, false)
}

func (s *Streak) next(ctx context.Context, userID int64, fresh bool) (*PuzzleState, error) {
	if len(s.pz.set) == 0 {
		return nil, ErrNoPuzzlesSet
	}
	var st *PuzzleState
	_, err := play.ChangeUser(ctx, s.store, userID, func(u *storage.User) error {
		tr := &u.Training
		if !fresh && tr.Puzzle != nil && tr.Puzzle.Streak {
			if _, cur, err := s.pz.current(u); err == nil {
				st = cur
				return nil
			}
		}
		if fresh {
			tr.StreakRuns++
			tr.Streak = 0
		}
		pz := &s.pz.set[s.pz.idx.streakPuzzle(tr.Streak, tr.StreakRuns)]
		tr.Puzzle = &storage.PuzzleAttempt{ID: pz.ID, Streak: true}
		run := tr.Streak
		st = &PuzzleState{Puzzle: pz, Position: pz.Position, PlayerRating: playerRating(u).R, Streak: &run}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// endStreakPuzzle ends a streak's puzzle in tr: a solve goes on with the
// run (and may make a new best), a miss ends it. Neither is rated.
func endStreakPuzzle(tr *storage.Training, res *PuzzleResult) {
	if res.Solved {
		tr.Streak++
		if tr.Streak > tr.StreakBest {
			tr.StreakBest, res.NewBest = tr.Streak, true
		}
		res.Run = tr.Streak
	} else {
		res.Run, tr.Streak = tr.Streak, 0
	}
	res.Best = tr.StreakBest
}

// Move is Puzzles.Move, entering a new best on the boards.
func (s *Streak) Move(ctx context.Context, userID int64, id string, moves int, text string) (*PuzzleResult, error) {
	res, err := s.pz.Move(ctx, userID, id, moves, text)
	if err != nil || !res.NewBest {
		return res, err
	}
	// The move stands whatever the boards say: a board missed now is
	// written with the next best, or when the player asks for /streak.
	u, err := s.store.User(ctx, userID)
	if err != nil {
		s.pz.log.Warn("training: entering a streak best", "user", userID, "err", err)
		return res, nil
	}
	for _, chat := range append([]int64{0}, u.Training.StreakGroups...) {
		if err := s.enter(ctx, chat, u, res.Best); err != nil {
			s.pz.log.Warn("training: entering a streak best", "user", userID, "chat", chat, "err", err)
		}
	}
	return res, nil
}

// Join enters userID's best on group chat's board, now and whenever it
// grows: they asked for /streak there.
func (s *Streak) Join(ctx context.Context, chat, userID int64) (best int, err error) {
	u, err := play.ChangeUser(ctx, s.store, userID, func(u *storage.User) error {
		tr := &u.Training
		tr.StreakGroups = slices.DeleteFunc(tr.StreakGroups, func(c int64) bool { return c == chat })
		tr.StreakGroups = append(tr.StreakGroups, chat)
		if n := len(tr.StreakGroups); n > maxStreakGroups {
			tr.StreakGroups = tr.StreakGroups[n-maxStreakGroups:]
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if b := u.Training.StreakBest; b > 0 {
		return b, s.enter(ctx, chat, u, b)
	}
	return 0, nil
}

// enter raises u's line on chat's board of bests to best, by
// compare-and-set; a line already as high is left.
func (s *Streak) enter(ctx context.Context, chat int64, u *storage.User, best int) error {
	scope := storage.StreakScope(chat)
	for range maxAttempts {
		line, err := s.store.Standing(ctx, scope, u.ID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			line = storage.Standing{UserID: u.ID}
		case err != nil:
			return err
		}
		if line.Rating >= float64(best) && line.Name == u.Name {
			return nil
		}
		line.Name, line.Rating = u.Name, max(line.Rating, float64(best))
		err = s.store.SetStanding(ctx, scope, &line)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("training: streak board of %d: %w", chat, play.ErrBusy)
}

// Top is the n best runs of chat's board (0: everyone's).
func (s *Streak) Top(ctx context.Context, chat int64, n int) ([]storage.Standing, error) {
	return s.store.Top(ctx, storage.StreakScope(chat), n)
}

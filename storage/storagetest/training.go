package storagetest

import (
	"errors"
	"sync"
	"testing"

	"github.com/bashni/bashni/storage"
)

// testTraining: a user's course (place and stars) and puzzle progress
// round-trips with the user, and puzzle stats are written only from the version read.
func testTraining(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("UserProgress", func(t *testing.T) {
		s := newStore(t)
		u := user(3, "tess")
		u.Training = storage.Training{
			Lesson: 4,
			Task:   2,
			Missed: true,
			Stars:  map[string]int{"move": 0b111, "occupied": 0b010},
			Rating: storage.Glicko{R: 1623.25, RD: 71.5, Vol: 0.0599},
			Solved: []string{"abc12345", "zz"},
			Failed: []string{"q9"},
			Puzzle: &storage.PuzzleAttempt{ID: "abc99", Moves: 2},
		}
		checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
		got, err := s.User(ctxFor(t), 3)
		checkErr(t, "User", err, nil)
		checkDeep(t, "user with training", got, u)
	})

	// The puzzle rating's history and the Puzzle Streak (the run under
	// way, the best, the groups it is entered in) round-trip too.
	t.Run("StreakAndHistory", func(t *testing.T) {
		s := newStore(t)
		u := user(4, "sam")
		u.Training = storage.Training{
			History:      []int{1500, 1523, 1511},
			Streak:       3,
			StreakRuns:   2,
			StreakBest:   7,
			StreakGroups: []int64{-1001234567890, -42},
			Puzzle:       &storage.PuzzleAttempt{ID: "s1", Moves: 2, Streak: true},
		}
		checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
		got, err := s.User(ctxFor(t), 4)
		checkErr(t, "User", err, nil)
		checkDeep(t, "user with a streak and a history", got, u)
	})

	// A group's board of streak bests is its own: a line there is not on
	// the group's board of ratings, nor the other way round.
	t.Run("StreakBoard", func(t *testing.T) {
		s := newStore(t)
		const chat = -1001234567890
		board := storage.StreakScope(chat)
		checkErr(t, "SetStanding streak", s.SetStanding(ctxFor(t), board, &storage.Standing{UserID: 4, Name: "sam", Rating: 7}), nil)
		checkErr(t, "SetStanding rating", s.SetStanding(ctxFor(t), chat, &storage.Standing{UserID: 5, Name: "kim", Rating: 1600}), nil)
		top, err := s.Top(ctxFor(t), board, 10)
		checkErr(t, "Top streak", err, nil)
		if len(top) != 1 || top[0].UserID != 4 || top[0].Rating != 7 {
			t.Errorf("the streak board = %+v, want sam's 7 alone", top)
		}
		top, err = s.Top(ctxFor(t), chat, 10)
		checkErr(t, "Top ratings", err, nil)
		if len(top) != 1 || top[0].UserID != 5 {
			t.Errorf("the rating board = %+v, want kim alone", top)
		}
	})

	t.Run("PuzzleStats", func(t *testing.T) {
		s := newStore(t)
		_, err := s.PuzzleStats(ctxFor(t), "p1")
		checkErr(t, "PuzzleStats of a new puzzle", err, storage.ErrNotFound)
		p := &storage.PuzzleStats{ID: "p1", Rating: storage.Glicko{R: 1400, RD: 350, Vol: 0.06}, Attempts: 1}
		checkErr(t, "PutPuzzleStats new", s.PutPuzzleStats(ctxFor(t), p), nil)
		if p.Version != 1 {
			t.Errorf("version after the first write = %d, want 1", p.Version)
		}
		got, err := s.PuzzleStats(ctxFor(t), "p1")
		checkErr(t, "PuzzleStats", err, nil)
		checkDeep(t, "stored puzzle", got, p)

		stale := *got
		got.Solves, got.Attempts = 1, 2
		checkErr(t, "PutPuzzleStats from v1", s.PutPuzzleStats(ctxFor(t), got), nil)
		checkErr(t, "PutPuzzleStats from a stale v1", s.PutPuzzleStats(ctxFor(t), &stale), storage.ErrConflict)
		again := &storage.PuzzleStats{ID: "p1"}
		checkErr(t, "PutPuzzleStats as new over a stored one", s.PutPuzzleStats(ctxFor(t), again), storage.ErrConflict)
		final, err := s.PuzzleStats(ctxFor(t), "p1")
		checkErr(t, "PuzzleStats", err, nil)
		checkDeep(t, "puzzle after a refused stale write", final, got)
	})

	// Many attempts at one puzzle at once: each write that succeeds was
	// made from the version it read, so none is lost.
	t.Run("PuzzleStatsRace", func(t *testing.T) {
		s := newStore(t)
		const writers = 8
		var wg sync.WaitGroup
		for range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					p, err := s.PuzzleStats(ctxFor(t), "hot")
					if err != nil {
						p = &storage.PuzzleStats{ID: "hot"}
					}
					p.Attempts++
					err = s.PutPuzzleStats(ctxFor(t), p)
					if err == nil {
						return
					}
					if !errors.Is(err, storage.ErrConflict) {
						t.Errorf("PutPuzzleStats: %v", err)
						return
					}
				}
			}()
		}
		wg.Wait()
		got, err := s.PuzzleStats(ctxFor(t), "hot")
		checkErr(t, "PuzzleStats", err, nil)
		if got.Attempts != writers || got.Version != writers {
			t.Errorf("after %d racing attempts: attempts %d, version %d", writers, got.Attempts, got.Version)
		}
	})
}

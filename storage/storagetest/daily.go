package storagetest

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bashni/bashni/storage"
)

// testDaily: the groups with the daily puzzle on, and each day's puzzle
// claimed by exactly one of many claimers, then written only from the
// version read.
func testDaily(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("Chats", func(t *testing.T) {
		s := newStore(t)
		got, err := s.DailyChats(ctxFor(t))
		checkErr(t, "DailyChats of a new store", err, nil)
		if got == nil || len(got) != 0 {
			t.Errorf("DailyChats of a new store = %#v, want an empty list", got)
		}
		checkErr(t, "SetDailyChat on", s.SetDailyChat(ctxFor(t), storage.DailyChat{ChatID: -100, Lang: "ru"}, true), nil)
		checkErr(t, "SetDailyChat on", s.SetDailyChat(ctxFor(t), storage.DailyChat{ChatID: -2000, Lang: "en"}, true), nil)
		checkErr(t, "SetDailyChat on again", s.SetDailyChat(ctxFor(t), storage.DailyChat{ChatID: -100, Lang: "en"}, true), nil)
		got, err = s.DailyChats(ctxFor(t))
		checkErr(t, "DailyChats", err, nil)
		checkDeep(t, "daily chats", got, []storage.DailyChat{{ChatID: -2000, Lang: "en"}, {ChatID: -100, Lang: "en"}})
		checkErr(t, "SetDailyChat off", s.SetDailyChat(ctxFor(t), storage.DailyChat{ChatID: -2000}, false), nil)
		checkErr(t, "SetDailyChat off an absent chat", s.SetDailyChat(ctxFor(t), storage.DailyChat{ChatID: -3}, false), nil)
		got, err = s.DailyChats(ctxFor(t))
		checkErr(t, "DailyChats", err, nil)
		checkDeep(t, "daily chats after one off", got, []storage.DailyChat{{ChatID: -100, Lang: "en"}})
		if err := s.SetDailyChat(ctxFor(t), storage.DailyChat{}, true); err == nil {
			t.Errorf("SetDailyChat without a chat id: no error")
		}
	})

	t.Run("ClaimAndUpdate", func(t *testing.T) {
		s := newStore(t)
		_, err := s.DailyPuzzle(ctxFor(t), -100, "2026-03-01")
		checkErr(t, "DailyPuzzle never claimed", err, storage.ErrNotFound)
		checkErr(t, "UpdateDaily never claimed", s.UpdateDaily(ctxFor(t), &storage.DailyPuzzle{ChatID: -100, Date: "2026-03-01", Version: 1}), storage.ErrNotFound)

		d := &storage.DailyPuzzle{ChatID: -100, Date: "2026-03-01", PuzzleID: "p1", Lang: "ru"}
		checkErr(t, "ClaimDaily", s.ClaimDaily(ctxFor(t), d), nil)
		if d.Version != 1 {
			t.Errorf("version after the claim = %d, want 1", d.Version)
		}
		again := &storage.DailyPuzzle{ChatID: -100, Date: "2026-03-01", PuzzleID: "p2"}
		checkErr(t, "ClaimDaily a claimed day", s.ClaimDaily(ctxFor(t), again), storage.ErrConflict)
		other := &storage.DailyPuzzle{ChatID: -100, Date: "2026-03-02", PuzzleID: "p2"}
		checkErr(t, "ClaimDaily the next day", s.ClaimDaily(ctxFor(t), other), nil)

		got, err := s.DailyPuzzle(ctxFor(t), -100, "2026-03-01")
		checkErr(t, "DailyPuzzle", err, nil)
		checkDeep(t, "claimed puzzle", got, d)

		stale := *got
		got.Tried = []int64{7, 8}
		got.Solvers = []storage.DailySolver{{UserID: 8, Name: "Ann"}}
		got.Solved = 1
		checkErr(t, "UpdateDaily from v1", s.UpdateDaily(ctxFor(t), got), nil)
		if got.Version != 2 {
			t.Errorf("version after an update = %d, want 2", got.Version)
		}
		checkErr(t, "UpdateDaily from a stale v1", s.UpdateDaily(ctxFor(t), &stale), storage.ErrConflict)
		final, err := s.DailyPuzzle(ctxFor(t), -100, "2026-03-01")
		checkErr(t, "DailyPuzzle", err, nil)
		checkDeep(t, "puzzle after a refused stale write", final, got)
	})

	// Several replicas claim one day at once: exactly one wins.
	t.Run("ClaimRace", func(t *testing.T) {
		s := newStore(t)
		const claimers = 8
		var wins, conflicts atomic.Int32
		var wg sync.WaitGroup
		for range claimers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.ClaimDaily(ctxFor(t), &storage.DailyPuzzle{ChatID: -5, Date: "2026-03-01", PuzzleID: "p"})
				switch {
				case err == nil:
					wins.Add(1)
				case errors.Is(err, storage.ErrConflict):
					conflicts.Add(1)
				default:
					t.Errorf("ClaimDaily: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 || conflicts.Load() != claimers-1 {
			t.Errorf("%d racing claims: %d won, %d conflicts; want 1 and %d", claimers, wins.Load(), conflicts.Load(), claimers-1)
		}
	})
}
